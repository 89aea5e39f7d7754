# SPDX-License-Identifier: GPL-2.0
# The control file's printk sink prints an SDT argument that points into
# the kernel as %p does, hashed, never as the raw address: module:live's
# argument is the struct module * of the module coming live. It used to
# print the address as a (negative) decimal, for any dmesg reader.
. /harness/lib.sh

C=/sys/kernel/debug/markers/control
echo 'enable name module:live to printk' > $C || fail "enable module:live to printk"
step_mark
modprobe marker-example || fail "modprobe marker-example"
line=$(step_dmesg | grep 'markers: module:live arg0=')
echo 'disable name module:live' > $C || fail "disable module:live"
rmmod marker_example
[ -n "$line" ] || fail "no module:live line"
echo "$line" | grep -Eq 'markers: module:live arg0=(0{8}[0-9a-f]{8}|\(____ptrval____\))$' ||
	fail "pointer not hashed: $line"
exit 0
