/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SDT_EXAMPLE_H
#define _SDT_EXAMPLE_H

/* In sdt-example-asm.S: fires sdt_example:from_asm, returns @a. */
long sdt_example_asm(long a, long b);

#endif /* _SDT_EXAMPLE_H */
