#!/bin/bash
# make kdir prints only the kbuild directory, and an out-of-tree probe
# module builds against it from its own directory, with README.md's
# command: make -C "$(make -s -C /path/to/this/repository kdir)" M=$PWD
# modules.
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
(cd "$tmp" && make -C "$(make -s -C "$TOP" kdir)" M="$PWD" "${KCC[@]}" modules) \
	> "$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
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

/* noinline: a call cannot hide in its caller, the symbol shows it. */
static noinline int side_effect(void)
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
# The control: the same function, called. Its symbol must be there, or the
# check below could not see an argument evaluated.
cat > "$tmp/ctl.c" <<'C'
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>

static int evaluated;

static noinline int side_effect(void)
{
	return ++evaluated;
}

static int __init ctl_init(void)
{
	return side_effect() - 1;
}

module_init(ctl_init);
MODULE_LICENSE("GPL");
C
echo 'obj-m := off.o ctl.o' > "$tmp/Makefile"
# clang before 16 builds the kernel with -Wno-format unless W=1.
make -C "$kdir" M="$tmp" "${KCC[@]}" ${LLVM:+W=1} modules > "$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
grep -Eq "off.c:.*format (.%d. expects argument of type .int.|specifies type 'int' but the argument has type 'char \*')" "$tmp/log" ||
	{ echo "CONFIG_MARKERS=n: MARK() did not type-check its arguments"; cat "$tmp/log"; exit 1; }
# evaluated OBJ: OBJ calls side_effect() (noinline: then its symbol is
# there; GCC drops a static function nothing calls).
evaluated() { nm "$1" | grep -qw side_effect; }
evaluated "$tmp/ctl.o" ||
	{ echo "the check is blind: no side_effect in ctl.o, which calls it"; nm "$tmp/ctl.o"; exit 1; }
if evaluated "$tmp/off.o"; then
	echo "CONFIG_MARKERS=n: an argument was evaluated (side_effect in off.o):"
	nm "$tmp/off.o" | grep -w side_effect
	exit 1
fi
for s in __markers .note.stapsdt; do
	readelf -S "$tmp/off.o" | grep -q " $s" && { echo "CONFIG_MARKERS=n: $s emitted"; exit 1; }
done
echo "CONFIG_MARKERS=n: no site, no record, arguments type-checked and not evaluated"
