// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the format grammar.
 *
 * A MARK() format is a printf format; a probe reads the site's arguments
 * with va_arg(), so what matters of a format is the va_arg() class of each
 * argument it takes (enum marker_arg_class). The registry compares formats
 * by those classes; the host tools (scripts/markers/) build this same file,
 * so that they judge a format change exactly as the kernel would.
 *
 * Built for the host too: only <linux/ctype.h>, <linux/errno.h> and
 * <linux/string.h> functions that a C library also has, and ARRAY_SIZE().
 *
 * marker_format_next() also says what each conversion's value is as a
 * trace event field (its C type and size): the marker events
 * (kernel/trace/trace_markers.c) are typed from the format, by this one
 * grammar.
 */

#ifdef __KERNEL__
#include <linux/array_size.h>
#include <linux/build_bug.h>
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/string.h>
#include <linux/types.h>
#include <kunit/visibility.h>
#endif

#include "format.h"

/* Store argument class @c as the next of @cls (if not NULL). */
static int marker_add_class(u8 *cls, unsigned int *n, unsigned int max, u8 c)
{
	if (*n >= max)
		return -EINVAL;
	if (cls)
		cls[*n] = c;
	(*n)++;
	return 0;
}

/* A width or precision at *@fmt: '*' takes an int argument, digits none. */
static void marker_parse_width(const char **fmt, struct marker_conv *c)
{
	if (**fmt != '*') {
		while (isdigit(**fmt))
			(*fmt)++;
		return;
	}
	(*fmt)++;
	c->nstars++;
}

/* The field type of an integer conversion, by length modifier. */
static void marker_int_type(struct marker_conv *c, char len, bool is_signed)
{
	static const struct {
		char len;
		u8 size;
		const char *type[2];	/* unsigned, signed */
	} types[] = {
		{ 'H', 1, { "unsigned char", "signed char" } },	/* hh */
		{ 'h', 2, { "unsigned short", "short" } },
		{ 0, 4, { "unsigned int", "int" } },
		{ 'l', 8, { "unsigned long", "long" } },
		{ 'q', 8, { "unsigned long long", "long long" } },	/* ll, L */
		{ 'z', 8, { "size_t", "ssize_t" } },
		{ 't', 8, { "unsigned long", "ptrdiff_t" } },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		if (types[i].len != len)
			continue;
		c->size = types[i].size;
		c->is_signed = is_signed;
		c->type = types[i].type[is_signed];
		c->cls = c->size == 8 ? MARKER_ARG_LONG : MARKER_ARG_INT;
		return;
	}
}

/**
 * marker_format_next - the next conversion of a printf format
 * @fmt: the format, advanced past the conversion
 * @c: where to describe it
 *
 * The grammar is what the kernel's vsnprintf() prints: flags "-+ #0", a
 * width and a precision (digits, or '*': an int argument), the length
 * modifiers hh, h, l, ll, L, z and t (with C's default promotions:
 * everything int-sized or smaller is an int), and the conversions d, i,
 * u, x, X, o, c, s, p (with its extensions: %pS, %pI4...) and %%. Literal
 * text carries no argument. A conversion takes @c->nstars int arguments
 * (its '*' width and precision), then its value.
 *
 * Return: 1 for a conversion, 0 at the end of the format, or -EINVAL for
 * anything else (j, Z, q, floating point, %n...) or a '%' at the end.
 */
int marker_format_next(const char **fmt, struct marker_conv *c)
{
	const char *p = *fmt;
	char len = 0;

	memset(c, 0, sizeof(*c));
	for (;;) {
		p = strchr(p, '%');
		if (!p) {
			*fmt += strlen(*fmt);
			return 0;
		}
		if (p[1] != '%')
			break;
		p += 2;
	}
	c->start = p++;
	while (*p && strchr("-+ #0", *p))
		p++;
	marker_parse_width(&p, c);
	if (*p == '.') {
		p++;
		marker_parse_width(&p, c);
	}
	switch (*p) {
	case 'h':
		len = p[1] == 'h' ? 'H' : 'h';
		p += p[1] == 'h' ? 2 : 1;
		break;
	case 'l':
		len = p[1] == 'l' ? 'q' : 'l';
		p += p[1] == 'l' ? 2 : 1;
		break;
	case 'L':
		len = 'q';
		p++;
		break;
	case 'z':
	case 't':
		len = *p++;
		break;
	}
	c->letter = *p++;
	switch (c->letter) {
	case 'd':
	case 'i':
		marker_int_type(c, len, true);
		break;
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		marker_int_type(c, len, false);
		break;
	case 'c':
		c->cls = MARKER_ARG_INT;
		c->size = 1;
		c->is_signed = true;
		c->type = "char";
		break;
	case 's':
		c->cls = MARKER_ARG_STR;
		c->size = 4;		/* a __data_loc */
		c->type = "__data_loc char[]";
		break;
	case 'p':
		/* %p and its extensions (%pS, %pI4, ...): a pointer. */
		while (isalnum(*p))
			p++;
		c->cls = MARKER_ARG_PTR;
		c->size = sizeof(void *);
		c->type = "void *";
		break;
	default:	/* '\0', floating point, %n, unknown */
		return -EINVAL;
	}
	c->len = p - c->start;
	*fmt = p;
	return 1;
}
EXPORT_SYMBOL_IF_KUNIT(marker_format_next);

/**
 * marker_parse_format - the argument classes of a printf format
 * @fmt: the format
 * @cls: where to store one enum marker_arg_class per argument, or NULL
 * @max: the room in @cls
 *
 * The grammar is marker_format_next()'s.
 *
 * Return: the number of arguments, or -EINVAL for a format that
 * marker_format_next() refuses, or more than @max (or MARKER_MAX_ARGS)
 * arguments.
 */
int marker_parse_format(const char *fmt, u8 *cls, unsigned int max)
{
	struct marker_conv c;
	unsigned int n = 0, i;
	int ret;

	if (!cls || max > MARKER_MAX_ARGS)
		max = MARKER_MAX_ARGS;

	while ((ret = marker_format_next(&fmt, &c)) > 0) {
		for (i = 0; i < c.nstars; i++)
			if (marker_add_class(cls, &n, max, MARKER_ARG_INT))
				return -EINVAL;
		if (marker_add_class(cls, &n, max, c.cls))
			return -EINVAL;
	}
	return ret < 0 ? ret : (int)n;
}
EXPORT_SYMBOL_IF_KUNIT(marker_parse_format);

/**
 * marker_format_match - do two formats take the same arguments?
 * @a: a format
 * @b: another format
 *
 * Return: true when both parse and have the same number of arguments, each
 * of the same class (so the same va_arg() type and size).
 */
bool marker_format_match(const char *a, const char *b)
{
	u8 ca[MARKER_MAX_ARGS], cb[MARKER_MAX_ARGS];
	int na, nb;

	na = marker_parse_format(a, ca, MARKER_MAX_ARGS);
	nb = marker_parse_format(b, cb, MARKER_MAX_ARGS);
	return na >= 0 && na == nb && !memcmp(ca, cb, na);
}
EXPORT_SYMBOL_IF_KUNIT(marker_format_match);

/**
 * marker_arg_class_name - the name of an argument class
 * @cls: an enum marker_arg_class
 *
 * Return: "int", "long", "str", "ptr", or "?" for anything else.
 */
const char *marker_arg_class_name(u8 cls)
{
	switch (cls) {
	case MARKER_ARG_INT:
		return "int";
	case MARKER_ARG_LONG:
		return "long";
	case MARKER_ARG_STR:
		return "str";
	case MARKER_ARG_PTR:
		return "ptr";
	}
	return "?";
}
