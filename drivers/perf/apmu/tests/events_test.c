// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for apmu's attribute-to-event mapping: the generic hardware and cache maps
 * are offered only for events PMCEID implements, and raw configs are checked bit by bit.
 * QEMU implements only a few events, so the maps' other rows are covered here.
 */
#include <kunit/test.h>
#include <linux/mod_devicetable.h>
#include <linux/perf_event.h>
#include <linux/string.h>

#include "../pmuv3/pmuv3.h"

#define HW_CACHE(t, op, res)	((t) | (op) << 8 | (res) << 16)

struct events_test {
	struct apmu_pmuv3 pv;
	struct perf_event event;
};

static struct events_test *events_setup(struct kunit *test)
{
	struct events_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->pv.pmu.pmu.type = 42;
	t->event.pmu = &t->pv.pmu.pmu;
	return t;
}

static int map(struct events_test *t, u32 type, u64 config)
{
	t->event.attr.type = type;
	t->event.attr.config = config;
	return apmu_pmuv3_map_event(&t->event);
}

static void generic_events_need_pmceid(struct kunit *test)
{
	struct events_test *t = events_setup(test);

	/* nothing implemented: every generic event is unsupported */
	KUNIT_EXPECT_EQ(test, map(t, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), -ENOENT);
	KUNIT_EXPECT_EQ(test, map(t, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES), -ENOENT);

	__set_bit(ARMV8_PMUV3_PERFCTR_CPU_CYCLES, t->pv.pmceid);
	__set_bit(ARMV8_PMUV3_PERFCTR_L1D_CACHE_REFILL, t->pv.pmceid);
	__set_bit(ARMV8_PMUV3_PERFCTR_STALL_BACKEND, t->pv.pmceid);
	KUNIT_EXPECT_EQ(test, map(t, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES),
			ARMV8_PMUV3_PERFCTR_CPU_CYCLES);
	KUNIT_EXPECT_EQ(test, map(t, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES),
			ARMV8_PMUV3_PERFCTR_L1D_CACHE_REFILL);
	KUNIT_EXPECT_EQ(test, map(t, PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND),
			ARMV8_PMUV3_PERFCTR_STALL_BACKEND);
}

/*
 * branches: BR_RETIRED where PMCEID has it, else PC_WRITE_RETIRED, else unsupported, as
 * in-tree (__armv8_pmuv3_map_event_id()); the Cortex-A53 has only PC_WRITE_RETIRED.
 */
static void branches_br_retired_or_pc_write(struct kunit *test)
{
	struct events_test *t = events_setup(test);
	const u64 br = PERF_COUNT_HW_BRANCH_INSTRUCTIONS;

	KUNIT_EXPECT_EQ(test, map(t, PERF_TYPE_HARDWARE, br), -ENOENT);
	__set_bit(ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED, t->pv.pmceid);
	KUNIT_EXPECT_EQ(test, map(t, PERF_TYPE_HARDWARE, br), ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED);
	__set_bit(ARMV8_PMUV3_PERFCTR_BR_RETIRED, t->pv.pmceid);
	KUNIT_EXPECT_EQ(test, map(t, PERF_TYPE_HARDWARE, br), ARMV8_PMUV3_PERFCTR_BR_RETIRED);
	__clear_bit(ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED, t->pv.pmceid);
	KUNIT_EXPECT_EQ(test, map(t, PERF_TYPE_HARDWARE, br), ARMV8_PMUV3_PERFCTR_BR_RETIRED);
}

static void cache_events(struct kunit *test)
{
	struct events_test *t = events_setup(test);
	const u32 c = PERF_TYPE_HW_CACHE;

	__set_bit(ARMV8_PMUV3_PERFCTR_LL_CACHE_RD, t->pv.pmceid);
	__set_bit(ARMV8_PMUV3_PERFCTR_LL_CACHE_MISS_RD, t->pv.pmceid);
	__set_bit(ARMV8_PMUV3_PERFCTR_L1D_TLB, t->pv.pmceid);
	KUNIT_EXPECT_EQ(test, map(t, c, HW_CACHE(PERF_COUNT_HW_CACHE_LL, 0, 0)),
			ARMV8_PMUV3_PERFCTR_LL_CACHE_RD);
	KUNIT_EXPECT_EQ(test, map(t, c, HW_CACHE(PERF_COUNT_HW_CACHE_LL, 0, 1)),
			ARMV8_PMUV3_PERFCTR_LL_CACHE_MISS_RD);
	KUNIT_EXPECT_EQ(test, map(t, c, HW_CACHE(PERF_COUNT_HW_CACHE_DTLB, 0, 0)),
			ARMV8_PMUV3_PERFCTR_L1D_TLB);
	/* mapped but not implemented: not supported here */
	KUNIT_EXPECT_EQ(test, map(t, c, HW_CACHE(PERF_COUNT_HW_CACHE_L1D, 0, 0)), -ENOENT);
}

/* The device tree entry of @compat (models.c), as the platform driver matches it */
static const struct apmu_pmuv3_model *model_of(struct kunit *test, const char *compat)
{
	const struct of_device_id *id;

	for (id = apmu_pmuv3_of_match; id->compatible[0]; id++)
		if (!strcmp(id->compatible, compat))
			return id->data;
	KUNIT_FAIL(test, "%s is not in apmu_pmuv3_of_match", compat);
	return NULL;
}

/*
 * A core's own cache events (the in-tree per-core maps), only where the common event is
 * not implemented, as in-tree: a Cortex-A72 without L1D_CACHE counts L1-dcache-loads as
 * L1D_CACHE_RD, and its stores, which the common map lacks, as L1D_CACHE_WR; a Cortex-A53
 * has node-loads as BUS_ACCESS_RD; the generic core has neither.
 */
static void core_cache_maps(struct kunit *test)
{
	struct events_test *t = events_setup(test);
	const u32 c = PERF_TYPE_HW_CACHE;
	const u64 l1d_load = HW_CACHE(PERF_COUNT_HW_CACHE_L1D, 0, 0);
	const u64 l1d_store = HW_CACHE(PERF_COUNT_HW_CACHE_L1D, 1, 0);
	const u64 node_load = HW_CACHE(PERF_COUNT_HW_CACHE_NODE, 0, 0);

	__set_bit(ARMV8_PMUV3_PERFCTR_SW_INCR, t->pv.pmceid);	/* every real core has it */
	t->pv.model = model_of(test, "arm,cortex-a72-pmu");
	KUNIT_ASSERT_NOT_NULL(test, t->pv.model);
	KUNIT_EXPECT_STREQ(test, t->pv.model->name, "apmu_armv8_cortex_a72");
	KUNIT_EXPECT_EQ(test, map(t, c, l1d_load), ARMV8_IMPDEF_PERFCTR_L1D_CACHE_RD);
	KUNIT_EXPECT_EQ(test, map(t, c, l1d_store), ARMV8_IMPDEF_PERFCTR_L1D_CACHE_WR);
	__set_bit(ARMV8_PMUV3_PERFCTR_L1D_CACHE, t->pv.pmceid);	/* the common event wins */
	KUNIT_EXPECT_EQ(test, map(t, c, l1d_load), ARMV8_PMUV3_PERFCTR_L1D_CACHE);
	/* LL has no A72 entry: unsupported, whatever the core map */
	KUNIT_EXPECT_EQ(test, map(t, c, HW_CACHE(PERF_COUNT_HW_CACHE_LL, 0, 0)), -ENOENT);

	t->pv.model = model_of(test, "arm,cortex-a53-pmu");
	KUNIT_ASSERT_NOT_NULL(test, t->pv.model);
	KUNIT_EXPECT_EQ(test, map(t, c, node_load), ARMV8_IMPDEF_PERFCTR_BUS_ACCESS_RD);
	KUNIT_EXPECT_EQ(test, map(t, c, l1d_store), -ENOENT);

	t->pv.model = model_of(test, "arm,armv8-pmuv3");
	KUNIT_ASSERT_NOT_NULL(test, t->pv.model);
	KUNIT_EXPECT_STREQ(test, t->pv.model->name, "apmu_armv8_pmuv3");
	KUNIT_EXPECT_EQ(test, map(t, c, node_load), -ENOENT);
	KUNIT_EXPECT_EQ(test, map(t, c, l1d_store), -ENOENT);
	/* and the cores that came with Linux 7.2 */
	KUNIT_EXPECT_STREQ(test, model_of(test, "arm,c1-ultra-pmu")->name, "apmu_armv8_c1_ultra");
	KUNIT_EXPECT_STREQ(test, model_of(test, "samsung,mongoose-pmu")->name,
			   "apmu_armv8_samsung_mongoose");
}

/*
 * rdpmc of a 64-bit CPU_CYCLES count on 32-bit event counters (with CHAIN) needs the
 * 64-bit PMCCNTR: where CPU_CYCLES may not use it (SMT, quirk) the event is refused
 * (-EOPNOTSUPP) rather than put where user space would read 32 bits of it.
 */
static void rdpmc_long_cycles_needs_pmccntr(struct kunit *test)
{
	struct events_test *t = events_setup(test);
	struct perf_event *ev = &t->event;

	__set_bit(ARMV8_PMUV3_PERFCTR_CHAIN, t->pv.pmceid);
	ev->attach_state = PERF_ATTACH_TASK;
	ev->attr.config1 = APMU_FLD_MASK(rdpmc) | APMU_FLD_MASK(long);
	ev->hw.config_base = ARMV8_PMUV3_PERFCTR_CPU_CYCLES;
	t->pv.pmccntr_ok = true;
	KUNIT_EXPECT_EQ(test, apmu_pmuv3_set_filter(ev), 0);
	KUNIT_EXPECT_TRUE(test, ev->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT);
	ev->hw.flags = 0;
	ev->hw.config_base = ARMV8_PMUV3_PERFCTR_CPU_CYCLES;
	t->pv.pmccntr_ok = false;
	KUNIT_EXPECT_EQ(test, apmu_pmuv3_set_filter(ev), -EOPNOTSUPP);
	/* a 32-bit count needs no PMCCNTR */
	ev->attr.config1 = APMU_FLD_MASK(rdpmc);
	ev->hw.config_base = ARMV8_PMUV3_PERFCTR_CPU_CYCLES;
	KUNIT_EXPECT_EQ(test, apmu_pmuv3_set_filter(ev), 0);
}

static void raw_and_own_types(struct kunit *test)
{
	struct events_test *t = events_setup(test);

	/* raw events need no PMCEID bit: IMPLEMENTATION DEFINED ones never have one */
	KUNIT_EXPECT_EQ(test, map(t, PERF_TYPE_RAW, 0x1234), 0x1234);
	KUNIT_EXPECT_EQ(test, map(t, 42, 0xffff), 0xffff);
}

/* An attribute apmu_pmuv3_map_event() refuses, and its errno */
struct map_refusal {
	const char *desc;
	u32 type;
	u64 config;
	u64 config1;
	u64 config2;
	u64 config3;
	int ret;
};

#define CACHE	PERF_TYPE_HW_CACHE

static const struct map_refusal map_refusals[] = {
	/* out of range is a bad config (-EINVAL), as in-tree and on x86 */
	{ "hardware beyond the last", PERF_TYPE_HARDWARE, PERF_COUNT_HW_MAX, .ret = -EINVAL },
	/* no PMUv3 mapping at all, implemented or not */
	{ "ref-cycles: no event", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES,
	  .ret = -ENOENT },
	{ "LL stores: no event", CACHE, HW_CACHE(PERF_COUNT_HW_CACHE_LL, 1, 0), .ret = -ENOENT },
	/* malformed cache configs: a field out of range is -EINVAL, as in-tree */
	{ "cache type beyond the last", CACHE, HW_CACHE(PERF_COUNT_HW_CACHE_MAX, 0, 0),
	  .ret = -EINVAL },
	{ "cache op beyond the last", CACHE, HW_CACHE(0, PERF_COUNT_HW_CACHE_OP_MAX, 0),
	  .ret = -EINVAL },
	{ "cache result beyond the last", CACHE, HW_CACHE(0, 0, PERF_COUNT_HW_CACHE_RESULT_MAX),
	  .ret = -EINVAL },
	{ "cache bits above the result", CACHE,
	  BIT_ULL(24) | HW_CACHE(PERF_COUNT_HW_CACHE_LL, 0, 0), .ret = -EINVAL },
	/* raw configs bit by bit */
	{ "own type beyond the event field", 42, 0x10000, .ret = -EINVAL },
	{ "raw with bit 63", PERF_TYPE_RAW, BIT_ULL(63) | ARMV8_PMUV3_PERFCTR_INST_RETIRED,
	  .ret = -EINVAL },
	{ "config1 beyond its fields", 42, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, BIT_ULL(17),
	  .ret = -EINVAL },
	{ "config2", 42, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, .config2 = 1, .ret = -EINVAL },
	/* config3 has no field: any bit set is an error, as for config2 */
	{ "config3", 42, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, .config3 = 1, .ret = -EINVAL },
	{ "config3 bit 63, raw", PERF_TYPE_RAW, ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
	  .config3 = BIT_ULL(63), .ret = -EINVAL },
	{ "CHAIN alone", 42, ARMV8_PMUV3_PERFCTR_CHAIN, .ret = -EINVAL },
	/* anybody else's type is not ours */
	{ "software type", PERF_TYPE_SOFTWARE, 0, .ret = -ENOENT },
	{ "another PMU's type", 43, ARMV8_PMUV3_PERFCTR_INST_RETIRED, .ret = -ENOENT },
};

static void map_refusal_desc(const struct map_refusal *r, char *desc)
{
	strscpy(desc, r->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(map_refusal, map_refusals, map_refusal_desc);

/* Refused by the config words alone: PMCEID has every common event */
static void map_refused(struct kunit *test)
{
	const struct map_refusal *r = test->param_value;
	struct events_test *t = events_setup(test);

	bitmap_fill(t->pv.pmceid, 128);
	t->event.attr.config1 = r->config1;
	t->event.attr.config2 = r->config2;
	t->event.attr.config3 = r->config3;
	KUNIT_EXPECT_EQ(test, map(t, r->type, r->config), r->ret);
}

static void implemented_covers_both_ranges(struct kunit *test)
{
	struct events_test *t = events_setup(test);

	__set_bit(64 + 0x04, t->pv.pmceid);	/* 0x4004 CNT_CYCLES */
	KUNIT_EXPECT_TRUE(test, apmu_pmuv3_event_implemented(&t->pv, 0x4004));
	KUNIT_EXPECT_FALSE(test, apmu_pmuv3_event_implemented(&t->pv, 0x0004));
	KUNIT_EXPECT_FALSE(test, apmu_pmuv3_event_implemented(&t->pv, 0x4040));
	KUNIT_EXPECT_FALSE(test, apmu_pmuv3_event_implemented(&t->pv, 0x0040));
}

static struct kunit_case apmu_events_cases[] = {
	KUNIT_CASE(generic_events_need_pmceid),
	KUNIT_CASE(branches_br_retired_or_pc_write),
	KUNIT_CASE(cache_events),
	KUNIT_CASE(core_cache_maps),
	KUNIT_CASE(rdpmc_long_cycles_needs_pmccntr),
	KUNIT_CASE(raw_and_own_types),
	KUNIT_CASE_PARAM(map_refused, map_refusal_gen_params),
	KUNIT_CASE(implemented_covers_both_ranges),
	{}
};

static struct kunit_suite apmu_events_suite = {
	.name = "apmu_events",
	.test_cases = apmu_events_cases,
};

kunit_test_suite(apmu_events_suite);
