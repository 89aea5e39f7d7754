#!/bin/bash
# make kdir prints only the kbuild directory, and an out-of-tree probe
# module builds against it: make -C "$(make -s kdir)" M=$PWD modules.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

kdir=$(make -s -C "$TOP" kdir)
[ "$kdir" = "$KOBJ" ] || { echo "make -s kdir printed '$kdir'"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/oot.c" <<'C'
// SPDX-License-Identifier: GPL-2.0
#include <linux/marker.h>
#include <linux/module.h>

static void oot_probe(void *data, const char *fmt, va_list *args)
{
}

static int __init oot_init(void)
{
	return marker_set_probe("subsys_open", "pid %d comm %s", oot_probe, NULL);
}

static void __exit oot_exit(void)
{
	marker_disable_probe("subsys_open", oot_probe, NULL);
}

module_init(oot_init);
module_exit(oot_exit);
MODULE_LICENSE("GPL");
C
echo 'obj-m := oot.o' > "$tmp/Makefile"
make -C "$kdir" M="$tmp" CC="ccache gcc" modules > "$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
[ -f "$tmp/oot.ko" ] || { echo "no oot.ko"; exit 1; }
echo "built $(basename "$tmp")/oot.ko against $kdir"
