// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: a perf_event_attr to an XScale event select. Generic hardware and cache events
 * use the in-tree arm_xscale_pmu.c mappings; raw events are config[7:0] (the format/
 * field "event"), 0xFE being the cycle counter CCNT as in-tree. The XScale counters
 * cannot tell user from kernel time: the backend has no set_filter(), so its PMU is
 * registered with PERF_PMU_CAP_NO_EXCLUDE and perf core refuses every exclude_* bit with
 * -EINVAL, as for the in-tree driver (perf's tools retry without exclude_guest).
 */
#include <linux/perf_event.h>
#include <linux/perf/arm_pmu.h>

#include "../compat.h"
#include "xscale.h"

#define APMU_XS_NONE	0x100	/* no mapping (0 is the event ICACHE_MISS) */

static const u16 xs_hw_map[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= APMU_XS_EVT_CCNT,
	[PERF_COUNT_HW_INSTRUCTIONS]		= APMU_XS_EVT_INSTRUCTION,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= APMU_XS_NONE,
	[PERF_COUNT_HW_CACHE_MISSES]		= APMU_XS_NONE,
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= APMU_XS_EVT_BRANCH,
	[PERF_COUNT_HW_BRANCH_MISSES]		= APMU_XS_EVT_BRANCH_MISS,
	[PERF_COUNT_HW_BUS_CYCLES]		= APMU_XS_NONE,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= APMU_XS_EVT_ICACHE_NO_DELIVER,
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= APMU_XS_NONE,
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= APMU_XS_NONE,
};

/* The cache events in-tree maps; every other combination is APMU_XS_NONE */
static int xs_cache_event(u64 config)
{
	unsigned int type = config & 0xff, op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;

	if (type >= PERF_COUNT_HW_CACHE_MAX || op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX || config >> 24)
		return -EINVAL;
	if (op == C(OP_PREFETCH))
		return APMU_XS_NONE;
	switch (type) {
	case C(L1D):
		return result == C(RESULT_ACCESS) ? APMU_XS_EVT_DCACHE_ACCESS :
						    APMU_XS_EVT_DCACHE_MISS;
	case C(L1I):
		return op == C(OP_READ) && result == C(RESULT_MISS) ?
		       APMU_XS_EVT_ICACHE_MISS : APMU_XS_NONE;
	case C(DTLB):
		return result == C(RESULT_MISS) ? APMU_XS_EVT_DTLB_MISS : APMU_XS_NONE;
	case C(ITLB):
		return result == C(RESULT_MISS) ? APMU_XS_EVT_ITLB_MISS : APMU_XS_NONE;
	default:
		return APMU_XS_NONE;
	}
}

/**
 * apmu_xscale_map_event() - the event select an attribute asks for
 * @event: the event being initialised
 *
 * Return: the event number (APMU_XS_EVT_CCNT for the cycle counter); -ENOENT for another
 * PMU's type or an event XScale lacks; -EINVAL for bits outside config[7:0], an
 * out-of-range generic config, or the idle select 0xFF.
 */
int apmu_xscale_map_event(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	u64 config = attr->config;
	int evt;

	if (attr->config1 || attr->config2 || apmu_compat_config3(attr)) {
		dev_dbg(pmu->dev, "config1/2/3 must be 0: XScale has no such fields\n");
		return -EINVAL;
	}
	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		config &= PERF_HW_EVENT_MASK;
		if (config >= PERF_COUNT_HW_MAX)
			return -EINVAL;
		evt = xs_hw_map[config];
		break;
	case PERF_TYPE_HW_CACHE:
		evt = xs_cache_event(config & PERF_HW_EVENT_MASK);
		if (evt < 0)
			return evt;
		break;
	case PERF_TYPE_RAW:
		goto raw;
	default:
		if (attr->type != event->pmu->type)
			return -ENOENT;
		goto raw;
	}
	if (evt == APMU_XS_NONE) {
		dev_dbg(pmu->dev, "event %#llx of type %u has no XScale mapping\n",
			attr->config, attr->type);
		return -ENOENT;
	}
	return evt;
raw:
	if (config & ~APMU_FLD_MASK(event) || config == APMU_XS_EVT_UNUSED) {
		dev_dbg(pmu->dev, "raw event %#llx: only the event field, not the idle select\n",
			config);
		return -EINVAL;
	}
	return ATTR_CFG_GET_FLD(attr, event);
}
