/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel markers: what the files of kernel/markers/ share.
 *
 *	format.c	the format grammar (also built into the host tools)
 *	sdt_decode.c	SDT operand specs: the sizes and the split, and the
 *			fetch at a hit; each operand is the arch's
 *	core.c		the registry: names and their sites; the mechanisms;
 *			change batches; the text it reserves against kprobes.
 *			It names no mechanism: it calls them through struct
 *			marker_kind_ops
 *	objects.c	vmlinux and modules, their sites coming and going: the
 *			module notifier and its chain; init text
 *	debugfs.c	the listing, and the directory of our debugfs files
 *	mark.c		the mechanism of MARK() and guard sites: jump labels
 *			and patched CALLs
 *	mark_hit.c	what their CALLs go to but a probe: the iterator
 *			and the slow path
 *	sdt.c		the mechanism of SDT sites: arming with a call of a
 *			thunk or of the trampoline; sdt.h, what it shares with
 *	sdt_thunk.c	the thunks: what they call, their lifetime, and with
 *	sdt_kprobe.c	arming them with a kprobe
 *	dyndbg.c	the mechanism of dynamic debug sites: indexed when
 *			their keys are asked for, armed by their static keys
 *	probes.c	attaching and detaching probes, all or nothing
 *	api.c		the probe API: argument checks, kernel-doc
 *	kunit.c		what the KUnit suites read of the registry
 *	control.c	the control file and markers.enable=: a client of the
 *			registry, through the functions under "Clients" below
 *	control_parse.c	its grammar
 *	sinks.c		the control file's printk probe
 *	bpf.c		raw BPF programs attached by marker name: a client
 *
 * The trace events are a dynamic event type of the tracing code
 * (kernel/trace/trace_markers*.c): a client of the registry, through the
 * functions under "Clients" below, as the control file is, and as bpf.c
 * (raw BPF programs attached by name) is.
 *
 * Layers, each file calling only files of its own layer or below, with no
 * cycle: control.c, control_parse.c, sinks.c, bpf.c; kunit.c; api.c;
 * probes.c; dyndbg.c; objects.c; mark.c, sdt.c; sdt_thunk.c; sdt_kprobe.c;
 * debugfs.c; core.c, batch.c;
 * format.c, sdt_decode.c, mark_hit.c. The core reaches the mechanisms above it only
 * through the ops they register. The registry's data is protected by
 * marker_mutex; see core.c.
 */
#ifndef _KERNEL_MARKERS_INTERNAL_H
#define _KERNEL_MARKERS_INTERNAL_H

#include <linux/compiler.h>
#include <linux/init.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sdt.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/sections.h>

#include "format.h"

/* The number of site kinds, MARKER_KIND_*. */
#define MARKER_NR_KINDS		(MARKER_KIND_DYNDBG + 1)

/* The longest marker name, and SDT provider or name, the API accepts. */
#define MARKER_NAME_MAX		127
/* The longest key: a marker name, or an SDT "provider:name". */
#define MARKER_KEY_MAX		(2 * MARKER_NAME_MAX + 2)

struct kprobe;
struct module;
struct sdt_site;
struct seq_file;

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
	/*
	 * Sites a mechanism indexed when their keys were asked for
	 * (marker_add_made_object()), not the object's __markers: any
	 * number of such objects, after the module's own.
	 */
	bool made;
	struct marker_callsite *calls;	/* its MARK() CALLs (mark.c) */
	unsigned int ncalls;
	unsigned int nr;
	struct marker_entry entry[] __counted_by(nr);
};

/* The sites of vmlinux and their calls, collected by the linker script. */
extern const struct marker_site __start___markers[];
extern const struct marker_site __stop___markers[];
extern const struct marker_call __start___marker_calls[];
extern const struct marker_call __stop___marker_calls[];

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
 * Is @code in the init memory of @mod (NULL: vmlinux), which is freed
 * once it has run? For vmlinux, .init.text and all of
 * __init_begin..__init_end: .exit.text of built-in code is there too,
 * and goes with .init.text (free_initmem()), as jump_label_init() knows.
 */
static inline bool marker_code_in_init(const void *code, struct module *mod)
{
	if (mod)
		return within_module_init((unsigned long)code, mod);
	return is_kernel_inittext((unsigned long)code) ||
	       init_section_contains((void *)code, 1);
}

/*
 * One change of the registry: what arming its sites may need, reserved
 * before anything is published (so that publishing cannot fail), and what
 * it leaves to do once marker_mutex is dropped, in marker_batch_finish():
 * the mechanisms' own work (disarmed kprobes to unregister, say), one
 * grace period if a probe was detached (@wait), and freeing the probe
 * arrays and formats the change retired.
 */
struct marker_batch {
	struct list_head retired;	/* struct marker_probes */
	struct list_head formats;	/* struct marker_fmt */
	struct marker_patch *patches;	/* the instructions to write */
	unsigned int npatches, room;
	/* Each kind's own, opaque to the core: see marker_batch_list(). */
	struct list_head kind[MARKER_NR_KINDS];
	bool wait;
};

void marker_batch_init(struct marker_batch *b);
void marker_batch_retire(struct marker_batch *b, struct marker_probes *old);
struct marker_patch *marker_batch_patch(struct marker_batch *b,
					enum marker_insn what, void *code,
					void *dest);
void marker_batch_apply(struct marker_batch *b);
void marker_batch_abort(struct marker_batch *b);
void marker_batch_finish(struct marker_batch *b);

/* The list @b keeps for the mechanism of site kind @kind. */
static inline struct list_head *marker_batch_list(struct marker_batch *b,
						  unsigned int kind)
{
	return &b->kind[kind];
}

/*
 * Where in the source a site is, as the control file's "file" and "line"
 * ask: a glob on its file's path or on the path's last part (NULL: any),
 * and its first line to its last (0: any).
 */
struct marker_place {
	const char *file;
	unsigned int first, last;
};

/**
 * struct marker_kind_ops - a mechanism: how the sites of one kind are armed
 * @name: the kind, as the listing shows it
 * @client_hits: the listing asks the client (the control file) for hits
 * @accepts: does @site take what @p expects?
 * @reserve: reserve in @b what arming @e will need: 0 or -ENOMEM
 * @unreserve: free what @b reserved and arming did not use (but what it
 *	       reserved in a site, which goes with the site)
 * @update: point @e at @probes (NULL: none), arming or disarming it, with
 *	    the patching it needs queued in @b; never fails (what it needs
 *	    was reserved), but may leave the site in error for the listing
 * @armed: does @e call probes? (@e is not gone)
 * @event_why: why a site of format @fmt cannot record a trace event
 *	       (@first NULL), or cannot share one with a site of format
 *	       @first, in one word; NULL if it can. An op left NULL: the
 *	       kind records nothing (guards)
 * @object_init: set up what the kind keeps of @obj, before @obj is in
 *		 the registry, without marker_mutex: 0 or -ENOMEM
 * @object_add: @obj is in the registry now
 * @object_del: @obj leaves the registry: disarm its sites in @b
 * @object_free: free what @object_init set up, after a grace period
 * @init_gone: the init text of @obj is about to be freed: disarm its sites
 *	       there in @b (the core then marks them gone)
 * @after_patch: under marker_mutex, once @b's patches are written
 * @reap: once marker_mutex is dropped: finish disarming; true if that
 *	  waited for a grace period
 * @finish: after @b's grace period, marker_mutex not held
 * @show: the site's state, for the listing (not gone)
 * @counts: its faults and hits, for the listing; NULL: it counts none
 * @text_reserved: does [@start, @end] overlap text of the kind's sites
 *		   that the registry patches? @kp: the kprobe asking, or
 *		   NULL for kprobes' optimizer; under RCU
 * @lookup: index the sites whose keys match @glob, if the kind indexes
 *	    its sites only once asked for (marker_add_made_object()), and
 *	    that are at @at (NULL: anywhere): 0, or an errno; without
 *	    marker_mutex
 * @at: is the site at @at? NULL: the kind knows no places, and none of
 *	its sites is at any
 * @list: the listing of every site of such a kind, indexed or not: print
 *	  its @i-th record (any number of lines) on @m, with a hit column
 *	  if @hits; @m NULL: only say whether there is one. False past the
 *	  last. Under marker_mutex
 *
 * Registered once by mark.c (MARK() and guard sites) and sdt.c, before
 * the registry indexes vmlinux; the core (core.c) calls a mechanism only
 * through these. Every op but @accepts, @update, @armed and @show may be
 * NULL. All run under marker_mutex but @object_init, @object_free,
 * @reap, @finish and @text_reserved.
 * dyndbg.c registers the ops of dynamic debug sites, whose @lookup runs
 * without marker_mutex too.
 */
struct marker_kind_ops {
	const char *name;
	bool client_hits;
	bool (*accepts)(const struct marker_site *site,
			const struct marker_probe *p);
	int (*reserve)(struct marker_entry *e, struct marker_batch *b,
		       gfp_t gfp);
	void (*unreserve)(struct marker_batch *b);
	void (*update)(struct marker_entry *e, struct marker_probes *probes,
		       struct marker_batch *b);
	bool (*armed)(const struct marker_entry *e);
	const char *(*event_why)(const char *first, const char *fmt);
	int (*object_init)(struct marker_object *obj);
	void (*object_add)(struct marker_object *obj);
	void (*object_del)(struct marker_object *obj, struct marker_batch *b);
	void (*object_free)(struct marker_object *obj);
	void (*init_gone)(struct marker_object *obj, struct marker_batch *b);
	void (*after_patch)(struct marker_batch *b);
	bool (*reap)(struct marker_batch *b);
	void (*finish)(struct marker_batch *b);
	void (*show)(struct seq_file *m, const struct marker_entry *e);
	void (*counts)(const struct marker_entry *e, unsigned int *faults,
		       unsigned long *hits);
	bool (*text_reserved)(unsigned long start, unsigned long end,
			      const struct kprobe *kp);
	int (*lookup)(const char *glob, const struct marker_place *at);
	bool (*at)(const struct marker_entry *e, const struct marker_place *at);
	bool (*list)(struct seq_file *m, loff_t i, bool hits);
};

void __init marker_register_kind(unsigned int kind,
				 const struct marker_kind_ops *ops);

/*
 * The mechanism of each kind; set at boot, before any site is indexed
 * (NULL until then: kprobes may ask marker_text_reserved() earlier). A
 * mechanism that serves several kinds has its batch and object ops in the
 * ops of one kind only: calling each kind's that are set calls each
 * mechanism's once.
 */
extern const struct marker_kind_ops *marker_kinds[MARKER_NR_KINDS];

const struct marker_kind_ops *marker_kind_of(const struct marker_site *site);

/* --- The registry (core.c): kernel-doc at the definitions ------------ */

struct marker_name *marker_find_name(const char *key);
struct marker_name *marker_get_name(const char *key);
int marker_lookup_sites(const char *glob);
int marker_lookup_sites_at(const char *glob, const struct marker_place *at);
int marker_add_made_object(struct module *mod, const struct marker_site *start,
			   const struct marker_site *stop);
struct marker_name *marker_alloc_name(const char *key);
void marker_insert_name(struct marker_name *mn);
void marker_put_name(struct marker_name *mn);
void marker_update_name(struct marker_name *mn, struct marker_batch *b);
int marker_reserve_name(struct marker_name *mn,
			const struct marker_probes *probes,
			struct marker_batch *b, gfp_t gfp);
/* A walk's last answer of whether a site takes its probes (core.c). */
struct marker_accepts_memo {
	const char *fmt;	/* the format it is for; NULL: none yet */
	u32 kind;
	bool ok;
};

bool marker_site_accepts_probe(const struct marker_site *site,
			       const struct marker_probe *p,
			       struct marker_accepts_memo *memo);
bool marker_site_accepts(const struct marker_site *site,
			 const struct marker_probes *probes,
			 struct marker_accepts_memo *memo);
void marker_update_site(struct marker_entry *e, struct marker_probes *probes,
			bool warn, struct marker_accepts_memo *memo,
			struct marker_batch *b);
bool marker_entry_armed(const struct marker_entry *e);
__printf(2, 3)
void marker_warn_site(const struct marker_entry *e, const char *fmt, ...);

/* --- MARK() and guard sites (mark.c), under marker_mutex -------------- */

/* kernel-doc at the definitions. */
struct marker_callsite *marker_object_calls(struct marker_object *obj,
					    struct marker_desc *desc,
					    unsigned int *n);
void *mark_desc_callee(const struct marker_desc *desc);

/* --- The hit side of MARK() sites (mark_hit.c) ------------------------ */

void mark_hash_calls(struct marker_object *obj, bool add);
void __marker_iterate(void *data, const char *fmt, va_list *args);

/* --- SDT sites (sdt.c), under marker_mutex ---------------------------- */

/* What the listing says of an SDT site. */
enum sdt_state {
	SDT_DORMANT,
	SDT_CALL,		/* patched into a call of the SDT trampoline */
	SDT_THUNK,		/* patched into a call of its own thunk */
	SDT_KPROBE,		/* an int3 kprobe */
	SDT_OPTIMIZED,		/* a kprobe optimized into a jump */
	SDT_ERROR,		/* arming failed */
};

/*
 * How SDT sites are armed from now on: a call (default) of their own
 * thunk where one can be made (sdt_use_thunks, default) or of the
 * trampoline; or a kprobe.
 */
extern bool sdt_use_kprobes;
extern bool sdt_use_thunks;
void *sdt_thunk_code(const struct marker_entry *e);
enum sdt_state sdt_state(const struct marker_entry *e, int *error);
const char *sdt_why(const struct marker_entry *e);
unsigned int sdt_faults(const struct marker_entry *e);

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
 * Follow modules once the registry has: MODULE_STATE_COMING, then
 * MODULE_STATE_GOING. Clients order themselves by @nb's priority: the
 * trace events (1) before the control file (0), whose markers.enable=
 * enables a coming module's events; probes.c drops a going module's
 * leftover probes (0).
 */
struct notifier_block;
int marker_register_module_notifier(struct notifier_block *nb);

/* marker_change() of one (probes.c): kernel-doc at the definitions. */
int marker_add_probe(const char *key, const struct marker_probe *np);
int marker_remove_probe(const char *key, const void *func, void *data);

/*
 * Call @fn for each name the registry knows (those with sites, and the
 * pending ones), under marker_mutex, rescheduling between names; stop at
 * the first non-zero return, and return it.
 */
typedef int marker_name_fn(void *ctx, struct marker_name *mn);
int marker_walk_names(marker_name_fn *fn, void *ctx);

bool marker_name_in_module(struct marker_name *mn, const char *module);
bool marker_name_at(struct marker_name *mn, const struct marker_place *at);

int marker_key_no_event(const char *key);

char *marker_key_event_format(const char *key);

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
unsigned int sdt_count_thunks(const char *key, unsigned int *calls);
unsigned int sdt_count_errors(const char *key);
const char *sdt_site_why(const char *key);
void *marker_gone_call(void);
void sdt_wait_kprobe_optimizer(void);
extern unsigned int mark_promote_delay_ms;
extern unsigned int mark_promotions_cancelled;
extern int marker_init_gone_state;
int marker_check_consistency(void);
extern bool sdt_int3_only;
extern atomic_t sdt_thunks_dying;
int sdt_thunk_set_live(const char *key, bool live);
void *mark_name_callee(const char *key);
extern unsigned int sdt_packs_nr;
void *sdt_pack_alloc(unsigned int len);
void sdt_pack_free(void *at, unsigned int len, bool written);
#endif

#endif /* _KERNEL_MARKERS_INTERNAL_H */
