// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: the probe API.
 *
 *	marker_set_probe(name, format, probe, data)	attach to MARK() sites
 *	marker_disable_probe(name, probe, data)		detach, wait for it
 *	sdt_set_probe(provider, name, nargs, probe, data)  attach to SDT sites
 *	sdt_disable_probe(provider, name, probe, data)	detach, wait for it
 *
 * These check their arguments and hand the probe to the registry under its
 * key: the marker name, or "provider:name" for SDT sites (probes.c).
 */

#include <linux/ctype.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sprintf.h>
#include <asm/sections.h>

#include "internal.h"

/*
 * A marker name, an SDT provider or an SDT name is a C identifier, in
 * ASCII: the kernel's isalnum() also takes the Latin-1 letters.
 */
static bool marker_name_valid(const char *name)
{
	size_t i;

	if (!name || !*name || isdigit(*name))
		return false;
	for (i = 0; name[i]; i++) {
		if (i >= MARKER_NAME_MAX || !isascii(name[i]) ||
		    !(isalnum(name[i]) || name[i] == '_'))
			return false;
	}
	return true;
}

/*
 * Or the key of dynamic debug sites (pr_debug() and its kin, dyndbg.c):
 * MODULE.FUNCTION or MODULE.FUNCTION.N, of ASCII letters, digits and '_'
 * between the dots, shorter than MARKER_KEY_MAX.
 */
static bool marker_dyndbg_key_valid(const char *name)
{
	unsigned int dots = 0;
	bool empty = true;
	size_t i;

	for (i = 0; name && name[i]; i++) {
		if (i >= MARKER_KEY_MAX - 1 || !isascii(name[i]))
			return false;
		if (name[i] == '.') {
			if (empty || ++dots > 2)
				return false;
			empty = true;
		} else if (isalnum(name[i]) || name[i] == '_') {
			empty = false;
		} else {
			return false;
		}
	}
	return dots && !empty;
}

/*
 * Is @p in init memory, which is freed while the probe would stay: that
 * of vmlinux until it is freed (after, it may hold anything), or that of
 * a module?
 */
static bool marker_in_init(const void *p)
{
	unsigned long addr = (unsigned long)p;
	struct module *mod;
	bool ret;

	if (system_state < SYSTEM_FREEING_INITMEM && init_section_contains((void *)p, 1))
		return true;
	preempt_disable();
	mod = __module_address(addr);
	ret = mod && within_module_init(addr, mod);
	preempt_enable();
	return ret;
}

/* May @probe, with @data, be attached? */
static bool marker_probe_valid(const void *probe, const void *data)
{
	return probe && !marker_in_init(probe) && !marker_in_init(data);
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
 * number of arguments, each of the same va_arg() class and size. A site
 * whose own format has a conversion the kernel's vsnprintf() does not
 * support takes no probe.
 *
 * The caller must call marker_disable_probe() before the module that holds
 * @probe or @probe_data goes away; a probe still attached then is detached
 * by the registry, with an error in the log.
 *
 * @name may also be the key of dynamic debug sites, MODULE.FUNCTION or
 * MODULE.FUNCTION.N (see "Dynamic debug sites" in
 * Documentation/trace/markers.rst), which is not a C identifier: @probe
 * gets their format, without its pr_fmt() prefix, and the arguments that
 * follow the prefix's.
 *
 * Return: 0 on success; -EINVAL for a @name that is not a C identifier of
 * at most MARKER_NAME_MAX ASCII characters, a NULL @probe, a @probe or
 * @probe_data in init memory (freed under the sites), or an empty @format
 * or one that vsnprintf() cannot print; -EEXIST if (@probe, @probe_data)
 * is already attached to @name; -EPERM if @format does not match a site of
 * @name or the format of another probe of @name, or a site of @name has a
 * format vsnprintf() cannot print; -ENOMEM. Nothing changes on error.
 */
int marker_set_probe(const char *name, const char *format,
		     marker_probe_func *probe, void *probe_data)
{
	struct marker_probe np = {
		.func = probe, .data = probe_data, .format = format, .nargs = -1,
	};
	bool valid = marker_name_valid(name);

	valid |= marker_dyndbg_key_valid(name);
	if (!valid || !marker_probe_valid(probe, probe_data))
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
 * last one. Returns only after a grace period: no CPU runs @probe any
 * more, so its module may unload right after this.
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

/* "provider:name" of an SDT probe in @buf (MARKER_KEY_MAX), or -EINVAL. */
static int sdt_key(char *buf, const char *provider, const char *name)
{
	if (!marker_name_valid(provider) || !marker_name_valid(name))
		return -EINVAL;
	snprintf(buf, MARKER_KEY_MAX, "%s:%s", provider, name);
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
 * none yet. Each site is armed by patching its NOP into a call of the SDT
 * trampoline (or, if so selected, with a kprobe); its arguments are
 * decoded from registers and memory and handed to @probe as 64-bit
 * values, sign- or zero-extended as their sizes say. A site whose operand
 * spec does not decode, that sits where kprobes may not go, or whose
 * kprobe is refused, stays dormant and shows the error in the listing;
 * the other sites are armed all the same.
 *
 * The caller must call sdt_disable_probe() before the module that holds
 * @probe or @probe_data goes away.
 *
 * Return: 0 on success; -EINVAL for a @provider or @name that is not a C
 * identifier in ASCII, a NULL @probe, a @probe or @probe_data in init
 * memory, or @nargs out of -1..SDT_MAX_ARGS; -EEXIST if
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
	char key[MARKER_KEY_MAX];

	if (sdt_key(key, provider, name) ||
	    !marker_probe_valid(probe, probe_data) ||
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
 * As marker_disable_probe(): the sites go back to NOPs when this was the
 * last probe, and the call returns only once no CPU runs @probe.
 *
 * Return: 0 on success; -EINVAL for a bad @provider, @name or @probe;
 * -ENOENT if the probe is not attached. Nothing changes on error.
 */
int sdt_disable_probe(const char *provider, const char *name,
		      sdt_probe_func *probe, void *probe_data)
{
	char key[MARKER_KEY_MAX];

	if (sdt_key(key, provider, name) || !probe)
		return -EINVAL;
	return marker_remove_probe(key, probe, probe_data);
}
EXPORT_SYMBOL_GPL(sdt_disable_probe);
