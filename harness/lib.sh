# SPDX-License-Identifier: GPL-2.0
# Shared settings for the harness scripts. Sourced, not run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=${B:-$TOP/build}
KSRC=$B/linux		# grafted kernel source tree
PRISTINE=$B/pristine	# hard-linked copy of the unpacked tarball
KOBJ=$B/obj		# kbuild output directory (O=)
MODROOT=$B/modroot	# modules_install root
LOGS=$B/logs
TARBALL=${TARBALL:-$(ls -1 /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1)}
NPROC=$(nproc)
# Overlay: what gets copied on top of the kernel tree.
OVERLAY_DIRS="include kernel arch samples scripts Documentation lib"
OVERLAY_FILES="Kconfig.marker"
FRAGMENT=$TOP/kernel/configs/markers.config

export CCACHE_BASEDIR=$B
KMAKE=(make -C "$KSRC" O="$KOBJ" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$NPROC")

say() { printf '%s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
