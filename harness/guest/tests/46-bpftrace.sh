# SPDX-License-Identifier: GPL-2.0
# Debian's bpftrace (run.sh -T) on marker events, with the kernel's BTF
# (CONFIG_DEBUG_INFO_BTF) and no kernel headers: it lists the markers
# group, counts a MARK event by its __data_loc string field and sums its
# int field, and reads an SDT event's argument, over a command it starts
# (-c, which waits on an eventfd), with exact counts. The sites are
# dormant again once bpftrace is gone.
# needs: run.sh -T
. /harness/lib.sh

L=/sys/kernel/debug/markers/list
command -v bpftrace > /dev/null || fail "no bpftrace in the initramfs (run.sh -T)"
[ -f /sys/kernel/btf/vmlinux ] || fail "no /sys/kernel/btf/vmlinux"
modprobe marker-example || fail "modprobe marker-example"
modprobe sdt-example || fail "modprobe sdt-example"
cd /tmp || fail "cd /tmp"

bpftrace -l 'tracepoint:markers:*' > /tmp/bt-list 2>&1 || fail "bpftrace -l: $(tail -n 3 /tmp/bt-list)"
for e in subsys_open subsys_loop subsys_file subsys_read subsys_expensive; do
	grep -qx "tracepoint:markers:$e" /tmp/bt-list || fail "bpftrace -l has no $e: $(cat /tmp/bt-list)"
done

# 4 opens by cat, the command's children: @ counts them by comm, @s sums
# the pid field, which must be the sum of the 4 cats' pids (each shell
# writes its pid, then becomes cat).
cat > /tmp/bt-open.sh <<'EOF'
for i in 1 2 3 4; do
	sh -c 'echo $$ >> /tmp/bt-pids; exec cat /proc/marker-example > /dev/null'
done
EOF
rm -f /tmp/bt-pids
bpftrace -e 'tracepoint:markers:subsys_open { @[str(args->comm)] = count(); @s = sum(args->pid); }' \
	-c 'sh /tmp/bt-open.sh' > /tmp/bt-open 2>&1 || fail "bpftrace: $(tail -n 5 /tmp/bt-open)"
cat /tmp/bt-open
want=0
for p in $(cat /tmp/bt-pids); do want=$((want + p)); done
expect_eq "pids" "$(grep -c . /tmp/bt-pids)" 4
grep -qx '@\[cat\]: 4' /tmp/bt-open || fail "@[cat] is not 4"
expect_eq "@[...] lines" "$(grep -c '^@\[' /tmp/bt-open)" 1
grep -qx "@s: $want" /tmp/bt-open || fail "@s is not $want"

# An SDT event: arg2 is read()'s count (dd's block size), arg0 the pid.
bpftrace -e 'tracepoint:sdt_sdt_example:read /args->arg0 == (int64)cpid/ { @n = count(); @c = sum(args->arg2); }' \
	-c 'dd if=/proc/sdt-example bs=13 count=1' > /tmp/bt-sdt 2>&1 || fail "bpftrace sdt: $(tail -n 5 /tmp/bt-sdt)"
cat /tmp/bt-sdt
grep -qx '@n: 1' /tmp/bt-sdt || fail "@n is not 1"
grep -qx '@c: 13' /tmp/bt-sdt || fail "@c is not 13"

grep -q '^subsys_open mark .* dormant 0 ' $L || fail "subsys_open still armed: $(grep ^subsys_open $L)"
wait_listing sdt_example:read ' dormant 0 ' || fail "sdt_example:read still armed: $(grep sdt_example:read $L)"
rmmod sdt_example marker_example
