/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: register access for the hot paths.
 *
 * Every access names its register as a constant, so on the real backend the dispatch
 * below folds into the one MRS/MSR it stands for: no indirect call, no switch. Only a
 * register model (KUnit) goes through &struct apmu_regs.
 */
#ifndef __APMU_REGS_H
#define __APMU_REGS_H

#include <asm/barrier.h>
#include <asm/sysreg.h>

#include "../apmu.h"
#include "../compat.h"

u64 apmu_read_evcntr(unsigned int n);
u64 apmu_read_evtyper(unsigned int n);
void apmu_write_evcntr(unsigned int n, u64 val);
void apmu_write_evtyper(unsigned int n, u64 val);

static __always_inline u64 apmu_sysreg_read(enum apmu_reg reg, unsigned int n)
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

static __always_inline void apmu_sysreg_write(enum apmu_reg reg, unsigned int n, u64 val)
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

/* Read @reg (@n for PMEVCNTR<n>/PMEVTYPER<n>) on the calling CPU. */
static __always_inline u64 apmu_rd(struct apmu_pmu *pmu, enum apmu_reg reg, unsigned int n)
{
	if (likely(pmu->regs == &apmu_sysregs))
		return apmu_sysreg_read(reg, n);
	return pmu->regs->read(reg, n);
}

/* Write @val to @reg (@n for PMEVCNTR<n>/PMEVTYPER<n>) on the calling CPU. */
static __always_inline void apmu_wr(struct apmu_pmu *pmu, enum apmu_reg reg, unsigned int n,
				    u64 val)
{
	if (likely(pmu->regs == &apmu_sysregs))
		apmu_sysreg_write(reg, n, val);
	else
		pmu->regs->write(reg, n, val);
}

/*
 * A Context synchronization event: the System register writes before it (PMCR_EL0,
 * PMEVTYPER, PMCNTENSET/CLR, PMOVSCLR) affect counting and the interrupt request after it.
 */
static __always_inline void apmu_isb(struct apmu_pmu *pmu)
{
	if (likely(pmu->regs == &apmu_sysregs))
		isb();
	else if (pmu->regs->sync)
		pmu->regs->sync();
}

#endif /* __APMU_REGS_H */
