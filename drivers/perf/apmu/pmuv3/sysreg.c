// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the real AArch64 PMUv3 system registers behind &struct apmu_regs: the per-counter
 * switches for PMEVCNTR<n>/PMEVTYPER<n> (regs.h has the rest, inline).
 *
 * PMEVCNTR<n>_EL0 and PMEVTYPER<n>_EL0 are reached directly rather than through PMSELR_EL0
 * and PMXEV*: one access instead of two, and no shared selector to save across interrupts.
 */
#include <asm/sysreg.h>

#include "../apmu.h"
#include "regs.h"

/* The register name is part of the instruction: one switch case per counter */
#define APMU_RD_CASE(reg, n)	case n: return read_sysreg(reg##n##_el0)
#define APMU_WR_CASE(reg, n)	case n: write_sysreg(val, reg##n##_el0); break

u64 apmu_read_evcntr(unsigned int n)
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

u64 apmu_read_evtyper(unsigned int n)
{
	switch (n) {
	APMU_RD_CASE(pmevtyper, 0);
	APMU_RD_CASE(pmevtyper, 1);
	APMU_RD_CASE(pmevtyper, 2);
	APMU_RD_CASE(pmevtyper, 3);
	APMU_RD_CASE(pmevtyper, 4);
	APMU_RD_CASE(pmevtyper, 5);
	APMU_RD_CASE(pmevtyper, 6);
	APMU_RD_CASE(pmevtyper, 7);
	APMU_RD_CASE(pmevtyper, 8);
	APMU_RD_CASE(pmevtyper, 9);
	APMU_RD_CASE(pmevtyper, 10);
	APMU_RD_CASE(pmevtyper, 11);
	APMU_RD_CASE(pmevtyper, 12);
	APMU_RD_CASE(pmevtyper, 13);
	APMU_RD_CASE(pmevtyper, 14);
	APMU_RD_CASE(pmevtyper, 15);
	APMU_RD_CASE(pmevtyper, 16);
	APMU_RD_CASE(pmevtyper, 17);
	APMU_RD_CASE(pmevtyper, 18);
	APMU_RD_CASE(pmevtyper, 19);
	APMU_RD_CASE(pmevtyper, 20);
	APMU_RD_CASE(pmevtyper, 21);
	APMU_RD_CASE(pmevtyper, 22);
	APMU_RD_CASE(pmevtyper, 23);
	APMU_RD_CASE(pmevtyper, 24);
	APMU_RD_CASE(pmevtyper, 25);
	APMU_RD_CASE(pmevtyper, 26);
	APMU_RD_CASE(pmevtyper, 27);
	APMU_RD_CASE(pmevtyper, 28);
	APMU_RD_CASE(pmevtyper, 29);
	APMU_RD_CASE(pmevtyper, 30);
	}
	return 0;
}

void apmu_write_evcntr(unsigned int n, u64 val)
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

void apmu_write_evtyper(unsigned int n, u64 val)
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

/* Out-of-line copies, for callers that go through the table */
static u64 apmu_sysreg_read_fn(enum apmu_reg reg, unsigned int n)
{
	return apmu_sysreg_read(reg, n);
}

static void apmu_sysreg_write_fn(enum apmu_reg reg, unsigned int n, u64 val)
{
	apmu_sysreg_write(reg, n, val);
}

static void apmu_sysreg_isb_fn(void)
{
	isb();
}

const struct apmu_regs apmu_sysregs = {
	.read = apmu_sysreg_read_fn,
	.write = apmu_sysreg_write_fn,
	.sync = apmu_sysreg_isb_fn,
};
