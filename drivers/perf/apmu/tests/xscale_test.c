// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the XScale backend: xscale/xscale.c and xscale/events.c compiled here
 * against the register model (xscale_model_access.h), driven through apmu's real perf
 * core (add/del/read, pmu_enable/disable, the overflow handler) the way perf core drives
 * it. The model fails the running test on any breach of the manual's rules (an event
 * select changed with PMNC.E set, an idle counter not at 0xFF while others count, PMNC.E
 * set with nothing counting, reserved bits, XScale1 accesses to XScale2 registers); the
 * cases check the rest: the request deasserted by the handler, no lost wrap, a removed
 * counter's interrupt enable and flag cleared, and the cost of an add and a del.
 */
#include "xscale_model_access.h"
#define APMU_XSCALE_OPS		apmu_xscale_model_ops
#include "../xscale/xscale.c"
#include "../xscale/events.c"

#include <kunit/test.h>
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include "core_harness.h"

struct xs_test {
	struct apmu_xs_model m;
	struct apmu_xscale xs;
};

/* An XScale1 or XScale2 over the model, probed and reset like a CPU coming online */
static struct xs_test *xs_setup(struct kunit *test, bool v2)
{
	struct xs_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	apmu_xs_model_init(&t->m, v2);
	apmu_xs_model_select(&t->m);
	apmu_xscale_setup(&t->xs, v2, &apmu_xscale_model_ops);
	apmu_kt_pmu_start(test, &t->xs.pmu);
	return t;
}

/* The two layouts, for the cases both run the same way */
static const bool xs_layouts[] = { true, false };

static void xs_layout_desc(const bool *v2, char *desc)
{
	strscpy(desc, *v2 ? "xscale2" : "xscale1", KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(xs_layout, xs_layouts, xs_layout_desc);

/* xs_setup() for the layout of the running parameter */
static struct xs_test *xs_setup_param(struct kunit *test)
{
	return xs_setup(test, *(const bool *)test->param_value);
}

static bool xs_pmnc_e(struct xs_test *t)
{
	return t->m.pmnc & APMU_XS_PMNC_E;
}

/*
 * "The counters continue to record events even after they overflow ... software can
 * extend the count duration beyond 32 bits by counting the number of overflow
 * interrupts": five wraps, each interrupt taken 2^30 events late, folded exactly; and
 * each time the handler deasserts the request by writing the flag (the request does not
 * depend on PMNC.E, which the handler clears while it works).
 */
static void xs_count_across_wraps(struct kunit *test)
{
	struct xs_test *t = xs_setup_param(test);
	struct perf_event *ev = apmu_kt_event(test, &t->xs.pmu, APMU_XS_EVT_INSTRUCTION, 0, 0);
	u64 total = 0, step;
	int i;

	preempt_disable();
	apmu_kt_add(test, &t->xs.pmu, ev);
	KUNIT_EXPECT_EQ(test, ev->hw.idx, APMU_XS_IDX_PMN(0));
	KUNIT_EXPECT_EQ(test, t->m.pmn[0], (u32)APMU_ARM_32BIT);
	KUNIT_EXPECT_TRUE(test, xs_pmnc_e(t));
	for (i = 0; i < 5; i++) {
		step = APMU_ARM_32BIT + (1ULL << 30) + i;
		apmu_xs_model_count(&t->m, APMU_XS_EVT_INSTRUCTION, step);
		total += step;
		KUNIT_EXPECT_TRUE(test, apmu_xs_model_irq(&t->m));
		KUNIT_EXPECT_EQ(test, apmu_kt_irq(&t->xs.pmu), IRQ_HANDLED);
		KUNIT_EXPECT_FALSE(test, apmu_xs_model_irq(&t->m));
		KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total);
		KUNIT_EXPECT_TRUE(test, xs_pmnc_e(t));
	}
	apmu_xs_model_count(&t->m, APMU_XS_EVT_INSTRUCTION, 12345);
	t->xs.pmu.pmu.read(ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total + 12345);
	KUNIT_EXPECT_EQ(test, apmu_kt_irq(&t->xs.pmu), IRQ_NONE);
	apmu_kt_del(&t->xs.pmu, ev);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, t->m.violations, 0);
}

/* Cycles take CCNT, and wrap like any counter */
static void xs_cycles_on_ccnt(struct kunit *test)
{
	struct xs_test *t = xs_setup_param(test);
	struct perf_event *ev = apmu_kt_event(test, &t->xs.pmu, APMU_XS_EVT_CCNT, 0, 0);

	preempt_disable();
	apmu_kt_add(test, &t->xs.pmu, ev);
	KUNIT_EXPECT_EQ(test, ev->hw.idx, APMU_XS_IDX_CCNT);
	apmu_xs_model_cycles(&t->m, 3ULL << 30);
	KUNIT_EXPECT_EQ(test, apmu_kt_irq(&t->xs.pmu), IRQ_HANDLED);
	KUNIT_EXPECT_FALSE(test, apmu_xs_model_irq(&t->m));
	apmu_xs_model_cycles(&t->m, 7);
	apmu_kt_del(&t->xs.pmu, ev);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), (3ULL << 30) + 7);
	KUNIT_EXPECT_FALSE(test, xs_pmnc_e(t));
	KUNIT_EXPECT_EQ(test, t->m.violations, 0);
}

/*
 * An add while another counter runs, and a del: PMNC.E off, EVTSEL, counters, PMNC.E on
 * (the model fails the test on an EVTSEL write with E set, or an idle counter not at
 * 0xFF while others count). The register accesses of each are counted: this is their
 * cost, and a change to it must be deliberate.
 */
static void xs2_add_del_sequence_and_cost(struct kunit *test)
{
	struct xs_test *t = xs_setup(test, true);
	struct perf_event *a = apmu_kt_event(test, &t->xs.pmu, APMU_XS_EVT_INSTRUCTION, 0, 0);
	struct perf_event *b = apmu_kt_event(test, &t->xs.pmu, APMU_XS_EVT_BRANCH, 0, 0);
	unsigned int r, w;

	preempt_disable();
	apmu_kt_add(test, &t->xs.pmu, a);
	KUNIT_EXPECT_EQ(test, t->m.evt[0], APMU_XS_EVT_INSTRUCTION);
	r = t->m.reads;
	w = t->m.writes;
	apmu_kt_add(test, &t->xs.pmu, b);
	/*
	 * PMNC.E off; PMN1; EVTSEL read, write; INTEN read, write; PMNC.E on (whether an
	 * event runs is the core's state, not an INTEN read)
	 */
	KUNIT_EXPECT_EQ(test, t->m.reads - r, 2);
	KUNIT_EXPECT_EQ(test, t->m.writes - w, 5);
	KUNIT_EXPECT_EQ(test, t->m.evt[b->hw.idx - 1], APMU_XS_EVT_BRANCH);
	KUNIT_EXPECT_EQ(test, t->m.evt[2], APMU_XS_EVT_UNUSED);
	KUNIT_EXPECT_EQ(test, t->m.evt[3], APMU_XS_EVT_UNUSED);
	apmu_xs_model_count(&t->m, APMU_XS_EVT_BRANCH, 10);
	apmu_xs_model_count(&t->m, APMU_XS_EVT_INSTRUCTION, 20);
	r = t->m.reads;
	w = t->m.writes;
	apmu_kt_del(&t->xs.pmu, a);
	/*
	 * PMNC.E off; INTEN read, write; FLAG write; EVTSEL read, write; PMN0 read;
	 * PMNC.E on
	 */
	KUNIT_EXPECT_EQ(test, t->m.reads - r, 3);
	KUNIT_EXPECT_EQ(test, t->m.writes - w, 5);
	KUNIT_EXPECT_EQ(test, local64_read(&a->count), 20);
	KUNIT_EXPECT_EQ(test, t->m.evt[0], APMU_XS_EVT_UNUSED);
	KUNIT_EXPECT_TRUE(test, xs_pmnc_e(t));
	apmu_xs_model_count(&t->m, APMU_XS_EVT_BRANCH, 5);
	apmu_kt_del(&t->xs.pmu, b);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, local64_read(&b->count), 15);
	KUNIT_EXPECT_FALSE(test, xs_pmnc_e(t));
	KUNIT_EXPECT_EQ(test, t->m.violations, 0);
}

/*
 * A counter removed with its overflow pending: its interrupt enable and flag are cleared,
 * so no stale request interrupts the counter's next user, while the other counter's
 * pending overflow survives (XScale1's flags are write-one-to-clear in PMNC itself).
 */
static void xs_del_clears_inten_and_flag(struct kunit *test)
{
	struct xs_test *t = xs_setup_param(test);
	struct perf_event *a = apmu_kt_event(test, &t->xs.pmu, APMU_XS_EVT_INSTRUCTION, 0, 0);
	struct perf_event *b = apmu_kt_event(test, &t->xs.pmu, APMU_XS_EVT_BRANCH, 0, 0);

	preempt_disable();
	apmu_kt_add(test, &t->xs.pmu, a);
	apmu_kt_add(test, &t->xs.pmu, b);
	apmu_xs_model_count(&t->m, APMU_XS_EVT_INSTRUCTION, APMU_ARM_32BIT);
	apmu_xs_model_count(&t->m, APMU_XS_EVT_BRANCH, APMU_ARM_32BIT);
	KUNIT_EXPECT_EQ(test, t->m.flag, BIT(APMU_XS_IDX_PMN(0)) | BIT(APMU_XS_IDX_PMN(1)));
	apmu_kt_del(&t->xs.pmu, a);
	KUNIT_EXPECT_EQ(test, t->m.inten & BIT(APMU_XS_IDX_PMN(0)), 0);
	KUNIT_EXPECT_EQ(test, t->m.flag, BIT(APMU_XS_IDX_PMN(1)));
	KUNIT_EXPECT_EQ(test, t->m.evt[0], APMU_XS_EVT_UNUSED);
	KUNIT_EXPECT_TRUE(test, apmu_xs_model_irq(&t->m));
	KUNIT_EXPECT_EQ(test, apmu_kt_irq(&t->xs.pmu), IRQ_HANDLED);
	KUNIT_EXPECT_FALSE(test, apmu_xs_model_irq(&t->m));
	KUNIT_EXPECT_EQ(test, local64_read(&a->count), APMU_ARM_32BIT);
	apmu_kt_del(&t->xs.pmu, b);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, local64_read(&b->count), APMU_ARM_32BIT);
	KUNIT_EXPECT_EQ(test, t->m.inten, 0);
	KUNIT_EXPECT_EQ(test, t->m.flag, 0);
	KUNIT_EXPECT_FALSE(test, xs_pmnc_e(t));
	KUNIT_EXPECT_EQ(test, t->m.violations, 0);
}

/*
 * An event held but stopped (throttled, or stopped inside perf's bracket) runs nothing:
 * PMNC.E stays clear ("when the performance monitor is not used at all (PMNC.E = 0x0),
 * hardware ensures minimal power consumption"); started again, it counts on.
 */
static void xs_stopped_event_leaves_e_clear(struct kunit *test)
{
	struct xs_test *t = xs_setup_param(test);
	struct perf_event *ev = apmu_kt_event(test, &t->xs.pmu, APMU_XS_EVT_INSTRUCTION, 0, 0);
	struct pmu *p = &t->xs.pmu.pmu;

	preempt_disable();
	apmu_kt_add(test, &t->xs.pmu, ev);
	apmu_xs_model_count(&t->m, APMU_XS_EVT_INSTRUCTION, 100);
	p->pmu_disable(p);
	p->stop(ev, PERF_EF_UPDATE);
	p->pmu_enable(p);
	KUNIT_EXPECT_FALSE(test, xs_pmnc_e(t));
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), 100);
	p->pmu_disable(p);
	p->start(ev, PERF_EF_RELOAD);
	p->pmu_enable(p);
	KUNIT_EXPECT_TRUE(test, xs_pmnc_e(t));
	apmu_xs_model_count(&t->m, APMU_XS_EVT_INSTRUCTION, 5);
	apmu_kt_del(&t->xs.pmu, ev);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), 105);
	KUNIT_EXPECT_EQ(test, t->m.violations, 0);
}

/*
 * CCNT counts whenever PMNC.E is set, held or not: a wrap while no event held it leaves
 * its flag set. A cycles event added then must not take that stale overflow at once.
 */
static void xs2_stale_ccnt_flag_cleared(struct kunit *test)
{
	struct xs_test *t = xs_setup(test, true);
	struct perf_event *a = apmu_kt_event(test, &t->xs.pmu, APMU_XS_EVT_INSTRUCTION, 0, 0);
	struct perf_event *c = apmu_kt_event(test, &t->xs.pmu, APMU_XS_EVT_CCNT, 0, 0);

	preempt_disable();
	apmu_kt_add(test, &t->xs.pmu, a);
	apmu_xs_model_cycles(&t->m, 1ULL << 32);	/* CCNT wraps, unheld */
	KUNIT_EXPECT_EQ(test, t->m.flag, BIT(APMU_XS_IDX_CCNT));
	apmu_kt_add(test, &t->xs.pmu, c);
	KUNIT_EXPECT_FALSE(test, apmu_xs_model_irq(&t->m));
	apmu_kt_del(&t->xs.pmu, c);
	apmu_kt_del(&t->xs.pmu, a);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, t->m.violations, 0);
}

/* Every counter taken, then none free; reset leaves nothing enabled, pending or selected */
static void xs2_all_counters_then_reset(struct kunit *test)
{
	struct xs_test *t = xs_setup(test, true);
	struct perf_event *ev[6];
	int i;

	/* allocated first: GFP_KERNEL may sleep, not with preemption off */
	for (i = 0; i < 4; i++)
		ev[i] = apmu_kt_event(test, &t->xs.pmu, APMU_XS_EVT_ICACHE_MISS + i, 0, 0);
	ev[4] = apmu_kt_event(test, &t->xs.pmu, APMU_XS_EVT_CCNT, 0, 0);
	ev[5] = apmu_kt_event(test, &t->xs.pmu, APMU_XS_EVT_BRANCH, 0, 0);
	preempt_disable();
	for (i = 0; i < 4; i++) {
		apmu_kt_add(test, &t->xs.pmu, ev[i]);
		KUNIT_EXPECT_EQ(test, ev[i]->hw.idx, APMU_XS_IDX_PMN(i));
	}
	apmu_kt_add(test, &t->xs.pmu, ev[4]);
	t->xs.pmu.pmu.pmu_disable(&t->xs.pmu.pmu);
	KUNIT_EXPECT_EQ(test, t->xs.pmu.pmu.add(ev[5], PERF_EF_START), -EAGAIN);
	t->xs.pmu.pmu.pmu_enable(&t->xs.pmu.pmu);
	KUNIT_EXPECT_EQ(test, t->m.inten, APMU_XS2_CNT_MASK);
	apmu_xs_model_count(&t->m, APMU_XS_EVT_ICACHE_MISS, APMU_ARM_32BIT);
	for (i = 0; i < 5; i++)
		apmu_kt_del(&t->xs.pmu, ev[i]);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, local64_read(&ev[0]->count), APMU_ARM_32BIT);
	t->xs.pmu.ops->reset(&t->xs.pmu);
	KUNIT_EXPECT_EQ(test, t->m.inten, 0);
	KUNIT_EXPECT_EQ(test, t->m.flag, 0);
	KUNIT_EXPECT_EQ(test, apmu_xs_model_read(APMU_XS_EVTSEL), ~0U);
	KUNIT_EXPECT_FALSE(test, xs_pmnc_e(t));
	KUNIT_EXPECT_EQ(test, t->m.violations, 0);
}

/* The generic and raw events in-tree maps, and the errnos of what XScale cannot do */
#define XS_CACHE(t, op, res)	(C(t) | C(op) << 8 | C(res) << 16)

/* An attribute and what apmu_xscale_map_event() makes of it */
struct xs_map_case {
	const char *desc;
	u32 type;
	u64 config;
	u64 config1;
	int ret;
};

static const struct xs_map_case xs_map_cases[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, APMU_XS_EVT_CCNT },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0,
	  APMU_XS_EVT_INSTRUCTION },
	{ "cache-references: none", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, 0,
	  -ENOENT },
	{ "hardware beyond the last", PERF_TYPE_HARDWARE, PERF_COUNT_HW_MAX, 0, -EINVAL },
	{ "L1-dcache-load-misses", PERF_TYPE_HW_CACHE, XS_CACHE(L1D, OP_READ, RESULT_MISS), 0,
	  APMU_XS_EVT_DCACHE_MISS },
	{ "L1-icache-loads: none", PERF_TYPE_HW_CACHE, XS_CACHE(L1I, OP_READ, RESULT_ACCESS), 0,
	  -ENOENT },
	{ "cache type beyond the last", PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_MAX, 0, -EINVAL },
	{ "raw", PERF_TYPE_RAW, APMU_XS_EVT_DCACHE_MISS, 0, APMU_XS_EVT_DCACHE_MISS },
	{ "raw idle select", PERF_TYPE_RAW, APMU_XS_EVT_UNUSED, 0, -EINVAL },
	{ "raw beyond the event field", PERF_TYPE_RAW, 0x107, 0, -EINVAL },
	{ "config1", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1, -EINVAL },
	{ "software: not ours", PERF_TYPE_SOFTWARE, 0, 0, -ENOENT },
};

static void xs_map_desc(const struct xs_map_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(xs_map, xs_map_cases, xs_map_desc);

static void xs_map_events(struct kunit *test)
{
	const struct xs_map_case *c = test->param_value;
	struct xs_test *t = xs_setup(test, true);
	struct perf_event ev = { .pmu = &t->xs.pmu.pmu };

	ev.attr.type = c->type;
	ev.attr.config = c->config;
	ev.attr.config1 = c->config1;
	KUNIT_EXPECT_EQ(test, apmu_xscale_map_event(&ev), c->ret);
}

/*
 * XScale counts every mode alike: the backend has no set_filter(), so the core registers
 * its PMU with PERF_PMU_CAP_NO_EXCLUDE, and perf core refuses every exclude_* bit (-EINVAL)
 */
static void xs_no_exclude_capability(struct kunit *test)
{
	struct xs_test *t = xs_setup(test, true);

	KUNIT_EXPECT_NULL(test, t->xs.pmu.ops->set_filter);
	KUNIT_EXPECT_TRUE(test, t->xs.pmu.pmu.capabilities & PERF_PMU_CAP_NO_EXCLUDE);
}

static struct kunit_case xs_cases[] = {
	KUNIT_CASE_PARAM(xs_count_across_wraps, xs_layout_gen_params),
	KUNIT_CASE_PARAM(xs_cycles_on_ccnt, xs_layout_gen_params),
	KUNIT_CASE(xs2_add_del_sequence_and_cost),
	KUNIT_CASE_PARAM(xs_del_clears_inten_and_flag, xs_layout_gen_params),
	KUNIT_CASE_PARAM(xs_stopped_event_leaves_e_clear, xs_layout_gen_params),
	KUNIT_CASE(xs2_stale_ccnt_flag_cleared),
	KUNIT_CASE(xs2_all_counters_then_reset),
	KUNIT_CASE_PARAM(xs_map_events, xs_map_gen_params),
	KUNIT_CASE(xs_no_exclude_capability),
	{}
};

static struct kunit_suite xs_suite = {
	.name = "apmu_xscale",
	.init = apmu_kt_init,
	.test_cases = xs_cases,
};

kunit_test_suite(xs_suite);
