# SPDX-License-Identifier: GPL-2.0
# A stack taken in a probe of a marker site walks through whatever armed
# the site down to the site's function, its callers and the system call:
# the stacktrace trigger on sdt_sdt_example/read armed by its thunk, by
# the trampoline (x86_64), by an optimized kprobe (x86_64) and by an
# int3 (arm64: BRK) kprobe, and on markers/subsys_read, each over one
# read(2) of the site's /proc file. A thunk has a name in /proc/kallsyms
# while it exists, and perf gets its name and bytes when it is made.
. /harness/lib.sh

T=/sys/kernel/tracing
E=$T/events
L=/sys/kernel/debug/markers/list
OPT=/proc/sys/debug/kprobes-optimization
MECH=/sys/kernel/debug/markers/sdt_mechanism
# CALLER: the caller of the SDT site's function, sdt_example_types(), a
# leaf function before it is armed. arm64 compiles a leaf without a frame
# record: its return address stays in x30, which no unwinder reads from a
# probe's stack (nor from any exception's), so there the stack goes from
# the site's function to its caller's caller.
if [ "$(uname -m)" = x86_64 ]; then
	X86=1 HOWS="thunk call kprobe" SYSCALL=do_syscall_64 CALLER=sdt_example_read
else
	X86= HOWS="thunk kprobe" SYSCALL=el0_svc CALLER=
fi
modprobe marker-example || fail "modprobe marker-example"
modprobe sdt-example || fail "modprobe sdt-example"

# stack_has EVENT FILE HOW FUNC...: with the stacktrace trigger on EVENT
# (armed by HOW, for the listing), one read of FILE; the stack recorded
# has a frame of each FUNC.
stack_has() {
	ev=$1 file=$2 how=$3
	shift 3
	echo > $T/trace
	echo stacktrace > $E/$ev/trigger || fail "stacktrace trigger on $ev"
	echo 1 > $E/$ev/enable || fail "enable $ev"
	case $ev in
	sdt_*) wait_listing sdt_example:types " $how 1 " ||
		fail "$ev: not armed by $how: $(grep '^sdt_example:types ' $L)" ;;
	esac
	dd if=$file of=/dev/null bs=16 count=1 2> /dev/null || fail "read $file"
	# Read while the site is armed: a thunk's name goes with the thunk.
	cat $T/trace > /tmp/stack
	echo 0 > $E/$ev/enable
	echo '!stacktrace' > $E/$ev/trigger
	grep -q '<stack trace>' /tmp/stack || fail "$ev ($how): no stack recorded: $(tail -n 5 /tmp/stack)"
	for f in "$@"; do
		grep -q "=> $f\( \|$\)" /tmp/stack ||
			fail "$ev ($how): no $f in the stack: $(grep '^ *=> ' /tmp/stack | tr -s ' ' | tr '\n' ' ')"
	done
	echo "$ev ($how): $(grep '^ *=> ' /tmp/stack | sed 's/^ *=> //; s/ .*//' | tr '\n' ' ')"
}
# thunk_syms: the lines of the thunks of sdt_example:types in kallsyms;
# no_thunk_syms: none, within 10 s (the grace periods of a thunk's end).
thunk_syms() { grep -c ' t sdt_thunk_sdt_example_types	\[__builtin__markers\]$' /proc/kallsyms; }
no_thunk_syms() {
	i=0
	while [ "$(thunk_syms)" != 0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	expect_eq "thunks in kallsyms, $1" "$(thunk_syms)" 0
}

stack_has markers/subsys_read /proc/marker-example mark marker_example_read vfs_read $SYSCALL
for how in $HOWS; do
	case $how in
	kprobe) echo kprobe > $MECH && { [ -z "$X86" ] || echo 0 > $OPT; } ;;
	*) echo $how > $MECH ;;
	esac || fail "sdt_mechanism $how"
	# A thunk has a name, sdt_thunk_<provider>_<name>.
	name=
	[ $how = thunk ] && name=sdt_thunk_sdt_example_types
	stack_has sdt_sdt_example/types /proc/sdt-example $how \
		$name sdt_example_types $CALLER vfs_read $SYSCALL
done

# /proc/kallsyms lists the thunk while it exists: one, from the moment
# its site is armed by it, until a few grace periods after it is not.
echo thunk > $MECH
no_thunk_syms dormant
echo 1 > $E/sdt_sdt_example/types/enable
wait_listing sdt_example:types ' thunk 1 ' || fail "not armed by its thunk: $(grep '^sdt_example:types ' $L)"
expect_eq "thunks in kallsyms, armed" "$(thunk_syms)" 1
echo 0 > $E/sdt_sdt_example/types/enable
no_thunk_syms disarmed

# perf's side band for code it did not see at its start: a dummy event on
# every CPU asking for PERF_RECORD_KSYMBOL and PERF_RECORD_TEXT_POKE gets
# the thunk's name and a text poke of its bytes at its address when its
# site is armed (harness/tools/marker-perf.c text-poke); on x86_64 also
# the CALL written over the site's NOP, at the address the listing gives
# (arm64 writes its sites, as its jump labels, without text pokes).
site=
[ -z "$X86" ] || site=$(grep '^sdt_example:types ' $L | awk '{ print $NF }')
/extra/marker-perf text-poke $E/sdt_sdt_example/types/enable $site ||
	fail "perf's side band of a thunk"
no_thunk_syms "disarmed, after perf"
[ -z "$X86" ] || echo 1 > $OPT
echo thunk > $MECH
rmmod sdt_example marker_example || fail "rmmod"
exit 0
