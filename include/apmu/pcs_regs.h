/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PC sample-based profiling (FEAT_PCSRv8p2, FEAT_PCSRv8p9): the registers of a core's
 * external PMU frame that apmu uses, and EDPRSR from its external debug frame. One source
 * of truth for the driver and the KUnit frame model. Names and offsets follow the Arm ARM
 * (DDI 0487) external register descriptions; both programmers' models
 * (FEAT_PMUv3_EXT32 and FEAT_PMUv3_EXT64) put these registers at the same offsets.
 */
#ifndef __APMU_PCS_REGS_H
#define __APMU_PCS_REGS_H

#include <linux/bits.h>
#include <linux/sizes.h>

#define APMU_PCS_FRAME_SIZE	SZ_4K

/*
 * Sample block 0 (0x200): reading PMPCSR[31:0] takes a sample and captures
 * CONTEXTIDR_EL1 (PMCID1SR, 0x208) and the VMID (PMVIDSR / PMVCIDSR[47:32], 0x20C).
 * Sample block 1 (0x220): the same PMPCSR, with CONTEXTIDR_EL1 (0x228) and
 * CONTEXTIDR_EL2 (PMCID2SR / PMCCIDSR[63:32], 0x22C) captured instead.
 */
#define APMU_PMPCSR_LO		0x200
#define APMU_PMPCSR_HI		0x204
#define APMU_PMCID1SR		0x208
#define APMU_PMVIDSR		0x20C
#define APMU_PMPCSR2_LO		0x220
#define APMU_PMPCSR2_HI		0x224
#define APMU_PMCID1SR2		0x228
#define APMU_PMCID2SR		0x22C

/* PMPCSR: the sample. PMPCSR[31:0] == 0xFFFFFFFF means "no valid sample". */
#define APMU_PMPCSR_NS		BIT_ULL(63)		/* Non-secure (with NSE: RME state) */
#define APMU_PMPCSR_EL		GENMASK_ULL(62, 61)	/* Exception level of the sample */
#define APMU_PMPCSR_T		BIT_ULL(60)		/* T32 state sample */
#define APMU_PMPCSR_NSE		BIT_ULL(59)		/* FEAT_RME: Root/Realm with NS */
#define APMU_PMPCSR_PC		GENMASK_ULL(55, 0)	/* PCSample[55:0] */
#define APMU_PMPCSR_NO_SAMPLE	0xFFFFFFFFU		/* PMPCSR[31:0] with no valid sample */
#define APMU_PMVIDSR_VMID	GENMASK(15, 0)

/* PMPCSCTL (FEAT_PCSRv8p9), a 64-bit register: bits [63:5] and [3:2] are RES0. */
#define APMU_PMPCSCTL		0xE50
#define APMU_PMPCSCTL_HI	0xE54
#define APMU_PMPCSCTL_EN	BIT(0)	/* profiling active; RAZ/WI when IMP == 0 */
#define APMU_PMPCSCTL_IMP	BIT(1)	/* EN implemented, RO */
#define APMU_PMPCSCTL_SS	BIT(4)	/* sample on PMU snapshot, FEAT_PMUv3_SS only */
#define APMU_PMPCSCTL_RES0	(GENMASK_ULL(63, 5) | GENMASK_ULL(3, 2))

/* CoreSight management registers of the frame */
#define APMU_PMDEVAFF0		0xFA8	/* MPIDR_EL1[31:0] of the core (EDDEVAFF0 alike) */
#define APMU_PMDEVAFF1		0xFAC	/* MPIDR_EL1[63:32] of the core (EDDEVAFF1 alike) */
#define APMU_DEVAFF_MASK	0xff00ffffffULL	/* Aff3..Aff0: MPIDR_HWID_BITMASK */
#define APMU_PMLAR		0xFB0	/* software lock access, WO */
#define APMU_PMLSR		0xFB4	/* software lock status */
#define APMU_PMLSR_SLI		BIT(0)	/* software lock implemented */
#define APMU_PMLSR_SLK		BIT(1)	/* software lock set: writes ignored */
#define APMU_LAR_KEY		0xC5ACCE55
#define APMU_PMDEVARCH		0xFBC
#define APMU_DEVARCH_ARCHITECT	GENMASK(31, 21)
#define APMU_DEVARCH_PRESENT	BIT(20)
#define APMU_DEVARCH_ARCHID	GENMASK(15, 0)
#define APMU_ARCHITECT_ARM	0x23B	/* JEP106 continuation 4, code 0x3B */
#define APMU_ARCHID_PMUV3	0x2A16	/* PMUv3 */
#define APMU_ARCHID_PMUV3_EXT64	0x2A26	/* PMUv3, 64-bit programmers' model */
#define APMU_ARCHID_DEBUG_MASK	0x0FFF	/* external debug: ARCHPART 0xA15, any ARCHVER */
#define APMU_ARCHPART_DEBUG	0xA15
#define APMU_PMDEVID		0xFC8
#define APMU_PMDEVID_PCSAMPLE	GENMASK(3, 0)
#define APMU_PCSAMPLE_V8P2	1	/* PMPCSR and the context sample registers */
#define APMU_PCSAMPLE_V8P9	2	/* as V8P2, plus PMPCSCTL */
#define APMU_PMDEVID_PMSS	GENMASK(7, 4)	/* 1: FEAT_PMUv3_SS */

/* EDPRSR, in the core's external debug frame (debug power domain) */
#define APMU_EDPRSR		0x314
#define APMU_EDPRSR_PU		BIT(0)	/* core powered up */
#define APMU_EDPRSR_OSLK	BIT(5)	/* OS lock set */
#define APMU_EDPRSR_DLK		BIT(6)	/* OS double lock set */

#endif /* __APMU_PCS_REGS_H */
