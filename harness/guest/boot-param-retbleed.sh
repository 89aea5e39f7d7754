#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One short boot for two sets of steps that each need only the command
# line: booted with retbleed=force,stuff spectre_v2=retpoline (call depth
# tracking: retbleed-stuff.sh, the markers_sdt suite under it) and with
# preempt=none markers.enable=... (boot-param.sh). The suite runs first,
# before boot-param.sh loads and arms the samples. Each prints its own
# MARKERS-TEST lines; the job fails if either fails.
rc=0
sh /harness/retbleed-stuff.sh || rc=1
sh /harness/boot-param.sh || rc=1
exit $rc
