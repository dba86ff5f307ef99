// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for apmu's perf glue (core.c, user_access.c) on the PMUv3 register model:
 * the real add/del/start/stop/read, pmu_enable and overflow handler callbacks, driven
 * the way perf core drives them.
 */
#include <kunit/test.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/perf/arm_pmu.h>
#include <linux/sched.h>

#include "pmuv3_model.h"
#include "core_harness.h"

#define CFG1_LONG	BIT_ULL(0)
#define CFG1_RDPMC	BIT_ULL(1)

struct core_test {
	struct apmu_model m;
	struct apmu_pmuv3 pv;
};

/* @n event counters at @pmuver, probed and reset like a CPU coming online. */
static struct core_test *core_setup(struct kunit *test, unsigned int n, unsigned int pmuver,
				    bool lp)
{
	struct core_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	apmu_model_pmu_init(&t->pv, lp);
	apmu_model_init(&t->m, n, pmuver);
	apmu_model_select(&t->m);
	apmu_kt_pmu_start(test, &t->pv.pmu);
	return t;
}

/*
 * A counting event on a 32-bit counter (PMUv3, no LP) is armed at half range and
 * re-armed by the handler: exact across several wraps, even with the interrupt late and
 * with no context switch ever restarting the counter (a CPU-wide event). Without the
 * re-arm a full 2^32 is lost per wrap.
 */
static void counting_32bit_rearmed_at_half_range(struct kunit *test)
{
	struct core_test *t;
	struct perf_event *ev;
	u64 total = 0, step;
	int i;

	t = core_setup(test, 6, APMU_PMUVER_V3, true);
	ev = apmu_kt_event(test, &t->pv.pmu, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0, 0);
	preempt_disable();
	apmu_kt_add(test, &t->pv.pmu, ev);
	KUNIT_EXPECT_EQ(test, ev->hw.idx, 0);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[0], APMU_ARM_32BIT);
	KUNIT_EXPECT_EQ(test, t->m.inten, BIT(0));
	KUNIT_EXPECT_EQ(test, t->m.pmcr & ARMV8_PMU_PMCR_E, ARMV8_PMU_PMCR_E);

	/* five wraps, the interrupt each time 2^30 events late */
	for (i = 0; i < 5; i++) {
		step = APMU_ARM_32BIT + (1ULL << 30) + i;
		apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, step);
		total += step;
		KUNIT_EXPECT_TRUE(test, apmu_model_irq_pending(&t->m));
		KUNIT_EXPECT_EQ(test, apmu_kt_irq(&t->pv.pmu), IRQ_HANDLED);
		KUNIT_EXPECT_FALSE(test, apmu_model_irq_pending(&t->m));
		/* folded and re-armed at half range */
		KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total);
		KUNIT_EXPECT_EQ(test, t->m.evcntr[0], APMU_ARM_32BIT);
		KUNIT_EXPECT_EQ(test, t->m.pmcr & ARMV8_PMU_PMCR_E, ARMV8_PMU_PMCR_E);
	}
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 12345);
	t->pv.pmu.pmu.read(ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total + 12345);
	/* nothing overflowed: not ours */
	KUNIT_EXPECT_EQ(test, apmu_kt_irq(&t->pv.pmu), IRQ_NONE);
	apmu_kt_del(&t->pv.pmu, ev);
	KUNIT_EXPECT_EQ(test, t->m.cnten, 0);
	KUNIT_EXPECT_EQ(test, t->m.inten, 0);
	KUNIT_EXPECT_EQ(test, t->m.pmcr & ARMV8_PMU_PMCR_E, 0);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
	preempt_enable();
}

/* The same on PMUv3p5 with long_counters=0: a 64-bit register overflowing at 32 bits. */
static void counting_32bit_on_v3p5_without_lp(struct kunit *test)
{
	struct core_test *t;
	struct perf_event *ev;
	u64 total = 0;
	int i;

	t = core_setup(test, 6, APMU_PMUVER_V3P5, false);
	KUNIT_EXPECT_FALSE(test, t->pv.long_evcnt);
	ev = apmu_kt_event(test, &t->pv.pmu, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0, 0);
	preempt_disable();
	apmu_kt_add(test, &t->pv.pmu, ev);
	for (i = 0; i < 3; i++) {
		apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 3ULL << 30);
		total += 3ULL << 30;
		KUNIT_EXPECT_EQ(test, apmu_kt_irq(&t->pv.pmu), IRQ_HANDLED);
		KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total);
	}
	apmu_kt_del(&t->pv.pmu, ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
	preempt_enable();
}

/* The fold timer's callback, as the hrtimer core calls it on this CPU */
static enum hrtimer_restart core_fold(struct core_test *t)
{
	enum hrtimer_restart ret;

	local_irq_disable();
	ret = apmu_fold_timer(&this_cpu_ptr(t->pv.pmu.hw)->fold_timer);
	local_irq_enable();
	return ret;
}

/*
 * A PMU without an overflow interrupt (none in the DT, or apmu_knobs.ko overflow_irq=0):
 * a 32-bit counting event gets no interrupt enable; starting it starts its CPU's fold timer,
 * whose callback folds and re-arms the counter at half range: exact across several
 * 2^32 wraps. A 64-bit counter alone needs no timer, and the callback stops itself
 * once no 32-bit counter runs. Without the fold, each wrap loses 2^32 (shown first).
 */
static void noirq_32bit_folded_by_timer(struct kunit *test)
{
	struct core_test *t;
	struct perf_event *ev, *cyc;
	struct apmu_cpu *cpu;
	u64 total = 0, step;
	int i;

	t = core_setup(test, 6, APMU_PMUVER_V3, true);
	t->pv.pmu.has_irq = false;
	ev = apmu_kt_event(test, &t->pv.pmu, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0, 0);
	cyc = apmu_kt_event(test, &t->pv.pmu, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 0, 0);
	preempt_disable();
	cpu = this_cpu_ptr(t->pv.pmu.hw);
	/* offline for the instance (as after core_setup()): the timer is never started */
	apmu_kt_add(test, &t->pv.pmu, ev);
	KUNIT_EXPECT_FALSE(test, hrtimer_is_queued(&cpu->fold_timer));
	/* no fold: a counter 2^32 + 5 on reads 5 */
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, (1ULL << 32) + 5);
	t->pv.pmu.pmu.read(ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), 5);
	apmu_kt_del(&t->pv.pmu, ev);
	local64_set(&ev->count, 0);

	/* online: a 64-bit counter alone starts no timer; a 32-bit one does, IRQs off */
	local_irq_disable();
	apmu_fold_cpu_online(cpu);
	local_irq_enable();
	apmu_kt_add(test, &t->pv.pmu, cyc);
	KUNIT_EXPECT_FALSE(test, hrtimer_is_queued(&cpu->fold_timer));
	local_irq_disable();
	KUNIT_EXPECT_EQ(test, t->pv.pmu.pmu.add(ev, PERF_EF_START), 0);
	KUNIT_EXPECT_TRUE(test, hrtimer_is_queued(&cpu->fold_timer));
	/* the test calls the callback itself from here on */
	KUNIT_EXPECT_EQ(test, hrtimer_try_to_cancel(&cpu->fold_timer), 1);
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, ev->hw.idx, 0);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[0], APMU_ARM_32BIT);
	KUNIT_EXPECT_EQ(test, t->m.inten, 0);
	KUNIT_EXPECT_EQ(test, t->m.cnten, BIT(0) | APMU_CNT_BIT_C);

	/* five folds, each after 2^31 + 2^30 + i events: every one crosses a 2^32 wrap */
	for (i = 0; i < 5; i++) {
		step = APMU_ARM_32BIT + (1ULL << 30) + i;
		apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, step);
		total += step;
		KUNIT_EXPECT_FALSE(test, apmu_model_irq_pending(&t->m));
		KUNIT_EXPECT_EQ(test, core_fold(t), HRTIMER_RESTART);
		KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total);
		KUNIT_EXPECT_EQ(test, t->m.evcntr[0], APMU_ARM_32BIT);
		KUNIT_EXPECT_EQ(test, t->m.pmcr & ARMV8_PMU_PMCR_E, ARMV8_PMU_PMCR_E);
	}
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 12345);
	t->pv.pmu.pmu.read(ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total + 12345);
	/* a stopped 32-bit event is neither folded nor keeps the timer going */
	t->pv.pmu.pmu.pmu_disable(&t->pv.pmu.pmu);
	t->pv.pmu.pmu.stop(ev, PERF_EF_UPDATE);
	t->pv.pmu.pmu.pmu_enable(&t->pv.pmu.pmu);
	KUNIT_EXPECT_EQ(test, core_fold(t), HRTIMER_NORESTART);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total + 12345);
	apmu_kt_del(&t->pv.pmu, ev);
	total += 12345;

	/*
	 * CPU offline with the timer queued: it is cancelled, the running counter is folded
	 * and re-armed once more (a fresh 2^31 of slack until perf's del()), and a 32-bit
	 * event started meanwhile does not queue the timer again.
	 */
	local_irq_disable();
	KUNIT_EXPECT_EQ(test, t->pv.pmu.pmu.add(ev, PERF_EF_START), 0);
	KUNIT_EXPECT_TRUE(test, hrtimer_is_queued(&cpu->fold_timer));
	local_irq_enable();
	step = APMU_ARM_32BIT + (1ULL << 30);
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, step);
	apmu_fold_cpu_offline(cpu);
	KUNIT_EXPECT_FALSE(test, hrtimer_active(&cpu->fold_timer));
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total + step);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[0], APMU_ARM_32BIT);
	local_irq_disable();
	t->pv.pmu.pmu.pmu_disable(&t->pv.pmu.pmu);
	t->pv.pmu.pmu.stop(ev, PERF_EF_UPDATE);
	t->pv.pmu.pmu.start(ev, PERF_EF_RELOAD);
	t->pv.pmu.pmu.pmu_enable(&t->pv.pmu.pmu);
	KUNIT_EXPECT_FALSE(test, hrtimer_is_queued(&cpu->fold_timer));
	local_irq_enable();
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 7);
	apmu_kt_del(&t->pv.pmu, ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total + step + 7);

	apmu_kt_del(&t->pv.pmu, cyc);
	KUNIT_EXPECT_EQ(test, core_fold(t), HRTIMER_NORESTART);
	KUNIT_EXPECT_EQ(test, t->m.inten, 0);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
	preempt_enable();
	/* nothing left queued before the test's end frees the instance */
	KUNIT_EXPECT_FALSE(test, hrtimer_active(&cpu->fold_timer));
}

/*
 * CPU PM: exactly the events that were running are restarted, once each: not one perf
 * had stopped (throttled), and a CHAIN pair once, with its 64-bit count intact.
 */
static void cpu_pm_restarts_only_running_events(struct kunit *test)
{
	struct core_test *t;
	struct perf_event *pair, *stopped;
	struct apmu_cpu *cpu;
	u64 stopped_count;

	t = core_setup(test, 6, APMU_PMUVER_V3, true);
	__set_bit(ARMV8_PMUV3_PERFCTR_CHAIN, t->pv.pmceid);
	pair = apmu_kt_event(test, &t->pv.pmu, ARMV8_PMUV3_PERFCTR_INST_RETIRED, CFG1_LONG, 0);
	stopped = apmu_kt_event(test, &t->pv.pmu, ARMV8_PMUV3_PERFCTR_STALL_FRONTEND, 0, 0);
	preempt_disable();
	cpu = this_cpu_ptr(t->pv.pmu.hw);
	apmu_kt_add(test, &t->pv.pmu, pair);
	apmu_kt_add(test, &t->pv.pmu, stopped);
	KUNIT_EXPECT_EQ(test, pair->hw.idx, 1);
	KUNIT_EXPECT_EQ(test, stopped->hw.idx, 2);
	KUNIT_EXPECT_EQ(test, t->m.cnten, BIT(0) | BIT(1) | BIT(2));
	t->pv.pmu.pmu.stop(stopped, PERF_EF_UPDATE);	/* perf throttles it */
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 5ULL << 32 | 7);

	apmu_cpu_pm_save(&t->pv.pmu, cpu);
	KUNIT_EXPECT_EQ(test, local64_read(&pair->count), 5ULL << 32 | 7);
	/* power-down: registers come back as garbage */
	apmu_model_init(&t->m, 6, APMU_PMUVER_V3);
	t->m.evcntr[2] = 0x1234;
	t->m.cnten = BIT(4);
	t->m.writes = 0;
	apmu_cpu_pm_restore(&t->pv.pmu, cpu);
	/* nothing left marked: del() relies on it (it does not clear pm_stopped) */
	KUNIT_EXPECT_TRUE(test, bitmap_empty(cpu->pm_stopped, APMU_MAX_IDX));
	/* the pair again, the stopped event not */
	KUNIT_EXPECT_EQ(test, t->m.cnten, BIT(0) | BIT(1));
	KUNIT_EXPECT_EQ(test, t->m.evtyper[1] & ARMV8_PMU_EVTYPE_EVENT, ARMV8_PMUV3_PERFCTR_CHAIN);
	KUNIT_EXPECT_TRUE(test, stopped->hw.state & PERF_HES_STOPPED);
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 3ULL << 32);
	t->pv.pmu.pmu.read(pair);
	KUNIT_EXPECT_EQ(test, local64_read(&pair->count), 8ULL << 32 | 7);
	/*
	 * perf reads a throttled event (still active): its count was folded at stop(), and
	 * its counter, zeroed by the reset, must not add a phantom delta (or at del())
	 */
	stopped_count = local64_read(&stopped->count);
	t->pv.pmu.pmu.read(stopped);
	KUNIT_EXPECT_EQ(test, local64_read(&stopped->count), stopped_count);
	apmu_kt_del(&t->pv.pmu, stopped);
	KUNIT_EXPECT_EQ(test, local64_read(&stopped->count), stopped_count);
	apmu_kt_del(&t->pv.pmu, pair);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
	preempt_enable();
}

/* A CPU coming online with an event perf already put there keeps it, and its count. */
static void online_reinit_keeps_scheduled_events(struct kunit *test)
{
	struct core_test *t;
	struct perf_event *ev;

	t = core_setup(test, 6, APMU_PMUVER_V3P5, true);
	ev = apmu_kt_event(test, &t->pv.pmu, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 0, 0);
	preempt_disable();
	apmu_kt_add(test, &t->pv.pmu, ev);
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 1000);
	/* stale state from before the CPU went down */
	t->m.ovs = BIT(3);
	t->m.inten |= BIT(3);
	t->m.userenr = ARMV8_PMU_USERENR_ER;
	local_irq_disable();
	apmu_cpu_reinit(&t->pv.pmu, this_cpu_ptr(t->pv.pmu.hw));
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, t->m.ovs, 0);
	KUNIT_EXPECT_EQ(test, t->m.inten, 0);
	KUNIT_EXPECT_EQ(test, t->m.userenr, 0);
	KUNIT_EXPECT_EQ(test, t->m.cnten, APMU_CNT_BIT_C);
	KUNIT_EXPECT_EQ(test, t->m.pmcr & ARMV8_PMU_PMCR_E, ARMV8_PMU_PMCR_E);
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 234);
	apmu_kt_del(&t->pv.pmu, ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), 1234);
	preempt_enable();
}

/*
 * The test thread as a task whose perf context holds one rdpmc event, *@own
 * (INST_RETIRED), with kernel.perf_user_access on. The caller points the thread's
 * perf_event_ctxp at the context only while preemption is off, so perf core never sees
 * it.
 */
static struct perf_event_context *core_task_ctx(struct kunit *test, struct core_test *t,
						struct perf_event **own)
{
	struct perf_event_context *tctx = kunit_kzalloc(test, sizeof(*tctx), GFP_KERNEL);
	struct perf_event *ev;

	KUNIT_ASSERT_NOT_NULL(test, tctx);
	ev = apmu_kt_event(test, &t->pv.pmu, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0, 0);
	ev->hw.flags = PERF_EVENT_FLAG_USER_READ_CNT;
	INIT_LIST_HEAD(&tctx->event_list);
	ev->ctx = tctx;
	list_add_tail(&ev->event_entry, &tctx->event_list);
	tctx->nr_user = 1;
	apmu_user_access_set(1);
	*own = ev;
	return tctx;
}

/*
 * EL0 access (ER and CR) is on while the running task's perf context is scheduled in
 * with rdpmc events, whether or not they are on the counters right now (rotation,
 * migration: a read in progress must not fault); counters nobody uses then read 0; it
 * goes off when the context is switched out, when its last rdpmc event is freed, and
 * with the sysctl.
 */
static void user_access_follows_task_context(struct kunit *test)
{
	const u64 both = ARMV8_PMU_USERENR_ER | ARMV8_PMU_USERENR_CR;
	struct perf_event_context *tctx;
	struct perf_event *own, *other;
	struct core_test *t;

	t = core_setup(test, 6, APMU_PMUVER_V3P5, true);
	tctx = core_task_ctx(test, t, &own);
	other = apmu_kt_event(test, &t->pv.pmu, ARMV8_PMUV3_PERFCTR_STALL_FRONTEND, 0, 0);
	preempt_disable();
	WRITE_ONCE(current->perf_event_ctxp, tctx);

	/* switched in: ER and CR, a stale count in an unused counter zeroed */
	tctx->is_active = 0x3;
	t->m.evcntr[5] = 0xdead;
	apmu_kt_add(test, &t->pv.pmu, own);
	KUNIT_EXPECT_EQ(test, t->m.userenr, both);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[5], 0);
	KUNIT_EXPECT_EQ(test, t->pv.pmu.pmu.event_idx(own), own->hw.idx + 1);
	/* rotated off the counters while the task runs: access stays */
	apmu_kt_del(&t->pv.pmu, own);
	apmu_kt_add(test, &t->pv.pmu, other);
	KUNIT_EXPECT_EQ(test, t->m.userenr, both);
	KUNIT_EXPECT_EQ(test, t->pv.pmu.pmu.event_idx(own), 0);
	/* a counter freed meanwhile reads 0 at the next enable */
	t->m.evcntr[4] = 0xbeef;
	t->pv.pmu.pmu.pmu_disable(&t->pv.pmu.pmu);
	t->pv.pmu.pmu.pmu_enable(&t->pv.pmu.pmu);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[4], 0);
	KUNIT_EXPECT_NE(test, t->m.evcntr[other->hw.idx], 0xbeef);
	apmu_kt_del(&t->pv.pmu, other);

	/* switched out: perf clears is_active, then removes the events */
	apmu_kt_add(test, &t->pv.pmu, own);
	tctx->is_active = 0;
	apmu_kt_del(&t->pv.pmu, own);
	KUNIT_EXPECT_EQ(test, t->m.userenr, 0);

	/* the last rdpmc event closed: gone from the context, access ends at its free */
	tctx->is_active = 0x3;
	apmu_kt_add(test, &t->pv.pmu, own);
	apmu_kt_del(&t->pv.pmu, own);
	KUNIT_EXPECT_EQ(test, t->m.userenr, both);
	tctx->nr_user = 0;
	list_del(&own->event_entry);
	apmu_user_event_destroy(own);
	KUNIT_EXPECT_EQ(test, t->m.userenr, 0);
	tctx->nr_user = 1;
	list_add_tail(&own->event_entry, &tctx->event_list);
	WRITE_ONCE(current->perf_event_ctxp, NULL);
	preempt_enable();

	/* the sysctl off: revoked, and no access and no index after that */
	apmu_user_access_set(0);
	preempt_disable();
	WRITE_ONCE(current->perf_event_ctxp, tctx);
	apmu_kt_add(test, &t->pv.pmu, own);
	KUNIT_EXPECT_EQ(test, t->m.userenr, 0);
	KUNIT_EXPECT_EQ(test, t->pv.pmu.pmu.event_idx(own), 0);
	apmu_kt_del(&t->pv.pmu, own);
	WRITE_ONCE(current->perf_event_ctxp, NULL);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
	preempt_enable();
}

/*
 * FEAT_PMUv3p9: EL0 reads the counters of the task's rdpmc events and the unused ones
 * (zeroed), never another context's counter in use (PMUACR_EL1, PMUSERENR_EL0.UEN; ER|CR
 * keep writes trapped): that one keeps its count and is unreadable. Across a rotation the
 * task's old counter stays readable (as 0) while nobody uses it, not once another
 * context's event takes it. Switching out and the sysctl clear PMUACR. Where EL2 may
 * trap PMUACR the PMU works as before PMUv3p9.
 */
static void user_access_v3p9_per_counter(struct kunit *test)
{
	const u64 uen = ARMV8_PMU_USERENR_ER | ARMV8_PMU_USERENR_CR | APMU_USERENR_UEN;
	const u64 all = 0x8000003fULL;		/* P5-P0 and C of a PMCR.N = 6 PMU */
	struct perf_event *own, *other, *third;
	struct perf_event_context *tctx;
	struct core_test *t;
	int oidx;

	t = core_setup(test, 6, APMU_PMUVER_V3P9, true);
	KUNIT_EXPECT_TRUE(test, t->pv.pmuacr);
	tctx = core_task_ctx(test, t, &own);
	/* another context's (CPU-wide) events */
	other = apmu_kt_event(test, &t->pv.pmu, ARMV8_PMUV3_PERFCTR_STALL_FRONTEND, 0, 0);
	third = apmu_kt_event(test, &t->pv.pmu, ARMV8_PMUV3_PERFCTR_STALL_BACKEND, 0, 0);
	preempt_disable();
	WRITE_ONCE(current->perf_event_ctxp, tctx);
	tctx->is_active = 0x3;

	apmu_kt_add(test, &t->pv.pmu, other);
	t->m.evcntr[other->hw.idx] = 0x5eed;
	t->m.evcntr[5] = 0xdead;
	apmu_kt_add(test, &t->pv.pmu, own);
	oidx = own->hw.idx;
	KUNIT_EXPECT_EQ(test, t->m.userenr, uen);
	KUNIT_EXPECT_EQ(test, t->m.pmuacr, all & ~BIT_ULL(other->hw.idx));
	KUNIT_EXPECT_TRUE(test, apmu_model_el0_can_read(&t->m, oidx));
	KUNIT_EXPECT_FALSE(test, apmu_model_el0_can_read(&t->m, other->hw.idx));
	/* the other context's count stays, unreadable; an unused counter reads 0 */
	KUNIT_EXPECT_EQ(test, t->m.evcntr[other->hw.idx], 0x5eed);
	KUNIT_EXPECT_TRUE(test, apmu_model_el0_can_read(&t->m, 5));
	KUNIT_EXPECT_EQ(test, t->m.evcntr[5], 0);

	/* rotated off (or migrated away): its counter stays readable while free, as 0 */
	t->m.evcntr[oidx] = 0x1234;
	apmu_kt_del(&t->pv.pmu, own);
	t->pv.pmu.pmu.pmu_disable(&t->pv.pmu.pmu);
	t->pv.pmu.pmu.pmu_enable(&t->pv.pmu.pmu);
	KUNIT_EXPECT_TRUE(test, apmu_model_el0_can_read(&t->m, oidx));
	KUNIT_EXPECT_EQ(test, t->m.evcntr[oidx], 0);
	/* another context's event takes that counter: no longer readable */
	apmu_kt_add(test, &t->pv.pmu, third);
	KUNIT_EXPECT_EQ(test, third->hw.idx, oidx);
	KUNIT_EXPECT_FALSE(test, apmu_model_el0_can_read(&t->m, oidx));
	apmu_kt_del(&t->pv.pmu, third);
	apmu_kt_del(&t->pv.pmu, other);

	/* switched out: PMUSERENR and PMUACR cleared */
	apmu_kt_add(test, &t->pv.pmu, own);
	tctx->is_active = 0;
	apmu_kt_del(&t->pv.pmu, own);
	KUNIT_EXPECT_EQ(test, t->m.userenr, 0);
	KUNIT_EXPECT_EQ(test, t->m.pmuacr, 0);
	/* switched in again, then the sysctl off: both cleared on this CPU */
	tctx->is_active = 0x3;
	apmu_kt_add(test, &t->pv.pmu, own);
	KUNIT_EXPECT_NE(test, t->m.pmuacr, 0);
	apmu_user_access_set(0);
	KUNIT_EXPECT_EQ(test, t->m.userenr, 0);
	KUNIT_EXPECT_EQ(test, t->m.pmuacr, 0);
	apmu_kt_del(&t->pv.pmu, own);
	WRITE_ONCE(current->perf_event_ctxp, NULL);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);

	/* EL2 may trap PMUACR_EL1 (and PMICNTR_EL0): neither is touched, as on PMUv3p5 */
	t->m.el2_trap = true;
	t->m.icntr = true;
	KUNIT_ASSERT_EQ(test, t->pv.pmu.ops->probe(&t->pv.pmu), 0);
	KUNIT_EXPECT_FALSE(test, t->pv.pmuacr);
	KUNIT_EXPECT_FALSE(test, t->pv.has_icntr);
	t->pv.pmu.ops->reset(&t->pv.pmu);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

static int core_init_lone(struct kunit *test, struct core_test *t, u64 config, u64 config1,
			  struct perf_event **evp)
{
	return apmu_kt_init_lone(test, &t->pv.pmu, config, config1, true, evp);
}

/*
 * rdpmc's errnos: a CPU-wide event is -EINVAL (the core's check), also where the backend
 * could not serve its shape either (a 64-bit count as a CHAIN pair, -EOPNOTSUPP on a task
 * event); no destroy hook is left behind.
 */
static void rdpmc_errno_order(struct kunit *test)
{
	struct core_test *t = core_setup(test, 6, APMU_PMUVER_V3, true);
	struct apmu_pmu *pmu = &t->pv.pmu;
	struct perf_event *ev;

	t->m.ceid0 |= BIT_ULL(ARMV8_PMUV3_PERFCTR_CHAIN) | BIT_ULL(0x08);
	KUNIT_ASSERT_EQ(test, t->pv.pmu.ops->probe(&t->pv.pmu), 0);
	KUNIT_EXPECT_EQ(test, apmu_kt_init_lone(test, pmu, ARMV8_PMUV3_PERFCTR_INST_RETIRED,
						CFG1_RDPMC | CFG1_LONG, true, &ev), -EOPNOTSUPP);
	KUNIT_EXPECT_NULL(test, ev->destroy);
	KUNIT_EXPECT_EQ(test, apmu_kt_init_lone(test, pmu, ARMV8_PMUV3_PERFCTR_INST_RETIRED,
						CFG1_RDPMC | CFG1_LONG, false, &ev), -EINVAL);
	KUNIT_EXPECT_NULL(test, ev->destroy);
	KUNIT_EXPECT_EQ(test, apmu_kt_init_lone(test, pmu, ARMV8_PMUV3_PERFCTR_INST_RETIRED,
						CFG1_RDPMC, false, &ev), -EINVAL);
	KUNIT_EXPECT_NULL(test, ev->destroy);
	KUNIT_EXPECT_EQ(test, apmu_kt_init_lone(test, pmu, ARMV8_PMUV3_PERFCTR_INST_RETIRED,
						CFG1_RDPMC, true, &ev), 0);
	KUNIT_EXPECT_TRUE(test, ev->destroy == apmu_user_event_destroy);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

/*
 * A lone event that no counter of this PMU can ever take is refused at open (EINVAL, as
 * in-tree validate_group() does for the leader), not left "<not counted>" for good; and
 * an event_init that fails leaves no destroy hook behind: perf core may call it after
 * clearing event->pmu (6.12.y's __free_event()).
 */
static void lone_event_that_never_fits_refused(struct kunit *test)
{
	struct perf_event *ev;
	struct core_test *t;

	/* PMCR.N = 0 (MDCR_EL2.HPMN = 0): only PMCCNTR; no PMICNTR for INST_RETIRED */
	t = core_setup(test, 0, APMU_PMUVER_V3P5, true);
	KUNIT_EXPECT_EQ(test, core_init_lone(test, t, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0, &ev),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, core_init_lone(test, t, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 0, &ev), 0);
	/* rdpmc too, and no destroy hook is left behind by the failure */
	KUNIT_EXPECT_EQ(test, core_init_lone(test, t, ARMV8_PMUV3_PERFCTR_INST_RETIRED,
					     BIT_ULL(1), &ev), -EINVAL);
	KUNIT_EXPECT_NULL(test, ev->destroy);
	/* an rdpmc event that does fit gets it */
	KUNIT_EXPECT_EQ(test, core_init_lone(test, t, ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
					     BIT_ULL(1), &ev), 0);
	KUNIT_EXPECT_TRUE(test, ev->destroy == apmu_user_event_destroy);

	/*
	 * A threshold event on N = 0: PMCCNTR has no threshold fields. arm64 only: this
	 * suite drives the AArch64 view of the backend, which a 32-bit kernel's KUnit build
	 * compiles too; there hw.config_base (unsigned long) cannot hold PMEVTYPER.TH
	 * (bits [43:32]), the threshold is dropped and the event fits PMCCNTR. No 32-bit
	 * kernel runs that view: its backend is the AArch32 one, which offers no threshold
	 * at all (pmuv3_aarch32_test.c, a32_no_threshold).
	 */
	if (IS_ENABLED(CONFIG_ARM64)) {
		t->m.pmmir = FIELD_PREP(APMU_PMMIR_THWIDTH, 4);
		KUNIT_ASSERT_EQ(test, t->pv.pmu.ops->probe(&t->pv.pmu), 0);
		KUNIT_EXPECT_EQ(test, core_init_lone(test, t, ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
						     5ULL << 5, &ev), -EINVAL);
	}

	/* long (a CHAIN pair) with one 32-bit event counter */
	apmu_model_init(&t->m, 1, APMU_PMUVER_V3);
	t->m.ceid0 = BIT_ULL(ARMV8_PMUV3_PERFCTR_CHAIN) | BIT_ULL(0x08);
	KUNIT_ASSERT_EQ(test, t->pv.pmu.ops->probe(&t->pv.pmu), 0);
	KUNIT_EXPECT_EQ(test, core_init_lone(test, t, ARMV8_PMUV3_PERFCTR_INST_RETIRED,
					     CFG1_LONG, &ev), -EINVAL);
	KUNIT_EXPECT_EQ(test, core_init_lone(test, t, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0, &ev),
			0);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

/*
 * Heterogeneous systems: a task whose rdpmc event belongs to instance B runs on a CPU of
 * instance A. A's pmu_enable() there (a CPU-wide event of A scheduled in with the task's
 * pinned group) must not grant EL0 access: nothing revokes it when the task switches out,
 * as perf brackets only the PMUs of the task's own events then. Once the task holds an
 * rdpmc event of A too, A grants, and freeing that event revokes at once, wherever the
 * freed event's own instance is.
 */
static void user_access_only_for_own_instance(struct kunit *test)
{
	const u64 both = ARMV8_PMU_USERENR_ER | ARMV8_PMU_USERENR_CR;
	struct perf_event_context *tctx;
	struct perf_event *on_b, *on_a, *wide;
	struct core_test *a, *b;
	u64 userenr[4];

	b = core_setup(test, 6, APMU_PMUVER_V3P5, true);
	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	/* instance A over the same registers: the CPU this test runs on is A's */
	apmu_model_pmu_init(&a->pv, true);
	apmu_kt_pmu_alloc(test, &a->pv.pmu);
	KUNIT_ASSERT_EQ(test, a->pv.pmu.ops->probe(&a->pv.pmu), 0);
	apmu_pmu_init(&a->pv.pmu, THIS_MODULE);
	cpumask_clear(&b->pv.pmu.supported_cpus);

	tctx = kunit_kzalloc(test, sizeof(*tctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tctx);
	INIT_LIST_HEAD(&tctx->event_list);
	on_b = apmu_kt_event(test, &b->pv.pmu, ARMV8_PMUV3_PERFCTR_INST_RETIRED, BIT_ULL(1), 0);
	on_b->hw.flags = PERF_EVENT_FLAG_USER_READ_CNT;
	on_b->ctx = tctx;
	list_add_tail(&on_b->event_entry, &tctx->event_list);
	on_a = apmu_kt_event(test, &a->pv.pmu, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, BIT_ULL(1), 0);
	on_a->hw.flags = PERF_EVENT_FLAG_USER_READ_CNT;
	on_a->ctx = tctx;
	wide = apmu_kt_event(test, &a->pv.pmu, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0, 0);
	tctx->nr_user = 1;
	tctx->is_active = 0x3;
	apmu_user_access_set(1);
	preempt_disable();
	WRITE_ONCE(current->perf_event_ctxp, tctx);

	/* A's CPU-wide event scheduled in while the task runs: no access for B's event */
	apmu_kt_add(test, &a->pv.pmu, wide);
	userenr[0] = b->m.userenr;

	/* an rdpmc event of A in the task: granted */
	list_add_tail(&on_a->event_entry, &tctx->event_list);
	tctx->nr_user = 2;
	a->pv.pmu.pmu.pmu_disable(&a->pv.pmu.pmu);
	a->pv.pmu.pmu.pmu_enable(&a->pv.pmu.pmu);
	userenr[1] = b->m.userenr;
	/* A's event closed (gone from the context): revoked at its free */
	list_del(&on_a->event_entry);
	tctx->nr_user = 1;
	apmu_user_event_destroy(on_a);
	userenr[2] = b->m.userenr;
	/* B's event freed here, on A's CPU: nothing granted, nothing broken */
	list_del(&on_b->event_entry);
	tctx->nr_user = 0;
	apmu_user_event_destroy(on_b);
	userenr[3] = b->m.userenr;

	apmu_kt_del(&a->pv.pmu, wide);
	WRITE_ONCE(current->perf_event_ctxp, NULL);
	preempt_enable();
	/* checked with preemption on again: a failed expectation allocates */
	KUNIT_EXPECT_EQ(test, userenr[0], 0);
	KUNIT_EXPECT_EQ(test, userenr[1], both);
	KUNIT_EXPECT_EQ(test, userenr[2], 0);
	KUNIT_EXPECT_EQ(test, userenr[3], 0);
	KUNIT_EXPECT_EQ(test, b->m.undef, 0);
}

/* pmu_enable()/pmu_disable() on a CPU of another PMU instance touch nothing */
static void foreign_cpu_untouched(struct kunit *test)
{
	struct core_test *t;

	t = core_setup(test, 6, APMU_PMUVER_V3P5, true);
	preempt_disable();
	cpumask_clear_cpu(smp_processor_id(), &t->pv.pmu.supported_cpus);
	t->m.pmcr |= ARMV8_PMU_PMCR_E;
	t->m.writes = 0;
	t->m.reads = 0;
	t->pv.pmu.pmu.pmu_disable(&t->pv.pmu.pmu);
	t->pv.pmu.pmu.pmu_enable(&t->pv.pmu.pmu);
	KUNIT_EXPECT_EQ(test, t->m.writes, 0);
	KUNIT_EXPECT_EQ(test, t->m.reads, 0);
	KUNIT_EXPECT_TRUE(test, t->pv.pmu.pmu.filter(&t->pv.pmu.pmu, smp_processor_id()));
	preempt_enable();
}

static struct kunit_case apmu_core_cases[] = {
	KUNIT_CASE(counting_32bit_rearmed_at_half_range),
	KUNIT_CASE(counting_32bit_on_v3p5_without_lp),
	KUNIT_CASE(noirq_32bit_folded_by_timer),
	KUNIT_CASE(cpu_pm_restarts_only_running_events),
	KUNIT_CASE(online_reinit_keeps_scheduled_events),
	KUNIT_CASE(user_access_follows_task_context),
	KUNIT_CASE(user_access_v3p9_per_counter),
	KUNIT_CASE(user_access_only_for_own_instance),
	KUNIT_CASE(lone_event_that_never_fits_refused),
	KUNIT_CASE(rdpmc_errno_order),
	KUNIT_CASE(foreign_cpu_untouched),
	{}
};

static struct kunit_suite apmu_core_suite = {
	.name = "apmu_core",
	.init = apmu_kt_init,
	.test_cases = apmu_core_cases,
};

kunit_test_suite(apmu_core_suite);
