// SPDX-License-Identifier: GPL-2.0
/*
 * The marker format grammar, built for the host: the kernel's own
 * kernel/markers/format.c over the C library (format-host.h), linked into
 * markers-list for its --classes mode and for markers-diff.
 */
#include "format-host.h"
#include "../../kernel/markers/format.c"
