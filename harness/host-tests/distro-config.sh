#!/bin/bash
# The options of a distribution kernel that markers must live beside
# tracing (the function tracer and the other text patchers,
# perf, BPF, BTF), hardening (FORTIFY_SOURCE, lockdown, IBT, the default
# mitigations) and, under LLVM=1, kCFI. Prints each with its value in the
# test kernel that make check built and in the bench kernel (configured
# here from lib.sh's BASE_FRAGMENTS: markers.config and the arch's), and
# the reason for each one left out;
# fails when one is not as listed.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ -f "$KOBJ/.config" ] || { echo "no $KOBJ/.config: build first"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bench_frags=$BASE_FRAGMENTS
[ -z "${LLVM:-}" ] || bench_frags="$bench_frags $CONFIGS/markers-llvm.config"
make -s -C "$KSRC" O="$tmp" ARCH=x86_64 "${KCC[@]}" tinyconfig > /dev/null
# In $tmp: merge_config.sh makes its temporary files where it runs.
(cd "$tmp" && "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$tmp" "$tmp/.config" $bench_frags) > /dev/null
make -s -C "$KSRC" O="$tmp" ARCH=x86_64 "${KCC[@]}" olddefconfig > /dev/null

# OPTION TEST BENCH [why]: the value wanted in each kernel (y, or n for
# not set), and why when one is n.
want() {
	cat <<'EOF'
FUNCTION_TRACER y y
DYNAMIC_FTRACE y y
DYNAMIC_FTRACE_WITH_REGS y y
DYNAMIC_FTRACE_WITH_ARGS y y
DYNAMIC_FTRACE_WITH_DIRECT_CALLS y y
KPROBES_ON_FTRACE y y
OPTPROBES y y
FPROBE y y
FPROBE_EVENTS y y
KPROBE_EVENTS y y
PROBE_EVENTS y y	eprobes come with it
SYNTH_EVENTS y y
HIST_TRIGGERS y y
BPF_SYSCALL y y
BPF_JIT y y
BPF_EVENTS y y
EVENTFD y y
EPOLL y y
FTRACE_SYSCALLS y y
DEBUG_INFO_BTF y n	the bench kernel has no debug info (it changes no generated code); BTF is for bpftrace in make check's guest
DEBUG_INFO_BTF_MODULES y n	as DEBUG_INFO_BTF
IKHEADERS n n	BTF serves bpftrace instead, and busybox tar cannot read kheaders.tar.xz
FORTIFY_SOURCE y y
SECURITY_LOCKDOWN_LSM y y
SECURITYFS y y
MODULE_SIG y y	selected by the lockdown LSM; modules_install signs with a key of the build
CRYPTO_SHA256 y y	Debian's module signature check hashes every module with SHA-256 and selects nothing
X86_KERNEL_IBT y y	objtool checks ENDBR at build time; QEMU's TCG does not implement CET, so IBT is never enforced in the guest
MITIGATION_RETPOLINE y y
MITIGATION_RETHUNK y y
MITIGATION_CALL_DEPTH_TRACKING y y	make check boots once with retbleed=force,stuff to use it
UNWINDER_ORC y y
EOF
	[ -z "${LLVM:-}" ] || echo "CFI_CLANG y y"
}

val() {	# val CONFIG OPTION: y, m, or n
	local v
	v=$(sed -n "s/^CONFIG_$2=\(.*\)/\1/p" "$1")
	echo "${v:-n}"
}
bad=0
printf '%-34s %-5s %-5s %s\n' option test bench note
while IFS=$'\t' read -r spec why; do
	read -r opt t b <<< "$spec"
	gt=$(val "$KOBJ/.config" "$opt")
	gb=$(val "$tmp/.config" "$opt")
	mark=
	if [ "$gt" != "$t" ] || [ "$gb" != "$b" ]; then
		mark="  <-- want test $t bench $b"
		bad=1
	fi
	printf '%-34s %-5s %-5s %s%s\n' "$opt" "$gt" "$gb" "$why" "$mark"
done < <(want)
[ $bad = 0 ] || { echo "options not as listed"; exit 1; }
