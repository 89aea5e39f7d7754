#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install, with apt-get, only the packages that are missing. Silent when
# nothing is missing (so `make -s kdir` prints only the directory).
set -euo pipefail
pkgs="linux-source-6.12 busybox-static sparse libelf-dev
      ccache bc flex bison cpio libssl-dev python3 gcc make perl patch
      rsync xz-utils kmod git binutils clang libclang-rt-14-dev lld llvm elfutils
      gdb trace-cmd python3-ply clang-19 lld-19 llvm-19 libclang-rt-19-dev
      dwarves linux-perf bpftrace"
# ARCH=arm64: the cross compiler with the C library the static guest
# tools link (only recommended by the compiler's package, so not
# installed with it here), QEMU's aarch64 system emulator (below), and Debian's
# arm64 busybox-static, unpacked below (its package would replace the
# host's).
[ "${ARCH:-}" != arm64 ] ||
	pkgs="$pkgs gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
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
# QEMU 10.0 from Debian's bookworm-backports, for both arches (the QEMU
# packages share qemu-system-common, one version for all): taken when
# make check ARCH=arm64 ran its guests under multi-threaded TCG, which
# ran stale translated code under 7.2 (and, found later, under 10.0: see
# harness/run.sh); kept, as every timing of make check was taken with it.
# Only the QEMU packages are pinned to backports, and the PC BIOS that
# QEMU 10.0's x86 emulator needs (seabios 1.16.3).
qemu_pkgs="qemu-system-x86 qemu-system-common qemu-system-data"
[ "${ARCH:-}" != arm64 ] || qemu_pkgs="$qemu_pkgs qemu-system-arm"
backports() {
	local src=/etc/apt/sources.list.d/markers-bookworm-backports.sources
	local pin=/etc/apt/preferences.d/markers-qemu-backports
	[ -f "$src" ] && [ -f "$pin" ] && return 0
	cat > "$src" <<-EOT
	Types: deb
	URIs: http://deb.debian.org/debian
	Suites: bookworm-backports
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOT
	cat > "$pin" <<-EOT
	Package: qemu-* seabios
	Pin: release n=bookworm-backports
	Pin-Priority: 990
	EOT
	apt-get update -q >&2
}
missing=
for p in $pkgs; do
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case "$st" in ii*) ;; *) missing="$missing $p" ;; esac
done
for p in $qemu_pkgs; do
	v=$(dpkg-query -W -f='${db:Status-Abbrev} ${Version}' "$p" 2>/dev/null || true)
	case "$v" in "ii  1:10."*) ;; *) missing="$missing $p" ;; esac
done
[ -n "$missing" ] || { arm64_busybox; exit 0; }
echo "deps: installing:$missing" >&2
if [ "$(id -u)" != 0 ]; then
	echo "deps: need root to install packages" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
backports
apt-get update -q >&2
apt-get install -y -q --no-install-recommends $missing >&2
arm64_busybox
