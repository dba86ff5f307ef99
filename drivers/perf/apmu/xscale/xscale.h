/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: the Intel XScale performance monitor backend (CP14): XScale1 (PXA25x; two event
 * counters, everything in PMNC) and XScale2 (PXA27x, IXP42x; four event counters with
 * INTEN, FLAG and EVTSEL of their own), after the IXP42X/IXC1100 developer's manual,
 * section 3.7.3.
 */
#ifndef __APMU_XSCALE_H
#define __APMU_XSCALE_H

#include <linux/bits.h>

#include "../apmu.h"
#include "../compat.h"

/*
 * Counter indexes are XScale2's INTEN/FLAG bit numbers: CCNT 0, PMN<n> n + 1. XScale1
 * keeps the same indexes (its PMNC bits are translated at the register).
 */
#define APMU_XS_IDX_CCNT	0
#define APMU_XS_IDX_PMN(n)	((n) + 1)
#define APMU_XS1_NR_IDX		3
#define APMU_XS2_NR_IDX		5

/* Event numbers (the in-tree arm_xscale_pmu.c enum xscale_perf_types) */
#define APMU_XS_EVT_ICACHE_MISS			0x00
#define APMU_XS_EVT_ICACHE_NO_DELIVER		0x01
#define APMU_XS_EVT_DATA_STALL			0x02
#define APMU_XS_EVT_ITLB_MISS			0x03
#define APMU_XS_EVT_DTLB_MISS			0x04
#define APMU_XS_EVT_BRANCH			0x05
#define APMU_XS_EVT_BRANCH_MISS			0x06
#define APMU_XS_EVT_INSTRUCTION			0x07
#define APMU_XS_EVT_DCACHE_FULL_STALL		0x08
#define APMU_XS_EVT_DCACHE_FULL_STALL_CONTIG	0x09
#define APMU_XS_EVT_DCACHE_ACCESS		0x0a
#define APMU_XS_EVT_DCACHE_MISS			0x0b
#define APMU_XS_EVT_DCACHE_WRITE_BACK		0x0c
#define APMU_XS_EVT_PC_CHANGED			0x0d
#define APMU_XS_EVT_BCU_REQUEST			0x10
#define APMU_XS_EVT_BCU_FULL			0x11
#define APMU_XS_EVT_BCU_DRAIN			0x12
#define APMU_XS_EVT_BCU_ECC_NO_ELOG		0x14
#define APMU_XS_EVT_BCU_1_BIT_ERR		0x15
#define APMU_XS_EVT_RMW				0x16
#define APMU_XS_EVT_CCNT			0xfe	/* not a select: the cycle counter */
#define APMU_XS_EVT_UNUSED			0xff	/* an idle counter's select */

/*
 * format/: the one field, declared once: GEN_PMU_FORMAT_ATTR() makes its sysfs file
 * (pmu.c), ATTR_CFG_GET_FLD() and APMU_FLD_MASK() decode the attribute (events.c).
 * An 8-bit event select (EVTSEL evtCount<n>, PMNC evtCount0/1), or APMU_XS_EVT_CCNT.
 */
#define ATTR_CFG_FLD_event_CFG		config
#define ATTR_CFG_FLD_event_LO		0
#define ATTR_CFG_FLD_event_HI		7

/*
 * PMNC (both layouts): E enables every counter, P and C zero the event counters and
 * CCNT when written 1 (they are "Read-unpredictable": a value read is never written back
 * with them set), D makes CCNT count once every 64 cycles (apmu leaves it 0).
 */
#define APMU_XS_PMNC_E		BIT(0)
#define APMU_XS_PMNC_P		BIT(1)
#define APMU_XS_PMNC_C		BIT(2)
/* XScale1's PMNC also holds the interrupt enables, flags and selects of PMN0, PMN1 */
#define APMU_XS1_PMNC_INTEN	GENMASK(6, 4)	/* PMN0, PMN1, CCNT */
#define APMU_XS1_PMNC_FLAG	GENMASK(10, 8)	/* the same order; write 1 to clear */
#define APMU_XS1_PMNC_EVT0	GENMASK(19, 12)
#define APMU_XS1_PMNC_EVT1	GENMASK(27, 20)
/* XScale2's INTEN and FLAG: one bit per counter index */
#define APMU_XS2_CNT_MASK	GENMASK(4, 0)

/**
 * struct apmu_xscale - an XScale PMU instance
 * @pmu: the core's instance; first, so an event's pmu is this structure
 * @v2: the XScale2 layout (else XScale1)
 * @nr_pmn: event counters: 2 (XScale1) or 4 (XScale2)
 */
struct apmu_xscale {
	struct apmu_pmu pmu;
	bool v2;
	unsigned int nr_pmn;
};

static inline struct apmu_xscale *to_xscale(struct pmu *pmu)
{
	return container_of(pmu, struct apmu_xscale, pmu.pmu);
}

/* xscale.c: the counters, over the CP14 accessors (compiled again in the KUnit module) */
extern const struct apmu_pmu_ops apmu_xscale_ops;
void apmu_xscale_setup(struct apmu_xscale *xs, bool v2, const struct apmu_pmu_ops *ops);

/* events.c: attribute to event select */
int apmu_xscale_map_event(struct perf_event *event);

#endif /* __APMU_XSCALE_H */
