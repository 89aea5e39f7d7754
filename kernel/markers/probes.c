// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: attaching and detaching probes.
 *
 * The probes of a key live in a copy-on-write array (struct marker_probes):
 * a change builds new arrays, publishes them to the key's sites and frees
 * the old ones after a grace period. marker_change() applies any number of
 * attachments and detachments, on any keys, all or nothing, under one hold
 * of marker_mutex and with one grace period in all; marker_add_probe() and
 * marker_remove_probe() are changes of one.
 *
 * A probe must be detached before the module holding its code or data goes
 * away. One that is not (an exit path that forgot it) is detached when that
 * module is GOING, with an error in the log, rather than left pointing
 * into freed memory.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/err.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "internal.h"

/* Can one site satisfy both @a and @b? */
static bool marker_probes_agree(const struct marker_probe *a,
				const struct marker_probe *b)
{
	if (a->format && b->format && !marker_format_match(a->format, b->format))
		return false;
	return a->nargs < 0 || b->nargs < 0 || a->nargs == b->nargs;
}

static int marker_probe_index(const struct marker_probes *probes,
			      const void *func, void *data)
{
	unsigned int i;

	for (i = 0; probes && i < probes->nr; i++)
		if ((const void *)probes->probe[i].func == func &&
		    probes->probe[i].data == data)
			return i;
	return -ENOENT;
}

/*
 * The one allocation of a probe array, with room for @room probes and
 * none used; a KUnit test can make it fail, unless it must not fail.
 */
VISIBLE_IF_KUNIT struct marker_probes *marker_alloc_probes(unsigned int room,
							   gfp_t gfp)
{
	struct marker_probes *probes;

	if (!(gfp & __GFP_NOFAIL))
		KUNIT_STATIC_STUB_REDIRECT(marker_alloc_probes, room, gfp);
	return kzalloc(struct_size(probes, probe, room), gfp);
}
EXPORT_SYMBOL_IF_KUNIT(marker_alloc_probes);

/* A copy of a probe's format, freed with the probe after a grace period. */
static const char *marker_fmt_dup(const char *fmt, gfp_t gfp)
{
	size_t len = strlen(fmt) + 1;
	struct marker_fmt *f;

	f = kmalloc(struct_size(f, str, len), gfp);
	if (!f)
		return NULL;
	memcpy(f->str, fmt, len);
	return f->str;
}

static void marker_fmt_free(const char *fmt)
{
	if (fmt)
		kfree(container_of(fmt, struct marker_fmt, str[0]));
}

/* One key's probes while a change is worked out: nothing is published. */
struct marker_work {
	struct list_head list;
	struct marker_name *mn;		/* the key's name, or a new one */
	bool new_name;			/* mn is not in the registry yet */
	struct marker_probes *probes;	/* the working copy */
	unsigned int room;
	unsigned int nr_new;		/* the last nr_new probes are new */
	struct list_head gone;		/* formats of detached probes */
};

/*
 * The work of @key in @works, made if needed: NULL for want of memory, or
 * an error pointer (-ENOENT) when @create is false and @key has no probes.
 */
static struct marker_work *marker_work_get(struct list_head *works,
					   const char *key, bool create,
					   gfp_t gfp)
{
	struct marker_probes *old;
	struct marker_work *w;
	struct marker_name *mn;

	list_for_each_entry(w, works, list)
		if (!strcmp(w->mn->key, key))
			return w;
	mn = marker_find_name(key);
	if (!create && (!mn || !mn->probes))
		return ERR_PTR(-ENOENT);
	w = kzalloc(sizeof(*w), gfp);
	if (!w)
		return NULL;
	INIT_LIST_HEAD(&w->gone);
	w->mn = mn;
	if (!w->mn) {
		w->mn = marker_alloc_name(key);
		w->new_name = true;
	}
	old = w->mn ? w->mn->probes : NULL;
	w->room = old ? old->nr : 0;
	w->probes = marker_alloc_probes(w->room + 1, gfp);
	if (!w->mn || !w->probes) {
		if (w->new_name)
			kfree(w->mn);
		kfree(w->probes);
		kfree(w);
		return NULL;
	}
	w->room++;
	if (old) {
		/* nr first: it bounds probe[] (__counted_by) for FORTIFY_SOURCE. */
		w->probes->nr = old->nr;
		memcpy(w->probes->probe, old->probe, old->nr * sizeof(old->probe[0]));
	}
	list_add_tail(&w->list, works);
	return w;
}

/*
 * Add @np to @w, checked against its other probes and the key's sites:
 * -EEXIST, -EPERM or -ENOMEM, and @w unchanged, on error.
 */
static int marker_work_add(struct marker_work *w, const struct marker_probe *np,
			   gfp_t gfp)
{
	struct marker_accepts_memo memo = {};
	struct marker_probes *p = w->probes;
	struct marker_entry *e;
	const char *fmt = NULL;
	unsigned int i;

	if (marker_probe_index(p, np->func, np->data) >= 0)
		return -EEXIST;
	/* The probes of a name agree, so that a site can take them all. */
	for (i = 0; i < p->nr; i++)
		if (!marker_probes_agree(np, &p->probe[i]))
			return -EPERM;
	if (!w->new_name)
		for_each_marker_site(e, w->mn)
			if (!marker_site_accepts_probe(e->site, np, &memo))
				return -EPERM;
	if (p->nr == w->room) {
		p = marker_alloc_probes(w->room + 4, gfp);
		if (!p)
			return -ENOMEM;
		p->nr = w->room;
		memcpy(p->probe, w->probes->probe, w->room * sizeof(p->probe[0]));
		kfree(w->probes);
		w->probes = p;
		w->room += 4;
	}
	if (np->format) {
		fmt = marker_fmt_dup(np->format, gfp);
		if (!fmt)
			return -ENOMEM;
	}
	p->nr++;
	p->probe[p->nr - 1] = *np;
	p->probe[p->nr - 1].format = fmt;
	w->nr_new++;
	return 0;
}

/* Take (@func, @data) out of @w: 0, or -ENOENT. */
static int marker_work_remove(struct marker_work *w, const void *func,
			      void *data)
{
	struct marker_probes *p = w->probes;
	int i = marker_probe_index(p, func, data);
	struct marker_fmt *f;

	if (i < 0)
		return -ENOENT;
	if (i >= p->nr - w->nr_new) {
		/* Added by this change: never published. */
		marker_fmt_free(p->probe[i].format);
		w->nr_new--;
	} else if (p->probe[i].format) {
		f = container_of(p->probe[i].format, struct marker_fmt, str[0]);
		list_add_tail(&f->node, &w->gone);
	}
	memmove(p->probe + i, p->probe + i + 1,
		(p->nr - i - 1) * sizeof(p->probe[0]));
	p->nr--;
	return 0;
}

/*
 * Reserve what arming the sites of @w's key will need once its probes are
 * published: not only for a first probe, but for a detachment too, after
 * which a site that did not take the probes before may take those left.
 * 0, or -ENOMEM (not with __GFP_NOFAIL).
 */
static int marker_work_reserve(struct marker_work *w, struct marker_batch *b,
			       gfp_t gfp)
{
	if (w->new_name || !w->probes->nr)
		return 0;
	return marker_reserve_name(w->mn, w->probes, b, gfp);
}

/* Publish @w; cannot fail. */
static void marker_work_commit(struct marker_work *w, struct marker_batch *b)
{
	struct marker_name *mn = w->mn;
	struct marker_probes *old = mn->probes;

	if (!w->probes->nr) {
		kfree(w->probes);
		w->probes = NULL;
	}
	if (w->new_name)
		marker_insert_name(mn);
	mn->probes = w->probes;
	marker_update_name(mn, b);
	if (old)
		marker_batch_retire(b, old);
	list_splice_tail_init(&w->gone, &b->formats);
	marker_put_name(mn);
}

/* Forget @w, changing nothing. */
static void marker_work_abort(struct marker_work *w)
{
	unsigned int i;

	for (i = w->probes->nr - w->nr_new; i < w->probes->nr; i++)
		marker_fmt_free(w->probes->probe[i].format);
	kfree(w->probes);
	if (w->new_name)
		kfree(w->mn);
}

/**
 * marker_change - attach and detach probes, all or nothing
 * @ops: the changes, applied in order
 * @n: how many
 *
 * Each op attaches a probe to a key (the checks of marker_set_probe() and
 * sdt_set_probe() are the caller's) or detaches one. Either every op is
 * applied, or none is. All the sites concerned are updated under one hold
 * of marker_mutex; when a probe was detached, the call returns once no CPU
 * runs it any more, after one grace period in all.
 *
 * Return: 0; or -EEXIST for a probe attached twice, -EPERM for one that
 * does not agree with a site or another probe of its key, -ENOENT for
 * detaching one that is not attached, -ENOMEM. Nothing changes on error.
 * A change that only detaches does not fail for want of memory.
 */
int marker_change(const struct marker_op *ops, unsigned int n)
{
	struct marker_work *w, *tmp;
	struct marker_batch b;
	gfp_t gfp = GFP_KERNEL | __GFP_NOFAIL;
	LIST_HEAD(works);
	unsigned int i;
	int ret = 0;

	for (i = 0; i < n; i++)
		if (ops[i].add)
			gfp = GFP_KERNEL;
	/* Sites indexed when asked for: attaching asks. */
	for (i = 0; i < n && !ret; i++)
		if (ops[i].add)
			ret = marker_lookup_sites(ops[i].key);
	if (ret)
		return ret;
	marker_batch_init(&b);
	mutex_lock(&marker_mutex);
	for (i = 0; i < n && !ret; i++) {
		w = marker_work_get(&works, ops[i].key, ops[i].add, gfp);
		if (IS_ERR_OR_NULL(w))
			ret = w ? PTR_ERR(w) : -ENOMEM;
		else if (ops[i].add)
			ret = marker_work_add(w, &ops[i].probe, gfp);
		else
			ret = marker_work_remove(w, ops[i].probe.func,
						 ops[i].probe.data);
		if (!ops[i].add)
			b.wait = true;
	}
	list_for_each_entry(w, &works, list) {
		if (ret)
			break;
		ret = marker_work_reserve(w, &b, gfp);
	}
	list_for_each_entry_safe(w, tmp, &works, list) {
		if (ret)
			marker_work_abort(w);
		else
			marker_work_commit(w, &b);
		kfree(w);
	}
	if (!ret)
		marker_batch_apply(&b);
	mutex_unlock(&marker_mutex);
	if (ret) {
		marker_batch_abort(&b);
		return ret;
	}
	/* Wait for the CPUs that may still be running the detached probes. */
	marker_batch_finish(&b);
	return 0;
}

/**
 * marker_key_event_format - a copy of the format of a key's trace event
 * @key: a marker name, or an SDT "provider:name"
 *
 * What a client that reads a key's arguments as its trace event does
 * (kernel/markers/bpf.c) learns of them. Takes marker_mutex.
 *
 * Return: marker_name_event_format()'s format, copied, for kfree(); or
 * ERR_PTR(-ENOENT) when @key has no site, or none that records (guards,
 * sites in freed init text), -EPERM when its sites disagree or cannot be
 * printed, -ENOMEM.
 */
char *marker_key_event_format(const char *key)
{
	struct marker_name *mn;
	const char *fmt = NULL, *why = NULL;
	char *ret;
	int err;

	err = marker_lookup_sites(key);
	if (err)
		return ERR_PTR(err);
	mutex_lock(&marker_mutex);
	mn = marker_find_name(key);
	if (mn && mn->nr_sites)
		fmt = marker_name_event_format(mn, &why);
	if (fmt)
		ret = kstrdup(fmt, GFP_KERNEL) ?: ERR_PTR(-ENOMEM);
	else
		ret = ERR_PTR(why ? -EPERM : -ENOENT);
	mutex_unlock(&marker_mutex);
	return ret;
}

/**
 * marker_add_probe - attach a probe to a key
 * @key: a marker name, or an SDT "provider:name"
 * @np: the probe
 *
 * marker_change() of one attachment.
 *
 * Return: as marker_change(). Nothing changes on error.
 */
int marker_add_probe(const char *key, const struct marker_probe *np)
{
	struct marker_op op = { .key = key, .probe = *np, .add = true };

	return marker_change(&op, 1);
}

/**
 * marker_remove_probe - detach a probe from a key
 * @key: a marker name, or an SDT "provider:name"
 * @func: the probe's function
 * @data: its data
 *
 * marker_change() of one detachment: returns once no CPU runs the probe.
 *
 * Return: 0, or -ENOENT if it is not attached; does not fail for an
 * attached probe.
 */
int marker_remove_probe(const char *key, const void *func, void *data)
{
	struct marker_op op = {
		.key = key, .probe = { .func = (marker_probe_func *)func, .data = data },
	};

	return marker_change(&op, 1);
}

/* Does @p live in @mod: its function, or its data? */
static bool marker_probe_in(const struct marker_probe *p, struct module *mod)
{
	return within_module((unsigned long)p->func, mod) ||
	       within_module((unsigned long)p->data, mod);
}

/*
 * @mod is going: detach the probes it left attached, whose code or data
 * would be freed under the sites still calling them.
 */
static void marker_probes_going(struct module *mod)
{
	struct marker_name *mn, *tmp;
	struct marker_probes *old;
	struct marker_work w;
	struct marker_batch b;
	unsigned int i;

	marker_batch_init(&b);
	mutex_lock(&marker_mutex);
	list_for_each_entry_safe(mn, tmp, &marker_names, list) {
		old = mn->probes;
		for (i = 0; old && i < old->nr; i++)
			if (marker_probe_in(&old->probe[i], mod))
				break;
		if (!old || i == old->nr)
			continue;
		memset(&w, 0, sizeof(w));
		INIT_LIST_HEAD(&w.gone);
		w.mn = mn;
		w.room = old->nr;
		w.probes = marker_alloc_probes(w.room, GFP_KERNEL | __GFP_NOFAIL);
		for (i = 0; i < old->nr; i++) {
			if (marker_probe_in(&old->probe[i], mod)) {
				pr_err("module %s left probe %ps attached to %s; detaching it\n",
				       module_name(mod), old->probe[i].func, mn->key);
				b.wait = true;
				if (old->probe[i].format)
					list_add_tail(&container_of(old->probe[i].format,
								    struct marker_fmt,
								    str[0])->node, &w.gone);
				continue;
			}
			w.probes->nr++;
			w.probes->probe[w.probes->nr - 1] = old->probe[i];
		}
		marker_work_reserve(&w, &b, GFP_KERNEL | __GFP_NOFAIL);
		marker_work_commit(&w, &b);
	}
	marker_batch_apply(&b);
	mutex_unlock(&marker_mutex);
	marker_batch_finish(&b);
}

static int marker_probes_module_notify(struct notifier_block *nb,
				       unsigned long val, void *data)
{
	if (val == MODULE_STATE_GOING)
		marker_probes_going(data);
	return NOTIFY_DONE;
}

/*
 * Through the registry's chain: when a module with both sites and
 * leftover probes goes, its sites are out of the registry first.
 */
static struct notifier_block marker_probes_module_nb = {
	.notifier_call = marker_probes_module_notify,
};

static int __init marker_probes_init(void)
{
	return marker_register_module_notifier(&marker_probes_module_nb);
}
early_initcall(marker_probes_init);
