/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: the PMUv3 backend's register accessors on 32-bit Arm (AArch32, CP15).
 *
 * The backend calls the kernel's own accessors of <asm/arm_pmuv3.h> (read_pmevcntrn(),
 * write_pmevtypern(), read_pmcr(), read_pmuver() from ID_DFR0.PerfMon, read_pmmir(), ...),
 * each one MRC/MCR, inlined. 32-bit Arm has that header from Linux 6.4, when the PMUv3
 * driver became usable there; apmu needs it. Here are only:
 *
 *  - PMCCNTR through its 32-bit encoding, in place of the kernel's 64-bit one (below);
 *  - what a 6.4-6.12 kernel's header lacks (the PMICNTR stubs), with the same names;
 *  - APMU_PMUV3_AARCH32, which tells pmuv3.c which AArch32 rules apply.
 *
 * This header must be read before <asm/arm_pmuv3.h> (pmuv3.c includes it first): it
 * renames the kernel's PMCCNTR accessors while that header is read.
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
 * The AArch32 view of PMUv3, for pmuv3.c:
 *  - PMCCNTR is used as a 32-bit counter, PMCR.LC = 0 (below);
 *  - event counters are 32-bit even on PMUv3p5, where PMCR.LP would make them overflow
 *    at 64 bits: AArch32 PMEVCNTR<n> shows only bits [31:0], so LP is never set;
 *  - ID_DFR0.PerfMon 1 and 2 are PMUv1 and PMUv2 (ARMv7), 3 is PMUv3;
 *  - PMEVTYPER<n> is 32 bits: its threshold fields TH and TC (bits [43:32], [63:61] of
 *    PMEVTYPER<n>_EL0) cannot be written, whatever PMMIR.THWIDTH says;
 *  - no EL0 counter reads (rdpmc): 32-bit Arm's perf has no arch_perf_update_userpage(),
 *    so the mmap page never offers them (cap_user_rdpmc stays 0);
 *  - no PMICNTR (pmuv3_has_icntr() is false).
 */
#define APMU_PMUV3_AARCH32	1

/*
 * PMCCNTR through its 32-bit encoding, MRC/MCR p15, 0, <Rt>, c9, c13, 0 (PMCCNTR[31:0]),
 * and with PMCR.LC = 0, so it overflows at 2^32 and is extended through the overflow
 * interrupt like any 32-bit counter. The kernel's read_pmccntr()/write_pmccntr() use the
 * 64-bit MRRC/MCRR p15, 0, <Rt>, <Rt2>, c9, which QEMU 7.2 (Debian 12's) and 10.0 do not
 * implement: it is UNDEFINED there, and the in-tree driver oopses the first time it
 * schedules "cycles" (measured: "Oops - undefined instruction" at armv8pmu_write_counter,
 * Documentation/admin-guide/perf/apmu.rst, "32-bit Arm"). The 32-bit encoding exists on
 * every AArch32 PMUv3 and costs nothing on hardware, where a 64-bit cycle count is still
 * exact through the interrupt (a 3 GHz CPU takes it every 0.7 s).
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
