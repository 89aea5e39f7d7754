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

#include "marker_internal.h"

/* One probe: the function, its data, and the format it expects (or NULL). */
struct marker_probe {
	marker_probe_func *func;
	void *data;
	const char *format;
};

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
	struct marker_probes *probes;	/* never NULL */
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
 * marker_mutex protects marker_names, marker_objects, every marker_name's
 * probes, and the probes pointer of every marker_desc (the readers of that
 * pointer, the sites, use RCU instead).
 *
 * Lock nesting: marker_mutex is taken first. static_branch_enable() and
 * static_branch_disable() are called with it held and take cpus_read_lock(),
 * jump_label_mutex and text_mutex inside it. Nothing takes marker_mutex with
 * any of those held.
 */
static DEFINE_MUTEX(marker_mutex);
static LIST_HEAD(marker_names);
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
		if (*fmt == '*') {
			if (n >= max)
				return -EINVAL;
			if (cls)
				cls[n] = MARKER_ARG_INT;
			n++;
			fmt++;
		} else {
			while (isdigit(*fmt))
				fmt++;
		}
		if (*fmt == '.') {
			fmt++;
			if (*fmt == '*') {
				if (n >= max)
					return -EINVAL;
				if (cls)
					cls[n] = MARKER_ARG_INT;
				n++;
				fmt++;
			} else {
				while (isdigit(*fmt))
					fmt++;
			}
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
		if (n >= max)
			return -EINVAL;
		if (cls)
			cls[n] = c;
		n++;
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
notrace void __marker_call(const struct marker_desc *desc, const char *fmt, ...)
{
	struct marker_probes *probes;
	unsigned int i;
	va_list args;

	/* Sites in idle or early entry code: RCU would not wait for them. */
	if (WARN_ONCE(!rcu_is_watching(), "marker site where RCU is not watching"))
		return;

	preempt_disable_notrace();
	probes = rcu_dereference_sched(desc->probes);
	if (probes) {
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

/* The probes a site should call: @probes, unless one's format mismatches. */
static bool marker_site_accepts(const struct marker_site *site,
				const struct marker_probes *probes)
{
	unsigned int i;

	if (site->kind != MARKER_KIND_MARK)
		return true;
	for (i = 0; i < probes->nr; i++) {
		const char *fmt = probes->probe[i].format;

		if (fmt && !marker_format_match(fmt, marker_site_format(site)))
			return false;
	}
	return true;
}

/*
 * Point @site at @probes (NULL: no probe) and set its static key to match.
 * A site whose format does not match the probes is left dormant; @warn says
 * so once, for a site that arrives with a module.
 */
static void marker_update_site(const struct marker_site *site,
			       struct marker_probes *probes, bool warn)
{
	struct marker_desc *desc = marker_site_desc(site);
	struct marker_probes *cur;

	lockdep_assert_held(&marker_mutex);
	if (probes && !marker_site_accepts(site, probes)) {
		if (warn)
			pr_warn("%s at %pS: format \"%s\" does not match the probes of that name; site stays dormant\n",
				marker_site_name(site), marker_site_code(site),
				marker_site_format(site));
		probes = NULL;
	}
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

static void marker_update_name(const char *name, struct marker_probes *probes)
{
	const struct marker_site *site;
	struct marker_object *obj;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry(obj, &marker_objects, list) {
		for (site = obj->start; site < obj->stop; site++) {
			if (!strcmp(marker_site_name(site), name))
				marker_update_site(site, probes, false);
		}
	}
}

static int marker_probe_index(const struct marker_probes *probes,
			      marker_probe_func *func, void *data)
{
	unsigned int i;

	for (i = 0; probes && i < probes->nr; i++)
		if (probes->probe[i].func == func && probes->probe[i].data == data)
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
	struct marker_probes *old, *new;
	const struct marker_site *site;
	struct marker_name *mn, *new_mn = NULL;
	struct marker_object *obj;
	char *fmt = NULL;
	unsigned int i;
	int ret;

	if (!marker_name_valid(name) || !probe)
		return -EINVAL;
	if (format && (!*format || marker_parse_format(format, NULL, 0) < 0))
		return -EINVAL;

	mutex_lock(&marker_mutex);
	mn = marker_find_name(name);
	old = mn ? mn->probes : NULL;
	if (marker_probe_index(old, probe, probe_data) >= 0) {
		ret = -EEXIST;
		goto unlock;
	}
	if (format) {
		/* The probes of a name agree, so that a site can match them all. */
		for (i = 0; old && i < old->nr; i++) {
			if (old->probe[i].format &&
			    !marker_format_match(format, old->probe[i].format)) {
				ret = -EPERM;
				goto unlock;
			}
		}
		list_for_each_entry(obj, &marker_objects, list) {
			for (site = obj->start; site < obj->stop; site++) {
				if (site->kind != MARKER_KIND_MARK ||
				    strcmp(marker_site_name(site), name))
					continue;
				if (!marker_format_match(format,
							 marker_site_format(site))) {
					ret = -EPERM;
					goto unlock;
				}
			}
		}
	}

	ret = -ENOMEM;
	new = marker_alloc_probes(old ? old->nr + 1 : 1);
	if (!new)
		goto unlock;
	if (format) {
		fmt = kstrdup(format, GFP_KERNEL);
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
	new->probe[new->nr - 1] = (struct marker_probe) {
		.func = probe, .data = probe_data, .format = fmt,
	};
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
	struct marker_probes *old, *new = NULL;
	struct marker_name *mn;
	const char *fmt;
	int i;

	if (!name || !probe)
		return -EINVAL;

	mutex_lock(&marker_mutex);
	mn = marker_find_name(name);
	old = mn ? mn->probes : NULL;
	i = marker_probe_index(old, probe, probe_data);
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
EXPORT_SYMBOL_GPL(marker_disable_probe);

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
			if (rcu_access_pointer(marker_site_desc(site)->probes))
				a++;
		}
	}
	mutex_unlock(&marker_mutex);
	if (armed)
		*armed = a;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(marker_count_sites);
#endif

/* --- Modules ---------------------------------------------------------- */

/* Is @site a further copy of a site already met in @obj? */
static bool marker_desc_seen(const struct marker_object *obj,
			     const struct marker_site *site)
{
	const struct marker_site *s;

	for (s = obj->start; s < site; s++)
		if (marker_site_desc(s) == marker_site_desc(site))
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
			marker_update_site(site, mn->probes,
					   !marker_desc_seen(obj, site));
	}
	mutex_unlock(&marker_mutex);
	return 0;
}

static void marker_module_going(struct module *mod)
{
	struct marker_object *obj;

	mutex_lock(&marker_mutex);
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

static const char *marker_state(const struct marker_site *site,
				const struct marker_name *mn)
{
	if (rcu_access_pointer(marker_site_desc(site)->probes))
		return "armed";
	return mn ? "mismatch" : "dormant";
}

static int marker_seq_show(struct seq_file *m, void *v)
{
	struct marker_iter *it = v;
	const struct marker_site *site;
	struct marker_name *mn;
	void *code;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "# name kind \"format\" function+off/size [module] state probes address\n");
		return 0;
	}
	if (!it->obj) {
		mn = it->mn;
		seq_printf(m, "%s - \"\" - pending %u -\n", mn->name,
			   mn->probes->nr);
		return 0;
	}
	site = it->site;
	code = marker_site_code(site);
	mn = marker_find_name(marker_site_name(site));
	seq_printf(m, "%s %s \"", marker_site_name(site),
		   site->kind == MARKER_KIND_GUARD ? "guard" : "mark");
	seq_escape_str(m, marker_site_format(site),
		       ESCAPE_ANY_NP | ESCAPE_APPEND, "\"\\");
	/* Freed init text has no symbol left: do not print a raw address. */
	if (kallsyms_lookup_size_offset((unsigned long)code, NULL, NULL))
		seq_printf(m, "\" %pS ", code);
	else
		seq_puts(m, "\" - ");
	seq_printf(m, "%s %u ", marker_state(site, mn), mn ? mn->probes->nr : 0);
	if (kallsyms_show_value(m->file->f_cred))
		seq_printf(m, "0x%lx\n", (unsigned long)code);
	else
		seq_puts(m, "-\n");
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

static int __init marker_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("markers", NULL);

	debugfs_create_file("list", 0400, dir, NULL, &marker_list_fops);
	return 0;
}
fs_initcall(marker_debugfs_init);

static int __init marker_init(void)
{
	return register_module_notifier(&marker_module_nb);
}
early_initcall(marker_init);
