/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PMUv3 backend's register accessors on the KUnit register model: the names and
 * signatures of <asm/arm_pmuv3.h>, each one register access of the model selected with
 * apmu_model_select(). Included first by the file that compiles the backend for the
 * tests (pmuv3_test.c), it stands in for <asm/arm_pmuv3.h>, whose include guard it
 * takes; the backend then skips its own arch accessors (APMU_PMUV3_ACCESSORS).
 */
#ifndef __APMU_PMUV3_MODEL_ACCESS_H
#define __APMU_PMUV3_MODEL_ACCESS_H

#define __ASM_PMUV3_H
#define APMU_PMUV3_ACCESSORS

#include <linux/bitfield.h>

#include "pmuv3_model.h"

/* The model is an AArch64 PMU (ID_AA64DFR0_EL1.PMUVer); see pmuv3/arch_arm.h for AArch32 */
#define APMU_PMUV3_AARCH32	0

static inline u64 read_pmcr(void)
{
	return apmu_model_read(APMU_R_PMCR, 0);
}

static inline void write_pmcr(u64 val)
{
	apmu_model_write(APMU_R_PMCR, 0, val);
}

static inline void write_pmcntenset(u64 val)
{
	apmu_model_write(APMU_R_PMCNTENSET, 0, val);
}

static inline void write_pmcntenclr(u64 val)
{
	apmu_model_write(APMU_R_PMCNTENCLR, 0, val);
}

static inline void write_pmintenset(u64 val)
{
	apmu_model_write(APMU_R_PMINTENSET, 0, val);
}

static inline void write_pmintenclr(u64 val)
{
	apmu_model_write(APMU_R_PMINTENCLR, 0, val);
}

static inline u64 read_pmovsclr(void)
{
	return apmu_model_read(APMU_R_PMOVSCLR, 0);
}

static inline void write_pmovsclr(u64 val)
{
	apmu_model_write(APMU_R_PMOVSCLR, 0, val);
}

static inline void write_pmuserenr(u32 val)
{
	apmu_model_write(APMU_R_PMUSERENR, 0, val);
}

static inline u64 read_pmccntr(void)
{
	return apmu_model_read(APMU_R_PMCCNTR, 0);
}

static inline void write_pmccntr(u64 val)
{
	apmu_model_write(APMU_R_PMCCNTR, 0, val);
}

static inline void write_pmccfiltr(u64 val)
{
	apmu_model_write(APMU_R_PMCCFILTR, 0, val);
}

static inline u64 read_pmicntr(void)
{
	return apmu_model_read(APMU_R_PMICNTR, 0);
}

static inline void write_pmicntr(u64 val)
{
	apmu_model_write(APMU_R_PMICNTR, 0, val);
}

static inline void write_pmicfiltr(u64 val)
{
	apmu_model_write(APMU_R_PMICFILTR, 0, val);
}

static inline unsigned long read_pmevcntrn(int n)
{
	return apmu_model_read(APMU_R_PMEVCNTR, n);
}

static inline void write_pmevcntrn(int n, unsigned long val)
{
	apmu_model_write(APMU_R_PMEVCNTR, n, val);
}

static inline void write_pmevtypern(int n, unsigned long val)
{
	apmu_model_write(APMU_R_PMEVTYPER, n, val);
}

static inline u64 read_pmceid0(void)
{
	return apmu_model_read(APMU_R_PMCEID0, 0);
}

static inline u64 read_pmceid1(void)
{
	return apmu_model_read(APMU_R_PMCEID1, 0);
}

static inline unsigned long read_pmmir(void)
{
	return apmu_model_read(APMU_R_PMMIR, 0);
}

static inline u32 read_pmuver(void)
{
	return FIELD_GET(APMU_DFR0_PMUVER, apmu_model_read(APMU_R_DFR0, 0));
}

static inline bool pmuv3_has_icntr(void)
{
	return FIELD_GET(APMU_DFR1_PMICNTR, apmu_model_read(APMU_R_DFR1, 0)) != 0;
}

/* The model is no software model in the sense of QEMU's missed interrupt updates */
static inline bool apmu_pmuv3_soft_model(void)
{
	return false;
}

#endif /* __APMU_PMUV3_MODEL_ACCESS_H */
