// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit register model of a PMUv3: see pmuv3_model.h for the rules it implements.
 */
#include <linux/bitfield.h>
#include <linux/bits.h>

#include "pmuv3_model.h"

/* &struct apmu_regs has no context pointer: the model in use is selected globally. */
static struct apmu_model *cur;

void apmu_model_init(struct apmu_model *m, unsigned int n, unsigned int pmuver)
{
	*m = (struct apmu_model) { .n = n, .pmuver = pmuver };
}

void apmu_model_select(struct apmu_model *m)
{
	cur = m;
}

static u64 valid_bits(const struct apmu_model *m)
{
	u64 v = GENMASK_ULL(m->n, 0) >> 1 | APMU_CNT_BIT_C;

	if (m->icntr)
		v |= APMU_CNT_BIT_F0;
	return v;
}

static bool long_evcnt(const struct apmu_model *m)
{
	return m->pmuver >= APMU_PMUVER_V3P5 && m->pmuver != APMU_PMUVER_IMP_DEF;
}

/* Event counters are 32 bits wide before PMUv3p5 and 64 bits from it. */
static u64 evcnt_width_mask(const struct apmu_model *m)
{
	return long_evcnt(m) ? U64_MAX : U32_MAX;
}

static bool ev_ok(struct apmu_model *m, unsigned int n)
{
	if (n < m->n)
		return true;
	m->undef++;
	return false;
}

static u64 model_read(enum apmu_reg reg, unsigned int n)
{
	struct apmu_model *m = cur;

	m->reads++;
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
	case APMU_R_PMCCNTR:
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
		return ev_ok(m, n) ? m->evcntr[n] : 0;
	case APMU_R_PMEVTYPER:
		return ev_ok(m, n) ? m->evtyper[n] : 0;
	case APMU_R_PMCEID0:
		return m->ceid0;
	case APMU_R_PMCEID1:
		return m->ceid1;
	case APMU_R_PMMIR:
		return 0;
	case APMU_R_DFR0:
		return FIELD_PREP(APMU_DFR0_PMUVER, m->pmuver);
	case APMU_R_DFR1:
		return m->icntr ? BIT_ULL(36) : 0;	/* ID_AA64DFR1_EL1.PMICNTR */
	}
	m->undef++;
	return 0;
}

static void model_write(enum apmu_reg reg, unsigned int n, u64 val)
{
	struct apmu_model *m = cur;
	u64 valid = valid_bits(m);
	unsigned int i;

	m->writes++;
	switch (reg) {
	case APMU_R_PMCR:
		/* P and C act on write and read as zero; N is read-only; LP is RES0 < v3p5 */
		if (val & APMU_PMCR_P)
			for (i = 0; i < m->n; i++)
				m->evcntr[i] = 0;
		if (val & APMU_PMCR_C)
			m->ccntr = 0;
		val &= APMU_PMCR_E | APMU_PMCR_D | APMU_PMCR_DP | APMU_PMCR_LC | APMU_PMCR_LP;
		if (!long_evcnt(m))
			val &= ~APMU_PMCR_LP;
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
		m->userenr = val & (APMU_USERENR_EN | BIT(1) | APMU_USERENR_CR | APMU_USERENR_ER);
		return;
	case APMU_R_PMCCNTR:
		m->ccntr = val;
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
		if (ev_ok(m, n))
			m->evcntr[n] = val & evcnt_width_mask(m);
		return;
	case APMU_R_PMEVTYPER:
		if (ev_ok(m, n))
			m->evtyper[n] = val;
		return;
	case APMU_R_PMCEID0:
	case APMU_R_PMCEID1:
	case APMU_R_PMMIR:
	case APMU_R_DFR0:
	case APMU_R_DFR1:
		break;	/* read-only: a write is UNDEFINED */
	}
	m->undef++;
}

const struct apmu_regs apmu_model_regs = {
	.read = model_read,
	.write = model_write,
};

/*
 * Add @count to a counter that overflows at 2^32 or 2^64, raising its PMOVS bit.
 * Return: how many times bits [31:0] wrapped, which a CHAIN counter above counts.
 */
static u64 model_add(struct apmu_model *m, u64 *cnt, bool wide, unsigned int bit, u64 count)
{
	u64 old = *cnt;
	u64 wraps = (lower_32_bits(old) + count) >> 32;

	*cnt = old + count;
	if (wide) {
		if (*cnt < old)
			m->ovs |= BIT_ULL(bit);
		return wraps;
	}
	/* 32-bit overflow: bits [31:0] wrap (a 64-bit register keeps its upper half) */
	if (wraps)
		m->ovs |= BIT_ULL(bit);
	if (!long_evcnt(m) && bit != APMU_IDX_CYCLE)
		*cnt &= U32_MAX;
	return wraps;
}

static bool model_is_chain(const struct apmu_model *m, unsigned int i)
{
	return i < m->n && (m->cnten & BIT_ULL(i)) &&
	       (m->evtyper[i] & APMU_EVTYPE_EVENT) == APMU_EV_CHAIN;
}

/**
 * apmu_model_count() - let @count occurrences of event @evnum happen
 * @m: model
 * @evnum: event number; CPU_CYCLES also advances PMCCNTR, INST_RETIRED also PMICNTR
 * @count: occurrences
 *
 * Only counters enabled in PMCNTENSET count, and only while PMCR.E is set. An odd counter
 * programmed with CHAIN counts the 32-bit overflows of the even counter below it.
 */
void apmu_model_count(struct apmu_model *m, u16 evnum, u64 count)
{
	bool lp = m->pmcr & APMU_PMCR_LP;
	unsigned int i;
	u64 wraps;

	if (!(m->pmcr & APMU_PMCR_E))
		return;
	for (i = 0; i < m->n; i++) {
		if (!(m->cnten & BIT_ULL(i)) || (m->evtyper[i] & APMU_EVTYPE_EVENT) != evnum)
			continue;
		wraps = model_add(m, &m->evcntr[i], lp, i, count);
		if (!(i & 1) && wraps && !lp && model_is_chain(m, i + 1))
			model_add(m, &m->evcntr[i + 1], false, i + 1, wraps);
	}
	if (evnum == APMU_EV_CPU_CYCLES && (m->cnten & APMU_CNT_BIT_C))
		model_add(m, &m->ccntr, !!(m->pmcr & APMU_PMCR_LC), APMU_IDX_CYCLE, count);
	if (evnum == APMU_EV_INST_RETIRED && m->icntr && (m->cnten & APMU_CNT_BIT_F0))
		model_add(m, &m->icntr_val, true, APMU_IDX_INSTR, count);
}

/* The overflow interrupt request: an overflow flag whose interrupt is enabled. */
bool apmu_model_irq_pending(const struct apmu_model *m)
{
	return m->ovs & m->inten;
}
