// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: what the dynamic_events file does with marker events.
 *
 * The events of marker sites are the kernel's, as a TRACE_EVENT is (see
 * trace_markers.c): dynamic_events does not list them, "-:markers/<name>"
 * there is -ENOENT, and clearing the file ("echo > dynamic_events")
 * leaves them.
 *
 * Users make events of their own there, any number per name, under a
 * group and name of their choice:
 *
 *	m:[GROUP/]EVENT KEY
 *
 * where KEY is a marker name or an SDT "provider:name" with sites that
 * agree (GROUP defaults to the key's own: markers, or sdt_<provider>).
 * Such an event is listed as "m:GROUP/EVENT KEY", deleted with
 * "-:[GROUP/]EVENT [KEY]" unless it is busy (enabled, used by perf, or
 * referred to by an eprobe), and goes when the file is cleared, as every
 * other type's do. It is not tied to the sites there when it is made: its
 * probe stays on the name when they go, and catches them again when they
 * come back. A command that cannot be carried out changes nothing, and
 * says why in the error_log.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>

#include "../markers/events.h"
#include "../markers/internal.h"
#include "trace.h"
#include "trace_markers.h"

/*
 * What dynamic_events does with marker events (see the top of this file):
 * it makes, lists, deletes and clears the users' ("m:"); the sites' are
 * never shown, never matched, never busy and never freed there, so that
 * clearing the file goes on past them.
 */
static struct marker_event *to_marker_event(struct dyn_event *de)
{
	return container_of(de, struct marker_event, devent);
}

static int marker_dyn_show(struct seq_file *m, struct dyn_event *de)
{
	struct marker_event *ev = to_marker_event(de);

	if (ev->user)
		seq_printf(m, "m:%s/%s %s\n", ev->class.system, ev->name, ev->key);
	return 0;
}

static bool marker_dyn_is_busy(struct dyn_event *de)
{
	struct marker_event *ev = to_marker_event(de);

	return ev->user && (marker_event_in_use(ev) ||
			    trace_event_dyn_busy(&ev->call));
}

/* Under event_mutex; dyn_event_release() then clears the buffers. */
static int marker_dyn_free(struct dyn_event *de)
{
	struct marker_event *ev = to_marker_event(de);
	int ret;

	lockdep_assert_held(&event_mutex);
	if (!ev->user)
		return 0;
	if (marker_dyn_is_busy(de))
		return -EBUSY;
	ret = ev->attached ? marker_event_attach(ev, false) : 0;
	ret = ret ?: trace_remove_event_call(&ev->call);
	if (ret)
		return ret;
	dyn_event_remove(&ev->devent);
	call_rcu(&ev->rcu, marker_event_free_rcu);
	return 0;
}

static bool marker_dyn_match(const char *system, const char *event, int argc,
			     const char **argv, struct dyn_event *de)
{
	struct marker_event *ev = to_marker_event(de);

	if (!ev->user || strcmp(event, ev->name) ||
	    (system && strcmp(system, ev->class.system)))
		return false;
	return !argc || (argc == 1 && !strcmp(argv[0], ev->key));
}

/**
 * marker_event_names - the group and name of an event being made
 * @ev: the event of @key
 * @key: the key whose event it is
 * @group: the group of a user's event, or NULL: the key's
 * @user: the name of a user's event, or NULL: the key's
 *
 * A key's own are markers/NAME and sdt_PROVIDER/NAME. A name left NULL
 * (no memory) fails the making.
 *
 * Dynamic debug sites' are dyndbg_MODULE/FUNCTION, or FUNCTION__N for the
 * N-th site of a function: a group per module, as per SDT provider, whose
 * name is good even where a module's starts with a digit, and whose
 * "enable" switches the module's events.
 */
void marker_event_names(struct marker_event *ev, const char *key,
			const char *group, const char *user)
{
	const char *colon = strchr(key, ':');
	const char *dot = colon ? NULL : strchr(key, '.'), *n;

	if (group)
		ev->class.system = kstrdup(group, GFP_KERNEL);
	else if (colon)
		ev->class.system = kasprintf(GFP_KERNEL, SDT_EVENT_PREFIX "%.*s",
					     (int)(colon - key), key);
	else if (dot)
		ev->class.system = kasprintf(GFP_KERNEL, DYNDBG_EVENT_PREFIX "%.*s",
					     (int)(dot - key), key);
	else
		ev->class.system = kstrdup(MARKER_EVENT_SYSTEM, GFP_KERNEL);
	ev->name = kstrdup(user ?: colon ? colon + 1 : key, GFP_KERNEL);
	if (!user && dot) {
		kfree(ev->name);
		n = strchr(dot + 1, '.');
		ev->name = n ? kasprintf(GFP_KERNEL, "%.*s__%s", (int)(n - dot - 1),
					 dot + 1, n + 1) :
			       kstrdup(dot + 1, GFP_KERNEL);
	}
}

/* Why a command "m:..." was refused, for the error_log. */
enum {
	MARKER_DYN_ERR_USAGE,
	MARKER_DYN_ERR_BAD_GROUP,
	MARKER_DYN_ERR_BAD_EVENT,
	MARKER_DYN_ERR_NO_SITE,
	MARKER_DYN_ERR_NO_EVENT,
	MARKER_DYN_ERR_EXISTS,
	MARKER_DYN_ERR_NO_MEMORY,
};

static const char * const marker_dyn_errs[] = {
	[MARKER_DYN_ERR_USAGE]		= "Usage: m:[GROUP/]EVENT KEY",
	[MARKER_DYN_ERR_BAD_GROUP]	= "Group name is not a C identifier under 64 bytes",
	[MARKER_DYN_ERR_BAD_EVENT]	= "Event name is not a C identifier under 64 bytes",
	[MARKER_DYN_ERR_NO_SITE]	= "No site has this marker name or SDT key",
	[MARKER_DYN_ERR_NO_EVENT]	= "Its sites disagree or record nothing: see the listing",
	[MARKER_DYN_ERR_EXISTS]		= "An event of this group and name exists",
	[MARKER_DYN_ERR_NO_MEMORY]	= "Out of memory",
};

static int marker_dyn_refuse(const char *cmd, const char *at, int err,
			     int ret)
{
	/* tracing_log_err() only reads the strings, and keeps them. */
	tracing_log_err(NULL, "marker_event", cmd, (const char **)marker_dyn_errs, err,
			at ? at - cmd : 0);
	return ret;
}

/*
 * "m:[GROUP/]EVENT KEY": make a user's event for KEY. Under
 * dyn_event_ops_mutex. Return: 0, -ECANCELED (not ours), or the error,
 * logged, and nothing made.
 */
static int marker_dyn_create(const char *raw_command)
{
	const char *group = NULL, *event, *key, *key_at;
	struct marker_event *ev;
	char *cmd, *slash, **argv;
	int argc, ret;

	if (raw_command[0] != 'm' || raw_command[1] != ':')
		return -ECANCELED;
	cmd = kstrdup(raw_command, GFP_KERNEL);
	argv = argv_split(GFP_KERNEL, raw_command, &argc);
	if (!cmd || !argv) {
		ret = -ENOMEM;
		goto out;
	}
	event = argv[0] + 2;
	if (argc != 2) {
		ret = marker_dyn_refuse(cmd, NULL, MARKER_DYN_ERR_USAGE, -EINVAL);
		goto out;
	}
	key = argv[1];
	key_at = strstr(cmd + strlen(argv[0]), key);
	slash = strchr(argv[0], '/');
	if (slash) {
		*slash = '\0';
		group = event;
		event = slash + 1;
		if (!is_good_system_name(group) ||
		    strlen(group) >= MAX_EVENT_NAME_LEN) {
			ret = marker_dyn_refuse(cmd, cmd + 2, MARKER_DYN_ERR_BAD_GROUP,
						-EINVAL);
			goto out;
		}
	}
	if (!is_good_name(event) || strlen(event) >= MAX_EVENT_NAME_LEN) {
		ret = marker_dyn_refuse(cmd, cmd + (event - argv[0]),
					MARKER_DYN_ERR_BAD_EVENT, -EINVAL);
		goto out;
	}
	ev = marker_event_make(key, group, event);
	ret = IS_ERR(ev) ? PTR_ERR(ev) : 0;
	if (!ev)
		ret = marker_key_no_event(key) ?: -EPERM;
	if (ret == -ENOENT || ret == -EINVAL)
		ret = marker_dyn_refuse(cmd, key_at,
					MARKER_DYN_ERR_NO_SITE, -ENOENT);
	else if (ret == -EPERM)
		ret = marker_dyn_refuse(cmd, key_at,
					MARKER_DYN_ERR_NO_EVENT, -EPERM);
	else if (ret == -EEXIST)
		ret = marker_dyn_refuse(cmd, cmd + 2, MARKER_DYN_ERR_EXISTS, -EEXIST);
	else if (ret == -ENOMEM)
		ret = marker_dyn_refuse(cmd, NULL, MARKER_DYN_ERR_NO_MEMORY, -ENOMEM);
out:
	argv_free(argv);
	kfree(cmd);
	return ret;
}

struct dyn_event_operations marker_dyn_ops = {
	.create = marker_dyn_create,
	.show = marker_dyn_show,
	.is_busy = marker_dyn_is_busy,
	.free = marker_dyn_free,
	.match = marker_dyn_match,
};

