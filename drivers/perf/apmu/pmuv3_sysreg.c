// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the real AArch64 PMUv3 system registers behind &struct apmu_regs.
 *
 * PMEVCNTR<n>_EL0 and PMEVTYPER<n>_EL0 are reached directly rather than through PMSELR_EL0
 * and PMXEV*: one access instead of two, and no shared selector to save across interrupts.
 */
#include <linux/bug.h>
#include <asm/sysreg.h>

#include "apmu.h"

/* The register name is part of the instruction: one switch case per counter */
#define APMU_RD_CASE(reg, n)	case n: return read_sysreg(reg##n##_el0)
#define APMU_WR_CASE(reg, n)	case n: write_sysreg(val, reg##n##_el0); break

static u64 apmu_read_evcntr(unsigned int n)
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

static u64 apmu_read_evtyper(unsigned int n)
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

static void apmu_write_evcntr(unsigned int n, u64 val)
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

static void apmu_write_evtyper(unsigned int n, u64 val)
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

static u64 apmu_sysreg_read(enum apmu_reg reg, unsigned int n)
{
	switch (reg) {
	case APMU_R_PMCR:
		return read_sysreg(pmcr_el0);
	case APMU_R_PMCNTENSET:
		return read_sysreg(pmcntenset_el0);
	case APMU_R_PMCNTENCLR:
		return read_sysreg(pmcntenclr_el0);
	case APMU_R_PMINTENSET:
		return read_sysreg(pmintenset_el1);
	case APMU_R_PMINTENCLR:
		return read_sysreg(pmintenclr_el1);
	case APMU_R_PMOVSSET:
		return read_sysreg(pmovsset_el0);
	case APMU_R_PMOVSCLR:
		return read_sysreg(pmovsclr_el0);
	case APMU_R_PMUSERENR:
		return read_sysreg(pmuserenr_el0);
	case APMU_R_PMCCNTR:
		return read_sysreg(pmccntr_el0);
	case APMU_R_PMCCFILTR:
		return read_sysreg(pmccfiltr_el0);
	case APMU_R_PMICNTR:
		return read_sysreg_s(SYS_PMICNTR_EL0);
	case APMU_R_PMICFILTR:
		return read_sysreg_s(SYS_PMICFILTR_EL0);
	case APMU_R_PMEVCNTR:
		return apmu_read_evcntr(n);
	case APMU_R_PMEVTYPER:
		return apmu_read_evtyper(n);
	case APMU_R_PMCEID0:
		return read_sysreg(pmceid0_el0);
	case APMU_R_PMCEID1:
		return read_sysreg(pmceid1_el0);
	case APMU_R_PMMIR:
		return read_sysreg_s(SYS_PMMIR_EL1);
	case APMU_R_DFR0:
		return read_sysreg(id_aa64dfr0_el1);
	case APMU_R_DFR1:
		return read_sysreg(id_aa64dfr1_el1);
	}
	return 0;
}

static void apmu_sysreg_write(enum apmu_reg reg, unsigned int n, u64 val)
{
	switch (reg) {
	case APMU_R_PMCR:
		write_sysreg(val, pmcr_el0);
		return;
	case APMU_R_PMCNTENSET:
		write_sysreg(val, pmcntenset_el0);
		return;
	case APMU_R_PMCNTENCLR:
		write_sysreg(val, pmcntenclr_el0);
		return;
	case APMU_R_PMINTENSET:
		write_sysreg(val, pmintenset_el1);
		return;
	case APMU_R_PMINTENCLR:
		write_sysreg(val, pmintenclr_el1);
		return;
	case APMU_R_PMOVSSET:
		write_sysreg(val, pmovsset_el0);
		return;
	case APMU_R_PMOVSCLR:
		write_sysreg(val, pmovsclr_el0);
		return;
	case APMU_R_PMUSERENR:
		write_sysreg(val, pmuserenr_el0);
		return;
	case APMU_R_PMCCNTR:
		write_sysreg(val, pmccntr_el0);
		return;
	case APMU_R_PMCCFILTR:
		write_sysreg(val, pmccfiltr_el0);
		return;
	case APMU_R_PMICNTR:
		write_sysreg_s(val, SYS_PMICNTR_EL0);
		return;
	case APMU_R_PMICFILTR:
		write_sysreg_s(val, SYS_PMICFILTR_EL0);
		return;
	case APMU_R_PMEVCNTR:
		apmu_write_evcntr(n, val);
		return;
	case APMU_R_PMEVTYPER:
		apmu_write_evtyper(n, val);
		return;
	case APMU_R_PMCEID0:
	case APMU_R_PMCEID1:
	case APMU_R_PMMIR:
	case APMU_R_DFR0:
	case APMU_R_DFR1:
		/* read-only identification registers */
		return;
	}
}

const struct apmu_regs apmu_sysregs = {
	.read = apmu_sysreg_read,
	.write = apmu_sysreg_write,
};
