#!/bin/bash
# The layout of kernel/markers/: the control file is a client of the
# registry, not a partner (no object of the core uses a symbol of control.o
# or of its sinks.o, and control.o uses only the registry's client
# functions, so
# the core links and runs with CONFIG_MARKERS_CONTROL=n); <linux/marker.h>
# and <linux/sdt.h> do not include each other; no C file of ours under
# kernel/ is over 700 lines, tests excepted.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

d=$KOBJ/kernel/markers
ctl=$d/control.o
[ -f "$ctl" ] || { echo "no $ctl"; exit 1; }
core=()
for o in "$d"/*.o; do
	case $(basename "$o") in control.o|sinks.o|built-in.a) ;; *) core+=("$o") ;; esac
done
echo "core objects: ${core[*]##*/}"
defs() { nm --defined-only "$@" | awk 'NF == 3 && $2 ~ /[TDBR]/ { print $3 }' | sort -u; }
undefs() { nm -u "$@" | awk '{ print $NF }' | sort -u; }

bad=$(comm -12 <(defs "$ctl" "$d/sinks.o") <(undefs "${core[@]}"))
if [ -n "$bad" ]; then
	echo "the core uses symbols of control.o: $bad"; exit 1
fi
used=$(comm -12 <(defs "${core[@]}") <(undefs "$ctl"))
allowed="marker_change marker_debugfs_dir marker_listing_open marker_name_in_module marker_walk_names"
for s in $used; do
	case " $allowed " in *" $s "*) ;; *)
		echo "control.o uses $s, which is not one of the registry's client functions"; exit 1 ;;
	esac
done
echo "control.o uses of the core: $(echo $used)"

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
