/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A register model of the Activity Monitors (FEAT_AMUv1) of up to
 * %APMU_AMU_MODEL_CPUS CPUs, for KUnit and for the VM test module. It implements the
 * architecture strictly, so that a driver bug, not the model, is what a test catches.
 * Each access is to the registers of the CPU it runs on. A violation is counted in
 * @violations (its first description kept in @why); tests require it to stay 0:
 *  - any AMU register access on a CPU where the kernel did not enable the AMU
 *    (ARM64_HAS_AMU_EXTN with ID_AA64PFR0_EL1.AMU != 0), or from preemptible context;
 *  - AMCNTENSET1/AMCNTENCLR1, AMEVCNTR1<n>, AMEVTYPER1<n> when AMCFGR_EL0.NCG == 0
 *    (UNDEFINED), and AMEVCNTR0<n>/AMEVCNTR1<n>/AMEVTYPER1<n> beyond CG0NC/CG1NC;
 *  - AMCNTENSET1/AMCNTENCLR1 writes below the highest implemented Exception level
 *    (UNDEFINED: the seed's IsHighestEL(PSTATE.EL) rule);
 *  - AMCNTENSET1/CLR1 writes with a bit n >= AMCGCR_EL0.CG1NC set: the bits are RAZ/WI
 *    (the model ignores them) and the driver must not write them;
 *  - any write to AMCNTENSET0/AMCNTENCLR0 (group-0 enables are the kernel's), to a
 *    counter or event type, or to AMUSERENR_EL0.
 * AMCNTENSET1/AMCNTENCLR1 are a W1S/W1C pair over one enable state; counters are 64 bits.
 * A counter counts only while enabled: group 0 by @en0 (AMCNTENSET0_EL0, firmware's), group
 * 1 by @en1. apmu_amu_model_power_cycle() is a core power-down and power-up: an AMU reset
 * (AMEVCNTR0<n>/AMEVCNTR1<n> and AMCNTENSET1_EL0.P<n> reset to 0, the Arm ARM and seed 001:
 * "On an AMU reset, this field resets to '0'"), after which firmware's power-up code
 * enables group 0 again as it was (@en0 is kept, as TF-A does).
 */
#ifndef __APMU_AMU_MODEL_H
#define __APMU_AMU_MODEL_H

#include <linux/types.h>

#include "../../apmu_amu/amu.h"

#define APMU_AMU_MODEL_CPUS	8

/**
 * struct apmu_amu_model - the AMU registers of %APMU_AMU_MODEL_CPUS CPUs
 * @kernel_cap: the kernel has the ARM64_HAS_AMU_EXTN capability
 * @const_broken: ARM64_WORKAROUND_BROKEN_AMU_CONSTCNT applies
 * @amu: ID_AA64PFR0_EL1.AMU, by CPU (0: not implemented, 1: AMUv1, 2: AMUv1p1)
 * @el2: ID_AA64PFR0_EL1.EL2, by CPU (0: EL2 not implemented)
 * @el3: ID_AA64PFR0_EL1.EL3, by CPU (0: EL3 not implemented)
 * @cur_el: the Exception level the kernel runs at, by CPU, for the highest-EL write
 *	rule (the unit under test is told it as &apmu_amu.kernel_el)
 * @ncg: AMCFGR_EL0.NCG, by CPU (0: group 0 only)
 * @cg0nc: AMCGCR_EL0.CG0NC, by CPU
 * @cg1nc: AMCGCR_EL0.CG1NC, by CPU (read as is, even when @ncg is 0)
 * @step: when non-zero, each read of an enabled counter n first advances it by
 *	@step * (n + 1) (group 1: @step * (n + 5)): counters that move, for VM tests
 * @en0: AMCNTENSET0_EL0 as firmware set it, by CPU (bits >= CG0NC read as 0)
 * @en1: the group-1 enables behind AMCNTENSET1/AMCNTENCLR1, by CPU
 * @cnt0: AMEVCNTR0<n>_EL0, by CPU
 * @cnt1: AMEVCNTR1<n>_EL0, by CPU
 * @type1: AMEVTYPER1<n>_EL0, by CPU
 * @reads: AMU register reads
 * @writes: AMU register writes
 * @last_write: the value of the last AMCNTENSET1/CLR1 write
 * @power_cycles: apmu_amu_model_power_cycle() calls
 * @violations: accesses the architecture or the driver's rules forbid
 * @why: the first violation
 */
struct apmu_amu_model {
	bool kernel_cap;
	bool const_broken;
	unsigned int amu[APMU_AMU_MODEL_CPUS];
	unsigned int el2[APMU_AMU_MODEL_CPUS];
	unsigned int el3[APMU_AMU_MODEL_CPUS];
	unsigned int cur_el[APMU_AMU_MODEL_CPUS];
	unsigned int ncg[APMU_AMU_MODEL_CPUS];
	unsigned int cg0nc[APMU_AMU_MODEL_CPUS];
	unsigned int cg1nc[APMU_AMU_MODEL_CPUS];
	unsigned int step;
	u64 en0[APMU_AMU_MODEL_CPUS];
	u64 en1[APMU_AMU_MODEL_CPUS];
	u64 cnt0[APMU_AMU_MODEL_CPUS][APMU_AMU_NR_G0];
	u64 cnt1[APMU_AMU_MODEL_CPUS][APMU_AMU_NR_G1];
	u64 type1[APMU_AMU_MODEL_CPUS][APMU_AMU_NR_G1];
	unsigned int reads, writes;
	u64 last_write;
	unsigned int power_cycles;
	unsigned int violations;
	char why[160];
};

extern const struct apmu_amu_regs apmu_amu_model_regs;

void apmu_amu_model_init(struct apmu_amu_model *m);
void apmu_amu_model_select(struct apmu_amu_model *m);
unsigned int apmu_amu_model_check(struct apmu_amu_model *m);
void apmu_amu_model_power_cycle(struct apmu_amu_model *m, unsigned int cpu);
void apmu_amu_model_advance(struct apmu_amu_model *m, unsigned int cpu, u64 k);

#endif /* __APMU_AMU_MODEL_H */
