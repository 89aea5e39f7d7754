# SPDX-License-Identifier: GPL-2.0
# Debian's perf and bpftrace (run.sh -T) take stacks at marker events
# that go through the thunk of an SDT site down to the site's function,
# its callers and the system call: perf record -g and perf script, and
# bpftrace's kstack, on sdt_sdt_example:types (armed by its thunk) and
# markers:subsys_read, each over one read(2); perf names a thunk made
# while it records.
# needs: run.sh -T
. /harness/lib.sh

L=/sys/kernel/debug/markers/list
modprobe marker-example || fail "modprobe marker-example"
modprobe sdt-example || fail "modprobe sdt-example"
cd /tmp || fail "cd /tmp"
# has_frames WHAT FILE FUNC...: FILE has a frame of each FUNC.
has_frames() {
	what=$1 file=$2
	shift 2
	for f in "$@"; do
		grep -q "[ 	]$f+[0-9]" "$file" || fail "$what: no $f in the stack: $(cat "$file")"
	done
}

perf record -q -g -o /tmp/perf.data -e markers:subsys_read -e "sdt_sdt_example:'types'" -- \
	sh -c 'dd if=/proc/marker-example bs=16 count=1; dd if=/proc/sdt-example bs=16 count=1' \
	> /tmp/perf-record 2>&1 || fail "perf record: $(tail -n 3 /tmp/perf-record)"
perf script -F event,ip,sym,symoff,dso -i /tmp/perf.data > /tmp/perf-script 2> /tmp/perf-script.err ||
	fail "perf script: $(tail -n 3 /tmp/perf-script.err)"
# One record each; its call chain up to the next blank line.
for e in markers:subsys_read sdt_sdt_example:types; do
	expect_eq "perf script $e records" "$(grep -c "^ *$e:" /tmp/perf-script)" 1
	awk -v e="$e:" 'index($0, e) { on = 1; next } on && /^$/ { on = 0 } on' /tmp/perf-script > /tmp/chain
	echo "perf script -F ...ip,sym $e: $(awk '{ print $2 }' /tmp/chain | tr '\n' ' ')"
done
awk -v e="markers:subsys_read:" 'index($0, e) { on = 1; next } on && /^$/ { on = 0 } on' /tmp/perf-script > /tmp/chain
has_frames "perf markers:subsys_read" /tmp/chain marker_example_read vfs_read do_syscall_64
awk -v e="sdt_sdt_example:types:" 'index($0, e) { on = 1; next } on && /^$/ { on = 0 } on' /tmp/perf-script > /tmp/chain
has_frames "perf sdt_sdt_example:types" /tmp/chain sdt_example_types sdt_example_read vfs_read do_syscall_64

# perf knows a thunk by the PERF_RECORD_KSYMBOL of its making: one made
# while it records has its name in perf script. The thunk above came
# with perf's own event, before perf's recording began: [unknown]. A
# second probe on the site makes it a new thunk (x86_64: a thunk serves
# one array of probes), while perf records.
perf record -q -g -o /tmp/perf2.data -e "sdt_sdt_example:'types'" -- \
	sh -c 'modprobe sdt-probe-example name=types nargs=8; dd if=/proc/sdt-example bs=16 count=1; rmmod sdt_probe_example' \
	> /tmp/perf-record 2>&1 || fail "perf record: $(tail -n 3 /tmp/perf-record)"
perf script -F event,ip,sym,symoff,dso -i /tmp/perf2.data > /tmp/perf-script 2> /tmp/perf-script.err ||
	fail "perf script: $(tail -n 3 /tmp/perf-script.err)"
awk -v e="sdt_sdt_example:types:" 'index($0, e) { on = 1; next } on && /^$/ { on = 0 } on' /tmp/perf-script > /tmp/chain
echo "perf script, a thunk made while perf records: $(awk '{ print $2 }' /tmp/chain | tr '\n' ' ')"
has_frames "perf sdt_sdt_example:types, a new thunk" /tmp/chain sdt_thunk_sdt_example_types \
	sdt_example_types sdt_example_read vfs_read do_syscall_64

bpftrace -e 'tracepoint:sdt_sdt_example:types { @[kstack] = count(); }' \
	-c 'dd if=/proc/sdt-example bs=16 count=1' > /tmp/bt-stack 2>&1 || fail "bpftrace kstack: $(tail -n 5 /tmp/bt-stack)"
cat /tmp/bt-stack
grep -q '^\]: 1$' /tmp/bt-stack || fail "bpftrace: not one stack counted once"
has_frames "bpftrace kstack" /tmp/bt-stack sdt_example_types sdt_example_read vfs_read do_syscall_64

wait_listing sdt_example:types ' dormant 0 ' || fail "sdt_example:types still armed: $(grep sdt_example:types $L)"
rmmod sdt_example marker_example
