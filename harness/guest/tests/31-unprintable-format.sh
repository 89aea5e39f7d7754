# SPDX-License-Identifier: GPL-2.0
# A site whose format the kernel's vsnprintf() cannot print (%j) takes no
# probe: the control file's printk sink is refused with EPERM and never
# hands it to vsnprintf() (whose WARN the splat scan would catch).
. /harness/lib.sh

C=/sys/kernel/debug/markers/control
M=/lib/modules/$(uname -r)/extra
insmod $M/markers_fixture.ko || fail "insmod markers_fixture"
cp $C /tmp/c0
write_expect_err $C 'enable name fixture_intmax to printk' 'Operation not permitted'
write_expect_err $C 'enable name fixture_intmax' 'Operation not permitted'
# All or nothing: the good name in the same write is not enabled either.
write_expect_err $C 'enable name fixture_init; enable name fixture_intmax' 'Operation not permitted'
cmp -s $C /tmp/c0 || fail "a refused write changed the state"
echo 1 > /sys/kernel/debug/markers_fixture/fire
grep '^fixture_intmax ' $C | grep -q ' dormant 0 ' || fail "$(grep '^fixture_intmax ' $C)"
rmmod markers_fixture
exit 0
