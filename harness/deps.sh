#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install, with apt-get, only the packages that are missing. Silent when
# nothing is missing (so `make -s kdir` prints only the directory).
set -euo pipefail
pkgs="linux-source-6.12 qemu-system-x86 busybox-static sparse libelf-dev
      ccache bc flex bison cpio libssl-dev python3 gcc make perl patch
      rsync xz-utils kmod git binutils clang libclang-rt-14-dev lld llvm elfutils
      gdb trace-cmd python3-ply clang-19 lld-19 llvm-19 libclang-rt-19-dev
      dwarves linux-perf bpftrace"
# ARCH=arm64: the cross compiler with the C library the static guest
# tools link (only recommended by the compiler's package, so not
# installed with it here), QEMU's aarch64 system emulator, and Debian's
# arm64 busybox-static, unpacked below (its package would replace the
# host's).
[ "${ARCH:-}" != arm64 ] ||
	pkgs="$pkgs gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm"
arm64_busybox() {
	local top b d
	[ "${ARCH:-}" = arm64 ] || return 0
	top=$(cd "$(dirname "$0")/.." && pwd)
	b=${B:-$top/build}/arm64-root
	[ -x "$b/bin/busybox" ] && return 0
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		dpkg --add-architecture arm64
		apt-get update -q >&2
	fi
	d=$(mktemp -d)
	chmod 755 "$d"
	(cd "$d" && apt-get download -q busybox-static:arm64 >&2) &&
		mkdir -p "$b" && dpkg-deb -x "$d"/busybox-static_*_arm64.deb "$b"
	rm -rf "$d"
	[ -x "$b/bin/busybox" ] || { echo "deps: no arm64 busybox" >&2; return 1; }
}
missing=
for p in $pkgs; do
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case "$st" in ii*) ;; *) missing="$missing $p" ;; esac
done
[ -n "$missing" ] || { arm64_busybox; exit 0; }
echo "deps: installing:$missing" >&2
if [ "$(id -u)" != 0 ]; then
	echo "deps: need root to install packages" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends $missing >&2
arm64_busybox
