// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the control file's grammar.
 *
 *	command ::= verb "name" GLOB [ "module" MODULE ] [ "provider" PROVIDER ]
 *		    [ "file" FILEGLOB ] [ "line" N[-M] ]
 *		    [ "to" SINK ]
 *
 * marker_control_parse() splits a write into commands (by newline and
 * ';', '#' comments dropped) and parses each into a struct marker_cmd;
 * control.c applies them. marker_boot_parse() parses an item of
 * markers.enable=: a glob, or an enable command's words without its verb.
 * See "The control file" in Documentation/trace/markers.rst.
 */

#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "control.h"

/* A glob: 1..MARKER_GLOB_MAX of [A-Za-z0-9_:*?!-] and balanced [...]. */
/* With CONFIG_MARKERS_DYNDBG, '.' too: keys of dynamic debug sites. */
bool marker_glob_valid(const char *g)
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
		} else if (*g == '.' && IS_ENABLED(CONFIG_MARKERS_DYNDBG)) {
			/* a key of dynamic debug sites (dyndbg.c) */
		} else if (!isascii(*g) || (!isalnum(*g) && !strchr("_:*?!-", *g))) {
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
		if (!isascii(*m) || (!isalnum(*m) && *m != '_' && *m != '-'))
			return false;
	return true;
}

/*
 * A glob on a source file's path, as dynamic debug's "file": 1 to
 * MARKER_GLOB_MAX of letters, digits, the glob's "*?!" and brackets,
 * and "_./+-".
 */
static bool marker_file_glob_valid(const char *g)
{
	bool in_class = false;
	size_t n = strlen(g);

	if (!n || n > MARKER_GLOB_MAX)
		return false;
	for (; *g; g++) {
		if (*g == '[' || *g == ']') {
			if (in_class == (*g == '['))
				return false;
			in_class = !in_class;
		} else if (!isascii(*g) || (!isalnum(*g) && !strchr("_./*?+!-", *g))) {
			return false;
		}
	}
	return !in_class;
}

/* "N" or "N-M": lines N to M, 1 <= N <= M, into @cmd. */
static int marker_parse_lines(struct marker_cmd *cmd, char *val)
{
	char *dash = strchr(val, '-');

	if (dash)
		*dash = '\0';
	if (kstrtouint(val, 10, &cmd->first) ||
	    (dash && kstrtouint(dash + 1, 10, &cmd->last)))
		return -EINVAL;
	if (!dash)
		cmd->last = cmd->first;
	return cmd->first && cmd->first <= cmd->last ? 0 : -EINVAL;
}

/* Take the value of keyword @word into @cmd. */
static int marker_parse_keyword(struct marker_cmd *cmd, const char *word,
				char *val)
{
	if (!strcmp(word, "name")) {
		if (cmd->name || !marker_glob_valid(val))
			return -EINVAL;
		cmd->name = val;
	} else if (!strcmp(word, "module")) {
		if (cmd->module || !marker_modname_valid(val))
			return -EINVAL;
		cmd->module = val;
	} else if (!strcmp(word, "provider")) {
		if (cmd->provider || !marker_glob_valid(val) || strchr(val, ':'))
			return -EINVAL;
		cmd->provider = val;
	} else if (!strcmp(word, "file")) {
		if (cmd->file || !marker_file_glob_valid(val))
			return -EINVAL;
		cmd->file = val;
	} else if (!strcmp(word, "line")) {
		if (cmd->first || marker_parse_lines(cmd, val))
			return -EINVAL;
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
	return 0;
}

/* Parse the keywords and values of a command, after its verb, into @cmd. */
static int marker_parse_words(char *s, struct marker_cmd *cmd)
{
	char *word, *val;
	int ret;

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
		ret = marker_parse_keyword(cmd, word, val);
		if (ret)
			return ret;
	}
	return cmd->name ? 0 : -EINVAL;
}

/* Parse one command (a NUL-terminated, modifiable string) into @cmd. */
static int marker_parse_cmd(char *s, struct marker_cmd *cmd)
{
	char *verb;

	memset(cmd, 0, sizeof(*cmd));
	cmd->sink = MARKER_SINK_TRACE;
	verb = strsep(&s, " \t");
	if (!strcmp(verb, "enable"))
		cmd->enable = true;
	else if (strcmp(verb, "disable"))
		return -EINVAL;
	cmd->any_sink = !cmd->enable;
	return marker_parse_words(s, cmd);
}

/**
 * marker_boot_parse - parse one item of markers.enable=
 * @s: the item, NUL-terminated; modified
 * @cmd: where to store it, as an enable command
 *
 * An item is a glob on names, or the words of an enable command after
 * its verb: "name GLOB" and any of "module", "provider", "file", "line"
 * and "to", as the control file takes them.
 *
 * Return: 0, or -EINVAL for an item that does not parse (@cmd is then
 * not to be used).
 */
int marker_boot_parse(char *s, struct marker_cmd *cmd)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->enable = true;
	cmd->sink = MARKER_SINK_TRACE;
	s = strim(s);
	if (strpbrk(s, " \t"))
		return marker_parse_words(s, cmd);
	if (!marker_glob_valid(s))
		return -EINVAL;
	cmd->name = s;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(marker_boot_parse);

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
int marker_control_parse(char *buf, struct marker_cmd *cmds, unsigned int max)
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
