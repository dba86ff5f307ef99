// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the XScale backend's counter logic, on the calling CPU's CP14 registers through
 * inline accessors (arch_cp14.h: xscale1_read_pmnc(), xscale2_write_evtsel(), ...).
 *
 * The rules of the IXP42X/IXC1100 developer's manual, section 3.7.3 ("Managing the
 * Performance Monitor"), and where they are obeyed:
 *  - "To change an event for a performance counter, first disable the facility (PMNC.E)
 *    and then modify EVTSEL": xs_enable() and xs_disable() write the selects; the core
 *    calls them only between its stop() (PMNC.E clear, xs_stop()) and start(), so an
 *    add or a del is PMNC.E off, EVTSEL, counters, PMNC.E on, with no access of its own
 *    for PMNC.
 *  - "The interrupt request will remain asserted until software clears the overflow flag
 *    by writing a one to the flag that is set ... Disabling the facility (PMNC.E) doesn't
 *    deassert the interrupt request": xs_take_overflows() writes back every flag it read.
 *  - "The counters continue to record events even after they overflow ... software can
 *    extend the count duration beyond 32 bits by counting the number of overflow
 *    interrupts": every counter is 32-bit, so the core arms each event at half range and
 *    folds it in the overflow interrupt (APMU_ARM_32BIT); xs_enable() enables the
 *    counter's interrupt whenever the PMU has one (else the core's fold timer folds it).
 *  - "Power can be saved by selecting event 0xFF for any unused event counter ... When
 *    the performance monitor is not used at all (PMNC.E = 0x0), hardware ensures minimal
 *    power consumption": xs_disable() and xs_reset() select 0xFF for a counter that no
 *    event holds, and xs_start() sets PMNC.E only while some counter runs.
 *  - A removed counter's interrupt enable and flag are cleared (xs_disable()), so a stale
 *    overflow cannot interrupt its next user; xs_reset() leaves nothing enabled or
 *    pending at load and unload.
 *
 * The KUnit module compiles this file a second time against its register model
 * (tests/xscale_model_access.h, which provides the accessors and APMU_XSCALE_ACCESSORS),
 * as apmu_xscale_model_ops.
 */
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>

#ifndef APMU_XSCALE_ACCESSORS
#include "arch_cp14.h"
#endif

#include "xscale.h"

#ifndef APMU_XSCALE_OPS
#define APMU_XSCALE_OPS		apmu_xscale_ops
#endif

/* XScale1's PMNC bit order (PMN0, PMN1, CCNT) from and to counter-index bits */
static u32 xs1_idx_bits(u32 field)
{
	return (field & 0x3) << 1 | (field >> 2 & 1);
}

static u32 xs1_field(unsigned long idx_bits)
{
	return (idx_bits >> 1 & 0x3) | (idx_bits & 1) << 2;
}

/* evtCount0 and evtCount1 in XScale1's PMNC */
static const u32 xs1_evt_field[] = { APMU_XS1_PMNC_EVT0, APMU_XS1_PMNC_EVT1 };
static const unsigned int xs1_evt_shift[] = { 12, 20 };

/*
 * An XScale1 PMNC value to write back: the flags are write-one-to-clear, so only those in
 * @clear are written as 1 (a read value written back would clear every pending overflow);
 * P and C are "Read-unpredictable / Write" (1 zeroes the counters), so they are written 0.
 */
static u32 xs1_pmnc_keep(u32 pmnc, unsigned long clear)
{
	pmnc &= ~(APMU_XS1_PMNC_FLAG | APMU_XS_PMNC_P | APMU_XS_PMNC_C);
	return pmnc | FIELD_PREP(APMU_XS1_PMNC_FLAG, xs1_field(clear));
}

/**
 * apmu_xscale_setup() - an XScale instance of one layout, before its probe
 * @xs: instance
 * @v2: the XScale2 layout (four event counters), else XScale1 (two)
 * @ops: the backend (apmu_xscale_ops; the KUnit module's over the model)
 */
void apmu_xscale_setup(struct apmu_xscale *xs, bool v2, const struct apmu_pmu_ops *ops)
{
	xs->v2 = v2;
	xs->nr_pmn = v2 ? 4 : 2;
	xs->pmu.ops = ops;
	xs->pmu.nr_idx = v2 ? APMU_XS2_NR_IDX : APMU_XS1_NR_IDX;
}

static int xs_probe(struct apmu_pmu *pmu)
{
	struct apmu_xscale *xs = container_of(pmu, struct apmu_xscale, pmu);

	pmu->num_counters = xs->nr_pmn;
	pmu->num_dedicated = 1;	/* CCNT */
	scnprintf(pmu->info, sizeof(pmu->info), "XScale%d, %u event counters + CCNT",
		  xs->v2 ? 2 : 1, xs->nr_pmn);
	return 0;
}

/* Zero and idle everything: PMNC.E off, counters zeroed, no interrupt, flag or select */
static void xs_reset(struct apmu_pmu *pmu)
{
	struct apmu_xscale *xs = container_of(pmu, struct apmu_xscale, pmu);

	if (xs->v2) {
		/* E first: the selects change only with it clear */
		xscale2_write_pmnc(APMU_XS_PMNC_P | APMU_XS_PMNC_C);
		xscale2_write_inten(0);
		xscale2_write_flag(APMU_XS2_CNT_MASK);
		xscale2_write_evtsel(~0U);
		return;
	}
	xscale1_write_pmnc(xs1_pmnc_keep(xscale1_read_pmnc(), 0) & ~APMU_XS_PMNC_E);
	xscale1_write_pmnc(APMU_XS_PMNC_P | APMU_XS_PMNC_C | APMU_XS1_PMNC_FLAG |
			   APMU_XS1_PMNC_EVT0 | APMU_XS1_PMNC_EVT1);
}

/* As xs_reset(), counter values kept (the CPU goes offline; perf has folded them) */
static void xs_quiesce(struct apmu_pmu *pmu)
{
	struct apmu_xscale *xs = container_of(pmu, struct apmu_xscale, pmu);

	if (xs->v2) {
		xscale2_write_pmnc(0);
		xscale2_write_inten(0);
		xscale2_write_flag(APMU_XS2_CNT_MASK);
		xscale2_write_evtsel(~0U);
		return;
	}
	/* E off first (the selects change only with it clear), counters kept: P, C 0 */
	xscale1_write_pmnc(xs1_pmnc_keep(xscale1_read_pmnc(), 0) & ~APMU_XS_PMNC_E);
	xscale1_write_pmnc(APMU_XS1_PMNC_FLAG | APMU_XS1_PMNC_EVT0 | APMU_XS1_PMNC_EVT1);
}

static int xs_get_idx(unsigned long *used, struct perf_event *event, unsigned long *flags)
{
	struct apmu_xscale *xs = to_xscale(event->pmu);
	unsigned int n;

	*flags = 0;	/* every counter is 32-bit */
	if (event->hw.config_base == APMU_XS_EVT_CCNT)
		return __test_and_set_bit(APMU_XS_IDX_CCNT, used) ? -EAGAIN : APMU_XS_IDX_CCNT;
	for (n = 0; n < xs->nr_pmn; n++)
		if (!__test_and_set_bit(APMU_XS_IDX_PMN(n), used))
			return APMU_XS_IDX_PMN(n);
	return -EAGAIN;
}

static void xs_put_idx(unsigned long *used, struct perf_event *event)
{
	__clear_bit(event->hw.idx, used);
}

static u64 xs_read_counter(struct perf_event *event)
{
	struct apmu_xscale *xs = to_xscale(event->pmu);
	int idx = event->hw.idx;

	if (idx == APMU_XS_IDX_CCNT)
		return xs->v2 ? xscale2_read_ccnt() : xscale1_read_ccnt();
	return xs->v2 ? xscale2_read_pmn(idx - 1) : xscale1_read_pmn(idx - 1);
}

static void xs_write_counter(struct perf_event *event, u64 val)
{
	struct apmu_xscale *xs = to_xscale(event->pmu);
	int idx = event->hw.idx;

	if (idx == APMU_XS_IDX_CCNT) {
		if (xs->v2)
			xscale2_write_ccnt(val);
		else
			xscale1_write_ccnt(val);
	} else if (xs->v2) {
		xscale2_write_pmn(idx - 1, val);
	} else {
		xscale1_write_pmn(idx - 1, val);
	}
}

/* XScale2's EVTSEL with counter @idx's select (evtCount<n> in byte n) set to @evt */
static u32 xs2_evtsel(int idx, u8 evt)
{
	unsigned int shift = (idx - 1) * 8;

	return (xscale2_read_evtsel() & ~(0xffU << shift)) | (u32)evt << shift;
}

/* Program @event's counter with PMNC.E clear (the core's bracket): select, interrupt */
static void xs_enable(struct perf_event *event)
{
	struct apmu_xscale *xs = to_xscale(event->pmu);
	int idx = event->hw.idx;
	u8 evt = event->hw.config_base;
	u32 pmnc;

	bool irq = event->hw.flags & APMU_HWF_IRQ;

	if (xs->v2) {
		if (idx != APMU_XS_IDX_CCNT)
			xscale2_write_evtsel(xs2_evtsel(idx, evt));
		/*
		 * CCNT counts whenever PMNC.E is set, held or not: a wrap while no event
		 * held it left its flag set, which would interrupt at once.
		 */
		else if (irq)
			xscale2_write_flag(BIT(idx));
		if (irq)
			xscale2_write_inten(xscale2_read_inten() | BIT(idx));
		return;
	}
	/* the same stale CCNT flag, cleared in the same write */
	pmnc = xs1_pmnc_keep(xscale1_read_pmnc(), idx == APMU_XS_IDX_CCNT ? BIT(idx) : 0);
	if (idx != APMU_XS_IDX_CCNT) {
		pmnc &= ~xs1_evt_field[idx - 1];
		pmnc |= (u32)evt << xs1_evt_shift[idx - 1];
	}
	if (irq)
		pmnc |= FIELD_PREP(APMU_XS1_PMNC_INTEN, xs1_field(BIT(idx)));
	xscale1_write_pmnc(pmnc);
}

/*
 * Idle @event's counter with PMNC.E clear: interrupt off, its flag cleared (a stale
 * overflow must not interrupt the next user), select 0xFF (the manual's power saving).
 */
static void xs_disable(struct perf_event *event)
{
	struct apmu_xscale *xs = to_xscale(event->pmu);
	int idx = event->hw.idx;
	u32 pmnc;

	if (xs->v2) {
		xscale2_write_inten(xscale2_read_inten() & ~BIT(idx));
		xscale2_write_flag(BIT(idx));
		if (idx != APMU_XS_IDX_CCNT)
			xscale2_write_evtsel(xs2_evtsel(idx, APMU_XS_EVT_UNUSED));
		return;
	}
	pmnc = xs1_pmnc_keep(xscale1_read_pmnc(), BIT(idx));
	pmnc &= ~FIELD_PREP(APMU_XS1_PMNC_INTEN, xs1_field(BIT(idx)));
	if (idx != APMU_XS_IDX_CCNT)
		pmnc |= xs1_evt_field[idx - 1];
	xscale1_write_pmnc(pmnc);
}

/*
 * PMNC.E on. The core calls this only while some counter runs (.start_when_running), so
 * PMNC.E is clear while none does: "When the performance monitor is not used at all
 * (PMNC.E = 0x0), hardware ensures minimal power consumption" (manual 3.7.3).
 */
static void xs_start(struct apmu_pmu *pmu)
{
	struct apmu_xscale *xs = container_of(pmu, struct apmu_xscale, pmu);

	if (xs->v2)
		xscale2_write_pmnc(APMU_XS_PMNC_E);
	else
		xscale1_write_pmnc(xs1_pmnc_keep(xscale1_read_pmnc(), 0) | APMU_XS_PMNC_E);
}

/* PMNC.E off: every counter stops (the selects may change after it) */
static void xs_stop(struct apmu_pmu *pmu)
{
	struct apmu_xscale *xs = container_of(pmu, struct apmu_xscale, pmu);

	if (xs->v2)
		xscale2_write_pmnc(0);
	else
		xscale1_write_pmnc(xs1_pmnc_keep(xscale1_read_pmnc(), 0) & ~APMU_XS_PMNC_E);
}

/*
 * Read and clear the overflow flags: each is written back as 1, which is what deasserts
 * the interrupt request (PMNC.E does not). Flags of counters no event holds are cleared
 * too (CCNT counts while PMNC.E is set, in use or not). When one of ours was set, every
 * counter stops (xs_stop()) for the handler.
 */
static unsigned long xs_take_overflows(struct apmu_pmu *pmu, const unsigned long *used)
{
	struct apmu_xscale *xs = container_of(pmu, struct apmu_xscale, pmu);
	unsigned long ovs;
	u32 pmnc;

	if (xs->v2) {
		ovs = xscale2_read_flag() & APMU_XS2_CNT_MASK;
		if (ovs)
			xscale2_write_flag(ovs);
	} else {
		pmnc = xscale1_read_pmnc();
		ovs = xs1_idx_bits(FIELD_GET(APMU_XS1_PMNC_FLAG, pmnc));
		if (ovs)
			xscale1_write_pmnc(xs1_pmnc_keep(pmnc, ovs));
	}
	ovs &= *used;
	if (ovs)
		xs_stop(pmu);
	return ovs;
}

const struct apmu_pmu_ops APMU_XSCALE_OPS = {
	.probe		= xs_probe,
	.map_event	= apmu_xscale_map_event,
	/* no set_filter: XScale counts every mode alike (PERF_PMU_CAP_NO_EXCLUDE) */
	.get_idx	= xs_get_idx,
	.put_idx	= xs_put_idx,
	.read_counter	= xs_read_counter,
	.write_counter	= xs_write_counter,
	.enable		= xs_enable,
	.disable	= xs_disable,
	.start		= xs_start,
	.stop		= xs_stop,
	.take_overflows	= xs_take_overflows,
	.reset		= xs_reset,
	.quiesce	= xs_quiesce,
	/* CCNT has no enable of its own: PMNC.E runs it, held or not */
	.start_when_running = true,
};
