// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the objects whose sites the registry holds, vmlinux and
 * modules, as they come and go.
 *
 * vmlinux's sites are indexed at boot (marker_init()), a module's when it
 * is COMING and forgotten when it is GOING, from the one module notifier
 * of the registry, which then tells the registry's clients through its
 * own chain (marker_register_module_notifier()). Each mechanism keeps what
 * it needs of an object through the object ops of struct marker_kind_ops.
 *
 * Sites in init text (a module's init functions, vmlinux's __init code
 * and the __exit code of built-in code) live until that text is freed:
 * then they are "gone", never patched or probed again (modules at
 * MODULE_STATE_LIVE, vmlinux in marker_free_init_mem()).
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <kunit/visibility.h>
#include <asm/sections.h>

#include "internal.h"

static void marker_free_object(struct rcu_head *rcu)
{
	struct marker_object *obj = container_of(rcu, struct marker_object, rcu);
	const struct marker_kind_ops *ops;
	unsigned int k;

	for (k = 0; k < MARKER_NR_KINDS; k++) {
		ops = marker_kinds[k];
		if (ops && ops->object_free)
			ops->object_free(obj);
	}
	kfree(obj);
}

/*
 * Disarm the sites of @obj in @b, take them out of the name index, and
 * free @obj once marker_text_reserved() cannot see it any more.
 */
static void marker_del_object(struct marker_object *obj,
			      struct marker_batch *b)
{
	const struct marker_kind_ops *ops;
	struct marker_entry *e;
	unsigned int k;

	lockdep_assert_held(&marker_mutex);
	for (k = 0; k < MARKER_NR_KINDS; k++) {
		ops = marker_kinds[k];
		if (ops && ops->object_del)
			ops->object_del(obj, b);
	}
	for (e = obj->entry; e < obj->entry + obj->nr; e++) {
		if (!e->mn)
			continue;
		list_del(&e->name_node);
		e->mn->nr_sites--;
		marker_put_name(e->mn);
	}
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

	if (!e->site->desc)		/* an SDT site: no copies */
		return false;
	list_for_each_entry(p, &e->mn->sites, name_node) {
		if (p == e)
			break;
		if (p->obj == e->obj && p->site->desc &&
		    marker_site_desc(p->site) == marker_site_desc(e->site))
			return true;
	}
	return false;
}

/* Undo marker_add_object()'s setup of @obj, not yet in the registry. */
static void marker_free_new_object(struct marker_object *obj,
				   unsigned int nr_kinds)
{
	unsigned int k;

	for (k = 0; k < nr_kinds; k++)
		if (marker_kinds[k] && marker_kinds[k]->object_init &&
		    marker_kinds[k]->object_free)
			marker_kinds[k]->object_free(obj);
	kfree(obj);
}

/*
 * Add the sites [@start, @stop) of @mod (NULL: vmlinux) to the registry and
 * arm those whose names have probes: 0, -EINVAL for a record of a kind no
 * mechanism arms, or -ENOMEM. Nothing changes on error.
 */
static int marker_add_object(struct module *mod,
			     const struct marker_site *start,
			     const struct marker_site *stop)
{
	unsigned int i, k, nr = stop - start;
	const struct marker_kind_ops *ops;
	struct marker_object *obj;
	struct marker_entry *e;
	struct marker_batch b;
	int ret;

	/*
	 * A record of a kind this kernel has no mechanism for (unknown, or
	 * whose mechanism did not register): refuse the object, whose sites
	 * could not be armed.
	 */
	for (i = 0; i < nr; i++) {
		k = start[i].kind;
		if (k < MARKER_NR_KINDS && marker_kinds[k])
			continue;
		pr_err("%s: site %u has kind %u, which no mechanism arms\n",
		       mod ? mod->name : "vmlinux", i, k);
		return -EINVAL;
	}
	obj = kzalloc(struct_size(obj, entry, nr), GFP_KERNEL);
	if (!obj)
		return -ENOMEM;
	obj->mod = mod;
	/* Not the object's own __markers: records a mechanism made. */
	obj->made = start != (mod ? mod->markers : __start___markers);
	obj->nr = nr;
	for (k = 0; k < MARKER_NR_KINDS; k++) {
		ops = marker_kinds[k];
		ret = ops && ops->object_init ? ops->object_init(obj) : 0;
		if (ret) {
			marker_free_new_object(obj, k);
			return ret;
		}
	}
	/* What marker_text_reserved() reads, set before it can see @obj. */
	for (i = 0; i < nr; i++) {
		e = &obj->entry[i];
		e->site = &start[i];
		e->obj = obj;
		e->init = marker_code_in_init(marker_site_code(e->site), mod);
	}

	marker_batch_init(&b);
	mutex_lock(&marker_mutex);
	list_add_tail_rcu(&obj->list, &marker_objects);
	for (k = 0; k < MARKER_NR_KINDS; k++) {
		ops = marker_kinds[k];
		if (ops && ops->object_add)
			ops->object_add(obj);
	}
	for (i = 0; i < nr; i++) {
		e = &obj->entry[i];
		e->mn = marker_get_name(marker_site_name(e->site));
		if (!e->mn)
			goto fail;
		list_add_tail(&e->name_node, &e->mn->sites);
		e->mn->nr_sites++;
	}
	/* Arming the sites whose names have probes must not fail midway. */
	for (e = obj->entry; e < obj->entry + nr; e++) {
		ops = marker_kind_of(e->site);
		if (e->mn->probes && ops->reserve &&
		    ops->reserve(e, &b, GFP_KERNEL))
			goto fail;
	}
	for (e = obj->entry; e < obj->entry + nr; e++) {
		if (e->mn->probes)
			marker_update_site(e, e->mn->probes, !marker_copy_seen(e),
					   NULL, &b);
		cond_resched();
	}
	marker_batch_apply(&b);
	mutex_unlock(&marker_mutex);
	marker_batch_finish(&b);
	return 0;

fail:
	/* Nothing is armed yet: this disarms nothing and patches nothing. */
	marker_del_object(obj, &b);
	marker_batch_abort(&b);
	mutex_unlock(&marker_mutex);
	return -ENOMEM;
}

/**
 * marker_add_made_object - add sites whose records a mechanism made
 * @mod: their module, which stays live while this runs; NULL: vmlinux
 * @start: the records, of one kind, whose strings stay until the
 *	   kind's object_free op
 * @stop: past the last
 *
 * For a kind that indexes its sites only when their keys are asked for
 * (&struct marker_kind_ops.lookup): the sites are an object of their own,
 * which goes with its module, and are armed if their names have probes.
 * Without marker_mutex.
 *
 * Return: 0, or -EINVAL or -ENOMEM; nothing changes on error.
 */
int marker_add_made_object(struct module *mod, const struct marker_site *start,
			   const struct marker_site *stop)
{
	return marker_add_object(mod, start, stop);
}

/* The module's own object comes first: made objects come after it. */
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
 * there are gone. The mechanisms disarm what they must; then the sites
 * are never patched again, no longer reserved against kprobes, and no
 * longer count as armed.
 */
static void marker_init_text_gone(struct module *mod)
{
	const struct marker_kind_ops *ops;
	struct marker_object *obj;
	struct marker_entry *e;
	struct marker_batch b;
	unsigned int k;

	marker_batch_init(&b);
	mutex_lock(&marker_mutex);
	obj = marker_find_object(mod);
	if (obj) {
		for (k = 0; k < MARKER_NR_KINDS; k++) {
			ops = marker_kinds[k];
			if (ops && ops->init_gone)
				ops->init_gone(obj, &b);
		}
		for (e = obj->entry; e < obj->entry + obj->nr; e++)
			if (e->init)
				WRITE_ONCE(e->gone, true);
	}
	marker_batch_apply(&b);
	mutex_unlock(&marker_mutex);
	marker_batch_finish(&b);
}

static void marker_module_going(struct module *mod)
{
	struct marker_object *obj;
	struct marker_batch b;

	marker_batch_init(&b);
	mutex_lock(&marker_mutex);
	obj = marker_find_object(mod);
	/*
	 * The mechanisms disarm what must be before its text goes; the
	 * probes stay registered (pending, if no other object has that name).
	 */
	if (obj)
		marker_del_object(obj, &b);
	marker_batch_apply(&b);
	mutex_unlock(&marker_mutex);
	/* The kprobes go before the text does: wait here. */
	marker_batch_finish(&b);
}

/* The objects made of @mod's sites when asked for go with it. */
static void marker_made_going(struct module *mod)
{
	struct marker_object *obj, *next;
	struct marker_batch b;

	marker_batch_init(&b);
	mutex_lock(&marker_mutex);
	list_for_each_entry_safe(obj, next, &marker_objects, list)
		if (obj->mod == mod && obj->made)
			marker_del_object(obj, &b);
	marker_batch_apply(&b);
	mutex_unlock(&marker_mutex);
	marker_batch_finish(&b);
}

/*
 * The registry's clients that follow modules (probes.c, the trace events,
 * the control file), told once the registry has: see
 * marker_register_module_notifier().
 */
static BLOCKING_NOTIFIER_HEAD(marker_module_chain);

/**
 * marker_register_module_notifier - follow modules after the registry
 * @nb: the notifier; its priority orders it among the registry's clients
 *
 * @nb is called with MODULE_STATE_COMING once a coming module's sites are
 * in the registry (and armed where their names have probes; not if the
 * registry refused the module), with MODULE_STATE_LIVE once its init
 * text's sites are gone, and with MODULE_STATE_GOING once a going
 * module's sites are out of it, for every module, with or without sites.
 * The data is the struct module. Called from early or late initcalls of
 * the registry's clients, which are never modules.
 *
 * Return: 0.
 */
int marker_register_module_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&marker_module_chain, nb);
}

static int marker_module_notify(struct notifier_block *nb,
				unsigned long val, void *data)
{
	struct module *mod = data;
	int ret = 0;

	switch (val) {
	case MODULE_STATE_COMING:
		if (mod->num_markers)
			ret = marker_add_object(mod, mod->markers,
						mod->markers + mod->num_markers);
		if (ret)
			return notifier_from_errno(ret);
		break;
	case MODULE_STATE_LIVE:
		if (mod->num_markers)
			marker_init_text_gone(mod);
		break;
	case MODULE_STATE_GOING:
		if (mod->num_markers)
			marker_module_going(mod);
		marker_made_going(mod);
		break;
	default:
		return NOTIFY_DONE;
	}
	blocking_notifier_call_chain(&marker_module_chain, val, mod);
	return NOTIFY_OK;
}

static struct notifier_block marker_module_nb = {
	.notifier_call = marker_module_notify,
	/*
	 * Below jump_label's (1): the module's static keys must be set up
	 * before a coming module's sites are armed. The registry's clients
	 * follow through marker_module_chain, after it.
	 */
	.priority = 0,
};

static int __init marker_init(void)
{
	int ret;

	ret = marker_add_object(NULL, __start___markers, __stop___markers);
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
