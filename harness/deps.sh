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
missing=
for p in $pkgs; do
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case "$st" in ii*) ;; *) missing="$missing $p" ;; esac
done
[ -n "$missing" ] || exit 0
echo "deps: installing:$missing" >&2
if [ "$(id -u)" != 0 ]; then
	echo "deps: need root to install packages" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends $missing >&2
