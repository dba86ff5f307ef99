// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the PMUv3 PMUs apmu binds, by device tree compatible: one table with, for each,
 * the PMU's name and the core's own cache event map. The compatibles and names are the
 * in-tree driver's (drivers/perf/arm_pmuv3.c, armv8_pmu_of_device_ids[], Linux 7.2), each
 * name with an apmu_ prefix; scripts/of-table-sync.py (the static lane) fails when they
 * drift from the newest kernel source make check has.
 *
 * The cache maps are the in-tree per-core ones (armv8_a53_perf_cache_map, ...): IMPDEF
 * event numbers, which PMCEID cannot describe, consulted only where the common map's event
 * is not implemented (apmu_pmuv3_map_event()), as in-tree (__armv8_pmuv3_map_event()).
 */
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/perf/arm_pmu.h>
#include <kunit/visibility.h>

#include "pmuv3.h"

/* Implementation defined events of one core, as the in-tree driver names them */
#define APMU_A53_PREF_LINEFILL			0xc2	/* Cortex-A53 TRM, event 0xC2 */
#define APMU_THUNDER_L1D_CACHE_MISS_ST		0xe9	/* Cavium ThunderX, 0xE9-0xED */
#define APMU_THUNDER_L1D_CACHE_PREF_ACCESS	0xea
#define APMU_THUNDER_L1D_CACHE_PREF_MISS	0xeb
#define APMU_THUNDER_L1I_CACHE_PREF_ACCESS	0xec
#define APMU_THUNDER_L1I_CACHE_PREF_MISS	0xed

/* Cortex-A35, Cortex-A53 */
static const u16 apmu_a53_cache_map[PERF_COUNT_HW_CACHE_MAX][PERF_COUNT_HW_CACHE_OP_MAX]
				   [PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	[C(L1D)][C(OP_PREFETCH)][C(RESULT_MISS)] = APMU_A53_PREF_LINEFILL,
	[C(NODE)][C(OP_READ)][C(RESULT_ACCESS)]	= ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_RD,
	[C(NODE)][C(OP_WRITE)][C(RESULT_ACCESS)] = ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_WR,
};

/* Cortex-A57, Cortex-A72 */
static const u16 apmu_a57_cache_map[PERF_COUNT_HW_CACHE_MAX][PERF_COUNT_HW_CACHE_OP_MAX]
				   [PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	[C(L1D)][C(OP_READ)][C(RESULT_ACCESS)]	= ARMV8_IMPDEF_PERFCTR_L1D_CACHE_RD,
	[C(L1D)][C(OP_READ)][C(RESULT_MISS)]	= ARMV8_IMPDEF_PERFCTR_L1D_CACHE_REFILL_RD,
	[C(L1D)][C(OP_WRITE)][C(RESULT_ACCESS)]	= ARMV8_IMPDEF_PERFCTR_L1D_CACHE_WR,
	[C(L1D)][C(OP_WRITE)][C(RESULT_MISS)]	= ARMV8_IMPDEF_PERFCTR_L1D_CACHE_REFILL_WR,
	[C(DTLB)][C(OP_READ)][C(RESULT_MISS)]	= ARMV8_IMPDEF_PERFCTR_L1D_TLB_REFILL_RD,
	[C(DTLB)][C(OP_WRITE)][C(RESULT_MISS)]	= ARMV8_IMPDEF_PERFCTR_L1D_TLB_REFILL_WR,
	[C(NODE)][C(OP_READ)][C(RESULT_ACCESS)]	= ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_RD,
	[C(NODE)][C(OP_WRITE)][C(RESULT_ACCESS)] = ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_WR,
};

static const u16 apmu_a73_cache_map[PERF_COUNT_HW_CACHE_MAX][PERF_COUNT_HW_CACHE_OP_MAX]
				   [PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	[C(L1D)][C(OP_READ)][C(RESULT_ACCESS)]	= ARMV8_IMPDEF_PERFCTR_L1D_CACHE_RD,
	[C(L1D)][C(OP_WRITE)][C(RESULT_ACCESS)]	= ARMV8_IMPDEF_PERFCTR_L1D_CACHE_WR,
};

static const u16 apmu_thunder_cache_map[PERF_COUNT_HW_CACHE_MAX][PERF_COUNT_HW_CACHE_OP_MAX]
				       [PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	[C(L1D)][C(OP_READ)][C(RESULT_ACCESS)]	= ARMV8_IMPDEF_PERFCTR_L1D_CACHE_RD,
	[C(L1D)][C(OP_READ)][C(RESULT_MISS)]	= ARMV8_IMPDEF_PERFCTR_L1D_CACHE_REFILL_RD,
	[C(L1D)][C(OP_WRITE)][C(RESULT_ACCESS)]	= ARMV8_IMPDEF_PERFCTR_L1D_CACHE_WR,
	[C(L1D)][C(OP_WRITE)][C(RESULT_MISS)]	= APMU_THUNDER_L1D_CACHE_MISS_ST,
	[C(L1D)][C(OP_PREFETCH)][C(RESULT_ACCESS)] = APMU_THUNDER_L1D_CACHE_PREF_ACCESS,
	[C(L1D)][C(OP_PREFETCH)][C(RESULT_MISS)] = APMU_THUNDER_L1D_CACHE_PREF_MISS,
	[C(L1I)][C(OP_PREFETCH)][C(RESULT_ACCESS)] = APMU_THUNDER_L1I_CACHE_PREF_ACCESS,
	[C(L1I)][C(OP_PREFETCH)][C(RESULT_MISS)] = APMU_THUNDER_L1I_CACHE_PREF_MISS,
	[C(DTLB)][C(OP_READ)][C(RESULT_ACCESS)]	= ARMV8_IMPDEF_PERFCTR_L1D_TLB_RD,
	[C(DTLB)][C(OP_READ)][C(RESULT_MISS)]	= ARMV8_IMPDEF_PERFCTR_L1D_TLB_REFILL_RD,
	[C(DTLB)][C(OP_WRITE)][C(RESULT_ACCESS)] = ARMV8_IMPDEF_PERFCTR_L1D_TLB_WR,
	[C(DTLB)][C(OP_WRITE)][C(RESULT_MISS)]	= ARMV8_IMPDEF_PERFCTR_L1D_TLB_REFILL_WR,
};

static const u16 apmu_vulcan_cache_map[PERF_COUNT_HW_CACHE_MAX][PERF_COUNT_HW_CACHE_OP_MAX]
				      [PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	[C(L1D)][C(OP_READ)][C(RESULT_ACCESS)]	= ARMV8_IMPDEF_PERFCTR_L1D_CACHE_RD,
	[C(L1D)][C(OP_READ)][C(RESULT_MISS)]	= ARMV8_IMPDEF_PERFCTR_L1D_CACHE_REFILL_RD,
	[C(L1D)][C(OP_WRITE)][C(RESULT_ACCESS)]	= ARMV8_IMPDEF_PERFCTR_L1D_CACHE_WR,
	[C(L1D)][C(OP_WRITE)][C(RESULT_MISS)]	= ARMV8_IMPDEF_PERFCTR_L1D_CACHE_REFILL_WR,
	[C(DTLB)][C(OP_READ)][C(RESULT_ACCESS)]	= ARMV8_IMPDEF_PERFCTR_L1D_TLB_RD,
	[C(DTLB)][C(OP_WRITE)][C(RESULT_ACCESS)] = ARMV8_IMPDEF_PERFCTR_L1D_TLB_WR,
	[C(DTLB)][C(OP_READ)][C(RESULT_MISS)]	= ARMV8_IMPDEF_PERFCTR_L1D_TLB_REFILL_RD,
	[C(DTLB)][C(OP_WRITE)][C(RESULT_MISS)]	= ARMV8_IMPDEF_PERFCTR_L1D_TLB_REFILL_WR,
	[C(NODE)][C(OP_READ)][C(RESULT_ACCESS)]	= ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_RD,
	[C(NODE)][C(OP_WRITE)][C(RESULT_ACCESS)] = ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_WR,
};

/* A PMU of the table: its device tree compatible, its name and its cache map, if any */
#define APMU_PMUV3_MODEL(compat, pmu_name, map)					\
	{ .compatible = compat,							\
	  .data = &(const struct apmu_pmuv3_model){ .name = "apmu_" pmu_name,	\
						    .cache_map = map } }

/*
 * In the in-tree order (the sync script compares the set, not the order). On 32-bit Arm the
 * same table: the in-tree driver is the same file there.
 */
const struct of_device_id apmu_pmuv3_of_match[] = {
	APMU_PMUV3_MODEL("arm,armv8-pmuv3", "armv8_pmuv3", NULL),
	APMU_PMUV3_MODEL("arm,c1-nano-pmu", "armv8_c1_nano", NULL),
	APMU_PMUV3_MODEL("arm,c1-premium-pmu", "armv8_c1_premium", NULL),
	APMU_PMUV3_MODEL("arm,c1-pro-pmu", "armv8_c1_pro", NULL),
	APMU_PMUV3_MODEL("arm,c1-ultra-pmu", "armv8_c1_ultra", NULL),
	APMU_PMUV3_MODEL("arm,cortex-a34-pmu", "armv8_cortex_a34", NULL),
	APMU_PMUV3_MODEL("arm,cortex-a35-pmu", "armv8_cortex_a35", apmu_a53_cache_map),
	APMU_PMUV3_MODEL("arm,cortex-a53-pmu", "armv8_cortex_a53", apmu_a53_cache_map),
	APMU_PMUV3_MODEL("arm,cortex-a55-pmu", "armv8_cortex_a55", NULL),
	APMU_PMUV3_MODEL("arm,cortex-a57-pmu", "armv8_cortex_a57", apmu_a57_cache_map),
	APMU_PMUV3_MODEL("arm,cortex-a65-pmu", "armv8_cortex_a65", NULL),
	APMU_PMUV3_MODEL("arm,cortex-a72-pmu", "armv8_cortex_a72", apmu_a57_cache_map),
	APMU_PMUV3_MODEL("arm,cortex-a73-pmu", "armv8_cortex_a73", apmu_a73_cache_map),
	APMU_PMUV3_MODEL("arm,cortex-a75-pmu", "armv8_cortex_a75", NULL),
	APMU_PMUV3_MODEL("arm,cortex-a76-pmu", "armv8_cortex_a76", NULL),
	APMU_PMUV3_MODEL("arm,cortex-a77-pmu", "armv8_cortex_a77", NULL),
	APMU_PMUV3_MODEL("arm,cortex-a78-pmu", "armv8_cortex_a78", NULL),
	APMU_PMUV3_MODEL("arm,cortex-a320-pmu", "armv9_cortex_a320", NULL),
	APMU_PMUV3_MODEL("arm,cortex-a510-pmu", "armv9_cortex_a510", NULL),
	APMU_PMUV3_MODEL("arm,cortex-a520-pmu", "armv9_cortex_a520", NULL),
	APMU_PMUV3_MODEL("arm,cortex-a520ae-pmu", "armv9_cortex_a520ae", NULL),
	APMU_PMUV3_MODEL("arm,cortex-a710-pmu", "armv9_cortex_a710", NULL),
	APMU_PMUV3_MODEL("arm,cortex-a715-pmu", "armv9_cortex_a715", NULL),
	APMU_PMUV3_MODEL("arm,cortex-a720-pmu", "armv9_cortex_a720", NULL),
	APMU_PMUV3_MODEL("arm,cortex-a720ae-pmu", "armv9_cortex_a720ae", NULL),
	APMU_PMUV3_MODEL("arm,cortex-a725-pmu", "armv9_cortex_a725", NULL),
	APMU_PMUV3_MODEL("arm,cortex-x1-pmu", "armv8_cortex_x1", NULL),
	APMU_PMUV3_MODEL("arm,cortex-x2-pmu", "armv9_cortex_x2", NULL),
	APMU_PMUV3_MODEL("arm,cortex-x3-pmu", "armv9_cortex_x3", NULL),
	APMU_PMUV3_MODEL("arm,cortex-x4-pmu", "armv9_cortex_x4", NULL),
	APMU_PMUV3_MODEL("arm,cortex-x925-pmu", "armv9_cortex_x925", NULL),
	APMU_PMUV3_MODEL("arm,neoverse-e1-pmu", "armv8_neoverse_e1", NULL),
	APMU_PMUV3_MODEL("arm,neoverse-n1-pmu", "armv8_neoverse_n1", NULL),
	APMU_PMUV3_MODEL("arm,neoverse-n2-pmu", "armv9_neoverse_n2", NULL),
	APMU_PMUV3_MODEL("arm,neoverse-n3-pmu", "armv9_neoverse_n3", NULL),
	APMU_PMUV3_MODEL("arm,neoverse-v1-pmu", "armv8_neoverse_v1", NULL),
	APMU_PMUV3_MODEL("arm,neoverse-v2-pmu", "armv8_neoverse_v2", NULL),
	APMU_PMUV3_MODEL("arm,neoverse-v3-pmu", "armv8_neoverse_v3", NULL),
	APMU_PMUV3_MODEL("arm,neoverse-v3ae-pmu", "armv8_neoverse_v3ae", NULL),
	APMU_PMUV3_MODEL("arm,rainier-pmu", "armv8_rainier", NULL),
	APMU_PMUV3_MODEL("cavium,thunder-pmu", "armv8_cavium_thunder", apmu_thunder_cache_map),
	APMU_PMUV3_MODEL("brcm,vulcan-pmu", "armv8_brcm_vulcan", apmu_vulcan_cache_map),
	APMU_PMUV3_MODEL("nvidia,carmel-pmu", "armv8_nvidia_carmel", NULL),
	APMU_PMUV3_MODEL("nvidia,denver-pmu", "armv8_nvidia_denver", NULL),
	APMU_PMUV3_MODEL("samsung,mongoose-pmu", "armv8_samsung_mongoose", NULL),
	{ }
};
MODULE_DEVICE_TABLE(of, apmu_pmuv3_of_match);
EXPORT_SYMBOL_IF_KUNIT(apmu_pmuv3_of_match);
