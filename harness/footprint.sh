#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The footprint of a site in a module's image, for make bench: builds,
# against the kernel of $KOBJ, one module per kind of site with N sites
# and one with none, and prints, per site, the bytes it adds to the
# module's allocated sections (what loading it takes: text, data, rodata,
# __markers, the notes and tables) and to its file, stripped of debug
# information as modules_install INSTALL_MOD_STRIP=1 strips it. Each site
# is in a function of its own, void f(int v, const char *s), which the
# module without sites has too, empty. Kinds:
#   mark0, mark2, mark6	MARK() with 0, 2 and 6 arguments
#   sdt1, sdt6		SDT_PROBE() with 1 and 6
#   trace_event		a TRACE_EVENT with an int and a string field
#   define_event	a DEFINE_EVENT of a class the module has anyway
#			(against a module with the class and one event)
#   declare_trace	a bare DECLARE_TRACE() tracepoint, no event
#   pr_debug		a pr_debug() of the same format, with
#			CONFIG_DYNAMIC_DEBUG (without it pr_debug()
#			compiles to nothing: no row)
# Writes $B/footprint-bench.csv for make bench's kernel (footprint.csv
# for the test kernel, footprint-bench-arm64.csv...): kind,sites,
# alloc_bytes,file_bytes,alloc_per_site,file_per_site; and, for mark2 and
# trace_event, where those bytes go, section by section, in
# footprint-bench-sections.csv: kind,section,alloc_per_site.
# --run (make bench) also boots the kernel with modules of $N_RUN sites of
# mark2, sdt1, trace_event, define_event, declare_trace and (with
# CONFIG_MARKERS_DYNDBG) pr_debug, and prints
# the memory each site takes at run time, loaded and at first use
# (harness/guest/footprint-run.sh), into footprint-run-bench.csv.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

N=10
N_RUN=1000
run=0
[ "${1:-}" != --run ] || run=1
# Per kernel build: build/footprint-bench.csv for make bench's.
tag=$(basename "$KOBJ" | sed 's/^obj//')
dir=$B/footprint$tag
rm -rf "$dir"
mkdir -p "$dir"
kinds="mark0 mark2 mark6 sdt1 sdt6 trace_event define_event declare_trace"
run_kinds="mark2 sdt1 trace_event define_event declare_trace"
# A pr_debug()'s image needs dynamic debug; its first use, enabling its
# event through the control file, needs the markers' dynamic debug sites.
if grep -qx 'CONFIG_DYNAMIC_DEBUG=y' "$KOBJ/.config"; then
	kinds="$kinds pr_debug"
	if grep -qx 'CONFIG_MARKERS_DYNDBG=y' "$KOBJ/.config"; then
		run_kinds="$run_kinds pr_debug"
	fi
fi

# site KIND I: the site of function I.
site() {
	case $1 in
	mark0) echo "MARK(fp_m$2, MARK_NOARGS);" ;;
	mark2) echo "MARK(fp_m$2, \"v %d s %s\", v, s);" ;;
	mark6) echo "MARK(fp_m$2, \"%d %d %d %d %s %s\", v, v + 1, v + 2, v + 3, s, s + 1);" ;;
	sdt1) echo "SDT_PROBE(fp, s$2, v);" ;;
	sdt6) echo "SDT_PROBE(fp, s$2, v, v + 1, v + 2, v + 3, s, s + 1);" ;;
	trace_event | define_event) echo "trace_fp_e$2(v, s);" ;;
	declare_trace) echo "trace_fp_t$2(v, s);" ;;
	pr_debug) echo "pr_debug(\"v %d s %s\\n\", v, s);" ;;
	esac
}

# header KIND MOD FIRST LAST: the trace header of module MOD, with the
# events FIRST..LAST.
header() {
	local i
	cat <<EOF
/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM $2
#if !defined(_FP_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FP_TRACE_H
#include <linux/tracepoint.h>
EOF
	if [ "$1" = define_event ]; then
		cat <<'EOF'
DECLARE_EVENT_CLASS(fp_class, TP_PROTO(int v, const char *s), TP_ARGS(v, s),
	TP_STRUCT__entry(__field(int, v) __string(s, s)),
	TP_fast_assign(__entry->v = v; __assign_str(s);),
	TP_printk("v %d s %s", __entry->v, __get_str(s)));
EOF
	fi
	for ((i = $3; i <= $4; i++)); do
		if [ "$1" = define_event ]; then
			echo "DEFINE_EVENT(fp_class, fp_e$i, TP_PROTO(int v, const char *s), TP_ARGS(v, s));"
		else
			cat <<EOF
TRACE_EVENT(fp_e$i, TP_PROTO(int v, const char *s), TP_ARGS(v, s),
	TP_STRUCT__entry(__field(int, v) __string(s, s)),
	TP_fast_assign(__entry->v = v; __assign_str(s);),
	TP_printk("v %d s %s", __entry->v, __get_str(s)));
EOF
		fi
	done
	cat <<EOF
#endif
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE ${2}_trace
#include <trace/define_trace.h>
EOF
}

# module KIND SITES: fp_KIND_SITES.c, N functions (or SITES), SITES of
# them with a site (define_event: every module has event 0, in function 0).
module() {
	local m=fp_$1_$2 i first=1 last=$2 nf=$((N > $2 ? N : $2))
	[ "$1" != define_event ] || { first=0; last=$2; }
	{
		echo "// SPDX-License-Identifier: GPL-2.0"
		echo "#include <linux/module.h>"
		echo "#include <linux/marker.h>"
		echo "#include <linux/sdt.h>"
		case $1 in
		trace_event | define_event)
			echo "#define CREATE_TRACE_POINTS"
			echo "#include \"${m}_trace.h\"" ;;
		declare_trace)
			echo "#include <linux/tracepoint.h>"
			for ((i = 1; i <= $2; i++)); do
				echo "DECLARE_TRACE(fp_t$i, TP_PROTO(int v, const char *s), TP_ARGS(v, s));"
				echo "DEFINE_TRACE(fp_t$i, TP_PROTO(int v, const char *s), TP_ARGS(v, s));"
			done ;;
		esac
		for ((i = 0; i <= nf; i++)); do
			echo "noinline void fp_f$i(int v, const char *s);"
			echo "noinline void fp_f$i(int v, const char *s)"
			echo "{"
			if [ "$i" -ge "$first" ] && [ "$i" -le "$last" ]; then
				echo "	$(site "$1" "$i")"
			fi
			echo "	barrier();"
			echo "}"
		done
		echo "MODULE_LICENSE(\"GPL\");"
		echo "MODULE_DESCRIPTION(\"footprint: $1, $2 sites\");"
	} > "$dir/$m.c"
	case $1 in
	trace_event | define_event)
		header "$1" "$m" "$first" "$last" > "$dir/${m}_trace.h"
		echo "CFLAGS_$m.o += -I\$(src)" >> "$dir/Kbuild" ;;
	esac
	echo "obj-m += $m.o" >> "$dir/Kbuild"
}

for k in $kinds; do
	module "$k" 0
	module "$k" "$N"
done
if [ $run = 1 ]; then
	for k in $run_kinds; do
		module "$k" "$N_RUN"
	done
fi
make -s -C "$KOBJ" M="$dir" ARCH="$KARCH" "${KCROSS[@]}" "${KCC[@]}" modules > "$dir/build.log" 2>&1 ||
	{ tail -n 20 "$dir/build.log"; die "footprint: the modules did not build ($dir/build.log)"; }

strip_cmd="strip"
[ "$KARCH" != arm64 ] || strip_cmd=aarch64-linux-gnu-strip
# sections KO: "name bytes" of each of its allocated sections;
# alloc KO: their sum; file KO: its stripped size.
sections() {
	readelf -SW "$1" | python3 -c '
import re, sys
for line in sys.stdin:
    m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+\S+\s+\S+\s+([0-9a-f]+)\s+\S+\s+(\S*)", line)
    if m and "A" in m.group(4) and re.fullmatch("[A-Z]+", m.group(4)):
        print(m.group(1), int(m.group(3), 16))'
}
alloc() {
	sections "$1" | awk '{ t += $2 } END { print t + 0 }'
}
# breakdown KIND: where KIND's allocated bytes a site go, section by
# section (the change of each over N sites, divided by N), printed and
# added to $scsv.
breakdown() {
	printf '  %s, allocated bytes a site by section:' "$1"
	LC_ALL=C join -a1 -a2 -e0 -o 0,1.2,2.2 <(sections "$dir/fp_${1}_0.ko" | LC_ALL=C sort) \
		<(sections "$dir/fp_${1}_$N.ko" | LC_ALL=C sort) |
		awk -v n="$N" -v k="$1" -v csv="$scsv" '{
			d = ($3 - $2) / n
			if (!d)
				next
			printf "%s %s %.1f", sep, $1, d
			sep = ","
			printf "%s,%s,%.1f\n", k, $1, d >> csv
		} END { print "" }'
}
file_size() {
	$strip_cmd --strip-debug -o "$1.stripped" "$1"
	stat -c %s "$1.stripped"
}
# target CSV COLUMN LIMIT WHAT: mark2's figure over trace_event's in
# COLUMN of CSV, and whether it is at most LIMIT.
target() {
	local m t r
	m=$(awk -F, '$1 == "mark2" { print $'"$2"' }' "$1")
	t=$(awk -F, '$1 == "trace_event" { print $'"$2"' }' "$1")
	r=$(awk -v m="$m" -v t="$t" 'BEGIN { printf "%.3f", m / t }')
	echo "  $4: $m / $t = $r" \
		"($(awk -v r="$r" -v l="$3" 'BEGIN { print r <= l ? "<= " l ", met" : "> " l ", target not met" }'))"
}
csv=$B/footprint$tag.csv
echo "kind,sites,alloc_bytes,file_bytes,alloc_per_site,file_per_site" > "$csv"
echo "the footprint of a site in a module (allocated bytes, and stripped file bytes,"
echo "per site: modules with $N sites of a kind against the same module with none):"
printf '  %-14s %14s %10s\n' kind "alloc/site" "file/site"
for k in $kinds; do
	a0=$(alloc "$dir/fp_${k}_0.ko") an=$(alloc "$dir/fp_${k}_$N.ko")
	f0=$(file_size "$dir/fp_${k}_0.ko") fn=$(file_size "$dir/fp_${k}_$N.ko")
	pa=$(((an - a0) / N)) pf=$(((fn - f0) / N))
	printf '  %-14s %14d %10d\n' "$k" "$pa" "$pf"
	echo "$k,$N,$((an - a0)),$((fn - f0)),$pa,$pf" >> "$csv"
done
# The issue's target: a MARK() site at most a tenth of a TRACE_EVENT.
target "$csv" 5 0.1 "MARK() with 2 arguments / TRACE_EVENT of the same fields"
scsv=$B/footprint$tag-sections.csv
echo "kind,section,alloc_per_site" > "$scsv"
breakdown mark2
breakdown trace_event
echo "CSV: $csv, $scsv"
[ $run = 1 ] || exit 0

# Run time: what the sites of each kind take in the guest, loaded and at
# first use (see harness/guest/footprint-run.sh), per site, against the
# module without sites.
log=$LOGS/footprint-run$tag.log
files=()
for k in $run_kinds; do
	files+=("$dir/fp_${k}_0.ko" "$dir/fp_${k}_$N_RUN.ko")
done
"$TOP/harness/run.sh" -t 1800 -l "$log" "$TOP/harness/guest/footprint-run.sh" \
	"${files[@]}" > /dev/null || die "footprint: the run-time job failed ($log)"
rcsv=$B/footprint-run$tag.csv
echo "kind,sites,load_bytes_per_site,use_bytes_per_site,image_bytes_per_site,total_per_site" > "$rcsv"
echo
echo "the memory of a site at run time (bytes per site, $N_RUN sites against none, from"
echo "/proc/meminfo: slab and per-CPU at load; slab, per-CPU and vmalloc at first use,"
echo "its events enabled) and with its image:"
printf '  %-14s %8s %8s %8s %8s\n' kind load use image total
for k in $run_kinds; do
	line() { tr -d '\r' < "$log" | grep -a "^footprint_run $k $1 " | head -1; }
	l0=$(line 0) ln=$(line "$N_RUN")
	[ -n "$l0" ] && [ -n "$ln" ] || die "footprint: no run-time figures for $k ($log)"
	load=$(( ($(echo "$ln" | cut -d' ' -f5) - $(echo "$l0" | cut -d' ' -f5)) * 1024 / N_RUN ))
	use=$(( ($(echo "$ln" | cut -d' ' -f7) - $(echo "$l0" | cut -d' ' -f7)) * 1024 / N_RUN ))
	img=$(awk -F, -v k="$k" '$1 == k { print $5 }' "$csv")
	printf '  %-14s %8d %8d %8d %8d\n' "$k" "$load" "$use" "$img" $((load + use + img))
	echo "$k,$N_RUN,$load,$use,$img,$((load + use + img))" >> "$rcsv"
done
target "$rcsv" 6 0.25 "MARK() name, image, loaded and used / TRACE_EVENT's"
echo "CSV: $rcsv"
