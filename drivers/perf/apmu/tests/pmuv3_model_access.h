/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PMUv3 backend's register accessors on the KUnit register model: the names and
 * signatures of <asm/arm_pmuv3.h>, each one register access of the model selected with
 * apmu_model_select(). The file that compiles the backend for the tests names this
 * header in APMU_PMUV3_ACCESSORS_H before including ../pmuv3/pmuv3.c, which then
 * includes it in place of its arch accessors (pmuv3/arch_arm64.h, arch_arm.h).
 *
 * The kernel's own header is read first, unchanged; each model accessor is a function of
 * its own (apmu_mdl_<name>) and the kernel's name is defined to it, so the backend's
 * calls reach the model and the kernel's inline functions stay unused.
 *
 * The file that defines APMU_PMUV3_AARCH32 to 1 first (pmuv3_aarch32_test.c) gets the
 * accessors of 32-bit Arm (pmuv3/arch_arm.h over <asm/arm_pmuv3.h> of arch/arm), on the
 * model's AArch32 view (apmu_model_init_aarch32()): ID_DFR0.PerfMon, PMCCNTR through its
 * 32-bit encoding, PMCEID2/3, 32-bit registers.
 */
#ifndef __APMU_PMUV3_MODEL_ACCESS_H
#define __APMU_PMUV3_MODEL_ACCESS_H

#include <linux/bitfield.h>
#include <linux/bug.h>			/* WARN(), which 32-bit Arm's header needs */
#include <linux/perf/arm_pmuv3.h>	/* and <asm/arm_pmuv3.h>: the names taken below */

#include "pmuv3_model.h"

/*
 * The backend's barriers reach the model too: isb() is its Context synchronization
 * event (apmu_model_isb()), which the model needs to tell whether a counter write is
 * ordered after a PMCR.P/C reset. Variadic, as 32-bit Arm's isb(option).
 */
#include <asm/barrier.h>
#undef isb
#define isb(...)	apmu_model_isb()

/* By default the model is an AArch64 PMU (ID_AA64DFR0_EL1.PMUVer) */
#ifndef APMU_PMUV3_AARCH32
#define APMU_PMUV3_AARCH32	0
#endif

/* apmu_mdl_<name>(): one read (64-bit) or write (of a @type) of the model's register @reg */
#define APMU_MDL_RD(name, reg)							\
static inline u64 apmu_mdl_##name(void)						\
{										\
	return apmu_model_read(reg, 0);						\
}

#define APMU_MDL_WR(name, type, reg)						\
static inline void apmu_mdl_##name(type val)					\
{										\
	apmu_model_write(reg, 0, val);						\
}

/* the same for register <reg><n>, PMEVCNTR<n> and PMEVTYPER<n> */
#define APMU_MDL_WR_N(name, type, reg)						\
static inline void apmu_mdl_##name(int n, type val)				\
{										\
	apmu_model_write(reg, n, val);						\
}

/* The accessors both views share: the same register, width and signature */
APMU_MDL_RD(read_pmcr, APMU_R_PMCR)
APMU_MDL_WR(write_pmcr, u64, APMU_R_PMCR)
APMU_MDL_WR(write_pmcntenset, u64, APMU_R_PMCNTENSET)
APMU_MDL_WR(write_pmcntenclr, u64, APMU_R_PMCNTENCLR)
APMU_MDL_WR(write_pmintenset, u64, APMU_R_PMINTENSET)
APMU_MDL_WR(write_pmintenclr, u64, APMU_R_PMINTENCLR)
APMU_MDL_WR(write_pmovsclr, u64, APMU_R_PMOVSCLR)
APMU_MDL_WR(write_pmccfiltr, u64, APMU_R_PMCCFILTR)
APMU_MDL_RD(read_pmmir, APMU_R_PMMIR)
APMU_MDL_WR(write_pmuacr, u64, APMU_R_PMUACR)
/*
 * FEAT_PMUv3_ICNTR is AArch64-only: 32-bit Arm has empty stubs, which the backend must
 * never need. From the AArch32 view any call reaches the model, where PMICNTR/PMICFILTR
 * are UNDEFINED and fail the test.
 */
APMU_MDL_RD(read_pmicntr, APMU_R_PMICNTR)
APMU_MDL_WR(write_pmicntr, u64, APMU_R_PMICNTR)
APMU_MDL_WR(write_pmicfiltr, u64, APMU_R_PMICFILTR)

static inline unsigned long apmu_mdl_read_pmevcntrn(int n)
{
	return apmu_model_read(APMU_R_PMEVCNTR, n);
}

#if APMU_PMUV3_AARCH32
/*
 * AArch32, as pmuv3/arch_arm.h and arch/arm's <asm/arm_pmuv3.h> reach the registers. The
 * value parameters are u64 where 32-bit Arm's are u32 or a 32-bit unsigned long: there
 * the C conversion would silently drop bits [63:32] of a value the backend meant to write
 * (a PMEVTYPER<n> threshold, F0), here they reach the model, which fails the test. Counter
 * values are the exception: an MCR to PMEVCNTR<n> or to PMCCNTR's 32-bit encoding writes
 * bits [31:0] by definition, and the backend relies on that, so they are cut here.
 */
/* PMOVSR (MRC/MCR p15, 0, <Rt>, c9, c12, 3), the W1C view */
static inline u32 apmu_mdl_read_pmovsclr(void)
{
	return apmu_model_read(APMU_R_PMOVSCLR, 0);
}

APMU_MDL_WR(write_pmuserenr, u64, APMU_R_PMUSERENR)
/* PMCCNTR through MRC/MCR p15, 0, <Rt>, c9, c13, 0, as pmuv3/arch_arm.h does */
APMU_MDL_RD(read_pmccntr, APMU_R_PMCCNTR32)
APMU_MDL_WR_N(write_pmevtypern, u64, APMU_R_PMEVTYPER)

static inline void apmu_mdl_write_pmccntr(u64 val)
{
	apmu_model_write(APMU_R_PMCCNTR32, 0, lower_32_bits(val));
}

static inline void apmu_mdl_write_pmevcntrn(int n, u64 val)
{
	apmu_model_write(APMU_R_PMEVCNTR, n, lower_32_bits(val));
}

/* ID_DFR0.PerfMon, bits [27:24] (arch/arm's read_pmuver()) */
static inline u32 apmu_mdl_read_pmuver(void)
{
	return FIELD_GET(APMU_MODEL_ID_DFR0_PERFMON, apmu_model_read(APMU_R_ID_DFR0, 0));
}

/* PMCEID0 and 1, with PMCEID2 and 3 as bits [63:32] from PMUv3p1, as arch/arm's */
static inline u64 apmu_mdl_read_pmceid(enum apmu_reg lo, enum apmu_reg hi)
{
	u64 val = apmu_model_read(lo, 0);

	if (apmu_mdl_read_pmuver() >= APMU_MODEL_PMUVER_V3P1)
		val |= apmu_model_read(hi, 0) << 32;
	return val;
}

static inline u64 apmu_mdl_read_pmceid0(void)
{
	return apmu_mdl_read_pmceid(APMU_R_PMCEID0, APMU_R_PMCEID2);
}

static inline u64 apmu_mdl_read_pmceid1(void)
{
	return apmu_mdl_read_pmceid(APMU_R_PMCEID1, APMU_R_PMCEID3);
}

/* No AArch32 ID field for FEAT_PMUv3_ICNTR: false, without a register access */
static inline bool apmu_mdl_pmuv3_has_icntr(void)
{
	return false;
}

#else /* !APMU_PMUV3_AARCH32 */

APMU_MDL_RD(read_pmovsclr, APMU_R_PMOVSCLR)
APMU_MDL_WR(write_pmuserenr, u32, APMU_R_PMUSERENR)
APMU_MDL_RD(read_pmccntr, APMU_R_PMCCNTR)
APMU_MDL_WR(write_pmccntr, u64, APMU_R_PMCCNTR)
APMU_MDL_WR_N(write_pmevcntrn, unsigned long, APMU_R_PMEVCNTR)
APMU_MDL_WR_N(write_pmevtypern, unsigned long, APMU_R_PMEVTYPER)
APMU_MDL_RD(read_pmceid0, APMU_R_PMCEID0)
APMU_MDL_RD(read_pmceid1, APMU_R_PMCEID1)

static inline u32 apmu_mdl_read_pmuver(void)
{
	return FIELD_GET(APMU_DFR0_PMUVER, apmu_model_read(APMU_R_DFR0, 0));
}

static inline bool apmu_mdl_pmuv3_has_icntr(void)
{
	return FIELD_GET(APMU_DFR1_PMICNTR, apmu_model_read(APMU_R_DFR1, 0)) != 0;
}
#endif /* APMU_PMUV3_AARCH32 */

/* The kernel's accessor names, and those apmu adds for older kernels, to the model's */
#define read_pmcr		apmu_mdl_read_pmcr
#define write_pmcr		apmu_mdl_write_pmcr
#define write_pmcntenset	apmu_mdl_write_pmcntenset
#define write_pmcntenclr	apmu_mdl_write_pmcntenclr
#define write_pmintenset	apmu_mdl_write_pmintenset
#define write_pmintenclr	apmu_mdl_write_pmintenclr
#define read_pmovsclr		apmu_mdl_read_pmovsclr
#define write_pmovsclr		apmu_mdl_write_pmovsclr
#define write_pmuserenr		apmu_mdl_write_pmuserenr
#define read_pmccntr		apmu_mdl_read_pmccntr
#define write_pmccntr		apmu_mdl_write_pmccntr
#define write_pmccfiltr		apmu_mdl_write_pmccfiltr
#define read_pmicntr		apmu_mdl_read_pmicntr
#define write_pmicntr		apmu_mdl_write_pmicntr
#define write_pmicfiltr		apmu_mdl_write_pmicfiltr
#define read_pmevcntrn		apmu_mdl_read_pmevcntrn
#define write_pmevcntrn		apmu_mdl_write_pmevcntrn
#define write_pmevtypern	apmu_mdl_write_pmevtypern
#define read_pmceid0		apmu_mdl_read_pmceid0
#define read_pmceid1		apmu_mdl_read_pmceid1
#define read_pmmir		apmu_mdl_read_pmmir
#define read_pmuver		apmu_mdl_read_pmuver
#define pmuv3_has_icntr		apmu_mdl_pmuv3_has_icntr
#define write_pmuacr		apmu_mdl_write_pmuacr

/*
 * The model implements the architecture, not QEMU's shortcuts: by default it gets no quirk
 * (a Cortex-A57 MIDR, on no particular machine), unless a test gives it another MIDR.
 */
static inline u32 apmu_pmuv3_midr(void)
{
	return apmu_model_midr();
}

static inline bool apmu_pmuv3_machine_is(const char *compat)
{
	return false;
}

/* The model's system is no KVM guest: the quirk table's tests give theirs */
static inline bool apmu_pmuv3_kvm_guest(void)
{
	return false;
}

/* The model's system: EL2's fine-grained traps as the test says (apmu_model.el2_trap) */
static inline bool apmu_pmuv3_el2_may_trap(void)
{
	return apmu_model_el2_trap();
}

/* The model's system: SMT as the test says (apmu_model.smt) */
static inline bool apmu_pmuv3_core_has_smt(void)
{
	return apmu_model_smt();
}

#endif /* __APMU_PMUV3_MODEL_ACCESS_H */
