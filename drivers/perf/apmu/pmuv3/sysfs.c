// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: a PMUv3 PMU's sysfs attributes in /sys/bus/event_source/devices/<pmu>/, besides
 * the core's cpus: format/ (the fields of pmuv3.h, in the in-tree armv8_pmuv3 names and
 * positions, so existing perf command lines carry over), events/ (the in-tree names,
 * shown only when PMCEID0/1 say they are implemented) and caps/.
 */
#include <linux/device.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>

#include "pmuv3.h"

GEN_PMU_FORMAT_ATTR(event);
GEN_PMU_FORMAT_ATTR(long);
GEN_PMU_FORMAT_ATTR(rdpmc);
GEN_PMU_FORMAT_ATTR(threshold_count);
GEN_PMU_FORMAT_ATTR(threshold_compare);
GEN_PMU_FORMAT_ATTR(threshold);

static struct attribute *apmu_format_attrs[] = {
	&format_attr_event.attr,
	&format_attr_long.attr,
	&format_attr_rdpmc.attr,
	&format_attr_threshold_count.attr,
	&format_attr_threshold_compare.attr,
	&format_attr_threshold.attr,
	NULL,
};

/*
 * Every field is listed, the threshold ones too where PMMIR_EL1.THWIDTH is 0 (no
 * FEAT_PMUv3_TH), as in-tree: a threshold= term then reaches perf_event_open() and is
 * refused there with EINVAL (caps/threshold_max says 0), not by perf's parser.
 */
static const struct attribute_group apmu_format_group = {
	.name = "format",
	.attrs = apmu_format_attrs,
};

/* caps/: what this PMU has, for tools and people (the first four as in-tree) */
#define APMU_CAP_ATTR(_name, _fmt, _expr)					\
static ssize_t _name##_show(struct device *dev, struct device_attribute *attr,	\
			    char *buf)						\
{										\
	struct apmu_pmuv3 *pv = to_pmuv3(dev_get_drvdata(dev));			\
										\
	return sysfs_emit(buf, _fmt "\n", _expr);				\
}										\
static DEVICE_ATTR_RO(_name)

static u32 apmu_bus_width(struct apmu_pmuv3 *pv)
{
	u32 w = FIELD_GET(APMU_PMMIR_BUS_WIDTH, pv->pmmir);

	/* Encoded as log2(bytes) + 1; values below 3 or above 12 are reserved */
	return w > 2 && w < 13 ? 1U << (w - 1) : 0;
}

APMU_CAP_ATTR(slots, "0x%08lx", FIELD_GET(APMU_PMMIR_SLOTS, pv->pmmir));
APMU_CAP_ATTR(bus_slots, "0x%08lx", FIELD_GET(APMU_PMMIR_BUS_SLOTS, pv->pmmir));
APMU_CAP_ATTR(bus_width, "0x%08x", apmu_bus_width(pv));
APMU_CAP_ATTR(threshold_max, "0x%08x", apmu_threshold_max(pv));
APMU_CAP_ATTR(counters, "%u", pv->pmu.num_counters);
APMU_CAP_ATTR(pmu_version, "0x%x", pv->pmuver);
APMU_CAP_ATTR(instruction_counter, "%d", pv->has_icntr);
APMU_CAP_ATTR(long_counters, "%d", pv->long_evcnt);

static struct attribute *apmu_caps_attrs[] = {
	&dev_attr_slots.attr,
	&dev_attr_bus_slots.attr,
	&dev_attr_bus_width.attr,
	&dev_attr_threshold_max.attr,
	&dev_attr_counters.attr,
	&dev_attr_pmu_version.attr,
	&dev_attr_instruction_counter.attr,
	&dev_attr_long_counters.attr,
	NULL,
};

static const struct attribute_group apmu_caps_group = {
	.name = "caps",
	.attrs = apmu_caps_attrs,
};

static ssize_t apmu_event_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct perf_pmu_events_attr *ev = container_of(attr, struct perf_pmu_events_attr, attr);

	return sysfs_emit(buf, "event=0x%04llx\n", ev->id);
}

#define APMU_EVENT_ATTR(_name, _id)					\
	PMU_EVENT_ATTR_ID(_name, apmu_event_show, _id)

static struct attribute *apmu_event_attrs[] = {
	APMU_EVENT_ATTR(sw_incr, 0x0000),
	APMU_EVENT_ATTR(l1i_cache_refill, 0x0001),
	APMU_EVENT_ATTR(l1i_tlb_refill, 0x0002),
	APMU_EVENT_ATTR(l1d_cache_refill, 0x0003),
	APMU_EVENT_ATTR(l1d_cache, 0x0004),
	APMU_EVENT_ATTR(l1d_tlb_refill, 0x0005),
	APMU_EVENT_ATTR(ld_retired, 0x0006),
	APMU_EVENT_ATTR(st_retired, 0x0007),
	APMU_EVENT_ATTR(inst_retired, 0x0008),
	APMU_EVENT_ATTR(exc_taken, 0x0009),
	APMU_EVENT_ATTR(exc_return, 0x000a),
	APMU_EVENT_ATTR(cid_write_retired, 0x000b),
	APMU_EVENT_ATTR(pc_write_retired, 0x000c),
	APMU_EVENT_ATTR(br_immed_retired, 0x000d),
	APMU_EVENT_ATTR(br_return_retired, 0x000e),
	APMU_EVENT_ATTR(unaligned_ldst_retired, 0x000f),
	APMU_EVENT_ATTR(br_mis_pred, 0x0010),
	APMU_EVENT_ATTR(cpu_cycles, 0x0011),
	APMU_EVENT_ATTR(br_pred, 0x0012),
	APMU_EVENT_ATTR(mem_access, 0x0013),
	APMU_EVENT_ATTR(l1i_cache, 0x0014),
	APMU_EVENT_ATTR(l1d_cache_wb, 0x0015),
	APMU_EVENT_ATTR(l2d_cache, 0x0016),
	APMU_EVENT_ATTR(l2d_cache_refill, 0x0017),
	APMU_EVENT_ATTR(l2d_cache_wb, 0x0018),
	APMU_EVENT_ATTR(bus_access, 0x0019),
	APMU_EVENT_ATTR(memory_error, 0x001a),
	APMU_EVENT_ATTR(inst_spec, 0x001b),
	APMU_EVENT_ATTR(ttbr_write_retired, 0x001c),
	APMU_EVENT_ATTR(bus_cycles, 0x001d),
	APMU_EVENT_ATTR(l1d_cache_allocate, 0x001f),
	APMU_EVENT_ATTR(l2d_cache_allocate, 0x0020),
	APMU_EVENT_ATTR(br_retired, 0x0021),
	APMU_EVENT_ATTR(br_mis_pred_retired, 0x0022),
	APMU_EVENT_ATTR(stall_frontend, 0x0023),
	APMU_EVENT_ATTR(stall_backend, 0x0024),
	APMU_EVENT_ATTR(l1d_tlb, 0x0025),
	APMU_EVENT_ATTR(l1i_tlb, 0x0026),
	APMU_EVENT_ATTR(l2i_cache, 0x0027),
	APMU_EVENT_ATTR(l2i_cache_refill, 0x0028),
	APMU_EVENT_ATTR(l3d_cache_allocate, 0x0029),
	APMU_EVENT_ATTR(l3d_cache_refill, 0x002a),
	APMU_EVENT_ATTR(l3d_cache, 0x002b),
	APMU_EVENT_ATTR(l3d_cache_wb, 0x002c),
	APMU_EVENT_ATTR(l2d_tlb_refill, 0x002d),
	APMU_EVENT_ATTR(l2i_tlb_refill, 0x002e),
	APMU_EVENT_ATTR(l2d_tlb, 0x002f),
	APMU_EVENT_ATTR(l2i_tlb, 0x0030),
	APMU_EVENT_ATTR(remote_access, 0x0031),
	APMU_EVENT_ATTR(ll_cache, 0x0032),
	APMU_EVENT_ATTR(ll_cache_miss, 0x0033),
	APMU_EVENT_ATTR(dtlb_walk, 0x0034),
	APMU_EVENT_ATTR(itlb_walk, 0x0035),
	APMU_EVENT_ATTR(ll_cache_rd, 0x0036),
	APMU_EVENT_ATTR(ll_cache_miss_rd, 0x0037),
	APMU_EVENT_ATTR(remote_access_rd, 0x0038),
	APMU_EVENT_ATTR(l1d_cache_lmiss_rd, 0x0039),
	APMU_EVENT_ATTR(op_retired, 0x003a),
	APMU_EVENT_ATTR(op_spec, 0x003b),
	APMU_EVENT_ATTR(stall, 0x003c),
	APMU_EVENT_ATTR(stall_slot_backend, 0x003d),
	APMU_EVENT_ATTR(stall_slot_frontend, 0x003e),
	APMU_EVENT_ATTR(stall_slot, 0x003f),
	APMU_EVENT_ATTR(sample_pop, 0x4000),
	APMU_EVENT_ATTR(sample_feed, 0x4001),
	APMU_EVENT_ATTR(sample_filtrate, 0x4002),
	APMU_EVENT_ATTR(sample_collision, 0x4003),
	APMU_EVENT_ATTR(cnt_cycles, 0x4004),
	APMU_EVENT_ATTR(stall_backend_mem, 0x4005),
	APMU_EVENT_ATTR(l1i_cache_lmiss, 0x4006),
	APMU_EVENT_ATTR(l2d_cache_lmiss_rd, 0x4009),
	APMU_EVENT_ATTR(l2i_cache_lmiss, 0x400a),
	APMU_EVENT_ATTR(l3d_cache_lmiss_rd, 0x400b),
	APMU_EVENT_ATTR(trb_wrap, 0x400c),
	APMU_EVENT_ATTR(trb_trig, 0x400e),
	APMU_EVENT_ATTR(trcextout0, 0x4010),
	APMU_EVENT_ATTR(trcextout1, 0x4011),
	APMU_EVENT_ATTR(trcextout2, 0x4012),
	APMU_EVENT_ATTR(trcextout3, 0x4013),
	APMU_EVENT_ATTR(cti_trigout4, 0x4018),
	APMU_EVENT_ATTR(cti_trigout5, 0x4019),
	APMU_EVENT_ATTR(cti_trigout6, 0x401a),
	APMU_EVENT_ATTR(cti_trigout7, 0x401b),
	APMU_EVENT_ATTR(ldst_align_lat, 0x4020),
	APMU_EVENT_ATTR(ld_align_lat, 0x4021),
	APMU_EVENT_ATTR(st_align_lat, 0x4022),
	APMU_EVENT_ATTR(mem_access_checked, 0x4024),
	APMU_EVENT_ATTR(mem_access_checked_rd, 0x4025),
	APMU_EVENT_ATTR(mem_access_checked_wr, 0x4026),
	NULL,
};

/*
 * An event is listed only if PMCEID0/1 say this PMU implements it. Never sw_incr, as
 * in-tree: it counts writes to PMSWINC_EL0, which EL0 cannot make (PMUSERENR_EL0.SW and
 * EN are 0), and with events rotated among counters no write could name its counter
 * anyway. The raw event 0x00 still opens.
 */
static umode_t apmu_event_visible(struct kobject *kobj, struct attribute *attr, int unused)
{
	struct apmu_pmuv3 *pv = to_pmuv3(dev_get_drvdata(kobj_to_dev(kobj)));
	struct perf_pmu_events_attr *ev =
		container_of(attr, struct perf_pmu_events_attr, attr.attr);

	if (ev->id == ARMV8_PMUV3_PERFCTR_SW_INCR)
		return 0;
	return apmu_pmuv3_event_implemented(pv, ev->id) ? attr->mode : 0;
}

static const struct attribute_group apmu_events_group = {
	.name = "events",
	.attrs = apmu_event_attrs,
	.is_visible = apmu_event_visible,
};

const struct attribute_group *apmu_pmuv3_attr_groups[] = {
	&apmu_cpus_group,
	&apmu_format_group,
	&apmu_events_group,
	&apmu_caps_group,
	NULL,
};
