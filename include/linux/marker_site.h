/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_SITE_H
#define _LINUX_MARKER_SITE_H

/*
 * The record every marker site leaves in the __markers section: the one
 * definition of its layout, read by the kernel (kernel/markers/), written by
 * the arch's site macros (<asm/marker.h>, <linux/sdt.h>) and read offline
 * by the host tool scripts/markers/markers-list.c. Keep it free of anything
 * a host compiler or the assembler cannot take: the kernel-only accessors
 * are under __KERNEL__, the C under !__ASSEMBLY__.
 */

/* Kinds of records in __markers. */
#define MARKER_KIND_MARK	0	/* MARK(): a call with a format */
#define MARKER_KIND_GUARD	1	/* MARK_ENABLED(), SDT_ENABLED(): a branch */
#define MARKER_KIND_SDT		2	/* SDT_PROBE(): a NOP and an operand spec */

#ifndef __ASSEMBLY__

#include <linux/types.h>

/*
 * One per copy of a site: code the compiler duplicates (inlining, loop
 * unrolling) carries its own record. Only offsets relative to the field
 * itself, so a record needs no relocation at boot (KASLR) or load time.
 */
struct marker_site {
	__s32 code;	/* the site's NOP */
	__s32 desc;	/* its struct marker_desc; 0 for MARKER_KIND_SDT */
	__s32 name;	/* "name", or "provider:name" for SDT sites and guards */
	__s32 format;	/* the format; the operand spec of an SDT site */
	__u32 kind;	/* MARKER_KIND_* */
	__s32 target;	/* where the NOP jumps when armed; 0 for SDT sites */
};

/*
 * One per copy of the call a MARK() site makes on its out-of-line path,
 * in section __marker_calls: the registry patches it to call the probe of
 * a name that has one, and __marker_slowpath() otherwise.
 */
struct marker_call {
	__s32 code;	/* the CALL */
	__s32 desc;	/* the struct marker_desc of its expansion */
};

#ifdef __KERNEL__

#include <linux/compiler.h>

#ifdef CONFIG_MARKERS
#include <linux/jump_label.h>

struct marker_probes;

/*
 * One per MARK(), MARK_ENABLED() or SDT_ENABLED() expansion, shared by the
 * copies of the site that the compiler makes.
 *
 * @key: the key of the sites' __jump_table entries. It is never enabled:
 *	the entries are there so that objtool sees the jumps and kprobes
 *	keeps off the sites; the registry patches the sites itself, every
 *	site of a change in one text_poke batch (kernel/markers/mark.c).
 * @probes: the probes of the name, for __marker_slowpath(); published
 *	under RCU by the registry.
 * @data: the data the sites pass to the probe they call directly.
 * @state: the registry's, under marker_mutex.
 *
 * No hit is counted here: a shared write would cost every hit; the
 * markers control file counts the hits of its own probes.
 */
struct marker_desc {
	struct static_key_false key;
	struct marker_probes __rcu *probes;
	void *data;
	unsigned long state;
};

#define MARKER_DESC_INIT	{ .key = STATIC_KEY_FALSE_INIT }

struct kprobe;

/*
 * Text the registry patches, for kprobes: the calls of MARK() sites, and
 * every SDT site for as long as it exists.
 */
int marker_text_reserved(void *start, void *end);
bool marker_kprobe_reserved(const struct kprobe *p);
#else
static inline int marker_text_reserved(void *start, void *end)
{
	return 0;
}

static inline bool marker_kprobe_reserved(const struct kprobe *p)
{
	return false;
}
#endif /* CONFIG_MARKERS */

static inline void *marker_site_code(const struct marker_site *site)
{
	return offset_to_ptr(&site->code);
}

static inline struct marker_desc *marker_site_desc(const struct marker_site *site)
{
	return offset_to_ptr(&site->desc);
}

static inline const char *marker_site_name(const struct marker_site *site)
{
	return offset_to_ptr(&site->name);
}

static inline const char *marker_site_format(const struct marker_site *site)
{
	return offset_to_ptr(&site->format);
}

static inline void *marker_site_target(const struct marker_site *site)
{
	return offset_to_ptr(&site->target);
}

static inline void *marker_call_code(const struct marker_call *call)
{
	return offset_to_ptr(&call->code);
}

static inline struct marker_desc *marker_call_desc(const struct marker_call *call)
{
	return offset_to_ptr(&call->desc);
}

#endif /* __KERNEL__ */
#endif /* !__ASSEMBLY__ */
#endif /* _LINUX_MARKER_SITE_H */
