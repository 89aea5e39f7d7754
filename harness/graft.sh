#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Graft the overlay onto Debian's linux-source-6.12: unpack the tarball once,
# build the patched + overlaid tree in a staging area, then copy over only the
# files whose content changed, so kbuild rebuilds only what an edit touched.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -n "$TARBALL" ] && [ -f "$TARBALL" ] ||
	die "no /usr/src/linux-source-6.12.tar.* (run 'make deps')"

mkdir -p "$B"
# One graft at a time: each rebuilds $B/stage and rewrites the tree from
# it, and make check runs two host tests that graft (graft-bad-patch, and
# series through make patches), perhaps at once on its two workers.
exec 8> "$B/graft.lock"
flock 8
stamp="$(stat -c '%n %s %Y' "$TARBALL")"
if [ ! -f "$B/tarball.stamp" ] || [ "$(cat "$B/tarball.stamp")" != "$stamp" ]; then
	say "graft: unpacking $TARBALL"
	rm -rf "$KSRC" "$PRISTINE" "$B/unpack" "$B/grafted.list" "$KOBJ"
	mkdir -p "$B/unpack"
	tar -C "$B/unpack" -xf "$TARBALL"
	top=$(ls -1 "$B/unpack")
	[ "$(echo "$top" | wc -l)" = 1 ] || die "unexpected tarball layout"
	mv "$B/unpack/$top" "$KSRC"
	rmdir "$B/unpack"
	# Pristine copy for the files patches touch: hard links cost nothing,
	# and the graft below replaces files (rsync writes a new inode), so
	# the links never see our edits.
	cp -al "$KSRC" "$PRISTINE"
	echo "$stamp" > "$B/tarball.stamp"
fi

PATCHES=${PATCHES:-$TOP/patches}
stage=$B/stage.new	# $B/stage once the tree is grafted: the last graft
rm -rf "$stage"
mkdir -p "$stage"

# 1. Patches, applied to pristine copies of the files they touch.
: > "$B/patched.list.new"
if [ -f "$PATCHES/series" ]; then
	while read -r p _; do
		case "$p" in ''|'#'*) continue ;; esac
		pf=$PATCHES/$p
		[ -f "$pf" ] || die "graft: patches/series names $p, which does not exist"
		files=$(sed -n 's|^+++ [^/]*/\([^[:space:]]*\).*|\1|p' "$pf")
		for f in $files; do
			if [ ! -e "$stage/$f" ]; then
				mkdir -p "$stage/$(dirname "$f")"
				if [ -e "$PRISTINE/$f" ]; then
					cp "$PRISTINE/$f" "$stage/$f"
				fi
			fi
			echo "$f" >> "$B/patched.list.new"
		done
		if ! out=$(patch -p1 -d "$stage" -N -F0 --no-backup-if-mismatch \
				-r - < "$pf" 2>&1); then
			printf '%s\n' "$out" >&2
			# The files with a failed hunk.
			bad=$(printf '%s\n' "$out" | awk '
				/^patching file / { f = $3; gsub("\047", "", f) }
				/FAILED|can.t find file|No such file/ { if (f != "" && !(f in seen)) { seen[f]; printf "%s%s", sep, f; sep = ", " } }')
			die "graft: patch patches/$p does not apply${bad:+ to $bad} (kernel $(basename "$TARBALL"))"
		fi
	done < "$PATCHES/series"
fi

# 2. The overlay: every file git knows of (tracked, or new and not ignored).
cd "$TOP"
git ls-files --cached --others --exclude-standard -- $OVERLAY_DIRS $OVERLAY_FILES |
	sort -u > "$B/overlay.list"
while read -r f; do
	[ -f "$f" ] || continue
	if grep -qxF "$f" "$B/patched.list.new"; then
		die "graft: $f is both an overlay file and patched by patches/"
	fi
	mkdir -p "$stage/$(dirname "$f")"
	cp "$f" "$stage/$f"
done < "$B/overlay.list"

# 3. An edit of a grafted file in the tree (it differs from the last
#    graft) that this graft would undo (it differs from this one) stops
#    the graft: make refresh brings edits into the repository.
if [ -f "$B/grafted.list" ] && [ -d "$B/stage" ]; then
	lost=$(while read -r f; do
		[ -f "$KSRC/$f" ] && [ -f "$B/stage/$f" ] || continue
		cmp -s "$B/stage/$f" "$KSRC/$f" && continue
		cmp -s "$stage/$f" "$KSRC/$f" 2> /dev/null && continue
		echo "$f"
	done < "$B/grafted.list")
	[ -z "$lost" ] || die "graft: build/linux has edits that grafting would undo, in $(echo $lost): make refresh brings them into the repository (or delete the file to drop its edits)"
fi

# 4. Copy what changed (by content) into the tree; unchanged files keep
#    their mtimes. New files get the current time.
rsync -r --checksum --itemize-changes "$stage/" "$KSRC/" > "$B/graft.changes"
n=$(grep -c '^>' "$B/graft.changes" || true)

# 5. Files grafted last time but not now: restore pristine, or delete.
(cd "$stage" && find . -type f | sed 's|^\./||' | sort) > "$B/grafted.list.new"
if [ -f "$B/grafted.list" ]; then
	comm -23 "$B/grafted.list" "$B/grafted.list.new" | while read -r f; do
		if [ -e "$PRISTINE/$f" ]; then
			cp "$PRISTINE/$f" "$KSRC/$f.tmp" && mv "$KSRC/$f.tmp" "$KSRC/$f"
		else
			rm -f "$KSRC/$f"
		fi
		say "graft: restored $f"
	done
fi
mv "$B/grafted.list.new" "$B/grafted.list"
mv "$B/patched.list.new" "$B/patched.list"
rm -rf "$B/stage"
mv "$stage" "$B/stage"
say "graft: $(wc -l < "$B/grafted.list") files grafted, $n changed since last graft"
