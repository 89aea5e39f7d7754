// SPDX-License-Identifier: GPL-2.0
/*
 * The reference hot function of the SDT code-perturbation check: built
 * once as is (sdt-perturb-without.o) and once with an SDT site
 * (sdt-perturb-with.o). Disassembled side by side, the two must differ
 * by the site's 5-byte NOP and nothing else. Not linked into any
 * module.
 */

#include <linux/sdt.h>

#include "sdt-perturb.h"

long sdt_perturb_hot(struct sdt_perturb *p, int x, long y)
{
	long r = p->a * y + x;

	p->b = r;
	p->c = x;
#ifdef SDT_PERTURB_SITE
	/* A pointer, an int and a long, all live in registers here. */
	SDT_PROBE(perturb, hot, p, x, r);
#endif
	return r;
}
