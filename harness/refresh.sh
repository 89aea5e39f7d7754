#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make refresh [NAME=NAME MSG=FILE]: bring what was edited in the grafted
# tree (build/linux, since the last graft) back into the repository, then
# regenerate every file derived from the tree, so that make check and
# make patches see the edit:
#
#  - an edited overlay file, or a new file under the overlay's
#    directories, is copied back to the repository;
#  - edits of the kernel's own files become one new patch,
#    patches/NNNN-NAME.patch (NNNN the next number), applied after the
#    others: patches/series lists it, and harness/series.def makes it a
#    patch of the series of its own, before the MAINTAINERS patch, with
#    the subject (first line) and body (after a blank line) of FILE,
#    signed off by the git identity (as make patches does);
#  - the tree is grafted again (the new patch must reproduce the edits
#    exactly), the test kernel is built, and its marker catalog written to
#    scripts/markers/catalog.ref.
#
# With no edit, it grafts, builds and rewrites the catalog. On any error
# (no NAME or MSG for an edit, a patch of that name already there, a
# patch that does not reproduce the edit, a failed build) it puts the
# repository's files back as they were, and build/linux with the edits
# in it: nothing changes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

NAME=${NAME:-}
MSG=${MSG:-}
[ "$KARCH" = x86_64 ] && [ -z "${LLVM:-}" ] ||
	die "refresh: scripts/markers/catalog.ref is the catalog of the x86_64 GCC test kernel: run make refresh without ARCH= and LLVM="
[ -f "$B/grafted.list" ] && [ -d "$B/stage" ] && [ -d "$PRISTINE" ] ||
	die "refresh: no grafted tree: run make graft, edit build/linux, then make refresh"

tmp=$(mktemp -d)
done_ok=0
saved=()	# repository files to put back on error (as $tmp/repo/PATH)
created=()	# repository files to remove on error

cleanup() {
	if [ $done_ok = 0 ]; then
		for f in "${created[@]}"; do rm -f "$TOP/$f"; done
		for f in "${saved[@]}"; do cp "$tmp/repo/$f" "$TOP/$f"; done
		if [ -f "$tmp/grafted" ]; then
			# The graft ran: graft again from the repository as it
			# was (a failed graft leaves the tree as it was), then
			# put the edits back into build/linux.
			"$TOP/harness/graft.sh" > /dev/null 2>&1 ||
				say "refresh: the graft back failed: run make graft"
			(cd "$tmp/edits" && find . -type f | sed 's|^\./||') |
				while read -r f; do cp "$tmp/edits/$f" "$KSRC/$f"; done
		fi
		[ ${#saved[@]} = 0 ] && [ ${#created[@]} = 0 ] ||
			say "refresh: nothing changed: the repository is as it was, build/linux has the edits"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

save() {	# save PATH: keep the repository's PATH to put back on error
	mkdir -p "$tmp/repo/$(dirname "$1")"
	cp "$TOP/$1" "$tmp/repo/$1"
	saved+=("$1")
}

# 1. The edits: files of build/linux written since the tarball was
#    unpacked (graft.sh) that differ from what the graft put there, or
#    from the tarball's (editor backups aside).
mkdir -p "$tmp/edits" "$tmp/ref"
overlay=()	# overlay files to copy back
patched=()	# kernel files for the new patch
while read -r f; do
	if grep -qxF "$f" "$B/overlay.list"; then
		cmp -s "$B/stage/$f" "$KSRC/$f" && continue
		overlay+=("$f")
	elif grep -qxF "$f" "$B/patched.list"; then
		cmp -s "$B/stage/$f" "$KSRC/$f" && continue
		mkdir -p "$tmp/ref/$(dirname "$f")"
		cp "$B/stage/$f" "$tmp/ref/$f"
		patched+=("$f")
	elif [ -e "$PRISTINE/$f" ]; then
		mkdir -p "$tmp/ref/$(dirname "$f")"
		if [ "$KSRC/$f" -ef "$PRISTINE/$f" ]; then
			# Edited in place: the hard-linked pristine copy (graft.sh)
			# was edited too. The tarball has the file as it was.
			top=$(tar -tf "$TARBALL" | head -n 1 || true)
			top=${top%%/*}
			tar -xOf "$TARBALL" "$top/$f" > "$tmp/ref/$f" ||
				die "refresh: $f was edited in place and is not in $TARBALL"
			cp "$tmp/ref/$f" "$PRISTINE/$f.tmp" && mv "$PRISTINE/$f.tmp" "$PRISTINE/$f"
		else
			cp "$PRISTINE/$f" "$tmp/ref/$f"
		fi
		cmp -s "$tmp/ref/$f" "$KSRC/$f" && continue
		patched+=("$f")
	else
		case " $OVERLAY_DIRS " in
		*" ${f%%/*} "*) overlay+=("$f") ;;
		*) patched+=("$f") ;;	# a new file of its own: /dev/null below
		esac
	fi
	mkdir -p "$tmp/edits/$(dirname "$f")"
	cp -p "$KSRC/$f" "$tmp/edits/$f"
done < <(cd "$KSRC" && find . -type f -newer "$B/tarball.stamp" \
		! -name '*~' ! -name '.checkpatch-camelcase.*' ! -name '*.orig' ! -name '*.rej' ! -name '.*.sw?' |
		sed 's|^\./||' | LC_ALL=C sort)

# 2. Check everything before writing anything.
if [ ${#patched[@]} = 0 ]; then
	[ -z "$NAME" ] || die "refresh: NAME=$NAME, but no file of the kernel's own was edited in build/linux"
else
	[ -n "$NAME" ] && [ -n "$MSG" ] ||
		die "refresh: build/linux has edits of the kernel's files (${patched[*]}): make refresh NAME=NAME MSG=FILE makes them patches/NNNN-NAME.patch, FILE its commit message"
	[[ "$NAME" =~ ^[a-z0-9][a-z0-9-]*$ ]] ||
		die "refresh: NAME=$NAME: a patch name is lowercase letters, digits and '-'"
	ls "$TOP"/patches/[0-9][0-9][0-9][0-9]-"$NAME".patch > /dev/null 2>&1 &&
		die "refresh: patches/ has a patch named $NAME already"
	[ -f "$MSG" ] || die "refresh: MSG=$MSG: no such file (the commit message: a subject line, a blank line, the body)"
	subject=$(sed -n 1p "$MSG")
	[ -n "$subject" ] && [ -z "$(sed -n 2p "$MSG")" ] && [ -n "$(sed -n '3,$p' "$MSG" | tr -d '[:space:]')" ] ||
		die "refresh: $MSG: a commit message is a subject line, a blank line, then the body"
	grep -qxF "patch: $subject" "$TOP/harness/series.def" &&
		die "refresh: harness/series.def has a patch \"$subject\" already"
	ident=$(git -C "$TOP" var GIT_AUTHOR_IDENT 2> /dev/null | sed 's/ [0-9]* [-+][0-9]*$//' || true)
	[ -n "$ident" ] ||
		die "refresh: no git identity for the patch's From: and Signed-off-by: (git config user.name and user.email)"
	last=$(ls "$TOP"/patches | sed -n 's/^\([0-9]\{4\}\)-.*\.patch$/\1/p' | sort -n | tail -n 1)
	pname=$(printf '%04d' $((10#${last:-0} + 1)))-$NAME.patch
fi

# 3. Write: the overlay files, the patch, patches/series, series.def.
for f in "${overlay[@]}"; do
	if [ -e "$TOP/$f" ]; then save "$f"; else created+=("$f"); mkdir -p "$TOP/$(dirname "$f")"; fi
	cp "$KSRC/$f" "$TOP/$f"
	say "refresh: $f: back to the repository"
done
if [ ${#patched[@]} != 0 ]; then
	created+=("patches/$pname")
	{
		echo "From: $ident"
		echo "Subject: [PATCH] $subject"
		echo
		sed -n '3,$p' "$MSG"
		echo
		echo "Signed-off-by: $ident"
		echo "---"
		for f in "${patched[@]}"; do
			a=a/$f ref=$tmp/ref/$f rc=0
			[ -e "$ref" ] || a=/dev/null ref=/dev/null
			diff -u --label "$a" --label "b/$f" "$ref" "$KSRC/$f" || rc=$?
			[ $rc = 1 ] || die "refresh: diff failed on $f"
		done
	} > "$TOP/patches/$pname"
	save patches/series
	echo "$pname" >> "$TOP/patches/series"
	save harness/series.def
	{
		printf 'patch: %s\n' "$subject"
		printf 'hunks: %s\n' "$pname"
		echo "body:"
		sed -n '3,$p' "$MSG"
		echo
	} > "$tmp/block"
	python3 - "$TOP/harness/series.def" "$tmp/block" <<-'PY'
	import sys
	path, block = sys.argv[1], open(sys.argv[2]).read()
	lines = open(path).read().split('\n')
	at = [i for i, ln in enumerate(lines) if ln.startswith('patch: MAINTAINERS')]
	at = at[-1] if at else len(lines)
	open(path, 'w').write('\n'.join(lines[:at]) + ('\n' if at else '') + block +
	                      '\n'.join(lines[at:]))
	PY
	say "refresh: patches/$pname: ${patched[*]}; patches/series, harness/series.def"
fi

# 4. Graft, check that the tree is still the edited one, build, catalog.
touch "$tmp/grafted"
"$TOP/harness/graft.sh"
while read -r f; do
	cmp -s "$tmp/edits/$f" "$KSRC/$f" ||
		die "refresh: the graft does not give $f as it was edited (a patch of patches/ after it changes it?)"
done < <(cd "$tmp/edits" && find . -type f | sed 's|^\./||')
"$TOP/harness/build.sh"
save scripts/markers/catalog.ref
"$TOP/harness/catalog.sh" > "$TOP/scripts/markers/catalog.ref"
done_ok=1
n=$(diff "$tmp/repo/scripts/markers/catalog.ref" "$TOP/scripts/markers/catalog.ref" | grep -c '^[<>]' || true)
say "refresh: scripts/markers/catalog.ref: $n lines changed"
