// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the registry of marker sites and of the probes attached
 * to them by name, the hit path, and the module notifier.
 *
 * Sites come from the __markers section of vmlinux and of each module
 * (one struct marker_site per copy of a site, <linux/marker_site.h>). Each
 * object's sites are indexed by name: a struct marker_name per key (a
 * marker name, or an SDT "provider:name") lists its sites across objects,
 * and holds the key's probes in a copy-on-write array published under RCU
 * to every site of that key whose format matches them. A MARK() site's
 * static key is enabled while it has probes; SDT sites are armed by sdt.c.
 *
 * API overview:
 *
 *	marker_set_probe(name, format, probe, data)	attach to MARK() sites
 *	marker_disable_probe(name, probe, data)		detach, wait for it
 *	sdt_set_probe(provider, name, nargs, probe, data)  attach to SDT sites
 *	sdt_disable_probe(provider, name, probe, data)	detach, wait for it
 *
 * The control file (control.c) attaches its probes through
 * marker_add_probe() and marker_remove_probe(), and walks the names with
 * marker_walk_names(); see internal.h.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/ctype.h>
#include <linux/hashtable.h>
#include <linux/init.h>
#include <linux/jhash.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/string.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "internal.h"

/*
 * marker_mutex protects the registry: marker_objects, marker_names and the
 * name table, every marker_name's probes and sites, every marker_entry's
 * sdt pointer, and the probes pointer of every marker_desc (their readers,
 * the sites, use RCU instead).
 *
 * Lock nesting: marker_mutex is taken first. static_branch_enable(),
 * static_branch_disable(), register_kprobe() and unregister_kprobe() are
 * called with it held and take kprobe_mutex, cpus_read_lock(),
 * jump_label_mutex and text_mutex inside it; SDT symbol lookups take
 * module_mutex inside it. Nothing takes marker_mutex with any of those
 * held. The control file's mutex nests outside marker_mutex.
 */
DEFINE_MUTEX(marker_mutex);
LIST_HEAD(marker_objects);
LIST_HEAD(marker_names);

#define MARKER_HASH_BITS	10
static DEFINE_HASHTABLE(marker_name_table, MARKER_HASH_BITS);

/* --- Names ------------------------------------------------------------ */

/* A marker name, an SDT provider or an SDT name is a C identifier. */
static bool marker_name_valid(const char *name)
{
	size_t i;

	if (!name || !*name || isdigit(*name))
		return false;
	for (i = 0; name[i]; i++) {
		if (i >= MARKER_NAME_MAX || !(isalnum(name[i]) || name[i] == '_'))
			return false;
	}
	return true;
}

static u32 marker_key_hash(const char *key)
{
	return jhash(key, strlen(key), 0);
}

struct marker_name *marker_find_name(const char *key)
{
	struct marker_name *mn;

	lockdep_assert_held(&marker_mutex);
	hash_for_each_possible(marker_name_table, mn, hnode, marker_key_hash(key))
		if (!strcmp(mn->key, key))
			return mn;
	return NULL;
}

/* The name of @key, created (with no site and no probe) if needed. */
static struct marker_name *marker_get_name(const char *key)
{
	struct marker_name *mn = marker_find_name(key);
	size_t len;

	if (mn)
		return mn;
	len = strlen(key) + 1;
	mn = kzalloc(struct_size(mn, key, len), GFP_KERNEL);
	if (!mn)
		return NULL;
	memcpy(mn->key, key, len);
	INIT_LIST_HEAD(&mn->sites);
	hash_add(marker_name_table, &mn->hnode, marker_key_hash(key));
	list_add_tail(&mn->list, &marker_names);
	return mn;
}

/* Forget @mn once it has neither sites nor probes. */
static void marker_put_name(struct marker_name *mn)
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

/* --- Sites ------------------------------------------------------------ */

/* Does @site take what @p expects? */
static bool marker_site_accepts_probe(const struct marker_site *site,
				      const struct marker_probe *p)
{
	switch (site->kind) {
	case MARKER_KIND_MARK:
		return !p->format ||
		       marker_format_match(p->format, marker_site_format(site));
	case MARKER_KIND_SDT:
		return p->nargs < 0 ||
		       sdt_spec_nargs(marker_site_format(site)) == p->nargs;
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

/* Can one site satisfy both @a and @b? */
static bool marker_probes_agree(const struct marker_probe *a,
				const struct marker_probe *b)
{
	if (a->format && b->format && !marker_format_match(a->format, b->format))
		return false;
	return a->nargs < 0 || b->nargs < 0 || a->nargs == b->nargs;
}

/* See internal.h. */
bool marker_entry_armed(const struct marker_entry *e)
{
	if (e->site->kind == MARKER_KIND_SDT)
		return sdt_state(e, NULL) == SDT_KPROBE ||
		       sdt_state(e, NULL) == SDT_OPTIMIZED;
	return rcu_access_pointer(marker_site_desc(e->site)->probes);
}

/*
 * Point @e at @probes (NULL: no probe), patching or arming it to match. A
 * site that does not take the probes is left dormant; @warn says so, for
 * a site that arrives with a module.
 */
static void marker_update_site(struct marker_entry *e,
			       struct marker_probes *probes, bool warn)
{
	const struct marker_site *site = e->site;

	lockdep_assert_held(&marker_mutex);
	if (probes && !marker_site_accepts(site, probes)) {
		if (warn)
			pr_warn("%s at %pS: \"%s\" does not match the probes of that name; site stays dormant\n",
				marker_site_name(site), marker_site_code(site),
				marker_site_format(site));
		probes = NULL;
	}
	if (site->kind != MARKER_KIND_SDT)
		mark_update_desc(marker_site_desc(site), probes);
	else if (probes)
		sdt_arm(e, probes);
	else
		sdt_disarm(e);
}

static void marker_update_name(struct marker_name *mn)
{
	struct marker_entry *e;

	for_each_marker_site(e, mn)
		marker_update_site(e, mn->probes, false);
}

/* --- Attaching and detaching ---------------------------------------- */

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

/* The one allocation of a probe array; a KUnit test can make it fail. */
VISIBLE_IF_KUNIT struct marker_probes *marker_alloc_probes(unsigned int nr)
{
	struct marker_probes *probes;

	KUNIT_STATIC_STUB_REDIRECT(marker_alloc_probes, nr);
	probes = kzalloc(struct_size(probes, probe, nr), GFP_KERNEL);
	if (probes)
		probes->nr = nr;
	return probes;
}
EXPORT_SYMBOL_IF_KUNIT(marker_alloc_probes);

/*
 * Check @np against the probes and the sites of @mn (NULL: a new key):
 * 0, -EEXIST or -EPERM.
 */
static int marker_check_probe(struct marker_name *mn,
			      const struct marker_probe *np)
{
	struct marker_entry *e;
	unsigned int i;

	if (!mn)
		return 0;
	if (marker_probe_index(mn->probes, np->func, np->data) >= 0)
		return -EEXIST;
	/* The probes of a name agree, so that a site can take them all. */
	for (i = 0; mn->probes && i < mn->probes->nr; i++)
		if (!marker_probes_agree(np, &mn->probes->probe[i]))
			return -EPERM;
	for_each_marker_site(e, mn)
		if (!marker_site_accepts_probe(e->site, np))
			return -EPERM;
	return 0;
}

/* See internal.h. Nothing changes on error. */
int marker_add_probe(const char *key, const struct marker_probe *np)
{
	struct marker_probes *old, *new;
	struct marker_name *mn;
	char *fmt = NULL;
	int ret;

	mutex_lock(&marker_mutex);
	mn = marker_find_name(key);
	ret = marker_check_probe(mn, np);
	if (ret)
		goto unlock;

	ret = -ENOMEM;
	old = mn ? mn->probes : NULL;
	new = marker_alloc_probes(old ? old->nr + 1 : 1);
	if (!new)
		goto unlock;
	if (np->format) {
		fmt = kstrdup(np->format, GFP_KERNEL);
		if (!fmt)
			goto free;
	}
	if (!mn) {
		mn = marker_get_name(key);
		if (!mn)
			goto free;
	}

	if (old)
		memcpy(new->probe, old->probe, old->nr * sizeof(old->probe[0]));
	new->probe[new->nr - 1] = *np;
	new->probe[new->nr - 1].format = fmt;
	mn->probes = new;
	marker_update_name(mn);
	if (old)
		kfree_rcu(old, rcu);
	mutex_unlock(&marker_mutex);
	return 0;

free:
	kfree(fmt);
	kfree(new);
unlock:
	mutex_unlock(&marker_mutex);
	return ret;
}

/* See internal.h. Does not fail for an attached probe. */
int marker_remove_probe(const char *key, const void *func, void *data)
{
	struct marker_probes *old, *new = NULL;
	struct marker_name *mn;
	const char *fmt;
	int i;

	mutex_lock(&marker_mutex);
	mn = marker_find_name(key);
	old = mn ? mn->probes : NULL;
	i = marker_probe_index(old, func, data);
	if (i < 0) {
		mutex_unlock(&marker_mutex);
		return -ENOENT;
	}
	if (old->nr > 1) {
		/*
		 * A probe module's exit path cannot handle a failure here,
		 * and the array is small: do not fail.
		 */
		new = kzalloc(struct_size(new, probe, old->nr - 1),
			      GFP_KERNEL | __GFP_NOFAIL);
		new->nr = old->nr - 1;
		memcpy(new->probe, old->probe, i * sizeof(old->probe[0]));
		memcpy(new->probe + i, old->probe + i + 1,
		       (old->nr - i - 1) * sizeof(old->probe[0]));
	}
	fmt = old->probe[i].format;
	mn->probes = new;
	marker_update_name(mn);
	marker_put_name(mn);
	mutex_unlock(&marker_mutex);

	/* Wait for the CPUs that may still be running the removed probe. */
	synchronize_rcu();
	kfree(old);
	kfree(fmt);
	return 0;
}

/**
 * marker_set_probe - attach a probe to every site of a marker name
 * @name: the marker name (the identifier given to MARK())
 * @format: the format the probe expects, or NULL to accept any site
 * @probe: the probe function
 * @probe_data: passed to @probe as its first argument
 *
 * Attach @probe to all sites named @name, now and in modules loaded later.
 * Probes of one name are called in the order they were attached. A name
 * with no site yet is accepted: the probe is pending until a module brings
 * such a site. A site arriving later whose format does not match stays
 * dormant (and is shown as "mismatch" in the listing).
 *
 * @format is compared with each site's format by argument types: the same
 * number of arguments, each of the same va_arg() class and size.
 *
 * The caller must call marker_disable_probe() before the module that holds
 * @probe or @probe_data goes away.
 *
 * Return: 0 on success; -EINVAL for a @name that is not a C identifier of
 * at most MARKER_NAME_MAX characters, a NULL @probe, or an empty or
 * unparsable @format; -EEXIST if (@probe, @probe_data) is already attached
 * to @name; -EPERM if @format does not match a site of @name or the format
 * of another probe of @name; -ENOMEM. Nothing changes on error.
 */
int marker_set_probe(const char *name, const char *format,
		     marker_probe_func *probe, void *probe_data)
{
	struct marker_probe np = {
		.func = probe, .data = probe_data, .format = format, .nargs = -1,
	};

	if (!marker_name_valid(name) || !probe)
		return -EINVAL;
	if (format && (!*format || marker_parse_format(format, NULL, 0) < 0))
		return -EINVAL;
	return marker_add_probe(name, &np);
}
EXPORT_SYMBOL_GPL(marker_set_probe);

/**
 * marker_disable_probe - detach a probe from a marker name
 * @name: the marker name
 * @probe: the probe function given to marker_set_probe()
 * @probe_data: the data given to marker_set_probe()
 *
 * Detach the probe; the sites of @name go back to NOPs when it was the
 * last one. Returns only after a grace period (synchronize_rcu()): no CPU
 * runs @probe any more, so its module may unload right after this.
 * Must be called from process context.
 *
 * Return: 0 on success; -EINVAL for a NULL @name or @probe; -ENOENT if
 * (@probe, @probe_data) is not attached to @name. Nothing changes on error.
 * Detaching an attached probe does not fail.
 */
int marker_disable_probe(const char *name, marker_probe_func *probe,
			 void *probe_data)
{
	if (!name || !probe)
		return -EINVAL;
	return marker_remove_probe(name, probe, probe_data);
}
EXPORT_SYMBOL_GPL(marker_disable_probe);

/* "provider:name" of an SDT probe in @buf (MARKER_KEY_MAX), or -EINVAL. */
static int sdt_key(char *buf, const char *provider, const char *name)
{
	if (!marker_name_valid(provider) || !marker_name_valid(name))
		return -EINVAL;
	snprintf(buf, MARKER_KEY_MAX, "%s:%s", provider, name);
	return 0;
}

/**
 * sdt_set_probe - attach a probe to every SDT site of a provider and name
 * @provider: the provider given to SDT_PROBE()
 * @name: the name given to SDT_PROBE()
 * @nargs: the number of arguments the probe expects, or -1 for any
 * @probe: the probe function
 * @probe_data: passed to @probe as its first argument
 *
 * As marker_set_probe(), for SDT sites: attach @probe to all sites of
 * @provider:@name, now and in modules loaded later, pending if there is
 * none yet. Each site is armed with a kprobe, optimized into a jump where
 * kprobes can; its arguments are decoded from registers and memory and
 * handed to @probe as 64-bit values, sign- or zero-extended as their sizes
 * say. A site whose operand spec does not decode, or whose kprobe is
 * refused, stays dormant and shows the error in the listing; the other
 * sites are armed all the same.
 *
 * The caller must call sdt_disable_probe() before the module that holds
 * @probe or @probe_data goes away.
 *
 * Return: 0 on success; -EINVAL for a @provider or @name that is not a C
 * identifier, a NULL @probe, or @nargs out of -1..SDT_MAX_ARGS; -EEXIST if
 * (@probe, @probe_data) is already attached; -EPERM if a site of that name
 * (or another probe) has another argument count than @nargs; -ENOMEM.
 * Nothing changes on error.
 */
int sdt_set_probe(const char *provider, const char *name, int nargs,
		  sdt_probe_func *probe, void *probe_data)
{
	struct marker_probe np = {
		.sdt_func = probe, .data = probe_data, .nargs = nargs,
	};
	char key[MARKER_KEY_MAX];

	if (sdt_key(key, provider, name) || !probe ||
	    nargs < -1 || nargs > SDT_MAX_ARGS)
		return -EINVAL;
	return marker_add_probe(key, &np);
}
EXPORT_SYMBOL_GPL(sdt_set_probe);

/**
 * sdt_disable_probe - detach a probe from the SDT sites of a name
 * @provider: the provider given to sdt_set_probe()
 * @name: the name given to sdt_set_probe()
 * @probe: the probe function given to sdt_set_probe()
 * @probe_data: the data given to sdt_set_probe()
 *
 * As marker_disable_probe(): the sites' kprobes are unregistered when this
 * was the last probe, and the call returns only once no CPU runs @probe.
 *
 * Return: 0 on success; -EINVAL for a bad @provider, @name or @probe;
 * -ENOENT if the probe is not attached. Nothing changes on error.
 */
int sdt_disable_probe(const char *provider, const char *name,
		      sdt_probe_func *probe, void *probe_data)
{
	char key[MARKER_KEY_MAX];

	if (sdt_key(key, provider, name) || !probe)
		return -EINVAL;
	return marker_remove_probe(key, probe, probe_data);
}
EXPORT_SYMBOL_GPL(sdt_disable_probe);

/* --- Objects: vmlinux and modules ------------------------------------ */

/* Take the sites of @obj out of the name index, and free @obj. */
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
	list_del(&obj->list);
	kfree(obj);
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

/*
 * Add the sites [@start, @stop) of @mod (NULL: vmlinux) to the registry and
 * arm those whose names have probes. Nothing changes on error.
 */
static int marker_add_object(struct module *mod,
			     const struct marker_site *start,
			     const struct marker_site *stop)
{
	unsigned int i, nr = stop - start;
	struct marker_object *obj;
	struct marker_entry *e;

	obj = kzalloc(struct_size(obj, entry, nr), GFP_KERNEL);
	if (!obj)
		return -ENOMEM;
	obj->mod = mod;
	obj->nr = nr;

	mutex_lock(&marker_mutex);
	list_add_tail(&obj->list, &marker_objects);
	for (i = 0; i < nr; i++) {
		e = &obj->entry[i];
		e->site = &start[i];
		e->obj = obj;
		e->mn = marker_get_name(marker_site_name(e->site));
		if (!e->mn) {
			marker_del_object(obj);
			mutex_unlock(&marker_mutex);
			return -ENOMEM;
		}
		list_add_tail(&e->name_node, &e->mn->sites);
		e->mn->nr_sites++;
	}
	for (e = obj->entry; e < obj->entry + nr; e++) {
		if (e->mn->probes)
			marker_update_site(e, e->mn->probes, !marker_copy_seen(e));
		cond_resched();
	}
	mutex_unlock(&marker_mutex);
	return 0;
}

static void marker_module_going(struct module *mod)
{
	struct marker_object *obj;
	struct marker_entry *e;

	mutex_lock(&marker_mutex);
	list_for_each_entry(obj, &marker_objects, list) {
		if (obj->mod != mod)
			continue;
		/*
		 * Disarm its SDT sites before its text goes. Its MARK() sites
		 * and their descriptors go with the module; the probes stay
		 * registered (pending, if no other object has that name).
		 */
		for (e = obj->entry; e < obj->entry + obj->nr; e++)
			if (e->site->kind == MARKER_KIND_SDT)
				sdt_disarm(e);
		marker_del_object(obj);
		break;
	}
	mutex_unlock(&marker_mutex);
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
	 * that watch modules (the control file) sit below this one.
	 */
	.priority = 0,
};

static int __init marker_init(void)
{
	int ret = marker_add_object(NULL, __start___markers, __stop___markers);

	if (ret)
		pr_err("cannot index the sites of vmlinux: %d\n", ret);
	return register_module_notifier(&marker_module_nb);
}
early_initcall(marker_init);
