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

/* events/: the in-tree names, the event term as wide as the event field */
#define APMU_PMUV3_EVENT(_name, _id)	APMU_EVENT_ATTR(_name, _id, APMU_FLD_DIGITS(event))

static struct attribute *apmu_event_attrs[] = {
	APMU_PMUV3_EVENT(sw_incr, ARMV8_PMUV3_PERFCTR_SW_INCR),
	APMU_PMUV3_EVENT(l1i_cache_refill, ARMV8_PMUV3_PERFCTR_L1I_CACHE_REFILL),
	APMU_PMUV3_EVENT(l1i_tlb_refill, ARMV8_PMUV3_PERFCTR_L1I_TLB_REFILL),
	APMU_PMUV3_EVENT(l1d_cache_refill, ARMV8_PMUV3_PERFCTR_L1D_CACHE_REFILL),
	APMU_PMUV3_EVENT(l1d_cache, ARMV8_PMUV3_PERFCTR_L1D_CACHE),
	APMU_PMUV3_EVENT(l1d_tlb_refill, ARMV8_PMUV3_PERFCTR_L1D_TLB_REFILL),
	APMU_PMUV3_EVENT(ld_retired, ARMV8_PMUV3_PERFCTR_LD_RETIRED),
	APMU_PMUV3_EVENT(st_retired, ARMV8_PMUV3_PERFCTR_ST_RETIRED),
	APMU_PMUV3_EVENT(inst_retired, ARMV8_PMUV3_PERFCTR_INST_RETIRED),
	APMU_PMUV3_EVENT(exc_taken, ARMV8_PMUV3_PERFCTR_EXC_TAKEN),
	APMU_PMUV3_EVENT(exc_return, ARMV8_PMUV3_PERFCTR_EXC_RETURN),
	APMU_PMUV3_EVENT(cid_write_retired, ARMV8_PMUV3_PERFCTR_CID_WRITE_RETIRED),
	APMU_PMUV3_EVENT(pc_write_retired, ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED),
	APMU_PMUV3_EVENT(br_immed_retired, ARMV8_PMUV3_PERFCTR_BR_IMMED_RETIRED),
	APMU_PMUV3_EVENT(br_return_retired, ARMV8_PMUV3_PERFCTR_BR_RETURN_RETIRED),
	APMU_PMUV3_EVENT(unaligned_ldst_retired, ARMV8_PMUV3_PERFCTR_UNALIGNED_LDST_RETIRED),
	APMU_PMUV3_EVENT(br_mis_pred, ARMV8_PMUV3_PERFCTR_BR_MIS_PRED),
	APMU_PMUV3_EVENT(cpu_cycles, ARMV8_PMUV3_PERFCTR_CPU_CYCLES),
	APMU_PMUV3_EVENT(br_pred, ARMV8_PMUV3_PERFCTR_BR_PRED),
	APMU_PMUV3_EVENT(mem_access, ARMV8_PMUV3_PERFCTR_MEM_ACCESS),
	APMU_PMUV3_EVENT(l1i_cache, ARMV8_PMUV3_PERFCTR_L1I_CACHE),
	APMU_PMUV3_EVENT(l1d_cache_wb, ARMV8_PMUV3_PERFCTR_L1D_CACHE_WB),
	APMU_PMUV3_EVENT(l2d_cache, ARMV8_PMUV3_PERFCTR_L2D_CACHE),
	APMU_PMUV3_EVENT(l2d_cache_refill, ARMV8_PMUV3_PERFCTR_L2D_CACHE_REFILL),
	APMU_PMUV3_EVENT(l2d_cache_wb, ARMV8_PMUV3_PERFCTR_L2D_CACHE_WB),
	APMU_PMUV3_EVENT(bus_access, ARMV8_PMUV3_PERFCTR_BUS_ACCESS),
	APMU_PMUV3_EVENT(memory_error, ARMV8_PMUV3_PERFCTR_MEMORY_ERROR),
	APMU_PMUV3_EVENT(inst_spec, ARMV8_PMUV3_PERFCTR_INST_SPEC),
	APMU_PMUV3_EVENT(ttbr_write_retired, ARMV8_PMUV3_PERFCTR_TTBR_WRITE_RETIRED),
	APMU_PMUV3_EVENT(bus_cycles, ARMV8_PMUV3_PERFCTR_BUS_CYCLES),
	APMU_PMUV3_EVENT(l1d_cache_allocate, ARMV8_PMUV3_PERFCTR_L1D_CACHE_ALLOCATE),
	APMU_PMUV3_EVENT(l2d_cache_allocate, ARMV8_PMUV3_PERFCTR_L2D_CACHE_ALLOCATE),
	APMU_PMUV3_EVENT(br_retired, ARMV8_PMUV3_PERFCTR_BR_RETIRED),
	APMU_PMUV3_EVENT(br_mis_pred_retired, ARMV8_PMUV3_PERFCTR_BR_MIS_PRED_RETIRED),
	APMU_PMUV3_EVENT(stall_frontend, ARMV8_PMUV3_PERFCTR_STALL_FRONTEND),
	APMU_PMUV3_EVENT(stall_backend, ARMV8_PMUV3_PERFCTR_STALL_BACKEND),
	APMU_PMUV3_EVENT(l1d_tlb, ARMV8_PMUV3_PERFCTR_L1D_TLB),
	APMU_PMUV3_EVENT(l1i_tlb, ARMV8_PMUV3_PERFCTR_L1I_TLB),
	APMU_PMUV3_EVENT(l2i_cache, ARMV8_PMUV3_PERFCTR_L2I_CACHE),
	APMU_PMUV3_EVENT(l2i_cache_refill, ARMV8_PMUV3_PERFCTR_L2I_CACHE_REFILL),
	APMU_PMUV3_EVENT(l3d_cache_allocate, ARMV8_PMUV3_PERFCTR_L3D_CACHE_ALLOCATE),
	APMU_PMUV3_EVENT(l3d_cache_refill, ARMV8_PMUV3_PERFCTR_L3D_CACHE_REFILL),
	APMU_PMUV3_EVENT(l3d_cache, ARMV8_PMUV3_PERFCTR_L3D_CACHE),
	APMU_PMUV3_EVENT(l3d_cache_wb, ARMV8_PMUV3_PERFCTR_L3D_CACHE_WB),
	APMU_PMUV3_EVENT(l2d_tlb_refill, ARMV8_PMUV3_PERFCTR_L2D_TLB_REFILL),
	APMU_PMUV3_EVENT(l2i_tlb_refill, ARMV8_PMUV3_PERFCTR_L2I_TLB_REFILL),
	APMU_PMUV3_EVENT(l2d_tlb, ARMV8_PMUV3_PERFCTR_L2D_TLB),
	APMU_PMUV3_EVENT(l2i_tlb, ARMV8_PMUV3_PERFCTR_L2I_TLB),
	APMU_PMUV3_EVENT(remote_access, ARMV8_PMUV3_PERFCTR_REMOTE_ACCESS),
	APMU_PMUV3_EVENT(ll_cache, ARMV8_PMUV3_PERFCTR_LL_CACHE),
	APMU_PMUV3_EVENT(ll_cache_miss, ARMV8_PMUV3_PERFCTR_LL_CACHE_MISS),
	APMU_PMUV3_EVENT(dtlb_walk, ARMV8_PMUV3_PERFCTR_DTLB_WALK),
	APMU_PMUV3_EVENT(itlb_walk, ARMV8_PMUV3_PERFCTR_ITLB_WALK),
	APMU_PMUV3_EVENT(ll_cache_rd, ARMV8_PMUV3_PERFCTR_LL_CACHE_RD),
	APMU_PMUV3_EVENT(ll_cache_miss_rd, ARMV8_PMUV3_PERFCTR_LL_CACHE_MISS_RD),
	APMU_PMUV3_EVENT(remote_access_rd, ARMV8_PMUV3_PERFCTR_REMOTE_ACCESS_RD),
	APMU_PMUV3_EVENT(l1d_cache_lmiss_rd, ARMV8_PMUV3_PERFCTR_L1D_CACHE_LMISS_RD),
	APMU_PMUV3_EVENT(op_retired, ARMV8_PMUV3_PERFCTR_OP_RETIRED),
	APMU_PMUV3_EVENT(op_spec, ARMV8_PMUV3_PERFCTR_OP_SPEC),
	APMU_PMUV3_EVENT(stall, ARMV8_PMUV3_PERFCTR_STALL),
	APMU_PMUV3_EVENT(stall_slot_backend, ARMV8_PMUV3_PERFCTR_STALL_SLOT_BACKEND),
	APMU_PMUV3_EVENT(stall_slot_frontend, ARMV8_PMUV3_PERFCTR_STALL_SLOT_FRONTEND),
	APMU_PMUV3_EVENT(stall_slot, ARMV8_PMUV3_PERFCTR_STALL_SLOT),
	APMU_PMUV3_EVENT(sample_pop, ARMV8_SPE_PERFCTR_SAMPLE_POP),
	APMU_PMUV3_EVENT(sample_feed, ARMV8_SPE_PERFCTR_SAMPLE_FEED),
	APMU_PMUV3_EVENT(sample_filtrate, ARMV8_SPE_PERFCTR_SAMPLE_FILTRATE),
	APMU_PMUV3_EVENT(sample_collision, ARMV8_SPE_PERFCTR_SAMPLE_COLLISION),
	APMU_PMUV3_EVENT(cnt_cycles, ARMV8_AMU_PERFCTR_CNT_CYCLES),
	APMU_PMUV3_EVENT(stall_backend_mem, ARMV8_AMU_PERFCTR_STALL_BACKEND_MEM),
	APMU_PMUV3_EVENT(l1i_cache_lmiss, ARMV8_PMUV3_PERFCTR_L1I_CACHE_LMISS),
	APMU_PMUV3_EVENT(l2d_cache_lmiss_rd, ARMV8_PMUV3_PERFCTR_L2D_CACHE_LMISS_RD),
	APMU_PMUV3_EVENT(l2i_cache_lmiss, ARMV8_PMUV3_PERFCTR_L2I_CACHE_LMISS),
	APMU_PMUV3_EVENT(l3d_cache_lmiss_rd, ARMV8_PMUV3_PERFCTR_L3D_CACHE_LMISS_RD),
	APMU_PMUV3_EVENT(trb_wrap, ARMV8_PMUV3_PERFCTR_TRB_WRAP),
	APMU_PMUV3_EVENT(trb_trig, ARMV8_PMUV3_PERFCTR_TRB_TRIG),
	APMU_PMUV3_EVENT(trcextout0, ARMV8_PMUV3_PERFCTR_TRCEXTOUT0),
	APMU_PMUV3_EVENT(trcextout1, ARMV8_PMUV3_PERFCTR_TRCEXTOUT1),
	APMU_PMUV3_EVENT(trcextout2, ARMV8_PMUV3_PERFCTR_TRCEXTOUT2),
	APMU_PMUV3_EVENT(trcextout3, ARMV8_PMUV3_PERFCTR_TRCEXTOUT3),
	APMU_PMUV3_EVENT(cti_trigout4, ARMV8_PMUV3_PERFCTR_CTI_TRIGOUT4),
	APMU_PMUV3_EVENT(cti_trigout5, ARMV8_PMUV3_PERFCTR_CTI_TRIGOUT5),
	APMU_PMUV3_EVENT(cti_trigout6, ARMV8_PMUV3_PERFCTR_CTI_TRIGOUT6),
	APMU_PMUV3_EVENT(cti_trigout7, ARMV8_PMUV3_PERFCTR_CTI_TRIGOUT7),
	APMU_PMUV3_EVENT(ldst_align_lat, ARMV8_PMUV3_PERFCTR_LDST_ALIGN_LAT),
	APMU_PMUV3_EVENT(ld_align_lat, ARMV8_PMUV3_PERFCTR_LD_ALIGN_LAT),
	APMU_PMUV3_EVENT(st_align_lat, ARMV8_PMUV3_PERFCTR_ST_ALIGN_LAT),
	APMU_PMUV3_EVENT(mem_access_checked, ARMV8_MTE_PERFCTR_MEM_ACCESS_CHECKED),
	APMU_PMUV3_EVENT(mem_access_checked_rd, ARMV8_MTE_PERFCTR_MEM_ACCESS_CHECKED_RD),
	APMU_PMUV3_EVENT(mem_access_checked_wr, ARMV8_MTE_PERFCTR_MEM_ACCESS_CHECKED_WR),
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
	struct apmu_event_attr *ev = container_of(attr, struct apmu_event_attr,
						  pmu_attr.attr.attr);

	if (ev->pmu_attr.id == ARMV8_PMUV3_PERFCTR_SW_INCR)
		return 0;
	return apmu_pmuv3_event_implemented(pv, ev->pmu_attr.id) ? attr->mode : 0;
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
