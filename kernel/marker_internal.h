/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel markers: what kernel/marker.c shares with its KUnit suite.
 */
#ifndef _KERNEL_MARKER_INTERNAL_H
#define _KERNEL_MARKER_INTERNAL_H

#include <linux/types.h>

/* The longest marker name marker_set_probe() accepts. */
#define MARKER_NAME_MAX		127

/* The most arguments a marker format may take. */
#define MARKER_MAX_ARGS		32

/* What va_arg() reads for one conversion. */
enum marker_arg_class {
	MARKER_ARG_INT = 1,	/* int, and what promotes to int: %d %u %x %c %hd */
	MARKER_ARG_LONG,	/* 8 bytes: %ld %lld %zu %td %jd */
	MARKER_ARG_STR,		/* const char *: %s */
	MARKER_ARG_PTR,		/* void *: %p and its extensions */
};

struct marker_probes;
struct marker_site;

/* The sites of vmlinux, collected by the linker script. */
extern const struct marker_site __start___markers[];
extern const struct marker_site __stop___markers[];

#if IS_ENABLED(CONFIG_KUNIT)
int marker_parse_format(const char *fmt, u8 *cls, unsigned int max);
bool marker_format_match(const char *a, const char *b);
struct marker_probes *marker_alloc_probes(unsigned int nr);
unsigned int marker_count_sites(const char *name, unsigned int *armed);
int sdt_site_info(const char *key, void **addr, unsigned int *faults);
extern bool sdt_int3_only;
#endif

/* The .S sites of the markers_sdt KUnit suite (sdt_kunit_asm.S). */
long sdt_kunit_asm_site(long a, long b);
void sdt_kunit_asm_fault(void *p, int x);
void sdt_kunit_asm_bad(void);

#endif /* _KERNEL_MARKER_INTERNAL_H */
