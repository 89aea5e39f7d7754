/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kernel/markers/format.c takes from the kernel, supplied by the host's
 * C library: the format grammar is built for the host too, into
 * markers-list (scripts/markers/format.c), so that the offline tools judge
 * a format exactly as the kernel's registry does.
 */
#ifndef _SCRIPTS_MARKERS_FORMAT_HOST_H
#define _SCRIPTS_MARKERS_FORMAT_HOST_H

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* No KUnit on the host: the grammar's functions are plain externals. */
#define EXPORT_SYMBOL_IF_KUNIT(sym)

#endif /* _SCRIPTS_MARKERS_FORMAT_HOST_H */
