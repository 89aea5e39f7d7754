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
 * <linux/string.h> functions that a C library also has.
 */

#ifdef __KERNEL__
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
static int marker_parse_width(const char **fmt, u8 *cls, unsigned int *n,
			      unsigned int max)
{
	if (**fmt != '*') {
		while (isdigit(**fmt))
			(*fmt)++;
		return 0;
	}
	(*fmt)++;
	return marker_add_class(cls, n, max, MARKER_ARG_INT);
}

/**
 * marker_parse_format - the argument classes of a printf format
 * @fmt: the format
 * @cls: where to store one enum marker_arg_class per argument, or NULL
 * @max: the room in @cls
 *
 * The grammar is what the kernel's vsnprintf() prints: flags "-+ #0", a
 * width and a precision (digits, or '*': an int argument), the length
 * modifiers hh, h, l, ll, L, z and t (with C's default promotions:
 * everything int-sized or smaller is an int), and the conversions d, i,
 * u, x, X, o, c, s, p (with its extensions: %pS, %pI4...) and %%. Literal
 * text carries no argument.
 *
 * Return: the number of arguments, or -EINVAL for anything else (j, Z, q,
 * floating point, %n...), a '%' at the end, or more than @max (or
 * MARKER_MAX_ARGS) arguments.
 */
int marker_parse_format(const char *fmt, u8 *cls, unsigned int max)
{
	unsigned int n = 0;
	bool wide;
	u8 c;

	if (!cls || max > MARKER_MAX_ARGS)
		max = MARKER_MAX_ARGS;

	while (*fmt) {
		if (*fmt++ != '%')
			continue;
		if (*fmt == '%') {
			fmt++;
			continue;
		}
		while (*fmt && strchr("-+ #0", *fmt))
			fmt++;
		if (marker_parse_width(&fmt, cls, &n, max))
			return -EINVAL;
		if (*fmt == '.') {
			fmt++;
			if (marker_parse_width(&fmt, cls, &n, max))
				return -EINVAL;
		}
		wide = false;
		switch (*fmt) {
		case 'h':
			fmt += fmt[1] == 'h' ? 2 : 1;
			break;
		case 'l':
			fmt += fmt[1] == 'l' ? 2 : 1;
			wide = true;
			break;
		case 'L':
		case 'z':
		case 't':
			fmt++;
			wide = true;
			break;
		}
		switch (*fmt++) {
		case 'd':
		case 'i':
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			c = wide ? MARKER_ARG_LONG : MARKER_ARG_INT;
			break;
		case 'c':
			c = MARKER_ARG_INT;
			break;
		case 's':
			c = MARKER_ARG_STR;
			break;
		case 'p':
			/* %p and its extensions (%pS, %pI4, ...): a pointer. */
			c = MARKER_ARG_PTR;
			break;
		default:	/* '\0', floating point, %n, unknown */
			return -EINVAL;
		}
		if (marker_add_class(cls, &n, max, c))
			return -EINVAL;
	}
	return n;
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
