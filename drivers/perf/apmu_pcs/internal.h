/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu_pcs: what the KUnit suite (tests/pcs_test.c) reaches inside the unit besides
 * pcs.h: with CONFIG_KUNIT, the functions <kunit/visibility.h> makes visible to it.
 */
#ifndef __APMU_PCS_INTERNAL_H
#define __APMU_PCS_INTERNAL_H

#include <linux/kconfig.h>
#include <linux/types.h>
#include <kunit/visibility.h>

#include "pcs.h"

#if IS_ENABLED(CONFIG_KUNIT)
/* mmio.c: the frames' register accessors, and the checks of a frame's address */
extern const struct apmu_pcs_ops apmu_pcs_mmio_ops;
const char *pcs_addr_refused(phys_addr_t pa, bool param);
/* pmu.c: what apmu_pcs does with a valid sample */
enum apmu_pcs_verdict apmu_pcs_classify(const struct apmu_pcs_sample *s, unsigned int host,
					bool vcpu);
#endif

#endif /* __APMU_PCS_INTERNAL_H */
