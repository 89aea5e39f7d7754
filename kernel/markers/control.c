// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the control file and the built-in probes.
 *
 * /sys/kernel/debug/markers/control takes commands that attach built-in
 * probes to markers by name glob, without writing a module:
 *
 *	enable  name GLOB [module MOD] [provider PROV] [to trace|printk]
 *	disable name GLOB [module MOD] [provider PROV] [to trace|printk]
 *
 * "trace" enables the name's trace event (trace_markers.c), exactly as its
 * tracefs enable file does; "printk" attaches a built-in probe (sinks.c),
 * which goes through the registry as any module's probe does and writes a
 * rate-limited pr_info(). markers.enable= on the command line enables
 * names from boot, and in modules as they load. Reading the file gives the
 * listing with hit counts. See Documentation/trace/markers.rst.
 *
 * Its grammar is in control_parse.c. This file is a client of the
 * registry: it attaches and detaches through marker_change() (probes.c),
 * all of a write at once, matches names through marker_walk_names()
 * (core.c), enables trace events through marker_event_set()
 * (kernel/trace/trace_markers.c), creates its own debugfs file and learns
 * of modules through the registry's notifier chain
 * (marker_register_module_notifier()).
 * CONFIG_MARKERS_CONTROL=n leaves it out and changes nothing else.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/debugfs.h>
#include <linux/glob.h>
#include <linux/hashtable.h>
#include <linux/init.h>
#include <linux/jhash.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "control.h"
#include "events.h"
#include "internal.h"

/* The most items in markers.enable=. */
#define MARKER_BOOT_ITEMS	32

/*
 * marker_control_mutex protects marker_builtins and the items of
 * markers.enable=, and serializes control writes. It nests outside
 * marker_mutex (taken by marker_change() and marker_walk_names()).
 */
static DEFINE_MUTEX(marker_control_mutex);
static DEFINE_HASHTABLE(marker_builtins, 8);

static u32 marker_control_hash(const char *key)
{
	return jhash(key, strlen(key), 0);
}

static struct marker_builtin *marker_builtin_find(const char *key,
						  enum marker_sink sink)
{
	struct marker_builtin *b;

	lockdep_assert_held(&marker_control_mutex);
	hash_for_each_possible(marker_builtins, b, hnode, marker_control_hash(key))
		if (b->sink == sink && !strcmp(b->key, key))
			return b;
	return NULL;
}

/* A built-in probe for (@key, @sink), not attached yet; NULL without memory. */
static struct marker_builtin *marker_builtin_new(const char *key, bool sdt,
						 enum marker_sink sink)
{
	size_t len = strlen(key) + 1;
	struct marker_builtin *b;

	b = kzalloc(struct_size(b, key, len), GFP_KERNEL);
	if (!b)
		return NULL;
	b->hits = alloc_percpu(unsigned long);
	if (!b->hits) {
		kfree(b);
		return NULL;
	}
	memcpy(b->key, key, len);
	b->sink = sink;
	b->sdt = sdt;
	return b;
}

static void marker_builtin_free_rcu(struct rcu_head *rcu)
{
	struct marker_builtin *b = container_of(rcu, struct marker_builtin, rcu);

	free_percpu(b->hits);
	kfree(b);
}

/*
 * Free @b, detached or never attached, once marker_control_hits() cannot
 * see it any more.
 */
static void marker_builtin_free(struct marker_builtin *b)
{
	call_rcu(&b->rcu, marker_builtin_free_rcu);
}

/*
 * marker_hits_fn: the hits of the built-in probes of a MARK() name, for the
 * control file's listing. Under marker_mutex, which writers of
 * marker_builtins do not take inside marker_control_mutex: under RCU.
 */
static unsigned long marker_control_hits(const char *key)
{
	struct marker_builtin *b;
	unsigned long n = 0;
	int cpu;

	rcu_read_lock();
	hash_for_each_possible_rcu(marker_builtins, b, hnode,
				   marker_control_hash(key)) {
		if (strcmp(b->key, key))
			continue;
		if (b->sink == MARKER_SINK_TRACE) {
			/* The hits its trace event recorded since. */
			n += marker_event_hits(key) - b->base;
			continue;
		}
		for_each_possible_cpu(cpu)
			n += *per_cpu_ptr(b->hits, cpu);
	}
	rcu_read_unlock();
	return n;
}

/* The registry's op attaching (@add) or detaching @b. */
static struct marker_op marker_builtin_op(struct marker_builtin *b, bool add)
{
	return (struct marker_op){
		.key = b->key,
		.probe = {
			.func = (marker_probe_func *)marker_builtin_func(b->sdt, b->sink),
			.data = b,
			.nargs = -1,
		},
		.add = add,
	};
}

/*
 * Attach the built-in probe of (@key, @sink), or for "trace" enable the
 * name's trace event; nothing changes on error.
 */
static int marker_builtin_attach(const char *key, bool sdt,
				 enum marker_sink sink)
{
	struct marker_builtin *b;
	struct marker_op op;
	int ret;

	lockdep_assert_held(&marker_control_mutex);
	b = marker_builtin_find(key, sink);
	if (b && sink == MARKER_SINK_TRACE) {
		/* Its enable file may have turned the event off since. */
		marker_events_hold();
		ret = marker_event_enabled(key) ? 0 : marker_event_set(key, true);
		marker_events_release();
		if (!ret)
			b->base = marker_event_hits(key);
		return ret;
	}
	if (b)
		return 0;
	b = marker_builtin_new(key, sdt, sink);
	if (!b)
		return -ENOMEM;
	if (sink == MARKER_SINK_TRACE) {
		marker_events_hold();
		ret = marker_event_set(key, true);
		marker_events_release();
		b->base = marker_event_hits(key);
	} else {
		op = marker_builtin_op(b, true);
		ret = marker_change(&op, 1);
	}
	if (ret) {
		marker_builtin_free(b);
		return ret;
	}
	hash_add_rcu(marker_builtins, &b->hnode, marker_control_hash(key));
	return 0;
}

/* --- Applying --------------------------------------------------------- */

/* One (key, sink) pair that a write or a boot glob turns on or off. */
struct marker_switch {
	struct hlist_node hnode;	/* in marker_plan.table */
	struct list_head list;		/* in marker_plan.list, first touch first */
	enum marker_sink sink;
	bool sdt;
	bool on;			/* wanted at the end */
	bool change;			/* ... and not so now */
	bool fresh;			/* b is new */
	struct marker_builtin *b;	/* its built-in probe (or record), if any */
	char key[];
};

/* What one write (or one boot-time enable) wants to change. */
struct marker_plan {
	DECLARE_HASHTABLE(table, 8);
	struct list_head list;
	const struct marker_cmd *cmd;	/* the command being matched */
	struct module *mod;		/* boot globs: only this module's names */
	bool live;			/* boot globs: @mod is live */
	unsigned int nkeys;		/* names matched, all commands */
	unsigned int matched;		/* names matched by this command */
};

static struct marker_plan *marker_plan_alloc(void)
{
	struct marker_plan *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (c) {
		hash_init(c->table);
		INIT_LIST_HEAD(&c->list);
	}
	return c;
}

static void marker_plan_free(struct marker_plan *c)
{
	struct marker_switch *sw, *tmp;

	if (!c)
		return;
	list_for_each_entry_safe(sw, tmp, &c->list, list)
		kfree(sw);
	kfree(c);
}

/* Want (@key, @sink) @on at the end of @c. */
static int marker_plan_set(struct marker_plan *c, const char *key,
			   enum marker_sink sink, bool on)
{
	u32 hash = marker_control_hash(key) ^ sink;
	struct marker_switch *sw;
	size_t len;

	hash_for_each_possible(c->table, sw, hnode, hash) {
		if (sw->sink == sink && !strcmp(sw->key, key)) {
			sw->on = on;
			return 0;
		}
	}
	len = strlen(key) + 1;
	sw = kzalloc(struct_size(sw, key, len), GFP_KERNEL);
	if (!sw)
		return -ENOMEM;
	memcpy(sw->key, key, len);
	sw->sink = sink;
	sw->sdt = marker_key_is_sdt(key);
	sw->on = on;
	hash_add(c->table, &sw->hnode, hash);
	list_add_tail(&sw->list, &c->list);
	return 0;
}

/* Does the provider part of the SDT key @key match @glob? */
static bool marker_provider_match(const char *glob, const char *key)
{
	const char *colon = strchr(key, ':');
	char prov[MARKER_KEY_MAX];

	if (!colon || colon - key >= sizeof(prov))
		return false;
	memcpy(prov, key, colon - key);
	prov[colon - key] = '\0';
	return glob_match(glob, prov);
}

/* The place @cmd asks for ("file", "line"), in @at: or NULL, none. */
static const struct marker_place *marker_cmd_place(const struct marker_cmd *cmd,
						   struct marker_place *at)
{
	if (!cmd->file && !cmd->first)
		return NULL;
	*at = (struct marker_place){
		.file = cmd->file, .first = cmd->first, .last = cmd->last,
	};
	return at;
}

/* marker_name_fn: does the name match the command of @ctx? */
static int marker_match_cmd(void *ctx, struct marker_name *mn)
{
	struct marker_plan *c = ctx;
	const struct marker_cmd *cmd = c->cmd;
	const char *key = mn->key;
	struct marker_place place;
	const struct marker_place *at = marker_cmd_place(cmd, &place);
	int ret;

	/* A name too long for a key cannot be switched from here. */
	if (strlen(key) >= MARKER_KEY_MAX || !glob_match(cmd->name, key))
		return 0;
	if (cmd->provider && (!marker_key_is_sdt(key) ||
			      !marker_provider_match(cmd->provider, key)))
		return 0;
	/* A pending name is nowhere. */
	if (at && !marker_name_at(mn, at))
		return 0;
	if (mn->nr_sites) {
		if (cmd->module && !marker_name_in_module(mn, cmd->module))
			return 0;
	} else if (cmd->enable || cmd->module ||
		   !(marker_builtin_find(key, MARKER_SINK_TRACE) ||
		     marker_builtin_find(key, MARKER_SINK_PRINTK))) {
		/* disable also reaches the built-in probes of pending names. */
		return 0;
	}
	if (c->nkeys >= MARKER_CONTROL_KEYS)
		return -E2BIG;
	c->nkeys++;
	c->matched++;
	if (!cmd->any_sink)
		return marker_plan_set(c, key, cmd->sink, cmd->enable);
	ret = marker_plan_set(c, key, MARKER_SINK_TRACE, false);
	return ret ?: marker_plan_set(c, key, MARKER_SINK_PRINTK, false);
}

/*
 * Switch the trace events of @c's "trace" switches that change as
 * wanted, or, with @undo, back again, from @undo backwards. Stops at the
 * first error, having switched back what it switched: nothing changes on
 * error.
 */
static int marker_plan_events(struct marker_plan *c, struct list_head *undo)
{
	struct marker_switch *sw;
	int ret;

	if (undo) {
		sw = list_entry(undo, struct marker_switch, list);
		list_for_each_entry_from_reverse(sw, &c->list, list)
			if (sw->change && sw->sink == MARKER_SINK_TRACE)
				marker_event_set(sw->key, !sw->on);
		return 0;
	}
	list_for_each_entry(sw, &c->list, list) {
		if (!sw->change || sw->sink != MARKER_SINK_TRACE)
			continue;
		ret = marker_event_set(sw->key, sw->on);
		if (ret && !sw->on && ret == -ENOENT)
			ret = 0;	/* its event went with its sites */
		if (ret) {
			if (!list_is_first(&sw->list, &c->list))
				marker_plan_events(c, sw->list.prev);
			return ret;
		}
	}
	return 0;
}

/*
 * Apply @c, all or nothing: attach the built-in probes it turns on and
 * detach those it turns off, in one change of the registry (one grace
 * period for all the detachments).
 */
static int marker_plan_apply(struct marker_plan *c)
{
	struct marker_switch *sw;
	struct marker_op *ops;
	unsigned int n = 0;
	int ret = 0;

	lockdep_assert_held(&marker_control_mutex);
	list_for_each_entry(sw, &c->list, list)
		n++;
	ops = kvcalloc(n, sizeof(*ops), GFP_KERNEL);
	if (!ops)
		return -ENOMEM;
	n = 0;
	/*
	 * "trace" is the name's trace event, on or off as its enable file
	 * reads, which may have changed it since this file did: the record
	 * kept here is only where the listing counts its hits from. Switch
	 * the events first, then the printk probes in one change of the
	 * registry; undo the events if that fails. The events' detachments
	 * go in one change too, at marker_events_release(): one grace period
	 * for all.
	 */
	marker_events_hold();
	list_for_each_entry(sw, &c->list, list) {
		sw->b = marker_builtin_find(sw->key, sw->sink);
		if (sw->sink == MARKER_SINK_TRACE)
			sw->change = sw->on != marker_event_enabled(sw->key);
		else
			sw->change = sw->on != !!sw->b;
		if (!sw->change && (sw->on || !sw->b))
			continue;		/* already as wanted */
		if (sw->on && !sw->b) {
			sw->b = marker_builtin_new(sw->key, sw->sdt, sw->sink);
			if (!sw->b) {
				ret = -ENOMEM;
				goto out;
			}
			sw->fresh = true;
		}
		if (sw->change && sw->sink == MARKER_SINK_PRINTK)
			ops[n++] = marker_builtin_op(sw->b, sw->on);
	}
	ret = marker_plan_events(c, NULL);
	if (!ret) {
		ret = marker_change(ops, n);
		if (ret)
			marker_plan_events(c, c->list.prev);
	}
out:
	marker_events_release();
	list_for_each_entry(sw, &c->list, list) {
		if (!sw->b)
			continue;
		if (ret) {
			if (sw->fresh)
				marker_builtin_free(sw->b);
		} else if (sw->on) {
			if (sw->change && sw->sink == MARKER_SINK_TRACE)
				sw->b->base = marker_event_hits(sw->key);
			if (sw->fresh)
				hash_add_rcu(marker_builtins, &sw->b->hnode,
					     marker_control_hash(sw->key));
		} else {
			/* Off, or a record of an event its file turned off. */
			hash_del_rcu(&sw->b->hnode);
			marker_builtin_free(sw->b);
		}
	}
	kvfree(ops);
	return ret;
}

/*
 * Apply @n commands all or nothing: match each command, in order, against
 * the names, then apply what they want at the end.
 */
static int marker_control_apply(const struct marker_cmd *cmds, unsigned int n)
{
	struct marker_place place;
	struct marker_plan *c;
	unsigned int i;
	int ret = 0;

	c = marker_plan_alloc();
	if (!c)
		return -ENOMEM;
	mutex_lock(&marker_control_mutex);
	for (i = 0; i < n; i++) {
		c->cmd = &cmds[i];
		c->matched = 0;
		/*
		 * Dynamic debug sites are indexed when asked for: a glob with
		 * a '.' asks, as do "file" and "line" (an index, which stays
		 * whatever this write does).
		 */
		ret = marker_lookup_sites_at(c->cmd->name,
					     marker_cmd_place(c->cmd, &place));
		if (ret)
			goto out;
		ret = marker_walk_names(marker_match_cmd, c);
		if (ret)
			goto out;
		if (!c->matched) {
			ret = -ENOENT;
			goto out;
		}
	}
	ret = marker_plan_apply(c);
out:
	mutex_unlock(&marker_control_mutex);
	marker_plan_free(c);
	return ret;
}

/**
 * marker_control_write - the write() of /sys/kernel/debug/markers/control
 * @file: the file
 * @ubuf: the commands
 * @len: their length, at most MARKER_CONTROL_MAX bytes
 * @ppos: ignored
 *
 * Return: @len when every command was applied; otherwise an error, and
 * nothing was applied: -E2BIG for a write over MARKER_CONTROL_MAX bytes,
 * over MARKER_CONTROL_CMDS commands or touching over MARKER_CONTROL_KEYS
 * names, -EINVAL for a command that does not parse (or a NUL byte),
 * -ENOENT for a command that matches no site, -ENOMEM.
 */
static ssize_t marker_control_write(struct file *file, const char __user *ubuf,
				    size_t len, loff_t *ppos)
{
	struct marker_cmd *cmds = NULL;
	char *buf;
	int n;

	if (len > MARKER_CONTROL_MAX)
		return -E2BIG;
	if (!len)
		return 0;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	n = -EINVAL;
	if (strlen(buf) != len)		/* a NUL byte */
		goto out;
	n = -ENOMEM;
	cmds = kcalloc(MARKER_CONTROL_CMDS, sizeof(*cmds), GFP_KERNEL);
	if (!cmds)
		goto out;
	n = marker_control_parse(buf, cmds, MARKER_CONTROL_CMDS);
	if (n > 0)
		n = marker_control_apply(cmds, n);
out:
	kfree(cmds);
	kfree(buf);
	return n < 0 ? n : len;
}

static int marker_control_open(struct inode *inode, struct file *file)
{
	return marker_listing_open(file, marker_control_hits);
}

static const struct file_operations marker_control_fops = {
	.open = marker_control_open,
	.read = seq_read,
	.write = marker_control_write,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

/* --- markers.enable= -------------------------------------------------- */

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "markers."

static char marker_boot_globs[MARKER_CONTROL_MAX];
module_param_string(enable, marker_boot_globs, sizeof(marker_boot_globs), 0444);
MODULE_PARM_DESC(enable,
		 "Comma-separated name globs, or enable commands without the verb, to send to the trace buffer");

/*
 * The items of markers.enable=, parsed (in a copy) at boot into enable
 * commands. Written once at boot and read at each module arrival, both
 * under marker_control_mutex.
 */
static char marker_boot_split[MARKER_CONTROL_MAX];
static struct marker_cmd marker_boot_cmds[MARKER_BOOT_ITEMS];
static unsigned int marker_boot_ncmds;

/* marker_name_fn: does an item of markers.enable= take the name? */
static int marker_match_boot(void *ctx, struct marker_name *mn)
{
	struct marker_plan *c = ctx;
	unsigned int i, matched = c->matched;
	int ret;

	lockdep_assert_held(&marker_control_mutex);
	if (c->mod && !marker_name_in_module(mn, c->mod->name))
		return 0;
	/*
	 * A module's dynamic debug sites are indexed once it is live, and
	 * their keys are the only ones with a '.': matched then, the others
	 * as it comes.
	 */
	if (c->mod && c->live != !!strchr(mn->key, '.'))
		return 0;
	/* The first item that takes the name switches it. */
	for (i = 0; i < marker_boot_ncmds && c->matched == matched; i++) {
		c->cmd = &marker_boot_cmds[i];
		ret = marker_match_cmd(c, mn);
		if (ret)
			return ret;
	}
	return 0;
}

/* Index the dynamic debug sites that the items of markers.enable= name. */
static void marker_boot_lookup(void)
{
	struct marker_place place;
	unsigned int i;
	int ret;

	lockdep_assert_held(&marker_control_mutex);
	for (i = 0; i < marker_boot_ncmds; i++) {
		ret = marker_lookup_sites_at(marker_boot_cmds[i].name,
					     marker_cmd_place(&marker_boot_cmds[i], &place));
		if (ret)
			pr_warn("markers.enable: %s: %d\n", marker_boot_cmds[i].name, ret);
	}
}

/* Send the names matching markers.enable= (in @mod, or all) to the trace. */
static void marker_boot_enable(struct module *mod)
{
	struct marker_plan *c;
	struct marker_switch *sw;
	int ret;

	mutex_lock(&marker_control_mutex);
	if (!marker_boot_ncmds)
		goto unlock;
	c = marker_plan_alloc();
	if (!c) {
		pr_warn("markers.enable: %d\n", -ENOMEM);
		goto unlock;
	}
	c->mod = mod;
	/* Dynamic debug sites: asked for at boot and as a module goes live. */
	c->live = mod && mod->state == MODULE_STATE_LIVE;
	if (!mod || c->live)
		marker_boot_lookup();
	ret = marker_walk_names(marker_match_boot, c);
	if (ret)
		pr_warn("markers.enable: %d\n", ret);
	/* Each on its own: one that fails does not keep the others off. */
	list_for_each_entry(sw, &c->list, list) {
		ret = marker_builtin_attach(sw->key, sw->sdt, sw->sink);
		if (ret)
			pr_warn("markers.enable: %s: %d\n", sw->key, ret);
	}
	marker_plan_free(c);
unlock:
	mutex_unlock(&marker_control_mutex);
}

static int marker_control_module_notify(struct notifier_block *nb,
					unsigned long val, void *data)
{
	if (val == MODULE_STATE_COMING)
		marker_boot_enable(data);
	/* A module's dynamic debug sites are indexed once it is live. */
	if (val == MODULE_STATE_LIVE)
		marker_boot_enable(data);
	return NOTIFY_DONE;
}

static struct notifier_block marker_control_module_nb = {
	.notifier_call = marker_control_module_notify,
	/*
	 * In the registry's chain, so a coming module's sites are in the
	 * registry before its names are matched against markers.enable=;
	 * below the trace events' (1), which "trace" enables.
	 */
	.priority = 0,
};

static int __init marker_control_init(void)
{
	unsigned int n = 0;
	char *p = marker_boot_split, *g, *copy;

	debugfs_create_file("control", 0600, marker_debugfs_dir, NULL,
			    &marker_control_fops);

	mutex_lock(&marker_control_mutex);
	strscpy(marker_boot_split, marker_boot_globs, sizeof(marker_boot_split));
	while ((g = strsep(&p, ","))) {
		if (!*skip_spaces(g))
			continue;
		if (n == MARKER_BOOT_ITEMS) {
			pr_warn("markers.enable: ignoring items past %d\n",
				MARKER_BOOT_ITEMS);
			break;
		}
		/* Quoted from a copy: the parse cuts the item into words. */
		copy = kstrdup(g, GFP_KERNEL);
		if (marker_boot_parse(g, &marker_boot_cmds[n]))
			pr_warn("markers.enable: ignoring malformed item \"%s\"\n",
				copy ?: "");
		else
			n++;
		kfree(copy);
	}
	marker_boot_ncmds = n;
	mutex_unlock(&marker_control_mutex);

	marker_boot_enable(NULL);
	return marker_register_module_notifier(&marker_control_module_nb);
}
late_initcall(marker_control_init);
