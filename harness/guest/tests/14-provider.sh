# SPDX-License-Identifier: GPL-2.0
# The module built from a gen-provider header: its typed SDT sites fire,
# and its *_ENABLED() guard is a dormant NOP until a probe is attached.
. /harness/lib.sh

L=/sys/kernel/debug/markers/list
modprobe provider-example || fail "modprobe provider-example"
grep -q '^provider_example:tick guard "" provider_example_read+.* dormant 0 ' $L ||
	fail "tick guard: $(grep provider_example:tick $L)"
sdt_probe_example provider=provider_example name=read nargs=2 || fail "attach to read"
cat /proc/provider-example
step_dmesg | grep -q 'sdt_probe_example: provider_example:read arg0=[0-9]* arg1=0$' || fail "read output"
rmmod sdt_probe_example
sdt_probe_example provider=provider_example name=tick nargs=0 || fail "attach to tick"
grep -q '^provider_example:tick guard "" .* armed 1 ' $L || fail "guard not armed"
n=$(step_dmesg | grep -c 'sdt_probe_example: provider_example:tick$')
cat /proc/provider-example
expect_eq "tick hits" "$(step_dmesg | grep -c 'sdt_probe_example: provider_example:tick$')" "$((n + 1))"
rmmod sdt_probe_example
rmmod provider_example
exit 0
