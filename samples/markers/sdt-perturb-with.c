// SPDX-License-Identifier: GPL-2.0
/* sdt-perturb-without.c with its SDT site: see there. */
#define SDT_PERTURB_SITE 1
#include "sdt-perturb-without.c"
