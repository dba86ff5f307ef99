/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: the PMUv3 backend's register accessors on arm64 (AArch64 System registers).
 *
 * The backend calls the kernel's own accessors of <asm/arm_pmuv3.h> (read_pmevcntrn(),
 * write_pmintenclr(), ...), which have the same names on arm64 and arm: each is one
 * MRS/MSR, inlined, so the hot paths have no dispatch. What an older kernel lacks is
 * defined here, with the same name and meaning, and the release that brought it.
 *
 * PMEVCNTR<n>_EL0 and PMEVTYPER<n>_EL0 are reached directly rather than through
 * PMSELR_EL0 and PMXEV*: one access instead of two, and no shared selector to save
 * across interrupts.
 */
#ifndef __APMU_PMUV3_ARCH_ARM64_H
#define __APMU_PMUV3_ARCH_ARM64_H

#include <linux/bitfield.h>
#include <linux/of.h>
#include <asm/barrier.h>
#include <asm/cputype.h>
#include <asm/sysreg.h>
#include <asm/virt.h>

#include <apmu/pmuv3_regs.h>	/* and <linux/perf/arm_pmuv3.h> from 6.4 */

/* The AArch64 view of PMUv3: none of arch_arm.h's AArch32 rules apply */
#define APMU_PMUV3_AARCH32	0

#ifndef PMEVN_SWITCH
/*
 * Before 6.4 (no <linux/perf/arm_pmuv3.h>, whose PMEVN_SWITCH() <asm/arm_pmuv3.h> uses)
 * the accessors were private to arch/arm64/kernel/perf_event.c. The register name is
 * part of the instruction: one switch case per counter.
 */
#define APMU_RD_CASE(reg, n)	case n: return read_sysreg(reg##n##_el0)
#define APMU_WR_CASE(reg, n)	case n: write_sysreg(val, reg##n##_el0); break

static inline unsigned long read_pmevcntrn(int n)
{
	switch (n) {
	APMU_RD_CASE(pmevcntr, 0);
	APMU_RD_CASE(pmevcntr, 1);
	APMU_RD_CASE(pmevcntr, 2);
	APMU_RD_CASE(pmevcntr, 3);
	APMU_RD_CASE(pmevcntr, 4);
	APMU_RD_CASE(pmevcntr, 5);
	APMU_RD_CASE(pmevcntr, 6);
	APMU_RD_CASE(pmevcntr, 7);
	APMU_RD_CASE(pmevcntr, 8);
	APMU_RD_CASE(pmevcntr, 9);
	APMU_RD_CASE(pmevcntr, 10);
	APMU_RD_CASE(pmevcntr, 11);
	APMU_RD_CASE(pmevcntr, 12);
	APMU_RD_CASE(pmevcntr, 13);
	APMU_RD_CASE(pmevcntr, 14);
	APMU_RD_CASE(pmevcntr, 15);
	APMU_RD_CASE(pmevcntr, 16);
	APMU_RD_CASE(pmevcntr, 17);
	APMU_RD_CASE(pmevcntr, 18);
	APMU_RD_CASE(pmevcntr, 19);
	APMU_RD_CASE(pmevcntr, 20);
	APMU_RD_CASE(pmevcntr, 21);
	APMU_RD_CASE(pmevcntr, 22);
	APMU_RD_CASE(pmevcntr, 23);
	APMU_RD_CASE(pmevcntr, 24);
	APMU_RD_CASE(pmevcntr, 25);
	APMU_RD_CASE(pmevcntr, 26);
	APMU_RD_CASE(pmevcntr, 27);
	APMU_RD_CASE(pmevcntr, 28);
	APMU_RD_CASE(pmevcntr, 29);
	APMU_RD_CASE(pmevcntr, 30);
	}
	return 0;
}

static inline void write_pmevcntrn(int n, unsigned long val)
{
	switch (n) {
	APMU_WR_CASE(pmevcntr, 0);
	APMU_WR_CASE(pmevcntr, 1);
	APMU_WR_CASE(pmevcntr, 2);
	APMU_WR_CASE(pmevcntr, 3);
	APMU_WR_CASE(pmevcntr, 4);
	APMU_WR_CASE(pmevcntr, 5);
	APMU_WR_CASE(pmevcntr, 6);
	APMU_WR_CASE(pmevcntr, 7);
	APMU_WR_CASE(pmevcntr, 8);
	APMU_WR_CASE(pmevcntr, 9);
	APMU_WR_CASE(pmevcntr, 10);
	APMU_WR_CASE(pmevcntr, 11);
	APMU_WR_CASE(pmevcntr, 12);
	APMU_WR_CASE(pmevcntr, 13);
	APMU_WR_CASE(pmevcntr, 14);
	APMU_WR_CASE(pmevcntr, 15);
	APMU_WR_CASE(pmevcntr, 16);
	APMU_WR_CASE(pmevcntr, 17);
	APMU_WR_CASE(pmevcntr, 18);
	APMU_WR_CASE(pmevcntr, 19);
	APMU_WR_CASE(pmevcntr, 20);
	APMU_WR_CASE(pmevcntr, 21);
	APMU_WR_CASE(pmevcntr, 22);
	APMU_WR_CASE(pmevcntr, 23);
	APMU_WR_CASE(pmevcntr, 24);
	APMU_WR_CASE(pmevcntr, 25);
	APMU_WR_CASE(pmevcntr, 26);
	APMU_WR_CASE(pmevcntr, 27);
	APMU_WR_CASE(pmevcntr, 28);
	APMU_WR_CASE(pmevcntr, 29);
	APMU_WR_CASE(pmevcntr, 30);
	}
}

static inline void write_pmevtypern(int n, unsigned long val)
{
	switch (n) {
	APMU_WR_CASE(pmevtyper, 0);
	APMU_WR_CASE(pmevtyper, 1);
	APMU_WR_CASE(pmevtyper, 2);
	APMU_WR_CASE(pmevtyper, 3);
	APMU_WR_CASE(pmevtyper, 4);
	APMU_WR_CASE(pmevtyper, 5);
	APMU_WR_CASE(pmevtyper, 6);
	APMU_WR_CASE(pmevtyper, 7);
	APMU_WR_CASE(pmevtyper, 8);
	APMU_WR_CASE(pmevtyper, 9);
	APMU_WR_CASE(pmevtyper, 10);
	APMU_WR_CASE(pmevtyper, 11);
	APMU_WR_CASE(pmevtyper, 12);
	APMU_WR_CASE(pmevtyper, 13);
	APMU_WR_CASE(pmevtyper, 14);
	APMU_WR_CASE(pmevtyper, 15);
	APMU_WR_CASE(pmevtyper, 16);
	APMU_WR_CASE(pmevtyper, 17);
	APMU_WR_CASE(pmevtyper, 18);
	APMU_WR_CASE(pmevtyper, 19);
	APMU_WR_CASE(pmevtyper, 20);
	APMU_WR_CASE(pmevtyper, 21);
	APMU_WR_CASE(pmevtyper, 22);
	APMU_WR_CASE(pmevtyper, 23);
	APMU_WR_CASE(pmevtyper, 24);
	APMU_WR_CASE(pmevtyper, 25);
	APMU_WR_CASE(pmevtyper, 26);
	APMU_WR_CASE(pmevtyper, 27);
	APMU_WR_CASE(pmevtyper, 28);
	APMU_WR_CASE(pmevtyper, 29);
	APMU_WR_CASE(pmevtyper, 30);
	}
}

static inline unsigned long read_pmmir(void)
{
	return read_sysreg_s(SYS_PMMIR_EL1);
}

static inline u32 read_pmuver(void)
{
	return FIELD_GET(APMU_DFR0_PMUVER, read_sysreg(id_aa64dfr0_el1));
}

static inline void write_pmcr(u64 val)
{
	write_sysreg(val, pmcr_el0);
}

static inline u64 read_pmcr(void)
{
	return read_sysreg(pmcr_el0);
}

static inline void write_pmccntr(u64 val)
{
	write_sysreg(val, pmccntr_el0);
}

static inline u64 read_pmccntr(void)
{
	return read_sysreg(pmccntr_el0);
}

static inline void write_pmcntenset(u64 val)
{
	write_sysreg(val, pmcntenset_el0);
}

static inline void write_pmcntenclr(u64 val)
{
	write_sysreg(val, pmcntenclr_el0);
}

static inline void write_pmintenset(u64 val)
{
	write_sysreg(val, pmintenset_el1);
}

static inline void write_pmintenclr(u64 val)
{
	write_sysreg(val, pmintenclr_el1);
}

static inline void write_pmccfiltr(u64 val)
{
	write_sysreg(val, pmccfiltr_el0);
}

static inline void write_pmovsclr(u64 val)
{
	write_sysreg(val, pmovsclr_el0);
}

static inline u64 read_pmovsclr(void)
{
	return read_sysreg(pmovsclr_el0);
}

static inline void write_pmuserenr(u32 val)
{
	write_sysreg(val, pmuserenr_el0);
}

static inline u64 read_pmceid0(void)
{
	return read_sysreg(pmceid0_el0);
}

static inline u64 read_pmceid1(void)
{
	return read_sysreg(pmceid1_el0);
}
#endif /* !PMEVN_SWITCH */

#ifndef ARMV8_PMU_INSTR_IDX
/*
 * The instruction counter (FEAT_PMUv3_ICNTR): <asm/arm_pmuv3.h> has its accessors along
 * with ARMV8_PMU_INSTR_IDX (6.13, and 6.12.y stable), and the generated
 * <asm/sysreg-defs.h> names its registers in later kernels than 6.1. read_sysreg_s()
 * stringifies its register, so a missing name only shows up as an assembler error.
 */
#ifndef SYS_PMICNTR_EL0
#define SYS_PMICNTR_EL0		sys_reg(3, 3, 9, 4, 0)
#endif
#ifndef SYS_PMICFILTR_EL0
#define SYS_PMICFILTR_EL0	sys_reg(3, 3, 9, 6, 0)
#endif

static inline bool pmuv3_has_icntr(void)
{
	return FIELD_GET(APMU_DFR1_PMICNTR, read_sysreg(id_aa64dfr1_el1)) != 0;
}

static inline void write_pmicntr(u64 val)
{
	write_sysreg_s(val, SYS_PMICNTR_EL0);
}

static inline u64 read_pmicntr(void)
{
	return read_sysreg_s(SYS_PMICNTR_EL0);
}

static inline void write_pmicfiltr(u64 val)
{
	write_sysreg_s(val, SYS_PMICFILTR_EL0);
}
#endif /* !ARMV8_PMU_INSTR_IDX */

#ifndef ARMV8_PMU_USERENR_UEN
/*
 * PMUACR_EL1 (FEAT_PMUv3p9, per-counter EL0 access): its accessor came with 6.13
 * (and ARMV8_PMU_USERENR_UEN), its name in the generated <asm/sysreg-defs.h> later.
 */
#define APMU_SYS_PMUACR_EL1	sys_reg(3, 0, 9, 14, 4)

static inline void write_pmuacr(u64 val)
{
	write_sysreg_s(val, APMU_SYS_PMUACR_EL1);
}
#endif

/*
 * May EL2 trap PMUACR_EL1 and PMICNTR_EL0 (HDFGRTR2_EL2/HDFGWTR2_EL2 .nPMUACR_EL1,
 * .nPMICNTR_EL0, .nPMICFILTR_EL0: 0 traps, and they reset to UNKNOWN values)? Not with
 * VHE: the host's EL0 runs with HCR_EL2.{E2H,TGE} = {1,1}, which fine-grained traps do
 * not apply to. Not without FEAT_FGT2. Otherwise (nVHE, pKVM, or a kernel entered at EL1,
 * which a module cannot tell apart: __boot_cpu_mode is not exported) the kernel's own EL2
 * setup must have set them: __init_el2_fgt2 of <asm/el2_setup.h> does from 6.12.y/6.13,
 * which Kbuild reads (APMU_HAVE_EL2_FGT2_PMU); an older kernel leaves them to chance (or
 * to a hypervisor, which Documentation/arch/arm64/booting.rst asks to clear them), and an
 * access could trap to an EL2 that cannot handle it: that kernel does without both.
 */
static inline bool apmu_pmuv3_el2_may_trap(void)
{
	if (is_kernel_in_hyp_mode())
		return false;
	if (FIELD_GET(APMU_MMFR0_FGT, read_sysreg(id_aa64mmfr0_el1)) < APMU_FGT_FGT2)
		return false;
#ifdef APMU_HAVE_EL2_FGT2_PMU
	return false;
#else
	return true;
#endif
}

#endif /* __APMU_PMUV3_ARCH_ARM64_H */
