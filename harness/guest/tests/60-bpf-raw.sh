# SPDX-License-Identifier: GPL-2.0
# Raw BPF programs attached by marker name (BPF_RAW_TRACEPOINT_OPEN with a
# MARK() name, an SDT key or a dynamic debug site's key;
# kernel/markers/bpf.c), with exact counts
# (harness/tools/marker-perf.c raw): each program counts its hits and sums
# its first argument, the opener's pid at subsys_open and sdt_example:read.
# - N opens give N hits and N * pid, on the MARK() name, on the SDT key
#   and on the dynamic debug key;
#   N hits and N * -1 on an SDT key whose first argument is an s8, -1,
#   armed by its thunk (the listing says so while the link is open);
# - with the link open, the module that has the sites is unloaded and
#   loaded again: the program runs on the new module's sites (2N);
# - a program that reads one argument past the sites' is refused at
#   attach (EINVAL), as is a name with no site (ENOENT);
# - closing the link detaches the probe: the names are dormant after.
. /harness/lib.sh

L=/sys/kernel/debug/markers/list
P=/extra/marker-perf
modprobe marker-example || fail "modprobe marker-example"
modprobe sdt-example || fail "modprobe sdt-example"

$P raw subsys_open 20 /proc/marker-example || fail "raw on subsys_open"
# A dynamic debug site by its key: marker_example_open's first pr_debug(),
# "open pid %d comm %s\n".
$P raw marker_example.marker_example_open 20 /proc/marker-example ||
	fail "raw on the dynamic debug key marker_example.marker_example_open"
# sdt_example:read has a memory operand through %rbp: on x86_64 the
# trampoline arms it (call), on arm64 its thunk.
$P raw sdt_example:read 20 /proc/sdt-example "grep '^sdt_example:read ' $L" ||
	fail "raw on sdt_example:read"
# sdt_example:types, armed by its thunk: its first argument is an s8, -1,
# sign-extended to 64 bits.
$P raw-value sdt_example:types 20 /proc/sdt-example -1 \
	"grep '^sdt_example:types sdt .* thunk 1 ' $L" ||
	fail "raw on sdt_example:types: its first argument, -1"
$P raw subsys_open 10 /proc/marker-example \
	"rmmod marker_example && modprobe marker-example" ||
	fail "raw on subsys_open across its module's reload"
$P raw sdt_example:read 10 /proc/sdt-example \
	"rmmod sdt_example && modprobe sdt-example" ||
	fail "raw on sdt_example:read across its module's reload"

# subsys_open has 2 arguments ("pid %d comm %s"), sdt_example:read 5.
$P raw-refused subsys_open 2 EINVAL || fail "reading a 3rd argument of subsys_open"
$P raw-refused sdt_example:read 5 EINVAL || fail "reading a 6th argument of sdt_example:read"
$P raw-refused no_such_marker 0 ENOENT || fail "a name with no site"

grep -q '^subsys_open mark .* dormant 0 ' $L || fail "still armed: $(grep '^subsys_open ' $L)"
grep -q '^sdt_example:read sdt .* dormant 0 ' $L ||
	fail "still armed: $(grep '^sdt_example:read ' $L)"
rmmod sdt_example marker_example
exit 0
