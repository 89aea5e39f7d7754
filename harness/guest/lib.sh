# SPDX-License-Identifier: GPL-2.0
# Helpers for guest tests. Sourced by each test under /harness/tests/.
# A test fails by exiting non-zero; fail() says why first.

fail() {
	echo "  FAIL: $*"
	exit 1
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# expect_err ERRNO_NAME COMMAND...: the command must fail and print ERRNO_NAME
# (busybox prints strerror text, so match on the text).
expect_fail() {
	if "$@" 2>/tmp/err.$$; then
		fail "'$*' succeeded, expected failure"
	fi
}

# A write of $2 into file $1 that must fail with text $3 in the error.
write_expect_err() {
	if echo "$2" > "$1" 2>/tmp/werr.$$; then
		fail "write '$2' to $1 succeeded"
	fi
	grep -q "$3" /tmp/werr.$$ || fail "write '$2' to $1: $(cat /tmp/werr.$$), want $3"
}

# Load probe-example with parameters. insmod, not busybox modprobe, which
# does not keep quoted parameter values such as format="pid %d comm %s".
probe_example() {
	insmod "/lib/modules/$(uname -r)/kernel/samples/markers/probe-example.ko" "$@"
}

# Load sdt-probe-example with parameters.
sdt_probe_example() {
	insmod "/lib/modules/$(uname -r)/kernel/samples/markers/sdt-probe-example.ko" "$@"
}

# Wait (up to 10 s) until the listing line of $1 matches $2.
wait_listing() {
	i=0
	while ! grep "^$1 " /sys/kernel/debug/markers/list | grep -q "$2"; do
		i=$((i + 1))
		[ $i -lt 100 ] || return 1
		sleep 0.1
	done
}
