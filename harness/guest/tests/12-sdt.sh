# SPDX-License-Identifier: GPL-2.0
# SDT sites in a running kernel: listed with their operand specs, armed
# with a call of their own thunk (arm64: a branch to it) and of the
# trampoline (x86_64), and through optimized kprobes (x86_64) and int3
# (optimization off) once the mechanism is switched, arguments decoded,
# the module unloaded under an armed probe, EPERM on a count mismatch.
. /harness/lib.sh

L=/sys/kernel/debug/markers/list
OPT=/proc/sys/debug/kprobes-optimization
MECH=/sys/kernel/debug/markers/sdt_mechanism
hits() { step_dmesg | grep -c "sdt_probe_example: $1"; }
# x86_64 arms SDT sites with a call (a thunk or the trampoline) or
# kprobes, optimized or not; arm64 with a branch to a thunk, or with
# int3-style kprobes (BRK): it has no trampoline, nor optimized kprobes.
X86=
[ "$(uname -m)" = x86_64 ] && X86=1
if [ $X86 ]; then
	REG='%r[a-z0-9]*' ASM_SPEC='-8@%rax 8@%rsi' ARMED=call CALLS="thunk call"
else
	REG='x[0-9]*' ASM_SPEC='-8@x0 8@x1' ARMED=thunk CALLS=thunk
fi
types_args() {
	step_dmesg | grep "sdt_probe_example: sdt_example:types arg" | tail -n 1 |
		grep -q "arg0=-1 arg1=255 arg2=-2 arg3=65535 arg4=-3 arg5=4294967294 arg6=-4 arg7=-1$" ||
		fail "decoded arguments ($1): $(step_dmesg | grep 'sdt_example:types arg' | tail -n 1)"
}
# types_hit HOW: attach to sdt_example:types, wait for the listing to show
# it armed by HOW, fire it once: one hit, and its arguments decoded.
types_hit() {
	sdt_probe_example name=types nargs=8 || fail "attach to types"
	wait_listing sdt_example:types " $1 1 " || fail "not a $1: $(grep sdt_example:types $L)"
	n=$(hits "sdt_example:types")
	cat /proc/sdt-example
	expect_eq "types hits ($1)" "$(hits "sdt_example:types")" "$((n + 1))"
	types_args $1
}

grep -q "^module:live sdt \"8@$REG\" do_init_module+" $L || fail "vmlinux SDT site: $(grep module:live $L)"
modprobe sdt-example || fail "modprobe sdt-example"
for s in read types in_asm from_asm; do
	grep -q "^sdt_example:$s sdt \".*\" .* \[sdt_example\] dormant 0 0 " $L ||
		fail "sdt_example:$s listing: $(grep "sdt_example:$s " $L)"
done
grep -q '^sdt_example:types sdt "-1@[^ ]* 1@[^ ]* -2@[^ ]* 2@[^ ]* -4@[^ ]* 4@[^ ]* -8@[^ ]* 8@[^ ]*" ' $L ||
	fail "operand sizes: $(grep sdt_example:types $L)"
grep -q "^sdt_example:from_asm sdt \"$ASM_SPEC\" " $L || fail ".S site spec"

# The site's own thunk, the default mechanism, then (x86_64) a call of
# the trampoline: the same arguments. arm64 has no trampoline.
expect_eq "mechanism" "$(cat $MECH)" "thunk"
if [ -z "$X86" ]; then
	write_expect_err $MECH call 'Operation not supported'
	expect_eq "mechanism after a refusal" "$(cat $MECH)" "thunk"
fi
for m in $CALLS; do
	echo $m > $MECH || fail "switch to $m"
	expect_eq "mechanism" "$(cat $MECH)" "$m"
	types_hit $m
	[ $m = thunk ] && [ $X86 ] && rmmod sdt_probe_example
done
# A kprobe on a site is refused with EBUSY, armed or dormant: the site
# is reserved for as long as it exists.
at=$(grep '^sdt_example:types ' $L | sed 's/.*" \([^ ]*\)\/0x[0-9a-f]* .*/\1/')
KE=/sys/kernel/tracing/kprobe_events
kprobe_busy() {
	echo "p:markers_sdtk $at" >> $KE 2> /tmp/kerr && fail "a kprobe on the $1 site $at"
	grep -q 'resource busy' /tmp/kerr || fail "kprobe on the $1 site: $(cat /tmp/kerr), want EBUSY"
}
kprobe_busy armed
rmmod sdt_probe_example
kprobe_busy dormant
grep -q markers_sdtk $KE && fail "a kprobe event left on $at"
write_expect_err $MECH 'jump' 'Invalid argument'

# Optimized kprobes (x86_64: arm64 has none).
echo kprobe > $MECH || fail "switch to kprobes"
if [ $X86 ]; then
	step_mark "optimized kprobes"
	types_hit optimized
	rmmod sdt_probe_example
fi

# int3 kprobes: optimization off (arm64: a BRK kprobe, always).
[ $X86 ] && { echo 0 > $OPT || fail "kprobes-optimization off"; }
sdt_probe_example name=read nargs=5 || fail "attach to read"
wait_listing sdt_example:read ' kprobe 1 ' || fail "not an int3 kprobe: $(grep sdt_example:read $L)"
cat /proc/sdt-example
step_dmesg | grep -q "sdt_probe_example: sdt_example:read arg0=[0-9]* arg1=-\?[0-9]* arg2=[0-9]* arg3=0 arg4=-[0-9]*$" ||
	fail "read arguments: $(step_dmesg | grep 'sdt_example:read arg' | tail -n 1)"
if [ $X86 ]; then
	echo 1 > $OPT
	wait_listing sdt_example:read ' optimized 1 ' || fail "not optimized after re-enabling: $(grep sdt_example:read $L)"
fi

# Unload the sites under the armed probe: safe, the probe stays pending.
# Back to calls: sites armed as the module comes are calls (x86_64: of
# the trampoline; arm64: branches to their thunks).
echo $ARMED > $MECH
rmmod sdt_example || fail "rmmod sdt_example with an armed SDT probe"
grep -q '^sdt_example:read - "" - pending 1 - -$' $L || fail "not pending: $(grep sdt_example:read $L)"
modprobe sdt-example || fail "reload sdt-example"
wait_listing sdt_example:read " $ARMED 1 " || fail "not re-armed: $(grep sdt_example:read $L)"
n=$(hits "sdt_example:read arg")
cat /proc/sdt-example
expect_eq "read hits after reload" "$(hits "sdt_example:read arg")" "$((n + 1))"
rmmod sdt_probe_example

# Inline asm and .S sites, any count.
sdt_probe_example name=in_asm || fail "attach to in_asm"
cat /proc/sdt-example
step_dmesg | grep -q "sdt_probe_example: sdt_example:in_asm arg0=[0-9]* arg1=[0-9]*$" || fail "in_asm output"
rmmod sdt_probe_example
sdt_probe_example name=from_asm nargs=2 || fail "attach to from_asm"
cat /proc/sdt-example
step_dmesg | grep -q "sdt_probe_example: sdt_example:from_asm arg0=[0-9]* arg1=42$" || fail "from_asm output"
rmmod sdt_probe_example

# A count mismatch: EPERM, listing unchanged.
cp $L /tmp/sdt.list
sdt_probe_example name=read nargs=2 2> /tmp/err && fail "mismatching count loaded"
grep -q "Operation not permitted" /tmp/err || fail "mismatch error: $(cat /tmp/err)"
cmp -s $L /tmp/sdt.list || fail "listing changed by a rejected probe"
rmmod sdt_example
grep -q '^sdt_example:' $L && fail "sites left after rmmod"
echo thunk > $MECH
exit 0
