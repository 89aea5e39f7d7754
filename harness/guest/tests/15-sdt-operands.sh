# SDT operands: the generated sites of markers_sdt_diff_kunit (every
# operand form the compiler chose for 37 expressions, their casts, and
# pointers and wide constants) decode and arm the same whether armed
# while their module comes (a probe attached first, waiting by name) or
# once it is live, its init symbols gone; none is refused. The values
# themselves are checked by the module's own KUnit suite, markers_sdt_diff.
# Prints the listing's SDT sites per object for the consumers' comparison
# (harness/check.sh).
. /harness/lib.sh

L=/sys/kernel/debug/markers/list
M=markers_sdt_diff_kunit
rmmod $M 2> /dev/null	# loaded by the KUnit run
rmmod sdt_probe_example 2> /dev/null

# $M is loaded here for its sites, and its suite ran in the KUnit run. A
# module's suites run again at each load: with this test's probe attached
# they would fail (every site armed before they arm it). A glob that no
# suite matches keeps them from running; "*.*" is KUnit's own default.
G=/sys/module/kunit/parameters/filter_glob
echo 'none-by-15-sdt-operands' > $G || fail "no $G"
trap 'echo "*.*" > $G' EXIT

# x86_64: armed by a call: of the site's thunk, or of the trampoline
# where a thunk cannot read the operand (memory through a register).
# arm64: by a branch to the site's thunk, whatever the operand (lib.sh's
# SDT_ARMED).
armed() { grep -c "^sdt_diff:site sdt .* $SDT_ARMED 1 " $L; }
thunks() { grep -c '^sdt_diff:site sdt .* thunk 1 ' $L; }
refused() { grep '^sdt_diff:site sdt .* error(' $L | head -n 3; }

# Armed at COMING.
sdt_probe_example provider=sdt_diff name=site nargs=1 || fail "attach first"
modprobe $M || fail "modprobe $M"
sites=$(grep -c '^sdt_diff:site sdt ' $L)
[ "$sites" -ge 200 ] || fail "only $sites generated sites"
expect_eq "refused at COMING" "$(refused)" ""
expect_eq "armed at COMING" "$(armed)" "$sites"
expect_eq "armed otherwise at COMING" "$(sdt_misarmed sdt_diff:site | head -n 3)" ""
rmmod sdt_probe_example || fail "rmmod sdt_probe_example"
expect_eq "armed after detach" "$(armed)" "0"

# Armed once live.
sdt_probe_example provider=sdt_diff name=site nargs=1 || fail "attach live"
expect_eq "refused when LIVE" "$(refused)" ""
expect_eq "armed when LIVE" "$(armed)" "$sites"
# Each site by the mechanism its operands call for (lib.sh's sdt_mech).
expect_eq "armed otherwise when LIVE" "$(sdt_misarmed sdt_diff:site | head -n 3)" ""
th=$(thunks)
rmmod sdt_probe_example
echo "$sites generated SDT sites armed at COMING and when LIVE ($th with a thunk when LIVE)"

# The listing's SDT sites per object, which harness/check.sh compares with
# what readelf, eu-readelf, gdb and markers-list find in the files.
modprobe sdt-example || fail "modprobe sdt-example"
sdt_lines() { grep '^[^ ]* sdt "' $L; }
echo "SDT-LISTING vmlinux $(sdt_lines | grep -vc '" [^ ]* \[')"
for m in sdt_example $M; do
	echo "SDT-LISTING $m $(sdt_lines | grep -c "\" [^ ]* \[$m\] ")"
done
rmmod $M || fail "rmmod $M"
