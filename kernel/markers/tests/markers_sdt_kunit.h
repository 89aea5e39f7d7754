/* SPDX-License-Identifier: GPL-2.0 */
/* The .S sites of the markers_sdt KUnit suite (markers_sdt_kunit_asm.S). */
#ifndef _MARKERS_SDT_KUNIT_H
#define _MARKERS_SDT_KUNIT_H

#include <linux/types.h>

long sdt_kunit_asm_site(long a, long b);
void sdt_kunit_asm_fault(void *p, int x);
void sdt_kunit_asm_bad(void);
void sdt_kunit_asm_rip(void);
long sdt_kunit_asm_flags(long a, long b);
void sdt_kunit_asm_overlap(long a);
extern u64 sdt_kunit_asm_var;

#endif /* _MARKERS_SDT_KUNIT_H */
