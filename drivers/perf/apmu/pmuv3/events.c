// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: map perf_event_attr type/config to a PMUv3 event number. Generic hardware and
 * cache events use the in-tree armv8_pmuv3 mappings, and are offered only when PMCEID0/1
 * say the CPU implements the event: a generic event that would silently count zero is
 * reported as unsupported (-ENOENT) instead.
 */
#include <linux/perf_event.h>
#include <kunit/visibility.h>

#include "../apmu.h"

#define APMU_CFG_EVENT		GENMASK_ULL(15, 0)

static const u16 apmu_hw_map[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= 0x0011,	/* CPU_CYCLES */
	[PERF_COUNT_HW_INSTRUCTIONS]		= 0x0008,	/* INST_RETIRED */
	[PERF_COUNT_HW_CACHE_REFERENCES]	= 0x0004,	/* L1D_CACHE */
	[PERF_COUNT_HW_CACHE_MISSES]		= 0x0003,	/* L1D_CACHE_REFILL */
	[PERF_COUNT_HW_BRANCH_MISSES]		= 0x0010,	/* BR_MIS_PRED */
	[PERF_COUNT_HW_BUS_CYCLES]		= 0x001d,	/* BUS_CYCLES */
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= 0x0023,	/* STALL_FRONTEND */
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= 0x0024,	/* STALL_BACKEND */
};

#define C(x)	PERF_COUNT_HW_CACHE_##x

static const u16 apmu_cache_map[PERF_COUNT_HW_CACHE_MAX][PERF_COUNT_HW_CACHE_OP_MAX]
			       [PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	[C(L1D)][C(OP_READ)][C(RESULT_ACCESS)]	= 0x0004,	/* L1D_CACHE */
	[C(L1D)][C(OP_READ)][C(RESULT_MISS)]	= 0x0003,	/* L1D_CACHE_REFILL */
	[C(L1I)][C(OP_READ)][C(RESULT_ACCESS)]	= 0x0014,	/* L1I_CACHE */
	[C(L1I)][C(OP_READ)][C(RESULT_MISS)]	= 0x0001,	/* L1I_CACHE_REFILL */
	[C(DTLB)][C(OP_READ)][C(RESULT_ACCESS)]	= 0x0025,	/* L1D_TLB */
	[C(DTLB)][C(OP_READ)][C(RESULT_MISS)]	= 0x0005,	/* L1D_TLB_REFILL */
	[C(ITLB)][C(OP_READ)][C(RESULT_ACCESS)]	= 0x0026,	/* L1I_TLB */
	[C(ITLB)][C(OP_READ)][C(RESULT_MISS)]	= 0x0002,	/* L1I_TLB_REFILL */
	[C(LL)][C(OP_READ)][C(RESULT_ACCESS)]	= 0x0036,	/* LL_CACHE_RD */
	[C(LL)][C(OP_READ)][C(RESULT_MISS)]	= 0x0037,	/* LL_CACHE_MISS_RD */
	[C(BPU)][C(OP_READ)][C(RESULT_ACCESS)]	= 0x0012,	/* BR_PRED */
	[C(BPU)][C(OP_READ)][C(RESULT_MISS)]	= 0x0010,	/* BR_MIS_PRED */
};

#undef C

/**
 * apmu_event_implemented() - does PMCEID0/1 say the CPU implements @evnum?
 * @pmu: instance
 * @evnum: a common event number (0x0-0x3f or 0x4000-0x403f)
 *
 * Return: true if the event's PMCEID bit is set.
 */
bool apmu_event_implemented(struct apmu_pmu *pmu, u16 evnum)
{
	if (evnum < 0x40)
		return test_bit(evnum, pmu->pmceid);
	if (evnum >= 0x4000 && evnum < 0x4040)
		return test_bit(64 + evnum - 0x4000, pmu->pmceid);
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_event_implemented);

static int apmu_map_generic(struct apmu_pmu *pmu, u16 evnum, const char *what, u64 config)
{
	if (!evnum) {
		dev_dbg(pmu->dev, "%s 0x%llx has no PMUv3 mapping\n", what, config);
		return -ENOENT;
	}
	if (!apmu_event_implemented(pmu, evnum)) {
		dev_dbg(pmu->dev, "%s 0x%llx maps to event 0x%04x, not in PMCEID\n",
			what, config, evnum);
		return -ENOENT;
	}
	return evnum;
}

/**
 * apmu_map_event() - the PMUv3 event number an attribute asks for
 * @pmu: instance
 * @event: the event being initialised
 *
 * PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE arrive here both when perf core offers them to
 * every PMU and through the extended type (config[63:32] = our type), which perf core has
 * already stripped from config.
 * Return: the event number; -ENOENT when the type is not ours or a valid generic event
 * has no mapping here; -EINVAL for a generic config out of range or config bits outside
 * event=config:0-15.
 */
int apmu_map_event(struct apmu_pmu *pmu, struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	u64 cfg = attr->config;
	unsigned int type, op, result;

	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		/* out of range is a bad config (-EINVAL, as in-tree and x86 answer) */
		if (cfg >= PERF_COUNT_HW_MAX) {
			dev_dbg(pmu->dev, "hardware event 0x%llx beyond PERF_COUNT_HW_MAX\n", cfg);
			return -EINVAL;
		}
		return apmu_map_generic(pmu, apmu_hw_map[cfg], "hardware event", cfg);
	case PERF_TYPE_HW_CACHE:
		type = cfg & 0xff;
		op = (cfg >> 8) & 0xff;
		result = (cfg >> 16) & 0xff;
		if ((cfg >> 24) || type >= PERF_COUNT_HW_CACHE_MAX ||
		    op >= PERF_COUNT_HW_CACHE_OP_MAX || result >= PERF_COUNT_HW_CACHE_RESULT_MAX) {
			dev_dbg(pmu->dev, "cache event 0x%llx: a field is out of range\n", cfg);
			return -EINVAL;
		}
		return apmu_map_generic(pmu, apmu_cache_map[type][op][result], "cache event",
					cfg);
	case PERF_TYPE_RAW:
		break;
	default:
		if (attr->type != event->pmu->type)
			return -ENOENT;
		break;
	}

	if (cfg & ~APMU_CFG_EVENT) {
		dev_dbg(pmu->dev, "config 0x%llx sets bits outside event=config:0-15\n", cfg);
		return -EINVAL;
	}
	return cfg;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_map_event);
