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
 * The built-in probes go through the same registry as any module's probe:
 * "trace" writes a line per hit into the ftrace ring buffer, "printk" a
 * rate-limited pr_info(). See Documentation/trace/markers.rst.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/ctype.h>
#include <linux/glob.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <kunit/visibility.h>

#include "marker_internal.h"

/* One attached built-in probe: its data is this struct. */
struct marker_builtin {
	struct list_head list;		/* in marker_builtins */
	enum marker_sink sink;
	bool sdt;
	char key[];			/* name, or provider:name */
};

/*
 * marker_control_mutex protects marker_builtins and serializes control
 * writes. It nests outside marker_mutex (taken by marker_add_probe() and
 * marker_remove_probe()).
 */
static DEFINE_MUTEX(marker_control_mutex);
static LIST_HEAD(marker_builtins);

/* --- Built-in probes -------------------------------------------------- */

static DEFINE_RATELIMIT_STATE(marker_printk_rs, 5 * HZ, 10);

/* A hit as text: "name: formatted" or "provider:name arg0=... ...". */
static int marker_hit_text(char *buf, size_t size, const char *key,
			   const char *fmt, va_list *args)
{
	int len = scnprintf(buf, size, "%s: ", key);

	return len + vscnprintf(buf + len, size - len, fmt, *args);
}

static int sdt_hit_text(char *buf, size_t size, const char *key,
			const u64 *args, unsigned int nargs)
{
	int len = scnprintf(buf, size, "%s", key);
	unsigned int i;

	for (i = 0; i < nargs; i++)
		len += scnprintf(buf + len, size - len, " arg%u=%lld", i,
				 (long long)args[i]);
	return len;
}

static void marker_trace_probe(void *data, const char *fmt, va_list *args)
{
	struct marker_builtin *b = data;
	char buf[MARKER_HIT_TEXT];
	int len = marker_hit_text(buf, sizeof(buf) - 1, b->key, fmt, args);

	buf[len++] = '\n';
	__trace_puts(_THIS_IP_, buf, len);
}

static void marker_printk_probe(void *data, const char *fmt, va_list *args)
{
	struct marker_builtin *b = data;
	char buf[MARKER_HIT_TEXT];

	if (!__ratelimit(&marker_printk_rs))
		return;
	marker_hit_text(buf, sizeof(buf), b->key, fmt, args);
	pr_info("%s\n", buf);
}

static void sdt_trace_probe(void *data, const u64 *args, unsigned int nargs)
{
	struct marker_builtin *b = data;
	char buf[MARKER_HIT_TEXT];
	int len = sdt_hit_text(buf, sizeof(buf) - 1, b->key, args, nargs);

	buf[len++] = '\n';
	__trace_puts(_THIS_IP_, buf, len);
}

static void sdt_printk_probe(void *data, const u64 *args, unsigned int nargs)
{
	struct marker_builtin *b = data;
	char buf[MARKER_HIT_TEXT];

	if (!__ratelimit(&marker_printk_rs))
		return;
	sdt_hit_text(buf, sizeof(buf), b->key, args, nargs);
	pr_info("%s\n", buf);
}

static const void *marker_builtin_func(bool sdt, enum marker_sink sink)
{
	if (sdt)
		return sink == MARKER_SINK_TRACE ? (void *)sdt_trace_probe :
						   (void *)sdt_printk_probe;
	return sink == MARKER_SINK_TRACE ? (void *)marker_trace_probe :
					   (void *)marker_printk_probe;
}

static struct marker_builtin *marker_builtin_find(const char *key,
						  enum marker_sink sink)
{
	struct marker_builtin *b;

	lockdep_assert_held(&marker_control_mutex);
	list_for_each_entry(b, &marker_builtins, list)
		if (b->sink == sink && !strcmp(b->key, key))
			return b;
	return NULL;
}

/* Attach a built-in probe; nothing changes on error. */
static int marker_builtin_attach(const char *key, bool sdt,
				 enum marker_sink sink)
{
	struct marker_probe np = { .nargs = -1 };
	struct marker_builtin *b;
	size_t len = strlen(key) + 1;
	int ret;

	lockdep_assert_held(&marker_control_mutex);
	if (marker_builtin_find(key, sink))
		return 0;
	b = kzalloc(struct_size(b, key, len), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	memcpy(b->key, key, len);
	b->sink = sink;
	b->sdt = sdt;
	np.func = (marker_probe_func *)marker_builtin_func(sdt, sink);
	np.data = b;
	ret = marker_add_probe(key, &np);
	if (ret) {
		kfree(b);
		return ret;
	}
	list_add_tail(&b->list, &marker_builtins);
	return 0;
}

/* Detach a built-in probe; does not fail. */
static void marker_builtin_detach(struct marker_builtin *b)
{
	lockdep_assert_held(&marker_control_mutex);
	marker_remove_probe(b->key, marker_builtin_func(b->sdt, b->sink), b);
	list_del(&b->list);
	kfree(b);
}

/* --- Parsing ---------------------------------------------------------- */

/* A glob: 1..MARKER_GLOB_MAX of [A-Za-z0-9_:*?!-] and balanced [...]. */
static bool marker_glob_valid(const char *g)
{
	bool in_class = false;
	size_t n = strlen(g);

	if (!n || n > MARKER_GLOB_MAX)
		return false;
	for (; *g; g++) {
		if (*g == '[') {
			if (in_class)
				return false;
			in_class = true;
		} else if (*g == ']') {
			if (!in_class)
				return false;
			in_class = false;
		} else if (!isalnum(*g) && !strchr("_:*?!-", *g)) {
			return false;
		}
	}
	return !in_class;
}

/* A module name: 1..MODULE_NAME_LEN-1 of [A-Za-z0-9_-]. */
static bool marker_modname_valid(const char *m)
{
	size_t n = strlen(m);

	if (!n || n >= MODULE_NAME_LEN)
		return false;
	for (; *m; m++)
		if (!isalnum(*m) && *m != '_' && *m != '-')
			return false;
	return true;
}

/* Parse one command (a NUL-terminated, modifiable string) into @cmd. */
static int marker_parse_cmd(char *s, struct marker_cmd *cmd)
{
	char *word, *val;

	memset(cmd, 0, sizeof(*cmd));
	cmd->sink = MARKER_SINK_TRACE;
	word = strsep(&s, " \t");
	if (!strcmp(word, "enable"))
		cmd->enable = true;
	else if (strcmp(word, "disable"))
		return -EINVAL;
	cmd->any_sink = !cmd->enable;

	for (;;) {
		if (s)
			s = skip_spaces(s);
		if (!s || !*s)
			break;
		word = strsep(&s, " \t");
		if (s)
			s = skip_spaces(s);
		if (!s || !*s)
			return -EINVAL;		/* a keyword without a value */
		val = strsep(&s, " \t");
		if (!strcmp(word, "name")) {
			if (cmd->name || !marker_glob_valid(val))
				return -EINVAL;
			cmd->name = val;
		} else if (!strcmp(word, "module")) {
			if (cmd->module || !marker_modname_valid(val))
				return -EINVAL;
			cmd->module = val;
		} else if (!strcmp(word, "provider")) {
			if (cmd->provider || !marker_glob_valid(val) ||
			    strchr(val, ':'))
				return -EINVAL;
			cmd->provider = val;
		} else if (!strcmp(word, "to")) {
			if (cmd->has_sink)
				return -EINVAL;
			if (!strcmp(val, "trace"))
				cmd->sink = MARKER_SINK_TRACE;
			else if (!strcmp(val, "printk"))
				cmd->sink = MARKER_SINK_PRINTK;
			else
				return -EINVAL;
			cmd->has_sink = true;
			cmd->any_sink = false;
		} else {
			return -EINVAL;
		}
	}
	return cmd->name ? 0 : -EINVAL;
}

/**
 * marker_control_parse - split and parse the commands of one write
 * @buf: the text written, NUL-terminated; modified
 * @cmds: where to store the commands
 * @max: the room in @cmds
 *
 * Commands are separated by newlines or ';'. Blank commands and comments
 * (from '#' to the end of the line) are skipped.
 *
 * Return: the number of commands, -EINVAL for one that does not parse, or
 * -E2BIG for more than @max.
 */
VISIBLE_IF_KUNIT int marker_control_parse(char *buf, struct marker_cmd *cmds,
					  unsigned int max)
{
	unsigned int n = 0;
	char *line, *cmd, *hash;
	int ret;

	while ((line = strsep(&buf, "\n"))) {
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		while ((cmd = strsep(&line, ";"))) {
			cmd = strim(cmd);
			if (!*cmd)
				continue;
			if (n >= max)
				return -E2BIG;
			ret = marker_parse_cmd(cmd, &cmds[n]);
			if (ret)
				return ret;
			n++;
		}
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(marker_control_parse);

/* --- Applying --------------------------------------------------------- */

/* What a write wants: (key, sink) pairs with the built-in probe or not. */
struct marker_want {
	const char *key;	/* points into the matched keys */
	bool sdt;
	enum marker_sink sink;
	bool on;		/* wanted at the end of the write */
	bool attached;		/* attached by this write */
};

struct marker_match {
	const struct marker_cmd *cmd;
	char (*keys)[MARKER_KEY_MAX];	/* the distinct keys matched */
	bool *sdt;
	unsigned int n, max;
	int ret;
};

/* Does the site (@key, @module, @sdt) match @cmd? */
static bool marker_cmd_matches(const struct marker_cmd *cmd, const char *key,
			       const char *module, bool sdt)
{
	char prov[MARKER_KEY_MAX];
	const char *colon;

	if (!glob_match(cmd->name, key))
		return false;
	if (cmd->module && strcmp(cmd->module, module))
		return false;
	if (cmd->provider) {
		colon = strchr(key, ':');
		if (!sdt || !colon || colon - key >= sizeof(prov))
			return false;
		memcpy(prov, key, colon - key);
		prov[colon - key] = '\0';
		if (!glob_match(cmd->provider, prov))
			return false;
	}
	return true;
}

static int marker_match_site(void *ctx, const char *key, const char *module,
			     bool sdt)
{
	struct marker_match *mm = ctx;
	unsigned int i;

	/* A name too long for a key cannot be switched from here. */
	if (strlen(key) >= MARKER_KEY_MAX || !marker_cmd_matches(mm->cmd, key, module, sdt))
		return 0;
	for (i = 0; i < mm->n; i++)
		if (!strcmp(mm->keys[i], key))
			return 0;
	if (mm->n >= mm->max)
		return -E2BIG;
	strscpy(mm->keys[mm->n], key, MARKER_KEY_MAX);
	mm->sdt[mm->n] = sdt;
	mm->n++;
	return 0;
}

/* Set (key, sink) in @want to @on, adding the pair if needed. */
static int marker_want_set(struct marker_want *want, unsigned int *n,
			   unsigned int max, const char *key, bool sdt,
			   enum marker_sink sink, bool on)
{
	unsigned int i;

	for (i = 0; i < *n; i++) {
		if (want[i].sink == sink && !strcmp(want[i].key, key)) {
			want[i].on = on;
			return 0;
		}
	}
	if (*n >= max)
		return -E2BIG;
	want[(*n)++] = (struct marker_want){
		.key = key, .sdt = sdt, .sink = sink, .on = on,
	};
	return 0;
}

/*
 * Apply @n commands all or nothing: match every command against the
 * sites, work out the built-in probes wanted at the end, then attach the
 * new ones (undoing them all if one fails) and detach the old ones (which
 * cannot fail).
 */
static int marker_control_apply(const struct marker_cmd *cmds, unsigned int n)
{
	unsigned int i, j, nwant = 0, nkeys = 0, maxkeys = MARKER_CONTROL_KEYS;
	struct marker_match mm = { .max = maxkeys };
	struct marker_builtin *b, *tmp;
	struct marker_want *want = NULL;
	unsigned int maxwant = 2 * maxkeys;
	LIST_HEAD(gone);
	int ret = 0;

	mutex_lock(&marker_control_mutex);
	list_for_each_entry(b, &marker_builtins, list)
		maxwant++;
	mm.keys = kvcalloc(maxkeys, sizeof(*mm.keys), GFP_KERNEL);
	mm.sdt = kvcalloc(maxkeys, sizeof(*mm.sdt), GFP_KERNEL);
	want = kvcalloc(maxwant, sizeof(*want), GFP_KERNEL);
	if (!mm.keys || !mm.sdt || !want) {
		ret = -ENOMEM;
		goto out_unlock;
	}

	/* The state before this write. */
	list_for_each_entry(b, &marker_builtins, list) {
		ret = marker_want_set(want, &nwant, maxwant, b->key, b->sdt,
				      b->sink, true);
		if (ret)
			goto out_unlock;
	}
	/* Each command, in order, on top of it. */
	for (i = 0; i < n; i++) {
		unsigned int first = nkeys;

		mm.cmd = &cmds[i];
		mm.keys += first;
		mm.sdt += first;
		mm.n = 0;
		mm.max = maxkeys - first;
		ret = marker_walk_sites(marker_match_site, &mm);
		/* disable also reaches names that have lost their sites. */
		list_for_each_entry(b, &marker_builtins, list) {
			if (ret || cmds[i].enable)
				break;
			ret = marker_match_site(&mm, b->key, "", b->sdt);
		}
		mm.keys -= first;
		mm.sdt -= first;
		if (ret)
			goto out_unlock;
		if (!mm.n) {
			ret = -ENOENT;
			goto out_unlock;
		}
		nkeys += mm.n;
		for (j = first; j < nkeys; j++) {
			if (cmds[i].any_sink) {
				ret = marker_want_set(want, &nwant, maxwant,
						      mm.keys[j], mm.sdt[j],
						      MARKER_SINK_TRACE, false);
				if (!ret)
					ret = marker_want_set(want, &nwant, maxwant,
							      mm.keys[j], mm.sdt[j],
							      MARKER_SINK_PRINTK, false);
			} else {
				ret = marker_want_set(want, &nwant, maxwant,
						      mm.keys[j], mm.sdt[j],
						      cmds[i].sink, cmds[i].enable);
			}
			if (ret)
				goto out_unlock;
		}
	}

	/* Attach what is new; on failure, detach what this write attached. */
	for (i = 0; i < nwant; i++) {
		if (!want[i].on || marker_builtin_find(want[i].key, want[i].sink))
			continue;
		ret = marker_builtin_attach(want[i].key, want[i].sdt, want[i].sink);
		if (ret) {
			for (j = 0; j < i; j++) {
				if (!want[j].attached)
					continue;
				b = marker_builtin_find(want[j].key, want[j].sink);
				if (b)
					marker_builtin_detach(b);
			}
			goto out_unlock;
		}
		want[i].attached = true;
	}
	/*
	 * Detach what is no longer wanted: pick them all first, since the
	 * keys in want[] of builtins that existed before point into them.
	 */
	list_for_each_entry_safe(b, tmp, &marker_builtins, list) {
		for (i = 0; i < nwant; i++)
			if (!want[i].on && want[i].sink == b->sink &&
			    !strcmp(want[i].key, b->key))
				break;
		if (i < nwant)
			list_move_tail(&b->list, &gone);
	}
	list_for_each_entry_safe(b, tmp, &gone, list)
		marker_builtin_detach(b);
out_unlock:
	mutex_unlock(&marker_control_mutex);
	kvfree(want);
	kvfree(mm.sdt);
	kvfree(mm.keys);
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
 * nothing was applied: -E2BIG for a write over MARKER_CONTROL_MAX bytes
 * or MARKER_CONTROL_CMDS commands, -EINVAL for a command that does not
 * parse (or a NUL byte), -ENOENT for a command that matches no site.
 */
ssize_t marker_control_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	struct marker_cmd *cmds;
	char *buf;
	int n, ret;

	if (len > MARKER_CONTROL_MAX)
		return -E2BIG;
	if (!len)
		return 0;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	cmds = kcalloc(MARKER_CONTROL_CMDS, sizeof(*cmds), GFP_KERNEL);
	if (!cmds) {
		kfree(buf);
		return -ENOMEM;
	}
	if (strlen(buf) != len)
		n = -EINVAL;		/* a NUL byte */
	else
		n = marker_control_parse(buf, cmds, MARKER_CONTROL_CMDS);
	ret = n < 0 ? n : marker_control_apply(cmds, n);
	kfree(cmds);
	kfree(buf);
	return ret ? ret : len;
}

/* --- markers.enable= -------------------------------------------------- */

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "markers."

static char marker_boot_globs[MARKER_CONTROL_MAX];
module_param_string(enable, marker_boot_globs, sizeof(marker_boot_globs), 0444);
MODULE_PARM_DESC(enable, "Comma-separated name globs to send to the trace buffer");

/* The globs of markers.enable=, split (in a copy) at boot; NULL-terminated. */
static char marker_boot_split[MARKER_CONTROL_MAX];
static char *marker_boot_glob[MARKER_BOOT_GLOBS + 1];

struct marker_boot_ctx {
	struct module *mod;		/* NULL: all sites */
	char (*keys)[MARKER_KEY_MAX];
	bool *sdt;
	unsigned int n;
};

static int marker_boot_match(void *ctx, const char *key, const char *module,
			     bool sdt)
{
	struct marker_boot_ctx *bc = ctx;
	unsigned int i;

	if (bc->mod && strcmp(module, bc->mod->name))
		return 0;
	for (i = 0; i < bc->n; i++)
		if (!strcmp(bc->keys[i], key))
			return 0;
	for (i = 0; marker_boot_glob[i]; i++) {
		if (glob_match(marker_boot_glob[i], key)) {
			if (bc->n >= MARKER_CONTROL_KEYS)
				return -E2BIG;
			strscpy(bc->keys[bc->n], key, MARKER_KEY_MAX);
			bc->sdt[bc->n++] = sdt;
			break;
		}
	}
	return 0;
}

/* Send the names matching markers.enable= (in @mod, or all) to the trace. */
static void marker_boot_enable(struct module *mod)
{
	struct marker_boot_ctx bc = { .mod = mod };
	unsigned int i;
	int ret;

	if (!marker_boot_glob[0])
		return;
	bc.keys = kvcalloc(MARKER_CONTROL_KEYS, sizeof(*bc.keys), GFP_KERNEL);
	bc.sdt = kvcalloc(MARKER_CONTROL_KEYS, sizeof(*bc.sdt), GFP_KERNEL);
	if (!bc.keys || !bc.sdt)
		goto out;
	ret = marker_walk_sites(marker_boot_match, &bc);
	if (ret)
		pr_warn("markers.enable: %d\n", ret);
	mutex_lock(&marker_control_mutex);
	for (i = 0; i < bc.n; i++) {
		ret = marker_builtin_attach(bc.keys[i], bc.sdt[i], MARKER_SINK_TRACE);
		if (ret)
			pr_warn("markers.enable: %s: %d\n", bc.keys[i], ret);
	}
	mutex_unlock(&marker_control_mutex);
out:
	kvfree(bc.sdt);
	kvfree(bc.keys);
}

void marker_control_module_coming(struct module *mod)
{
	marker_boot_enable(mod);
}

static int __init marker_boot_init(void)
{
	unsigned int n = 0;
	char *p = marker_boot_split, *g;

	strscpy(marker_boot_split, marker_boot_globs, sizeof(marker_boot_split));
	while ((g = strsep(&p, ","))) {
		if (!*g)
			continue;
		if (!marker_glob_valid(g))
			pr_warn("markers.enable: ignoring malformed glob \"%s\"\n", g);
		else if (n < MARKER_BOOT_GLOBS)
			marker_boot_glob[n++] = g;
		else
			pr_warn("markers.enable: ignoring globs past %d\n",
				MARKER_BOOT_GLOBS);
	}
	marker_boot_enable(NULL);
	return 0;
}
late_initcall(marker_boot_init);
