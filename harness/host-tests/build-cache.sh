#!/bin/bash
# The harness's compilers (lib.sh: CC and HOSTCC of its kernel builds) go
# through ccache in its depend mode, which does not see a file that an
# assembler .incbin's. An object must follow such a file all the same:
# compiled twice with the file changed between, from a .S and from a C
# file's asm, with a cache of its own (the first compile fills it), it
# must carry the second content. And the test kernel must carry the
# certificate that its modules are signed with (certs/signing_key.x509
# in certs/system_certificates.o), and the guest's installed modules be
# signed with that key: a kernel with the certificate of an earlier
# build, or modules signed with an earlier key, and every module is
# refused under lockdown.
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
	# And the guest's modules (modules_install's, in $MODROOT) are signed
	# with that key: the signature appended to one verifies with it.
	ko=$(find "$MODROOT" -name marker-example.ko | head -n 1)
	[ -n "$ko" ] || { echo "no marker-example.ko in $MODROOT: run make build"; exit 1; }
	python3 - "$ko" "$tmp/body" "$tmp/sig" <<'PY' || exit 1
import struct, sys
d = open(sys.argv[1], 'rb').read()
magic = b'~Module signature appended~\n'
if not d.endswith(magic):
    sys.exit(f'{sys.argv[1]} is not signed')
# struct module_signature (12 bytes, sig_len big-endian last) before it.
n = struct.unpack('>I', d[-len(magic) - 4:-len(magic)])[0]
end = len(d) - len(magic) - 12
open(sys.argv[2], 'wb').write(d[:end - n])
open(sys.argv[3], 'wb').write(d[end - n:end])
PY
	openssl x509 -inform DER -in "$KOBJ/certs/signing_key.x509" -out "$tmp/cert.pem"
	if openssl cms -verify -binary -inform DER -in "$tmp/sig" -content "$tmp/body" \
		-certfile "$tmp/cert.pem" -nointern -noverify -out /dev/null 2> "$tmp/err"; then
		echo "${ko#"$MODROOT"/} is signed with the kernel's key"
	else
		echo "${ko#"$MODROOT"/} is not signed with the kernel's key: $(tail -n 1 "$tmp/err")"
		rc=1
	fi
fi
exit $rc
