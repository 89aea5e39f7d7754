# SPDX-License-Identifier: GPL-2.0
# make series-build's boot of each patch's kernel (harness/series-build.sh):
# what the kernel of that patch can do, it must do without a splat. Prints
# one line "series-boot: ..." that says what it did; the host scans the
# console for splats (run.sh).
L=/sys/kernel/debug/markers/list
C=/sys/kernel/debug/markers/control
what="up"
if [ -r $L ]; then
	n=$(grep -vc '^#' $L)
	[ "$n" -gt 0 ] || { echo "series-boot: the listing has no site"; exit 1; }
	what="$what, $n sites listed"
fi
# The samples, from the patches that add them: MARK() and SDT sites in
# modules.
for m in marker-example sdt-example; do
	modprobe $m 2> /dev/null && what="$what, $m loaded"
done
# Arm every site that takes the control file's probe, run the samples' and
# let the system run the rest for a moment, and disarm them all.
if [ -w $C ]; then
	# What can be armed: the sites whose text is still there. Until the
	# samples come, vmlinux has only init sites, gone after boot.
	armable=$(grep -v '^#' $L | grep -vc ' gone ')
	echo 'enable name *' > $C || { echo "series-boot: enable failed"; exit 1; }
	# Armed: a MARK() site "armed", an SDT site by its mechanism.
	armed=$(grep -Ec ' (armed|thunk|call|kprobe|optimized) [0-9]+ ' $C)
	for f in /proc/marker-example /proc/sdt-example; do
		[ -r $f ] && cat $f > /dev/null
	done
	ls -R /sys > /dev/null 2>&1
	echo 'disable name *' > $C || { echo "series-boot: disable failed"; exit 1; }
	left=$(grep -Ec ' (armed|thunk|call|kprobe|optimized) [0-9]+ ' $C)
	{ [ "$armed" -gt 0 ] || [ "$armable" = 0 ]; } && [ "$left" = 0 ] ||
		{ echo "series-boot: armed $armed of $armable, still armed $left"; exit 1; }
	what="$what, $armed of $armable armed and disarmed"
fi
for m in sdt_example marker_example; do
	rmmod $m 2> /dev/null
done
# The KUnit suites of the patches so far, each in the patch of the code it
# tests or right after it: every suite module of kernel/markers/tests/
# that this patch's build has (<suite>_kunit.ko, and markers_sdt_test.ko)
# runs its suites as it loads, and each suite must end "ok" (skipped cases
# are ok). A module loaded that left no suite in debugfs fails too.
K=/sys/kernel/debug/kunit
suites=0
mods=$(sed -n 's#^[^:]*/markers/tests/\([a-z0-9_]*\)\.ko:.*#\1#p' \
	"/lib/modules/$(uname -r)/modules.dep" | grep -E '(_kunit|_sdt_test)$')
for m in $mods; do
	modprobe $m || { echo "series-boot: modprobe $m failed"; exit 1; }
done
for d in $K/*/; do
	[ -f "$d/results" ] || continue
	suites=$((suites + 1))
	tail -n 1 "$d/results" | grep -q '^ok ' ||
		{ echo "series-boot: KUnit suite $(basename "$d") failed:"; cat "$d/results"; exit 1; }
done
[ "$suites" -ge "$(echo $mods | wc -w)" ] ||
	{ echo "series-boot: $(echo $mods | wc -w) suite modules loaded, $suites suites in $K"; exit 1; }
[ $suites = 0 ] || what="$what, $suites KUnit suites passed"
echo "series-boot: $what"
