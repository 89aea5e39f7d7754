#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The marker catalog of the build (markers-list --catalog), on stdout:
# vmlinux and the modules of modules.order (stale .ko files of deleted
# modules linger in the build directory). scripts/markers/catalog.ref is
# this of the GCC test kernel (make refresh writes it; the host test
# markers-tools compares it with the build's).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ML=$KOBJ/scripts/markers/markers-list
[ -x "$ML" ] || die "no $ML: kbuild builds it with CONFIG_MARKERS (scripts/markers/Makefile); run make build"
[ -f "$KOBJ/modules.order" ] || die "no $KOBJ/modules.order: run make build"
objs=("$KOBJ/vmlinux")
while read -r o; do
	[ -f "$KOBJ/${o%.o}.ko" ] || die "modules.order names $o, but there is no $KOBJ/${o%.o}.ko"
	objs+=("$KOBJ/${o%.o}.ko")
done < <(LC_ALL=C sort "$KOBJ/modules.order")
"$ML" --catalog "${objs[@]}" || die "markers-list --catalog failed"
