# SPDX-License-Identifier: GPL-2.0
# kprobes beside SDT sites: a kprobe event on an SDT site is refused with
# EBUSY whatever the site's state; one on each of the 4 bytes before it
# is refused with a clear errno (EILSEQ: not an instruction boundary on
# x86; EINVAL: inside a jump label's NOP, or not 4-byte aligned on
# arm64) or accepted, and an accepted one is never optimized (its JMP
# would span the site) and fires next to the site, both with exact
# counts. Both orders (kprobes first, site first; each removed first)
# under each mechanism that arms the site: on x86_64 a call (of the
# thunk or the trampoline), an optimized kprobe, an int3 kprobe; on
# arm64 a B to the thunk and a BRK kprobe. Sites: fixture:coexist (a
# static key's NOP right before it on x86_64), sdt_example:types and
# sdt_example:in_asm (ordinary instructions before them). The
# instruction at each site, read through a kprobe event's memory fetch,
# is a CALL, JMP or int3 (a B or BRK) as the listing says, and the text
# around the sites is as it was once everything is gone.
. /harness/lib.sh

L=/sys/kernel/debug/markers/list
C=/sys/kernel/debug/markers/control
MECH=/sys/kernel/debug/markers/sdt_mechanism
OPT=/proc/sys/debug/kprobes-optimization
KL=/sys/kernel/debug/kprobes/list
T=/sys/kernel/tracing
KE=$T/kprobe_events
F=/sys/kernel/debug/markers_fixture
N=3
SITES="fixture:coexist sdt_example:types sdt_example:in_asm"

fixture_load
modprobe sdt-example || fail "modprobe sdt-example"
echo 1 > /sys/kernel/rcu_expedited
echo > $T/trace

# Per site i (1, 2, 3): name, location (function+0xoff), address.
i=0
for s in $SITES; do
	i=$((i + 1))
	line=$(grep "^$s sdt " $L) || fail "no site $s"
	eval "NAME_$i=$s"
	eval "LOC_$i=$(echo "$line" | sed 's/.*" \([^ ]*\)\/0x[0-9a-f]* .*/\1/')"
	eval "ADDR_$i=$(echo "$line" | awk '{ print $NF }')"
	eval "SEEN_$i=0 BASE_$i=0"
done
NS=$i
v() { eval "echo \$$1"; }

# The bytes [site - 8, site + 8) of each site, through a kprobe event on
# the fixture's read handler: one line "b1=0x.. a1=0x.. b2=...".
peek_args=
for i in $(seq $NS); do
	a=$(v ADDR_$i)
	peek_args="$peek_args b$i=@$(printf '0x%x' $((a - 8))):x64 a$i=@$a:x64"
done
echo "p:cx_peek fixture_coexist_read$peek_args" >> $KE || fail "peek kprobe event"
peek() {
	echo 1 > $T/events/kprobes/cx_peek/enable
	dd if=$F/coexist bs=64 count=1 2> /dev/null > /dev/null
	echo 0 > $T/events/kprobes/cx_peek/enable
	grep ' cx_peek: ' $T/trace | tail -n 1 | sed 's/.* \(b1=\)/\1/'
}
# The instruction at site i in the last peek: nop, call, jmp or int3 (x86:
# its first byte), nop, b or brk (arm64: its word), or its bytes.
site_insn() {
	_w=$(( $(echo "$P" | sed "s/.* a$1=\(0x[0-9a-f]*\).*/\1/") ))
	case $(uname -m) in
	aarch64)
		_w=$((_w & 0xffffffff))
		if [ $_w = $((0xd503201f)) ]; then echo nop
		elif [ $((_w >> 26)) = 5 ]; then echo b
		elif [ $((_w & 0xffe0001f)) = $((0xd4200000)) ]; then echo brk
		else printf '%08x\n' $_w; fi ;;
	*)
		case $(printf '%02x' $((_w & 255))) in
		0f) echo nop ;; e8) echo call ;; e9) echo jmp ;; cc) echo int3 ;;
		*) printf '%02x\n' $((_w & 255)) ;;
		esac ;;
	esac
}
P0=$(peek)
[ -n "$P0" ] || fail "no peek line"
for i in $(seq $NS); do
	P=$P0
	expect_eq "$(v NAME_$i) dormant instruction" "$(site_insn $i)" nop
done

# kp_add EVENT LOCATION: 0, or 1 with the errno's name in $ERR.
kp_add() {
	if echo "p:$1 $2" >> $KE 2> /tmp/kperr; then
		return 0
	fi
	case "$(cat /tmp/kperr)" in
	*'resource busy'*) ERR=EBUSY ;;
	*'Invalid argument'*) ERR=EINVAL ;;
	*'multibyte'*) ERR=EILSEQ ;;
	*) ERR="$(cat /tmp/kperr)" ;;
	esac
	return 1
}
loc_minus() { echo "${1%+*}+$(printf '0x%x' $(( ${1#*+} - $2 )))"; }

# On the site: EBUSY. On each byte before it: accepted or refused with
# EILSEQ or EINVAL; never EBUSY, which would reserve more than the site.
site_busy() {
	for i in $(seq $NS); do
		kp_add cx_on$i "$(v LOC_$i)" && fail "a kprobe on the $1 site $(v NAME_$i)"
		expect_eq "kprobe on the $1 site $(v NAME_$i)" "$ERR" EBUSY
	done
}
site_busy dormant
ACC=
refused=
for i in $(seq $NS); do
	for k in 1 2 3 4; do
		at=$(loc_minus "$(v LOC_$i)" $k)
		if kp_add cx${i}_$k "$at"; then
			ACC="$ACC $i:$k"
			echo "-:cx${i}_$k" >> $KE || fail "delete cx${i}_$k"
		else
			case $ERR in
			EILSEQ|EINVAL) refused="$refused $at:$ERR" ;;
			*) fail "kprobe at $at ($k before $(v NAME_$i)): $ERR" ;;
			esac
		fi
	done
done
echo "accepted:$ACC; refused:$refused"
[ -n "$ACC" ] || fail "no kprobe accepted on the 4 bytes before any site"

# Expected counts: sites' events (SEEN_i, BASE_i of them gone with the
# buffer), the hits of the kprobes now registered (HIT_i_k), in all
# (TOT_i_k).
for ik in $ACC; do eval "TOT_${ik%:*}_${ik#*:}=0"; done
kp_on() {
	for ik in $ACC; do
		eval "HIT_${ik%:*}_${ik#*:}=0"
		kp_add cx${ik%:*}_${ik#*:} "$(loc_minus "$(v LOC_${ik%:*})" ${ik#*:})" ||
			fail "kprobe $ik before the site refused now: $ERR"
		echo 1 > $T/events/kprobes/cx${ik%:*}_${ik#*:}/enable || fail "enable cx${ik%:*}_${ik#*:}"
	done
	KPON=1
}
# Deleting a kprobe event that recorded resets the ring buffers: the
# sites' lines so far go into BASE_i first.
kp_off() {
	for i in $(seq $NS); do
		s=$(v NAME_$i)
		eval "BASE_$i=\$((BASE_$i + $(grep -c " ${s#*:}: $s arg0=" $T/trace)))"
	done
	echo > $T/trace
	for ik in $ACC; do
		echo 0 > $T/events/kprobes/cx${ik%:*}_${ik#*:}/enable &&
		echo "-:cx${ik%:*}_${ik#*:}" >> $KE || fail "delete cx${ik%:*}_${ik#*:}"
	done
	KPON=0
}
arm() {
	cmd=
	for s in $SITES; do cmd="$cmd enable name $s;"; done
	echo "$cmd" > $C || fail "arm ($1)"
	for s in $SITES; do
		wait_listing $s " $2 1 " || fail "$s not $2: $(grep "^$s " $L)"
	done
	ARMED=1
}
disarm() {
	cmd=
	for s in $SITES; do cmd="$cmd disable name $s;"; done
	echo "$cmd" > $C || fail "disarm"
	for s in $SITES; do
		wait_listing $s ' dormant 0 ' || fail "$s not dormant: $(grep "^$s " $L)"
	done
	ARMED=0
}
fire() {
	echo $N > $F/coexist || fail "fire fixture_coexist"
	_f=0
	while [ $_f -lt $N ]; do
		cat /proc/sdt-example
		_f=$((_f + 1))
	done
	[ $ARMED = 0 ] || for i in $(seq $NS); do eval "SEEN_$i=\$((SEEN_$i + N))"; done
	[ $KPON = 0 ] || for ik in $ACC; do
		eval "HIT_${ik%:*}_${ik#*:}=\$((HIT_${ik%:*}_${ik#*:} + N))"
		eval "TOT_${ik%:*}_${ik#*:}=\$((TOT_${ik%:*}_${ik#*:} + N))"
	done
}
# Exact counts; the accepted kprobes never optimized.
check() {
	for i in $(seq $NS); do
		s=$(v NAME_$i)
		expect_eq "$1: $s events" "$(( $(v BASE_$i) + $(grep -c " ${s#*:}: $s arg0=" $T/trace) ))" "$(v SEEN_$i)"
	done
	[ $KPON = 0 ] || for ik in $ACC; do
		e=cx${ik%:*}_${ik#*:}
		expect_eq "$1: $e hits" "$(awk -v e=$e '$1 == e { print $2 }' $T/kprobe_profile)" \
			"$(v HIT_${ik%:*}_${ik#*:})"
		expect_eq "$1: $e misses" "$(awk -v e=$e '$1 == e { print $3 }' $T/kprobe_profile)" 0
		at=$(loc_minus "$(v LOC_${ik%:*})" ${ik#*:})
		grep "$at " $KL | grep -q OPTIMIZED &&
			fail "$1: $e optimized, its JMP over $(v NAME_${ik%:*}): $(grep "$at " $KL)"
	done
	return 0
}
# Each site's instruction as its state says.
check_insns() {
	P=$(peek)
	for i in $(seq $NS); do
		expect_eq "$1: $(v NAME_$i) instruction" "$(site_insn $i)" $2
	done
}

# The mechanisms of the arch: x86_64 calls a thunk (or the trampoline,
# for an operand a thunk cannot read) and has optimized kprobes; arm64
# branches to a thunk and has BRK kprobes only.
case $(uname -m) in
aarch64) MECHS="thunk kprobe" ;;
*) MECHS="thunk call optimized kprobe" ;;
esac
ARMED=0 KPON=0
for m in $MECHS; do
	case $(uname -m):$m in
	aarch64:thunk) echo thunk > $MECH; state=thunk insn=b ;;
	aarch64:kprobe) echo kprobe > $MECH; state=kprobe insn=brk ;;
	*:thunk) echo thunk > $MECH; state='\(thunk\|call\)' insn=call ;;
	*:call) echo call > $MECH; state=call insn=call ;;
	*:optimized) echo kprobe > $MECH; state=optimized insn=jmp ;;
	*:kprobe) echo 0 > $OPT; state=kprobe insn=int3 ;;
	esac
	# kprobes first, the site armed next; the site disarmed first.
	kp_on
	arm "$m, kprobes first" $state
	site_busy "$m-armed"
	sleep 1		# the optimizer's delay is 5 jiffies
	check_insns "$m, kprobes first" $insn
	fire
	check "$m, kprobes first"
	disarm
	fire
	check "$m, site disarmed first"
	kp_off
	# The site armed first, the kprobes next; the kprobes removed first.
	arm "$m, site first" $state
	kp_on
	site_busy "$m-armed"
	sleep 1
	fire
	check "$m, site first"
	kp_off
	fire
	check "$m, kprobes removed first"
	disarm
done
[ ! -e $OPT ] || echo 1 > $OPT
echo thunk > $MECH
echo 0 > /sys/kernel/rcu_expedited

# Everything gone: the text is as it was, and the sites still fire.
P1=$(peek)
expect_eq "bytes around the sites at the end" "$P1" "$P0"
arm "at the end" "$SDT_ARMED"
fire
check "at the end"
disarm
echo "-:cx_peek" >> $KE || fail "delete cx_peek"
grep -q cx_ $KE && fail "kprobe events left: $(cat $KE)"
echo "sdt-kprobes: sites $NS events $SEEN_1/$SEEN_2/$SEEN_3 kprobes-before$(for ik in $ACC; do
	printf ' %s=%s' "$(loc_minus "$(v LOC_${ik%:*})" ${ik#*:})" "$(v TOT_${ik%:*}_${ik#*:})"; done) refused$refused"
rmmod sdt_example markers_fixture
exit 0
