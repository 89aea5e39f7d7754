# SPDX-License-Identifier: GPL-2.0
# The guest part of the walk-through "a marker and a probe in a module of
# your own" of Documentation/trace/markers.rst, word for word (walkthrough
# in lib.sh): the module its host part built (harness/check.sh builds it
# with the guide's commands) loaded, its probe's line, its marker in the
# listing and counted by bpftrace.
# needs: run.sh -T
# gcc-only: the guide's build names no compiler: it builds against the GCC kernel
. /harness/lib.sh

walkthrough module-guest
exit 0
