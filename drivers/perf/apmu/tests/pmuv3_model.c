// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit register model of a PMUv3: see pmuv3_model.h for the rules it implements.
 */
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/bitfield.h>
#include <linux/bits.h>

#include "pmuv3_model.h"

/* The accessors have no context pointer: the model in use is selected globally. */
static struct apmu_model *cur;

static const char * const reg_names[] = {
	[APMU_R_PMCR] = "PMCR_EL0",
	[APMU_R_PMCNTENSET] = "PMCNTENSET_EL0",
	[APMU_R_PMCNTENCLR] = "PMCNTENCLR_EL0",
	[APMU_R_PMINTENSET] = "PMINTENSET_EL1",
	[APMU_R_PMINTENCLR] = "PMINTENCLR_EL1",
	[APMU_R_PMOVSSET] = "PMOVSSET_EL0",
	[APMU_R_PMOVSCLR] = "PMOVSCLR_EL0",
	[APMU_R_PMUSERENR] = "PMUSERENR_EL0",
	[APMU_R_PMCCNTR] = "PMCCNTR_EL0",
	[APMU_R_PMCCFILTR] = "PMCCFILTR_EL0",
	[APMU_R_PMICNTR] = "PMICNTR_EL0",
	[APMU_R_PMICFILTR] = "PMICFILTR_EL0",
	[APMU_R_PMEVCNTR] = "PMEVCNTR<n>_EL0",
	[APMU_R_PMEVTYPER] = "PMEVTYPER<n>_EL0",
	[APMU_R_PMCEID0] = "PMCEID0_EL0",
	[APMU_R_PMCEID1] = "PMCEID1_EL0",
	[APMU_R_PMMIR] = "PMMIR_EL1",
	[APMU_R_DFR0] = "ID_AA64DFR0_EL1",
	[APMU_R_DFR1] = "ID_AA64DFR1_EL1",
	[APMU_R_PMCCNTR32] = "PMCCNTR (32-bit, c9, c13, 0)",
	[APMU_R_PMCEID2] = "PMCEID2",
	[APMU_R_PMCEID3] = "PMCEID3",
	[APMU_R_ID_DFR0] = "ID_DFR0",
	[APMU_R_PMUACR] = "PMUACR_EL1",
};

static const char *reg_name(enum apmu_reg reg)
{
	return (unsigned int)reg < ARRAY_SIZE(reg_names) && reg_names[reg] ?
	       reg_names[reg] : "?";
}

void apmu_model_init(struct apmu_model *m, unsigned int n, unsigned int pmuver)
{
	*m = (struct apmu_model) { .n = n, .pmuver = pmuver, .midr = 0x411fd070, .rr_pair = -1 };
}

/**
 * apmu_model_init_aarch32() - a model seen from AArch32 state (see pmuv3_model.h)
 * @m: model
 * @n: implemented event counters (PMCR.N)
 * @perfmon: ID_DFR0.PerfMon
 */
void apmu_model_init_aarch32(struct apmu_model *m, unsigned int n, unsigned int perfmon)
{
	apmu_model_init(m, n, perfmon);
	m->aarch32 = true;
}

void apmu_model_select(struct apmu_model *m)
{
	cur = m;
}

/**
 * apmu_model_el0_can_read() - may EL0 read counter @idx now (an MRS, not trapped)?
 * @m: model
 * @idx: counter index: P<n> n, C 31, F0 32
 *
 * PMUSERENR_EL0.EN allows every access. With UEN (FEAT_PMUv3p9) a read is allowed by the
 * counter's PMUACR_EL1 bit, ER and CR then govern writes only (the in-tree driver's
 * reading of the rule, perf/arm_pmuv3 0bbff9ed8165); without it, ER allows reads of the
 * event counters, CR of PMCCNTR (PMICNTR, which apmu never grants, is not modelled).
 *
 * Return: true when the read is allowed.
 */
bool apmu_model_el0_can_read(const struct apmu_model *m, unsigned int idx)
{
	if (m->userenr & ARMV8_PMU_USERENR_EN)
		return true;
	if (m->userenr & APMU_USERENR_UEN)
		return m->pmuacr & BIT_ULL(idx);
	if (idx == APMU_IDX_CYCLE)
		return m->userenr & ARMV8_PMU_USERENR_CR;
	return m->userenr & ARMV8_PMU_USERENR_ER;
}

bool apmu_model_el2_trap(void)
{
	return cur->el2_trap;
}

/* What the system's topology says of the selected model's core */
bool apmu_model_smt(void)
{
	return cur->smt;
}

u32 apmu_model_midr(void)
{
	return cur->midr;
}

/* A driver error the model caught: fail the running test (not in the model's own tests). */
static __printf(2, 3) void model_fail(const struct apmu_model *m, const char *fmt, ...)
{
	struct kunit *test = kunit_get_current_test();
	struct va_format vaf;
	va_list args;

	if (m->selftest || !test)
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	KUNIT_FAIL(test, KUNIT_SUBTEST_INDENT "PMUv3 model: %pV", &vaf);
	va_end(args);
}

/* A register access the driver must never make. */
static void model_undef(struct apmu_model *m, enum apmu_reg reg, unsigned int n, bool write)
{
	m->undef++;
	model_fail(m, "UNDEFINED %s of %s, n=%u (PMUVer %#x, N %u)",
		   write ? "write" : "read", reg_name(reg), n, m->pmuver, m->n);
}

/* Any write, or counting, ends a run of re-reads. */
static void model_changed(struct apmu_model *m)
{
	m->rr_pair = -1;
	m->rr_count = 0;
	m->rr_tripped = false;
}

/*
 * A read of PMEVCNTR<n>: true when it belongs to a runaway run of re-reads of one pair
 * that nothing changes, and must return 0 so that the driver's loop can exit.
 */
static bool model_reread_runaway(struct apmu_model *m, unsigned int n)
{
	unsigned int pair = n / 2;

	if (m->rr_pair != (int)pair) {
		m->rr_pair = pair;
		m->rr_count = 0;
		m->rr_tripped = false;
	}
	if (++m->rr_count <= APMU_MODEL_REREAD_MAX)
		return false;
	if (m->rr_tripped)
		return true;
	m->rr_tripped = true;
	m->runaway++;
	model_fail(m, "runaway loop: %u reads of PMEVCNTR%u/%u (%#llx, %#llx), nothing changing",
		   m->rr_count, pair * 2, pair * 2 + 1, m->evcntr[pair * 2],
		   pair * 2 + 1 < m->n ? m->evcntr[pair * 2 + 1] : 0);
	return true;
}

/*
 * AArch32: ID_DFR0.PerfMon says no PMUv3 (0 none, 1/2 PMUv1/v2, 0xf IMPLEMENTATION
 * DEFINED). The driver must then refuse the PMU on ID_DFR0 alone and touch nothing else.
 */
static bool model_a32_no_pmuv3(struct apmu_model *m, enum apmu_reg reg, unsigned int n,
			       bool write)
{
	if (!m->aarch32 || reg == APMU_R_ID_DFR0 ||
	    (m->pmuver >= APMU_PERFMON_V3 && m->pmuver != APMU_PMUVER_IMP_DEF))
		return false;
	m->undef++;
	model_fail(m, "%s of %s, n=%u, with ID_DFR0.PerfMon %#x: not a PMUv3",
		   write ? "write" : "read", reg_name(reg), n, m->pmuver);
	return true;
}

/* FEAT_PMUv3p9 (PMUVer 9..0xe): PMUACR_EL1 and PMUSERENR_EL0.UEN */
static bool model_v3p9(const struct apmu_model *m)
{
	return m->pmuver >= APMU_PMUVER_V3P9 && m->pmuver != APMU_PMUVER_IMP_DEF;
}

/*
 * AArch32: which registers have no AArch32 encoding (UNDEFINED), and which are
 * AArch32-only (the AArch64 model does not have them).
 */
static bool model_reg_exists(const struct apmu_model *m, enum apmu_reg reg)
{
	switch (reg) {
	case APMU_R_PMUACR:
		/* FEAT_PMUv3p9, AArch64 only; trapped to EL2 unless EL2 untrapped it */
		return !m->aarch32 && model_v3p9(m) && !m->el2_trap;
	case APMU_R_PMICNTR:
	case APMU_R_PMICFILTR:
		return !m->aarch32 && !m->el2_trap;
	case APMU_R_DFR0:
	case APMU_R_DFR1:
		return !m->aarch32;
	case APMU_R_PMCCNTR32:
	case APMU_R_PMCEID2:
	case APMU_R_PMCEID3:
	case APMU_R_ID_DFR0:
		return m->aarch32;
	default:
		return true;
	}
}

/*
 * AArch32: a write to a 32-bit register with bits [63:32] set asks for a field that the
 * AArch32 register does not have (PMEVTYPER<n>.TH/TC, F0 of the counter bitmaps).
 * PMCCNTR through MCRR is the one 64-bit register.
 */
static bool model_a32_too_wide(struct apmu_model *m, enum apmu_reg reg, unsigned int n,
			       u64 val)
{
	if (!m->aarch32 || reg == APMU_R_PMCCNTR || !upper_32_bits(val))
		return false;
	m->undef++;
	model_fail(m, "write of %#llx to %s, n=%u: bits [63:32] do not exist in AArch32",
		   val, reg_name(reg), n);
	return true;
}

/* FEAT_PMUv3p1 (PMUVer and PerfMon 4 and later, not 0xf): PMCEID2/3, 16-bit evtCount */
static bool model_v3p1(const struct apmu_model *m)
{
	return m->pmuver >= APMU_MODEL_PMUVER_V3P1 && m->pmuver != APMU_PMUVER_IMP_DEF;
}

static u64 valid_bits(const struct apmu_model *m)
{
	u64 v = GENMASK_ULL(m->n, 0) >> 1 | APMU_CNT_BIT_C;

	if (m->icntr)
		v |= APMU_CNT_BIT_F0;
	return v;
}

/* FEAT_PMUv3p5: 64-bit event counters and PMCR_EL0.LP (PMUVer 6..0xe) */
static bool model_v3p5(const struct apmu_model *m)
{
	return m->pmuver >= APMU_PMUVER_V3P5 && m->pmuver != APMU_PMUVER_IMP_DEF;
}

/* Event counters are 32 bits wide before PMUv3p5 and 64 bits from it, whatever LP says. */
static u64 evcnt_width_mask(const struct apmu_model *m)
{
	return model_v3p5(m) ? U64_MAX : U32_MAX;
}

/* The effective LP: event counters overflow at 64 bits (RES0 before PMUv3p5) */
static bool model_lp(const struct apmu_model *m)
{
	return model_v3p5(m) && (m->pmcr & ARMV8_PMU_PMCR_LP);
}

/* The PMEVTYPER<n> bits that hold a value: filters and evtCount */
static u64 evtyper_bits(const struct apmu_model *m)
{
	u64 evt = model_v3p1(m) ? GENMASK(15, 0) : GENMASK(9, 0);

	return APMU_FILT_MASK | evt;
}

static bool ev_ok(struct apmu_model *m, enum apmu_reg reg, unsigned int n, bool write)
{
	if (n < m->n)
		return true;
	model_undef(m, reg, n, write);
	return false;
}

/* A register read, the AArch64 view or the 64-bit value behind an AArch32 register */
static u64 model_read(struct apmu_model *m, enum apmu_reg reg, unsigned int n)
{
	switch (reg) {
	case APMU_R_PMCR:
		return m->pmcr | FIELD_PREP(APMU_PMCR_N, m->n);
	case APMU_R_PMCNTENSET:
	case APMU_R_PMCNTENCLR:
		return m->cnten;
	case APMU_R_PMINTENSET:
	case APMU_R_PMINTENCLR:
		return m->inten;
	case APMU_R_PMOVSSET:
	case APMU_R_PMOVSCLR:
		return m->ovs;
	case APMU_R_PMUSERENR:
		return m->userenr;
	case APMU_R_PMUACR:
		return m->pmuacr;
	case APMU_R_PMCCNTR:
	case APMU_R_PMCCNTR32:
		return m->ccntr;
	case APMU_R_PMCCFILTR:
		return m->ccfiltr;
	case APMU_R_PMICNTR:
		if (!m->icntr)
			break;
		return m->icntr_val;
	case APMU_R_PMICFILTR:
		if (!m->icntr)
			break;
		return m->icfiltr;
	case APMU_R_PMEVCNTR:
		if (!ev_ok(m, reg, n, false) || model_reread_runaway(m, n))
			return 0;
		return m->evcntr[n];
	case APMU_R_PMEVTYPER:
		return ev_ok(m, reg, n, false) ? m->evtyper[n] : 0;
	case APMU_R_PMCEID0:
		return m->ceid0;
	case APMU_R_PMCEID1:
		return m->ceid1;
	/* AArch32 PMCEID2/3: PMCEID0/1_EL0[63:32], from PMUv3p1 */
	case APMU_R_PMCEID2:
		if (!model_v3p1(m))
			break;
		return upper_32_bits(m->ceid0);
	case APMU_R_PMCEID3:
		if (!model_v3p1(m))
			break;
		return upper_32_bits(m->ceid1);
	case APMU_R_PMMIR:
		/* PMMIR_EL1 (and AArch32 PMMIR) exists from PMUv3p4 (FEAT_PMUv3p4) */
		if (m->pmuver < APMU_PMUVER_V3P4 || m->pmuver == APMU_PMUVER_IMP_DEF)
			break;
		return m->pmmir;
	case APMU_R_DFR0:
		return FIELD_PREP(APMU_DFR0_PMUVER, m->pmuver);
	case APMU_R_DFR1:
		return m->icntr ? FIELD_PREP(APMU_DFR1_PMICNTR, 1) : 0;
	case APMU_R_ID_DFR0:
		return FIELD_PREP(APMU_MODEL_ID_DFR0_PERFMON, m->pmuver);
	}
	model_undef(m, reg, n, false);
	return 0;
}

/* A register read on the model selected (apmu_model_select()) */
u64 apmu_model_read(enum apmu_reg reg, unsigned int n)
{
	struct apmu_model *m = cur;
	u64 val;

	m->reads++;
	if (model_a32_no_pmuv3(m, reg, n, false))
		return 0;
	if (!model_reg_exists(m, reg)) {
		model_undef(m, reg, n, false);
		return 0;
	}
	val = model_read(m, reg, n);
	/* AArch32: 32-bit registers; PMCCNTR's 64-bit encoding is the exception */
	return m->aarch32 && reg != APMU_R_PMCCNTR ? lower_32_bits(val) : val;
}

/* A register write on the model selected */
void apmu_model_write(enum apmu_reg reg, unsigned int n, u64 val)
{
	struct apmu_model *m = cur;
	u64 valid = valid_bits(m);
	unsigned int i;

	m->writes++;
	model_changed(m);
	if (model_a32_no_pmuv3(m, reg, n, true) || model_a32_too_wide(m, reg, n, val))
		return;
	if (!model_reg_exists(m, reg)) {
		model_undef(m, reg, n, true);
		return;
	}
	if (m->reset_unsynced && (reg == APMU_R_PMEVCNTR || reg == APMU_R_PMCCNTR ||
				  reg == APMU_R_PMCCNTR32 || reg == APMU_R_PMICNTR))
		m->unsynced_cntr_writes++;
	switch (reg) {
	case APMU_R_PMCR:
		if (val & (ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_C))
			m->reset_unsynced = true;
		/* P and C act on write and read as zero, and leave the overflow flags alone */
		if (val & ARMV8_PMU_PMCR_P)
			for (i = 0; i < m->n; i++)
				m->evcntr[i] = 0;
		if (val & ARMV8_PMU_PMCR_C)
			m->ccntr = 0;
		/* N is read-only; LP is RES0 before PMUv3p5 */
		val &= ARMV8_PMU_PMCR_E | ARMV8_PMU_PMCR_D | ARMV8_PMU_PMCR_DP |
		       ARMV8_PMU_PMCR_LC | ARMV8_PMU_PMCR_LP;
		if (!model_v3p5(m))
			val &= ~ARMV8_PMU_PMCR_LP;
		m->pmcr = val;
		return;
	case APMU_R_PMCNTENSET:
		m->cnten |= val & valid;
		return;
	case APMU_R_PMCNTENCLR:
		m->cnten &= ~(val & valid);
		return;
	case APMU_R_PMINTENSET:
		m->inten |= val & valid;
		return;
	case APMU_R_PMINTENCLR:
		m->inten &= ~(val & valid);
		return;
	case APMU_R_PMOVSSET:
		m->ovs |= val & valid;
		return;
	case APMU_R_PMOVSCLR:
		m->ovs &= ~(val & valid);
		return;
	case APMU_R_PMUSERENR:
		m->userenr = val & (ARMV8_PMU_USERENR_EN | ARMV8_PMU_USERENR_SW |
				    ARMV8_PMU_USERENR_CR | ARMV8_PMU_USERENR_ER |
				    (model_v3p9(m) ? APMU_USERENR_UEN : 0));
		if (m->userenr)
			m->userenr_grants++;
		return;
	case APMU_R_PMUACR:
		/* P<n> of implemented counters, C, F0 with PMICNTR; the rest RAZ/WI */
		m->pmuacr = val & valid_bits(m);
		return;
	case APMU_R_PMCCNTR:
		m->ccntr = val;
		return;
	case APMU_R_PMCCNTR32:
		/* MCR p15, 0, <Rt>, c9, c13, 0: bits [31:0]; bits [63:32] are not modified */
		m->ccntr = (m->ccntr & GENMASK_ULL(63, 32)) | lower_32_bits(val);
		return;
	case APMU_R_PMCCFILTR:
		m->ccfiltr = val & APMU_FILT_MASK;	/* evtCount is RES0 in PMCCFILTR */
		return;
	case APMU_R_PMICNTR:
		if (!m->icntr)
			break;
		m->icntr_val = val;
		return;
	case APMU_R_PMICFILTR:
		if (!m->icntr)
			break;
		m->icfiltr = val & APMU_FILT_MASK;
		return;
	case APMU_R_PMEVCNTR:
		if (!ev_ok(m, reg, n, true))
			return;
		/* AArch32 PMEVCNTR<n>: bits [31:0]; from PMUv3p5, [63:32] are left unchanged */
		if (m->aarch32)
			val |= m->evcntr[n] & GENMASK_ULL(63, 32);
		m->evcntr[n] = val & evcnt_width_mask(m);
		return;
	case APMU_R_PMEVTYPER:
		if (ev_ok(m, reg, n, true))
			m->evtyper[n] = val & evtyper_bits(m);
		return;
	case APMU_R_PMCEID0:
	case APMU_R_PMCEID1:
	case APMU_R_PMCEID2:
	case APMU_R_PMCEID3:
	case APMU_R_PMMIR:
	case APMU_R_DFR0:
	case APMU_R_DFR1:
	case APMU_R_ID_DFR0:
		break;	/* read-only: a write is UNDEFINED */
	}
	model_undef(m, reg, n, true);
}

/*
 * How many times bits [31:0] of a counter holding @old wrap when @count is added, without
 * overflowing the sum: (old[31:0] + count) / 2^32.
 */
static u64 wraps32(u64 old, u64 count)
{
	return (count >> 32) + (((u64)lower_32_bits(old) + lower_32_bits(count)) >> 32);
}

/*
 * Add @count to PMEVCNTR<i>, as AArch64.IncrementEventCounter() does: the register keeps
 * 32 bits before PMUv3p5 and 64 from it; PMOVS<i> is set on the unsigned overflow of
 * bits [31:0] (LP 0) or [63:0] (LP 1).
 * Return: the CHAIN events generated for counter i + 1, one per overflow when LP is 0,
 * none when LP is 1 (i's parity is the caller's business).
 */
static u64 model_add_evcnt(struct apmu_model *m, unsigned int i, u64 count)
{
	u64 old = m->evcntr[i];
	u64 ovf;

	m->evcntr[i] = (old + count) & evcnt_width_mask(m);
	if (model_lp(m)) {
		if (old + count < old)
			m->ovs |= BIT_ULL(i);
		return 0;
	}
	ovf = wraps32(old, count);
	if (ovf)
		m->ovs |= BIT_ULL(i);
	return ovf;
}

/* Add @count to a 64-bit wide counter that overflows at bits [31:0] or [63:0]. */
static void model_add_wide(struct apmu_model *m, u64 *cnt, bool ovf64, unsigned int bit,
			   u64 count)
{
	u64 old = *cnt;

	*cnt = old + count;
	if (ovf64 ? *cnt < old : wraps32(old, count) != 0)
		m->ovs |= BIT_ULL(bit);
}

static bool model_counts(const struct apmu_model *m, unsigned int i)
{
	return i < m->n && (m->cnten & BIT_ULL(i));
}

/**
 * apmu_model_count() - let @count occurrences of event @evnum happen
 * @m: model
 * @evnum: event number; CPU_CYCLES also advances PMCCNTR, INST_RETIRED also PMICNTR
 * @count: occurrences
 *
 * Only counters enabled in PMCNTENSET count, and only while PMCR.E is set. An odd counter
 * programmed with CHAIN counts the overflows of the even counter below it when LP is 0
 * (see pmuv3_model.h); CHAIN itself is never an event from outside.
 */
void apmu_model_count(struct apmu_model *m, u16 evnum, u64 count)
{
	unsigned int i;
	u64 chain;

	model_changed(m);
	if (!(m->pmcr & ARMV8_PMU_PMCR_E) || evnum == ARMV8_PMUV3_PERFCTR_CHAIN)
		return;
	for (i = 0; i < m->n; i++) {
		if (!model_counts(m, i) || (m->evtyper[i] & ARMV8_PMU_EVTYPE_EVENT) != evnum)
			continue;
		/*
		 * Arm ARM (DDI 0487) J1.1.1, AArch64.IncrementEventCounter(): an overflow of
		 * an even counter idx is a CHAIN event for idx + 1 (if idx + 1 < N) only when
		 * its lp is '0'; with LP = 1 (64-bit overflow) no CHAIN is generated.
		 */
		chain = model_add_evcnt(m, i, count);
		if (!(i & 1) && chain && model_counts(m, i + 1) &&
		    (m->evtyper[i + 1] & ARMV8_PMU_EVTYPE_EVENT) == ARMV8_PMUV3_PERFCTR_CHAIN)
			model_add_evcnt(m, i + 1, chain);
	}
	if (evnum == ARMV8_PMUV3_PERFCTR_CPU_CYCLES && (m->cnten & APMU_CNT_BIT_C))
		model_add_wide(m, &m->ccntr, m->pmcr & ARMV8_PMU_PMCR_LC, APMU_IDX_CYCLE, count);
	if (evnum == ARMV8_PMUV3_PERFCTR_INST_RETIRED && m->icntr && (m->cnten & APMU_CNT_BIT_F0))
		model_add_wide(m, &m->icntr_val, true, APMU_IDX_INSTR, count);
}

/**
 * apmu_model_isb() - a Context synchronization event on the model selected
 *
 * The backend's isb() when it is compiled against the model (pmuv3_model_access.h):
 * a counter reset requested through PMCR.P/C is complete from here on.
 */
void apmu_model_isb(void)
{
	if (cur)
		cur->reset_unsynced = false;
}

/* The overflow interrupt request: an overflow flag whose interrupt is enabled. */
bool apmu_model_irq_pending(const struct apmu_model *m)
{
	return m->ovs & m->inten;
}
