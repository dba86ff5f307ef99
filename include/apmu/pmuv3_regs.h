/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PMUv3 register fields used by apmu: one source of truth for the driver and the KUnit
 * register model. The kernel's own definitions (ARMV8_PMU_PMCR_E, ARMV8_PMU_EXCLUDE_EL0,
 * ARMV8_PMU_USERENR_ER, ARMV8_PMUV3_PERFCTR_*, ...) are used where 6.1 and 6.12 both
 * have them; this file adds only what 6.1's headers lack, or name differently. Names
 * follow the Arm ARM (DDI 0487) register descriptions.
 */
#ifndef __APMU_PMUV3_REGS_H
#define __APMU_PMUV3_REGS_H

#include <linux/bits.h>
#include <linux/perf_event.h>

/*
 * <linux/perf/arm_pmuv3.h> (with <asm/arm_pmuv3.h>) since 6.4; before, arm64 had the
 * same ARMV8_PMU* definitions in <asm/perf_event.h>, which <linux/perf_event.h> includes.
 * 32-bit Arm has them from 6.4 only.
 */
#ifndef ARMV8_PMU_PMCR_E
#include <linux/perf/arm_pmuv3.h>
#endif

/* PMCR_EL0.N, the number of event counters, RO (6.1: ARMV8_PMU_PMCR_N_SHIFT/_MASK) */
#define APMU_PMCR_N		GENMASK(15, 11)

/*
 * Counter indexes are the bit positions the architecture uses for each counter in
 * PMCNTENSET/CLR, PMINTENSET/CLR and PMOVSSET/CLR: P<n> for PMEVCNTR<n>, C for PMCCNTR and
 * F0 for PMICNTR (FEAT_PMUv3_ICNTR, AArch64 only).
 */
#define APMU_MAX_EVCNT		31
#define APMU_IDX_CYCLE		31
#define APMU_IDX_INSTR		32
#define APMU_NR_IDX		33
#define APMU_CNT_BIT_C		BIT_ULL(APMU_IDX_CYCLE)
#define APMU_CNT_BIT_F0		BIT_ULL(APMU_IDX_INSTR)

/*
 * PMEVTYPER<n>_EL0, PMCCFILTR_EL0 and PMICFILTR_EL0 filter bits beyond U (EXCLUDE_EL0),
 * P (EXCLUDE_EL1) and NSH (INCLUDE_EL2)
 */
#define APMU_FILT_NSK		BIT(29)	/* Non-secure EL1: counts if != P */
#define APMU_FILT_NSU		BIT(28)	/* Non-secure EL0: counts if != U */
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

/*
 * ID_AA64DFR0_EL1.PMUVer, bits [11:8]. AArch32's ID_DFR0.PerfMon has the same values
 * from PMUv3p1 on (0x3 is its PMUv3, 0x1/0x2 PMUv1/v2).
 */
#define APMU_DFR0_PMUVER	GENMASK(11, 8)
#define APMU_PMUVER_NI		0x0
#define APMU_PMUVER_V3		0x1
#define APMU_PMUVER_V3P4	0x5
#define APMU_PMUVER_V3P5	0x6
#define APMU_PMUVER_V3P9	0x9
#define APMU_PMUVER_IMP_DEF	0xf
#define APMU_PERFMON_V3		0x3	/* ID_DFR0.PerfMon: PMUv3 */

/*
 * PMUSERENR_EL0.UEN (FEAT_PMUv3p9): EL0 reads of a counter are then allowed by its bit
 * in PMUACR_EL1 (P<n> bit n, C bit 31, F0 bit 32: the counter indexes above), and ER/CR
 * govern EL0 writes, which stay trapped with them set (the in-tree driver writes
 * ER|CR|UEN). RES0 before PMUv3p9. (6.13: ARMV8_PMU_USERENR_UEN.)
 */
#define APMU_USERENR_UEN	BIT(4)

/* ID_AA64MMFR0_EL1.FGT, bits [59:56]: 2 is FEAT_FGT2 (HDFGRTR2_EL2, HDFGWTR2_EL2) */
#define APMU_MMFR0_FGT		GENMASK_ULL(59, 56)
#define APMU_FGT_FGT2		0x2

#endif /* __APMU_PMUV3_REGS_H */
