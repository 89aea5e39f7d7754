/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SDT_EXAMPLE_H
#define _SDT_EXAMPLE_H

#include <linux/types.h>

/* Fires sdt_example:types with one argument of each integer width. */
void sdt_example_types(s8 a, u8 b, s16 c, u16 d, s32 e, u32 f, s64 g, u64 h);

/* In sdt-example-asm.S: fires sdt_example:from_asm, returns @a. */
long sdt_example_asm(long a, long b);

#endif /* _SDT_EXAMPLE_H */
