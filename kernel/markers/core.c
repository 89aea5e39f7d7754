// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the registry of sites, indexed by name, and the module
 * notifier.
 *
 * Sites come from the __markers section of vmlinux and of each module
 * (one struct marker_site per copy of a site, <linux/marker_site.h>). Each
 * object's sites are indexed by name: a struct marker_name per key (a
 * marker name, or an SDT "provider:name") lists its sites across objects
 * and holds the key's probes (probes.c). marker_update_name() points every
 * site of a key at its probes: mark.c arms MARK() and guard sites, sdt.c
 * SDT sites.
 *
 * Sites in init text (a module's init functions, vmlinux's __init code)
 * live until that text is freed: then they are "gone", never patched or
 * probed again (modules at MODULE_STATE_LIVE, vmlinux in
 * marker_free_init_mem()).
 *
 * What one change disarms is collected in a struct marker_batch and
 * finished by marker_batch_finish() once marker_mutex is dropped: one
 * grace period for all of it.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/hashtable.h>
#include <linux/init.h>
#include <linux/jhash.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mutex.h>
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
 * inside it; SDT symbol lookups take module_mutex inside it. Nothing takes
 * marker_mutex with any of those held. The control file's mutex nests
 * outside marker_mutex. Grace periods are waited for after marker_mutex is
 * dropped (marker_batch_finish()).
 */
DEFINE_MUTEX(marker_mutex);
LIST_HEAD(marker_objects);
LIST_HEAD(marker_names);

#define MARKER_HASH_BITS	10
static DEFINE_HASHTABLE(marker_name_table, MARKER_HASH_BITS);
/* Every CALL of a MARK() site, by address, for __marker_slowpath(). */

/* --- Names ------------------------------------------------------------ */

static u32 marker_key_hash(const char *key)
{
	return jhash(key, strlen(key), 0);
}

/* See internal.h. */
struct marker_name *marker_find_name(const char *key)
{
	struct marker_name *mn;

	lockdep_assert_held(&marker_mutex);
	hash_for_each_possible(marker_name_table, mn, hnode, marker_key_hash(key))
		if (!strcmp(mn->key, key))
			return mn;
	return NULL;
}

/* See internal.h. */
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

/* See internal.h. */
void marker_insert_name(struct marker_name *mn)
{
	lockdep_assert_held(&marker_mutex);
	hash_add(marker_name_table, &mn->hnode, marker_key_hash(mn->key));
	list_add_tail(&mn->list, &marker_names);
}

/* The name of @key, created (with no site and no probe) if needed. */
static struct marker_name *marker_get_name(const char *key)
{
	struct marker_name *mn = marker_find_name(key);

	if (!mn) {
		mn = marker_alloc_name(key);
		if (mn)
			marker_insert_name(mn);
	}
	return mn;
}

/* See internal.h. */
void marker_put_name(struct marker_name *mn)
{
	lockdep_assert_held(&marker_mutex);
	if (mn->nr_sites || mn->probes)
		return;
	hash_del(&mn->hnode);
	list_del(&mn->list);
	kfree(mn);
}

/* See internal.h. */
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

/* See internal.h. */
bool marker_name_in_module(struct marker_name *mn, const char *module)
{
	struct marker_entry *e;

	for_each_marker_site(e, mn)
		if (!strcmp(marker_object_name(e->obj), module))
			return true;
	return false;
}

/* See internal.h. */
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

/* See internal.h. */
const char *marker_name_event_format(struct marker_name *mn, const char **why)
{
	const char *fmt = NULL, *f;
	struct marker_entry *e;
	bool sdt = false;

	*why = NULL;
	for_each_marker_site(e, mn) {
		if (e->gone || e->site->kind == MARKER_KIND_GUARD)
			continue;
		f = marker_site_format(e->site);
		if (!fmt) {
			fmt = f;
			sdt = e->site->kind == MARKER_KIND_SDT;
			if (!sdt && marker_parse_format(fmt, NULL, 0) < 0) {
				*why = "format_not_printable";
				return NULL;
			}
			continue;
		}
		if (sdt && sdt_spec_nargs(f) != sdt_spec_nargs(fmt)) {
			*why = "sites_disagree_on_argument_count";
			return NULL;
		}
		if (!sdt && strcmp(f, fmt)) {
			*why = "sites_disagree_on_format";
			return NULL;
		}
	}
	return fmt;
}

/* --- Sites ------------------------------------------------------------ */

/* See internal.h. */
bool marker_site_accepts_probe(const struct marker_site *site,
			       const struct marker_probe *p)
{
	const char *fmt = marker_site_format(site);

	switch (site->kind) {
	case MARKER_KIND_MARK:
		/*
		 * A site whose format vsnprintf() cannot print takes no
		 * probe at all: a generic probe would hand it to vsnprintf().
		 */
		if (marker_parse_format(fmt, NULL, 0) < 0)
			return false;
		return !p->format || marker_format_match(p->format, fmt);
	case MARKER_KIND_SDT:
		return p->nargs < 0 || sdt_spec_nargs(fmt) == p->nargs;
	default:		/* MARK_ENABLED(), SDT_ENABLED(): any probe */
		return true;
	}
}

/* Does @site take what each of @probes expects? */
static bool marker_site_accepts(const struct marker_site *site,
				const struct marker_probes *probes)
{
	unsigned int i;

	for (i = 0; i < probes->nr; i++)
		if (!marker_site_accepts_probe(site, &probes->probe[i]))
			return false;
	return true;
}

/* See internal.h. */
bool marker_entry_armed(const struct marker_entry *e)
{
	if (e->gone)
		return false;
	if (e->site->kind == MARKER_KIND_SDT)
		return sdt_state(e, NULL) == SDT_CALL ||
		       sdt_state(e, NULL) == SDT_KPROBE ||
		       sdt_state(e, NULL) == SDT_OPTIMIZED;
	return rcu_access_pointer(marker_site_desc(e->site)->probes);
}

/* See internal.h. */
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

/*
 * Point @e at @probes (NULL: no probe), patching or arming it to match. A
 * site that does not take the probes is left dormant; @warn says so, for
 * a site that arrives with a module. A gone site is left alone.
 */
static void marker_update_site(struct marker_entry *e,
			       struct marker_probes *probes, bool warn,
			       struct marker_batch *b)
{
	const struct marker_site *site = e->site;

	lockdep_assert_held(&marker_mutex);
	if (e->gone)
		return;
	if (probes && !marker_site_accepts(site, probes)) {
		if (warn)
			marker_warn_site(e, "\"%s\" does not match its probes; dormant\n",
					 marker_site_format(site));
		probes = NULL;
	}
	if (site->kind != MARKER_KIND_SDT)
		mark_update_desc(e->obj, marker_site_desc(site),
				 site->kind == MARKER_KIND_GUARD, probes, b);
	else if (probes)
		sdt_arm(e, probes, b);
	else
		sdt_disarm(e, b);
}

/* See internal.h. */
void marker_update_name(struct marker_name *mn, struct marker_batch *b)
{
	struct marker_entry *e;

	for_each_marker_site(e, mn)
		marker_update_site(e, mn->probes, false, b);
}

/* See internal.h. */
int marker_reserve_name(struct marker_name *mn,
			const struct marker_probes *probes,
			struct marker_batch *b, gfp_t gfp)
{
	struct marker_entry *e;
	int ret;

	for_each_marker_site(e, mn) {
		if (e->site->kind != MARKER_KIND_SDT ||
		    !marker_site_accepts(e->site, probes))
			continue;
		ret = sdt_reserve(e, b, gfp);
		if (ret)
			return ret;
	}
	return 0;
}

/* --- Batches ---------------------------------------------------------- */

/* See internal.h. */
void marker_batch_init(struct marker_batch *b)
{
	INIT_LIST_HEAD(&b->dead_sdt);
	INIT_LIST_HEAD(&b->spare_sdt);
	INIT_LIST_HEAD(&b->retired);
	INIT_LIST_HEAD(&b->formats);
	INIT_LIST_HEAD(&b->promote);
	b->patches = NULL;
	b->npatches = 0;
	b->room = 0;
	b->wait = false;
}

/* See internal.h. */
void marker_batch_retire(struct marker_batch *b, struct marker_probes *old)
{
	list_add_tail(&old->retire, &b->retired);
}

/*
 * See internal.h. Does not fail: a change that has been checked must be
 * able to patch what it publishes.
 */
void marker_batch_patch(struct marker_batch *b, enum marker_insn what,
			void *code, void *dest)
{
	struct marker_patch *p;

	if (b->npatches == b->room) {
		b->room = max(2 * b->room, 64U);
		p = kvmalloc_array(b->room, sizeof(*p), GFP_KERNEL | __GFP_NOFAIL);
		if (b->npatches)
			memcpy(p, b->patches, b->npatches * sizeof(*p));
		kvfree(b->patches);
		b->patches = p;
	}
	p = &b->patches[b->npatches++];
	p->what = what;
	p->addr = code;
	p->dest = dest;
}

/* See internal.h. */
void marker_batch_apply(struct marker_batch *b)
{
	lockdep_assert_held(&marker_mutex);
	if (b->npatches)
		arch_marker_patch(b->patches, b->npatches);
	b->npatches = 0;
	mark_promote_prepare(b);
}

/* See internal.h. */
void marker_batch_finish(struct marker_batch *b)
{
	struct marker_probes *p, *tmp;
	struct marker_fmt *f, *ftmp;

	lockdep_assert_not_held(&marker_mutex);
	kvfree(b->patches);
	b->patches = NULL;
	/*
	 * One grace period for all: unregistering the kprobes of disarmed
	 * SDT sites waits for one, which also serves everything else.
	 */
	if (!sdt_reap(b) && b->wait)
		synchronize_rcu();
	mark_promote_finish(b);
	if (!b->wait) {
		/* Nothing was detached: nobody waits for the old arrays. */
		list_for_each_entry_safe(p, tmp, &b->retired, retire)
			kfree_rcu(p, rcu);
		return;
	}
	list_for_each_entry_safe(p, tmp, &b->retired, retire)
		kfree(p);
	list_for_each_entry_safe(f, ftmp, &b->formats, node)
		kfree(f);
}

/* --- Objects: vmlinux and modules ------------------------------------ */

static void marker_free_object(struct rcu_head *rcu)
{
	struct marker_object *obj = container_of(rcu, struct marker_object, rcu);

	kvfree(obj->calls);
	kfree(obj);
}

/*
 * Take the sites of @obj out of the name index, and free @obj once
 * marker_text_reserved() cannot see it any more.
 */
static void marker_del_object(struct marker_object *obj)
{
	struct marker_entry *e;

	lockdep_assert_held(&marker_mutex);
	for (e = obj->entry; e < obj->entry + obj->nr; e++) {
		if (!e->mn)
			continue;
		list_del(&e->name_node);
		e->mn->nr_sites--;
		marker_put_name(e->mn);
	}
	mark_unhash_calls(obj);
	mark_cancel_promotions(obj);
	list_del_rcu(&obj->list);
	call_rcu(&obj->rcu, marker_free_object);
}

/*
 * Is @e a further copy of a site already met in its object? The copies of
 * an expansion share its descriptor and its name.
 */
static bool marker_copy_seen(const struct marker_entry *e)
{
	const struct marker_entry *p;

	if (e->site->kind == MARKER_KIND_SDT)
		return false;
	list_for_each_entry(p, &e->mn->sites, name_node) {
		if (p == e)
			break;
		if (p->obj == e->obj && p->site->kind != MARKER_KIND_SDT &&
		    marker_site_desc(p->site) == marker_site_desc(e->site))
			return true;
	}
	return false;
}

/* Is the site in the init text of its object? */
static bool marker_site_in_init(const struct marker_site *site,
				struct module *mod)
{
	unsigned long code = (unsigned long)marker_site_code(site);

	return mod ? within_module_init(code, mod) : is_kernel_inittext(code);
}

/*
 * Add the sites [@start, @stop) of @mod (NULL: vmlinux) to the registry and
 * arm those whose names have probes. Nothing changes on error.
 */
static int marker_add_object(struct module *mod,
			     const struct marker_site *start,
			     const struct marker_site *stop,
			     const struct marker_call *calls,
			     const struct marker_call *calls_stop)
{
	unsigned int i, nr = stop - start;
	struct marker_object *obj;
	struct marker_entry *e;
	struct marker_batch b;

	obj = kzalloc(struct_size(obj, entry, nr), GFP_KERNEL);
	if (!obj)
		return -ENOMEM;
	obj->mod = mod;
	obj->nr = nr;
	if (mark_index_calls(obj, calls, calls_stop)) {
		kfree(obj);
		return -ENOMEM;
	}
	/* What marker_text_reserved() reads, set before it can see @obj. */
	for (i = 0; i < nr; i++) {
		e = &obj->entry[i];
		e->site = &start[i];
		e->obj = obj;
		e->init = marker_site_in_init(e->site, mod);
	}

	marker_batch_init(&b);
	mutex_lock(&marker_mutex);
	list_add_tail_rcu(&obj->list, &marker_objects);
	mark_hash_calls(obj);
	for (i = 0; i < nr; i++) {
		e = &obj->entry[i];
		e->mn = marker_get_name(marker_site_name(e->site));
		if (!e->mn) {
			marker_del_object(obj);
			mutex_unlock(&marker_mutex);
			return -ENOMEM;
		}
		list_add_tail(&e->name_node, &e->mn->sites);
		e->mn->nr_sites++;
	}
	/* Arming the sites whose names have probes must not fail midway. */
	for (e = obj->entry; e < obj->entry + nr; e++) {
		if (e->mn->probes && e->site->kind == MARKER_KIND_SDT &&
		    sdt_reserve(e, &b, GFP_KERNEL)) {
			sdt_unreserve(&b);
			marker_del_object(obj);
			mutex_unlock(&marker_mutex);
			return -ENOMEM;
		}
	}
	for (e = obj->entry; e < obj->entry + nr; e++) {
		if (e->mn->probes)
			marker_update_site(e, e->mn->probes, !marker_copy_seen(e), &b);
		cond_resched();
	}
	marker_batch_apply(&b);
	mutex_unlock(&marker_mutex);
	marker_batch_finish(&b);
	return 0;
}

static struct marker_object *marker_find_object(struct module *mod)
{
	struct marker_object *obj;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry(obj, &marker_objects, list)
		if (obj->mod == mod)
			return obj;
	return NULL;
}

/*
 * The init text of @mod (NULL: vmlinux) is about to be freed: its sites
 * there are gone. Disarm the SDT ones; jump_label no longer patches the
 * MARK() ones, and they stop counting as armed.
 */
static void marker_init_text_gone(struct module *mod)
{
	struct marker_object *obj;
	struct marker_entry *e;
	struct marker_batch b;

	marker_batch_init(&b);
	mutex_lock(&marker_mutex);
	obj = marker_find_object(mod);
	for (e = obj ? obj->entry : NULL; obj && e < obj->entry + obj->nr; e++) {
		if (!e->init || e->gone)
			continue;
		if (e->site->kind == MARKER_KIND_SDT)
			sdt_disarm(e, &b);
		/* No longer reserved against kprobes (sdt_text_reserved()). */
		WRITE_ONCE(e->gone, true);
	}
	if (obj)
		mark_init_calls_gone(obj);
	marker_batch_apply(&b);
	mutex_unlock(&marker_mutex);
	marker_batch_finish(&b);
}

static void marker_module_going(struct module *mod)
{
	struct marker_object *obj;
	struct marker_entry *e;
	struct marker_batch b;

	marker_batch_init(&b);
	mutex_lock(&marker_mutex);
	obj = marker_find_object(mod);
	if (obj) {
		/*
		 * Disarm its SDT sites before its text goes. Its MARK() sites
		 * and their descriptors go with the module; the probes stay
		 * registered (pending, if no other object has that name).
		 */
		for (e = obj->entry; e < obj->entry + obj->nr; e++)
			if (e->site->kind == MARKER_KIND_SDT)
				sdt_disarm(e, &b);
		marker_del_object(obj);
	}
	marker_batch_apply(&b);
	mutex_unlock(&marker_mutex);
	/* The kprobes go before the text does: wait here. */
	marker_batch_finish(&b);
}

static int marker_module_notify(struct notifier_block *nb,
				unsigned long val, void *data)
{
	struct module *mod = data;
	int ret = 0;

	if (!mod->num_markers)
		return NOTIFY_DONE;
	switch (val) {
	case MODULE_STATE_COMING:
		ret = marker_add_object(mod, mod->markers,
					mod->markers + mod->num_markers,
					mod->marker_calls,
					mod->marker_calls + mod->num_marker_calls);
		break;
	case MODULE_STATE_LIVE:
		marker_init_text_gone(mod);
		break;
	case MODULE_STATE_GOING:
		marker_module_going(mod);
		break;
	}
	return notifier_from_errno(ret);
}

static struct notifier_block marker_module_nb = {
	.notifier_call = marker_module_notify,
	/*
	 * Below jump_label's (1): the module's static keys must be set up
	 * before a coming module's sites are armed. Clients of the registry
	 * that watch modules (probes.c, the control file) sit below this one.
	 */
	.priority = 0,
};

static int __init marker_init(void)
{
	int ret = marker_add_object(NULL, __start___markers, __stop___markers,
				    __start___marker_calls, __stop___marker_calls);

	if (ret)
		pr_err("cannot index the sites of vmlinux: %d\n", ret);
	/* Sites in init text, like any __init code's: gone after boot. */
	MARK(markers_init, "sites %td error %d",
	     __stop___markers - __start___markers, ret);
	SDT_PROBE(markers, init, ret);
	return register_module_notifier(&marker_module_nb);
}
early_initcall(marker_init);

/* system_state when vmlinux's init sites went, for the KUnit suites. */
VISIBLE_IF_KUNIT int marker_init_gone_state = -1;
EXPORT_SYMBOL_IF_KUNIT(marker_init_gone_state);

/**
 * marker_free_init_mem - vmlinux's init sites go
 *
 * Called by kernel_init() once no init code can run any more (the async
 * init work is done), right before the init memory is freed, as kprobes'
 * kprobe_free_init_mem() is: the sites there are disarmed and no longer
 * patched, nor reserved against kprobes. Until then, init code still runs
 * them (prepare_namespace(), say).
 */
void __init marker_free_init_mem(void)
{
	marker_init_gone_state = system_state;
	marker_init_text_gone(NULL);
}
