/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __APMU_PCS_MMIO_H
#define __APMU_PCS_MMIO_H

void apmu_pcs_mmio_probe(void);
void apmu_pcs_mmio_remove(void);

#endif /* __APMU_PCS_MMIO_H */
