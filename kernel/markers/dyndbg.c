// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: dynamic debug sites, a kind of site of the registry.
 *
 * Every pr_debug(), dev_dbg(), netdev_dbg() and ibdev_dbg() of vmlinux
 * and of modules (a struct _ddebug, lib/dynamic_debug.c) is a marker site
 * with the site's own format. Its key is
 *
 *	MODULE.FUNCTION		the first site of FUNCTION in its table
 *	MODULE.FUNCTION.N	the N-th, N >= 2
 *
 * with MODULE as dynamic debug names it (KBUILD_MODNAME, for built-in
 * code too): it stays the same across edits of other functions, and its
 * '.' keeps it apart from the other kinds' keys (C identifiers, SDT
 * "provider:name"). Sites of one key in several tables (static functions
 * of one name in built-in files of one KBUILD_MODNAME) are sites of one
 * name, as the copies of a MARK() are.
 *
 * The registry does not hold them from boot: a kernel has thousands, and
 * an entry of the registry takes more memory than the _ddebug itself. A
 * key's sites are indexed when it is first asked for (dyndbg_lookup(),
 * through marker_lookup_sites(): a probe attached to it, its trace event
 * enabled or made, the control file naming it), each with a struct
 * marker_site made for it, in an object of their own that goes with its
 * module. The listing shows every site, indexed or not (dyndbg_list()).
 * A probe attached to a key of a module that is not loaded is pending;
 * the module's sites of pending keys are indexed once it is live.
 *
 * A site is armed through its own static key: ddebug_set_marker() sets
 * _DPRINTK_FLAGS_MARKER, which keeps the key on whatever dynamic debug's
 * control file does with "p". __dynamic_pr_debug() and its variants call
 * marker_dyndbg_hit() with the site's arguments, before printing if "p"
 * is set. Probes get the site's format, the _ddebug's, and the arguments
 * after those of its pr_fmt() or dev_fmt() prefix, which the first hit
 * works out and the site keeps. A site whose function takes no descriptor
 * (print_hex_dump_debug()) takes no probe: arming its key would print.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/dynamic_debug.h>
#include <linux/glob.h>
#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/string_helpers.h>

#include "internal.h"

/* The most sites one lookup indexes. */
#define DYNDBG_LOOKUP_MAX	8192
/* The most arguments of a format's prefix that a hit skips. */
#define DYNDBG_SKIP_MAX		6

/* An indexed site: what its hits read, found by its _ddebug. */
struct dyndbg_site {
	struct hlist_node hnode;	/* in dyndbg_sites; RCU */
	struct _ddebug *dp;
	struct marker_probes __rcu *probes;	/* NULL: dormant */
	/*
	 * The format the site passes (its own after a prefix), once a hit
	 * has met it; then the classes of the prefix's arguments.
	 */
	const char *seen;
	u8 nskip;
	u8 skip[DYNDBG_SKIP_MAX];
	atomic_t faults;		/* hits that could not be decoded */
};

/*
 * The sites one lookup indexed in one module: their records, then their
 * state, then their keys and formats, in one allocation (a record's
 * offsets point into it). Freed with their object.
 */
struct dyndbg_block {
	struct dyndbg_site *dd;		/* nr of them */
	unsigned int nr;
	/*
	 * 8-aligned, so that the state after the records is: a record is
	 * 24 bytes, and arm64's store-release (rcu_assign_pointer() of a
	 * site's probes) faults on an address that is not.
	 */
	struct marker_site site[] __aligned(8);
};

/* Indexed sites by their _ddebug; changed under marker_mutex. */
#define DYNDBG_HASH_BITS	8
static DEFINE_HASHTABLE(dyndbg_sites, DYNDBG_HASH_BITS);

/* Serializes lookups, so that no site is indexed twice. */
static DEFINE_MUTEX(dyndbg_mutex);

/*
 * The block a lookup is adding reached the registry (object_add): from
 * then on the object's free frees it, after a grace period, also when
 * adding fails after that. Under dyndbg_mutex: the block itself may be
 * gone by the time the lookup looks.
 */
static bool dyndbg_block_added;

static notrace struct dyndbg_site *dyndbg_site_of(const struct _ddebug *dp)
{
	struct dyndbg_site *dd;

	hash_for_each_possible_rcu_notrace(dyndbg_sites, dd, hnode,
					   (unsigned long)dp)
		if (dd->dp == dp)
			return dd;
	return NULL;
}

/* --- Keys -------------------------------------------------------------- */

/*
 * The key of site @i of a table of @num, in @buf (MARKER_KEY_MAX): false
 * if too long. Its N counts the sites of its function above it in the
 * source (the compiler orders a function's sites in the table as it
 * likes); sites of one line by their order in the table.
 */
static bool dyndbg_key(char *buf, const char *modname, struct _ddebug *descs,
		       unsigned int num, unsigned int i)
{
	const char *fn = descs[i].function;
	unsigned int j, n = 1, line = descs[i].lineno;
	int len;

	for (j = 0; j < num; j++)
		n += (descs[j].lineno < line || (descs[j].lineno == line && j < i)) &&
		     (descs[j].function == fn || !strcmp(descs[j].function, fn));
	if (n == 1)
		len = snprintf(buf, MARKER_KEY_MAX, "%s.%s", modname, fn);
	else
		len = snprintf(buf, MARKER_KEY_MAX, "%s.%s.%u", modname, fn, n);
	return len < MARKER_KEY_MAX;
}

/* --- Indexing sites when their keys are asked for ----------------------- */

/*
 * A site a lookup found, to index: site @i of a table, which stays while
 * the lookup holds a reference on @mod (vmlinux's always stay).
 */
struct dyndbg_found {
	struct _ddebug *descs;
	const char *modname;
	struct module *mod;		/* a reference; NULL: vmlinux */
	unsigned int num, i;
};

struct dyndbg_lookup {
	const char *glob;
	const struct marker_place *at;	/* NULL: anywhere */
	struct dyndbg_found *found;
	unsigned int nr, room;
};

/*
 * The module of a table's sites, referenced, or NULL for vmlinux; an
 * error pointer for a module that is not live (coming: its sites are
 * indexed once it is; going). Under ddebug_lock, which keeps the table.
 */
static struct module *dyndbg_module_get(struct _ddebug *dp)
{
	struct module *mod;

	preempt_disable();
	mod = __module_address((unsigned long)dp);
	if (mod && (mod->state != MODULE_STATE_LIVE || !try_module_get(mod)))
		mod = ERR_PTR(-ENOENT);
	preempt_enable();
	return mod;
}

/*
 * A site's file without the source tree's path before it (a build in a
 * directory of its own has it), as dynamic debug shows the file.
 */
static const char *dyndbg_file(const char *path)
{
	size_t skip = strlen(__FILE__) - strlen("kernel/markers/dyndbg.c");

	return strncmp(path, __FILE__, skip) ? path : path + skip;
}

/*
 * Is the site at @at? Its file as the compiler had it, as dynamic debug
 * shows it, or the path's last part, as dynamic debug's "file" matches.
 */
static bool dyndbg_desc_at(const struct _ddebug *dp, const struct marker_place *at)
{
	if (at->file && !glob_match(at->file, dp->filename) &&
	    !glob_match(at->file, dyndbg_file(dp->filename)) &&
	    !glob_match(at->file, kbasename(dp->filename)))
		return false;
	return !at->first || (dp->lineno >= at->first && dp->lineno <= at->last);
}

/* Room for one more site in @l: 0, -E2BIG or -ENOMEM. */
static int dyndbg_found_room(struct dyndbg_lookup *l)
{
	struct dyndbg_found *f;
	unsigned int room;

	if (l->nr < l->room)
		return 0;
	if (l->room >= DYNDBG_LOOKUP_MAX)
		return -E2BIG;
	room = l->room ? 2 * l->room : 16;
	f = krealloc_array(l->found, room, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	l->found = f;
	l->room = room;
	return 0;
}

/* ddebug_walk_tables()'s function: collect a table's sites to index. */
static int dyndbg_collect(const char *modname, struct _ddebug *descs,
			  unsigned int num, void *arg)
{
	struct dyndbg_lookup *l = arg;
	char key[MARKER_KEY_MAX];
	struct module *mod = NULL;
	bool held = false, indexed;
	unsigned int i;
	int ret;

	for (i = 0; i < num; i++) {
		if ((descs[i].flags & _DPRINTK_FLAGS_NO_DESC) ||
		    (l->at && !dyndbg_desc_at(&descs[i], l->at)) ||
		    !dyndbg_key(key, modname, descs, num, i) || !glob_match(l->glob, key))
			continue;
		rcu_read_lock();
		indexed = dyndbg_site_of(&descs[i]);
		rcu_read_unlock();
		if (indexed)
			continue;
		if (!held) {
			mod = dyndbg_module_get(descs);
			if (IS_ERR(mod))
				return 0;	/* not live: none of its sites */
		} else if (mod) {
			/* One reference per site found: each drops its own. */
			__module_get(mod);
		}
		ret = dyndbg_found_room(l);
		if (ret) {
			module_put(mod);
			return ret;
		}
		held = true;
		l->found[l->nr++] = (struct dyndbg_found){
			.descs = descs, .modname = modname, .mod = mod,
			.num = num, .i = i,
		};
	}
	return 0;
}

/* Copy @s to *@p, and advance *@p past it: where it went. */
static char *dyndbg_put(char **p, const char *s)
{
	size_t len = strlen(s) + 1;
	char *at = *p;

	memcpy(at, s, len);
	*p += len;
	return at;
}

/*
 * Index the sites @f[0..@nr), all of one module, as one object: their
 * records, state and strings in one block.
 */
static int dyndbg_index(struct dyndbg_found *f, unsigned int nr)
{
	char key[MARKER_KEY_MAX];
	struct dyndbg_block *blk;
	struct marker_site *ms;
	struct _ddebug *dp;
	size_t size, strs = 0;
	unsigned int i;
	char *p;
	int ret;

	for (i = 0; i < nr; i++) {
		dyndbg_key(key, f[i].modname, f[i].descs, f[i].num, f[i].i);
		strs += strlen(key) + strlen(f[i].descs[f[i].i].format) + 2;
	}
	size = struct_size(blk, site, nr) + nr * sizeof(*blk->dd) + strs;
	blk = kzalloc(size, GFP_KERNEL);
	if (!blk)
		return -ENOMEM;
	blk->nr = nr;
	blk->dd = (struct dyndbg_site *)&blk->site[nr];
	p = (char *)&blk->dd[nr];
	for (i = 0; i < nr; i++) {
		dp = &f[i].descs[f[i].i];
		dyndbg_key(key, f[i].modname, f[i].descs, f[i].num, f[i].i);
		ms = &blk->site[i];
		ms->kind = MARKER_KIND_DYNDBG;
		ms->name = dyndbg_put(&p, key) - (char *)&ms->name;
		ms->format = dyndbg_put(&p, dp->format) - (char *)&ms->format;
		blk->dd[i].dp = dp;
	}
	lockdep_assert_held(&dyndbg_mutex);
	dyndbg_block_added = false;
	ret = marker_add_made_object(f[0].mod, blk->site, blk->site + nr);
	if (ret && !dyndbg_block_added)
		kfree(blk);
	return ret;
}

/*
 * &struct marker_kind_ops.lookup: index the sites at @at whose keys match
 * @glob, if a '.' says it may be a key of ours or @at asks for places.
 */
static int dyndbg_lookup(const char *glob, const struct marker_place *at)
{
	struct dyndbg_lookup l = { .glob = glob, .at = at };
	unsigned int i, start;
	int ret;

	if (!strchr(glob, '.') && !at)
		return 0;
	mutex_lock(&dyndbg_mutex);
	ret = ddebug_walk_tables(dyndbg_collect, &l);
	/* One object per run of sites of one module (a table, or vmlinux's). */
	for (start = 0, i = 1; i <= l.nr; i++) {
		if (i < l.nr && l.found[i].mod == l.found[start].mod)
			continue;
		if (!ret)
			ret = dyndbg_index(&l.found[start], i - start);
		start = i;
	}
	mutex_unlock(&dyndbg_mutex);
	for (i = 0; i < l.nr; i++)
		module_put(l.found[i].mod);
	kfree(l.found);
	return ret;
}

/* --- The mechanism ----------------------------------------------------- */

/* The block of a made object of ours, or NULL. */
static struct dyndbg_block *dyndbg_block_of(const struct marker_object *obj)
{
	if (!obj->made || !obj->nr || obj->entry[0].site->kind != MARKER_KIND_DYNDBG)
		return NULL;
	return container_of(obj->entry[0].site, struct dyndbg_block, site[0]);
}

/* The state of an indexed site. */
static struct dyndbg_site *dyndbg_of(const struct marker_entry *e)
{
	struct dyndbg_block *blk = dyndbg_block_of(e->obj);

	return &blk->dd[e->site - blk->site];
}

/* &struct marker_kind_ops.at */
static bool dyndbg_at(const struct marker_entry *e, const struct marker_place *at)
{
	return dyndbg_desc_at(dyndbg_of(e)->dp, at);
}

static void dyndbg_object_add(struct marker_object *obj)
{
	struct dyndbg_block *blk = dyndbg_block_of(obj);
	unsigned int i;

	lockdep_assert_held(&marker_mutex);
	if (blk)
		dyndbg_block_added = true;
	for (i = 0; blk && i < obj->nr; i++)
		hash_add_rcu(dyndbg_sites, &blk->dd[i].hnode,
			     (unsigned long)blk->dd[i].dp);
}

static void dyndbg_object_del(struct marker_object *obj, struct marker_batch *b)
{
	struct dyndbg_block *blk = dyndbg_block_of(obj);
	struct dyndbg_site *dd;
	unsigned int i;

	for (i = 0; blk && i < obj->nr; i++) {
		dd = &blk->dd[i];
		if (rcu_access_pointer(dd->probes)) {
			ddebug_set_marker(dd->dp, false);
			RCU_INIT_POINTER(dd->probes, NULL);
			b->wait = true;
		}
		hash_del_rcu(&dd->hnode);
	}
}

/* After a grace period: no hit reads the block any more. */
static void dyndbg_object_free(struct marker_object *obj)
{
	kfree(dyndbg_block_of(obj));
}

/* As a MARK() site's: the format must print, and match the probe's. */
static bool dyndbg_accepts(const struct marker_site *site,
			   const struct marker_probe *p)
{
	const char *fmt = marker_site_format(site);

	return marker_parse_format(fmt, NULL, 0) >= 0 &&
	       (!p->format || marker_format_match(p->format, fmt));
}

static void dyndbg_update(struct marker_entry *e, struct marker_probes *probes,
			  struct marker_batch *b)
{
	struct dyndbg_site *dd = dyndbg_of(e);
	bool was = rcu_access_pointer(dd->probes);

	rcu_assign_pointer(dd->probes, probes);
	if (was != !!probes)
		ddebug_set_marker(dd->dp, probes);
}

static bool dyndbg_armed(const struct marker_entry *e)
{
	return rcu_access_pointer(dyndbg_of(e)->probes);
}

/*
 * An event's fields are the values the site passes: a %p extension that
 * printk renders from memory at the pointer (%pV, %*ph, %pI4...) would be
 * read when the record is, long after.
 */
static const char *dyndbg_event_why(const char *first, const char *fmt)
{
	struct marker_conv c;
	const char *p = fmt;
	int ret;

	while ((ret = marker_format_next(&p, &c)) > 0) {
		if (c.letter == 'p' && c.start[c.len - 1] != 'p' &&
		    !strchr("SsBxK", c.start[c.len - 1]))
			return "format_reads_memory";
	}
	if (ret < 0)
		return "format_not_printable";
	return first && strcmp(first, fmt) ? "sites_disagree_on_format" : NULL;
}

static void dyndbg_show(struct seq_file *m, const struct marker_entry *e)
{
	if (dyndbg_armed(e))
		seq_puts(m, "armed");
	else
		seq_puts(m, e->mn->probes ? "mismatch" : "dormant");
}

/* --- The listing ------------------------------------------------------- */

struct dyndbg_listing {
	struct seq_file *m;
	loff_t i;			/* the table to list */
	bool hits;
};

static void dyndbg_list_site(struct seq_file *m, const char *key,
			     const char *modname, struct _ddebug *dp, bool hits)
{
	struct marker_name *mn = marker_find_name(key);
	struct dyndbg_site *dd;
	const char *state = "dormant", *why;

	rcu_read_lock();
	dd = dyndbg_site_of(dp);
	if (dp->flags & _DPRINTK_FLAGS_NO_DESC)
		state = "no_descriptor";
	else if (dd && rcu_access_pointer(dd->probes))
		state = "armed";
	else if (mn && mn->probes)
		state = "mismatch";
	seq_printf(m, "%s dyndbg \"", key);
	seq_escape_str(m, dp->format, ESCAPE_ANY_NP | ESCAPE_APPEND, "\"\\");
	seq_printf(m, "\" %s [%s] %s %u %d -%s\n", dp->function, modname, state,
		   mn && mn->probes ? mn->probes->nr : 0,
		   dd ? atomic_read(&dd->faults) : 0, hits ? " -" : "");
	why = mn ? NULL : dyndbg_event_why(NULL, dp->format);
	if (why)	/* as the registry lists its names' reasons */
		seq_printf(m, "# %s: no trace event: %s\n", key, why);
	rcu_read_unlock();
}

/* ddebug_walk_tables()'s function: list table @l->i, or stop at it. */
static int dyndbg_list_table(const char *modname, struct _ddebug *descs,
			     unsigned int num, void *arg)
{
	struct dyndbg_listing *l = arg;
	char key[MARKER_KEY_MAX];
	unsigned int i;

	if (l->i--)
		return 0;
	for (i = 0; l->m && i < num; i++)
		if (dyndbg_key(key, modname, descs, num, i))
			dyndbg_list_site(l->m, key, modname, &descs[i], l->hits);
	return 1;
}

/*
 * &struct marker_kind_ops.list: every site, one record per table, indexed
 * or not, in the listing's columns: no code address (the call is the
 * site's function's), the module as dynamic debug names it.
 */
static bool dyndbg_list(struct seq_file *m, loff_t i, bool hits)
{
	struct dyndbg_listing l = { .m = m, .i = i, .hits = hits };

	lockdep_assert_held(&marker_mutex);
	return ddebug_walk_tables(dyndbg_list_table, &l) > 0;
}

static const struct marker_kind_ops dyndbg_ops = {
	.name		= "dyndbg",
	.accepts	= dyndbg_accepts,
	.update		= dyndbg_update,
	.armed		= dyndbg_armed,
	.event_why	= dyndbg_event_why,
	.object_add	= dyndbg_object_add,
	.object_del	= dyndbg_object_del,
	.object_free	= dyndbg_object_free,
	.show		= dyndbg_show,
	.lookup		= dyndbg_lookup,
	.at		= dyndbg_at,
	.list		= dyndbg_list,
};

/* --- Hits -------------------------------------------------------------- */

/* Work out which arguments of @fmt its prefix takes: false if it cannot. */
static bool dyndbg_learn_prefix(struct dyndbg_site *dd, const char *fmt)
{
	const char *own = dd->dp->format, *p = fmt, *split;
	size_t lf = strlen(fmt), lo = strlen(own);
	struct marker_conv c;
	unsigned int n = 0, i;

	if (lf < lo || strcmp(fmt + lf - lo, own))
		return false;
	split = fmt + lf - lo;
	while (marker_format_next(&p, &c) > 0 && c.start < split) {
		if (n + c.nstars + 1 > DYNDBG_SKIP_MAX || p > split)
			return false;
		for (i = 0; i < c.nstars; i++)
			dd->skip[n++] = MARKER_ARG_INT;
		dd->skip[n++] = c.cls;
	}
	if (p < split)
		return false;		/* the prefix does not parse */
	dd->nskip = n;
	/* Every hit learns the same: the last store publishes it. */
	smp_store_release(&dd->seen, fmt);
	return true;
}

/*
 * A hit whose prefix has arguments, or one not met before: past the
 * prefix's arguments, the probes get the rest. Out of line, so that the
 * common hit saves no register.
 */
static noinline notrace void dyndbg_hit_prefixed(struct dyndbg_site *dd,
						 struct marker_probes *probes,
						 const char *fmt, va_list *args)
{
	unsigned int i;

	/* Pairs with dyndbg_learn_prefix()'s release: skip[] is complete. */
	if (smp_load_acquire(&dd->seen) != fmt && !dyndbg_learn_prefix(dd, fmt)) {
		atomic_inc(&dd->faults);
		return;
	}
	for (i = 0; i < dd->nskip; i++) {
		if (dd->skip[i] == MARKER_ARG_INT)
			(void)va_arg(*args, int);
		else if (dd->skip[i] == MARKER_ARG_LONG)
			(void)va_arg(*args, long long);
		else
			(void)va_arg(*args, void *);
	}
	__marker_iterate(probes, dd->dp->format, args);
}

/* Must a prefixed hit skip arguments, or learn? A text prefix, once met, has none. */
static __always_inline bool dyndbg_must_skip(struct dyndbg_site *dd, const char *fmt)
{
	/* Pairs with dyndbg_learn_prefix()'s release: nskip is complete. */
	return smp_load_acquire(&dd->seen) != fmt || dd->nskip;
}

/**
 * marker_dyndbg_hit - call the probes of a dynamic debug site
 * @dp: the site
 * @fmt: the format it passes, its own after any prefix
 * @args: its arguments, for the probes to consume (a copy if it prints)
 *
 * Called by __dynamic_pr_debug() and its variants when the site has
 * _DPRINTK_FLAGS_MARKER. A site that passes a format that does not end
 * with its own, or a prefix that cannot be skipped, counts a fault.
 */
notrace void marker_dyndbg_hit(struct _ddebug *dp, const char *fmt, va_list *args)
{
	struct marker_probes *probes;
	struct dyndbg_site *dd;

	preempt_disable_notrace();
	dd = dyndbg_site_of(dp);
	/* Raw: preemption is disabled, as in mark_call_probes(). */
	probes = dd ? rcu_dereference_raw(dd->probes) : NULL;
	if (probes) {
		if (unlikely(fmt != dp->format) && dyndbg_must_skip(dd, fmt))
			dyndbg_hit_prefixed(dd, probes, fmt, args);
		else if (likely(probes->nr == 1))	/* as a MARK() site's call */
			probes->probe[0].func(probes->probe[0].data, dp->format, args);
		else
			__marker_iterate(probes, dp->format, args);
	}
	preempt_enable_notrace();
}

/* --- Modules ----------------------------------------------------------- */

/* A pending key of a module that is now live, to look up. */
struct dyndbg_pending {
	struct list_head node;
	char key[];
};

struct dyndbg_pending_walk {
	const char *modname;
	struct list_head keys;
};

static int dyndbg_collect_pending(void *ctx, struct marker_name *mn)
{
	struct dyndbg_pending_walk *w = ctx;
	size_t len = strlen(w->modname), klen = strlen(mn->key) + 1;
	struct dyndbg_pending *p;

	if (!mn->probes || strncmp(mn->key, w->modname, len) ||
	    mn->key[len] != '.')
		return 0;
	p = kmalloc(struct_size(p, key, klen), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	memcpy(p->key, mn->key, klen);
	list_add_tail(&p->node, &w->keys);
	return 0;
}

/*
 * A module is live: index its sites whose keys have probes waiting. Its
 * init function's sites ran before: a probe of theirs could not catch
 * them (the module was not live, and its sites could not be indexed).
 */
static int dyndbg_module_notify(struct notifier_block *nb, unsigned long val,
				void *data)
{
	struct dyndbg_pending_walk w = { .modname = ((struct module *)data)->name };
	struct dyndbg_pending *p, *tmp;
	int ret;

	if (val != MODULE_STATE_LIVE)
		return NOTIFY_DONE;
	INIT_LIST_HEAD(&w.keys);
	ret = marker_walk_names(dyndbg_collect_pending, &w);
	list_for_each_entry_safe(p, tmp, &w.keys, node) {
		if (!ret)
			ret = dyndbg_lookup(p->key, NULL);
		kfree(p);
	}
	if (ret)
		pr_warn("%s: pending dynamic debug probes not armed: %d\n",
			w.modname, ret);
	return NOTIFY_OK;
}

static struct notifier_block dyndbg_module_nb = {
	.notifier_call = dyndbg_module_notify,
};

/* Before marker_init(): dyndbg.o links before objects.o. */
static int __init dyndbg_init(void)
{
	marker_register_kind(MARKER_KIND_DYNDBG, &dyndbg_ops);
	return register_module_notifier(&dyndbg_module_nb);
}
early_initcall(dyndbg_init);
