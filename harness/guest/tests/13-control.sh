# SPDX-License-Identifier: GPL-2.0
# The control file: enable markers by glob from the shell, read their lines
# in the trace buffer, disable them and see no new lines; SDT sites, the
# printk sink, module and provider filters, and the errors.
. /harness/lib.sh

C=/sys/kernel/debug/markers/control
T=/sys/kernel/tracing/trace
ctl() { echo "$1" > $C; }
lines() { grep -c "$1" $T; }

expect_eq "control mode" "$(stat -c %a $C)" "600"
head -n 1 $C | grep -q ' address hits$' || fail "control header: $(head -n 1 $C)"
modprobe marker-example || fail "modprobe marker-example"
modprobe sdt-example || fail "modprobe sdt-example"
echo > $T

ctl 'enable name subsys_*' || fail "enable name subsys_*"
grep '^subsys_open ' $C | grep -q ' armed 1 .* 0$' || fail "subsys_open not armed: $(grep '^subsys_open ' $C)"
cat /proc/marker-example > /dev/null
cat /proc/marker-example > /dev/null
expect_eq "subsys_open lines" "$(lines 'subsys_open: pid [0-9]* comm cat')" "2"
expect_eq "subsys_loop lines" "$(lines 'subsys_loop: iteration [0-2] of 3')" "6"
grep -q 'subsys_expensive: reader cat/' $T || fail "guarded marker not traced"
grep '^subsys_open ' $C | grep -q ' 2$' || fail "hit count: $(grep '^subsys_open ' $C)"

# A module probe coexists with the built-in one on the same name.
probe_example || fail "probe-example next to the trace probe"
grep '^subsys_open ' $C | grep -q ' armed 2 ' || fail "two probes: $(grep '^subsys_open ' $C)"
cat /proc/marker-example > /dev/null
expect_eq "subsys_open lines" "$(lines 'subsys_open: pid')" "3"
rmmod probe_example

ctl 'disable name subsys_*' || fail "disable"
grep '^subsys_open ' $C | grep -q ' dormant 0 ' || fail "not disarmed"
n=$(grep -c . $T)
cat /proc/marker-example > /dev/null
expect_eq "trace lines after disable" "$(grep -c . $T)" "$n"

# SDT sites, by provider, to printk, in one write with two commands.
ctl 'enable name sdt_example:r* provider sdt_example; enable name *:from_asm to printk' ||
	fail "SDT enable"
cat /proc/sdt-example
grep -q 'sdt_example:read arg0=[0-9]* arg1=-\?[0-9]* arg2=[0-9]* arg3=0 arg4=-[0-9]*$' $T ||
	fail "SDT trace line"
step_dmesg | grep -q 'markers: sdt_example:from_asm arg0=[0-9]* arg1=42$' || fail "SDT printk line"
ctl 'disable name sdt_example:*' || fail "SDT disable"

# Module filter: only names with a site in that module.
ctl 'enable name module_* module vmlinux' || fail "module filter"
grep '^module_live ' $C | grep -q ' armed 1 ' || fail "module_live not armed"
ctl 'enable name subsys_* module no_such_module' 2> /dev/null && fail "filter matched nothing, yet succeeded"
ctl 'disable name module_*' || fail "disable module_*"

# Errors leave the state as it was; a multi-command write is all or nothing.
cp $C /tmp/c0
for bad in 'bogus' 'enable' 'enable name' 'enable name x to file' 'enable name [x' \
	   'enable name subsys_open name subsys_read' 'enable name subsys_open extra'; do
	ctl "$bad" 2> /tmp/err && fail "'$bad' accepted"
	grep -q 'Invalid argument' /tmp/err || fail "'$bad': $(cat /tmp/err)"
done
ctl 'enable name nomatch_*' 2> /tmp/err && fail "a glob matching nothing accepted"
grep -q 'No such file or directory' /tmp/err || fail "ENOENT: $(cat /tmp/err)"
ctl 'enable name subsys_open; enable name nomatch_*' 2> /dev/null && fail "partial write accepted"
head -c 5000 /dev/zero | tr '\0' ';' > /tmp/big
cat /tmp/big > $C 2> /tmp/err && fail "a 5000-byte write accepted"
grep -q 'too long' /tmp/err || fail "E2BIG: $(cat /tmp/err)"
cmp -s $C /tmp/c0 || fail "rejected writes changed the state"

# Several built-in probes detached by one glob; a name left without sites
# (its module unloaded) can still be disabled.
ctl 'enable name subsys_open; enable name subsys_read to printk; enable name subsys_loop' ||
	fail "enable three"
ctl 'disable name *' || fail "disable name * with three built-in probes"
grep -q ' armed ' $C && fail "armed after disable name *"
ctl 'enable name subsys_open' || fail "enable subsys_open"
rmmod marker_example
grep -q '^subsys_open - "" - pending 1 ' $C || fail "not pending: $(grep subsys_open $C)"
ctl 'disable name subsys_*' || fail "disable a pending name"
grep -q '^subsys_open ' $C && fail "pending name still listed"

rmmod sdt_example
exit 0
