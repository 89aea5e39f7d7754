/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel markers: what kernel/marker.c shares with its KUnit suite.
 */
#ifndef _KERNEL_MARKER_INTERNAL_H
#define _KERNEL_MARKER_INTERNAL_H

#include <linux/compiler.h>
#include <linux/marker.h>
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
struct module;

/*
 * One probe: the function, its data, and what it expects of a site: a
 * format (a MARK() probe; NULL for any) or an argument count (an SDT probe;
 * -1 for any).
 */
struct marker_probe {
	union {
		marker_probe_func *func;
		sdt_probe_func *sdt_func;
	};
	void *data;
	const char *format;
	int nargs;
};

/*
 * Attach a probe to a MARK() name or an SDT "provider:name" (the key), or
 * detach it; the checks of marker_set_probe() and sdt_set_probe() are the
 * caller's. marker_remove_probe() waits for a grace period.
 */
int marker_add_probe(const char *key, const struct marker_probe *np);
int marker_remove_probe(const char *key, const void *func, void *data);

/*
 * Call @fn for each site, with its key, its module's name ("vmlinux" for
 * built-in sites) and whether it is an SDT site, under the registry mutex;
 * stops at the first non-zero return, which it returns.
 */
typedef int marker_site_fn(void *ctx, const char *key, const char *module,
			   bool sdt);
int marker_walk_sites(marker_site_fn *fn, void *ctx);

/* The control file (marker_control.c). */

/* The largest write the control file takes, in bytes. */
#define MARKER_CONTROL_MAX	4096
/* The most commands in one write. */
#define MARKER_CONTROL_CMDS	64
/* The most distinct names one write may touch. */
#define MARKER_CONTROL_KEYS	1024
/* The longest glob. */
#define MARKER_GLOB_MAX		128
/* The longest key: a name, or provider:name. */
#define MARKER_KEY_MAX		(2 * MARKER_NAME_MAX + 2)
/* The most globs in markers.enable=. */
#define MARKER_BOOT_GLOBS	32
/* The longest line a built-in probe writes. */
#define MARKER_HIT_TEXT		256

enum marker_sink {
	MARKER_SINK_TRACE,	/* the ftrace ring buffer */
	MARKER_SINK_PRINTK,	/* a rate-limited pr_info() */
};

/* One parsed command; the strings point into the written buffer. */
struct marker_cmd {
	bool enable;		/* enable, or disable */
	const char *name;	/* glob on names and provider:name */
	const char *module;	/* only sites of this module ("vmlinux") */
	const char *provider;	/* only SDT sites of such providers */
	enum marker_sink sink;
	bool has_sink;		/* "to" was given */
	bool any_sink;		/* disable without "to": every sink */
};

#if IS_ENABLED(CONFIG_KUNIT)
int marker_control_parse(char *buf, struct marker_cmd *cmds, unsigned int max);
#endif

struct file;
ssize_t marker_control_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *ppos);
void marker_control_module_coming(struct module *mod);

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
void sdt_kunit_asm_rip(void);
extern u64 sdt_kunit_asm_var;

#endif /* _KERNEL_MARKER_INTERNAL_H */
