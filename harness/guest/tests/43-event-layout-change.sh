# SPDX-License-Identifier: GPL-2.0
# A marker event that was used stays when its sites go; when sites of its
# name come back with another format, it is replaced by an event of the
# new layout, whose type id may be the old one's. The records of the old
# event must not be read through the new layout: the buffers holding them
# are cleared, as for any dynamic event removed after use. They used to
# stay, to be read as an unknown type, or through the new layout when the
# new event got the old one's id.
. /harness/lib.sh

# A trace instance of its own: only this test's records are there.
I=/sys/kernel/tracing/instances/layout_change
E=$I/events/markers
M=/lib/modules/$(uname -r)/extra
mkdir $I || fail "mkdir instance"
insmod $M/markers_fixture.ko || fail "insmod markers_fixture"
echo 1 > $E/fixture_layout/enable || fail "enable fixture_layout"
echo 1 > /sys/kernel/debug/markers_fixture/fire || fail "fire"
echo 0 > $E/fixture_layout/enable
grep -q 'fixture_layout: x 1 y 2 z 3$' $I/trace || fail "no record: $(grep fixture_layout $I/trace)"
rmmod markers_fixture
grep -q 'fixture_layout: x 1 y 2 z 3$' $I/trace || fail "the record went with the sites"

# Sites of the name with "s %s": a new event, of another layout.
insmod $M/markers_churn.ko || fail "insmod markers_churn"
grep -q 'print fmt: "s %s"' $E/fixture_layout/format || fail "layout not replaced: $(grep 'print fmt' $E/fixture_layout/format)"
# Whatever its new type id, no record of the old event is left to read.
lines=$(grep -v '^#' $I/trace)
[ -z "$lines" ] || fail "records of the old layout left: $lines"
rmmod markers_churn
rmdir $I || fail "rmdir instance"
exit 0
