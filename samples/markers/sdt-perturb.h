/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SDT_PERTURB_H
#define _SDT_PERTURB_H

/* The reference function of the SDT perturbation check. */
struct sdt_perturb {
	long a, b;
	int c;
};

long sdt_perturb_hot(struct sdt_perturb *p, int x, long y);

#endif /* _SDT_PERTURB_H */
