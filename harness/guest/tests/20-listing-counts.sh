# SPDX-License-Identifier: GPL-2.0
# Site counts per object in the debugfs listing, for harness/check.sh to
# compare with what markers-list finds offline in the same build.
. /harness/lib.sh

L=/sys/kernel/debug/markers/list
modprobe marker-example || fail "modprobe marker-example"
modprobe sdt-example || fail "modprobe sdt-example"
insmod "/lib/modules/$(uname -r)/kernel/samples/markers/marker-bench.ko" rows= ||
	fail "insmod marker-bench"
# Dynamic debug sites are in no __markers section: test 61 counts them.
for m in marker_example sdt_example marker_bench; do
	echo "LISTING-COUNT $m $(grep -v ' dyndbg "' $L | grep -c " \[$m\] ")"
done
echo "LISTING-COUNT vmlinux $(grep -v '^#' $L | grep -v ' dyndbg "' | grep -v ' \[[a-z_0-9]*\] ' |
	grep -vc ' pending ')"
# The dynamic debug sites come last, one record a table, and each read
# of the kernel's (a page or so) goes on from the record where the last
# stopped. Read in pieces of 100 bytes, each ending in the middle of a
# line, they are every site of /proc/dynamic_debug/control once, by
# module and function: dynamic debug's own listing, not this one, is the
# reference (a table skipped or listed twice at a page's end shows).
D=/proc/dynamic_debug/control
[ "$(wc -c < $L)" -gt 16384 ] ||
	fail "the listing is too short to take several reads of the kernel's"
dd if=$L bs=100 2> /dev/null | grep '^[^ ]* dyndbg "' |
	sed 's/.*" \([^ ]*\) \[\([^]]*\)\] [a-z_]* [0-9]* .*/\2 \1/' | sort > /tmp/ours
sed -n 's/^[^ ]* \[\([^]]*\)\]\([^ ]*\) =.*/\1 \2/p' $D | sort > /tmp/theirs
[ -s /tmp/theirs ] || fail "no sites in $D"
cmp -s /tmp/ours /tmp/theirs ||
	fail "the listing read in pieces is not dynamic debug's sites: $(diff /tmp/ours /tmp/theirs | head -5)"
rmmod marker_bench sdt_example marker_example
exit 0
