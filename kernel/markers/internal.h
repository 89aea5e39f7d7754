/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel markers: what the files of kernel/markers/ share.
 *
 *	api.c		the probe API: argument checks, kernel-doc
 *	probes.c	attaching and detaching probes, all or nothing
 *	core.c		the registry: names, objects and their sites; the
 *			module notifier; init text
 *	format.c	the format grammar (also built into the host tools)
 *	mark.c		MARK() and guard sites: static keys and the hit path
 *	sdt.c		arming SDT sites (kprobes)
 *	debugfs.c	the listing
 *	control.c	the control file and markers.enable=: a client of the
 *			registry, through the functions under "Clients" below
 *	control_parse.c	its grammar
 *	sinks.c		the control file's printk probe
 *	events.c	the trace events: a client of the registry too
 *	event_format.c	their fields, print fmt and text
 *	event_record.c	their hit path
 *	kunit.c		what the KUnit suites read of the registry
 *
 * Layers, each calling only those below it: control.c; api.c, events.c;
 * probes.c; core.c; mark.c, sdt.c, format.c. The registry's data is
 * protected by marker_mutex; see core.c.
 */
#ifndef _KERNEL_MARKERS_INTERNAL_H
#define _KERNEL_MARKERS_INTERNAL_H

#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sdt.h>
#include <linux/string.h>
#include <linux/types.h>

#include "format.h"

/* The longest marker name, and SDT provider or name, the API accepts. */
#define MARKER_NAME_MAX		127
/* The longest key: a marker name, or an SDT "provider:name". */
#define MARKER_KEY_MAX		(2 * MARKER_NAME_MAX + 2)

struct kprobe;
struct module;
struct sdt_site;

/*
 * One probe: the function, its data, and what it expects of a site: a
 * format (a MARK() probe; NULL for any) or an argument count (an SDT probe;
 * -1 for any). A format is the str of a struct marker_fmt.
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

/* The registry's copy of a probe's format. */
struct marker_fmt {
	struct list_head node;		/* retired in a struct marker_batch */
	char str[];
};

/*
 * The probes of one key, in registration order. Never modified once
 * published: a change makes a new array (copy-on-write), and the old one
 * is freed after a grace period.
 */
struct marker_probes {
	struct rcu_head rcu;
	struct list_head retire;	/* retired in a struct marker_batch */
	unsigned int nr;
	struct marker_probe probe[] __counted_by(nr);
};

/*
 * A key known to the registry: a marker name or an SDT "provider:name"
 * with at least one site, or at least one probe (then "pending" while it
 * has no site), or both. Found by key in a hash table; also kept in
 * creation order for the listing.
 */
struct marker_name {
	struct hlist_node hnode;	/* in the name table */
	struct list_head list;		/* in marker_names */
	struct list_head sites;		/* its sites: marker_entry.name_node */
	unsigned int nr_sites;
	struct marker_probes *probes;	/* NULL if none */
	char key[];
};

/* A site of an object, as the registry tracks it. */
struct marker_entry {
	const struct marker_site *site;
	struct marker_object *obj;
	struct marker_name *mn;
	struct list_head name_node;	/* in mn->sites, in object order */
	struct sdt_site *sdt;		/* an SDT site's arming state (sdt.c) */
	bool init;			/* in init text */
	bool gone;			/* ... which was freed; read under RCU */
};

/* A CALL of a MARK() site, as the registry tracks it. */
struct marker_callsite {
	struct hlist_node hnode;	/* in the call table, by code; RCU */
	void *code;
	struct marker_desc *desc;
	bool init;			/* in init text */
	bool gone;			/* ... which was freed */
};

/*
 * The sites of vmlinux or of one module, and the calls of its MARK() sites
 * (sorted by descriptor). In marker_objects under marker_mutex, and under
 * RCU for marker_text_reserved().
 */
struct marker_object {
	struct list_head list;		/* in marker_objects */
	struct rcu_head rcu;
	struct module *mod;		/* NULL for vmlinux */
	struct marker_callsite *calls;
	unsigned int ncalls;
	unsigned int nr;
	struct marker_entry entry[] __counted_by(nr);
};

/*
 * The CALLs of the MARK() sites [@start, @stop) of @obj (not yet in
 * marker_objects), sorted by descriptor: 0 or -ENOMEM.
 */
int mark_index_calls(struct marker_object *obj,
		     const struct marker_call *start,
		     const struct marker_call *stop);
/* Add @obj's CALLs to the table marker_call_desc_of() reads, or remove them. */
void mark_hash_calls(struct marker_object *obj);
void mark_unhash_calls(struct marker_object *obj);

/* The descriptor of the MARK() CALL at @code, or NULL; under RCU-sched. */
struct marker_desc *marker_call_desc_of(unsigned long code);

/* The calls of @desc's sites in @obj: *@n of them from the one returned. */
struct marker_callsite *marker_object_calls(struct marker_object *obj,
					    struct marker_desc *desc,
					    unsigned int *n);

/* The sites of vmlinux and their calls, collected by the linker script. */
extern const struct marker_site __start___markers[];
extern const struct marker_site __stop___markers[];
extern const struct marker_call __start___marker_calls[];
extern const struct marker_call __stop___marker_calls[];

/* The size of a MARK() site's CALL. */
#define MARKER_CALL_SIZE	5

extern struct mutex marker_mutex;
extern struct list_head marker_objects;
extern struct list_head marker_names;

static inline struct list_head *marker_sites_of(struct marker_name *mn)
{
	lockdep_assert_held(&marker_mutex);
	return &mn->sites;
}

/**
 * for_each_marker_site - iterate over the sites of a name
 * @e: the struct marker_entry cursor
 * @mn: the name
 *
 * Under marker_mutex; in object order, then site order.
 */
#define for_each_marker_site(e, mn)					\
	list_for_each_entry(e, marker_sites_of(mn), name_node)

static inline const char *marker_object_name(const struct marker_object *obj)
{
	return obj->mod ? obj->mod->name : "vmlinux";
}

/*
 * One change of the registry: what arming its sites may need, reserved
 * before anything is published (so that publishing cannot fail), and what
 * it leaves to do once marker_mutex is dropped, in marker_batch_finish():
 * unregister the kprobes of disarmed SDT sites, wait for one grace period
 * if a probe was detached (@wait), and free the probe arrays and formats
 * the change retired.
 */
struct marker_batch {
	struct list_head dead_sdt;	/* struct sdt_site (sdt.c) */
	struct list_head spare_sdt;	/* reserved by sdt_reserve() */
	struct list_head retired;	/* struct marker_probes */
	struct list_head formats;	/* struct marker_fmt */
	struct marker_patch *patches;	/* the instructions to write */
	unsigned int npatches, room;
	struct list_head promote;	/* struct mark_promotion (mark.c) */
	bool wait;
};

void marker_batch_init(struct marker_batch *b);
void marker_batch_retire(struct marker_batch *b, struct marker_probes *old);
/* Queue writing instruction @what at @code (see enum marker_insn). */
void marker_batch_patch(struct marker_batch *b, enum marker_insn what,
			void *code, void *dest);
/* Under marker_mutex, at the end of a change: write what it queued. */
void marker_batch_apply(struct marker_batch *b);
/* Once marker_mutex is dropped. */
void marker_batch_finish(struct marker_batch *b);

/* --- The registry (core.c), under marker_mutex ------------------------ */

/* The name of @key, or NULL. */
struct marker_name *marker_find_name(const char *key);
/* A new name, not in the registry until marker_insert_name(). */
struct marker_name *marker_alloc_name(const char *key);
void marker_insert_name(struct marker_name *mn);
/* Forget @mn once it has neither sites nor probes. */
void marker_put_name(struct marker_name *mn);
/* Point every site of @mn at mn->probes, arming or disarming them. */
void marker_update_name(struct marker_name *mn, struct marker_batch *b);
/*
 * Reserve in @b what arming the sites of @mn that take @probes will need,
 * those not armed yet: 0 or -ENOMEM.
 */
int marker_reserve_name(struct marker_name *mn,
			const struct marker_probes *probes,
			struct marker_batch *b, gfp_t gfp);
/* Does @site take what @p expects? */
bool marker_site_accepts_probe(const struct marker_site *site,
			       const struct marker_probe *p);
/* Is the site calling probes, or SDT-armed? */
bool marker_entry_armed(const struct marker_entry *e);
/* pr_warn() "key at function+off/size: ...", never with a raw address. */
__printf(2, 3)
void marker_warn_site(const struct marker_entry *e, const char *fmt, ...);

/* --- MARK() and guard sites (mark.c), under marker_mutex -------------- */

void mark_update_desc(struct marker_object *obj, struct marker_desc *desc,
		      bool guard, struct marker_probes *probes,
		      struct marker_batch *b);
/* After a change's patches are written, and after its grace period. */
void mark_promote_prepare(struct marker_batch *b);
void mark_promote_finish(struct marker_batch *b);
/* @obj is going: its queued promotions are dropped. */
void mark_cancel_promotions(struct marker_object *obj);
bool mark_desc_direct(const struct marker_desc *desc);
void mark_init_calls_gone(struct marker_object *obj);

/* --- SDT sites (sdt.c), under marker_mutex but sdt_reap() ------------- */

/* What the listing says of an SDT site. */
enum sdt_state {
	SDT_DORMANT,
	SDT_CALL,		/* patched into a call of the SDT trampoline */
	SDT_KPROBE,		/* an int3 kprobe */
	SDT_OPTIMIZED,		/* a kprobe optimized into a jump */
	SDT_ERROR,		/* arming failed */
};

/* How SDT sites are armed from now on: a call (default), or a kprobe. */
extern bool sdt_use_kprobes;
bool sdt_text_reserved(unsigned long start, unsigned long end, bool own);
bool sdt_own_kprobe(const struct kprobe *kp);

int sdt_reserve(struct marker_entry *e, struct marker_batch *b, gfp_t gfp);
void sdt_unreserve(struct marker_batch *b);
void sdt_arm(struct marker_entry *e, struct marker_probes *probes,
	     struct marker_batch *b);
void sdt_disarm(struct marker_entry *e, struct marker_batch *b);
/* Unregister the kprobes @b collected; true if that waited a grace period. */
bool sdt_reap(struct marker_batch *b);
enum sdt_state sdt_state(const struct marker_entry *e, int *error);
const char *sdt_why(const struct marker_entry *e);
unsigned int sdt_faults(const struct marker_entry *e);
unsigned long sdt_hits(const struct marker_entry *e);
int sdt_spec_nargs(const char *spec);

/* --- The listing (debugfs.c) ------------------------------------------ */

struct dentry;
struct file;

/* The debugfs directory "markers", or an error pointer. */
extern struct dentry *marker_debugfs_dir;

/*
 * The hits of a MARK() name for the listing's hit column, from its client
 * (the control file, which counts those of its probes).
 */
typedef unsigned long marker_hits_fn(const char *key);

/* Open the listing on @file; @hits, if not NULL, adds the hit column. */
int marker_listing_open(struct file *file, marker_hits_fn *hits);

/* --- Clients (api.c, control.c) --------------------------------------- */

/* One attachment (@add) or detachment of marker_change(). */
struct marker_op {
	const char *key;		/* marker name, or "provider:name" */
	struct marker_probe probe;	/* to detach: func and data */
	bool add;
};

int marker_change(const struct marker_op *ops, unsigned int n);

/*
 * Attach a probe to a MARK() name or an SDT "provider:name" (the key), or
 * detach it: marker_change() of one.
 */
int marker_add_probe(const char *key, const struct marker_probe *np);
int marker_remove_probe(const char *key, const void *func, void *data);

/*
 * Call @fn for each name the registry knows (those with sites, and the
 * pending ones), under marker_mutex, rescheduling between names; stop at
 * the first non-zero return, and return it.
 */
typedef int marker_name_fn(void *ctx, struct marker_name *mn);
int marker_walk_names(marker_name_fn *fn, void *ctx);

/* Under marker_mutex: has @mn a site in @module ("vmlinux": built in)? */
bool marker_name_in_module(struct marker_name *mn, const char *module);

/*
 * Why @key has no trace event: -ENOENT, it has no site; 0, its sites
 * record nothing (guards, or sites in freed init text); -EPERM, they
 * disagree or cannot be printed. Takes marker_mutex.
 */
int marker_key_no_event(const char *key);

/*
 * Under marker_mutex: the format of @mn's trace event (events.c): its
 * MARK() sites' format, or its first SDT site's spec, sites in freed init
 * text and guards left out. NULL when there is no such site (*@why NULL),
 * when they disagree (on the format, on an SDT argument count), or when
 * vsnprintf() cannot print the format: *@why says which, in one word for
 * the listing.
 */
const char *marker_name_event_format(struct marker_name *mn, const char **why);

/* Is @key an SDT "provider:name" (or an SDT_ENABLED() guard's)? */
static inline bool marker_key_is_sdt(const char *key)
{
	return strchr(key, ':');
}

/* --- For the KUnit suites --------------------------------------------- */

#if IS_ENABLED(CONFIG_KUNIT)
struct marker_probes *marker_alloc_probes(unsigned int room, gfp_t gfp);
unsigned int marker_count_sites(const char *key, unsigned int *armed);
int sdt_site_info(const char *key, void **addr, unsigned int *faults);
const char *sdt_site_why(const char *key);
void *marker_gone_call(void);
void sdt_wait_kprobe_optimizer(void);
extern unsigned int mark_promote_delay_ms;
extern int marker_init_gone_state;
int marker_check_consistency(void);
extern bool sdt_int3_only;
#endif

#endif /* _KERNEL_MARKERS_INTERNAL_H */
