# SPDX-License-Identifier: GPL-2.0
# A static key beside a MARK() site and an SDT site in one function:
# fixture_coexist() of markers_fixture holds the MARK's jump label, the
# key's NOP and the SDT site's NOP side by side. Every combination of the
# three (key on or off, MARK name and SDT site armed or dormant), reached
# one switch at a time along a Gray code, with the SDT site armed by its
# thunk, by the trampoline (x86_64) and by a kprobe, fired N times each: exact counts of the
# marker event, of the SDT event, of the runs and of the key's branch.
# Then one side switched by a background loop while the other is switched
# and fired in the foreground, the foreground's counts exact; and the
# three at rest give exact counts again. No splat.
. /harness/lib.sh

F=/sys/kernel/debug/markers_fixture
C=/sys/kernel/debug/markers/control
L=/sys/kernel/debug/markers/list
MECH=/sys/kernel/debug/markers/sdt_mechanism
T=/sys/kernel/tracing
N=5
# arm64 has no trampoline ("call"), and kprobes it does not optimize.
MECHS="thunk call kprobe" KPROBE_STATE=optimized
[ "$(uname -m)" = x86_64 ] || MECHS="thunk kprobe" KPROBE_STATE=kprobe

fixture_load
echo 1 > /sys/kernel/rcu_expedited
echo > $T/trace

runs() { sed -n 's/^runs \([0-9]*\) keyed [0-9]*$/\1/p' $F/coexist; }
keyed() { sed -n 's/^runs [0-9]* keyed \([0-9]*\)$/\1/p' $F/coexist; }
mark_lines() { grep -c ' fixture_coexist: i [0-9]*$' $T/trace; }
sdt_lines() { grep -c ' coexist: fixture:coexist arg0=[0-9]*$' $T/trace; }
expect_eq "initial counters" "$(cat $F/coexist)" "runs 0 keyed 0"

# Expected counts, and the state of each side.
R=0 K=0 EM=0 ES=0
key=0 mark=0 sdt=0
set_key() {
	echo $1 > $F/coexist_key || fail "key $1"
	key=$1
}
set_mark() {
	if [ $1 = 1 ]; then
		echo 'enable name fixture_coexist' > $C || fail "arm fixture_coexist"
		grep -q '^fixture_coexist mark .* armed 1 ' $L || fail "not armed: $(grep '^fixture_coexist ' $L)"
	else
		echo 'disable name fixture_coexist' > $C || fail "disarm fixture_coexist"
		grep -q '^fixture_coexist mark .* dormant 0 ' $L || fail "not dormant: $(grep '^fixture_coexist ' $L)"
	fi
	mark=$1
}
set_sdt() {
	if [ $1 = 1 ]; then
		echo 'enable name fixture:coexist' > $C || fail "arm fixture:coexist"
		wait_listing fixture:coexist " $SDT_STATE 1 " ||
			fail "not $SDT_STATE: $(grep '^fixture:coexist ' $L)"
	else
		echo 'disable name fixture:coexist' > $C || fail "disarm fixture:coexist"
		wait_listing fixture:coexist ' dormant 0 ' || fail "not dormant: $(grep '^fixture:coexist ' $L)"
	fi
	sdt=$1
}
flip() {
	case $1 in
	key) set_key $((1 - key)) ;;
	mark) set_mark $((1 - mark)) ;;
	sdt) set_sdt $((1 - sdt)) ;;
	esac
}
fire() {
	echo $N > $F/coexist || fail "fire"
	R=$((R + N)) K=$((K + key * N)) EM=$((EM + mark * N)) ES=$((ES + sdt * N))
}
check() {
	expect_eq "$1: counters" "$(cat $F/coexist)" "runs $R keyed $K"
	expect_eq "$1: marker events" "$(mark_lines)" $EM
	expect_eq "$1: SDT events" "$(sdt_lines)" $ES
}

# The 8 states along a 3-bit Gray code (flips of bits 0 1 0 2 0 1 0 2),
# back to all off; under each mechanism another side is bit 0.
steps=0
for m in $MECHS; do
	echo $m > $MECH || fail "mechanism $m"
	case $m in
	thunk) SDT_STATE='\(thunk\|call\)'; order="key mark key sdt key mark key sdt" ;;
	call) SDT_STATE=call; order="key mark key sdt key mark key sdt" ;;
	kprobe) SDT_STATE=$KPROBE_STATE; order="sdt key sdt mark sdt key sdt mark" ;;
	esac
	fire
	check "$m, all off"
	for side in $order; do
		flip $side
		fire
		check "$m, key $key mark $mark sdt $sdt"
		steps=$((steps + 1))
	done
done
echo thunk > $MECH

# The key switched in the background while the MARK and SDT sites are
# armed, fired and disarmed: their counts exact, the key's branch taken
# at most once a run, and at least once: the storm's first "on" is held
# until the fixture ran twice, and the rounds go on (for up to 2
# minutes) until it was and 8 toggles were made, so that a storm in which
# the key never changed under the sites fails instead of passing.
storm_begin cx51
(
	n=0
	echo 1 > $F/coexist_key || echo "key write failed" > /tmp/cx51.err
	wait_coexist_runs 2 || echo "held key: the fixture did not run" > /tmp/cx51.err
	echo 0 > $F/coexist_key || echo "key write failed" > /tmp/cx51.err
	n=2
	storm_count cx51 $n
	touch /tmp/cx51.held
	while [ ! -f /tmp/cx51.stop ]; do
		echo 1 > $F/coexist_key && echo 0 > $F/coexist_key || echo "key write failed" > /tmp/cx51.err
		n=$((n + 2))
		storm_count cx51 $n
	done
) &
r0=$(runs) k0=$(keyed)
rounds=6
j=0
while storm_on cx51 8 $j $rounds; do
	echo 'enable name fixture_coexist; enable name fixture:coexist' > $C || fail "arm both"
	echo $N > $F/coexist
	echo 'disable name fixture_coexist; disable name fixture:coexist' > $C || fail "disarm both"
	echo $N > $F/coexist
	j=$((j + 1))
done
touch /tmp/cx51.stop
wait
[ -f /tmp/cx51.err ] && fail "$(cat /tmp/cx51.err)"
key_toggles=$(cat /tmp/cx51.n)
storm_short cx51 8 && fail "key storm: $key_toggles toggles in $j rounds"
R=$((R + 2 * N * j)) EM=$((EM + N * j)) ES=$((ES + N * j))
expect_eq "key storm: runs" "$(runs)" $R
expect_eq "key storm: marker events" "$(mark_lines)" $EM
expect_eq "key storm: SDT events" "$(sdt_lines)" $ES
kd=$(( $(keyed) - k0 ))
[ $kd -ge 1 ] || fail "key storm: the key was never on in $((2 * N * j)) runs ($key_toggles toggles)"
[ $kd -le $((2 * N * j)) ] || fail "key storm: keyed $kd in $((2 * N * j)) runs"
K=$(keyed)
set_key 0

# The MARK and SDT sites armed and disarmed in the background (the SDT
# site by kprobe) while the key is switched and fired: the key's branch
# counted exactly, the events at most once a run each, and each at least
# once: the storm's first arm is held until the fixture ran twice, and the
# rounds go on (for up to 2 minutes) until it was and 8 writes were made.
echo kprobe > $MECH
storm_begin cx51
(
	n=0
	echo 'enable name fixture_coexist; enable name fixture:coexist' > $C ||
		echo "control write failed" > /tmp/cx51.err
	wait_coexist_runs 2 || echo "held arm: the fixture did not run" > /tmp/cx51.err
	echo 'disable name fixture_coexist; disable name fixture:coexist' > $C ||
		echo "control write failed" > /tmp/cx51.err
	n=2
	storm_count cx51 $n
	touch /tmp/cx51.held
	while [ ! -f /tmp/cx51.stop ]; do
		echo 'enable name fixture_coexist; enable name fixture:coexist' > $C &&
		echo 'disable name fixture_coexist; disable name fixture:coexist' > $C ||
			echo "control write failed" > /tmp/cx51.err
		n=$((n + 2))
		storm_count cx51 $n
	done
) &
m0=$(mark_lines) s0=$(sdt_lines)
j=0
while storm_on cx51 8 $j $rounds; do
	set_key 1
	fire
	set_key 0
	fire
	j=$((j + 1))
done
touch /tmp/cx51.stop
wait
[ -f /tmp/cx51.err ] && fail "$(cat /tmp/cx51.err)"
arm_writes=$(cat /tmp/cx51.n)
storm_short cx51 8 && fail "arm storm: $arm_writes writes in $j rounds"
expect_eq "arm storm: counters" "$(cat $F/coexist)" "runs $R keyed $K"
md=$(( $(mark_lines) - m0 )) sd=$(( $(sdt_lines) - s0 ))
[ $md -ge 1 ] && [ $sd -ge 1 ] ||
	fail "arm storm: $md marker and $sd SDT events in $((2 * N * j)) runs: never armed ($arm_writes writes)"
[ $md -le $((2 * N * j)) ] || fail "arm storm: $md marker events in $((2 * N * j)) runs"
[ $sd -le $((2 * N * j)) ] || fail "arm storm: $sd SDT events in $((2 * N * j)) runs"
EM=$((EM + md)) ES=$((ES + sd))
grep -q '^fixture_coexist mark .* dormant 0 ' $L || fail "left armed: $(grep '^fixture_coexist ' $L)"
wait_listing fixture:coexist ' dormant 0 ' || fail "left armed: $(grep '^fixture:coexist ' $L)"
echo thunk > $MECH

# At rest again: all three on, then all off, exact.
SDT_STATE='\(thunk\|call\)'
set_key 1
set_mark 1
set_sdt 1
fire
check "all on at the end"
set_sdt 0
set_mark 0
set_key 0
fire
check "all off at the end"
echo 0 > /sys/kernel/rcu_expedited
echo "static-key: steps $steps runs $R keyed $K marker-events $EM sdt-events $ES" \
	"key-toggles $key_toggles (storm keyed $kd) arm-writes $arm_writes (storm events $md/$sd)"
rmmod markers_fixture
exit 0
