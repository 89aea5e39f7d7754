/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_SITE_H
#define _LINUX_MARKER_SITE_H

/*
 * The record every marker site leaves in the __markers section: the one
 * definition of its layout, read by the kernel (kernel/markers/), written by
 * the arch's site macros (<asm/marker.h>, <linux/sdt.h>) and read offline
 * by the host tool scripts/markers/markers-list.c. Only what the host tools
 * share: keep it free of anything a host compiler or the assembler cannot
 * take (the C is under !__ASSEMBLY__). The kernel's types and accessors are
 * in <linux/marker-defs.h>.
 */

/* Kinds of records in __markers. */
#define MARKER_KIND_MARK	0	/* MARK(): a call with a format */
#define MARKER_KIND_GUARD	1	/* MARK_ENABLED(), SDT_ENABLED(): a branch */
#define MARKER_KIND_SDT		2	/* SDT_PROBE(): a NOP and an operand spec */
/*
 * A dynamic debug site (pr_debug() and its kin): never in __markers, the
 * registry makes its record when its key is first asked for.
 */
#define MARKER_KIND_DYNDBG	3

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
 * a name that has one, the probes' iterator for a name with several, and
 * __marker_slowpath() otherwise (kernel/markers/mark.c).
 */
struct marker_call {
	__s32 code;	/* the CALL */
	__s32 desc;	/* the struct marker_desc of its expansion */
};

#endif /* !__ASSEMBLY__ */
#endif /* _LINUX_MARKER_SITE_H */
