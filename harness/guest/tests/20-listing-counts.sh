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
# Read in pieces of 100 bytes, each read ending in the middle of a line,
# the listing is the same: each of the kernel's reads (a page or so) goes
# on where the last stopped.
whole=$(md5sum < $L)
pieces=$(dd if=$L bs=100 2> /dev/null | md5sum)
[ "$whole" = "$pieces" ] || fail "the listing read in pieces differs from one read"
[ "$(wc -c < $L)" -gt 16384 ] ||
	fail "the listing is too short to take several reads of the kernel's"
rmmod marker_bench sdt_example marker_example
exit 0
