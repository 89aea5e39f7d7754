# SPDX-License-Identifier: GPL-2.0
# The function tracer beside markers: set_ftrace_filter on the functions
# that hold MARK() and SDT sites (fixture_coexist() of markers_fixture,
# sdt_example_read() and sdt_example_types() of sdt-example), and
# current_tracer=function, while their sites are armed and disarmed from
# the control file, the SDT sites by their thunks, by the trampoline
# (x86_64) and by a kprobe in turn:
# - a sequential storm: every entry traced, every marker and SDT event
#   recorded while armed and none while dormant, exact counts;
# - ftrace switching those functions' __fentry__ calls (set_ftrace_notrace)
#   between fires while the sites stay armed: exact counts;
# - each side switched by a background loop while the other is switched
#   and fired: the foreground's counts exact, the other's at most one
#   record a call.
# No splat; everything dormant and untraced again at the end.
. /harness/lib.sh

F=/sys/kernel/debug/markers_fixture
C=/sys/kernel/debug/markers/control
L=/sys/kernel/debug/markers/list
MECH=/sys/kernel/debug/markers/sdt_mechanism
T=/sys/kernel/tracing
N=3
FUNCS="fixture_coexist sdt_example_read sdt_example_types"
SDT_EX="sdt_example:read sdt_example:types sdt_example:in_asm"
NAMES="fixture_coexist fixture:coexist $SDT_EX"
# The mechanisms that arm SDT sites with a call: the thunk, and on x86_64
# the trampoline (arm64 has none); kprobes are optimized on x86_64 only.
CALLS="thunk call" KP=optimized
[ "$(uname -m)" = x86_64 ] || CALLS=thunk KP=kprobe

fixture_load
modprobe sdt-example || fail "modprobe sdt-example"
echo 1 > /sys/kernel/rcu_expedited

echo "$FUNCS" | tr ' ' '\n' > $T/set_ftrace_filter || fail "set_ftrace_filter"
expect_eq "set_ftrace_filter" "$(sort $T/set_ftrace_filter | tr '\n' ' ')" "fixture_coexist [markers_fixture] sdt_example_read [sdt_example] sdt_example_types [sdt_example] "
echo > $T/set_ftrace_notrace
echo function > $T/current_tracer || fail "current_tracer function"
echo > $T/trace

# Lines of the trace buffer: function entries, marker and SDT events.
entries() { grep -c " $1 <-" $T/trace; }
mark_lines() { grep -c ' fixture_coexist: i [0-9]*$' $T/trace; }
sdt_lines() { grep -c " ${1#*:}: $1 arg0=" $T/trace; }

# Expected counts: E (entries of each function), M (marker events),
# S (events of each SDT site).
EF=0 ER=0 ET=0 M=0 SC=0 SR=0 ST=0 SI=0
traced=1 armed=0
fire() {
	echo $N > $F/coexist || fail "fire fixture_coexist"
	_f=0
	while [ $_f -lt $N ]; do
		cat /proc/sdt-example
		_f=$((_f + 1))
	done
	if [ $traced = 1 ]; then
		EF=$((EF + N)) ER=$((ER + N)) ET=$((ET + N))
	fi
	if [ $armed = 1 ]; then
		M=$((M + N)) SC=$((SC + N)) SR=$((SR + N)) ST=$((ST + N)) SI=$((SI + N))
	fi
}
check() {
	expect_eq "$1: fixture_coexist entries" "$(entries fixture_coexist)" $EF
	expect_eq "$1: sdt_example_read entries" "$(entries sdt_example_read)" $ER
	expect_eq "$1: sdt_example_types entries" "$(entries sdt_example_types)" $ET
	expect_eq "$1: fixture_coexist events" "$(mark_lines)" $M
	expect_eq "$1: fixture:coexist events" "$(sdt_lines fixture:coexist)" $SC
	expect_eq "$1: sdt_example:read events" "$(sdt_lines sdt_example:read)" $SR
	expect_eq "$1: sdt_example:types events" "$(sdt_lines sdt_example:types)" $ST
	expect_eq "$1: sdt_example:in_asm events" "$(sdt_lines sdt_example:in_asm)" $SI
}
arm_cmd() { for _n in $NAMES; do printf '%s name %s; ' $1 $_n; done; }
arm() {
	arm_cmd enable > $C || fail "arm"
	grep -q '^fixture_coexist mark .* armed 1 ' $L || fail "not armed: $(grep '^fixture_coexist ' $L)"
	for _a in fixture:coexist $SDT_EX; do
		wait_listing $_a " $1 1 " || fail "$_a not $1: $(grep "^$_a " $L)"
	done
	armed=1
}
disarm() {
	arm_cmd disable > $C || fail "disarm"
	for _a in $NAMES; do
		wait_listing $_a ' dormant 0 ' || fail "$_a not dormant: $(grep "^$_a " $L)"
	done
	armed=0
}
# ftrace off and on for the three functions: notrace wins over the filter.
untrace() {
	echo "$FUNCS" | tr ' ' '\n' > $T/set_ftrace_notrace || fail "set_ftrace_notrace"
	traced=0
}
retrace() {
	echo > $T/set_ftrace_notrace || fail "clear set_ftrace_notrace"
	traced=1
}

# Sequential storm: arm, fire, disarm, fire; the mechanism alternating.
rounds=4
r=0
while [ $r -lt $rounds ]; do
	if [ $((r % 2)) = 0 ]; then
		# A thunk where the site's operands allow one.
		m=thunk st='\(thunk\|call\)'
		[ $r = 2 ] && [ "$CALLS" != thunk ] && m=call st=call
		echo $m > $MECH
	else
		echo kprobe > $MECH; st='\(kprobe\|optimized\)'
	fi
	arm "$st"
	fire
	disarm
	fire
	r=$((r + 1))
done
check "sequential storm"
echo thunk > $MECH

# The sites armed, ftrace patching their functions' entries between fires.
for m in $CALLS kprobe; do
	echo $m > $MECH
	case $m in
	thunk) arm '\(thunk\|call\)' ;;
	call) arm call ;;
	kprobe) arm $KP ;;
	esac
	j=0
	while [ $j -lt 2 ]; do
		untrace
		fire
		retrace
		fire
		j=$((j + 1))
	done
	disarm
	check "ftrace switched under $m-armed sites"
done
echo thunk > $MECH

# A background arm/disarm storm (both mechanisms) while the functions are
# traced and fired: every entry traced, at most one event a call, and at
# least one of each kind. The storm's first arm is held until the fixture
# ran twice, so that fixture_coexist() ran whole with both its sites armed
# at least once, and the fires go on (for up to 2 minutes) until it was and
# the storm made 8 writes: a storm that never armed them fails.
storm_begin cx48
(
	n=0
	echo kprobe > $MECH && arm_cmd enable > $C || echo "control write failed" > /tmp/cx48.err
	wait_coexist_runs 2 || echo "held arm: the fixture did not run" > /tmp/cx48.err
	arm_cmd disable > $C || echo "control write failed" > /tmp/cx48.err
	n=2
	storm_count cx48 $n
	touch /tmp/cx48.held
	while [ ! -f /tmp/cx48.stop ]; do
		for m in kprobe $CALLS; do
			echo $m > $MECH && arm_cmd enable > $C && arm_cmd disable > $C ||
				echo "control write failed" > /tmp/cx48.err
			n=$((n + 2))
			storm_count cx48 $n
		done
	done
) &
m0=$(mark_lines) s0=$(sdt_lines fixture:coexist)
j=0
while storm_on cx48 8 $j 4; do
	fire
	j=$((j + 1))
done
touch /tmp/cx48.stop
wait
[ -f /tmp/cx48.err ] && fail "$(cat /tmp/cx48.err)"
arm_writes=$(cat /tmp/cx48.n)
arm_calls=$((j * N))
storm_short cx48 8 && fail "arm storm: $arm_writes writes in $j rounds"
for n in $NAMES; do
	wait_listing $n ' dormant 0 ' || fail "$n left armed: $(grep "^$n " $L)"
done
md=$(( $(mark_lines) - m0 )) sd=$(( $(sdt_lines fixture:coexist) - s0 ))
[ $md -ge 1 ] && [ $sd -ge 1 ] ||
	fail "arm storm: $md marker and $sd SDT events in $((j * N)) calls: never armed ($arm_writes writes)"
[ $md -le $((j * N)) ] && [ $sd -le $((j * N)) ] ||
	fail "arm storm: $md marker and $sd SDT events in $((j * N)) calls"
M=$((M + md)) SC=$((SC + sd))
SR=$(sdt_lines sdt_example:read) ST=$(sdt_lines sdt_example:types)
SI=$(sdt_lines sdt_example:in_asm)
check "background arm storm under the function tracer"
echo thunk > $MECH

# A background ftrace storm (the entries' calls patched in and out) while
# the sites are armed, fired and disarmed: every event exact, and some
# entries traced (the storm's first switch back to traced is held until
# the fixture ran twice; the rounds go on, for up to 2 minutes, until it
# was and 8 writes were made).
storm_begin cx48
(
	n=0
	echo "$FUNCS" | tr ' ' '\n' > $T/set_ftrace_notrace && echo > $T/set_ftrace_notrace ||
		echo "notrace write failed" > /tmp/cx48.err
	wait_coexist_runs 2 || echo "held trace: the fixture did not run" > /tmp/cx48.err
	n=2
	storm_count cx48 $n
	touch /tmp/cx48.held
	while [ ! -f /tmp/cx48.stop ]; do
		echo "$FUNCS" | tr ' ' '\n' > $T/set_ftrace_notrace &&
		echo > $T/set_ftrace_notrace || echo "notrace write failed" > /tmp/cx48.err
		n=$((n + 2))
		storm_count cx48 $n
	done
) &
e0=$(entries fixture_coexist)
j=0
while storm_on cx48 8 $j 3; do
	arm '\(thunk\|call\)'
	fire
	disarm
	fire
	j=$((j + 1))
done
touch /tmp/cx48.stop
wait
[ -f /tmp/cx48.err ] && fail "$(cat /tmp/cx48.err)"
ftrace_writes=$(cat /tmp/cx48.n)
ftrace_calls=$((2 * j * N))
storm_short cx48 8 && fail "ftrace storm: $ftrace_writes writes in $j rounds"
ed=$(( $(entries fixture_coexist) - e0 ))
[ $ed -ge 1 ] || fail "ftrace storm: no entry traced in $((2 * j * N)) calls ($ftrace_writes writes)"
[ $ed -le $((2 * j * N)) ] || fail "ftrace storm: $ed entries in $((2 * j * N)) calls"
EF=$(entries fixture_coexist) ER=$(entries sdt_example_read) ET=$(entries sdt_example_types)
check "background ftrace storm under arming"

# Untraced and dormant: nothing more.
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter
echo 0 > /sys/kernel/rcu_expedited
n=$(grep -c . $T/trace)
echo $N > $F/coexist
cat /proc/sdt-example
expect_eq "trace lines once dormant and untraced" "$(grep -c . $T/trace)" "$n"
echo "ftrace: entries $EF/$ER/$ET marker-events $M sdt-events $SC/$SR/$ST/$SI" \
	"storm arm-writes $arm_writes (events $md/$sd of $arm_calls) ftrace-writes $ftrace_writes (entries $ed of $ftrace_calls)"
rmmod sdt_example markers_fixture
exit 0
