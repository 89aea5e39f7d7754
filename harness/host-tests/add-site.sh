#!/bin/bash
# The walk-through "add-site" of harness/README.md, word for word: a
# MARK() and an SDT site added to fs/exec.c in build/linux, made a patch
# of patches/ by make refresh, seen in the catalog and in make patches.
# It runs in a copy-on-write view of the repository (an overlayfs over
# it, in a mount namespace of its own), so that the guide's commands
# graft, build and write patches/, harness/series.def and the catalog as
# they would here, starting from make check's build, and nothing they
# write is seen outside. Then, in the same view: the new patch passes
# checkpatch --strict as make lint runs it; and what make refresh and
# make graft must refuse: an edit of a patched file that the graft would
# undo, a bad NAME, a patch that does not build; each changes nothing in
# the repository, and build/linux keeps the edit.
# What the guide's commands printed: build/logs/walkthrough-add-site.log.
# gcc-only: the guide's commands build the GCC test kernel, whose catalog is the reference
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ "$KARCH" = x86_64 ] || { echo "x86_64 only: scripts/markers/catalog.ref is the x86_64 kernel's"; exit 77; }
[ -f "$KOBJ/vmlinux" ] || { echo "no $KOBJ/vmlinux: run make build"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$TOP/harness/walkthrough.py" "$TOP/harness/README.md" add-site > "$tmp/add-site.sh"
mkdir "$tmp/upper" "$tmp/work" "$tmp/wt"

# In the view: the walk-through in a directory of its own (its output
# to $tmp/wt.log: build/logs is in the view), then the refusals.
cat > "$tmp/inside.sh" <<'EOF'
set -uo pipefail
top=$1 tmp=$2 log=$3
mount -t overlay overlay -o "lowerdir=$top,upperdir=$tmp/upper,workdir=$tmp/work" "$top" ||
	{ echo "cannot mount an overlayfs over $top (root and overlayfs are needed)"; exit 1; }
if ! (cd "$tmp/wt" && MARKERS=$top bash "$tmp/add-site.sh") > "$log" 2>&1; then
	grep 'WALK-FAIL' "$log"; tail -n 20 "$log"; exit 1
fi
echo "$(tail -n 1 "$log")"
cd "$top"
rc=0
# The new patch is one make lint passes: checkpatch --strict, as lint.sh.
p=$(ls patches/*-exec-done.patch)
if out=$(cd build/linux && perl scripts/checkpatch.pl --strict --no-tree --quiet --show-types \
		--terse --typedefsfile "$top/harness/checkpatch.typedefs" "$top/$p" 2>&1); then
	echo "checkpatch --strict: $p clean"
else
	echo "checkpatch --strict on $p:"; echo "$out"; rc=1
fi
state() { git status --porcelain; sha256sum patches/* harness/series.def scripts/markers/catalog.ref; }
state > "$tmp/state.0"
same() {
	state | diff -u "$tmp/state.0" - > "$tmp/state.diff" && return
	echo "$1 changed the repository:"; cat "$tmp/state.diff"; rc=1
}
printf 'module: refresh test\n\nA patch that does not build.\n' > "$tmp/bad.msg"
f=kernel/module/main.c
echo '#error refresh test' >> "build/linux/$f"
if out=$(make -s graft 2>&1) || ! grep -q "grafting would undo, in $f: make refresh" <<< "$out"; then
	echo "make graft over an edit of $f (patched by patches/) did not refuse it:"; echo "$out"; rc=1
else
	echo "make graft refuses to undo an edit of $f"
fi
same "make graft's refusal"
if out=$(make -s refresh NAME=Bad MSG="$tmp/bad.msg" 2>&1) || ! grep -q 'a patch name is' <<< "$out"; then
	echo "make refresh NAME=Bad did not refuse it:"; echo "$out"; rc=1
else
	echo "make refresh refuses NAME=Bad"
fi
same "make refresh NAME=Bad"
if out=$(make -s refresh NAME=bad-build MSG="$tmp/bad.msg" 2>&1) ||
   ! grep -q 'kernel build failed' <<< "$out" || ! grep -q 'refresh: nothing changed' <<< "$out"; then
	echo "make refresh of an edit that does not build did not fail as it should:"; echo "$out"; rc=1
else
	echo "make refresh of an edit that does not build fails"
fi
same "make refresh of an edit that does not build"
if [ "$(tail -n 1 "build/linux/$f")" = '#error refresh test' ]; then
	echo "build/linux/$f keeps its edit"
else
	echo "build/linux/$f lost its edit"; rc=1
fi
exit $rc
EOF
# The real tree is not grafted, nor its series tree (build/series/tree)
# written, while the view is up: overlayfs wants its lower tree still, and
# git in the view saw the index.lock of a git am of make check's series
# test. Both locks, graft's first: graft.sh takes only its own, and
# series.py and host/series take the series lock without grafting.
exec 8> "$B/graft.lock"
flock 8
mkdir -p "$B/series"
exec 7> "$B/series/.lock"
flock 7
rc=0
unshare -m --propagation private bash "$tmp/inside.sh" "$TOP" "$tmp" "$tmp/wt.log" || rc=$?
cp "$tmp/wt.log" "$LOGS/walkthrough-add-site.log" 2> /dev/null || true
exit $rc
