/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PMUv3 register fields used by apmu: one source of truth for the driver and the KUnit
 * register model. Names follow the Arm ARM (DDI 0487) register descriptions.
 */
#ifndef __APMU_PMUV3_REGS_H
#define __APMU_PMUV3_REGS_H

#include <linux/bits.h>

/* PMCR_EL0 */
#define APMU_PMCR_E		BIT(0)	/* enable all counters */
#define APMU_PMCR_P		BIT(1)	/* event counter reset, write-only */
#define APMU_PMCR_C		BIT(2)	/* cycle counter reset, write-only */
#define APMU_PMCR_D		BIT(3)	/* PMCCNTR counts every 64th cycle */
#define APMU_PMCR_DP		BIT(5)	/* PMCCNTR disabled in prohibited regions */
#define APMU_PMCR_LC		BIT(6)	/* PMCCNTR overflows at 64 bits */
#define APMU_PMCR_LP		BIT(7)	/* event counters overflow at 64 bits (PMUv3p5) */
#define APMU_PMCR_N		GENMASK(15, 11)	/* number of event counters, RO */

/*
 * Counter indexes are the bit positions the architecture uses for each counter in
 * PMCNTENSET/CLR, PMINTENSET/CLR and PMOVSSET/CLR: P<n> for PMEVCNTR<n>, C for PMCCNTR and
 * F0 for PMICNTR (FEAT_PMUv3_ICNTR).
 */
#define APMU_MAX_EVCNT		31
#define APMU_IDX_CYCLE		31
#define APMU_IDX_INSTR		32
#define APMU_NR_IDX		33
#define APMU_CNT_BIT_C		BIT_ULL(APMU_IDX_CYCLE)
#define APMU_CNT_BIT_F0		BIT_ULL(APMU_IDX_INSTR)

/* PMEVTYPER<n>_EL0, PMCCFILTR_EL0 and PMICFILTR_EL0 filter bits */
#define APMU_EVTYPE_EVENT	GENMASK(15, 0)
#define APMU_FILT_P		BIT(31)	/* don't count at EL1 */
#define APMU_FILT_U		BIT(30)	/* don't count at EL0 */
#define APMU_FILT_NSK		BIT(29)	/* Non-secure EL1: counts if != P */
#define APMU_FILT_NSU		BIT(28)	/* Non-secure EL0: counts if != U */
#define APMU_FILT_NSH		BIT(27)	/* count at EL2 */
#define APMU_FILT_M		BIT(26)	/* EL3 filtering */
#define APMU_FILT_MASK		GENMASK(31, 26)

/* Threshold fields of PMEVTYPER<n>_EL0 (FEAT_PMUv3_TH) */
#define APMU_EVTYPE_TH		GENMASK_ULL(43, 32)
#define APMU_EVTYPE_TC		GENMASK_ULL(63, 61)

/* PMMIR_EL1 */
#define APMU_PMMIR_SLOTS	GENMASK(7, 0)
#define APMU_PMMIR_BUS_SLOTS	GENMASK(15, 8)
#define APMU_PMMIR_BUS_WIDTH	GENMASK(19, 16)
#define APMU_PMMIR_THWIDTH	GENMASK(23, 20)

/* ID_AA64DFR1_EL1.PMICNTR, bits [39:36]: FEAT_PMUv3_ICNTR */
#define APMU_DFR1_PMICNTR	GENMASK_ULL(39, 36)

/* PMUSERENR_EL0 */
#define APMU_USERENR_EN		BIT(0)
#define APMU_USERENR_CR		BIT(2)
#define APMU_USERENR_ER		BIT(3)

/* ID_AA64DFR0_EL1.PMUVer, bits [11:8] */
#define APMU_DFR0_PMUVER	GENMASK(11, 8)
#define APMU_PMUVER_NI		0x0
#define APMU_PMUVER_V3		0x1
#define APMU_PMUVER_V3P4	0x5
#define APMU_PMUVER_V3P5	0x6
#define APMU_PMUVER_IMP_DEF	0xf

/* Common architectural and microarchitectural event numbers used by the driver */
#define APMU_EV_SW_INCR		0x0000
#define APMU_EV_INST_RETIRED	0x0008
#define APMU_EV_CPU_CYCLES	0x0011
#define APMU_EV_CHAIN		0x001e

#endif /* __APMU_PMUV3_REGS_H */
