# SPDX-License-Identifier: GPL-2.0
# The walk-through "markers from perf, bpftrace and trace-cmd" of
# Documentation/trace/markers.rst, word for word (walkthrough in lib.sh).
# needs: run.sh -T
. /harness/lib.sh

walkthrough consumers
exit 0
