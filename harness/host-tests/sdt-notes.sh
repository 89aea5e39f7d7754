#!/bin/bash
# SDT notes: stock readelf -n lists the sites of vmlinux and of a module;
# .note.stapsdt is not allocated in vmlinux, and not in the loaded .notes.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

ko=$(find "$KOBJ/samples/markers" -name sdt-example.ko)
readelf -n "$ko" > "$LOGS/sdt-example.notes"
for s in read types in_asm from_asm; do
	grep -A3 "Name: $s\$" "$LOGS/sdt-example.notes" | grep -q 'Arguments: ' ||
		{ echo "readelf -n sdt-example.ko: no site $s"; cat "$LOGS/sdt-example.notes"; exit 1; }
done
grep -c 'NT_STAPSDT' "$LOGS/sdt-example.notes"
readelf -n "$KOBJ/vmlinux" > "$LOGS/vmlinux.notes"
grep -A3 'Provider: module' "$LOGS/vmlinux.notes" | grep -q 'Name: live' ||
	{ echo "readelf -n vmlinux: no module:live site"; exit 1; }
flags=$(readelf -SW "$KOBJ/vmlinux" | grep ' \.note\.stapsdt ' |
	awk '{ for (i = 1; i <= NF; i++) if ($i == "NOTE") print $(i + 5) }')
[ -n "$flags" ] || { echo "vmlinux has no .note.stapsdt section"; exit 1; }
case "$flags" in
*A*) echo ".note.stapsdt is allocated in vmlinux (flags $flags)"; exit 1 ;;
esac
if readelf -x .notes "$KOBJ/vmlinux" 2>/dev/null | grep -q stapsdt; then
	echo "the loaded .notes section holds stapsdt notes"; exit 1
fi
echo "readelf -n: $(grep -c NT_STAPSDT "$LOGS/vmlinux.notes") site(s) in vmlinux, $(grep -c NT_STAPSDT "$LOGS/sdt-example.notes") in sdt-example.ko"
