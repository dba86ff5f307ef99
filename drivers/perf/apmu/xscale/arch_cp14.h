/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: the XScale backend's register accessors: the performance monitor in coprocessor
 * 14, one MRC/MCR each, inlined. XScale1 (PXA25x) has PMNC, CCNT, PMN0 and PMN1 in CRn
 * 0-3 of CRm 0; XScale2 (PXA27x, IXP42x) has PMNC, CCNT, INTEN, FLAG and EVTSEL in
 * CRn 0, 1, 4, 5, 8 of CRm 1 and PMN0-PMN3 in CRn 0-3 of CRm 2 (the encodings of the
 * in-tree arm_xscale_pmu.c). The PMNC writes keep reserved and read-only bits 0: reads
 * may return them set (XScale2's ID field [31:24]).
 */
#ifndef __APMU_XSCALE_ARCH_CP14_H
#define __APMU_XSCALE_ARCH_CP14_H

#include <linux/limits.h>
#include <linux/types.h>

/*
 * <core>_read_<reg>() and <core>_write_<reg>(): MRC/MCR of CP14 register <crn>, <crm>
 * (opc1 and opc2 are 0); a write sets only the bits of @wmask (the others are reserved
 * or read-only).
 */
#define APMU_CP14_RW(core, reg, crn, crm, wmask)				\
static inline u32 core##_read_##reg(void)					\
{										\
	u32 val;								\
										\
	asm volatile("mrc p14, 0, %0, " #crn ", " #crm ", 0" : "=r" (val));	\
	return val;								\
}										\
static inline void core##_write_##reg(u32 val)					\
{										\
	asm volatile("mcr p14, 0, %0, " #crn ", " #crm ", 0" : : "r" (val & (wmask)));	\
}

/* XScale1: PMNC's bits 7, 11 and [31:28] are reserved */
APMU_CP14_RW(xscale1, pmnc, c0, c0, 0x0ffff77f)
APMU_CP14_RW(xscale1, ccnt, c1, c0, U32_MAX)
APMU_CP14_RW(xscale1, pmn0, c2, c0, U32_MAX)
APMU_CP14_RW(xscale1, pmn1, c3, c0, U32_MAX)

/* XScale2: PMNC keeps E, P, C and D; INTEN and FLAG one bit per counter */
APMU_CP14_RW(xscale2, pmnc, c0, c1, 0xf)
APMU_CP14_RW(xscale2, ccnt, c1, c1, U32_MAX)
APMU_CP14_RW(xscale2, inten, c4, c1, 0x1f)
APMU_CP14_RW(xscale2, flag, c5, c1, 0x1f)
APMU_CP14_RW(xscale2, evtsel, c8, c1, U32_MAX)
APMU_CP14_RW(xscale2, pmn0, c0, c2, U32_MAX)
APMU_CP14_RW(xscale2, pmn1, c1, c2, U32_MAX)
APMU_CP14_RW(xscale2, pmn2, c2, c2, U32_MAX)
APMU_CP14_RW(xscale2, pmn3, c3, c2, U32_MAX)

/* The counter number is part of the instruction: one case each */
static inline u32 xscale1_read_pmn(int n)
{
	return n ? xscale1_read_pmn1() : xscale1_read_pmn0();
}

static inline void xscale1_write_pmn(int n, u32 val)
{
	if (n)
		xscale1_write_pmn1(val);
	else
		xscale1_write_pmn0(val);
}

static inline u32 xscale2_read_pmn(int n)
{
	switch (n) {
	case 0:
		return xscale2_read_pmn0();
	case 1:
		return xscale2_read_pmn1();
	case 2:
		return xscale2_read_pmn2();
	default:
		return xscale2_read_pmn3();
	}
}

static inline void xscale2_write_pmn(int n, u32 val)
{
	switch (n) {
	case 0:
		xscale2_write_pmn0(val);
		break;
	case 1:
		xscale2_write_pmn1(val);
		break;
	case 2:
		xscale2_write_pmn2(val);
		break;
	default:
		xscale2_write_pmn3(val);
	}
}

#endif /* __APMU_XSCALE_ARCH_CP14_H */
