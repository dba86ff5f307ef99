// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: a perf_event_attr to a PMUv3 PMEVTYPER value. Generic hardware and cache events
 * use the in-tree armv8_pmuv3 mappings, and are offered only when PMCEID0/1 say the CPU
 * implements the event: a generic event that would silently count zero is reported as
 * unsupported (-ENOENT) instead. The config words are decoded by their format/ fields
 * (pmuv3.h).
 */
#include <linux/bitfield.h>
#include <linux/perf_event.h>
#include <kunit/visibility.h>
#include <asm/virt.h>

#include "pmuv3.h"

/* every config1 bit some format/ field declares */
#define APMU_CONFIG1_FIELDS	(APMU_FLD_MASK(rdpmc) | APMU_FLD_MASK(threshold_count) |	\
				 APMU_FLD_MASK(threshold_compare) | APMU_FLD_MASK(threshold) |	\
				 APMU_FLD_MASK(long))

static const u16 apmu_hw_map[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
	[PERF_COUNT_HW_INSTRUCTIONS]		= ARMV8_PMUV3_PERFCTR_INST_RETIRED,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= ARMV8_PMUV3_PERFCTR_L1D_CACHE,
	[PERF_COUNT_HW_CACHE_MISSES]		= ARMV8_PMUV3_PERFCTR_L1D_CACHE_REFILL,
	[PERF_COUNT_HW_BRANCH_MISSES]		= ARMV8_PMUV3_PERFCTR_BR_MIS_PRED,
	[PERF_COUNT_HW_BUS_CYCLES]		= ARMV8_PMUV3_PERFCTR_BUS_CYCLES,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= ARMV8_PMUV3_PERFCTR_STALL_FRONTEND,
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= ARMV8_PMUV3_PERFCTR_STALL_BACKEND,
};

/* C(): <linux/perf/arm_pmu.h>'s PERF_COUNT_HW_CACHE_ shorthand */
static const u16 apmu_cache_map[PERF_COUNT_HW_CACHE_MAX][PERF_COUNT_HW_CACHE_OP_MAX]
			       [PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	[C(L1D)][C(OP_READ)][C(RESULT_ACCESS)]	= ARMV8_PMUV3_PERFCTR_L1D_CACHE,
	[C(L1D)][C(OP_READ)][C(RESULT_MISS)]	= ARMV8_PMUV3_PERFCTR_L1D_CACHE_REFILL,
	[C(L1I)][C(OP_READ)][C(RESULT_ACCESS)]	= ARMV8_PMUV3_PERFCTR_L1I_CACHE,
	[C(L1I)][C(OP_READ)][C(RESULT_MISS)]	= ARMV8_PMUV3_PERFCTR_L1I_CACHE_REFILL,
	[C(DTLB)][C(OP_READ)][C(RESULT_ACCESS)]	= ARMV8_PMUV3_PERFCTR_L1D_TLB,
	[C(DTLB)][C(OP_READ)][C(RESULT_MISS)]	= ARMV8_PMUV3_PERFCTR_L1D_TLB_REFILL,
	[C(ITLB)][C(OP_READ)][C(RESULT_ACCESS)]	= ARMV8_PMUV3_PERFCTR_L1I_TLB,
	[C(ITLB)][C(OP_READ)][C(RESULT_MISS)]	= ARMV8_PMUV3_PERFCTR_L1I_TLB_REFILL,
	[C(LL)][C(OP_READ)][C(RESULT_ACCESS)]	= ARMV8_PMUV3_PERFCTR_LL_CACHE_RD,
	[C(LL)][C(OP_READ)][C(RESULT_MISS)]	= ARMV8_PMUV3_PERFCTR_LL_CACHE_MISS_RD,
	[C(BPU)][C(OP_READ)][C(RESULT_ACCESS)]	= ARMV8_PMUV3_PERFCTR_BR_PRED,
	[C(BPU)][C(OP_READ)][C(RESULT_MISS)]	= ARMV8_PMUV3_PERFCTR_BR_MIS_PRED,
};

/**
 * apmu_pmuv3_event_implemented() - does PMCEID0/1 say the CPU implements @evnum?
 * @pv: instance
 * @evnum: a common event number (0x0-0x3f or 0x4000-0x403f)
 *
 * Return: true if the event's PMCEID bit is set.
 */
bool apmu_pmuv3_event_implemented(struct apmu_pmuv3 *pv, u16 evnum)
{
	const unsigned int ext = ARMV8_PMUV3_EXT_COMMON_EVENT_BASE;

	if (evnum < ARMV8_PMUV3_MAX_COMMON_EVENTS)
		return test_bit(evnum, pv->pmceid);
	if (evnum >= ext && evnum < ext + ARMV8_PMUV3_MAX_COMMON_EVENTS)
		return test_bit(ARMV8_PMUV3_MAX_COMMON_EVENTS + evnum - ext, pv->pmceid);
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_event_implemented);

static int apmu_map_generic(struct apmu_pmuv3 *pv, u16 evnum, const char *what, u64 config)
{
	struct apmu_pmu *pmu = &pv->pmu;

	if (!evnum) {
		dev_dbg(pmu->dev, "%s 0x%llx has no PMUv3 mapping\n", what, config);
		return -ENOENT;
	}
	if (!apmu_pmuv3_event_implemented(pv, evnum)) {
		dev_dbg(pmu->dev, "%s 0x%llx maps to event 0x%04x, not in PMCEID\n",
			what, config, evnum);
		return -ENOENT;
	}
	return evnum;
}

/*
 * A cache event: the common event where PMCEID says it is implemented, else the core's own
 * (implementation defined) event from its device tree entry's map, which PMCEID cannot
 * describe and the core's TRM vouches for, as in-tree (__armv8_pmuv3_map_event()).
 */
static int apmu_map_cache(struct apmu_pmuv3 *pv, unsigned int type, unsigned int op,
			  unsigned int result, u64 cfg)
{
	u16 common = apmu_cache_map[type][op][result];
	u16 own = pv->model && pv->model->cache_map ? pv->model->cache_map[type][op][result] : 0;

	/* common 0: no common event at all (0 is SW_INCR, which PMCEID always has) */
	if (own && (!common || !apmu_pmuv3_event_implemented(pv, common))) {
		dev_dbg(pv->pmu.dev, "cache event 0x%llx: the core's own event 0x%04x\n", cfg, own);
		return own;
	}
	return apmu_map_generic(pv, common, "cache event", cfg);
}

/*
 * branches: BR_RETIRED (0x21) where implemented, else PC_WRITE_RETIRED (0x0c), which
 * counts the same architecturally executed branches on cores without BR_RETIRED (the
 * Cortex-A53), as in-tree (__armv8_pmuv3_map_event_id()).
 */
static int apmu_map_branches(struct apmu_pmuv3 *pv)
{
	if (apmu_pmuv3_event_implemented(pv, ARMV8_PMUV3_PERFCTR_BR_RETIRED))
		return ARMV8_PMUV3_PERFCTR_BR_RETIRED;
	if (apmu_pmuv3_event_implemented(pv, ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED))
		return ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED;
	dev_dbg(pv->pmu.dev, "branches: neither BR_RETIRED nor PC_WRITE_RETIRED in PMCEID\n");
	return -ENOENT;
}

/* The event number type/config ask for, before the other config words are checked */
static int apmu_map_config(struct apmu_pmuv3 *pv, struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	struct apmu_pmu *pmu = &pv->pmu;
	u64 cfg = attr->config;
	unsigned int type, op, result;

	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		/* out of range is a bad config (-EINVAL, as in-tree and x86 answer) */
		if (cfg >= PERF_COUNT_HW_MAX) {
			dev_dbg(pmu->dev, "hardware event 0x%llx beyond PERF_COUNT_HW_MAX\n", cfg);
			return -EINVAL;
		}
		if (cfg == PERF_COUNT_HW_BRANCH_INSTRUCTIONS)
			return apmu_map_branches(pv);
		return apmu_map_generic(pv, apmu_hw_map[cfg], "hardware event", cfg);
	case PERF_TYPE_HW_CACHE:
		type = cfg & 0xff;
		op = (cfg >> 8) & 0xff;
		result = (cfg >> 16) & 0xff;
		if ((cfg >> 24) || type >= PERF_COUNT_HW_CACHE_MAX ||
		    op >= PERF_COUNT_HW_CACHE_OP_MAX || result >= PERF_COUNT_HW_CACHE_RESULT_MAX) {
			dev_dbg(pmu->dev, "cache event 0x%llx: a field is out of range\n", cfg);
			return -EINVAL;
		}
		return apmu_map_cache(pv, type, op, result, cfg);
	case PERF_TYPE_RAW:
		break;
	default:
		if (attr->type != event->pmu->type)
			return -ENOENT;
		break;
	}

	if (cfg & ~APMU_FLD_MASK(event)) {
		dev_dbg(pmu->dev, "config 0x%llx sets bits outside the event field\n", cfg);
		return -EINVAL;
	}
	return ATTR_CFG_GET_FLD(attr, event);
}

/**
 * apmu_pmuv3_map_event() - the PMUv3 event number an attribute asks for
 * @event: the event being initialised
 *
 * PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE arrive here both when perf core offers them to
 * every PMU and through the extended type (config[63:32] = our type), which perf core has
 * already stripped from config.
 * Return: the event number; -ENOENT when the type is not ours or a valid generic event
 * has no mapping here; -EINVAL for a generic config out of range, config bits outside
 * the event field, config1 bits outside its fields, any config2 or config3 bit, or
 * CHAIN.
 */
int apmu_pmuv3_map_event(struct perf_event *event)
{
	struct apmu_pmuv3 *pv = to_pmuv3(event->pmu);
	struct perf_event_attr *attr = &event->attr;
	struct device *dev = pv->pmu.dev;
	int evnum;

	evnum = apmu_map_config(pv, event);
	if (evnum < 0)
		return evnum;
	if (attr->config1 & ~APMU_CONFIG1_FIELDS) {
		dev_dbg(dev, "config1 0x%llx sets bits outside the format/ fields\n",
			attr->config1);
		return -EINVAL;
	}
	if (attr->config2) {
		dev_dbg(dev, "config2 0x%llx: no config2 field exists\n", attr->config2);
		return -EINVAL;
	}
	if (apmu_compat_config3(attr)) {
		dev_dbg(dev, "config3 0x%llx: no config3 field exists\n",
			apmu_compat_config3(attr));
		return -EINVAL;
	}
	if (evnum == ARMV8_PMUV3_PERFCTR_CHAIN) {
		dev_dbg(dev, "CHAIN only counts as the odd half of a pair\n");
		return -EINVAL;
	}
	return evnum;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_map_event);

/*
 * Map the perf exclusion flags to PMEVTYPER/PMCCFILTR filter bits: U (EL0), P (EL1) and
 * NSH (EL2). Which EL the kernel runs at decides what "kernel" and "hypervisor" mean:
 *  - VHE (kernel at EL2): we are the hypervisor, exclude_hv has nothing to act on; the
 *    host kernel is EL2 (NSH), guests' kernels are EL1 (P);
 *  - kernel at EL1: EL2, if implemented, is the hypervisor (NSH), as in-tree.
 *
 * The filters see only the Exception level, not whose code runs there. Telling a guest
 * from the host needs KVM to switch the filters at every guest entry and exit
 * (kvm_set_pmu_events()), which modules cannot reach. So:
 *  - guest-only counting (exclude_host without exclude_guest) is refused;
 *  - excluding both host and guest leaves nothing: the counter is programmed to count at
 *    no Exception level (U and P set, NSH clear; NSU/NSK/M = 0 differ from U/P, so
 *    Non-secure EL0/EL1 and EL3 are excluded too), so it reads 0, as in-tree;
 *  - exclude_guest (perf's default) excludes a guest's EL1 under VHE and nothing else:
 *    a guest's EL0 counts as user time, and without VHE all guest time counts as host
 *    time. Without EL2 (is_hyp_mode_available() false) no guest can run and every flag
 *    is exact.
 */
static int apmu_event_filter(struct apmu_pmuv3 *pv, struct perf_event *event, u64 *filt)
{
	struct perf_event_attr *attr = &event->attr;
	u64 f = 0;

	if (attr->exclude_idle) {
		dev_dbg(pv->pmu.dev, "exclude_idle: the PMU cannot tell idle from busy\n");
		return -EOPNOTSUPP;
	}
	if (attr->exclude_host && !attr->exclude_guest) {
		dev_dbg(pv->pmu.dev, "guest-only counting needs KVM's filter switching\n");
		return -EOPNOTSUPP;
	}
	if (attr->exclude_host) {
		*filt = ARMV8_PMU_EXCLUDE_EL0 | ARMV8_PMU_EXCLUDE_EL1;
		return 0;
	}

	if (attr->exclude_user)
		f |= ARMV8_PMU_EXCLUDE_EL0;
	if (attr->exclude_kernel)
		f |= ARMV8_PMU_EXCLUDE_EL1;

	if (is_kernel_in_hyp_mode()) {
		/* host kernel at EL2; guests' kernels at EL1 */
		if (!attr->exclude_kernel)
			f |= ARMV8_PMU_INCLUDE_EL2;
		if (attr->exclude_guest)
			f |= ARMV8_PMU_EXCLUDE_EL1;
	} else if (!attr->exclude_hv) {
		/* EL2 is the hypervisor; NSH is RES0 where EL2 is not implemented */
		f |= ARMV8_PMU_INCLUDE_EL2;
	}

	*filt = f;
	return 0;
}

/* Threshold counting (FEAT_PMUv3_TH): PMEVTYPER.TH and .TC from the config1 fields. */
static int apmu_event_threshold(struct apmu_pmuv3 *pv, struct perf_event *event, u64 *th)
{
	struct perf_event_attr *attr = &event->attr;
	u32 threshold = ATTR_CFG_GET_FLD(attr, threshold);
	u32 control = ATTR_CFG_GET_FLD(attr, threshold_compare) << 1 |
		      ATTR_CFG_GET_FLD(attr, threshold_count);

	*th = 0;
	if (!threshold && !control)
		return 0;
	if (!apmu_threshold_max(pv)) {
		dev_dbg(pv->pmu.dev, "threshold fields set but PMMIR_EL1.THWIDTH is 0\n");
		return -EINVAL;
	}
	if (!threshold) {
		dev_dbg(pv->pmu.dev, "threshold_compare/threshold_count need a threshold\n");
		return -EINVAL;
	}
	if (threshold > apmu_threshold_max(pv)) {
		dev_dbg(pv->pmu.dev, "threshold %u above threshold_max %u\n", threshold,
			apmu_threshold_max(pv));
		return -EINVAL;
	}
	*th = FIELD_PREP(APMU_EVTYPE_TH, threshold) | FIELD_PREP(APMU_EVTYPE_TC, control);
	return 0;
}

/**
 * apmu_pmuv3_set_filter() - the rest of PMEVTYPER, and EL0 reads
 * @event: the event being initialised; hw.config_base holds its event number
 *
 * Adds the exclusion filters and the threshold fields to hw.config_base, and flags an
 * rdpmc event PERF_EVENT_FLAG_USER_READ_CNT. Whether EL0 reads are offered at all, and
 * only to task events, is the core's decision (apmu_event_init()). A CHAIN pair (two
 * reads that can tear) cannot serve rdpmc; the cycle counter and long event counters can.
 * Return: 0, or the errno of what cannot be honoured.
 */
int apmu_pmuv3_set_filter(struct perf_event *event)
{
	struct apmu_pmuv3 *pv = to_pmuv3(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	u64 filt, th;
	int ret;

	ret = apmu_event_filter(pv, event, &filt);
	if (ret)
		return ret;
	ret = apmu_event_threshold(pv, event, &th);
	if (ret)
		return ret;
	hwc->config_base |= filt | th;

	if (!ATTR_CFG_GET_FLD(&event->attr, rdpmc))
		return 0;
	/*
	 * A 64-bit count on 32-bit event counters: only CPU_CYCLES without a threshold, and
	 * only where it may use the 64-bit PMCCNTR (pmccntr_ok). Task events only: the
	 * core's -EINVAL for a CPU-wide rdpmc event comes first.
	 */
	if ((event->attach_state & PERF_ATTACH_TASK) && apmu_wants_chain(pv, event) &&
	    ((hwc->config_base & ARMV8_PMU_EVTYPE_EVENT) != ARMV8_PMUV3_PERFCTR_CPU_CYCLES ||
	     th || !pv->pmccntr_ok)) {
		dev_dbg(pv->pmu.dev, "rdpmc of a 64-bit count needs 64-bit counters\n");
		return -EOPNOTSUPP;
	}
	hwc->flags |= PERF_EVENT_FLAG_USER_READ_CNT;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_set_filter);

