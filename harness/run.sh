#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the built kernel under QEMU (TCG) with a busybox initramfs and run
# one job in it.
#
#   run.sh [-t SECONDS] [-l LOG] [-i] [-c] [-T] JOB.sh [EXTRA_FILE...]
#
# JOB.sh runs as /job.sh; EXTRA_FILEs appear under /extra/ (base names
# kept); harness/guest/ is under /harness/. -T adds Debian's perf and
# bpftrace with their libraries (a third image, of its own: 230 MB that
# only the boots which run them unpack). -i gives an interactive shell
# instead of a job. -c reuses the log of the last passing run when nothing
# the guest sees has changed, by content (kernel, modules, busybox, init,
# trace-cmd and its libraries, job, extra files, QEMU options, this script
# and lib.sh; MARKERS_NO_CACHE=1 turns it off). Exit status: the job's, or
# 124 on timeout, or 2 when the guest ended without its end line, or 3
# when the console log shows a kernel splat (Oops, BUG, WARNING, lockdep,
# RCU stall, KASAN, UBSAN, a kmemleak report, debugobjects) or an
# incomplete kernel log dump even if the job passed. The log is scanned
# whatever ended the boot (console_scan in lib.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

timeout=600 log=$LOGS/guest.log interactive=0 cache=0 tools=0
while getopts "t:l:icT" o; do
	case $o in
	t) timeout=$OPTARG ;;
	l) log=$OPTARG ;;
	i) interactive=1 ;;
	c) cache=1 ;;
	T) tools=1 ;;
	*) die "usage: run.sh [-t SECONDS] [-l LOG] [-i] [-c] [-T] JOB.sh [FILES...]" ;;
	esac
done
shift $((OPTIND - 1))
[ $interactive = 1 ] || [ $# -ge 1 ] || die "run.sh: no job script"
job=${1:-}
[ $# -ge 1 ] && shift

kimg=$KOBJ/$KIMAGE
[ -f "$kimg" ] || die "no kernel image; run 'make build'"
# The guest's busybox and trace-cmd: the host's on x86_64; on arm64
# Debian's arm64 busybox-static (make deps unpacks it), and no trace-cmd.
busybox=/bin/busybox
tracecmd=/usr/bin/trace-cmd
qsys=qemu-system-x86_64
qmachine=()
console=ttyS0
if [ "$KARCH" = arm64 ]; then
	busybox=$B/arm64-root/bin/busybox
	tracecmd=
	qsys=qemu-system-aarch64
	# pauth-impdef: QEMU's own pointer-authentication hash, many times
	# cheaper under TCG than the architected QARMA.
	qmachine=(-M virt)
	QEMU_CPU=${QEMU_CPU:--cpu max,pauth-impdef=on}
	console=ttyAMA0
	[ $tools = 0 ] || die "run.sh -T: perf and bpftrace are the host's, x86_64 only"
fi
[ -x "$busybox" ] || die "busybox-static is missing (run 'make deps')"
mkdir -p "$LOGS" "$(dirname "$log")"

# Base image: busybox, init, modules, and Debian's trace-cmd with the
# shared libraries and loader it needs (found with ldd), at their paths.
# Rebuilt when the content of one of them changed (a library upgraded
# under an unchanged trace-cmd included), or the way it is made (this
# script): base_inputs lists what goes in, base_key hashes it.
mkdir -p "$GUEST"
base=$GUEST/initramfs-base.cpio
base_inputs() {
	echo "$busybox"
	echo "$TOP/harness/guest/init"
	if [ -n "$tracecmd" ] && [ -x $tracecmd ]; then
		echo $tracecmd
		ldd $tracecmd | grep -o '/[^ ]*'
	fi
}
base_key() {
	{ base_inputs | xargs -r sha256sum
	  [ ! -d "$MODROOT/lib/modules" ] ||
		(cd "$MODROOT/lib/modules" &&
		 find . -type f | LC_ALL=C sort | xargs -d '\n' -r sha256sum &&
		 find . -type l -printf '%p -> %l\n' | LC_ALL=C sort)
	  sha256sum "$0"
	} | sha256sum | cut -d' ' -f1
}
bkey=$(base_key)
if [ ! -f "$base" ] || [ "$(cat "$base.key" 2>/dev/null)" != "$bkey" ]; then
	rm -f "$base.key"
	r=$GUEST/initramfs-base
	rm -rf "$r"
	mkdir -p "$r"/{bin,sbin,dev,proc,sys,tmp,lib,root,extra}
	cp "$busybox" "$r/bin/busybox"
	cp "$TOP/harness/guest/init" "$r/init"
	chmod 755 "$r/init"
	mknod "$r/dev/console" c 5 1
	mknod "$r/dev/null" c 1 3
	[ -d "$MODROOT/lib/modules" ] && cp -a "$MODROOT/lib/modules" "$r/lib/"
	if [ -n "$tracecmd" ] && [ -x $tracecmd ]; then
		for f in $(base_inputs | tail -n +3); do
			mkdir -p "$r$(dirname "$f")"
			cp -L "$f" "$r$f"
		done
	fi
	(cd "$r" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$base.tmp"
	mv "$base.tmp" "$base"
	echo "$bkey" > "$base.key"
fi

# Tools image (-T): Debian's perf and bpftrace, with the shared libraries
# they need, at their paths; rebuilt when one of them changed.
# /usr/bin/perf is the real binary (linux-perf diverts Debian's wrapper
# away from it).
stock_tools="/usr/bin/perf /usr/bin/bpftrace"
tools_inputs() {
	for t in $stock_tools; do
		echo "$t"
		ldd "$t" | grep -o '/[^ ]*'
	done | LC_ALL=C sort -u
}
timg=
if [ $tools = 1 ]; then
	for t in $stock_tools; do
		[ -x "$t" ] || die "$t is missing (run 'make deps')"
	done
	timg=$GUEST/initramfs-tools.cpio
	tkey=$({ tools_inputs | xargs sha256sum; sha256sum "$0"; } | sha256sum | cut -d' ' -f1)
	if [ ! -f "$timg" ] || [ "$(cat "$timg.key" 2>/dev/null)" != "$tkey" ]; then
		rm -f "$timg.key"
		r=$GUEST/initramfs-tools
		rm -rf "$r"
		for f in $(tools_inputs); do
			mkdir -p "$r$(dirname "$f")"
			cp -L "$f" "$r$f"
		done
		(cd "$r" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$timg.tmp"
		mv "$timg.tmp" "$timg"
		echo "$tkey" > "$timg.key"
	fi
fi

# Job image: the job, the harness' guest scripts, extra files.
j=$GUEST/initramfs-job
rm -rf "$j"
mkdir -p "$j/extra" "$j/harness"
cp -r "$TOP/harness/guest/." "$j/harness/"
if [ $interactive = 1 ]; then
	touch "$j/job-interactive"
	[ -n "$job" ] && cp "$job" "$j/job.sh"
else
	cp "$job" "$j/job.sh"
fi
for f in "$@"; do
	[ -f "$f" ] || die "run.sh: no such file: $f"
	cp "$f" "$j/extra/"
done
(cd "$j" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$GUEST/initramfs-job.cpio"
cat "$base" $timg "$GUEST/initramfs-job.cpio" > "$GUEST/initrd.cpio"

# Single-threaded TCG unless told (QEMU_ACCEL): under multi-threaded TCG
# a vCPU runs stale translated code after another vCPU rewrote it and
# synced. An x86_64 guest, QEMU 7.2 and 10.0 alike, across
# text_poke_bp()'s int3 protocol ("Oops: int3" in a function whose static
# key another vCPU was toggling, with no marker code). An arm64 guest
# under 10.0 too: a vCPU ran a MARK() site's old BL to __marker_iterate()
# after kick_all_cpus_sync() had returned on the CPU that wrote a BL to
# __marker_slowpath() there (the storm test; see harness/README.md). The
# vCPUs still exist and interleave, a slice of translated blocks each.
# The console prints only errors and worse (loglevel=4: a serial console
# under TCG is slow), but the host's splat scan reads the whole kernel log,
# that the guest's init dumps at the end of the job. tinyconfig's buffer is
# 128 kB, and the make check boot logs 94 kB (measured 2026-12-01: the
# size check.sh prints), too close for a longer job (make stress, make run)
# or a noisier kernel. log_buf_len=8M (of the guest's 1 GB) holds it more
# than 80 times over, so the dump holds the whole boot, warnings included;
# and console_scan fails a run whose dump does not begin at the kernel's
# first line, should the buffer wrap all the same.
# The tools' image needs room twice (the initrd, then its files).
mem=1G
[ $tools = 0 ] || mem=2G
# QEMU_SMP: the guest's CPUs, 2 unless told (make check's main boots: 4).
qemu=($qsys "${qmachine[@]}" -accel ${QEMU_ACCEL:-tcg,thread=single} ${QEMU_CPU:--cpu max} -smp ${QEMU_SMP:-2} -m $mem -no-reboot
      -kernel "$kimg" -initrd "$GUEST/initrd.cpio" -nic none
      -append "console=$console loglevel=4 log_buf_len=8M panic=-1 oops=panic softlockup_panic=0 ${GUEST_APPEND:-}")

if [ $interactive = 1 ]; then
	exec "${qemu[@]}" -nographic
fi

# The result of a run depends on nothing but what the guest sees and how
# the host judges it: the kernel, the images (by the content of what went
# into them, their keys: a cpio archive holds the times of its files, so
# the same content makes other bytes in another GUEST_DIR), the QEMU
# command line (GUEST_APPEND, QEMU_ACCEL, QEMU_CPU, QEMU_SMP in it; not the
# image directory, which is the worker's: make check's boots change workers
# from one run to the next), the timeout, QEMU's version, and this script
# and lib.sh (the kernel command line, the console scan).
key=$({ sha256sum "$kimg" "$0" "$TOP/harness/lib.sh"
	cat "$base.key" ${timg:+"$timg.key"}
	(cd "$j" && find . -type f | LC_ALL=C sort | xargs -d '\n' sha256sum)
	echo "${qemu[*]/#$GUEST\//GUEST/} $timeout"; $qsys --version; } |
	sha256sum | cut -d' ' -f1)
if [ $cache = 1 ] && [ "${MARKERS_NO_CACHE:-0}" != 1 ] && [ -f "$log" ] &&
   [ "$(cat "$log.passed" 2>/dev/null)" = "$key" ]; then
	say "run: nothing the guest sees changed since the passing run of $(date -r "$log" '+%F %T'): its log"
	awk '/<<< DMESG BEGIN >>>/ { skip = 1 } !skip { print } /<<< DMESG END >>>/ { skip = 0 }' "$log"
	exit 0
fi
rm -f "$log.passed"

# Console: all of it to the log; on the terminal, all but the final dmesg
# dump (which is only there for the splat scan below).
set +e
timeout -k 10 "$timeout" "${qemu[@]}" -display none -serial stdio -monitor none \
	< /dev/null 2>&1 | stdbuf -oL tr -d '\r' | tee "$log" |
	awk '/<<< DMESG BEGIN >>>/ { skip = 1 } !skip { print; fflush() } /<<< DMESG END >>>/ { skip = 0 }'
qrc=${PIPESTATUS[0]}
set -e

# Whatever ended the boot (a timeout, no end line, the job's status), the
# whole console log is scanned (console_scan in lib.sh): splats, the end
# line, a complete kernel log dump.
scan=0
console_scan "$log" > "$log.scan" || scan=1
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	say "run: guest timed out after ${timeout}s; last console lines:"
	tail -n 25 "$log" >&2
	[ $scan = 0 ] || sed 's/^/run: /' "$log.scan" >&2
	exit 124
fi
end=$(grep -a '<<< MARKERS-GUEST-END status=' "$log" | tail -n 1 || true)
if [ -z "$end" ]; then
	say "run: guest ended without its end line (qemu status $qrc); last console lines:"
	tail -n 25 "$log" >&2
	[ $scan = 0 ] || sed 's/^/run: /' "$log.scan" >&2
	exit 2
fi
status=$(echo "$end" | sed 's/.*status=\([0-9]*\).*/\1/')
if [ $scan = 1 ]; then
	sed 's/^/run: /' "$log.scan" >&2
	exit 3
fi
[ "$status" != 0 ] || echo "$key" > "$log.passed"
exit "$status"
