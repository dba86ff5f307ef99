// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: PMUv3 counter logic. Every function acts on the calling CPU's registers through
 * pmu->regs, so the same code runs on hardware and on the KUnit register model.
 */
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <kunit/visibility.h>

#include "apmu.h"

static inline u64 rd(struct apmu_pmu *pmu, enum apmu_reg reg)
{
	return pmu->regs->read(reg, 0);
}

static inline void wr(struct apmu_pmu *pmu, enum apmu_reg reg, u64 val)
{
	pmu->regs->write(reg, 0, val);
}

/**
 * apmu_pmuv3_probe() - discover the PMU on the calling CPU
 * @pmu: instance to fill: counters, version, long counters, common events
 */
void apmu_pmuv3_probe(struct apmu_pmu *pmu)
{
	u32 ceid[4];
	u64 ceid0, ceid1;

	pmu->pmuver = FIELD_GET(APMU_DFR0_PMUVER, rd(pmu, APMU_R_DFR0));
	pmu->num_counters = FIELD_GET(APMU_PMCR_N, rd(pmu, APMU_R_PMCR));
	if (pmu->num_counters > APMU_MAX_EVCNT)
		pmu->num_counters = APMU_MAX_EVCNT;
	/* PMCR_EL0.LP exists from PMUv3p5: event counters then overflow at 64 bits */
	pmu->long_evcnt = pmu->pmuver >= APMU_PMUVER_V3P5 &&
			  pmu->pmuver != APMU_PMUVER_IMP_DEF;
	pmu->cnt_mask = GENMASK_ULL(pmu->num_counters, 0) >> 1 | APMU_CNT_BIT_C;

	/*
	 * PMCEID0/1_EL0 bits [31:0] describe events 0x00-0x3f, bits [63:32] (PMUv3p1) the
	 * 0x4000-0x403f range. Re-pack them as one bitmap indexed by (event & 0x3f) plus 64
	 * for the high range.
	 */
	ceid0 = rd(pmu, APMU_R_PMCEID0);
	ceid1 = rd(pmu, APMU_R_PMCEID1);
	ceid[0] = lower_32_bits(ceid0);
	ceid[1] = lower_32_bits(ceid1);
	ceid[2] = upper_32_bits(ceid0);
	ceid[3] = upper_32_bits(ceid1);
	bitmap_from_arr32(pmu->pmceid, ceid, 128);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_probe);

/**
 * apmu_pmuv3_reset() - bring the calling CPU's PMU to a known idle state
 * @pmu: instance
 * @cpu: this CPU's state; its cached PMCR value is set here
 *
 * Counters disabled, overflow interrupts disabled, overflow flags cleared, all counters
 * zeroed, EL0 access off. PMCR.E stays clear until an event is scheduled.
 */
void apmu_pmuv3_reset(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	u64 all = pmu->cnt_mask;
	u64 pmcr = APMU_PMCR_LC;

	if (pmu->long_evcnt)
		pmcr |= APMU_PMCR_LP;
	cpu->pmcr = pmcr;

	wr(pmu, APMU_R_PMCNTENCLR, all);
	wr(pmu, APMU_R_PMINTENCLR, all);
	wr(pmu, APMU_R_PMOVSCLR, all);
	wr(pmu, APMU_R_PMUSERENR, 0);
	/* P and C reset every event counter and PMCCNTR; they read as zero afterwards */
	wr(pmu, APMU_R_PMCR, pmcr | APMU_PMCR_P | APMU_PMCR_C);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_reset);

/**
 * apmu_pmuv3_quiesce() - stop the calling CPU's PMU (CPU going offline, module unload)
 * @pmu: instance
 *
 * Leaves no counter enabled, no interrupt enabled and no overflow flag pending. Counter
 * values are kept, so counts still open can be read out by perf afterwards.
 */
void apmu_pmuv3_quiesce(struct apmu_pmu *pmu)
{
	u64 all = pmu->cnt_mask;

	wr(pmu, APMU_R_PMCR, rd(pmu, APMU_R_PMCR) & ~APMU_PMCR_E);
	wr(pmu, APMU_R_PMCNTENCLR, all);
	wr(pmu, APMU_R_PMINTENCLR, all);
	wr(pmu, APMU_R_PMOVSCLR, all);
	wr(pmu, APMU_R_PMUSERENR, 0);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_quiesce);

/**
 * apmu_pmuv3_get_idx() - pick a free counter for an event
 * @pmu: instance
 * @used: counter indexes in use; the chosen one is set
 * @evnum: the event number
 *
 * CPU_CYCLES prefers the dedicated PMCCNTR; everything else takes the lowest free event
 * counter. Return: the counter index, or -EAGAIN when none is free.
 */
int apmu_pmuv3_get_idx(struct apmu_pmu *pmu, unsigned long *used, u16 evnum)
{
	unsigned int idx;

	if (evnum == APMU_EV_CPU_CYCLES && !test_and_set_bit(APMU_IDX_CYCLE, used))
		return APMU_IDX_CYCLE;

	idx = find_first_zero_bit(used, pmu->num_counters);
	if (idx >= pmu->num_counters)
		return -EAGAIN;
	__set_bit(idx, used);
	return idx;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_get_idx);

/**
 * apmu_pmuv3_counter_is_64bit() - whether a counter overflows at 64 bits
 * @pmu: instance
 * @idx: counter index
 *
 * PMCCNTR does with PMCR.LC (always set by apmu); event counters do with PMCR.LP, which
 * exists from PMUv3p5.
 */
bool apmu_pmuv3_counter_is_64bit(struct apmu_pmu *pmu, int idx)
{
	return idx == APMU_IDX_CYCLE || pmu->long_evcnt;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_counter_is_64bit);

u64 apmu_pmuv3_read_counter(struct apmu_pmu *pmu, int idx)
{
	if (idx == APMU_IDX_CYCLE)
		return rd(pmu, APMU_R_PMCCNTR);
	return pmu->regs->read(APMU_R_PMEVCNTR, idx);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_read_counter);

void apmu_pmuv3_write_counter(struct apmu_pmu *pmu, int idx, u64 val)
{
	if (idx == APMU_IDX_CYCLE)
		wr(pmu, APMU_R_PMCCNTR, val);
	else
		pmu->regs->write(APMU_R_PMEVCNTR, idx, val);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_write_counter);

/**
 * apmu_pmuv3_enable() - program and enable one counter
 * @pmu: instance
 * @idx: counter index
 * @evtype: PMEVTYPER value (event number and filter bits); for PMCCNTR only the filter
 *	    bits go to PMCCFILTR, whose event field is RES0
 * @irq: also enable its overflow interrupt (PMINTENSET)
 *
 * The type is written before the enable so the counter never counts the previous event.
 */
void apmu_pmuv3_enable(struct apmu_pmu *pmu, int idx, u64 evtype, bool irq)
{
	if (idx == APMU_IDX_CYCLE)
		wr(pmu, APMU_R_PMCCFILTR, evtype & APMU_FILT_MASK);
	else
		pmu->regs->write(APMU_R_PMEVTYPER, idx, evtype);
	if (irq)
		wr(pmu, APMU_R_PMINTENSET, BIT_ULL(idx));
	wr(pmu, APMU_R_PMCNTENSET, BIT_ULL(idx));
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_enable);

/**
 * apmu_pmuv3_disable() - disable one counter, its interrupt and its overflow flag
 * @pmu: instance
 * @idx: counter index
 *
 * PMINTENCLR and PMOVSCLR are W1C: writing the one bit leaves other counters alone. The
 * flag is cleared so a stale overflow cannot raise an interrupt for the next user.
 */
void apmu_pmuv3_disable(struct apmu_pmu *pmu, int idx)
{
	u64 bit = BIT_ULL(idx);

	wr(pmu, APMU_R_PMCNTENCLR, bit);
	wr(pmu, APMU_R_PMINTENCLR, bit);
	wr(pmu, APMU_R_PMOVSCLR, bit);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_disable);

/**
 * apmu_pmuv3_take_overflows() - read and clear the overflow flags of our counters
 * @pmu: instance
 * @used: counter indexes in use on this CPU
 *
 * Only flags of counters in use are cleared (PMOVSCLR is W1C), once, before the counters
 * are read, so an overflow that happens while they are handled raises a new interrupt.
 * Return: the flags taken; 0 when none of ours had overflowed.
 */
u64 apmu_pmuv3_take_overflows(struct apmu_pmu *pmu, const unsigned long *used)
{
	u64 ovs = rd(pmu, APMU_R_PMOVSCLR) & pmu->cnt_mask;
	u64 mine = 0;

	bitmap_to_arr64(&mine, used, APMU_NR_IDX);
	ovs &= mine;
	if (ovs)
		wr(pmu, APMU_R_PMOVSCLR, ovs);
	return ovs;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_take_overflows);
