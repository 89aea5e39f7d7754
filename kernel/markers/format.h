/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The marker format grammar: what va_arg() reads for each conversion of a
 * MARK() format. One source, format.c, built into the kernel and into the
 * host tool scripts/markers/markers-list, so that the registry and the
 * offline tools agree on what a format takes. Nothing here may need more
 * than a host C library: the host build provides u8 and bool.
 */
#ifndef _KERNEL_MARKERS_FORMAT_H
#define _KERNEL_MARKERS_FORMAT_H

/* The most arguments a marker format may take. */
#define MARKER_MAX_ARGS		32

/* What va_arg() reads for one conversion. */
enum marker_arg_class {
	MARKER_ARG_INT = 1,	/* int, and what promotes to int: %d %u %x %c %hd */
	MARKER_ARG_LONG,	/* 8 bytes: %ld %lld %zu %td %jd */
	MARKER_ARG_STR,		/* const char *: %s */
	MARKER_ARG_PTR,		/* void *: %p and its extensions */
};

/*
 * One conversion of a format (marker_format_next()): its text, its '*'
 * arguments, and what its value is, as a trace event field stores it.
 */
struct marker_conv {
	const char *start;	/* its '%' */
	unsigned int len;	/* up to its letter (and %p's extension) */
	unsigned int nstars;	/* '*' width and precision: int arguments */
	u8 cls;			/* the value's enum marker_arg_class */
	u8 size;		/* the field's size: 1, 2, 4, 8; 4 for %s */
	bool is_signed;
	char letter;		/* d i u x X o c s p */
	const char *type;	/* the field's C type */
};

int marker_format_next(const char **fmt, struct marker_conv *c);
int marker_parse_format(const char *fmt, u8 *cls, unsigned int max);
bool marker_format_match(const char *a, const char *b);
const char *marker_arg_class_name(u8 cls);

#endif /* _KERNEL_MARKERS_FORMAT_H */
