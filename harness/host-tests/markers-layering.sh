#!/bin/bash
# The layout of kernel/markers/: the control file, the trace events
# (kernel/trace/trace_markers*.c) and the raw BPF attach (bpf.c) are clients of the registry, not partners (no object of the core uses a
# symbol of theirs, and they use only the registry's client functions, so
# the core links and runs with CONFIG_MARKERS_CONTROL=n or
# CONFIG_MARKERS_EVENTS=n; the control file also uses the events' enable
# switch and hit counts); <linux/marker.h>
# and <linux/sdt.h> do not include each other; no C file of ours under
# kernel/ is over 700 lines, tests excepted. And the layers of internal.h:
# no object of kernel/markers/ uses a symbol of an object of a higher
# layer, and the objects' uses have no cycle.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

d=$KOBJ/kernel/markers
ctl=("$d/control.o" "$d/control_parse.o" "$d/sinks.o")
# The trace events, a dynamic event type of the tracing code.
t=$KOBJ/kernel/trace
ev=("$t/trace_markers.o" "$t/trace_markers_dyn.o" "$t/trace_markers_format.o" "$t/trace_markers_record.o")
for o in "${ctl[@]}" "${ev[@]}"; do
	[ -f "$o" ] || { echo "no $o"; exit 1; }
done
# Raw BPF programs by marker name (with CONFIG_BPF_EVENTS): a client too.
bpfo=()
[ ! -f "$d/bpf.o" ] || bpfo=("$d/bpf.o")
core=()
for o in "$d"/*.o; do
	case " ${ctl[*]} ${ev[*]} ${bpfo[*]} " in *" $o "*) continue ;; esac
	case $(basename "$o") in built-in.a) ;; *) core+=("$o") ;; esac
done
echo "core objects: ${core[*]##*/}"
defs() { nm --defined-only "$@" | awk 'NF == 3 && $2 ~ /[TDBR]/ { print $3 }' | sort -u; }
undefs() { nm -u "$@" | awk '{ print $NF }' | sort -u; }

# The core uses nothing of its clients.
bad=$(comm -12 <(defs "${ctl[@]}" "${ev[@]}" "${bpfo[@]}") <(undefs "${core[@]}"))
if [ -n "$bad" ]; then
	echo "the core uses symbols of its clients: $bad"; exit 1
fi
# Each client uses only the registry's client functions (and the control
# file, the events' enable switch; the events, the iterators of the two
# grammars, MARK() formats and SDT specs, for their fields).
client="marker_change marker_register_module_notifier marker_debugfs_dir marker_listing_open marker_name_in_module marker_name_at marker_walk_names marker_lookup_sites marker_lookup_sites_at"
client_ev="marker_lookup_sites marker_register_module_notifier marker_add_probe marker_remove_probe marker_change marker_walk_names marker_name_event_format marker_key_no_event marker_format_next sdt_spec_next"
# check_uses NAME "ALLOWED" OBJECTS...: of what the objects of "${prov[@]}"
# define, OBJECTS use only ALLOWED.
check_uses() {
	local name=$1 allowed=$2 used s
	shift 2
	used=$(comm -12 <(defs "${prov[@]}") <(undefs "$@"))
	for s in $used; do
		case " $allowed " in *" $s "*) ;; *)
			echo "$name uses $s, which is not one of its client functions"; exit 1 ;;
		esac
	done
	echo "$name uses: $(echo $used)"
}
prov=("${core[@]}" "${ev[@]}")
check_uses "the control file" "$client marker_event_set marker_event_enabled marker_event_hits marker_events_hold marker_events_release" "${ctl[@]}"
prov=("${core[@]}")
check_uses "the events" "$client_ev" "${ev[@]}"
[ ${#bpfo[@]} = 0 ] ||
	check_uses "the BPF attach" "marker_key_event_format marker_add_probe marker_remove_probe marker_format_next sdt_spec_nargs" "${bpfo[@]}"

# The layers, top first, as internal.h lists them: an object may use
# symbols of its own layer or of those below it.
layers=("control control_parse sinks bpf"
	"kunit" "api" "probes" "dyndbg" "objects" "mark sdt" "sdt_thunk" "sdt_kprobe" "debugfs" "core batch" "format sdt_decode mark_hit")
declare -A layer
for i in "${!layers[@]}"; do
	for f in ${layers[$i]}; do layer[$f]=$i; done
done
# What a MARK() site itself calls (<linux/marker.h>): a site in a file of
# ours (core.c's markers_init) uses them as any site in the kernel does.
site_abi="__marker_slowpath __marker_call __marker_check_rcu"
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for o in "$d"/*.o; do
	f=$(basename "$o" .o)
	[ "$f" != built-in ] || continue
	[ -n "${layer[$f]:-}" ] || { echo "$f.o is in no layer: add it to internal.h and here"; exit 1; }
done
# Each object's defined and undefined symbols, read once.
syms=$(mktemp -d)
trap 'rm -f "$edges"; rm -rf "$syms"' EXIT
for o in "$d"/*.o; do
	f=$(basename "$o" .o)
	[ "$f" != built-in ] || continue
	defs "$o" > "$syms/$f.def"
	undefs "$o" | grep -vxF -f <(printf '%s\n' $site_abi) > "$syms/$f.undef" || true
done
for o in "$d"/*.o; do
	a=$(basename "$o" .o)
	[ "$a" != built-in ] || continue
	for p in "$d"/*.o; do
		b=$(basename "$p" .o)
		[ "$b" != built-in ] && [ "$a" != "$b" ] || continue
		used=$(comm -12 "$syms/$b.def" "$syms/$a.undef")
		[ -n "$used" ] || continue
		echo "$a $b" >>"$edges"
		if [ "${layer[$b]}" -lt "${layer[$a]}" ]; then
			echo "$a.o (layer ${layer[$a]}) uses $(echo $used) of $b.o (layer ${layer[$b]}), a higher layer"
			exit 1
		fi
	done
done
# tsort reports a cycle on stderr, and with GNU coreutils fails.
if ! out=$(tsort "$edges" 2>&1 >/dev/null) || [ -n "$out" ]; then
	echo "the objects of kernel/markers/ use each other in a cycle: $out"; exit 1
fi
echo "layers: $(sort -u "$edges" | awk '{ printf "%s->%s ", $1, $2 }')"

for h in "marker.h sdt.h" "sdt.h marker.h"; do
	set -- $h
	if grep -q "#include <linux/$2>" "$TOP/include/linux/$1"; then
		echo "<linux/$1> includes <linux/$2>"; exit 1
	fi
done

long=$(cd "$TOP" && find kernel -name '*.c' -not -path '*/tests/*' -exec wc -l {} + |
	awk '$2 != "total" && $1 > 700')
[ -z "$long" ] || { echo "over 700 lines: $long"; exit 1; }
(cd "$TOP" && find kernel -name '*.c' -not -path '*/tests/*' -exec wc -l {} +)
