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
make -C "$kdir" M="$tmp" "${KCC[@]}" modules > "$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
[ -f "$tmp/oot.ko" ] || { echo "no oot.ko"; exit 1; }
echo "built $(basename "$tmp")/oot.ko against $kdir"

# With CONFIG_MARKERS=n the macros compile to nothing, yet MARK() still
# type-checks its arguments against the format (and evaluates none).
cat > "$tmp/off.c" <<'C'
// SPDX-License-Identifier: GPL-2.0
#undef CONFIG_MARKERS
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/sdt.h>

static int evaluated;

static int side_effect(void)
{
	return ++evaluated;
}

static int __init off_init(void)
{
	MARK(off_ok, "%d %s", side_effect(), "text");
	MARK(off_bad, "%d", "not an int");
	SDT_PROBE(off, site, side_effect(), 2);
	if (MARK_ENABLED(off_ok) || SDT_ENABLED(off, site))
		return -EINVAL;
	return evaluated;
}

module_init(off_init);
MODULE_LICENSE("GPL");
C
echo 'obj-m := off.o' > "$tmp/Makefile"
# clang before 16 builds the kernel with -Wno-format unless W=1.
make -C "$kdir" M="$tmp" "${KCC[@]}" ${LLVM:+W=1} modules > "$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
grep -Eq "off.c:.*format (.%d. expects argument of type .int.|specifies type 'int' but the argument has type 'char \*')" "$tmp/log" ||
	{ echo "CONFIG_MARKERS=n: MARK() did not type-check its arguments"; cat "$tmp/log"; exit 1; }
if objdump -d "$tmp/off.o" | grep -q 'side_effect'; then
	echo "CONFIG_MARKERS=n: an argument was evaluated"; exit 1
fi
for s in __markers .note.stapsdt; do
	readelf -S "$tmp/off.o" | grep -q " $s" && { echo "CONFIG_MARKERS=n: $s emitted"; exit 1; }
done
echo "CONFIG_MARKERS=n: no site, no record, arguments type-checked and not evaluated"
