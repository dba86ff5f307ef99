/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu KUnit: the PMU fixture of the suites that drive apmu's core over a backend's
 * register model (core_test.c, pmuv3_aarch32_test.c, xscale_test.c), and perf core's
 * calls into it, made the way perf core makes them. Each suite sets up its model and
 * backend instance, then apmu_kt_pmu_start(); everything is undone when the test ends,
 * passed or failed (kunit_add_action()), in reverse order.
 */
#ifndef __APMU_CORE_HARNESS_H__
#define __APMU_CORE_HARNESS_H__

#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/smp.h>

#include "../apmu.h"

/* The fixture's kunit_add_action() callbacks */
static inline void apmu_kt_user_access_restore(void *on)
{
	apmu_user_access_set((long)on);
}

static inline void apmu_kt_user_access_off(void *unused)
{
	apmu_user_access_set(0);
}

static inline void apmu_kt_free_cpus(void *pmu)
{
	free_percpu(((struct apmu_pmu *)pmu)->hw);
}

/*
 * The suites' .init: kernel.perf_user_access is put back as the test found it, after
 * the test's instances are gone.
 */
static inline int apmu_kt_init(struct kunit *test)
{
	long on = READ_ONCE(apmu_sysctl_user_access);

	return kunit_add_action(test, apmu_kt_user_access_restore, (void *)on);
}

/**
 * apmu_kt_pmu_alloc() - the core's per-CPU state of @pmu, on every possible CPU
 * @test: the running test; the state is freed when it ends, after EL0 access any CPU
 *	  may still have for @pmu is revoked
 * @pmu: a backend instance with its ops; with an overflow interrupt, as the VMs' PMUs
 */
static inline void apmu_kt_pmu_alloc(struct kunit *test, struct apmu_pmu *pmu)
{
	pmu->has_irq = true;
	KUNIT_ASSERT_EQ(test, apmu_pmu_alloc_cpus(pmu), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, apmu_kt_free_cpus, pmu), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, apmu_kt_user_access_off, NULL), 0);
	cpumask_copy(&pmu->supported_cpus, cpu_possible_mask);
}

/**
 * apmu_kt_pmu_start() - @pmu probed and reset like a CPU coming online, with perf's
 *			 callbacks, over the model the test selected
 * @test: the running test
 * @pmu: as for apmu_kt_pmu_alloc()
 */
static inline void apmu_kt_pmu_start(struct kunit *test, struct apmu_pmu *pmu)
{
	apmu_kt_pmu_alloc(test, pmu);
	KUNIT_ASSERT_EQ(test, pmu->ops->probe(pmu), 0);
	pmu->ops->reset(pmu);
	apmu_pmu_init(pmu, THIS_MODULE);
}

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

/**
 * apmu_kt_init_lone() - perf core's event_init of a lone @config event of @pmu
 * @test: the running test
 * @pmu: as for apmu_kt_pmu_alloc()
 * @config: attr.config
 * @config1: attr.config1
 * @task: a task event; else CPU-wide on CPU 0
 * @evp: the event, whatever event_init returned
 * Return: what the PMU's event_init returned.
 */
static inline int apmu_kt_init_lone(struct kunit *test, struct apmu_pmu *pmu, u64 config,
				    u64 config1, bool task, struct perf_event **evp)
{
	struct perf_event *ev = apmu_kt_event(test, pmu, 0, config1, 0);

	pmu->pmu.type = 42;
	ev->attr.type = 42;
	ev->attr.config = config;
	ev->attr.exclude_kernel = 1;
	ev->group_leader = ev;
	ev->attach_state = task ? PERF_ATTACH_TASK : 0;
	ev->cpu = task ? -1 : 0;
	*evp = ev;
	return pmu->pmu.event_init(ev);
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
