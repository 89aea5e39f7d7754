// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: their trace events, a dynamic event type.
 *
 * Every marker name with a MARK() site is a trace event, markers/<name>,
 * and every SDT provider:name is one, sdt_<provider>/<name> (a group no
 * kernel event group can be: those are C identifiers of their subsystem,
 * none starting with "sdt_"). They are dynamic events, of a type of their
 * own (marker_dyn_ops), as kprobe, eprobe and synthetic events are: on
 * dyn_event_list, TRACE_EVENT_FL_DYNAMIC, and kept by the references that
 * eprobes and perf take with trace_event_try_get_ref(). Their sites make
 * them: they are created as modules with sites come, and removed as they
 * go unless they were used, so that their records stay readable
 * (marker_events_sync()).
 *
 * Those events are the kernel's, as a TRACE_EVENT is: the dynamic_events
 * file does not list them, "-:markers/<name>" there is -ENOENT, and
 * clearing it ("echo > dynamic_events") leaves them. The debugfs listing
 * and the events/ directories show them.
 *
 * Users make events of their own there, "m:[GROUP/]EVENT KEY", any
 * number per name (trace_markers_dyn.c): made as the sites' are, and
 * never in marker_events, which are the sites'.
 *
 * A MARK() event's fields are typed from its sites' format, by the format
 * grammar (marker_format_next()): %d int, %u unsigned int, %ld long, %lld
 * long long, %zu size_t, %c char, %p void *, %s a __data_loc char[]...
 * Each is named after the C identifier just before its conversion ("pid
 * %d comm %s": pid, comm), or argN where there is none, where it repeats
 * or where it is no field name; '*' widths are argN. The print fmt is the
 * site's own format over those fields. An SDT event has arg0... fields,
 * s64 or u64 by the sign of each N@ of its first site's spec. A name whose
 * sites disagree (on the format, on an SDT argument count) gets no event;
 * the listing says why.
 *
 * Enabling an event, in any trace instance or for perf (and so for BPF),
 * attaches one probe to its name through the registry, next to any
 * module's probes; the last user gone detaches it. A hit writes the
 * arguments into the ring buffer as a binary record, through the usual
 * reserve and commit (so filters, triggers and histograms work as for
 * any event); nothing is formatted until the record is read.
 *
 * This file makes, enables and removes the events; trace_markers_dyn.c
 * is what dynamic_events does with them; trace_markers_format.c types
 * their fields and reads their records, trace_markers_record.c writes
 * them.
 *
 * Locking: event_mutex (ftrace's) nests outside marker_mutex: the
 * registration callback runs under event_mutex, and attaches through the
 * registry. So events are created and removed (which takes event_mutex)
 * with marker_mutex dropped: marker_events_sync() reads what the names
 * want under marker_mutex, then changes the events under
 * marker_events_mutex, which nests outside both.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>

#include "../markers/events.h"
#include "../markers/internal.h"
#include "trace_markers.h"

/* The events; under marker_events_mutex, and RCU for marker_event_hits(). */
static LIST_HEAD(marker_events);
static DEFINE_MUTEX(marker_events_mutex);

/* --- Registration ----------------------------------------------------- */

/*
 * Attach the event's probe to its name, or detach it. ev->attached
 * follows what the registry holds: it changes only when the registry
 * did, so an event whose detachment failed (no memory) is still known to
 * be attached, and is not freed before its probe is gone.
 */
int marker_event_attach(struct marker_event *ev, bool on)
{
	struct marker_probe np = { .data = ev, .nargs = -1 };
	int ret;

	lockdep_assert_held(&event_mutex);
	if (!on) {
		ret = marker_remove_probe(ev->key,
					  ev->sdt ? (void *)marker_event_sdt_probe :
					  (void *)marker_event_mark_probe, ev);
		if (!ret)
			ev->attached = false;
		return ret;
	}
	if (ev->sdt) {
		np.sdt_func = marker_event_sdt_probe;
		np.nargs = ev->nfields;
	} else {
		np.func = marker_event_mark_probe;
		np.format = ev->format;
	}
	ret = marker_add_probe(ev->key, &np);
	if (!ret)
		ev->attached = true;
	return ret;
}

/*
 * While the control file switches many events (marker_events_hold()),
 * detachments wait in a queue and go in one change of the registry, with
 * one grace period for all, at marker_events_release(). An event enabled
 * again before then keeps its probe.
 */
static bool marker_events_holding;	/* under marker_events_mutex; read racily */

/*
 * A user comes: the probe stays (its detachment was queued, or failed),
 * or is attached.
 */
static int marker_event_get(struct marker_event *ev)
{
	lockdep_assert_held(&event_mutex);
	ev->detach_queued = false;
	return ev->attached ? 0 : marker_event_attach(ev, true);
}

bool marker_event_in_use(struct marker_event *ev)
{
	return !list_empty(&ev->files) || ev->perf_users;
}

/* A user went: the last one detaches the probe, or queues it. */
static void marker_event_put(struct marker_event *ev)
{
	lockdep_assert_held(&event_mutex);
	if (marker_event_in_use(ev))
		return;
	/* The control file switches the sites' events, never the users'. */
	if (READ_ONCE(marker_events_holding) && !ev->user)
		ev->detach_queued = true;
	else if (marker_event_attach(ev, false))
		pr_warn("events: %s stays attached (no memory to detach it)\n",
			ev->key);
}

/*
 * The registration callback. Registering and unregistering users (an
 * instance's file, or perf) come under event_mutex, which serializes
 * them: the first attaches the probe, the last detaches it. Nothing
 * changes on error. perf's add and del come from the scheduler, with
 * nothing to do.
 */
static int marker_event_reg(struct trace_event_call *call,
			    enum trace_reg type, void *data)
{
	struct marker_event *ev = call->data;
	struct trace_event_file *file = data;
	struct marker_event_link *link;
	int ret;

	switch (type) {
	case TRACE_REG_REGISTER:
	case TRACE_REG_UNREGISTER:
#ifdef CONFIG_PERF_EVENTS
	case TRACE_REG_PERF_REGISTER:
	case TRACE_REG_PERF_UNREGISTER:
#endif
		lockdep_assert_held(&event_mutex);
		ev->used = true;
		break;
	default:
		/* perf's add, del, open and close: nothing to do. */
		return 0;
	}
	switch (type) {
	case TRACE_REG_REGISTER:
		link = kzalloc(sizeof(*link), GFP_KERNEL);
		if (!link)
			return -ENOMEM;
		link->file = file;
		ret = marker_event_get(ev);
		if (ret) {
			kfree(link);
			return ret;
		}
		list_add_tail_rcu(&link->node, &ev->files);
		return 0;
	case TRACE_REG_UNREGISTER:
		list_for_each_entry(link, &ev->files, node) {
			if (link->file != file)
				continue;
			list_del_rcu(&link->node);
			kfree_rcu(link, rcu);
			marker_event_put(ev);
			return 0;
		}
		return -ENOENT;
#ifdef CONFIG_PERF_EVENTS
	case TRACE_REG_PERF_REGISTER:
		ret = marker_event_get(ev);
		if (ret)
			return ret;
		WRITE_ONCE(ev->perf_users, ev->perf_users + 1);
		return 0;
	case TRACE_REG_PERF_UNREGISTER:
		WRITE_ONCE(ev->perf_users, ev->perf_users - 1);
		marker_event_put(ev);
		return 0;
#endif
	default:
		return 0;
	}
}

static void marker_event_free(struct marker_event *ev)
{
	free_percpu(ev->hits);
	kfree(ev->call.print_fmt);
	kfree(ev->class.system);
	kfree(ev->name);
	kfree(ev->format);
	kfree(ev->key);
	kfree(ev);
}

/*
 * A new event for @key, of format or spec @fmt, not registered yet: the
 * sites' own, or with @user's group (NULL: the key's) and name.
 */
static struct marker_event *marker_event_alloc(const char *key, const char *fmt,
					       const char *group,
					       const char *user)
{
	struct marker_event_field field[MARKER_MAX_ARGS] = {};
	bool sdt = marker_key_is_sdt(key);
	struct marker_event *ev;
	int n;

	n = marker_event_fields(field, fmt, sdt);
	if (n < 0)
		return ERR_PTR(n);
	ev = kzalloc(struct_size(ev, field, n), GFP_KERNEL);
	if (!ev)
		return ERR_PTR(-ENOMEM);
	ev->nfields = n;
	memcpy(ev->field, field, n * sizeof(*field));
	while (n--)
		ev->nstrings += field[n].cls == MARKER_ARG_STR;
	ev->sdt = sdt;
	dyn_event_init(&ev->devent, &marker_dyn_ops);
	INIT_LIST_HEAD(&ev->files);
	ev->key = kstrdup(key, GFP_KERNEL);
	ev->format = kstrdup(fmt, GFP_KERNEL);
	ev->user = !!user;
	marker_event_names(ev, key, group, user);
	ev->fixed_size = marker_fields_end(ev);
	ev->hits = alloc_percpu(unsigned long);
	if (!ev->key || !ev->format || !ev->class.system || !ev->name ||
	    !ev->hits || marker_event_print_fmt(ev)) {
		marker_event_free(ev);
		return ERR_PTR(-ENOMEM);
	}
	ev->tp.name = ev->name;
	ev->call.class = &ev->class;
	ev->call.tp = &ev->tp;
	/*
	 * dyn_event_add() makes it TRACE_EVENT_FL_DYNAMIC: whoever refers to
	 * the event for longer than a call (an eprobe, perf) takes a
	 * reference with trace_event_try_get_ref(), which keeps it from
	 * being removed (marker_event_unregister()).
	 */
	ev->call.flags = TRACE_EVENT_FL_TRACEPOINT;
	ev->call.data = ev;
	ev->call.event.funcs = &marker_event_funcs;
	INIT_LIST_HEAD(&ev->class.fields);
	ev->class.fields_array = marker_event_fields_array;
	ev->class.reg = marker_event_reg;
	return ev;
}

/*
 * Register @ev with ftrace, and a sites' event in marker_events: 0, or an
 * error (-EEXIST: an event of its group and name exists) and @ev freed.
 */
static int marker_event_register(struct marker_event *ev)
{
	struct trace_array *tr = top_trace_array();
	int ret;

	if (!register_trace_event(&ev->call.event)) {
		marker_event_free(ev);
		return -ENODEV;
	}
	mutex_lock(&event_mutex);
	if (tr && find_event_file(tr, ev->class.system, ev->name))
		ret = -EEXIST;
	else
		ret = trace_add_event_call(&ev->call);
	/*
	 * trace_add_event_call() goes on without the event's file in the top
	 * instance (tr), its directory or some of its fields when an
	 * allocation fails (marker_event_whole()): the control file could not
	 * enable it, tracefs and perf would describe records it does not
	 * write, and once enabled (so kept) it would never be made again. Take
	 * it away (its trace_event too) for a later sync or marker_event_set()
	 * to make anew: that cannot fail, event_mutex held since it was added.
	 */
	if (!ret && tr && !marker_event_whole(tr, ev)) {
		WARN_ON_ONCE(trace_remove_event_call(&ev->call));
		mutex_unlock(&event_mutex);
		marker_event_free(ev);
		return -ENOMEM;
	}
	if (!ret)
		dyn_event_add(&ev->devent, &ev->call);
	mutex_unlock(&event_mutex);
	if (ret) {
		unregister_trace_event(&ev->call.event);
		marker_event_free(ev);
		return ret;
	}
	if (!ev->user)
		list_add_tail_rcu(&ev->list, &marker_events);
	return 0;
}

void marker_event_free_rcu(struct rcu_head *rcu)
{
	marker_event_free(container_of(rcu, struct marker_event, rcu));
}

/*
 * Remove @ev unless it is in use or referred to (-EBUSY: enabled, or an
 * eprobe on it), or its probe cannot be detached (one left attached by a
 * failed detachment); then it stays, and a later marker_events_sync()
 * tries again. References are taken under event_mutex, as here.
 */
static int marker_event_unregister(struct marker_event *ev)
{
	int ret = -EBUSY;

	mutex_lock(&event_mutex);
	if (!marker_event_in_use(ev) && !trace_event_dyn_busy(&ev->call)) {
		ret = ev->attached ? marker_event_attach(ev, false) : 0;
		ret = ret ?: trace_remove_event_call(&ev->call);
		if (!ret)
			dyn_event_remove(&ev->devent);
	}
	mutex_unlock(&event_mutex);
	if (ret)
		return ret;
	/*
	 * As after any dynamic event's removal: clear the buffers that held
	 * its records (those where it was enabled), or they would be read
	 * as the next event to get its type id.
	 */
	tracing_reset_all_online_cpus();
	list_del_rcu(&ev->list);
	call_rcu(&ev->rcu, marker_event_free_rcu);
	return 0;
}

static struct marker_event *marker_event_find(const char *key)
{
	struct marker_event *ev;

	lockdep_assert_held(&marker_events_mutex);
	list_for_each_entry(ev, &marker_events, list)
		if (!strcmp(ev->key, key))
			return ev;
	return NULL;
}

/* --- Following the registry ------------------------------------------- */

/* What a name wants: an event of this format, read under marker_mutex. */
struct marker_event_want {
	struct list_head node;
	char *fmt;
	char key[];
};

static int marker_event_collect(void *ctx, struct marker_name *mn)
{
	struct list_head *want = ctx;
	struct marker_event_want *w;
	const char *fmt, *why;
	size_t len;

	if (!mn->nr_sites)
		return 0;
	fmt = marker_name_event_format(mn, &why);
	if (!fmt)
		return 0;
	len = strlen(mn->key) + 1;
	w = kmalloc(struct_size(w, key, len), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	memcpy(w->key, mn->key, len);
	w->fmt = kstrdup(fmt, GFP_KERNEL);
	if (!w->fmt) {
		kfree(w);
		return -ENOMEM;
	}
	list_add_tail(&w->node, want);
	return 0;
}

static void marker_event_wants_free(struct list_head *want)
{
	struct marker_event_want *w, *tmp;

	list_for_each_entry_safe(w, tmp, want, node) {
		kfree(w->fmt);
		kfree(w);
	}
}

/*
 * Make an event for @key if its name wants one: its sites' (@user NULL),
 * or a user's of that name in @group (NULL: the key's group).
 *
 * Return: the event; NULL when the name wants none (none of its sites
 * records, or they disagree, or it has none); or an ERR_PTR (-ENOMEM,
 * -EEXIST).
 */
struct marker_event *marker_event_make(const char *key, const char *group,
				       const char *user)
{
	struct marker_event_want *w;
	struct marker_event *ev = NULL;
	LIST_HEAD(want);
	int ret;

	/*
	 * A name's own event goes on marker_events, under its mutex, which
	 * the caller (marker_event_set()) holds; a user's never does, and is
	 * made under dyn_event_ops_mutex alone.
	 */
	if (!user)
		lockdep_assert_held(&marker_events_mutex);
	/* Sites indexed when asked for: making the event asks. */
	ret = marker_lookup_sites(key);
	if (ret)
		return ERR_PTR(ret);
	ret = marker_walk_names(marker_event_collect, &want);
	list_for_each_entry(w, &want, node) {
		if (strcmp(w->key, key))
			continue;
		ev = marker_event_alloc(w->key, w->fmt, group, user);
		ret = IS_ERR(ev) ? PTR_ERR(ev) : marker_event_register(ev);
		break;
	}
	marker_event_wants_free(&want);
	/* The walk may have failed before it reached @key. */
	return ret ? ERR_PTR(ret) : ev;
}

/**
 * marker_events_sync - make the events what the registry's names want
 *
 * One event per name whose sites agree on a format, of that format:
 * create those missing, and remove those no name wants (its sites gone)
 * unless they were ever used, and those of a format that changed unless
 * they are in use. Called when modules come and go, and at boot. If the
 * walk of the names fails (no memory), the events of the names it did
 * not reach stay as they are.
 *
 * Return: 0, or the first error (events that could be made are made).
 */
static int marker_events_sync(void)
{
	struct marker_event_want *w;
	struct marker_event *ev, *next;
	LIST_HEAD(want);
	int ret, walk_err, err = 0;

	mutex_lock(&marker_events_mutex);
	err = marker_walk_names(marker_event_collect, &want);
	walk_err = err;
	list_for_each_entry(ev, &marker_events, list)
		ev->stale = true;
	list_for_each_entry(w, &want, node) {
		ev = marker_event_find(w->key);
		if (ev && !strcmp(ev->format, w->fmt)) {
			ev->stale = false;
			continue;
		}
		if (ev && marker_event_unregister(ev))
			continue;	/* in use: keep its old format */
		ev = marker_event_alloc(w->key, w->fmt, NULL, NULL);
		ret = IS_ERR(ev) ? PTR_ERR(ev) : marker_event_register(ev);
		if (ret) {
			pr_warn("no trace event for %s: %d\n", w->key, ret);
			err = err ?: ret;
		}
	}
	/*
	 * An event that was used stays when its sites go: removing it would
	 * make its records in the ring buffers unreadable (ftrace clears
	 * them). It is there again for its sites when they come back. After
	 * a walk that failed, "stale" also means "not reached": keep all.
	 */
	list_for_each_entry_safe(ev, next, &marker_events, list)
		if (ev->stale && !ev->used && !walk_err)
			marker_event_unregister(ev);
	mutex_unlock(&marker_events_mutex);
	marker_event_wants_free(&want);
	return err;
}

/**
 * marker_event_set - enable or disable a name's event in the top instance
 * @key: the name, or an SDT "provider:name"
 * @on: enable, or disable
 *
 * What the control file's "to trace" does: the same as writing the
 * event's enable file. Between marker_events_hold() and
 * marker_events_release(); must not be called under marker_mutex.
 *
 * An event whose making failed when its sites came is made here, to be
 * enabled.
 *
 * Return: 0 (also for a name whose sites record nothing: guards, or
 * sites in freed init text), -EPERM when the name has sites but no event
 * (they disagree, or cannot be printed: the listing says why), -ENOENT
 * when it has no site, -ENOMEM when its event could not be made, or what
 * enabling returned; nothing changes on error.
 */
int marker_event_set(const char *key, bool on)
{
	struct marker_event *ev;

	lockdep_assert_held(&marker_events_mutex);
	ev = marker_event_find(key);
	/*
	 * Its making failed when the name's sites came (marker_events_sync()
	 * said "no trace event for"), most likely for memory.
	 */
	if (!ev && on) {
		ev = marker_event_make(key, NULL, NULL);
		if (IS_ERR(ev))
			return PTR_ERR(ev);
	}
	if (!ev)
		return marker_key_no_event(key);
	return trace_set_clr_event(ev->class.system, ev->name, on);
}

/**
 * marker_event_enabled - is a name's event enabled in the top instance?
 * @key: the name, or an SDT "provider:name"
 *
 * What its enable file reads, which may have changed since
 * marker_event_set(). Between marker_events_hold() and its release.
 *
 * Return: true if the name has an event, enabled in the top instance.
 */
bool marker_event_enabled(const char *key)
{
	struct trace_array *tr = top_trace_array();
	struct trace_event_file *file;
	struct marker_event *ev;
	bool on;

	lockdep_assert_held(&marker_events_mutex);
	ev = marker_event_find(key);
	if (!ev || !tr)
		return false;
	mutex_lock(&event_mutex);
	file = find_event_file(tr, ev->class.system, ev->name);
	on = file && (file->flags & EVENT_FILE_FL_ENABLED);
	mutex_unlock(&event_mutex);
	return on;
}

/**
 * marker_events_hold - start switching events with marker_event_set()
 *
 * Until marker_events_release(), the events stay (no sync removes one),
 * and the probes of those disabled are detached all at once at the end.
 */
void marker_events_hold(void)
{
	mutex_lock(&marker_events_mutex);
	WRITE_ONCE(marker_events_holding, true);
}

/**
 * marker_events_release - end marker_events_hold()
 *
 * Detach the probes of the events disabled since, in one change of the
 * registry: one grace period for all of them.
 */
void marker_events_release(void)
{
	struct marker_op *ops;
	struct marker_event *ev;
	unsigned int n = 0;

	mutex_lock(&event_mutex);
	WRITE_ONCE(marker_events_holding, false);
	list_for_each_entry(ev, &marker_events, list)
		n += ev->detach_queued;
	ops = n ? kcalloc(n, sizeof(*ops), GFP_KERNEL) : NULL;
	n = 0;
	list_for_each_entry(ev, &marker_events, list) {
		if (!ev->detach_queued)
			continue;
		ev->detach_queued = false;
		if (!ops) {	/* no memory for one change: one each */
			if (marker_event_attach(ev, false))
				pr_warn("events: %s stays attached (no memory to detach it)\n",
					ev->key);
			continue;
		}
		ops[n].key = ev->key;
		if (ev->sdt)
			ops[n].probe.sdt_func = marker_event_sdt_probe;
		else
			ops[n].probe.func = marker_event_mark_probe;
		ops[n].probe.data = ev;
		n++;
	}
	/*
	 * On failure nothing changed: those events stay attached, and are
	 * detached when used and left again, or before they are removed.
	 */
	if (n && marker_change(ops, n))
		pr_warn("events: detaching %u probes failed, they stay attached\n", n);
	else
		while (n--)
			((struct marker_event *)ops[n].probe.data)->attached = false;
	mutex_unlock(&event_mutex);
	mutex_unlock(&marker_events_mutex);
	kfree(ops);
}

/**
 * marker_event_hits - the hits a name's event recorded
 * @key: the name, or an SDT "provider:name"
 *
 * For the control file's hit column. Under RCU: callable under
 * marker_mutex.
 *
 * Return: the number of hits since the event was made, 0 without one.
 */
unsigned long marker_event_hits(const char *key)
{
	struct marker_event *ev;
	unsigned long n = 0;
	int cpu;

	rcu_read_lock();
	list_for_each_entry_rcu(ev, &marker_events, list) {
		if (strcmp(ev->key, key))
			continue;
		for_each_possible_cpu(cpu)
			n += *per_cpu_ptr(ev->hits, cpu);
	}
	rcu_read_unlock();
	return n;
}

/*
 * After the registry indexed a coming module's sites, or forgot a going
 * module's (its chain): follow it. Before the control file (priority 0 in
 * that chain), whose markers.enable= enables the coming module's events.
 */
static int marker_events_module_notify(struct notifier_block *nb,
				       unsigned long val, void *data)
{
	if (val == MODULE_STATE_COMING || val == MODULE_STATE_GOING)
		marker_events_sync();
	return NOTIFY_OK;
}

static struct notifier_block marker_events_module_nb = {
	.notifier_call = marker_events_module_notify,
	.priority = 1,
};

static int __init marker_events_init(void)
{
	int ret = dyn_event_register(&marker_dyn_ops);

	if (ret)
		return ret;
	marker_events_sync();
	return marker_register_module_notifier(&marker_events_module_nb);
}

/* After the event subsystem (core and fs initcalls) is up. */
late_initcall(marker_events_init);

