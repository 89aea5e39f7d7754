# SPDX-License-Identifier: GPL-2.0
# The core markers in a running kernel: the listing, the sample modules
# loaded and unloaded in both orders with probes armed, pending probes,
# format mismatches, and MARK_ENABLED().
# warns: ^markers: subsys_read at .* does not match its probes; dormant$
. /harness/lib.sh

L=/sys/kernel/debug/markers/list
hits() { step_dmesg | grep -c "probe_example: $1:"; }
site() { grep "^$1 " $L; }
trigger() { cat /proc/marker-example > /dev/null; }
loaded() { grep -q "^$1 " /proc/modules; }

[ -f $L ] || fail "no $L"
expect_eq "list mode" "$(stat -c %a $L)" "400"
expect_eq "header" "$(head -n 1 $L)" '# name kind "format" function+off/size [module] state probes faults address'
grep -q '^subsys_' $L && fail "sample sites listed before the sample is loaded"
cp $L /tmp/list.0

# Order 1: sites first, then the probe; unload the sites under the probe.
modprobe marker-example || fail "modprobe marker-example"
site subsys_open | grep -q '^subsys_open mark "pid %d comm %s" marker_example_open+0x[0-9a-f]*/0x[0-9a-f]* \[marker_example\] dormant 0 ' ||
	fail "subsys_open listing: $(site subsys_open)"
# A loop of three: kept (GCC 12), or unrolled whole (clang 19). The exact
# count per object is host/offline-counts' (markers-list on the .ko).
n=$(site subsys_loop | wc -l)
[ "$n" = 1 ] || [ "$n" = 3 ] || fail "subsys_loop copies: $n, want 1 or 3"
site subsys_expensive | grep -q '^subsys_expensive guard "" ' || fail "guard site: $(site subsys_expensive)"
site subsys_expensive | grep -q '^subsys_expensive mark "reader %s" ' || fail "guarded mark: $(site subsys_expensive)"

probe_example || fail "load probe-example"
site subsys_open | grep -q ' armed 1 ' || fail "not armed: $(site subsys_open)"
site subsys_read | grep -q ' dormant 0 ' || fail "other name armed: $(site subsys_read)"
n=$(hits subsys_open)
trigger
expect_eq "hits after one open" "$(hits subsys_open)" "$((n + 1))"
step_dmesg | grep "probe_example: subsys_open: pid [0-9]* comm cat" > /dev/null || fail "probe output"

rmmod marker_example || fail "rmmod marker_example with a probe armed"
grep -q '^subsys_open mark' $L && fail "sites still listed after rmmod"
grep -q '^subsys_open - "" - pending 1 - -$' $L || fail "probe not pending: $(grep subsys_open $L)"
modprobe marker-example || fail "reload marker-example"
site subsys_open | grep -q ' armed 1 ' || fail "not re-armed: $(site subsys_open)"
n=$(hits subsys_open)
trigger
expect_eq "hits after reload" "$(hits subsys_open)" "$((n + 1))"
rmmod probe_example || fail "rmmod probe_example"
site subsys_open | grep -q ' dormant 0 ' || fail "not disarmed: $(site subsys_open)"
n=$(hits subsys_open)
trigger
expect_eq "hits when disarmed" "$(hits subsys_open)" "$n"
rmmod marker_example || fail "rmmod marker_example"
cmp -s $L /tmp/list.0 || fail "listing differs after order 1"

# Order 2: the probe first (pending), then the sites; unload the probe first.
probe_example name=subsys_read 'format="count %zu pos %lld"' || fail "pending probe"
grep -q '^subsys_read - "" - pending 1 - -$' $L || fail "not pending: $(grep subsys_read $L)"
modprobe marker-example || fail "modprobe marker-example after probe"
site subsys_read | grep -q ' armed 1 ' || fail "pending probe not armed on load: $(site subsys_read)"
n=$(hits subsys_read)
trigger
expect_eq "subsys_read hits" "$(hits subsys_read)" "$((n + 1))"
rmmod probe_example || fail "rmmod probe_example (order 2)"
rmmod marker_example || fail "rmmod marker_example (order 2)"
cmp -s $L /tmp/list.0 || fail "listing differs after order 2"

# A format that does not match: EPERM, and the listing does not change.
modprobe marker-example || fail "modprobe marker-example (mismatch)"
cp $L /tmp/list.1
probe_example 'format="%s"' 2> /tmp/err && fail "mismatching probe loaded"
grep -q "Operation not permitted" /tmp/err || fail "mismatch error: $(cat /tmp/err)"
loaded probe_example && fail "probe_example loaded despite EPERM"
cmp -s $L /tmp/list.1 || fail "listing changed by a rejected probe"
probe_example 'format="pid %i comm %s"' || fail "same classes rejected"
rmmod probe_example

# Any format (format= empty), and MARK_ENABLED() guarding an expensive argument.
probe_example name=subsys_expensive format= || fail "probe with any format"
site subsys_expensive | grep -q '^subsys_expensive guard "" .* armed 1 ' || fail "guard not armed"
trigger
step_dmesg | grep -q "probe_example: subsys_expensive: reader cat/[0-9]*" || fail "guarded marker output"
rmmod probe_example
site subsys_expensive | grep -q ' armed ' && fail "guard still armed"

# A site arriving with a mismatching format stays dormant, shown as mismatch.
rmmod marker_example
probe_example name=subsys_read 'format="%d"' || fail "pending probe with another format"
modprobe marker-example || fail "marker-example with a mismatching probe pending"
site subsys_read | grep -q ' mismatch 1 ' || fail "no mismatch state: $(site subsys_read)"
step_dmesg | grep -q "markers: subsys_read at .* does not match its probes" || fail "no mismatch warning"
n=$(hits subsys_read)
trigger
expect_eq "hits of a mismatching site" "$(hits subsys_read)" "$n"
rmmod probe_example
rmmod marker_example
cmp -s $L /tmp/list.0 || fail "listing differs at the end"
exit 0
