/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: the PMUv3 backend (AArch64 System registers; AArch32 CP15 alike), its instance
 * and its format/ fields.
 */
#ifndef __APMU_PMUV3_H
#define __APMU_PMUV3_H

#include <linux/bitfield.h>
#include <linux/bitmap.h>

#include <apmu/pmuv3_regs.h>

#include "../apmu.h"
#include "../compat.h"

/**
 * struct apmu_pmuv3_model - a PMU of the device tree table (models.c)
 * @name: the perf PMU name
 * @cache_map: the core's implementation defined cache events, consulted where the common
 *	       map's event is not implemented; NULL: none
 */
struct apmu_pmuv3_model {
	const char *name;
	const u16 (*cache_map)[PERF_COUNT_HW_CACHE_OP_MAX][PERF_COUNT_HW_CACHE_RESULT_MAX];
};

/**
 * struct apmu_pmuv3 - a PMUv3 instance
 * @pmu: the core's instance; first, so an event's pmu is this structure
 * @model: the device tree table's entry (name, cache map); NULL in the KUnit suites
 * @pmuver: ID_AA64DFR0_EL1.PMUVer (AArch32: ID_DFR0.PerfMon, where PMUv3 is 3)
 * @allow_lp: use PMCR_EL0.LP where implemented (the long_counters parameter)
 * @long_evcnt: event counters are 64-bit (PMUv3p5, PMCR_EL0.LP; never from AArch32)
 * @long_ccnt: PMCCNTR is 64-bit (PMCR_EL0.LC; not from AArch32)
 * @pmcr: the PMCR_EL0 value of every CPU of this PMU, E clear; set once at probe
 * @has_icntr: PMICNTR_EL0 exists (FEAT_PMUv3_ICNTR) and EL2 does not trap it
 * @pmuacr: per-counter EL0 access (FEAT_PMUv3p9: PMUACR_EL1, PMUSERENR_EL0.UEN), and EL2
 *	    does not trap PMUACR_EL1
 * @pmmir: PMMIR_EL1 (slots, bus, threshold width), 0 before PMUv3p4; no THWIDTH from
 *	   AArch32
 * @cnt_mask: counter indexes that exist: P<N-1:0>, C and, with @has_icntr, F0
 * @pmceid: PMCEID0/1: bits 0-63 events 0x0-0x3f, bits 64-127 events 0x4000-0x403f
 * @quirks: APMU_PMUV3_QUIRK_* of this PMU, from pmuv3_quirks() at probe
 * @pmccntr_ok: CPU_CYCLES may use PMCCNTR: not on SMT cores, where PMCCNTR counts while
 *		this thread waits in WFI/WFE (Arm ARM D13.1.3, as in-tree 7.2), nor with
 *		%APMU_PMUV3_QUIRK_NO_PMCCNTR
 */
struct apmu_pmuv3 {
	struct apmu_pmu pmu;
	const struct apmu_pmuv3_model *model;
	unsigned int pmuver;
	bool allow_lp;
	bool long_evcnt;
	bool long_ccnt;
	u64 pmcr;
	bool has_icntr;
	bool pmuacr;
	u32 pmmir;
	u64 cnt_mask;
	DECLARE_BITMAP(pmceid, 128);
	unsigned int quirks;
	bool pmccntr_ok;
};

/*
 * Workarounds (pmuv3_quirks()). IRQ_RESYNC: the interrupt request is not re-evaluated
 * when PMCR.E is set (QEMU's TCG PMU). NO_PMCCNTR: PMCCNTR counts in WFI/WFE, unlike
 * CPU_CYCLES on PMEVCNTR<n>.
 */
#define APMU_PMUV3_QUIRK_IRQ_RESYNC	BIT(0)
#define APMU_PMUV3_QUIRK_NO_PMCCNTR	BIT(1)

static inline struct apmu_pmuv3 *to_pmuv3(struct pmu *pmu)
{
	return container_of(pmu, struct apmu_pmuv3, pmu.pmu);
}

/* Counter indexes up to F0 (32) on 64-bit, up to C (31) where AArch32 has no PMICNTR */
#if BITS_PER_LONG > APMU_IDX_INSTR
#define APMU_PMUV3_NR_IDX	APMU_NR_IDX
#else
#define APMU_PMUV3_NR_IDX	(APMU_IDX_CYCLE + 1)
#endif

/* The event occupies a CHAIN pair: hw.idx (odd, the high half) and hw.idx - 1 */
#define APMU_HWF_CHAIN		BIT(12)
static_assert((APMU_HWF_CHAIN & APMU_HWF_BACKEND) == APMU_HWF_CHAIN);

/* format/: the in-tree armv8_pmuv3 names and positions, so perf command lines carry over */
#define ATTR_CFG_FLD_event_CFG			config
#define ATTR_CFG_FLD_event_LO			0
#define ATTR_CFG_FLD_event_HI			15
#define ATTR_CFG_FLD_long_CFG			config1	/* a 64-bit count */
#define ATTR_CFG_FLD_long_LO			0
#define ATTR_CFG_FLD_long_HI			0
#define ATTR_CFG_FLD_rdpmc_CFG			config1	/* EL0 reads */
#define ATTR_CFG_FLD_rdpmc_LO			1
#define ATTR_CFG_FLD_rdpmc_HI			1
#define ATTR_CFG_FLD_threshold_count_CFG	config1	/* PMEVTYPER.TC[0] */
#define ATTR_CFG_FLD_threshold_count_LO		2
#define ATTR_CFG_FLD_threshold_count_HI		2
#define ATTR_CFG_FLD_threshold_compare_CFG	config1	/* PMEVTYPER.TC[2:1] */
#define ATTR_CFG_FLD_threshold_compare_LO	3
#define ATTR_CFG_FLD_threshold_compare_HI	4
#define ATTR_CFG_FLD_threshold_CFG		config1	/* PMEVTYPER.TH */
#define ATTR_CFG_FLD_threshold_LO		5
#define ATTR_CFG_FLD_threshold_HI		16

/* The largest PMEVTYPER.TH value: 2^PMMIR.THWIDTH - 1, 0 without FEAT_PMUv3_TH */
static inline u32 apmu_threshold_max(struct apmu_pmuv3 *pv)
{
	return (1U << FIELD_GET(APMU_PMMIR_THWIDTH, pv->pmmir)) - 1;
}

/*
 * "long" on 32-bit event counters, with CHAIN implemented. Without CHAIN the count is
 * still 64-bit, extended through the interrupt; only a sampling period is capped at 2^31.
 */
static inline bool apmu_wants_chain(struct apmu_pmuv3 *pv, struct perf_event *event)
{
	return ATTR_CFG_GET_FLD(&event->attr, long) && !pv->long_evcnt &&
	       test_bit(ARMV8_PMUV3_PERFCTR_CHAIN, pv->pmceid);
}

/* pmuv3.c: the counters, over the accessors (compiled again in the KUnit module) */
extern const struct apmu_pmu_ops apmu_pmuv3_ops;

/* events.c: attribute to PMEVTYPER */
bool apmu_pmuv3_event_implemented(struct apmu_pmuv3 *pv, u16 evnum);
int apmu_pmuv3_map_event(struct perf_event *event);
int apmu_pmuv3_set_filter(struct perf_event *event);

/* sysfs.c */
extern const struct attribute_group *apmu_pmuv3_attr_groups[];

/* models.c: the device tree compatibles apmu binds (.data: &struct apmu_pmuv3_model) */
extern const struct of_device_id apmu_pmuv3_of_match[];

#endif /* __APMU_PMUV3_H */
