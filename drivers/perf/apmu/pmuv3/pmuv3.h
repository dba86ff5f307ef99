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
 * @pmuver: ID_AA64DFR0_EL1.PMUVer (AArch32: ID_DFR0.PerfMon, the same values from
 *	    PMUv3p1; PMUv3 is 1 there, 3 here)
 * @allow_lp: use PMCR_EL0.LP where implemented (the long_counters parameter)
 * @long_evcnt: event counters are 64-bit (PMUv3p5, PMCR_EL0.LP set; never from AArch32)
 * @long_ccnt: PMCCNTR is 64-bit (PMCR_EL0.LC set; not from AArch32, see arch_arm.h)
 * @pmcr: the PMCR_EL0 value for every CPU of this PMU, with E clear (LC when
 *	  @long_ccnt, LP when @long_evcnt); the same on all of them, so it is set once at
 *	  probe
 * @has_icntr: the instruction counter PMICNTR_EL0 exists (FEAT_PMUv3_ICNTR) and EL2 does
 *	       not trap it (apmu_pmuv3_el2_may_trap())
 * @pmuacr: per-counter EL0 access (FEAT_PMUv3p9: PMUACR_EL1, PMUSERENR_EL0.UEN), and EL2
 *	    does not trap PMUACR_EL1
 * @pmmir: PMMIR_EL1 (slots, bus, threshold width), 0 before PMUv3p4; THWIDTH 0 from
 *	   AArch32 (no threshold fields)
 * @cnt_mask: counter indexes that exist: P<N-1:0>, C and, with @has_icntr, F0
 * @pmceid: PMCEID0/1 as one bitmap: bits 0-63 common events 0x0-0x3f,
 *	    bits 64-127 the 0x4000-0x403f range
 * @quirks: APMU_PMUV3_QUIRK_* of this PMU, from pmuv3_quirks() at probe
 * @pmccntr_ok: CPU_CYCLES may use PMCCNTR: not on SMT cores, where PMCCNTR counts the
 *		core's clock while this thread waits in WFI/WFE (Arm ARM D13.1.3, as in-tree
 *		7.2), nor with %APMU_PMUV3_QUIRK_NO_PMCCNTR
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
 * Workarounds for PMUs that do not behave as the Arm ARM says (pmuv3.c, pmuv3_quirks()).
 * IRQ_RESYNC: the PMU's overflow interrupt request is re-evaluated on PMINTEN/PMOVS writes
 * and overflows but not when PMCR.E is set (QEMU's TCG PMU): pmuv3_start() makes it look
 * again.
 * NO_PMCCNTR: PMCCNTR does not count CPU_CYCLES as PMEVCNTR<n> do (it counts while the PE
 * waits in WFI/WFE): CPU_CYCLES takes an event counter.
 */
#define APMU_PMUV3_QUIRK_IRQ_RESYNC	BIT(0)
#define APMU_PMUV3_QUIRK_NO_PMCCNTR	BIT(1)

static inline struct apmu_pmuv3 *to_pmuv3(struct pmu *pmu)
{
	return container_of(pmu, struct apmu_pmuv3, pmu.pmu);
}

/*
 * The counter indexes a PMUv3 instance uses: up to F0 (32), which takes a 64-bit long;
 * up to C (31) on 32-bit Arm, where AArch32 has no PMICNTR.
 */
#if BITS_PER_LONG > APMU_IDX_INSTR
#define APMU_PMUV3_NR_IDX	APMU_NR_IDX
#else
#define APMU_PMUV3_NR_IDX	(APMU_IDX_CYCLE + 1)
#endif

/* The event occupies a CHAIN pair: hw.idx (odd, the high half) and hw.idx - 1 */
#define APMU_HWF_CHAIN		BIT(12)
static_assert((APMU_HWF_CHAIN & APMU_HWF_BACKEND) == APMU_HWF_CHAIN);

/*
 * format/: each field declared once, in the in-tree armv8_pmuv3 names and positions, so
 * existing perf command lines carry over. GEN_PMU_FORMAT_ATTR() makes the sysfs file
 * (sysfs.c) and ATTR_CFG_GET_FLD() decodes the attribute (events.c).
 */
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
 * A 64-bit count was asked for (config1 "long"), event counters are only 32-bit and the
 * PMU implements CHAIN (its PMCEID bit). Without CHAIN the count is still 64-bit,
 * extended through the overflow interrupt; only a sampling period is then capped at
 * 2^31.
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
