/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_DEFS_H
#define _LINUX_MARKER_DEFS_H

/*
 * What the kernel keeps of a marker site besides its record
 * (<linux/marker_site.h>, shared with the host tools): the descriptor of
 * an expansion, the accessors of a record, and the text the registry
 * reserves against kprobes. Included by <linux/marker.h>, <linux/sdt.h>
 * and the arch's <asm/marker.h>, and by kprobes; kept free of
 * <linux/marker.h>, whose MARK() some drivers define for themselves.
 */

#include <linux/marker_site.h>

#ifndef __ASSEMBLY__

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
 *	keeps off the sites; the registry patches the sites itself, the
 *	sites of a change together (kernel/markers/mark.c).
 * @probes: the probes of the name, for __marker_slowpath(); published
 *	under RCU by the registry.
 * @data: the data the sites pass to what they call: the probe's, or the
 *	probes when several are called through the iterator.
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

/*
 * The arch interface, for kernel/markers/ (arch/$ARCH/kernel/marker.c):
 * what to write at a site, queued in address order and written in one go,
 * as jump labels' arch_jump_label_transform_queue() and _apply() are.
 * <asm/marker.h> has only the site itself and MARKER_CALL_SIZE.
 *
 * An instruction marked @unreached is one that no CPU can run before the
 * rest of its change is written: the CALL of a MARK() site never armed
 * since it was loaded, behind a NOP the same change turns into its jump.
 * The arch may write it at once, without the protocol that makes writing
 * live text safe; the registry queues all of them first, so that the
 * protocol of the jumps that follow covers them.
 */

/* The longest instruction written at a site: x86's CALL is 5 bytes. */
#define MARKER_INSN_MAX		8

/* One instruction to write at a site, made by the arch from @what. */
struct marker_patch {
	void *addr;
	void *dest;
	u8 what;		/* enum marker_insn */
	u8 len;
	bool unreached;		/* no CPU can run it yet: see above */
	u8 insn[MARKER_INSN_MAX];
};

enum marker_insn {
	MARKER_INSN_NOP,	/* a MARK() or guard site's NOP */
	MARKER_INSN_JUMP,	/* its jump to @dest */
	MARKER_INSN_CALL,	/* a call of @dest (a MARK() site's call) */
	MARKER_INSN_SDT_NOP,	/* an SDT site's NOP */
	MARKER_INSN_SDT_CALL,	/* a call of @dest (a thunk), or of the trampoline */
};

/*
 * Queue one instruction, in address order (false: the queue is full;
 * apply, then queue it again), and write what is queued; both with
 * cpus_read_lock() and text_mutex held, for a whole change.
 */
bool arch_marker_transform_queue(struct marker_patch *p);
void arch_marker_transform_apply(void);

#if IS_ENABLED(CONFIG_KUNIT)
/* The text of a site as the arch reads it: for kernel/markers/kunit.c. */
bool arch_marker_site_jumps(const void *code);
bool arch_marker_call_goes_to(const void *code, void *func);
bool arch_sdt_site_calls(const void *code, void *thunk);
#endif
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

#endif /* !__ASSEMBLY__ */
#endif /* _LINUX_MARKER_DEFS_H */
