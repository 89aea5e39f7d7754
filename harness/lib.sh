# SPDX-License-Identifier: GPL-2.0
# Shared settings for the harness scripts. Sourced, not run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=${B:-$TOP/build}
KSRC=$B/linux		# grafted kernel source tree
PRISTINE=$B/pristine	# hard-linked copy of the unpacked tarball
LOGS=$B/logs
CONFIGS=$TOP/kernel/configs

# Two kernels from the one grafted tree, each in its own build directory:
# FLAVOUR=test (make check, make demo: markers.config + markers-test.config,
# the debugging kernel) and FLAVOUR=bench (make bench: markers.config alone,
# production-like).
FLAVOUR=${FLAVOUR:-test}
case $FLAVOUR in
test)	SFX=
	FRAGMENTS="$CONFIGS/markers.config $CONFIGS/markers-test.config" ;;
bench)	SFX=-bench
	FRAGMENTS="$CONFIGS/markers.config" ;;
*)	echo "unknown FLAVOUR=$FLAVOUR" >&2; exit 1 ;;
esac
# LLVM=1 (make build LLVM=1, make check LLVM=1...): the same flavour built
# with clang and the LLVM binutils, in build directories and logs of its
# own, so the GCC kernel stays as it is.
KCC=(CC="ccache gcc")
if [ -n "${LLVM:-}" ]; then
	SFX=$SFX-llvm
	LOGS=$B/logs-llvm
	KCC=(LLVM=1 CC="ccache clang")
fi
KOBJ=$B/obj$SFX			# kbuild output directory (O=)
MODROOT=$B/modroot$SFX		# modules_install root
GUEST=$B/guest$SFX		# initramfs images
TARBALL=${TARBALL:-$(ls -1 /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1)}
NPROC=$(nproc)
# Overlay: what gets copied on top of the kernel tree.
OVERLAY_DIRS="include kernel arch samples scripts Documentation lib"
OVERLAY_FILES="Kconfig.marker"

export CCACHE_BASEDIR=$B
KMAKE=(make -C "$KSRC" O="$KOBJ" ARCH=x86_64 "${KCC[@]}" HOSTCC="ccache gcc" -j"$NPROC")

say() { printf '%s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The programs the guest tests run (harness/tools/*.c), built static on the
# host into $B/tools; their paths in GUEST_TOOLS.
GUEST_TOOLS=
guest_tools() {
	local c t
	mkdir -p "$B/tools"
	for c in "$TOP"/harness/tools/*.c; do
		t=$B/tools/$(basename "$c" .c)
		if [ ! -x "$t" ] || [ "$c" -nt "$t" ]; then
			gcc -static -O2 -Wall -Wextra -Werror -o "$t" "$c" || return 1
		fi
		GUEST_TOOLS="$GUEST_TOOLS $t"
	done
}
