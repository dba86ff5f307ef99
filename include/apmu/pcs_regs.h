/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PC sample-based profiling: the registers of a core's external PMU frame that apmu uses
 * (FEAT_PCSRv8p2, FEAT_PCSRv8p9), and of its external debug frame: EDPRSR, and the sample
 * registers of FEAT_PCSRv8 (Armv8.0 cores: Cortex-A35, A53, A57, A72, ...). One source of
 * truth for the driver and the KUnit frame model. Names and offsets follow the Arm ARM
 * (DDI 0487) external register descriptions; both PMU programmers' models
 * (FEAT_PMUv3_EXT32 and FEAT_PMUv3_EXT64) put these registers at the same offsets, and
 * the CoreSight management registers (DEVAFF, LAR, LSR, DEVARCH, DEVID) sit at the same
 * offsets in both frames.
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

/*
 * FEAT_PCSRv8 in the external debug frame (Core power domain: an error response when the
 * core is powered down, under the OS lock or the OS double lock). Reading EDPCSRlo takes
 * the sample and captures EDPCSRhi, EDCIDSR and EDVIDSR, which are read after it;
 * EDPCSRlo == 0xFFFFFFFF is "no valid sample" (Debug state, profiling prohibited) and
 * leaves them UNKNOWN. From the memory-mapped interface with the software lock set
 * (EDLSR.SLK) the read has no side effects: they are not updated.
 */
#define APMU_EDSCR		0x088
#define APMU_EDSCR_SC2		BIT(19)	/* FEAT_VHE: sample CONTEXTIDR_EL2 (other format) */
#define APMU_EDPCSR_LO		0x0A0
#define APMU_EDCIDSR		0x0A4
#define APMU_EDVIDSR		0x0A8
#define APMU_EDPCSR_HI		0x0AC
/* EDVIDSR, the format of EDSCR.SC2 == 0 (every Armv8.0 core) */
#define APMU_EDVIDSR_NS		BIT(31)	/* sample from Non-secure state */
#define APMU_EDVIDSR_E2		BIT(30)	/* sample from EL2 */
#define APMU_EDVIDSR_E3		BIT(29)	/* sample from EL3 using AArch64 */
#define APMU_EDVIDSR_HV		BIT(28)	/* EDPCSRhi valid (AArch64); else it is RAZ */
#define APMU_EDVIDSR_VMID	GENMASK(15, 0)	/* RAZ when NS == 0 or E2 == 1 */
#define APMU_EDDEVID1		0xFC4
#define APMU_EDDEVID1_PCSROFFSET GENMASK(3, 0)
#define APMU_PCSROFFSET_NONE	2	/* EDPCSR implemented, samples without offset */
/* EDDEVID (0xFC8, PMDEVID's offset) */
#define APMU_EDDEVID_PCSAMPLE	GENMASK(3, 0)
#define APMU_EDPCSAMPLE_CID	2	/* EDPCSR, EDCIDSR: only without EL2 and EL3 */
#define APMU_EDPCSAMPLE_CID_VID	3	/* EDPCSR, EDCIDSR and EDVIDSR */
/* the management registers of the debug frame, at the PMU frame's offsets */
#define APMU_EDDEVAFF0		APMU_PMDEVAFF0
#define APMU_EDDEVAFF1		APMU_PMDEVAFF1
#define APMU_EDLAR		APMU_PMLAR
#define APMU_EDLSR		APMU_PMLSR
#define APMU_EDDEVARCH		APMU_PMDEVARCH
#define APMU_EDDEVID		APMU_PMDEVID

#endif /* __APMU_PCS_REGS_H */
