/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: the PMUv3 backend's register accessors on 32-bit Arm: the kernel's
 * <asm/arm_pmuv3.h> (6.4 on), plus PMCCNTR through its 32-bit encoding, the PMICNTR
 * stubs a 6.4-6.12 header lacks, and APMU_PMUV3_AARCH32. Read before <asm/arm_pmuv3.h>:
 * it renames the kernel's PMCCNTR accessors.
 */
#ifndef __APMU_PMUV3_ARCH_ARM_H
#define __APMU_PMUV3_ARCH_ARM_H

#include <linux/kernel.h>
#include <linux/of.h>
#include <asm/cputype.h>

/* (sparse 0.6.4, Debian 12's, has no __has_include) */
#ifdef __has_include
#if !__has_include("asm/arm_pmuv3.h")
#error "apmu on 32-bit Arm needs Linux 6.4 or later (<asm/arm_pmuv3.h>)"
#endif
#endif

#ifdef __ASM_PMUV3_H
#error "pmuv3/arch_arm.h must be included before <asm/arm_pmuv3.h>"
#endif

#define read_pmccntr	apmu_kernel_read_pmccntr
#define write_pmccntr	apmu_kernel_write_pmccntr
#include <linux/perf/arm_pmuv3.h>	/* and <asm/arm_pmuv3.h> */
#undef read_pmccntr
#undef write_pmccntr

/*
 * The AArch32 view of PMUv3: PMCCNTR 32-bit (PMCR.LC = 0); event counters 32-bit, LP
 * never set (AArch32 PMEVCNTR<n> shows bits [31:0]); ID_DFR0.PerfMon 3 is PMUv3; no
 * PMEVTYPER TH/TC (bits [43:32], [63:61]); no EL0 reads (no arch_perf_update_userpage()
 * on 32-bit Arm); no PMICNTR.
 */
#define APMU_PMUV3_AARCH32	1

/*
 * PMCCNTR[31:0] through MRC/MCR p15, 0, <Rt>, c9, c13, 0, with PMCR.LC = 0: extended
 * through the overflow interrupt like any 32-bit counter. The kernel's 64-bit
 * MRRC/MCRR p15, 0, <Rt>, <Rt2>, c9 is UNDEFINED on QEMU 7.2 and 10.0 (apmu.rst, "32-bit
 * Arm"); the 32-bit encoding exists on every AArch32 PMUv3.
 */
#define APMU_PMCCNTR32		__ACCESS_CP15(c9, 0, c13, 0)

static inline u64 read_pmccntr(void)
{
	return read_sysreg(APMU_PMCCNTR32);
}

static inline void write_pmccntr(u64 val)
{
	write_sysreg(lower_32_bits(val), APMU_PMCCNTR32);
}

#ifndef ARMV8_PMU_INSTR_IDX
/* FEAT_PMUv3_ICNTR is AArch64 only; the kernel's header has these stubs from 6.13/6.12.y */
static inline bool pmuv3_has_icntr(void)
{
	return false;
}

static inline void write_pmicntr(u64 val) {}

static inline u64 read_pmicntr(void)
{
	return 0;
}

static inline void write_pmicfiltr(u64 val) {}
#endif /* !ARMV8_PMU_INSTR_IDX */

/* AArch32 has no per-counter EL0 access (apmu grants none from AArch32 anyway) */
#ifndef ARMV8_PMU_USERENR_UEN
static inline void write_pmuacr(u64 val) {}
#endif

static inline bool apmu_pmuv3_el2_may_trap(void)
{
	return false;
}

#endif /* __APMU_PMUV3_ARCH_ARM_H */
