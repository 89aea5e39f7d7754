#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: the kernels its host tests build besides the test kernel,
# built at the lowest priority while the test kernel builds (the Makefile
# runs this beside harness/build.sh). Today the uniprocessor kernel of
# host/up-kernel (x86_64, GCC): its compiles take the core that the test
# kernel's build leaves idle while it links (vmlinux.o, objtool, BTF,
# kallsyms: one core each), and the host test later finds it built
# (build.sh locks a build directory, so that two builds of it never run
# at once). A failure here is the host test's to report: it builds again
# and says why.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

[ -z "${LLVM:-}" ] && [ "$KARCH" = x86_64 ] || exit 0
mkdir -p "$LOGS"
FLAVOUR=up nice -n 19 "$TOP/harness/build.sh" > "$LOGS/build-beside-up.log" 2>&1
exit 0
