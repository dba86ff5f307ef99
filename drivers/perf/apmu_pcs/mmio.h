/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __APMU_PCS_MMIO_H
#define __APMU_PCS_MMIO_H

#if IS_ENABLED(CONFIG_KUNIT)
#include <linux/types.h>

extern const struct apmu_pcs_ops apmu_pcs_mmio_ops;
const char *pcs_addr_refused(phys_addr_t pa, bool param);
#endif

void apmu_pcs_mmio_probe(void);
void apmu_pcs_mmio_remove(void);

#endif /* __APMU_PCS_MMIO_H */
