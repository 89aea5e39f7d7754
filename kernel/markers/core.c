// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the registry of sites, indexed by name, and the
 * mechanisms that arm them.
 *
 * Sites come from the __markers section of vmlinux and of each module
 * (one struct marker_site per copy of a site, <linux/marker_site.h>). Each
 * object's sites are indexed by name: a struct marker_name per key (a
 * marker name, or an SDT "provider:name") lists its sites across objects
 * and holds the key's probes (probes.c). marker_update_name() points every
 * site of a key at its probes, through the mechanism of the site's kind: a
 * struct marker_kind_ops, which mark.c registers for MARK() and guard
 * sites, and sdt.c for SDT sites. This file names no mechanism: it calls
 * them only through their ops.
 *
 * The sites come and go with their objects, vmlinux and modules
 * (objects.c).
 *
 * What one change writes and disarms is collected in a struct
 * marker_batch (batch.c).
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/cpu.h>
#include <linux/hashtable.h>
#include <linux/init.h>
#include <linux/jhash.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#include <asm/sections.h>

#include "internal.h"

/*
 * marker_mutex protects the registry: marker_objects, marker_names and the
 * name table, every marker_name's probes and sites, every marker_entry's
 * state, and the probes pointer of every marker_desc (their readers, the
 * sites, use RCU instead).
 *
 * Lock nesting: marker_mutex is taken first. static_branch_enable(),
 * static_branch_disable() and register_kprobe() are called with it held
 * and take kprobe_mutex, cpus_read_lock(), jump_label_mutex and text_mutex
 * inside it; SDT symbol lookups take module_mutex inside it, and SDT
 * thunks sdt_pack_mutex, which nests outside text_mutex. A change writes
 * its instructions under cpus_read_lock() and text_mutex, taken in that
 * order once for all of them (marker_batch_write()). Nothing takes
 * marker_mutex with any of those held. The control file's mutex nests
 * outside marker_mutex. Grace periods are waited for after marker_mutex is
 * dropped (marker_batch_finish()).
 */
DEFINE_MUTEX(marker_mutex);
LIST_HEAD(marker_objects);
LIST_HEAD(marker_names);

#define MARKER_HASH_BITS	10
static DEFINE_HASHTABLE(marker_name_table, MARKER_HASH_BITS);

/* --- Mechanisms ------------------------------------------------------- */

/* The mechanism of each kind of site; set at boot, read-only after. */
const struct marker_kind_ops *marker_kinds[MARKER_NR_KINDS] __ro_after_init;

/**
 * marker_register_kind - register the mechanism of a kind of site
 * @kind: MARKER_KIND_*
 * @ops: how its sites are armed, listed and reserved
 *
 * Called by the mechanisms' early initcalls, which run before the
 * registry's own (marker_init()): their objects link before objects.o.
 */
void __init marker_register_kind(unsigned int kind,
				 const struct marker_kind_ops *ops)
{
	if (WARN_ON(kind >= MARKER_NR_KINDS || marker_kinds[kind]))
		return;
	marker_kinds[kind] = ops;
}

/**
 * marker_kind_of - the mechanism of a site
 * @site: the site; its kind was checked when its object was indexed
 *
 * Return: the ops its kind's mechanism registered.
 */
const struct marker_kind_ops *marker_kind_of(const struct marker_site *site)
{
	return marker_kinds[site->kind];
}

/* --- Names ------------------------------------------------------------ */

static u32 marker_key_hash(const char *key)
{
	return jhash(key, strlen(key), 0);
}

/**
 * marker_find_name - look a key up
 * @key: a marker name, or an SDT "provider:name"
 *
 * Under marker_mutex.
 *
 * Return: its struct marker_name, or NULL.
 */
struct marker_name *marker_find_name(const char *key)
{
	struct marker_name *mn;

	lockdep_assert_held(&marker_mutex);
	hash_for_each_possible(marker_name_table, mn, hnode, marker_key_hash(key))
		if (!strcmp(mn->key, key))
			return mn;
	return NULL;
}

/**
 * marker_alloc_name - a new name, with neither site nor probe
 * @key: a marker name, or an SDT "provider:name"
 *
 * Not in the registry until marker_insert_name().
 *
 * Return: the name, or NULL without memory.
 */
struct marker_name *marker_alloc_name(const char *key)
{
	size_t len = strlen(key) + 1;
	struct marker_name *mn;

	mn = kzalloc(struct_size(mn, key, len), GFP_KERNEL);
	if (!mn)
		return NULL;
	memcpy(mn->key, key, len);
	INIT_LIST_HEAD(&mn->sites);
	return mn;
}

/**
 * marker_insert_name - add a name from marker_alloc_name() to the registry
 * @mn: the name, whose key the registry does not know yet
 *
 * Under marker_mutex.
 */
void marker_insert_name(struct marker_name *mn)
{
	lockdep_assert_held(&marker_mutex);
	hash_add(marker_name_table, &mn->hnode, marker_key_hash(mn->key));
	list_add_tail(&mn->list, &marker_names);
}

/**
 * marker_get_name - look a key up, creating its name if needed
 * @key: a marker name, or an SDT "provider:name"
 *
 * Under marker_mutex. A name created here has no site and no probe.
 *
 * Return: the name, or NULL without memory.
 */
struct marker_name *marker_get_name(const char *key)
{
	struct marker_name *mn = marker_find_name(key);

	if (!mn) {
		mn = marker_alloc_name(key);
		if (mn)
			marker_insert_name(mn);
	}
	return mn;
}

/**
 * marker_lookup_sites - index the sites of keys a kind indexes when asked
 * @glob: a key, or a glob on keys
 *
 * Kinds whose sites the registry does not hold from their object's
 * coming (dynamic debug sites: a kernel has thousands) index those whose
 * keys match @glob, if not done yet (&struct marker_kind_ops.lookup), so
 * that they are sites of their names from now on, until their module
 * goes. What asks for a key first calls this: attaching a probe to it,
 * making its trace event, the control file. Takes marker_mutex.
 *
 * Return: 0 (also when no site matches), or the first error of a kind
 * (-ENOMEM, -E2BIG); the sites indexed before it stay indexed.
 */
int marker_lookup_sites(const char *glob)
{
	return marker_lookup_sites_at(glob, NULL);
}

/**
 * marker_lookup_sites_at - index the sites of keys, at a place in the source
 * @glob: a key, or a glob on keys
 * @at: where the sites are, or NULL: anywhere
 *
 * marker_lookup_sites(), for the sites at @at alone (the control file's
 * "file" and "line"). Takes marker_mutex.
 *
 * Return: as marker_lookup_sites().
 */
int marker_lookup_sites_at(const char *glob, const struct marker_place *at)
{
	const struct marker_kind_ops *ops;
	unsigned int k;
	int ret;

	for (k = 0; k < MARKER_NR_KINDS; k++) {
		ops = marker_kinds[k];
		if (!ops || !ops->lookup)
			continue;
		ret = ops->lookup(glob, at);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * marker_put_name - forget a name that has neither sites nor probes
 * @mn: the name; left alone while it has a site or a probe
 *
 * Under marker_mutex.
 */
void marker_put_name(struct marker_name *mn)
{
	lockdep_assert_held(&marker_mutex);
	if (mn->nr_sites || mn->probes)
		return;
	hash_del(&mn->hnode);
	list_del(&mn->list);
	kfree(mn);
}

/**
 * marker_walk_names - call a function for each name the registry knows
 * @fn: called with @ctx and each name (those with sites, and the pending
 *	ones), under marker_mutex, rescheduling between names
 * @ctx: passed to @fn
 *
 * Return: 0, or the first non-zero return of @fn, which stops the walk.
 */
int marker_walk_names(marker_name_fn *fn, void *ctx)
{
	struct marker_name *mn;
	int ret = 0;

	mutex_lock(&marker_mutex);
	list_for_each_entry(mn, &marker_names, list) {
		ret = fn(ctx, mn);
		if (ret)
			break;
		cond_resched();
	}
	mutex_unlock(&marker_mutex);
	return ret;
}

/**
 * marker_name_in_module - has a name a site in a module?
 * @mn: the name
 * @module: the module's name, or "vmlinux" for the built-in sites
 *
 * Under marker_mutex.
 *
 * Return: true if one of @mn's sites is in @module.
 */
bool marker_name_in_module(struct marker_name *mn, const char *module)
{
	struct marker_entry *e;

	for_each_marker_site(e, mn)
		if (!strcmp(marker_object_name(e->obj), module))
			return true;
	return false;
}

/**
 * marker_name_at - has a name a site at a place in the source?
 * @mn: the name
 * @at: the place: a file, lines or both
 *
 * Under marker_mutex. Only kinds that know their sites' places have
 * sites at any (&struct marker_kind_ops.at).
 *
 * Return: true if one of @mn's sites is at @at.
 */
bool marker_name_at(struct marker_name *mn, const struct marker_place *at)
{
	const struct marker_kind_ops *ops;
	struct marker_entry *e;

	lockdep_assert_held(&marker_mutex);
	for_each_marker_site(e, mn) {
		ops = marker_kind_of(e->site);
		if (ops->at && ops->at(e, at))
			return true;
	}
	return false;
}

/**
 * marker_key_no_event - why a key has no trace event
 * @key: a marker name, or an SDT "provider:name"
 *
 * Takes marker_mutex.
 *
 * Return: -ENOENT, it has no site; 0, its sites record nothing (guards,
 * or sites in freed init text); -EPERM, they disagree or cannot be
 * printed.
 */
int marker_key_no_event(const char *key)
{
	struct marker_name *mn;
	const char *why = NULL;
	int ret = -ENOENT;

	mutex_lock(&marker_mutex);
	mn = marker_find_name(key);
	if (mn && mn->nr_sites) {
		marker_name_event_format(mn, &why);
		ret = why ? -EPERM : 0;
	}
	mutex_unlock(&marker_mutex);
	return ret;
}

/**
 * marker_name_event_format - the format of a name's trace event
 * @mn: the name
 * @why: set to why there is none, in one word for the listing; NULL if
 *	 there is one, or if @mn has no site that records
 *
 * Under marker_mutex. The format is that of @mn's MARK() sites, or its
 * first SDT site's spec; sites in freed init text and guards are left
 * out. Each site's mechanism says whether it can share the event
 * (&struct marker_kind_ops.event_why).
 *
 * Return: the format, or NULL when no site records, when the sites
 * disagree (on the format, on an SDT argument count) or when vsnprintf()
 * cannot print it.
 */
const char *marker_name_event_format(struct marker_name *mn, const char **why)
{
	const struct marker_kind_ops *ops;
	const char *fmt = NULL, *f;
	struct marker_entry *e;

	*why = NULL;
	for_each_marker_site(e, mn) {
		ops = marker_kind_of(e->site);
		if (e->gone || !ops->event_why)
			continue;
		f = marker_site_format(e->site);
		*why = ops->event_why(fmt, f);
		if (*why)
			return NULL;
		if (!fmt)
			fmt = f;
	}
	return fmt;
}

/* --- Sites ------------------------------------------------------------ */

/*
 * Whether a site takes a probe depends on its kind and its format alone
 * (&struct marker_kind_ops.accepts), and the copies of a site share one
 * format string, which a walk over a name's sites meets in a row. A walk
 * asking one question of every site keeps the last answer in a struct
 * marker_accepts_memo, zeroed before it, and asks the mechanism once per
 * run of copies. Under marker_mutex: no format goes away during a walk.
 */
static bool marker_memo_has(const struct marker_accepts_memo *memo,
			    const struct marker_site *site)
{
	return memo && memo->fmt && memo->fmt == marker_site_format(site) &&
	       memo->kind == site->kind;
}

static bool marker_memo_set(struct marker_accepts_memo *memo,
			    const struct marker_site *site, bool ok)
{
	if (memo) {
		memo->fmt = marker_site_format(site);
		memo->kind = site->kind;
		memo->ok = ok;
	}
	return ok;
}

/**
 * marker_site_accepts_probe - does a site take what a probe expects?
 * @site: the site
 * @p: the probe, with its format or argument count
 * @memo: the memo of a walk that asks about @p only (see above), or NULL
 *
 * Return: what the site's mechanism says (&struct marker_kind_ops.accepts).
 */
bool marker_site_accepts_probe(const struct marker_site *site,
			       const struct marker_probe *p,
			       struct marker_accepts_memo *memo)
{
	if (marker_memo_has(memo, site))
		return memo->ok;
	return marker_memo_set(memo, site, marker_kind_of(site)->accepts(site, p));
}

/**
 * marker_site_accepts - does a site take what each of some probes expects?
 * @site: the site
 * @probes: the probes
 * @memo: the memo of a walk that asks about @probes only, or NULL
 *
 * Return: true if it takes every one of them.
 */
bool marker_site_accepts(const struct marker_site *site,
			 const struct marker_probes *probes,
			 struct marker_accepts_memo *memo)
{
	unsigned int i;

	if (marker_memo_has(memo, site))
		return memo->ok;
	for (i = 0; i < probes->nr; i++)
		if (!marker_site_accepts_probe(site, &probes->probe[i], NULL))
			return marker_memo_set(memo, site, false);
	return marker_memo_set(memo, site, true);
}

/**
 * marker_entry_armed - does a site call probes?
 * @e: the site
 *
 * Under marker_mutex. A gone site never does.
 *
 * Return: what its mechanism says (&struct marker_kind_ops.armed).
 */
bool marker_entry_armed(const struct marker_entry *e)
{
	return !e->gone && marker_kind_of(e->site)->armed(e);
}

/**
 * marker_warn_site - warn about a site
 * @e: the site
 * @fmt: the message, after "key at function+off/size: "
 *
 * Never with a raw address: a site in freed init text is named by its
 * object instead.
 */
void marker_warn_site(const struct marker_entry *e, const char *fmt, ...)
{
	unsigned long code = (unsigned long)marker_site_code(e->site);
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	/* Freed init text has no symbol left: never print a raw address. */
	if (kallsyms_lookup_size_offset(code, NULL, NULL))
		pr_warn("%s at %pS: %pV", e->mn->key, (void *)code, &vaf);
	else
		pr_warn("%s in %s: %pV", e->mn->key, marker_object_name(e->obj),
			&vaf);
	va_end(args);
}

/**
 * marker_update_site - point a site at probes, arming or disarming it
 * @e: the site; a gone site is left alone
 * @probes: its key's probes, or NULL for none
 * @warn: say so when the site does not take @probes (a site that arrives
 *	  with a module)
 * @memo: the memo of a walk that points sites at @probes, or NULL
 * @b: the batch of the change, which reserved what arming needs
 *
 * Under marker_mutex. A site that does not take @probes is left dormant.
 */
void marker_update_site(struct marker_entry *e, struct marker_probes *probes,
			bool warn, struct marker_accepts_memo *memo,
			struct marker_batch *b)
{
	const struct marker_site *site = e->site;

	lockdep_assert_held(&marker_mutex);
	if (e->gone)
		return;
	if (probes && !marker_site_accepts(site, probes, memo)) {
		if (warn)
			marker_warn_site(e, "\"%s\" does not match its probes; dormant\n",
					 marker_site_format(site));
		probes = NULL;
	}
	marker_kind_of(site)->update(e, probes, b);
}

/**
 * marker_update_name - point every site of a name at its probes
 * @mn: the name, whose probes were just published
 * @b: the batch of the change
 *
 * Under marker_mutex.
 */
void marker_update_name(struct marker_name *mn, struct marker_batch *b)
{
	struct marker_accepts_memo memo = {};
	struct marker_entry *e;

	for_each_marker_site(e, mn)
		marker_update_site(e, mn->probes, false, &memo, b);
}

/**
 * marker_reserve_name - reserve what arming a name's sites will need
 * @mn: the name
 * @probes: the probes it is about to have
 * @b: the batch of the change, which keeps the reservations
 * @gfp: how to allocate
 *
 * For the sites that take @probes, through each site's mechanism
 * (&struct marker_kind_ops.reserve): those not armed yet, and those whose
 * arming must be made anew for new probes (an SDT site's thunk where
 * there is no trampoline), so that publishing @probes cannot fail. Under
 * marker_mutex.
 *
 * Return: 0, or -ENOMEM; what was reserved stays in @b until
 * marker_batch_abort() or marker_batch_finish().
 */
int marker_reserve_name(struct marker_name *mn,
			const struct marker_probes *probes,
			struct marker_batch *b, gfp_t gfp)
{
	struct marker_accepts_memo memo = {};
	const struct marker_kind_ops *ops;
	struct marker_entry *e;
	int ret;

	for_each_marker_site(e, mn) {
		ops = marker_kind_of(e->site);
		if (!ops->reserve || !marker_site_accepts(e->site, probes, &memo))
			continue;
		ret = ops->reserve(e, b, gfp);
		if (ret)
			return ret;
	}
	return 0;
}

/* --- Text the registry patches, for kprobes ------------------------- */

/* Does [@start, @end] overlap text a mechanism patches? See below. */
static bool marker_reserved(unsigned long start, unsigned long end,
			    const struct kprobe *kp)
{
	const struct marker_kind_ops *ops;
	unsigned int k;

	for (k = 0; k < MARKER_NR_KINDS; k++) {
		ops = marker_kinds[k];
		if (ops && ops->text_reserved && ops->text_reserved(start, end, kp))
			return true;
	}
	return false;
}

/**
 * marker_text_reserved - does text overlap what the registry patches?
 * @start: the first byte
 * @end: the last byte
 *
 * For kprobes' optimizer, which must not copy or cover with a JMP the
 * CALLs of MARK() sites, patched at any time, nor SDT sites, which the
 * registry may patch into a CALL at any time. An SDT site that starts at
 * @start and that the registry arms with a kprobe is let through: that is
 * the registry's own kprobe being optimized, the only kprobe there can be
 * (marker_kprobe_reserved()). The jumps of MARK() sites are jump-label
 * entries, which kprobes keeps off already. Called with preemption
 * disabled.
 *
 * Return: 1 if they overlap, else 0.
 */
int marker_text_reserved(void *start, void *end)
{
	return marker_reserved((unsigned long)start, (unsigned long)end, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(marker_text_reserved);

/**
 * marker_kprobe_reserved - may a kprobe not go where it asks to?
 * @p: the kprobe being registered
 *
 * For register_kprobe(): no kprobe on the CALL of a MARK() site, nor on
 * an SDT site, dormant or armed, but the kprobe of the registry itself on
 * an SDT site it arms with one. Called with preemption disabled.
 *
 * Return: true if @p must be refused (-EBUSY).
 */
bool marker_kprobe_reserved(const struct kprobe *p)
{
	unsigned long a = (unsigned long)p->addr;

	return marker_reserved(a, a, p);
}
