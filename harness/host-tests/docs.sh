#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The top-level README.md is current with the tree; it fails, naming each
# stale item, when
#  - a path of its layout table (the backquoted paths of the first
#    column; a bare name after a path is in that path's directory, a name
#    ending in / a directory) is not in the tree, or an overlay file
#    (lib.sh's OVERLAY_DIRS and OVERLAY_FILES) is in no row of it;
#  - its KUnit row (the row of kernel/markers/tests/, and the rows with an
#    empty first column that continue it) does not name exactly the suites
#    of kernel/markers/tests/*.c (the .name of each struct kunit_suite), or
#    Documentation/trace/markers.rst names as "suite ``NAME``" one that no
#    file defines;
#  - it does not name exactly the fragments kernel/configs/markers*.config;
#  - it does not name every "config MARKERS*" of Kconfig.marker, or names a
#    MARKERS* option that Kconfig.marker does not define;
#  - its targets table does not name exactly the Makefile's targets;
#  - it is over 120 lines (two screens), or names an issue number;
#  - harness/README.md's guide "The series on your own tree" does not
#    name the version of linux-source-6.12 installed here (the source the
#    series is made against and tested on).
# Prints one line per check, with what it compared. It needs only git (or
# find), grep, sed and awk: it always runs.
# DOCS_README=FILE (or a first argument) checks FILE in place of
# README.md, DOCS_RST=FILE another markers.rst: to try the test.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

readme=${1:-${DOCS_README:-$TOP/README.md}}
rst=${DOCS_RST:-$TOP/Documentation/trace/markers.rst}
# How the messages name them: relative to the top of the tree when there.
R=${readme#"$TOP"/} M=${rst#"$TOP"/}
for f in "$readme" "$rst" "$TOP/Makefile" "$TOP/Kconfig.marker"; do
	[ -f "$f" ] || { echo "no $f"; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nstale=0
stale() { echo "stale: $*"; nstale=$((nstale + 1)); }

# The tree's files, as make check's cache sees them (tracked, and new ones
# git does not ignore), that exist; without git, what find sees.
if git -C "$TOP" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	git -C "$TOP" ls-files --cached --others --exclude-standard
else
	(cd "$TOP" && find . \( -path ./build -o -path ./.git \) -prune -o -type f -print |
		sed 's|^\./||')
fi | sort -u | while IFS= read -r f; do
	[ -e "$TOP/$f" ] && printf '%s\n' "$f"
done > "$tmp/files"

# table HEADING: the rows of the first table under "## HEADING" (not its
# header and separator), one a line: ROW, FIRST COLUMN and SECOND, each
# ended by $US (an empty field survives, which a tab would not); ROW the
# number of the row that a row with an empty first column continues.
US=$'\037'
table() {
	awk -v h="## $1" -v us="$US" -F'|' '
		$0 == h { s = 1; next }
		s && /^## / { exit }
		s && /^\|/ { t = 1
			if (++n <= 2) next
			c1 = $2; gsub(/^[ \t]+|[ \t]+$/, "", c1)
			if (c1 != "") row++
			print row us c1 us $3 us
			next }
		t { exit }' "$readme"
}
# quoted: the backquoted items of stdin, one a line.
# shellcheck disable=SC2016
quoted() { grep -o '`[^`]*`' | tr -d '`'; }

# 1. The layout table's paths exist, and cover the overlay.
table Layout > "$tmp/layout"
: > "$tmp/paths"
while IFS=$US read -r _ c1 _; do
	dir=
	while IFS= read -r item; do
		case $item in
		*/*)	p=$item ;;
		*)	p=${dir:+$dir/}$item ;;
		esac
		printf '%s\n' "$p" >> "$tmp/paths"
		case $p in
		*/)	dir=${p%/} ;;
		*/*)	dir=${p%/*} ;;
		*)	dir= ;;
		esac
	done < <(printf '%s\n' "$c1" | quoted)
done < "$tmp/layout"
npaths=$(grep -c . "$tmp/paths")
[ "$npaths" -gt 0 ] || stale "$R: no layout table (## Layout) or no path in it"
while IFS= read -r p; do
	case $p in
	*/)	grep -qxF -- "$p" <(cut -c1-${#p} "$tmp/files") ||
			stale "layout: $p: no such directory in the tree" ;;
	*)	grep -qxF -- "$p" "$tmp/files" || grep -qxF -- "$p/" <(cut -c1-$((${#p} + 1)) "$tmp/files") ||
			stale "layout: $p: no such file in the tree" ;;
	esac
done < "$tmp/paths"
# The overlay's files, each a path of the table or under a directory of it.
novl=0 nout=0
while IFS= read -r f; do
	ovl=0
	for d in $OVERLAY_DIRS; do case $f in "$d"/*) ovl=1 ;; esac; done
	for o in $OVERLAY_FILES; do [ "$f" != "$o" ] || ovl=1; done
	[ $ovl = 1 ] || continue
	novl=$((novl + 1))
	covered=0
	while IFS= read -r p; do
		case $p in
		*/)	case $f in "$p"*) covered=1; break ;; esac ;;
		*)	case $f in "$p"|"$p"/*) covered=1; break ;; esac ;;
		esac
	done < "$tmp/paths"
	[ $covered = 1 ] || { stale "layout: $f is in no row"; nout=$((nout + 1)); }
done < "$tmp/files"
echo "layout: $npaths paths in $R's table; $novl overlay files, $nout in no row"

# 2. The KUnit suites: kernel/markers/tests/*.c against the KUnit row, and
#    the suites markers.rst names.
for c in "$TOP"/kernel/markers/tests/*.c; do
	awk '/struct kunit_suite [A-Za-z0-9_]+ *= *\{/ { s = 1 }
	     s && match($0, /\.name *= *"[^"]*"/) {
		v = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", v); sub(/"$/, "", v)
		print v; s = 0 }' "$c"
done | sort -u > "$tmp/suites"
krow=$(awk -F"$US" '$2 ~ /`kernel\/markers\/tests\/[^`]*`/ { print $1; exit }' "$tmp/layout")
[ -n "$krow" ] || stale "$R: no KUnit row (kernel/markers/tests/) in the layout table"
awk -F"$US" -v r="${krow:--1}" '$1 == r { print $3 }' "$tmp/layout" | quoted |
	grep -x 'markers[a-z0-9_]*' | sort -u > "$tmp/readme-suites"
comm -23 "$tmp/suites" "$tmp/readme-suites" | while IFS= read -r s; do
	echo "stale: $R: the KUnit row does not name the suite $s"
done > "$tmp/out"
comm -13 "$tmp/suites" "$tmp/readme-suites" | while IFS= read -r s; do
	echo "stale: $R: the KUnit row names $s, which no kernel/markers/tests/*.c defines"
done >> "$tmp/out"
# shellcheck disable=SC2016
tr '\n' ' ' < "$rst" | grep -oE 'suite +``markers[a-z0-9_]*``' |
	sed 's/.*``\(.*\)``/\1/' | sort -u > "$tmp/rst-suites"
comm -13 "$tmp/suites" "$tmp/rst-suites" | while IFS= read -r s; do
	echo "stale: $M: names the suite $s, which no kernel/markers/tests/*.c defines"
done >> "$tmp/out"
cat "$tmp/out"
nstale=$((nstale + $(grep -c . "$tmp/out")))
echo "kunit: $(grep -c . "$tmp/suites") suites in kernel/markers/tests/*.c," \
	"$(grep -c . "$tmp/readme-suites") on $R's KUnit row," \
	"$(grep -c . "$tmp/rst-suites") named in $M"

# 3. The config fragments.
grep -x 'kernel/configs/markers[^/]*\.config' "$tmp/files" | sed 's|.*/||' | sort -u > "$tmp/frags"
grep -oE 'markers[a-z0-9_-]*\.config' "$readme" | sort -u > "$tmp/readme-frags"
comm -23 "$tmp/frags" "$tmp/readme-frags" > "$tmp/d1"
comm -13 "$tmp/frags" "$tmp/readme-frags" > "$tmp/d2"
while IFS= read -r f; do stale "$R does not name kernel/configs/$f"; done < "$tmp/d1"
while IFS= read -r f; do stale "$R names $f, which kernel/configs/ does not have"; done < "$tmp/d2"
echo "fragments: $(grep -c . "$tmp/frags") in kernel/configs/, $(grep -c . "$tmp/readme-frags") named in $R"

# 4. The options of Kconfig.marker: each config MARKERS* named in
#    README.md (with or without CONFIG_), and each backquoted one it names
#    a config of Kconfig.marker.
sed -n 's/^config \(MARKERS[A-Z0-9_]*\)[[:space:]]*$/\1/p' "$TOP/Kconfig.marker" | sort -u > "$tmp/syms"
while IFS= read -r s; do
	grep -Eq "(^|[^A-Za-z0-9_])(CONFIG_)?$s([^A-Za-z0-9_]|\$)" "$readme" ||
		stale "$R does not name $s (Kconfig.marker)"
done < "$tmp/syms"
quoted < "$readme" | grep -xE '(CONFIG_)?MARKERS[A-Z0-9_]*' | sed 's/^CONFIG_//' | sort -u > "$tmp/readme-syms"
comm -13 "$tmp/syms" "$tmp/readme-syms" > "$tmp/d2"
while IFS= read -r s; do stale "$R names $s, which Kconfig.marker does not define"; done < "$tmp/d2"
echo "kconfig: $(grep -c . "$tmp/syms") config MARKERS* in Kconfig.marker, $(grep -c . "$tmp/readme-syms") backquoted in $R"

# 5. The targets: the Makefile's (its .PHONY lists and its rules) against
#    the first column of README.md's targets table ("make TARGET ...").
{ sed -n 's/^\.PHONY://p' "$TOP/Makefile" | tr -s ' \t' '\n'
  sed -n 's/^\([a-z][a-z0-9_-]*\):\([^=].*\)\{0,1\}$/\1/p' "$TOP/Makefile"
} | grep . | sort -u > "$tmp/targets"
table Targets | cut -d"$US" -f2 | quoted | awk '
	$1 == "make" { t = "all"
		for (i = 2; i <= NF; i++) if ($i !~ /=/) { t = $i; break }
		print t }' | sort -u > "$tmp/readme-targets"
comm -23 "$tmp/targets" "$tmp/readme-targets" > "$tmp/d1"
comm -13 "$tmp/targets" "$tmp/readme-targets" > "$tmp/d2"
while IFS= read -r t; do stale "$R's targets table does not have make $t"; done < "$tmp/d1"
while IFS= read -r t; do stale "$R's targets table has make $t, which the Makefile does not"; done < "$tmp/d2"
echo "targets: $(grep -c . "$tmp/targets") in the Makefile, $(grep -c . "$tmp/readme-targets") in $R's table"

# 6. Two screens, and no issue numbers.
lines=$(wc -l < "$readme")
[ "$lines" -le 120 ] || stale "$R is $lines lines, over 120"
grep -inE 'issues? #?[0-9]' "$readme" > "$tmp/issues"
while IFS= read -r l; do stale "$R names an issue number: $l"; done < "$tmp/issues"
echo "size: $R $lines lines (at most 120), $(grep -c . "$tmp/issues") lines naming an issue"

# 7. The base of the series, by its Debian version.
hr=${DOCS_HARNESS_README:-$TOP/harness/README.md}
if v=$(dpkg-query -W -f '${Version}' linux-source-6.12 2> /dev/null) && [ -n "$v" ]; then
	grep -qF "\`linux-source-6.12\` $v " "$hr" ||
		stale "${hr#"$TOP"/} does not name linux-source-6.12 $v, the source installed here"
	echo "series base: linux-source-6.12 $v, named in ${hr#"$TOP"/}"
else
	stale "no linux-source-6.12 installed: the base of the series cannot be checked"
fi

if [ "$nstale" -gt 0 ]; then
	echo "docs: $nstale stale"
	exit 1
fi
echo "docs: all current"
