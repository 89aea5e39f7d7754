#!/bin/bash
# The patch series (make patches): it is generated from harness/series.def,
# applies with git am onto a git tree of pristine 6.12, gives exactly the
# grafted tree (but for the files series.def excludes, with their reasons),
# and every patch passes checkpatch --strict but for the exceptions
# series.def gives per patch, each with its reason.
# gcc-only: the patches, git am and checkpatch do not depend on the compiler
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

# Without a git identity, make patches stops and says how to set one.
if GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0= \
	GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1= \
	env -u GIT_AUTHOR_NAME -u GIT_AUTHOR_EMAIL \
	python3 "$TOP/harness/series.py" generate > "$LOGS/series-noident.txt" 2>&1; then
	echo "make patches signed the series off without a git identity"; exit 1
fi
grep -q "no git identity to sign the patches off with" "$LOGS/series-noident.txt" ||
	{ cat "$LOGS/series-noident.txt"; echo "make patches failed without saying why"; exit 1; }
echo "make patches without a git identity: refused, as it should be"
series_identity
# The guide "The series on your own tree" (harness/README.md) word for
# word, in its two steps: make patches (walk-through series-patches),
# then, on a git tree of the source at its 6.12 commit (a branch of the
# one make patches works in: series.py check leaves it on its own
# branch, and resets it the next time), git am (series-am).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# walk STEP: the walk-through STEP, its output in build/logs.
walk() {
	local log=$LOGS/walkthrough-$1.log
	python3 "$TOP/harness/walkthrough.py" "$TOP/harness/README.md" "$1" > "$tmp/$1.sh"
	if ! (cd "$tmp" && MARKERS=$TOP LINUX=$B/series/tree TMPDIR=$tmp bash "$1.sh") > "$log" 2>&1; then
		cat "$log"
		echo "the walk-through $1 of harness/README.md failed"
		exit 1
	fi
	tail -n 1 "$log"
}
walk series-patches
n=$(grep -c '/0[0-9][0-9][0-9]-' "$LOGS/walkthrough-series-patches.log")
echo "make patches: $n files in build/patches (cover letter included)"
python3 "$TOP/harness/series.py" check
# The tree is written under series.py's lock, which host/add-site holds
# while it reads the tree from its view.
exec 7> "$B/series/.lock"
flock 7
git -C "$B/series/tree" checkout -q -f -B guide v6.12-base
walk series-am
flock -u 7
exec 7>&-

# No patch (nor the cover letter) names the repository's harness: its
# paths (harness/, build/, .ci/), its targets (make check, bench,
# series-build, patches), or the emulator the tests run on (QEMU, TCG,
# SeaBIOS, -icount). markers.rst documents the kernel; the repository's
# README documents the repository.
leaks=$(grep -nE '(^|[^[:alnum:]_/.-])(harness|build)/|make (check|bench|series-build|patches|kcsan|stress)|[Qq][Ee][Mm][Uu]|\.ci/|(^|[^[:alnum:]])CI([^[:alnum:]]|$)|SeaBIOS|-icount|(^|[^[:alnum:]])TCG([^[:alnum:]]|$)' \
	"$B"/patches/*.patch || true)
if [ -n "$leaks" ]; then
	echo "the series names the repository's harness:"
	echo "$leaks" | sed "s|^$B/patches/||" | cut -c1-200
	exit 1
fi
echo "no harness reference in $(ls "$B"/patches/*.patch | wc -l) files of the series"
# The maintainer the series adds is whoever signs it off.
ident=$(git -C "$TOP" var GIT_AUTHOR_IDENT | sed 's/ [0-9]* [+-][0-9]*$//')
grep -qxF "+M:	$ident" "$B"/patches/*-MAINTAINERS-Add-kernel-markers.patch ||
	{ echo "MAINTAINERS does not name $ident, who signs the series off"; exit 1; }
echo "MAINTAINERS: $ident, as the Signed-off-by"
# The cover letter: an RFC of the version asked for, Cc'd to the
# maintainers get_maintainer.pl names, with the base commit when given.
cover=$B/patches/0000-cover-letter.patch
grep -q '^Subject: \[RFC PATCH 00/' "$cover" || { echo "no RFC prefix: $(grep -m1 ^Subject "$cover")"; exit 1; }
grep -q '^    linux-trace-kernel@vger.kernel.org,\?$' "$cover" ||
	{ echo "the cover letter is not Cc'd to the tracing list"; exit 1; }
# A variant in a directory of its own (build/patches is make patches',
# which series-objects copies while this runs).
(cd "$TOP" && PATCHES_OUT=$tmp/variant NO_CC=1 RFC=0 VERSION=3 \
	BASE_COMMIT=0123456789abcdef0123456789abcdef01234567 python3 harness/series.py generate > /dev/null)
cover=$tmp/variant/0000-cover-letter.patch
grep -q '^Subject: \[PATCH v3 00/' "$cover" && grep -qx 'base-commit: 0123456789abcdef0123456789abcdef01234567' "$cover" ||
	{ echo "RFC=0 VERSION=3 BASE_COMMIT=: $(grep -m1 ^Subject "$cover"), $(grep base-commit "$cover")"; exit 1; }
echo "cover letter: RFC, version, base-commit and Cc as asked"
