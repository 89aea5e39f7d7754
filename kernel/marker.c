// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the registry of marker sites and of the probes attached
 * to them by name.
 *
 * Sites come from the __markers section of vmlinux and of each module
 * (one struct marker_site per copy of a site, see <linux/marker.h>).
 * Probes are kept per name, in a copy-on-write array published under RCU
 * to every site of that name whose format matches them; the site's static
 * key is enabled while it has probes.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/string_helpers.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include <asm/sdt.h>

#include "marker_internal.h"

/*
 * The probes of one name, in registration order. Never modified once
 * published: a change makes a new array (copy-on-write), and the old one
 * is freed after a grace period.
 */
struct marker_probes {
	struct rcu_head rcu;
	unsigned int nr;
	struct marker_probe probe[] __counted_by(nr);
};

/* A name with at least one probe, whether or not a site has that name. */
struct marker_name {
	struct list_head list;		/* in marker_names */
	struct marker_probes *probes;	/* never NULL; under marker_mutex */
	char name[];
};

/* The sites of vmlinux or of one module. */
struct marker_object {
	struct list_head list;		/* in marker_objects */
	struct module *mod;		/* NULL for vmlinux */
	const struct marker_site *start;
	const struct marker_site *stop;
};

/*
 * An SDT site with probes: its kprobe and its decoded operand spec. Sites
 * whose arming failed stay listed here with @error until their name loses
 * its probes.
 */
struct sdt_site {
	struct list_head list;		/* in sdt_sites */
	const struct marker_site *site;
	struct marker_object *obj;
	struct marker_probes __rcu *probes;
	struct kprobe kp;
	bool registered;		/* kp is registered */
	int error;			/* arming failed: -errno */
	atomic_t faults;		/* memory operands that faulted */
	unsigned long hits;		/* approximate under concurrent hits */
	struct sdt_prog prog;
};

/*
 * marker_mutex protects marker_names, marker_objects, sdt_sites, every
 * marker_name's probes, and the probes pointer of every marker_desc and
 * sdt_site (their readers, the sites, use RCU instead).
 *
 * Lock nesting: marker_mutex is taken first. static_branch_enable(),
 * static_branch_disable(), register_kprobe() and unregister_kprobe() are
 * called with it held and take kprobe_mutex, cpus_read_lock(),
 * jump_label_mutex and text_mutex inside it; so does sdt_resolve() with
 * module_mutex. Nothing takes marker_mutex with any of those held.
 */
static DEFINE_MUTEX(marker_mutex);
static LIST_HEAD(marker_names);
static LIST_HEAD(sdt_sites);

/*
 * Arm SDT sites with int3 kprobes only (a post_handler keeps kprobes from
 * optimizing them), for tests of that path.
 */
VISIBLE_IF_KUNIT bool sdt_int3_only;
EXPORT_SYMBOL_IF_KUNIT(sdt_int3_only);
static struct list_head marker_objects;

/* vmlinux is in the list from the start, so probes may attach at any time. */
static struct marker_object marker_vmlinux = {
	.list	= LIST_HEAD_INIT(marker_objects),
	.start	= __start___markers,
	.stop	= __stop___markers,
};

static struct list_head marker_objects = LIST_HEAD_INIT(marker_vmlinux.list);

static inline const char *marker_site_name(const struct marker_site *site)
{
	return offset_to_ptr(&site->name);
}

static inline const char *marker_site_format(const struct marker_site *site)
{
	return offset_to_ptr(&site->format);
}

static inline struct marker_desc *marker_site_desc(const struct marker_site *site)
{
	return offset_to_ptr(&site->desc);
}

static inline void *marker_site_code(const struct marker_site *site)
{
	return offset_to_ptr(&site->code);
}

/* --- Formats ---------------------------------------------------------- */

/* Store argument class @c as the next of @cls (if not NULL). */
static int marker_add_class(u8 *cls, unsigned int *n, unsigned int max, u8 c)
{
	if (*n >= max)
		return -EINVAL;
	if (cls)
		cls[*n] = c;
	(*n)++;
	return 0;
}

/* A width or precision at *@fmt: '*' takes an int argument, digits none. */
static int marker_parse_width(const char **fmt, u8 *cls, unsigned int *n,
			      unsigned int max)
{
	if (**fmt != '*') {
		while (isdigit(**fmt))
			(*fmt)++;
		return 0;
	}
	(*fmt)++;
	return marker_add_class(cls, n, max, MARKER_ARG_INT);
}

/**
 * marker_parse_format - the argument classes of a printf format
 * @fmt: the format
 * @cls: where to store one enum marker_arg_class per argument, or NULL
 * @max: the room in @cls
 *
 * Flags, width, precision and literal text carry no argument and are
 * skipped; a '*' width or precision is an int argument. Length modifiers
 * hh, h, l, ll, L, z, t and j are honoured with C's default promotions:
 * everything int-sized or smaller is an int.
 *
 * Return: the number of arguments, or -EINVAL for a conversion the kernel's
 * vsprintf() has no meaning for, a '%' at the end, or more than @max (or
 * MARKER_MAX_ARGS) arguments.
 */
VISIBLE_IF_KUNIT int marker_parse_format(const char *fmt, u8 *cls,
					 unsigned int max)
{
	unsigned int n = 0;
	bool wide;
	u8 c;

	if (!cls)
		max = MARKER_MAX_ARGS;
	max = min_t(unsigned int, max, MARKER_MAX_ARGS);

	while (*fmt) {
		if (*fmt++ != '%')
			continue;
		if (*fmt == '%') {
			fmt++;
			continue;
		}
		while (*fmt && strchr("-+ #0", *fmt))
			fmt++;
		if (marker_parse_width(&fmt, cls, &n, max))
			return -EINVAL;
		if (*fmt == '.') {
			fmt++;
			if (marker_parse_width(&fmt, cls, &n, max))
				return -EINVAL;
		}
		wide = false;
		switch (*fmt) {
		case 'h':
			fmt += fmt[1] == 'h' ? 2 : 1;
			break;
		case 'l':
			fmt += fmt[1] == 'l' ? 2 : 1;
			wide = true;
			break;
		case 'L':
		case 'z':
		case 't':
		case 'j':
			fmt++;
			wide = true;
			break;
		}
		switch (*fmt++) {
		case 'd':
		case 'i':
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			c = wide ? MARKER_ARG_LONG : MARKER_ARG_INT;
			break;
		case 'c':
			c = MARKER_ARG_INT;
			break;
		case 's':
			c = MARKER_ARG_STR;
			break;
		case 'p':
			/* %p and its extensions (%pS, %pI4, ...): a pointer. */
			c = MARKER_ARG_PTR;
			break;
		default:	/* '\0', floating point, %n, unknown */
			return -EINVAL;
		}
		if (marker_add_class(cls, &n, max, c))
			return -EINVAL;
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(marker_parse_format);

/**
 * marker_format_match - do two formats take the same arguments?
 * @a: a format
 * @b: another format
 *
 * Return: true when both parse and have the same number of arguments, each
 * of the same class (so the same va_arg() type and size).
 */
VISIBLE_IF_KUNIT bool marker_format_match(const char *a, const char *b)
{
	u8 ca[MARKER_MAX_ARGS], cb[MARKER_MAX_ARGS];
	int na, nb;

	na = marker_parse_format(a, ca, ARRAY_SIZE(ca));
	nb = marker_parse_format(b, cb, ARRAY_SIZE(cb));
	return na >= 0 && na == nb && !memcmp(ca, cb, na);
}
EXPORT_SYMBOL_IF_KUNIT(marker_format_match);

/* --- The call path ---------------------------------------------------- */

/**
 * __marker_call - call the probes of an armed site
 * @desc: the site's descriptor
 * @fmt: the site's format
 *
 * Called by MARK() from the out-of-line side of an enabled site, never
 * directly. Each probe gets its own va_list of the site's arguments.
 */
notrace void __marker_call(struct marker_desc *desc, const char *fmt, ...)
{
	struct marker_probes *probes;
	unsigned int i;
	va_list args;

	/*
	 * Sites in idle or early entry code: RCU would not wait for them.
	 * Checked under lockdep, as tracepoints do.
	 */
	if (IS_ENABLED(CONFIG_LOCKDEP) &&
	    WARN_ONCE(!rcu_is_watching(), "marker site where RCU is not watching"))
		return;

	preempt_disable_notrace();
	/*
	 * Raw: preemption is disabled (the RCU read side of this pointer),
	 * and the lockdep check of rcu_dereference_sched() would double the
	 * cost of a hit (tracepoints use the raw form for the same reason).
	 */
	probes = rcu_dereference_raw(desc->probes);
	if (probes) {
		/* Approximate under concurrent hits; no atomic on the hit path. */
		WRITE_ONCE(desc->hits, READ_ONCE(desc->hits) + 1);
		for (i = 0; i < probes->nr; i++) {
			va_start(args, fmt);
			probes->probe[i].func(probes->probe[i].data, fmt, &args);
			va_end(args);
		}
	}
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(__marker_call);

/* --- The registry ----------------------------------------------------- */

/* A marker name is a C identifier, as MARK() takes it. */
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

static struct marker_name *marker_find_name(const char *name)
{
	struct marker_name *mn;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry(mn, &marker_names, list)
		if (!strcmp(mn->name, name))
			return mn;
	return NULL;
}

/* The number of arguments in an SDT operand spec. */
static int sdt_spec_nargs(const char *spec)
{
	int n = 0;

	while (*spec) {
		while (*spec == ' ')
			spec++;
		if (!*spec)
			break;
		n++;
		while (*spec && *spec != ' ')
			spec++;
	}
	return n;
}

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
	default:		/* MARK_ENABLED(): any probe */
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

static void marker_warn_mismatch(const struct marker_site *site)
{
	pr_warn("%s at %pS: \"%s\" does not match the probes of that name; site stays dormant\n",
		marker_site_name(site), marker_site_code(site),
		marker_site_format(site));
}

/*
 * Point a MARK() or MARK_ENABLED() site at @probes (NULL: none) and set its
 * static key to match.
 */
static void marker_update_desc(const struct marker_site *site,
			       struct marker_probes *probes)
{
	struct marker_desc *desc = marker_site_desc(site);
	struct marker_probes *cur;

	cur = rcu_dereference_protected(desc->probes,
					lockdep_is_held(&marker_mutex));
	if (cur == probes)
		return;
	if (probes) {
		rcu_assign_pointer(desc->probes, probes);
		static_branch_enable(&desc->key);
	} else {
		static_branch_disable(&desc->key);
		RCU_INIT_POINTER(desc->probes, NULL);
	}
}

/* --- SDT sites -------------------------------------------------------- */

static struct sdt_site *sdt_find(const struct marker_site *site)
{
	struct sdt_site *ss;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry(ss, &sdt_sites, list)
		if (ss->site == site)
			return ss;
	return NULL;
}

struct sdt_sym_match {
	const char *name;
	unsigned long addr;
	unsigned int n;
};

static int sdt_match_vmlinux(void *data, unsigned long addr)
{
	struct sdt_sym_match *m = data;

	m->addr = addr;
	m->n++;
	return 0;
}

static int sdt_match_module(void *data, const char *name, unsigned long addr)
{
	struct sdt_sym_match *m = data;

	if (!strcmp(name, m->name)) {
		m->addr = addr;
		m->n++;
	}
	return 0;
}

/*
 * The symbol of a %rip-relative operand, looked up in the site's own
 * object (vmlinux, or its module): 0 when it is not there, or not unique
 * (two static variables of that name), rather than a guess. Data symbols
 * need CONFIG_KALLSYMS_ALL.
 */
static unsigned long sdt_resolve(void *ctx, const char *sym)
{
	struct marker_object *obj = ctx;
	struct sdt_sym_match m = { .name = sym };

	if (!obj->mod)
		kallsyms_on_each_match_symbol(sdt_match_vmlinux, sym, &m);
	else
		module_kallsyms_on_each_symbol(obj->mod->name, sdt_match_module, &m);
	return m.n == 1 ? m.addr : 0;
}

static int sdt_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct sdt_site *ss = container_of(kp, struct sdt_site, kp);
	struct marker_probes *probes;
	u64 args[SDT_MAX_ARGS];
	unsigned int i, faults;

	/* kprobe handlers run with preemption disabled. */
	probes = rcu_dereference_sched(ss->probes);
	if (!probes)
		return 0;
	WRITE_ONCE(ss->hits, READ_ONCE(ss->hits) + 1);
	faults = arch_sdt_fetch(&ss->prog, regs, args);
	if (unlikely(faults))
		atomic_add(faults, &ss->faults);
	for (i = 0; i < probes->nr; i++)
		probes->probe[i].sdt_func(probes->probe[i].data, args,
					  ss->prog.nargs);
	return 0;
}

NOKPROBE_SYMBOL(sdt_kprobe_pre);

/*
 * Is the site's kprobe optimized into a jump? kprobes wraps an optimized
 * probe in an aggregate kprobe: ask the one registered at the address.
 */
static bool sdt_optimized(struct sdt_site *ss)
{
	struct kprobe *p;
	bool ret;

	if (!ss->registered)
		return false;
	rcu_read_lock();
	p = get_kprobe(ss->kp.addr);
	ret = p && kprobe_optimized(p);
	rcu_read_unlock();
	return ret;
}

/* Present only to keep kprobes from optimizing the site (sdt_int3_only). */
static void sdt_kprobe_post(struct kprobe *kp, struct pt_regs *regs,
			    unsigned long flags)
{
}

static void sdt_disarm(struct sdt_site *ss)
{
	lockdep_assert_held(&marker_mutex);
	if (ss->registered)
		unregister_kprobe(&ss->kp);	/* waits for running handlers */
	list_del(&ss->list);
	kfree(ss);
}

/*
 * Arm an SDT site with @probes: decode its spec once and register its
 * kprobe. A site that cannot be armed (a spec that does not parse, a
 * kprobe refused) keeps the error, shown in the listing, and stays dormant;
 * no other site is affected.
 */
static void sdt_arm(struct marker_object *obj, const struct marker_site *site,
		    struct marker_probes *probes)
{
	struct sdt_site *ss = sdt_find(site);
	int ret;

	if (!ss) {
		/* Out of memory: the site stays dormant (kzalloc() warns). */
		ss = kzalloc(sizeof(*ss), GFP_KERNEL);
		if (!ss)
			return;
		ss->site = site;
		ss->obj = obj;
		list_add_tail(&ss->list, &sdt_sites);
		ret = arch_sdt_parse(marker_site_format(site), &ss->prog,
				     sdt_resolve, obj);
		if (ret < 0) {
			ss->error = ret;
			pr_warn("%s at %pS: cannot decode \"%s\": %d\n",
				marker_site_name(site), marker_site_code(site),
				marker_site_format(site), ret);
		}
	}
	if (ss->error)
		return;
	rcu_assign_pointer(ss->probes, probes);
	if (ss->registered)
		return;
	ss->kp.addr = marker_site_code(site);
	ss->kp.pre_handler = sdt_kprobe_pre;
	if (sdt_int3_only)
		ss->kp.post_handler = sdt_kprobe_post;
	ret = register_kprobe(&ss->kp);
	if (ret) {
		ss->error = ret;
		RCU_INIT_POINTER(ss->probes, NULL);
		pr_warn("%s at %pS: cannot register a kprobe: %d\n",
			marker_site_name(site), marker_site_code(site), ret);
		return;
	}
	ss->registered = true;
}

/* Is @site calling probes? */
static bool marker_site_armed(const struct marker_site *site)
{
	struct sdt_site *ss;

	if (site->kind != MARKER_KIND_SDT)
		return rcu_access_pointer(marker_site_desc(site)->probes);
	ss = sdt_find(site);
	return ss && ss->registered;
}

/* --- Attaching and detaching ---------------------------------------- */

/*
 * Point @site at @probes (NULL: no probe), patching or kprobing it to
 * match. A site that does not take the probes is left dormant; @warn says
 * so, for a site that arrives with a module.
 */
static void marker_update_site(struct marker_object *obj,
			       const struct marker_site *site,
			       struct marker_probes *probes, bool warn)
{
	struct sdt_site *ss;

	lockdep_assert_held(&marker_mutex);
	if (probes && !marker_site_accepts(site, probes)) {
		if (warn)
			marker_warn_mismatch(site);
		probes = NULL;
	}
	if (site->kind != MARKER_KIND_SDT) {
		marker_update_desc(site, probes);
	} else if (probes) {
		sdt_arm(obj, site, probes);
	} else {
		ss = sdt_find(site);
		if (ss)
			sdt_disarm(ss);
	}
}

static void marker_update_name(const char *name, struct marker_probes *probes)
{
	const struct marker_site *site;
	struct marker_object *obj;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry(obj, &marker_objects, list) {
		for (site = obj->start; site < obj->stop; site++) {
			if (!strcmp(marker_site_name(site), name))
				marker_update_site(obj, site, probes, false);
		}
	}
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
 * Attach @np under @name (a MARK() name or an SDT "provider:name"): check
 * it against the other probes and the sites of @name, then publish a new
 * probe array and update the sites. Nothing changes on error.
 */
int marker_add_probe(const char *name, const struct marker_probe *np)
{
	struct marker_name *mn, *new_mn = NULL;
	struct marker_probes *old, *new;
	const struct marker_site *site;
	struct marker_object *obj;
	char *fmt = NULL;
	unsigned int i;
	int ret;

	mutex_lock(&marker_mutex);
	mn = marker_find_name(name);
	old = mn ? mn->probes : NULL;
	if (marker_probe_index(old, np->func, np->data) >= 0) {
		ret = -EEXIST;
		goto unlock;
	}
	/* The probes of a name agree, so that a site can take them all. */
	ret = -EPERM;
	for (i = 0; old && i < old->nr; i++)
		if (!marker_probes_agree(np, &old->probe[i]))
			goto unlock;
	list_for_each_entry(obj, &marker_objects, list) {
		for (site = obj->start; site < obj->stop; site++) {
			if (!strcmp(marker_site_name(site), name) &&
			    !marker_site_accepts_probe(site, np))
				goto unlock;
		}
	}

	ret = -ENOMEM;
	new = marker_alloc_probes(old ? old->nr + 1 : 1);
	if (!new)
		goto unlock;
	if (np->format) {
		fmt = kstrdup(np->format, GFP_KERNEL);
		if (!fmt)
			goto free;
	}
	if (!mn) {
		size_t len = strlen(name) + 1;

		new_mn = kzalloc(struct_size(new_mn, name, len), GFP_KERNEL);
		if (!new_mn)
			goto free;
		memcpy(new_mn->name, name, len);
		mn = new_mn;
	}

	if (old)
		memcpy(new->probe, old->probe, old->nr * sizeof(old->probe[0]));
	new->probe[new->nr - 1] = *np;
	new->probe[new->nr - 1].format = fmt;
	mn->probes = new;
	if (new_mn)
		list_add_tail(&new_mn->list, &marker_names);
	marker_update_name(name, new);
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

/*
 * Detach (@func, @data) from @name, and return once no CPU runs it any
 * more. Does not fail for an attached probe.
 */
int marker_remove_probe(const char *name, const void *func, void *data)
{
	struct marker_probes *old, *new = NULL;
	struct marker_name *mn;
	const char *fmt;
	int i;

	mutex_lock(&marker_mutex);
	mn = marker_find_name(name);
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
	marker_update_name(name, new);
	if (new) {
		mn->probes = new;
	} else {
		list_del(&mn->list);
		kfree(mn);
	}
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

/* "provider:name" of an SDT probe, or -EINVAL. */
static int sdt_key(char *buf, const char *provider, const char *name)
{
	if (!marker_name_valid(provider) || !marker_name_valid(name))
		return -EINVAL;
	sprintf(buf, "%s:%s", provider, name);
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
	char key[2 * MARKER_NAME_MAX + 2];

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
	char key[2 * MARKER_NAME_MAX + 2];

	if (sdt_key(key, provider, name) || !probe)
		return -EINVAL;
	return marker_remove_probe(key, probe, probe_data);
}
EXPORT_SYMBOL_GPL(sdt_disable_probe);

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * marker_count_sites - count the sites of a name, for tests
 * @name: the marker name
 * @armed: if not NULL, set to the number of those sites that are armed
 *
 * Return: the number of sites (copies) named @name.
 */
VISIBLE_IF_KUNIT unsigned int marker_count_sites(const char *name,
						 unsigned int *armed)
{
	const struct marker_site *site;
	struct marker_object *obj;
	unsigned int n = 0, a = 0;

	mutex_lock(&marker_mutex);
	list_for_each_entry(obj, &marker_objects, list) {
		for (site = obj->start; site < obj->stop; site++) {
			if (strcmp(marker_site_name(site), name))
				continue;
			n++;
			if (marker_site_armed(site))
				a++;
		}
	}
	mutex_unlock(&marker_mutex);
	if (armed)
		*armed = a;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(marker_count_sites);

/**
 * sdt_site_info - the first SDT site of a "provider:name", for tests
 * @key: "provider:name"
 * @addr: set to the site's address
 * @faults: set to its count of faulting memory operands
 *
 * Return: -ENOENT without such a site; else the site's state: a negative
 * error if arming failed, 0 dormant, 1 armed with an int3 kprobe, 2 armed
 * with an optimized kprobe.
 */
VISIBLE_IF_KUNIT int sdt_site_info(const char *key, void **addr,
				   unsigned int *faults)
{
	const struct marker_site *site;
	struct marker_object *obj;
	struct sdt_site *ss;
	int ret = -ENOENT;

	mutex_lock(&marker_mutex);
	list_for_each_entry(obj, &marker_objects, list) {
		for (site = obj->start; site < obj->stop; site++) {
			if (site->kind != MARKER_KIND_SDT ||
			    strcmp(marker_site_name(site), key))
				continue;
			*addr = marker_site_code(site);
			ss = sdt_find(site);
			*faults = ss ? atomic_read(&ss->faults) : 0;
			if (!ss)
				ret = 0;
			else if (ss->error)
				ret = ss->error;
			else
				ret = sdt_optimized(ss) ? 2 : 1;
			goto out;
		}
	}
out:
	mutex_unlock(&marker_mutex);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(sdt_site_info);
#endif

/* See marker_internal.h. */
int marker_walk_sites(marker_site_fn *fn, void *ctx)
{
	const struct marker_site *site;
	struct marker_object *obj;
	int ret = 0;

	mutex_lock(&marker_mutex);
	list_for_each_entry(obj, &marker_objects, list) {
		for (site = obj->start; site < obj->stop; site++) {
			/* SDT keys have a ':', also on SDT_ENABLED() guards. */
			ret = fn(ctx, marker_site_name(site),
				 obj->mod ? obj->mod->name : "vmlinux",
				 site->kind == MARKER_KIND_SDT ||
				 strchr(marker_site_name(site), ':'));
			if (ret)
				goto out;
		}
	}
out:
	mutex_unlock(&marker_mutex);
	return ret;
}

/* --- Modules ---------------------------------------------------------- */

/* Is @site a further copy of a site already met in @obj? */
static bool marker_desc_seen(const struct marker_object *obj,
			     const struct marker_site *site)
{
	const struct marker_site *s;

	if (site->kind == MARKER_KIND_SDT)
		return false;
	for (s = obj->start; s < site; s++)
		if (s->kind != MARKER_KIND_SDT &&
		    marker_site_desc(s) == marker_site_desc(site))
			return true;
	return false;
}

static int marker_module_coming(struct module *mod)
{
	const struct marker_site *site;
	struct marker_object *obj;
	struct marker_name *mn;

	if (!mod->num_markers)
		return 0;
	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	if (!obj)
		return -ENOMEM;
	obj->mod = mod;
	obj->start = mod->markers;
	obj->stop = mod->markers + mod->num_markers;

	mutex_lock(&marker_mutex);
	list_add_tail(&obj->list, &marker_objects);
	for (site = obj->start; site < obj->stop; site++) {
		mn = marker_find_name(marker_site_name(site));
		if (mn)
			marker_update_site(obj, site, mn->probes,
					   !marker_desc_seen(obj, site));
	}
	mutex_unlock(&marker_mutex);
	/* Names enabled with markers.enable= on the command line. */
	marker_control_module_coming(mod);
	return 0;
}

static void marker_module_going(struct module *mod)
{
	struct sdt_site *ss, *tmp;
	struct marker_object *obj;

	mutex_lock(&marker_mutex);
	/* Unregister the kprobes of its SDT sites before its text goes. */
	list_for_each_entry_safe(ss, tmp, &sdt_sites, list)
		if (ss->obj->mod == mod)
			sdt_disarm(ss);
	list_for_each_entry(obj, &marker_objects, list) {
		if (obj->mod == mod) {
			/*
			 * The module's code and descriptors go away with it;
			 * its probes stay registered (pending, if no other
			 * object has that name).
			 */
			list_del(&obj->list);
			kfree(obj);
			break;
		}
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
		ret = marker_module_coming(mod);
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
	 * before a coming module's sites are armed.
	 */
	.priority = 0,
};

/* --- debugfs listing -------------------------------------------------- */

/*
 * Listing position: a site of an object, then a pending name (a name with
 * probes and no site). Walked under marker_mutex, from seq_start to seq_stop.
 */
struct marker_iter {
	bool hits;			/* the control file: show hit counts */
	struct marker_object *obj;	/* NULL once past the sites */
	const struct marker_site *site;
	struct marker_name *mn;		/* with !obj: the pending name */
};

static bool marker_name_has_site(const char *name)
{
	const struct marker_site *site;
	struct marker_object *obj;

	list_for_each_entry(obj, &marker_objects, list) {
		for (site = obj->start; site < obj->stop; site++) {
			if (!strcmp(marker_site_name(site), name))
				return true;
		}
	}
	return false;
}

/* Move @it forward to the first element at or after where it points. */
static void *marker_iter_settle(struct marker_iter *it)
{
	lockdep_assert_held(&marker_mutex);
	while (it->obj) {
		if (it->site < it->obj->stop)
			return it;
		if (list_is_last(&it->obj->list, &marker_objects)) {
			it->obj = NULL;
			it->mn = list_first_entry(&marker_names,
						  struct marker_name, list);
			break;
		}
		it->obj = list_next_entry(it->obj, list);
		it->site = it->obj->start;
	}
	for (; !list_entry_is_head(it->mn, &marker_names, list);
	     it->mn = list_next_entry(it->mn, list))
		if (!marker_name_has_site(it->mn->name))
			return it;
	return NULL;
}

static void *marker_iter_first(struct marker_iter *it)
{
	it->obj = list_first_entry(&marker_objects, struct marker_object, list);
	it->site = it->obj->start;
	return marker_iter_settle(it);
}

static void *marker_iter_advance(struct marker_iter *it)
{
	if (it->obj)
		it->site++;
	else
		it->mn = list_next_entry(it->mn, list);
	return marker_iter_settle(it);
}

static void *marker_seq_start(struct seq_file *m, loff_t *pos)
{
	struct marker_iter *it = m->private;
	void *v;
	loff_t n;

	mutex_lock(&marker_mutex);
	if (!*pos)
		return SEQ_START_TOKEN;
	v = marker_iter_first(it);
	for (n = 1; v && n < *pos; n++)
		v = marker_iter_advance(it);
	return v;
}

static void *marker_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct marker_iter *it = m->private;

	(*pos)++;
	if (v == SEQ_START_TOKEN)
		return marker_iter_first(it);
	return marker_iter_advance(it);
}

static void marker_seq_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&marker_mutex);
}

/* A site's state, as the listing shows it. */
static void marker_show_state(struct seq_file *m, const struct marker_site *site,
			      const struct marker_name *mn)
{
	struct sdt_site *ss;

	if (site->kind != MARKER_KIND_SDT) {
		if (rcu_access_pointer(marker_site_desc(site)->probes))
			seq_puts(m, "armed");
		else
			seq_puts(m, mn ? "mismatch" : "dormant");
		return;
	}
	ss = sdt_find(site);
	if (ss && ss->error)
		seq_printf(m, "error(%d)", ss->error);
	else if (ss && ss->registered)
		seq_puts(m, sdt_optimized(ss) ? "optimized" : "kprobe");
	else
		seq_puts(m, mn ? "mismatch" : "dormant");
}

static int marker_seq_show(struct seq_file *m, void *v)
{
	struct marker_iter *it = m->private;
	const struct marker_site *site;
	struct sdt_site *ss = NULL;
	struct marker_name *mn;
	void *code;

	if (v == SEQ_START_TOKEN) {
		seq_printf(m, "# name kind \"format\" function+off/size [module] state probes faults address%s\n",
			   it->hits ? " hits" : "");
		return 0;
	}
	if (!it->obj) {
		mn = it->mn;
		seq_printf(m, "%s - \"\" - pending %u - -%s\n", mn->name,
			   mn->probes->nr, it->hits ? " -" : "");
		return 0;
	}
	site = it->site;
	code = marker_site_code(site);
	mn = marker_find_name(marker_site_name(site));
	seq_printf(m, "%s %s \"", marker_site_name(site),
		   site->kind == MARKER_KIND_SDT ? "sdt" :
		   site->kind == MARKER_KIND_GUARD ? "guard" : "mark");
	seq_escape_str(m, marker_site_format(site),
		       ESCAPE_ANY_NP | ESCAPE_APPEND, "\"\\");
	/* Freed init text has no symbol left: do not print a raw address. */
	if (kallsyms_lookup_size_offset((unsigned long)code, NULL, NULL))
		seq_printf(m, "\" %pS ", code);
	else
		seq_puts(m, "\" - ");
	marker_show_state(m, site, mn);
	seq_printf(m, " %u ", mn ? mn->probes->nr : 0);
	if (site->kind == MARKER_KIND_SDT) {
		ss = sdt_find(site);
		seq_printf(m, "%d ", ss ? atomic_read(&ss->faults) : 0);
	} else {
		seq_puts(m, "- ");
	}
	if (kallsyms_show_value(m->file->f_cred))
		seq_printf(m, "0x%lx", (unsigned long)code);
	else
		seq_puts(m, "-");
	if (it->hits) {
		if (site->kind == MARKER_KIND_SDT)
			seq_printf(m, " %lu", ss ? READ_ONCE(ss->hits) : 0);
		else if (site->kind == MARKER_KIND_MARK)
			seq_printf(m, " %lu", READ_ONCE(marker_site_desc(site)->hits));
		else
			seq_puts(m, " -");
	}
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations marker_seq_ops = {
	.start = marker_seq_start,
	.next = marker_seq_next,
	.stop = marker_seq_stop,
	.show = marker_seq_show,
};

static int marker_list_open(struct inode *inode, struct file *file)
{
	return seq_open_private(file, &marker_seq_ops, sizeof(struct marker_iter));
}

static const struct file_operations marker_list_fops = {
	.open = marker_list_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

/* The control file: the listing with hit counts; commands on write. */
static int marker_control_open(struct inode *inode, struct file *file)
{
	struct marker_iter *it;

	it = __seq_open_private(file, &marker_seq_ops, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->hits = true;
	return 0;
}

static const struct file_operations marker_control_fops = {
	.open = marker_control_open,
	.read = seq_read,
	.write = marker_control_write,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

static int __init marker_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("markers", NULL);

	debugfs_create_file("list", 0400, dir, NULL, &marker_list_fops);
	debugfs_create_file("control", 0600, dir, NULL, &marker_control_fops);
	return 0;
}
fs_initcall(marker_debugfs_init);

static int __init marker_init(void)
{
	return register_module_notifier(&marker_module_nb);
}
early_initcall(marker_init);
