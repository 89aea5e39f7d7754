# SPDX-License-Identifier: GPL-2.0
# Shared settings for the harness scripts. Sourced, not run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=${B:-$TOP/build}
KSRC=$B/linux		# grafted kernel source tree
PRISTINE=$B/pristine	# hard-linked copy of the unpacked tarball
LOGS=$B/logs
CONFIGS=$TOP/kernel/configs

# Two kernels from the one grafted tree, each in its own build directory:
# FLAVOUR=test (make check, make demo: BASE_FRAGMENTS + markers-test.config
# + markers-debug.config, the debugging kernel) and FLAVOUR=bench (make
# bench: markers.config alone, production-like).
# ARCH=arm64 (make build ARCH=arm64, make check ARCH=arm64...): the same
# kernels for arm64, cross-built with Debian's gcc-aarch64-linux-gnu in
# build directories and logs of their own, booted on QEMU's virt machine.
KARCH=${ARCH:-x86_64}
case $KARCH in
x86_64|x86) KARCH=x86_64 ;;
arm64)	;;
*)	echo "unknown ARCH=$KARCH (x86_64 or arm64)" >&2; exit 1 ;;
esac
FLAVOUR=${FLAVOUR:-test}
BASE_FRAGMENTS="$CONFIGS/markers.config $CONFIGS/markers-$KARCH.config"
case $FLAVOUR in
test)	SFX=
	FRAGMENTS="$BASE_FRAGMENTS $CONFIGS/markers-test.config"
	# The checkers: on the GCC x86_64 test kernel (see
	# markers-debug.config for why not on the clang and arm64 ones);
	# MARKERS_DEBUG=1 adds them to those too, in build directories and
	# logs of their own (-debug): make check ARCH=arm64 MARKERS_DEBUG=1.
	if [ -z "${LLVM:-}" ] && [ "$KARCH" != arm64 ]; then
		FRAGMENTS="$FRAGMENTS $CONFIGS/markers-debug.config"
	elif [ -n "${MARKERS_DEBUG:-}" ]; then
		SFX=-debug
		LOGS=$B/logs-debug
		FRAGMENTS="$FRAGMENTS $CONFIGS/markers-debug.config"
	fi
	# arm64's without DWARF and BTF, which its tests do not read (see
	# markers-nobtf.config).
	if [ "$KARCH" = arm64 ]; then
		FRAGMENTS="$FRAGMENTS $CONFIGS/markers-nobtf.config"
	fi ;;
bench)	SFX=-bench
	FRAGMENTS="$BASE_FRAGMENTS" ;;
# FLAVOUR=kcsan: the test kernel with KCSAN instead of the checkers of
# markers-debug.config (make kcsan).
kcsan)	SFX=-kcsan
	FRAGMENTS="$BASE_FRAGMENTS $CONFIGS/markers-test.config $CONFIGS/markers-kcsan.config" ;;
# FLAVOUR=up: a uniprocessor kernel on tinyconfig and markers-up.config
# alone (x86_64), with the KUnit suites; make check boots it
# (host/up-kernel).
up)	SFX=-up
	FRAGMENTS="$CONFIGS/markers-up.config" ;;
*)	echo "unknown FLAVOUR=$FLAVOUR" >&2; exit 1 ;;
esac
# LLVM=1 (make build LLVM=1, make check LLVM=1...): the same flavour built
# with Debian's clang 19 and its LLVM binutils (first in PATH, for kbuild
# and the host tests alike), in build directories and logs of its own, so
# the GCC kernel stays as it is; with kCFI (markers-llvm.config), and with
# __counted_by enforced by UBSAN bounds (6.12 turns it on for clang
# 19.1.3 and later). Its test kernel goes without the checkers of
# markers-debug.config, which the GCC one has: see that file.
KCC=(CC="$TOP/harness/kbuild-cc gcc")
if [ -n "${LLVM:-}" ]; then
	SFX=$SFX-llvm
	LOGS=$LOGS-llvm
	export PATH=/usr/lib/llvm-19/bin:$PATH
	KCC=(LLVM=1 CC="$TOP/harness/kbuild-cc clang")
	FRAGMENTS="$FRAGMENTS $CONFIGS/markers-llvm.config"
fi
KCROSS=()
KIMAGE=arch/x86/boot/bzImage
if [ "$KARCH" = arm64 ]; then
	SFX=$SFX-arm64
	LOGS=$LOGS-arm64
	if [ -z "${LLVM:-}" ]; then
		KCROSS=(CROSS_COMPILE=aarch64-linux-gnu-)
		KCC=(CC="$TOP/harness/kbuild-cc aarch64-linux-gnu-gcc")
	fi
	KIMAGE=arch/arm64/boot/Image
fi
# KOBJ_DIR, MODROOT_DIR: another build's kernel and modules, for run.sh
# (make series-build boots the kernel of each patch).
KOBJ=${KOBJ_DIR:-$B/obj$SFX}		# kbuild output directory (O=)
MODROOT=${MODROOT_DIR:-$B/modroot$SFX}	# modules_install root
GUEST=${GUEST_DIR:-$B/guest$SFX}	# initramfs images (GUEST_DIR: a run of its own)
TARBALL=${TARBALL:-$(ls -1 /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1)}
NPROC=$(nproc)
# Overlay: what gets copied on top of the kernel tree.
OVERLAY_DIRS="include kernel arch samples scripts Documentation lib tools"
OVERLAY_FILES="Kconfig.marker"

export CCACHE_BASEDIR=$B
# ccache's depend mode: a miss runs the compiler once and takes the
# headers from its -MMD output, where the default mode runs the
# preprocessor first. Compiling kernel/ of the arm64 test kernel from an
# empty cache (2026-12-07, two runs each): 84 and 99 s without ccache,
# 125 and 131 s with it, 88 and 89 s in depend mode; a full rebuild in
# .ci/run is mostly misses. Depend mode does not see what a source
# .incbin's: harness/kbuild-cc compiles such a source without ccache.
export CCACHE_DEPEND=1
KMAKE=(make -C "$KSRC" O="$KOBJ" ARCH=$KARCH "${KCROSS[@]}" "${KCC[@]}" HOSTCC="$TOP/harness/kbuild-cc gcc" -j"$NPROC")

say() { printf '%s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# What a kernel splat looks like on the console: Oops, BUG, WARNING,
# lockdep, an RCU stall, KASAN, UBSAN, a kmemleak report, debugobjects.
SPLAT='Oops|BUG:|WARNING:|kernel BUG at|general protection fault|Kernel panic|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|detected stalls? on CPU|self-detected stall|rcu: INFO:|KASAN:|UBSAN:|unreferenced object 0x|ODEBUG:|kmemleak: .*(error|failed|disabled)'

# console_scan LOG: whether the console log of a boot (harness/run.sh)
# shows a clean, complete run, whatever ended the boot. Says on stdout
# what is wrong and returns 1 when
#  - the log is missing or empty;
#  - a line shows a kernel splat (all such lines in LOG.splats);
#  - the end line "<<< MARKERS-GUEST-END status=N >>>" is missing: the
#    guest panicked, hung or was killed before the end of its job, and
#    what its kernel would have said after the last line is unknown;
#  - the kernel log dump that the guest's init prints before the end line
#    is missing, or does not begin with the kernel's first line ("Linux
#    version"): the log buffer wrapped and lost messages before the dump,
#    so the scan cannot vouch for them. The guest boots with a log buffer
#    (log_buf_len in run.sh) far larger than a run logs, so that the dump
#    holds the whole boot, warnings and all, whatever the console's
#    loglevel let through.
console_scan() {
	local log=$1 bad=0 head
	if [ ! -s "$log" ]; then
		echo "no console log: $log"
		return 1
	fi
	if grep -aEn "$SPLAT" "$log" | grep -av 'MARKERS-TEST' > "$log.splats"; then
		echo "kernel splat in the console log ($log):"
		head -n 20 "$log.splats"
		bad=1
	else
		rm -f "$log.splats"
	fi
	if ! grep -aq '<<< MARKERS-GUEST-END status=[0-9]* >>>' "$log"; then
		echo "no end line in $log: the guest did not finish its job; its last lines:"
		grep -av '^$' "$log" | tail -n 10
		bad=1
	fi
	# The first lines of the dump (a console line may come in between).
	# Read from a here-string: "printf | grep -q" fails now and then
	# under the callers' pipefail (make check LLVM=1 judged a
	# clean dump "wrapped" once, 2026-12-05, and passed it on a rescan).
	head=$(sed -n '/<<< DMESG BEGIN >>>/,/<<< DMESG END >>>/p' "$log" | sed -n '2,4p')
	if ! grep -aq '<<< DMESG END >>>' "$log"; then
		echo "no complete kernel log dump in $log"
		bad=1
	elif ! grep -a 'Linux version ' <<< "$head" > /dev/null; then
		echo "the kernel log wrapped before its dump in $log (messages lost): it begins with"
		printf '%s\n' "$head" | head -n 1
		bad=1
	fi
	return $bad
}

# The programs the guest tests run (harness/tools/*.c), built static on the
# host into $B/tools, and the kernel's ftrace selftests; their paths in
# GUEST_TOOLS. Each is rebuilt when what
# makes it changes, by content: its source, the compiler and its flags, and
# the static C library linked into it (an upgraded libc.a is seen, a touched
# source with the same bytes is not rebuilt).
GUEST_TOOLS=
GUEST_TOOLS_CFLAGS="-static -O2 -Wall -Wextra -Werror"
# On arm64 they are cross-built, into $B/tools-arm64.
# walkthrough_modules NAME: build the modules of the host walk-through
# NAME of Documentation/trace/markers.rst (harness/walkthrough.py) as
# host/walkthroughs does, with KDIR set to the test kernel's build
# directory, and print their paths: for its guest part, NAME-guest. Always
# in $B/walkthroughs/NAME (a second build there in 2 s, to the same bytes,
# so that the tools boot's cached result holds); what it printed in
# $LOGS/walkthrough-NAME-build.log.
walkthrough_modules() {
	local d=$B/walkthroughs/$1 s=$B/walkthroughs/walkthrough-$1-host.sh
	local log=$LOGS/walkthrough-$1-build.log
	(cd "$TOP" && python3 harness/walkthrough.py Documentation/trace/markers.rst "$1") > "$s" &&
		mkdir -p "$d" && (cd "$d" && KDIR=$KOBJ bash "$s") > "$log" 2>&1 ||
		{ echo "walk-through $1: its build failed ($log)" >&2; return 1; }
	find "$d" -name '*.ko' | sort | grep . ||
		{ echo "walk-through $1: built no module" >&2; return 1; }
}
guest_tools() {
	local c t key cc=gcc dir=$B/tools
	[ "$KARCH" != arm64 ] || { cc=aarch64-linux-gnu-gcc; dir=$B/tools-arm64; }
	mkdir -p "$dir"
	for c in "$TOP"/harness/tools/*.c; do
		t=$dir/$(basename "$c" .c)
		key=$({ sha256sum < "$c"; echo "$GUEST_TOOLS_CFLAGS"; $cc --version
			sha256sum < "$($cc -print-prog-name=cc1)"
			sha256sum < "$($cc -print-file-name=libc.a)"; } | sha256sum | cut -d' ' -f1)
		if [ ! -x "$t" ] || [ "$(cat "$t.key" 2>/dev/null)" != "$key" ]; then
			rm -f "$t.key"
			# shellcheck disable=SC2086
			$cc $GUEST_TOOLS_CFLAGS -o "$t" "$c" || return 1
			echo "$key" > "$t.key"
		fi
		GUEST_TOOLS="$GUEST_TOOLS $t"
	done
	# The kernel's own ftrace selftests (ftracetest), from the tree the
	# kernel is built from, for guest/tests/52-dynamic-events.sh: a tar
	# made the same from the same files (names sorted, times and owners
	# fixed), so that the guest's cache key follows their content.
	t=$dir/ftrace-selftests.tar
	tar -C "$KSRC/tools/testing/selftests" --sort=name --mtime=@0 \
		--owner=0 --group=0 --numeric-owner -cf "$t.tmp" ftrace &&
		mv "$t.tmp" "$t" || return 1
	GUEST_TOOLS="$GUEST_TOOLS $t"
	# Where the registry's text lies in this kernel, for
	# guest/tests/53-fault-nth.sh.
	t=$KOBJ/markers-text
	markers_text > "$t.tmp" && mv "$t.tmp" "$t" || return 1
	GUEST_TOOLS="$GUEST_TOOLS $t"
}

# markers_text: where the text of kernel/markers/ lies in the built
# vmlinux, as "START END", offsets in bytes from _stext (KASLR moves the
# image as a whole): the longest run of text symbols in System.map that
# are all kernel/markers/'s (their objects are linked in one piece), to
# the symbol after it. Names that System.map has more than once (KASAN's
# constructors, static functions of the same name) neither make nor break
# a run.
markers_text() {
	nm --defined-only "$KOBJ/kernel/markers/built-in.a" |
		python3 -c '
import sys
ours = {l.split()[2] for l in sys.stdin if len(l.split()) == 3 and l.split()[1] in "tT"}
syms = [l.split()[:3] for l in open(sys.argv[1])]
seen = {}
for a, t, name in syms:
    seen[name] = seen.get(name, 0) + 1
base, best, run, start = None, (0, 0, 0), 0, 0
for a, t, name in syms:
    a = int(a, 16)
    if name == "_stext":
        base = a
    if t not in "tTwW" or seen[name] > 1:
        continue
    if name in ours or name.startswith("__pfx_") and name[6:] in ours:
        if not run:
            start = a
        run += 1
    elif run:
        best = max(best, (run, start, a))
        run = 0
if base is None or not best[0]:
    sys.exit("no text of kernel/markers/ in " + sys.argv[1])
print(best[1] - base, best[2] - base, best[0])
' "$KOBJ/System.map"
}

# series_identity: the runner's git identity signs the series off (make
# patches); a machine without one (CI) gets a stand-in, said on stdout,
# for the calling test's output only.
series_identity() {
	git -C "$TOP" -c user.useConfigOnly=true var GIT_AUTHOR_IDENT > /dev/null 2>&1 && return
	export GIT_AUTHOR_NAME="Series Test" GIT_AUTHOR_EMAIL="series-test@localhost"
	echo "no git identity here: this test signs off as $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>"
}

# late_warnings LOG: the functions and modules of ours that objtool's
# warnings on vmlinux.o and modpost's section mismatches in the build log
# LOG name (they name a function or a module, not a source file). Our
# functions: those the objects of our C and assembly files define.
late_warnings() {
	local late ours
	late=$(grep -E 'vmlinux\.o: warning: objtool:|modpost: .*section mismatch' "$1") || return 0
	ours=$( {
		sed -n 's/\.[cS]$//p' "$B/grafted.list"
		sed -n 's/\.[cS]$/.o/p' "$B/grafted.list" | while read -r o; do
			[ ! -f "$KOBJ/$o" ] || nm --defined-only "$KOBJ/$o"
		done | awk 'NF == 3 { print $3 }'
	} | sort -u)
	{
		echo "$late" | grep -oE '[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+|-> [A-Za-z_][A-Za-z0-9_.]*' |
			sed 's/+0x.*//; s/^-> //'
		echo "$late" | sed -n 's|.*modpost: \([^:]*\): .*|\1|p'
	} | sort -u | comm -12 - <(echo "$ours")
}
