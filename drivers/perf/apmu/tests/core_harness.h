/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu KUnit: perf core's calls into a PMU instance, made the way perf core makes them,
 * for the suites that drive apmu's core over a backend's register model (core_test.c,
 * pmuv3_aarch32_test.c, xscale_test.c). Each suite keeps its own setup (its model).
 */
#ifndef __APMU_CORE_HARNESS_H__
#define __APMU_CORE_HARNESS_H__

#include <kunit/test.h>
#include <linux/interrupt.h>
#include <linux/perf_event.h>
#include <linux/smp.h>

#include "../apmu.h"

/* A perf_event as event_init leaves it on @pmu: counting unless @period */
static inline struct perf_event *apmu_kt_event(struct kunit *test, struct apmu_pmu *pmu,
					       u64 config_base, u64 config1, u64 period)
{
	struct perf_event *ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ev);
	ev->pmu = &pmu->pmu;
	ev->state = PERF_EVENT_STATE_ACTIVE;
	ev->oncpu = -1;
	ev->attr.config1 = config1;
	ev->attr.sample_period = period;
	ev->hw.idx = -1;
	ev->hw.config_base = config_base;
	ev->hw.sample_period = period;
	ev->hw.last_period = period;
	local64_set(&ev->hw.period_left, period);
	return ev;
}

/* perf core's add with start, inside a pmu_disable()/pmu_enable() bracket */
static inline void apmu_kt_add(struct kunit *test, struct apmu_pmu *pmu, struct perf_event *ev)
{
	pmu->pmu.pmu_disable(&pmu->pmu);
	KUNIT_EXPECT_EQ(test, pmu->pmu.add(ev, PERF_EF_START), 0);
	ev->oncpu = smp_processor_id();
	pmu->pmu.pmu_enable(&pmu->pmu);
}

/* perf core's del, inside a bracket */
static inline void apmu_kt_del(struct apmu_pmu *pmu, struct perf_event *ev)
{
	pmu->pmu.pmu_disable(&pmu->pmu);
	pmu->pmu.del(ev, PERF_EF_UPDATE);
	ev->oncpu = -1;
	pmu->pmu.pmu_enable(&pmu->pmu);
}

/* The overflow interrupt, as the IRQ core calls it on this CPU */
static inline irqreturn_t apmu_kt_irq(struct apmu_pmu *pmu)
{
	irqreturn_t ret;

	local_irq_disable();
	ret = apmu_handle_irq(0, this_cpu_ptr(pmu->hw));
	local_irq_enable();
	return ret;
}

#endif /* __APMU_CORE_HARNESS_H__ */
