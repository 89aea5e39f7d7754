# SPDX-License-Identifier: GPL-2.0
# The strings of a marker event's record: an ERR_PTR() and a NULL read as
# vsnprintf() prints them, without a fault; one string is cut at 255
# characters, all of them together at 2048 bytes, and those past that are
# empty. The hit path used to oops on the ERR_PTR(), and its room for
# strings wrapped around once full, so strings past the cap came back.
. /harness/lib.sh

T=/sys/kernel/tracing
E=$T/events/markers
insmod /lib/modules/$(uname -r)/extra/markers_fixture.ko || fail "insmod markers_fixture"
echo 1 > $E/fixture_strings_bad/enable || fail "enable fixture_strings_bad"
echo 1 > $E/fixture_strings_long/enable || fail "enable fixture_strings_long"
echo > $T/trace
echo 1 > /sys/kernel/debug/markers_fixture/fire || fail "fire"
echo 0 > $E/fixture_strings_bad/enable
echo 0 > $E/fixture_strings_long/enable

grep -q 'fixture_strings_bad: (efault) (null) end$' $T/trace ||
	fail "bad pointers: $(grep fixture_strings_bad $T/trace)"
line=$(grep 'fixture_strings_long: ' $T/trace | sed 's/.*fixture_strings_long: //')
[ -n "$line" ] || fail "no fixture_strings_long record"
x255=$(head -c 255 /dev/zero | tr '\0' x)
# 2048 bytes: eight strings of 255 characters and their NULs; the other
# four are empty.
want="$x255 $x255 $x255 $x255 $x255 $x255 $x255 $x255    "
[ "$line" = "$want" ] || fail "long strings: got $(echo "$line" | tr ' ' '\n' | awk '{ print length }' | tr '\n' ' ')"
rmmod markers_fixture
exit 0
