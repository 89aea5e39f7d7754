// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the listing, /sys/kernel/debug/markers/list.
 *
 * A header line, one line per site (vmlinux first, then the modules in the
 * order they came), then one line per pending name (a name with probes and
 * no site), and a comment line per name whose sites disagree on what its
 * trace event would take. See "The listing" in
 * Documentation/trace/markers.rst. The control file (control.c) shows the
 * same listing with a hit-count column, through marker_listing_open().
 *
 * Then the sites of kinds that list them themselves, indexed or not
 * (&struct marker_kind_ops.list: dynamic debug sites); the objects made
 * of those indexed are left out above.
 */

#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/seq_file.h>
#include <linux/string_helpers.h>

#include "internal.h"

struct dentry *marker_debugfs_dir;

/*
 * Why a name with sites has no trace event (see
 * kernel/trace/trace_markers.c), or NULL: its sites disagree on what its
 * fields would be.
 */
static const char *marker_no_event_why(struct marker_name *mn)
{
	const char *why;

	marker_name_event_format(mn, &why);
	return why;
}

/*
 * Listing position: a site of an object, then a pending name, or a name
 * with no trace event. Walked under marker_mutex, from seq_start to
 * seq_stop.
 */
struct marker_iter {
	marker_hits_fn *hits;		/* the control file: show hit counts */
	struct marker_object *obj;	/* NULL once past the sites */
	unsigned int i;			/* the site in obj */
	struct marker_name *mn;		/* with !obj: the pending name */
	unsigned int kind;		/* past the names: a listing kind */
	loff_t rec;			/* and its record */
	loff_t pos;			/* the line it points at */
};

/* Move @it forward to the first line at or after where it points. */
static void *marker_iter_settle(struct marker_iter *it)
{
	const struct marker_kind_ops *ops;

	lockdep_assert_held(&marker_mutex);
	while (it->obj) {
		if (it->obj->made)
			it->i = it->obj->nr;	/* its kind lists them */
		if (it->i < it->obj->nr)
			return it;
		if (list_is_last(&it->obj->list, &marker_objects)) {
			it->obj = NULL;
			it->mn = list_first_entry(&marker_names,
						  struct marker_name, list);
			break;
		}
		it->obj = list_next_entry(it->obj, list);
		it->i = 0;
	}
	for (; !list_entry_is_head(it->mn, &marker_names, list);
	     it->mn = list_next_entry(it->mn, list))
		if (!it->mn->nr_sites || marker_no_event_why(it->mn))
			return it;
	for (; it->kind < MARKER_NR_KINDS; it->kind++, it->rec = 0) {
		ops = marker_kinds[it->kind];
		if (ops && ops->list && ops->list(NULL, it->rec, false))
			return it;
	}
	return NULL;
}

static void *marker_iter_first(struct marker_iter *it)
{
	it->kind = 0;
	it->rec = 0;
	if (list_empty(&marker_objects)) {
		it->obj = NULL;
		it->mn = list_first_entry(&marker_names, struct marker_name, list);
	} else {
		it->obj = list_first_entry(&marker_objects,
					   struct marker_object, list);
		it->i = 0;
	}
	return marker_iter_settle(it);
}

static void *marker_iter_advance(struct marker_iter *it)
{
	if (!it->obj && list_entry_is_head(it->mn, &marker_names, list)) {
		it->rec++;
		return marker_iter_settle(it);
	}
	if (it->obj)
		it->i++;
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
	/*
	 * A read that goes on where the last one stopped, in the kinds'
	 * records: those are numbered, not pointed at, so go on from there
	 * rather than walk every line before (each read would walk the
	 * kinds' records again).
	 */
	if (*pos == it->pos && !it->obj &&
	    list_entry_is_head(it->mn, &marker_names, list))
		return marker_iter_settle(it);
	v = marker_iter_first(it);
	for (n = 1; v && n < *pos; n++)
		v = marker_iter_advance(it);
	it->pos = *pos;
	return v;
}

static void *marker_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct marker_iter *it = m->private;

	(*pos)++;
	it->pos = *pos;
	if (v == SEQ_START_TOKEN)
		return marker_iter_first(it);
	return marker_iter_advance(it);
}

static void marker_seq_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&marker_mutex);
}

static void marker_show_site(struct seq_file *m, const struct marker_entry *e,
			     marker_hits_fn *hits)
{
	const struct marker_kind_ops *ops = marker_kind_of(e->site);
	const struct marker_site *site = e->site;
	void *code = marker_site_code(site);
	unsigned long nhits = 0;
	unsigned int faults = 0;

	seq_printf(m, "%s %s \"", e->mn->key, ops->name);
	seq_escape_str(m, marker_site_format(site),
		       ESCAPE_ANY_NP | ESCAPE_APPEND, "\"\\");
	/* Freed init text has no symbol left: do not print a raw address. */
	if (kallsyms_lookup_size_offset((unsigned long)code, NULL, NULL))
		seq_printf(m, "\" %pS ", code);
	else
		seq_puts(m, "\" - ");
	if (e->gone)
		seq_puts(m, "gone");
	else
		ops->show(m, e);
	seq_printf(m, " %u ", e->mn->probes ? e->mn->probes->nr : 0);
	if (ops->counts) {
		ops->counts(e, &faults, &nhits);
		seq_printf(m, "%u ", faults);
	} else {
		seq_puts(m, "- ");
	}
	if (kallsyms_show_value(m->file->f_cred))
		seq_printf(m, "0x%lx", (unsigned long)code);
	else
		seq_puts(m, "-");
	if (hits) {
		if (ops->counts)
			seq_printf(m, " %lu", nhits);
		else if (ops->client_hits)
			seq_printf(m, " %lu", hits(e->mn->key));
		else
			seq_puts(m, " -");
	}
	seq_putc(m, '\n');
}

static int marker_seq_show(struct seq_file *m, void *v)
{
	struct marker_iter *it = m->private;

	if (v == SEQ_START_TOKEN) {
		seq_printf(m, "# name kind \"format\" function+off/size [module] state probes faults address%s\n",
			   it->hits ? " hits" : "");
		return 0;
	}
	if (it->obj) {
		marker_show_site(m, &it->obj->entry[it->i], it->hits);
		return 0;
	}
	if (list_entry_is_head(it->mn, &marker_names, list)) {
		marker_kinds[it->kind]->list(m, it->rec, it->hits);
		return 0;
	}
	if (it->mn->nr_sites) {
		seq_printf(m, "# %s: no trace event: %s\n", it->mn->key,
			   marker_no_event_why(it->mn));
		return 0;
	}
	seq_printf(m, "%s - \"\" - pending %u - -%s\n", it->mn->key,
		   it->mn->probes->nr, it->hits ? " -" : "");
	return 0;
}

static const struct seq_operations marker_seq_ops = {
	.start = marker_seq_start,
	.next = marker_seq_next,
	.stop = marker_seq_stop,
	.show = marker_seq_show,
};

/**
 * marker_listing_open - open the listing on a file
 * @file: the file being opened (the list file, or the control file)
 * @hits: if not NULL, the hits of a MARK() name, for a hit column
 *
 * Return: 0, or -ENOMEM.
 */
int marker_listing_open(struct file *file, marker_hits_fn *hits)
{
	struct marker_iter *it;

	it = __seq_open_private(file, &marker_seq_ops, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->hits = hits;
	return 0;
}

static int marker_list_open(struct inode *inode, struct file *file)
{
	return marker_listing_open(file, NULL);
}

static const struct file_operations marker_list_fops = {
	.open = marker_list_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

static int __init marker_debugfs_init(void)
{
	marker_debugfs_dir = debugfs_create_dir("markers", NULL);
	debugfs_create_file("list", 0400, marker_debugfs_dir, NULL,
			    &marker_list_fops);
	return 0;
}
fs_initcall(marker_debugfs_init);
