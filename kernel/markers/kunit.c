// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: what the KUnit suites (tests/) read of the registry.
 * Built with CONFIG_KUNIT, exported only to the EXPORTED_FOR_KUNIT_TESTING
 * namespace.
 */

#include <kunit/visibility.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>

#include "internal.h"
#include "sdt.h"

/**
 * marker_count_sites - count the sites of a key, for tests
 * @key: the marker name or SDT "provider:name"
 * @armed: if not NULL, set to the number of those sites that are armed
 *
 * Return: the number of sites (copies) of @key.
 */
unsigned int marker_count_sites(const char *key, unsigned int *armed)
{
	struct marker_entry *e;
	struct marker_name *mn;
	unsigned int n = 0, a = 0;

	mutex_lock(&marker_mutex);
	mn = marker_find_name(key);
	if (mn) {
		for_each_marker_site(e, mn) {
			n++;
			a += marker_entry_armed(e);
		}
	}
	mutex_unlock(&marker_mutex);
	if (armed)
		*armed = a;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(marker_count_sites);

/**
 * sdt_count_thunks - count the SDT sites of a key armed with a thunk
 * @key: "provider:name"
 * @calls: if not NULL, set to the number armed with the trampoline
 *
 * Return: the number of its sites that call their own thunk.
 */
unsigned int sdt_count_thunks(const char *key, unsigned int *calls)
{
	struct marker_entry *e;
	struct marker_name *mn;
	unsigned int n = 0, c = 0;

	mutex_lock(&marker_mutex);
	mn = marker_find_name(key);
	if (mn) {
		for_each_marker_site(e, mn) {
			if (e->site->kind != MARKER_KIND_SDT)
				continue;
			n += sdt_state(e, NULL) == SDT_THUNK;
			c += sdt_state(e, NULL) == SDT_CALL;
		}
	}
	mutex_unlock(&marker_mutex);
	if (calls)
		*calls = c;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(sdt_count_thunks);

/**
 * sdt_count_errors - count the SDT sites of a key whose arming failed
 * @key: "provider:name"
 *
 * Return: the number of its sites in error ("error" in the listing).
 */
unsigned int sdt_count_errors(const char *key)
{
	struct marker_entry *e;
	struct marker_name *mn;
	unsigned int n = 0;

	mutex_lock(&marker_mutex);
	mn = marker_find_name(key);
	if (mn) {
		for_each_marker_site(e, mn)
			n += e->site->kind == MARKER_KIND_SDT &&
			     sdt_state(e, NULL) == SDT_ERROR;
	}
	mutex_unlock(&marker_mutex);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(sdt_count_errors);

/* The first SDT site of @key, or NULL; under marker_mutex. */
static struct marker_entry *sdt_first_site(const char *key)
{
	struct marker_name *mn = marker_find_name(key);
	struct marker_entry *e;

	lockdep_assert_held(&marker_mutex);
	if (!mn)
		return NULL;
	for_each_marker_site(e, mn) {
		if (e->site->kind == MARKER_KIND_SDT)
			return e;
	}
	return NULL;
}

/**
 * sdt_thunk_set_live - set the live flag of an SDT site's thunk, for tests
 * @key: "provider:name"
 * @live: false: the thunk behaves as a retired one, which a task that was
 *	  in it when its site was disarmed may still run; true: as it was
 *
 * Return: 0, or -ENOENT if the first SDT site of @key calls no thunk.
 */
int sdt_thunk_set_live(const char *key, bool live)
{
	struct marker_entry *e;
	int ret = -ENOENT;

	mutex_lock(&marker_mutex);
	e = sdt_first_site(key);
	if (e && e->sdt && e->sdt->thunk) {
		WRITE_ONCE(e->sdt->thunk->live, live);
		ret = 0;
	}
	mutex_unlock(&marker_mutex);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(sdt_thunk_set_live);

/**
 * sdt_site_info - the first SDT site of a "provider:name", for tests
 * @key: "provider:name"
 * @addr: set to the site's address
 * @faults: set to its count of faulting memory operands
 *
 * Return: -ENOENT without such a site; else the site's state: a negative
 * error if arming failed, 0 dormant, 1 armed with an int3 kprobe, 2 armed
 * with an optimized kprobe, 3 armed with a call of the trampoline, 4 with a
 * call of its thunk.
 */
int sdt_site_info(const char *key, void **addr, unsigned int *faults)
{
	struct marker_entry *e;
	int ret = -ENOENT, err;

	mutex_lock(&marker_mutex);
	e = sdt_first_site(key);
	if (!e)
		goto out;
	*addr = marker_site_code(e->site);
	*faults = sdt_faults(e);
	switch (sdt_state(e, &err)) {
	case SDT_DORMANT:
		ret = 0;
		break;
	case SDT_KPROBE:
		ret = 1;
		break;
	case SDT_OPTIMIZED:
		ret = 2;
		break;
	case SDT_CALL:
		ret = 3;
		break;
	case SDT_THUNK:
		ret = 4;
		break;
	case SDT_ERROR:
		ret = err;
		break;
	}
out:
	mutex_unlock(&marker_mutex);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(sdt_site_info);

/**
 * sdt_site_why - why the first SDT site of a "provider:name" is in error
 * @key: "provider:name"
 *
 * Return: the one word the listing shows, or "" when there is none (no
 * such site, no error, or an error without a word).
 */
const char *sdt_site_why(const char *key)
{
	struct marker_entry *e;
	const char *why = NULL;

	mutex_lock(&marker_mutex);
	e = sdt_first_site(key);
	if (e)
		why = sdt_why(e);
	mutex_unlock(&marker_mutex);
	return why ?: "";
}
EXPORT_SYMBOL_IF_KUNIT(sdt_site_why);

/*
 * The CALL of a MARK() site of vmlinux in init text, which boot freed
 * (core.c's own markers_init site), or NULL.
 */
void *marker_gone_call(void)
{
	struct marker_object *obj;
	void *code = NULL;
	unsigned int i;

	mutex_lock(&marker_mutex);
	list_for_each_entry(obj, &marker_objects, list) {
		if (obj->mod)
			continue;
		for (i = 0; i < obj->ncalls && !code; i++)
			if (obj->calls[i].gone)
				code = obj->calls[i].code;
	}
	mutex_unlock(&marker_mutex);
	return code;
}
EXPORT_SYMBOL_IF_KUNIT(marker_gone_call);

/**
 * mark_name_callee - where the CALLs of a MARK() name's first site go
 * @key: the name
 *
 * Return: its probe, __marker_iterate() or __marker_slowpath() (see
 * mark.c), or NULL if @key has no MARK() site.
 */
void *mark_name_callee(const char *key)
{
	struct marker_entry *e;
	struct marker_name *mn;
	void *callee = NULL;

	mutex_lock(&marker_mutex);
	mn = marker_find_name(key);
	if (mn) {
		for_each_marker_site(e, mn) {
			if (e->site->kind != MARKER_KIND_MARK)
				continue;
			callee = mark_desc_callee(marker_site_desc(e->site));
			break;
		}
	}
	mutex_unlock(&marker_mutex);
	return callee;
}
EXPORT_SYMBOL_IF_KUNIT(mark_name_callee);

/* Wait until kprobes has optimized what it can of the kprobes it has. */
void sdt_wait_kprobe_optimizer(void)
{
	wait_for_kprobe_optimizer();
}
EXPORT_SYMBOL_IF_KUNIT(sdt_wait_kprobe_optimizer);

/*
 * Does what the registry says of a MARK() or guard site @e hold in the
 * text? It calls probes exactly when its NOP is a jump, and its CALLs go to
 * the probe when it is direct, to the iterator when it is multi, to the
 * slow path otherwise.
 */
static bool mark_entry_consistent(struct marker_entry *e)
{
	void *code = marker_site_code(e->site), *want;
	struct marker_desc *desc = marker_site_desc(e->site);
	struct marker_callsite *call;
	struct marker_probes *probes;
	unsigned int n;

	probes = rcu_dereference_protected(desc->probes,
					   lockdep_is_held(&marker_mutex));
	if (!!probes != arch_marker_site_jumps(code))
		return false;
	want = mark_desc_callee(desc);
	for (call = marker_object_calls(e->obj, desc, &n); n--; call++)
		if (!call->gone && !arch_marker_call_goes_to(call->code, want))
			return false;
	return true;
}

/*
 * Does what the registry says of an SDT site @e hold in the text and in
 * kprobes? One armed with a call is a CALL of the trampoline or of its
 * thunk, one armed with a kprobe has an enabled kprobe on it, and a
 * dormant one has neither.
 */
static bool sdt_entry_consistent(struct marker_entry *e)
{
	enum sdt_state state = sdt_state(e, NULL);
	void *code = marker_site_code(e->site);
	bool calls, kprobed;
	struct kprobe *p;

	calls = state == SDT_CALL || state == SDT_THUNK;
	if (arch_sdt_site_calls(code, sdt_thunk_code(e)) != calls)
		return false;
	/*
	 * A kprobe being unoptimized lingers, disabled, after it was
	 * unregistered, until kprobes' optimizer is done with it.
	 */
	rcu_read_lock();
	p = get_kprobe(code);
	kprobed = p && !kprobe_disabled(p);
	rcu_read_unlock();
	return kprobed == (state == SDT_KPROBE || state == SDT_OPTIMIZED);
}

/* The check of each kind; a kind without one is not checked. */
static bool (*const marker_entry_check[MARKER_NR_KINDS])(struct marker_entry *e) = {
	[MARKER_KIND_MARK] = mark_entry_consistent,
	[MARKER_KIND_GUARD] = mark_entry_consistent,
	[MARKER_KIND_SDT] = sdt_entry_consistent,
};

/* Does what the registry says of @e hold in the text and in kprobes? */
static bool marker_entry_consistent(struct marker_entry *e)
{
	bool (*check)(struct marker_entry *e) = marker_entry_check[e->site->kind];

	if (e->gone)
		return !marker_entry_armed(e);
	return !check || check(e);
}

/**
 * marker_check_consistency - check the registry against the text, for tests
 *
 * Between calls of the probe API (no change in flight), compare what the
 * registry says of every site with its text and kprobes, and that every
 * armed site's key has probes.
 *
 * Return: the number of inconsistent sites; each is reported with pr_err().
 */
int marker_check_consistency(void)
{
	struct marker_object *obj;
	struct marker_entry *e;
	int bad = 0;

	mutex_lock(&marker_mutex);
	list_for_each_entry(obj, &marker_objects, list) {
		for (e = obj->entry; e < obj->entry + obj->nr; e++) {
			if (marker_entry_consistent(e) &&
			    (!marker_entry_armed(e) || e->mn->probes))
				continue;
			pr_err("markers: %s in %s: the registry says %s; the text or kprobes disagree\n",
			       e->mn->key, marker_object_name(obj),
			       marker_entry_armed(e) ? "armed" : "not armed");
			bad++;
		}
	}
	mutex_unlock(&marker_mutex);
	return bad;
}
EXPORT_SYMBOL_IF_KUNIT(marker_check_consistency);
