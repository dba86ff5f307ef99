// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: PMUv3 counter logic. Every function acts on the calling CPU's registers through
 * pmu->regs, so the same code runs on hardware and on the KUnit register model.
 */
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <kunit/visibility.h>
#include <asm/cputype.h>

#include "../apmu.h"
#include "regs.h"

static __always_inline u64 rd(struct apmu_pmu *pmu, enum apmu_reg reg)
{
	return apmu_rd(pmu, reg, 0);
}

static __always_inline void wr(struct apmu_pmu *pmu, enum apmu_reg reg, u64 val)
{
	apmu_wr(pmu, reg, 0, val);
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
			  pmu->pmuver != APMU_PMUVER_IMP_DEF && pmu->allow_lp;
	/* PMCCNTR always overflows at 64 bits (LC); event counters where LP allows */
	pmu->pmcr = APMU_PMCR_LC | (pmu->long_evcnt ? APMU_PMCR_LP : 0);
	pmu->has_icntr = FIELD_GET(APMU_DFR1_PMICNTR, rd(pmu, APMU_R_DFR1)) != 0;
	pmu->cnt_mask = GENMASK_ULL(pmu->num_counters, 0) >> 1 | APMU_CNT_BIT_C;
	if (pmu->has_icntr)
		pmu->cnt_mask |= APMU_CNT_BIT_F0;
	/* PMMIR_EL1 exists from PMUv3p4 (PMUVer 5); 0xf is an IMPLEMENTATION DEFINED PMU */
	/* MIDR implementer 0: a software model (QEMU); see apmu_hw_enable() */
	pmu->irq_resync = pmu->regs == &apmu_sysregs && !MIDR_IMPLEMENTOR(read_cpuid_id());
	pmu->pmmir = 0;
	if (pmu->pmuver >= APMU_PMUVER_V3P4 && pmu->pmuver != APMU_PMUVER_IMP_DEF)
		pmu->pmmir = lower_32_bits(rd(pmu, APMU_R_PMMIR));

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
 *
 * Counters disabled, overflow interrupts disabled, overflow flags cleared, all counters
 * zeroed, EL0 access off. PMCR.E stays clear until an event is scheduled.
 */
void apmu_pmuv3_reset(struct apmu_pmu *pmu)
{
	u64 all = pmu->cnt_mask;

	wr(pmu, APMU_R_PMCNTENCLR, all);
	wr(pmu, APMU_R_PMINTENCLR, all);
	wr(pmu, APMU_R_PMOVSCLR, all);
	wr(pmu, APMU_R_PMUSERENR, 0);
	/* P and C reset every event counter and PMCCNTR; they read as zero afterwards */
	wr(pmu, APMU_R_PMCR, pmu->pmcr | APMU_PMCR_P | APMU_PMCR_C);
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

/* The PMCNTEN/PMINTEN/PMOVS bits of a counter, or of both halves of a CHAIN pair. */
static inline u64 apmu_cnt_bits(int idx, bool chained)
{
	return chained ? BIT_ULL(idx) | BIT_ULL(idx + 1) : BIT_ULL(idx);
}

/**
 * apmu_pmuv3_get_idx() - pick a free counter for an event
 * @pmu: instance
 * @used: counter indexes in use; the chosen ones are set
 * @evtype: the PMEVTYPER value the event needs (event number, filters, threshold)
 * @flags: %APMU_GET_CHAIN: a 64-bit count is needed on 32-bit event counters, take a
 *	   CHAIN pair; %APMU_GET_USER: user space reads the counter
 *
 * CPU_CYCLES prefers the dedicated PMCCNTR and INST_RETIRED the instruction counter
 * PMICNTR (FEAT_PMUv3_ICNTR): both are 64-bit, so no pair is needed there. They have no
 * threshold fields, so a threshold event always takes an event counter, and PMICNTR is
 * not offered to user-space reads (tools know PMEVCNTR<n> and PMCCNTR only). A CHAIN pair
 * is an even counter (the event) and the odd one above it, which counts its overflows.
 * A CHAIN pair is never given to an event user space reads (%APMU_GET_USER).
 * Return: the counter index (the even one of a pair), or -EAGAIN when none is free.
 */
int apmu_pmuv3_get_idx(struct apmu_pmu *pmu, unsigned long *used, u64 evtype,
		       unsigned int flags)
{
	u16 evnum = evtype & APMU_EVTYPE_EVENT;
	bool fixed_ok = !(evtype & (APMU_EVTYPE_TH | APMU_EVTYPE_TC));
	unsigned int idx;

	if (fixed_ok && evnum == APMU_EV_CPU_CYCLES && !test_and_set_bit(APMU_IDX_CYCLE, used))
		return APMU_IDX_CYCLE;
	/*
	 * User space reads one counter: a 64-bit count it reads must be on a 64-bit counter,
	 * never on a CHAIN pair (two reads that can tear). With PMCCNTR taken, wait for it,
	 * as the in-tree driver does.
	 */
	if ((flags & (APMU_GET_CHAIN | APMU_GET_USER)) == (APMU_GET_CHAIN | APMU_GET_USER))
		return -EAGAIN;
	if (fixed_ok && evnum == APMU_EV_INST_RETIRED && pmu->has_icntr &&
	    !(flags & APMU_GET_USER) && !test_and_set_bit(APMU_IDX_INSTR, used))
		return APMU_IDX_INSTR;

	if (flags & APMU_GET_CHAIN) {
		for (idx = 0; idx + 1 < pmu->num_counters; idx += 2) {
			if (test_bit(idx, used) || test_bit(idx + 1, used))
				continue;
			__set_bit(idx, used);
			__set_bit(idx + 1, used);
			return idx;
		}
		return -EAGAIN;
	}

	idx = find_first_zero_bit(used, pmu->num_counters);
	if (idx >= pmu->num_counters)
		return -EAGAIN;
	__set_bit(idx, used);
	return idx;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_get_idx);

/**
 * apmu_pmuv3_put_idx() - release what apmu_pmuv3_get_idx() took
 * @used: counter indexes in use
 * @idx: the index it returned
 * @chained: it was a CHAIN pair
 */
void apmu_pmuv3_put_idx(unsigned long *used, int idx, bool chained)
{
	__clear_bit(idx, used);
	if (chained)
		__clear_bit(idx + 1, used);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_put_idx);

/**
 * apmu_pmuv3_counter_is_64bit() - whether a counter overflows at 64 bits
 * @pmu: instance
 * @idx: counter index
 * @chained: @idx is the low half of a CHAIN pair
 *
 * PMCCNTR does with PMCR.LC (always set by apmu), PMICNTR always, a CHAIN pair as a whole,
 * and event counters with PMCR.LP, which exists from PMUv3p5.
 *
 * Return: true for a 64-bit counter.
 */
bool apmu_pmuv3_counter_is_64bit(struct apmu_pmu *pmu, int idx, bool chained)
{
	return idx >= APMU_IDX_CYCLE || chained || pmu->long_evcnt;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_counter_is_64bit);

/**
 * apmu_pmuv3_read_counter() - a counter's value, or a CHAIN pair's 64-bit value
 * @pmu: instance
 * @idx: counter index
 * @chained: @idx and @idx + 1 form a CHAIN pair
 *
 * Return: the raw value. A 32-bit event counter on PMUv3p5 is a 64-bit register whose
 * upper half the caller ignores (it compares at the counter's width).
 */
u64 apmu_pmuv3_read_counter(struct apmu_pmu *pmu, int idx, bool chained)
{
	u64 hi, lo, prev;

	if (idx == APMU_IDX_CYCLE)
		return rd(pmu, APMU_R_PMCCNTR);
	if (idx == APMU_IDX_INSTR)
		return rd(pmu, APMU_R_PMICNTR);
	if (!chained)
		return apmu_rd(pmu, APMU_R_PMEVCNTR, idx);
	/*
	 * The low half may carry into the high half between the two reads: re-read until
	 * the high half is stable. From PMUv3p5 event counters are 64 bits wide whatever
	 * PMCR_EL0.LP says (LP = 0 only moves the overflow, and so CHAIN, to bit 31), so the
	 * even counter's bits [63:32] keep counting its wraps: only bits [31:0] are the low
	 * half, and only bits [31:0] of the odd counter are the high half.
	 */
	hi = lower_32_bits(apmu_rd(pmu, APMU_R_PMEVCNTR, idx + 1));
	do {
		prev = hi;
		lo = lower_32_bits(apmu_rd(pmu, APMU_R_PMEVCNTR, idx));
		hi = lower_32_bits(apmu_rd(pmu, APMU_R_PMEVCNTR, idx + 1));
	} while (hi != prev);
	return hi << 32 | lo;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_read_counter);

void apmu_pmuv3_write_counter(struct apmu_pmu *pmu, int idx, bool chained, u64 val)
{
	if (idx == APMU_IDX_CYCLE) {
		wr(pmu, APMU_R_PMCCNTR, val);
	} else if (idx == APMU_IDX_INSTR) {
		wr(pmu, APMU_R_PMICNTR, val);
	} else if (chained) {
		apmu_wr(pmu, APMU_R_PMEVCNTR, idx, lower_32_bits(val));
		apmu_wr(pmu, APMU_R_PMEVCNTR, idx + 1, upper_32_bits(val));
	} else {
		apmu_wr(pmu, APMU_R_PMEVCNTR, idx, val);
	}
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_write_counter);

/**
 * apmu_pmuv3_enable() - program and enable one counter (or CHAIN pair)
 * @pmu: instance
 * @idx: counter index
 * @chained: @idx and @idx + 1 form a CHAIN pair
 * @evtype: PMEVTYPER value (event number, filters, threshold). PMCCFILTR and PMICFILTR
 *	    take only the filter bits: their counters' events are fixed
 * @irq: also enable the overflow interrupt (PMINTENSET); of a pair, the odd counter's,
 *	 which overflows when the 64-bit count does
 *
 * The types are written before the enable so the counter never counts a previous event.
 * A pair is enabled with one PMCNTENSET write, so neither half runs without the other.
 */
void apmu_pmuv3_enable(struct apmu_pmu *pmu, int idx, bool chained, u64 evtype, bool irq)
{
	if (idx == APMU_IDX_CYCLE) {
		wr(pmu, APMU_R_PMCCFILTR, evtype & APMU_FILT_MASK);
	} else if (idx == APMU_IDX_INSTR) {
		wr(pmu, APMU_R_PMICFILTR, evtype & APMU_FILT_MASK);
	} else {
		apmu_wr(pmu, APMU_R_PMEVTYPER, idx, evtype);
		/* CHAIN counts overflows of counter idx at the ELs its own filter allows */
		if (chained)
			apmu_wr(pmu, APMU_R_PMEVTYPER, idx + 1,
				APMU_EV_CHAIN | (evtype & APMU_FILT_MASK));
	}
	if (irq)
		wr(pmu, APMU_R_PMINTENSET, BIT_ULL(chained ? idx + 1 : idx));
	wr(pmu, APMU_R_PMCNTENSET, apmu_cnt_bits(idx, chained));
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_enable);

/**
 * apmu_pmuv3_disable() - disable a counter (or pair), its interrupt and overflow flags
 * @pmu: instance
 * @idx: counter index
 * @chained: @idx and @idx + 1 form a CHAIN pair
 *
 * PMCNTENCLR, PMINTENCLR and PMOVSCLR are W1C: writing our bits leaves other counters
 * alone. The flags are cleared so a stale overflow cannot interrupt the next user. The
 * caller runs with PMCR.E clear and synchronized (core.c, apmu_hw_disable()), so the
 * counter is already stopped for its final read and no barrier is needed here.
 */
void apmu_pmuv3_disable(struct apmu_pmu *pmu, int idx, bool chained)
{
	u64 bits = apmu_cnt_bits(idx, chained);

	wr(pmu, APMU_R_PMCNTENCLR, bits);
	wr(pmu, APMU_R_PMINTENCLR, bits);
	wr(pmu, APMU_R_PMOVSCLR, bits);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_disable);

/**
 * apmu_pmuv3_disable_counter() - disable a counter (or pair) that raises no interrupt
 * @pmu: instance
 * @idx: counter index
 *
 * For a counting event on a 64-bit counter, whose interrupt was never enabled and whose
 * overflow flag cannot be set: one PMCNTENCLR write instead of three.
 */
void apmu_pmuv3_disable_counter(struct apmu_pmu *pmu, int idx)
{
	wr(pmu, APMU_R_PMCNTENCLR, BIT_ULL(idx));
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_disable_counter);

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
