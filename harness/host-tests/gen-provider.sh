#!/bin/bash
# gen-provider: errors name the line and column; the sample module is built
# from a generated header; a wrongly typed argument fails the compile.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

G=$TOP/scripts/markers/gen-provider
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
check_err() {	# INPUT EXPECTED-MESSAGE
	printf '%b' "$1" > "$tmp/p.provider"
	if out=$("$G" "$tmp/p.provider" 2>&1); then
		echo "accepted: $1"; rc=1
	elif ! echo "$out" | grep -qF "p.provider:$2"; then
		echo "for '$1': got '$out', want ...:$2"; rc=1
	fi
}
check_err 'provider x {\n  probe a(int);\n};\n' '2:11: a parameter needs a type and a name'
check_err 'provider x {\n  probe a(int v)\n};\n' "3:1: expected ';', found '}'"
check_err 'provider x { probe a(int v); } @' "1:32: unexpected character '@'"
check_err 'provider { probe a(int v); };' '1:10: expected a provider name'
check_err 'provider x { probe a(int v); probe a(int w); };' '1:36: probe a declared twice'
check_err 'provider x { probe a(int v, long v); };' '1:20: probe a repeats a parameter name'
check_err 'provider x { probe a(int a1, int a2, int a3, int a4, int a5, int a6, int a7, int a8, int a9, int a10, int a11, int a12, int a13); };' '1:20: probe a has more than 12 arguments'

# The sample: generated at build time, compiled, its sites in the notes.
h=$KOBJ/samples/markers/provider-example.h
[ -f "$h" ] || { echo "no generated $h"; exit 1; }
cmp -s "$h" <("$G" "$TOP/samples/markers/provider-example.provider") || { echo "stale $h"; rc=1; }
for n in open read tick; do
	readelf -n "$KOBJ/samples/markers/provider-example.ko" | grep -q "Name: $n$" ||
		{ echo "provider-example.ko: no SDT site $n"; rc=1; }
done

# Typed arguments, compiled against the kernel: right, then wrong.
cp "$h" "$tmp/"
build() {	# BODY -> compile a module whose init holds BODY
	cat > "$tmp/t.c" <<C
// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/module.h>
#include "provider-example.h"
static struct file *f;
static long long pos;
static int __init t_init(void)
{
	$1;
	return 0;
}
module_init(t_init);
MODULE_LICENSE("GPL");
C
	echo 'obj-m := t.o' > "$tmp/Makefile"
	echo 'ccflags-y := -I$(src)' >> "$tmp/Makefile"
	make -C "$KOBJ" M="$tmp" "${KCC[@]}" modules > "$tmp/log" 2>&1
}
build 'PROVIDER_EXAMPLE_OPEN(f, 1); PROVIDER_EXAMPLE_READ(4096, pos)' ||
	{ echo "well-typed arguments rejected:"; grep error "$tmp/log"; rc=1; }
if build 'PROVIDER_EXAMPLE_OPEN("not a file", 1)'; then
	echo "a char * for a struct file * was accepted"; rc=1
else
	grep -q 'PROVIDER_EXAMPLE_OPEN: file is not struct file \*' "$tmp/log" ||
		{ echo "wrong error:"; grep error "$tmp/log"; rc=1; }
fi
if build 'PROVIDER_EXAMPLE_READ(f, pos)'; then
	echo "a pointer for a size_t was accepted"; rc=1
else
	# GCC: "invalid operands to binary *"; clang: "... binary expression".
	grep -Eq 'invalid operands to binary (\*|expression)' "$tmp/log" ||
		{ echo "wrong error:"; grep error "$tmp/log"; rc=1; }
fi
[ $rc = 0 ] && echo "gen-provider: 7 bad inputs rejected with line:col, sample built, 2 wrong types rejected"
exit $rc
