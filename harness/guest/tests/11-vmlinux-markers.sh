# SPDX-License-Identifier: GPL-2.0
# Markers built into vmlinux (kernel/module/main.c): listed, armed by a
# probe module, fired by module loads, disarmed.
. /harness/lib.sh

L=/sys/kernel/debug/markers/list
grep -q '^module_live mark "name %s text %u" do_init_module+0x[0-9a-f]*/0x[0-9a-f]* dormant 0 - 0x[0-9a-f]*$' $L ||
	fail "module_live listing: $(grep module_live $L)"
probe_example name=module_live 'format="name %s text %u"' || fail "probe on module_live"
grep -q '^module_live .* armed 1 ' $L || fail "module_live not armed"
modprobe marker-example || fail "modprobe marker-example"
step_dmesg | grep -q "probe_example: module_live: name marker_example text [1-9][0-9]*$" || fail "module_live output"
rmmod marker_example
rmmod probe_example
grep -q '^module_live .* dormant 0 ' $L || fail "module_live not disarmed"
exit 0
