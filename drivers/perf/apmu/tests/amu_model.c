// SPDX-License-Identifier: GPL-2.0
/*
 * Register model of the Activity Monitors: see amu_model.h for the rules it enforces.
 */
#define pr_fmt(fmt) "apmu_amu_model: " fmt

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/sysreg.h>
#include <kunit/test-bug.h>

#include "amu_model.h"

/* &struct apmu_amu_regs has no context pointer: the model in use is selected globally */
static struct apmu_amu_model *cur;

/**
 * apmu_amu_model_init() - an AMUv1 on every CPU, as a VHE kernel at EL2 without EL3 sees
 *	it: 4 group-0 counters, all enabled by firmware, and 4 group-1 counters, group-1
 *	enables writable, all counters 0
 * @m: the model
 */
void apmu_amu_model_init(struct apmu_amu_model *m)
{
	unsigned int cpu, n;

	memset(m, 0, sizeof(*m));
	m->kernel_cap = true;
	for (cpu = 0; cpu < APMU_AMU_MODEL_CPUS; cpu++) {
		m->amu[cpu] = 1;
		m->el2[cpu] = 1;
		m->cur_el[cpu] = 2;
		m->ncg[cpu] = 1;
		m->cg0nc[cpu] = APMU_AMU_NR_G0;
		m->en0[cpu] = GENMASK_ULL(APMU_AMU_NR_G0 - 1, 0);
		m->cg1nc[cpu] = 4;
		for (n = 0; n < APMU_AMU_NR_G1; n++)
			m->type1[cpu][n] = 0x300 + 0x10 * cpu + n;
	}
}

/**
 * apmu_amu_model_select() - the model that apmu_amu_model_regs reach from now on
 * @m: the model
 */
void apmu_amu_model_select(struct apmu_amu_model *m)
{
	cur = m;
}

static __printf(2, 3) void violation(struct apmu_amu_model *m, const char *fmt, ...)
{
	va_list args;

	if (!m->violations++) {
		va_start(args, fmt);
		vsnprintf(m->why, sizeof(m->why), fmt, args);
		va_end(args);
	}
	pr_err_ratelimited("violation on cpu%d (%u so far)\n",
			   raw_smp_processor_id(), m->violations);
}

/* The CPU whose registers an access reaches; -1 (and a violation) if it has no AMU */
static int model_cpu(struct apmu_amu_model *m, enum apmu_amu_reg reg)
{
	int cpu = raw_smp_processor_id();

	if (preemptible()) {
		violation(m, "AMU register %d accessed from preemptible context", reg);
		return -1;
	}
	if (cpu >= APMU_AMU_MODEL_CPUS || !m->kernel_cap || !m->amu[cpu]) {
		violation(m, "AMU register %d accessed on cpu%d: AMU not enabled there",
			  reg, cpu);
		return -1;
	}
	return cpu;
}

static unsigned int highest_el(struct apmu_amu_model *m, int cpu)
{
	return m->el3[cpu] ? 3 : m->el2[cpu] ? 2 : 1;
}

static u64 g1_mask(struct apmu_amu_model *m, int cpu)
{
	return m->ncg[cpu] ? GENMASK_ULL(m->cg1nc[cpu], 0) >> 1 : 0;
}

static bool model_kernel_enabled(void)
{
	int cpu = raw_smp_processor_id();

	return cpu < APMU_AMU_MODEL_CPUS && cur->kernel_cap && cur->amu[cpu];
}

static bool model_const_broken(void)
{
	return cur->const_broken;
}

static u64 advance(struct apmu_amu_model *m, u64 *cnt, bool enabled, unsigned int k)
{
	if (m->step && enabled)
		*cnt += (u64)m->step * k;
	return *cnt;
}

static u64 model_read(enum apmu_amu_reg reg, unsigned int n)
{
	struct apmu_amu_model *m = cur;
	int cpu = raw_smp_processor_id();

	/* ID_AA64PFR0_EL1 exists whether or not there is an AMU */
	if (reg == APMU_AMU_R_PFR0) {
		if (cpu >= APMU_AMU_MODEL_CPUS)
			return 0;
		return FIELD_PREP(ID_AA64PFR0_EL1_AMU_MASK, m->amu[cpu]) |
		       FIELD_PREP(ID_AA64PFR0_EL1_EL3_MASK, m->el3[cpu]) |
		       FIELD_PREP(ID_AA64PFR0_EL1_EL2_MASK, m->el2[cpu]) |
		       FIELD_PREP(ID_AA64PFR0_EL1_EL1_MASK, 1) |
		       FIELD_PREP(ID_AA64PFR0_EL1_EL0_MASK, 1);
	}

	cpu = model_cpu(m, reg);
	if (cpu < 0)
		return 0;
	m->reads++;
	switch (reg) {
	case APMU_AMU_R_AMCFGR:
		/* N: counters implemented minus one; Size: 64-bit counters; NCG */
		return FIELD_PREP(APMU_AMCFGR_N,
				  m->cg0nc[cpu] + (m->ncg[cpu] ? m->cg1nc[cpu] : 0) - 1) |
		       FIELD_PREP(GENMASK_ULL(13, 8), 63) |
		       FIELD_PREP(APMU_AMCFGR_NCG, m->ncg[cpu]);
	case APMU_AMU_R_AMCGCR:
		/*
		 * The raw field, even when NCG == 0: the driver, not the model, must ignore
		 * it then (a model that hid it would let a missing NCG check pass)
		 */
		return FIELD_PREP(APMU_AMCGCR_CG0NC, m->cg0nc[cpu]) |
		       FIELD_PREP(APMU_AMCGCR_CG1NC, m->cg1nc[cpu]);
	case APMU_AMU_R_CNTENSET0:
	case APMU_AMU_R_CNTENCLR0:
		/* firmware's group-0 enables; P<n> for n >= CG0NC: RAZ */
		return m->en0[cpu] & (GENMASK_ULL(m->cg0nc[cpu], 0) >> 1);
	case APMU_AMU_R_CNTENSET1:
	case APMU_AMU_R_CNTENCLR1:
		if (!m->ncg[cpu]) {
			violation(m, "AMCNTEN%s1_EL0 read with AMCFGR_EL0.NCG == 0 (UNDEFINED)",
				  reg == APMU_AMU_R_CNTENSET1 ? "SET" : "CLR");
			return 0;
		}
		/* P<n> for n >= CG1NC: RAZ */
		return m->en1[cpu] & g1_mask(m, cpu);
	case APMU_AMU_R_EVCNTR0:
		if (n >= m->cg0nc[cpu] || n >= APMU_AMU_NR_G0) {
			violation(m, "AMEVCNTR0%u_EL0 read, CG0NC = %u", n, m->cg0nc[cpu]);
			return 0;
		}
		return advance(m, &m->cnt0[cpu][n], m->en0[cpu] & BIT_ULL(n), n + 1);
	case APMU_AMU_R_EVCNTR1:
	case APMU_AMU_R_EVTYPER1:
		if (!m->ncg[cpu] || n >= m->cg1nc[cpu] || n >= APMU_AMU_NR_G1) {
			violation(m, "AMEV%s1%u_EL0 read, NCG = %u, CG1NC = %u",
				  reg == APMU_AMU_R_EVCNTR1 ? "CNTR" : "TYPER", n, m->ncg[cpu],
				  m->cg1nc[cpu]);
			return 0;
		}
		if (reg == APMU_AMU_R_EVTYPER1)
			return m->type1[cpu][n];
		return advance(m, &m->cnt1[cpu][n], m->en1[cpu] & BIT_ULL(n), n + 5);
	default:
		violation(m, "read of unknown AMU register %d", reg);
		return 0;
	}
}

static void model_write(enum apmu_amu_reg reg, unsigned int n, u64 val)
{
	struct apmu_amu_model *m = cur;
	int cpu = model_cpu(m, reg);
	u64 mask;

	if (cpu < 0)
		return;
	m->writes++;
	switch (reg) {
	case APMU_AMU_R_CNTENSET1:
	case APMU_AMU_R_CNTENCLR1:
		if (!m->ncg[cpu]) {
			violation(m, "AMCNTEN%s1_EL0 written with AMCFGR_EL0.NCG == 0 (UNDEFINED)",
				  reg == APMU_AMU_R_CNTENSET1 ? "SET" : "CLR");
			return;
		}
		if (m->cur_el[cpu] != highest_el(m, cpu)) {
			violation(m, "AMCNTEN%s1_EL0 written at EL%u < highest EL%u (UNDEFINED)",
				  reg == APMU_AMU_R_CNTENSET1 ? "SET" : "CLR", m->cur_el[cpu],
				  highest_el(m, cpu));
			return;
		}
		mask = g1_mask(m, cpu);
		if (val & ~mask)
			violation(m, "AMCNTEN%s1_EL0 written with 0x%llx: bits >= CG1NC (%u) set",
				  reg == APMU_AMU_R_CNTENSET1 ? "SET" : "CLR", val, m->cg1nc[cpu]);
		m->last_write = val;
		/* W1S / W1C over one state; bits >= CG1NC: WI */
		if (reg == APMU_AMU_R_CNTENSET1)
			m->en1[cpu] |= val & mask;
		else
			m->en1[cpu] &= ~(val & mask);
		return;
	case APMU_AMU_R_CNTENSET0:
	case APMU_AMU_R_CNTENCLR0:
		violation(m, "group-0 enable AMCNTEN%s0_EL0 written (the kernel's counters)",
			  reg == APMU_AMU_R_CNTENSET0 ? "SET" : "CLR");
		return;
	default:
		violation(m, "AMU register %d (n = %u) written: never written",
			  reg, n);
		return;
	}
}

/**
 * apmu_amu_model_check() - fail the current KUnit test if the model saw a violation
 * @m: the model
 *
 * Violations happen with preemption disabled (often in an IPI on another CPU), where a
 * KUnit assertion cannot be made: they are counted, and reported here, in test context.
 *
 * Return: the number of violations.
 */
unsigned int apmu_amu_model_check(struct apmu_amu_model *m)
{
	struct kunit *test = kunit_get_current_test();

	if (m->violations && test)
		kunit_fail_current_test("AMU model: %u violation(s), first: %s",
					m->violations, m->why);
	return m->violations;
}

/**
 * apmu_amu_model_power_cycle() - @cpu's core powers down and up again: an AMU reset
 * @m: the model
 * @cpu: the CPU, below %APMU_AMU_MODEL_CPUS
 *
 * Every counter and every group-1 enable resets to 0 (AMEVCNTR0<n>_EL0, AMEVCNTR1<n>_EL0;
 * AMCNTENSET1_EL0.P<n>: "On an AMU reset, this field resets to '0'"). The group-0 enables
 * are firmware's, which enables them again at power-up (TF-A does): @en0 stays.
 * Call it on @cpu, or with @cpu quiescent (offline, or in its own idle path).
 */
void apmu_amu_model_power_cycle(struct apmu_amu_model *m, unsigned int cpu)
{
	if (cpu >= APMU_AMU_MODEL_CPUS)
		return;
	memset(m->cnt0[cpu], 0, sizeof(m->cnt0[cpu]));
	memset(m->cnt1[cpu], 0, sizeof(m->cnt1[cpu]));
	m->en1[cpu] = 0;
	m->power_cycles++;
}

/**
 * apmu_amu_model_advance() - @cpu's enabled counters count @k events each
 * @m: the model
 * @cpu: the CPU, below %APMU_AMU_MODEL_CPUS
 * @k: the events
 *
 * Disabled counters (AMCNTENSET0_EL0/AMCNTENSET1_EL0 bit clear) stand still.
 */
void apmu_amu_model_advance(struct apmu_amu_model *m, unsigned int cpu, u64 k)
{
	unsigned int n;

	if (cpu >= APMU_AMU_MODEL_CPUS)
		return;
	for (n = 0; n < APMU_AMU_NR_G0; n++)
		if (m->en0[cpu] & BIT_ULL(n))
			m->cnt0[cpu][n] += k;
	for (n = 0; n < APMU_AMU_NR_G1; n++)
		if (m->en1[cpu] & BIT_ULL(n))
			m->cnt1[cpu][n] += k;
}

const struct apmu_amu_regs apmu_amu_model_regs = {
	.kernel_enabled = model_kernel_enabled,
	.const_broken = model_const_broken,
	.read = model_read,
	.write = model_write,
};
