#!/bin/bash
# The harness's compilers (lib.sh: CC and HOSTCC of its kernel builds) go
# through ccache in its depend mode, which does not see a file that an
# assembler .incbin's. An object must follow such a file all the same:
# compiled twice with the file changed between, from a .S and from a C
# file's asm, with a cache of its own (the first compile fills it), it
# must carry the second content. And the test kernel must carry the
# certificate that its modules are signed with (certs/signing_key.x509
# in certs/system_certificates.o): a kernel with the certificate of an
# earlier build, from the cache, refuses every module under lockdown.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CCACHE_DIR=$tmp/cache
cc='' hostcc=''
for a in "${KMAKE[@]}"; do
	case $a in
	CC=*) cc=${a#CC=} ;;
	HOSTCC=*) hostcc=${a#HOSTCC=} ;;
	esac
done
[ -n "$cc" ] && [ -n "$hostcc" ] ||
	{ echo "no CC= or HOSTCC= in lib.sh's KMAKE: ${KMAKE[*]}"; exit 1; }
cd "$tmp"
printf '\t.section .rodata\n\t.incbin "blob"\n' > as.S
printf 'asm(".section .rodata\\n.incbin \\"blob\\"\\n.previous");\n' > c.c
rc=0
for c in "$cc" "$hostcc"; do
	for src in as.S c.c; do
		for n in 1 2; do
			echo "content $n of $src, $$ $RANDOM" > blob
			# shellcheck disable=SC2086
			$c -MD -c "$src" -o obj.o || { echo "$c -c $src failed"; exit 1; }
		done
		if ! grep -aqF -f blob obj.o; then
			echo "$c: $src's object kept an old content of the file it .incbin's:"
			strings obj.o | grep '^content' || true
			rc=1
		fi
	done
done
[ $rc = 0 ] && echo "CC ($cc) and HOSTCC ($hostcc): objects follow what they .incbin"

[ -f "$KOBJ/vmlinux" ] || { echo "no $KOBJ/vmlinux: run make build"; exit 1; }
if grep -q '^CONFIG_MODULE_SIG_ALL=y' "$KOBJ/.config"; then
	python3 - "$KOBJ/certs/signing_key.x509" "$KOBJ/certs/system_certificates.o" <<'PY' || rc=1
import sys
cert, obj = (open(p, 'rb').read() for p in sys.argv[1:])
if cert not in obj:
    sys.exit('the test kernel does not carry the certificate its modules are signed with')
print('the test kernel carries its modules\' signing certificate')
PY
fi
exit $rc
