# SPDX-License-Identifier: GPL-2.0
# An SDT site that arrives with a module and does not take one of its
# key's probes stays dormant; once that probe is detached, the site takes
# the probes left and is armed. Detaching must not fail, warn, or leave
# the site unarmed (it used to hit WARN_ON_ONCE(!ss) in sdt_arm(): nothing
# had been reserved for a site that a detach arms).
# warns: ^markers: sdt_example:types at .* does not match its probes; dormant$
. /harness/lib.sh

C=/sys/kernel/debug/markers/control

# P1 takes two arguments; the site, which comes with its module, has
# eight: it does not take P1, and stays dormant.
sdt_probe_example provider=sdt_example name=types nargs=2 || fail "sdt-probe-example nargs=2"
modprobe sdt-example || fail "modprobe sdt-example"
grep '^sdt_example:types ' $C | grep -q ' mismatch 1 ' || fail "site armed despite P1: $(grep sdt_example:types $C)"
# The control file's printk probe (P2) takes any number of arguments.
echo 'enable name sdt_example:types to printk' > $C || fail "enable sdt_example:types"
grep '^sdt_example:types ' $C | grep -q ' mismatch 2 ' || fail "site armed despite P1: $(grep sdt_example:types $C)"
step_mark
cat /proc/sdt-example > /dev/null
step_dmesg | grep -q 'sdt_example:types' && fail "a dormant site fired"

# Detach P1: the site takes P2 alone, and is armed by call.
rmmod sdt_probe_example || fail "rmmod sdt_probe_example"
step_dmesg | grep -q 'WARNING' && fail "detach warned: $(step_dmesg | grep -A3 WARNING)"
wait_listing sdt_example:types " $SDT_ARMED 1 " || fail "site not armed after the detach: $(grep sdt_example:types $C)"
expect_eq "armed otherwise" "$(sdt_misarmed sdt_example:types)" ""
step_mark
cat /proc/sdt-example > /dev/null
expect_eq "sdt_example:types lines" "$(step_dmesg | grep -c 'markers: sdt_example:types arg0=-1 arg1=255 arg2=-2 arg3=65535 arg4=-3 arg5=4294967294 arg6=-4 arg7=-1$')" "1"

echo 'disable name sdt_example:types' > $C || fail "disable"
wait_listing sdt_example:types ' dormant 0 ' || fail "not disarmed: $(grep sdt_example:types $C)"
rmmod sdt_example || fail "rmmod sdt_example"
exit 0
