#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The `make demo` guest job: the markers subsystem at work.
L=/sys/kernel/debug/markers/list
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { echo "# $*"; sh -c "$*"; }
P=/lib/modules/$(uname -r)/kernel/samples/markers/probe-example.ko

step "Linux $(uname -r) under QEMU, $(nproc) CPUs"
step "The marker sites of vmlinux ($L)"
run "cat $L"
step "Load the sample with markers behind /proc/marker-example"
run "modprobe marker-example"
run "grep -E '^#|subsys_' $L"
step "A probe whose format does not match is refused (EPERM)"
run "insmod $P name=subsys_read 'format=\"%s\"'"
step "Attach probe-example to subsys_open, with a format it checks"
run "insmod $P name=subsys_open 'format=\"pid %d comm %s\"'"
run "grep subsys_open $L"
step "Fire the markers: open and read /proc/marker-example"
run "cat /proc/marker-example"
run "cat /proc/marker-example"
run "dmesg | grep probe_example"
step "Unload the sample under the probe: the probe stays, pending"
run "rmmod marker_example"
run "grep subsys_open $L"
run "rmmod probe_example"
step "The listing again"
run "grep -c . $L"
run "grep -E 'subsys_' $L || echo '(no sample sites)'"
exit 0
