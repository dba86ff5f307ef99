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

#include <linux/types.h>

/* The operands of an MRC/MCR of CP14 register <crn>, <crm> (opc1 and opc2 are 0) */
#define APMU_CP14(crn, crm)	"p14, 0, %0, " #crn ", " #crm ", 0"

static inline u32 xscale1_read_pmnc(void)
{
	u32 val;

	asm volatile("mrc " APMU_CP14(c0, c0) : "=r" (val));
	return val;
}

static inline void xscale1_write_pmnc(u32 val)
{
	/* bits 7, 11 and [31:28] reserved */
	asm volatile("mcr " APMU_CP14(c0, c0) : : "r" (val & 0x0ffff77f));
}

static inline u32 xscale1_read_ccnt(void)
{
	u32 val;

	asm volatile("mrc " APMU_CP14(c1, c0) : "=r" (val));
	return val;
}

static inline void xscale1_write_ccnt(u32 val)
{
	asm volatile("mcr " APMU_CP14(c1, c0) : : "r" (val));
}

static inline u32 xscale1_read_pmn0(void)
{
	u32 val;

	asm volatile("mrc " APMU_CP14(c2, c0) : "=r" (val));
	return val;
}

static inline void xscale1_write_pmn0(u32 val)
{
	asm volatile("mcr " APMU_CP14(c2, c0) : : "r" (val));
}

static inline u32 xscale1_read_pmn1(void)
{
	u32 val;

	asm volatile("mrc " APMU_CP14(c3, c0) : "=r" (val));
	return val;
}

static inline void xscale1_write_pmn1(u32 val)
{
	asm volatile("mcr " APMU_CP14(c3, c0) : : "r" (val));
}

static inline u32 xscale2_read_pmnc(void)
{
	u32 val;

	asm volatile("mrc " APMU_CP14(c0, c1) : "=r" (val));
	return val;
}

static inline void xscale2_write_pmnc(u32 val)
{
	/* E, P, C, D; the rest reserved or read-only */
	asm volatile("mcr " APMU_CP14(c0, c1) : : "r" (val & 0xf));
}

static inline u32 xscale2_read_ccnt(void)
{
	u32 val;

	asm volatile("mrc " APMU_CP14(c1, c1) : "=r" (val));
	return val;
}

static inline void xscale2_write_ccnt(u32 val)
{
	asm volatile("mcr " APMU_CP14(c1, c1) : : "r" (val));
}

static inline u32 xscale2_read_inten(void)
{
	u32 val;

	asm volatile("mrc " APMU_CP14(c4, c1) : "=r" (val));
	return val;
}

static inline void xscale2_write_inten(u32 val)
{
	asm volatile("mcr " APMU_CP14(c4, c1) : : "r" (val & 0x1f));
}

static inline u32 xscale2_read_flag(void)
{
	u32 val;

	asm volatile("mrc " APMU_CP14(c5, c1) : "=r" (val));
	return val;
}

static inline void xscale2_write_flag(u32 val)
{
	asm volatile("mcr " APMU_CP14(c5, c1) : : "r" (val & 0x1f));
}

static inline u32 xscale2_read_evtsel(void)
{
	u32 val;

	asm volatile("mrc " APMU_CP14(c8, c1) : "=r" (val));
	return val;
}

static inline void xscale2_write_evtsel(u32 val)
{
	asm volatile("mcr " APMU_CP14(c8, c1) : : "r" (val));
}

static inline u32 xscale2_read_pmn0(void)
{
	u32 val;

	asm volatile("mrc " APMU_CP14(c0, c2) : "=r" (val));
	return val;
}

static inline void xscale2_write_pmn0(u32 val)
{
	asm volatile("mcr " APMU_CP14(c0, c2) : : "r" (val));
}

static inline u32 xscale2_read_pmn1(void)
{
	u32 val;

	asm volatile("mrc " APMU_CP14(c1, c2) : "=r" (val));
	return val;
}

static inline void xscale2_write_pmn1(u32 val)
{
	asm volatile("mcr " APMU_CP14(c1, c2) : : "r" (val));
}

static inline u32 xscale2_read_pmn2(void)
{
	u32 val;

	asm volatile("mrc " APMU_CP14(c2, c2) : "=r" (val));
	return val;
}

static inline void xscale2_write_pmn2(u32 val)
{
	asm volatile("mcr " APMU_CP14(c2, c2) : : "r" (val));
}

static inline u32 xscale2_read_pmn3(void)
{
	u32 val;

	asm volatile("mrc " APMU_CP14(c3, c2) : "=r" (val));
	return val;
}

static inline void xscale2_write_pmn3(u32 val)
{
	asm volatile("mcr " APMU_CP14(c3, c2) : : "r" (val));
}

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
