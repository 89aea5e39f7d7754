#!/bin/bash
# sparse (C=2) and W=1 on the kernel objects our sources give in this
# ARCH's build (harness/lint.sh --objects): make check ARCH=arm64 runs it
# for the arm64-only files (arch/arm64/kernel/marker.c, sdt.c,
# sdt_thunk.c). make check's host/lint covers x86_64's, with checkpatch
# and kernel-doc, which do not depend on the arch.
# gcc-only: sparse and W=1 are the GCC build's (host/lint)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
[ "$KARCH" = arm64 ] || { echo "make check ARCH=arm64 runs it; host/lint covers x86_64"; exit 1; }
"$TOP/harness/lint.sh" --objects
