/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A register model of one CPU's PMUv3, for KUnit. It implements the architectural rules
 * the driver depends on, so that a driver bug, not the model, is what a test catches:
 *  - PMCNTENSET/CLR, PMINTENSET/CLR, PMOVSSET/CLR are W1S/W1C views of one state each;
 *  - bits of counters that are not implemented (P<n> for n >= PMCR.N, F0 without
 *    FEAT_PMUv3_ICNTR) are RAZ/WI;
 *  - PMCR.N is read-only, PMCR.P/C reset the counters and read as zero, PMCR.LP is RES0
 *    before PMUv3p5;
 *  - PMEVCNTR<n>/PMEVTYPER<n> for n >= N and PMICNTR without the feature are UNDEFINED:
 *    the model counts such accesses in @undef, which tests expect to stay 0;
 *  - counters overflow at 32 bits unless PMCR.LC (PMCCNTR) or PMCR.LP (event counters)
 *    says 64, and set their PMOVS bit when they do.
 */
#ifndef __APMU_PMUV3_MODEL_H
#define __APMU_PMUV3_MODEL_H

#include <linux/types.h>

#include "../apmu.h"

/**
 * struct apmu_model - one CPU's PMUv3 registers
 * @n: implemented event counters (PMCR_EL0.N)
 * @pmuver: ID_AA64DFR0_EL1.PMUVer
 * @icntr: FEAT_PMUv3_ICNTR implemented
 * @pmcr: PMCR_EL0 bits other than N
 * @cnten: counter enables behind PMCNTENSET/CLR
 * @inten: interrupt enables behind PMINTENSET/CLR
 * @ovs: overflow flags behind PMOVSSET/CLR
 * @userenr: PMUSERENR_EL0
 * @ccntr: PMCCNTR_EL0
 * @ccfiltr: PMCCFILTR_EL0
 * @icntr_val: PMICNTR_EL0
 * @icfiltr: PMICFILTR_EL0
 * @evcntr: PMEVCNTR<n>_EL0
 * @evtyper: PMEVTYPER<n>_EL0
 * @ceid0: PMCEID0_EL0
 * @ceid1: PMCEID1_EL0
 * @undef: accesses that are UNDEFINED on hardware
 * @writes: register writes, all registers
 * @reads: register reads, all registers
 */
struct apmu_model {
	unsigned int n;
	unsigned int pmuver;
	bool icntr;
	u64 pmcr;
	u64 cnten, inten, ovs;
	u64 userenr;
	u64 ccntr, ccfiltr;
	u64 icntr_val, icfiltr;
	u64 evcntr[APMU_MAX_EVCNT];
	u64 evtyper[APMU_MAX_EVCNT];
	u64 ceid0, ceid1;
	unsigned int undef;
	unsigned int writes, reads;
};

extern const struct apmu_regs apmu_model_regs;

void apmu_model_init(struct apmu_model *m, unsigned int n, unsigned int pmuver);
void apmu_model_select(struct apmu_model *m);
void apmu_model_count(struct apmu_model *m, u16 evnum, u64 count);
bool apmu_model_irq_pending(const struct apmu_model *m);

#endif /* __APMU_PMUV3_MODEL_H */
