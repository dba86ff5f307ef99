// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the backend-neutral perf core. event_init validates everything once; the hot
 * paths touch only the current CPU's &struct apmu_cpu and, through the ops, its counters.
 */
#define pr_fmt(fmt) "apmu: " fmt

#include <linux/bitmap.h>
#include <linux/cleanup.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/overflow.h>
#include <linux/perf_event.h>
#include <linux/perf/arm_pmu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/task_stack.h>
#include <kunit/visibility.h>

#include "../apmu.h"
#include "../compat.h"

static inline u64 apmu_counter_mask(struct hw_perf_event *hwc)
{
	return hwc->flags & ARMPMU_EVT_64BIT ? U64_MAX : U32_MAX;
}

/*
 * prev_count holds a 32-bit counter's value sign-extended, as user space sign-extends
 * what it reads (the pmc_width rule of the mmap page): perf core publishes
 * offset = count - prev_count, and the two must agree for rdpmc to add up.
 */
static inline u64 apmu_counter_value(struct hw_perf_event *hwc, u64 raw)
{
	return hwc->flags & ARMPMU_EVT_64BIT ? raw : (u64)(s64)(s32)raw;
}

/*
 * An event nobody mmapped has no page: test the pointer as perf_event_update_userpage()
 * does under RCU, and skip the call. perf_mmap() updates the page itself after attaching.
 */
static __always_inline void apmu_update_userpage(struct perf_event *event)
{
	if (apmu_compat_event_has_rb(event))
		perf_event_update_userpage(event);
}

/* apmu_event_update(), inlined in the hot paths: read, stop (and so del), the handler */
static __always_inline u64 apmu_fold(struct perf_event *event)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now, delta;

	prev = local64_read(&hwc->prev_count);
	now = apmu_counter_value(hwc, pmu->ops->read_counter(event));
	local64_set(&hwc->prev_count, now);

	delta = (now - prev) & apmu_counter_mask(hwc);
	/* atomic: PERF_EVENT_IOC_RESET zeroes count from another CPU */
	local64_add(delta, &event->count);
	local64_set(&hwc->period_left, local64_read(&hwc->period_left) - delta);
	return now;
}

/**
 * apmu_event_update() - fold the counter's progress since the last read into the count
 * @event: a counting event on this CPU
 *
 * The delta is taken at the counter's width: exact while fewer than 2^width events
 * happened since the last update, which arming at half range (APMU_ARM_32BIT) and the
 * overflow interrupt guarantee. A sampling event's period_left shrinks by as much.
 *
 * Context: the event's CPU, IRQs off (perf's read, stop and del, the overflow handler,
 * the fold timer); the overflow interrupt is never a pseudo-NMI. So prev_count and
 * period_left, which perf core also writes only there, need no cmpxchg loop (in-tree
 * has one for its NMI); count is added atomically for PERF_EVENT_IOC_RESET.
 * Return: the counter value now.
 */
u64 apmu_event_update(struct perf_event *event)
{
	return apmu_fold(event);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_event_update);

static void apmu_read(struct perf_event *event)
{
	apmu_fold(event);
}

/**
 * apmu_set_period() - program a sampling event's counter for its next overflow
 * @event: a sampling event on this CPU
 *
 * The counter starts at -left, at most half its range, so a late interrupt still finds
 * the count unambiguous.
 * Return: true when a whole period had elapsed (a sample is due).
 */
static __always_inline bool apmu_set_period(struct perf_event *event)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);
	s64 period = hwc->sample_period;
	u64 max = apmu_counter_mask(hwc) >> 1;
	bool elapsed = false;

	if (unlikely(left <= -period)) {
		/* far behind (e.g. after a frequency change): start a fresh period */
		left = period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
		elapsed = true;
	} else if (unlikely(left <= 0)) {
		left += period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
		elapsed = true;
	}
	if (left > max)
		left = max;

	local64_set(&hwc->prev_count, (u64)-left);
	pmu->ops->write_counter(event, (u64)-left & apmu_counter_mask(hwc));
	apmu_update_userpage(event);
	return elapsed;
}

/*
 * Arm a counting event's counter: a 32-bit one at half range (APMU_ARM_32BIT), folded
 * and re-armed at its overflow; a 64-bit one at 0, needing no interrupt (2^63 events).
 */
static void apmu_arm_counting(struct apmu_pmu *pmu, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 start = hwc->flags & ARMPMU_EVT_64BIT ? 0 : APMU_ARM_32BIT;

	local64_set(&hwc->prev_count, apmu_counter_value(hwc, start));
	pmu->ops->write_counter(event, start);
}

/* Under 2^31 events at the fastest rate assumed (apmu.rst, "Without an overflow interrupt") */
#define APMU_FOLD_PERIOD_NS	(20 * NSEC_PER_MSEC)

/*
 * A 32-bit counter started on a PMU without an overflow interrupt: run the CPU's fold
 * timer. IRQs off, so the callback cannot run meanwhile. Not while the CPU is offline
 * for this instance: the timer would be migrated off a dying CPU (hrtimers_cpu_dying()).
 */
static void apmu_fold_start(struct apmu_cpu *cpu)
{
	if (READ_ONCE(cpu->fold_on) && !hrtimer_is_queued(&cpu->fold_timer))
		hrtimer_start(&cpu->fold_timer, ns_to_ktime(APMU_FOLD_PERIOD_NS),
			      HRTIMER_MODE_REL_PINNED_HARD);
}

static __always_inline void apmu_cpu_start(struct apmu_cpu *cpu, struct perf_event *event)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;

	hwc->state = 0;
	if (is_sampling_event(event)) {
		apmu_set_period(event);
		hwc->flags |= APMU_HWF_IRQ;
	} else {
		apmu_arm_counting(pmu, event);
		if (hwc->flags & ARMPMU_EVT_64BIT) {
			hwc->flags &= ~APMU_HWF_IRQ;
		} else if (likely(pmu->has_irq)) {
			hwc->flags |= APMU_HWF_IRQ;
		} else {
			/* no interrupt to enable: the CPU's fold timer extends the counter */
			hwc->flags &= ~APMU_HWF_IRQ;
			apmu_fold_start(cpu);
		}
	}
	pmu->ops->enable(event);
}

static __always_inline void apmu_cpu_stop(struct apmu_cpu *cpu, struct perf_event *event)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	pmu->ops->disable(event);
	apmu_fold(event);
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static void apmu_start(struct perf_event *event, int flags)
{
	apmu_cpu_start(this_cpu_ptr(to_apmu(event->pmu)->hw), event);
}

static void apmu_stop(struct perf_event *event, int flags)
{
	apmu_cpu_stop(this_cpu_ptr(to_apmu(event->pmu)->hw), event);
}

static int apmu_add(struct perf_event *event, int flags)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct apmu_cpu *cpu = this_cpu_ptr(pmu->hw);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long cflags = 0;
	int idx;

	/* A task event can be scheduled on any CPU; only count on ours */
	if (!cpumask_test_cpu(smp_processor_id(), &pmu->supported_cpus))
		return -ENOENT;

	idx = pmu->ops->get_idx(cpu->used, event, &cflags);
	if (idx < 0)
		return idx;

	hwc->idx = idx;
	hwc->flags = (hwc->flags & ~APMU_HWF_COUNTER) | cflags;
	/* only at hw.idx: a counter the event also takes never reports its overflow */
	cpu->events[idx] = event;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		apmu_cpu_start(cpu, event);
	apmu_update_userpage(event);
	return 0;
}

static void apmu_del(struct perf_event *event, int flags)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct apmu_cpu *cpu = this_cpu_ptr(pmu->hw);
	struct hw_perf_event *hwc = &event->hw;

	apmu_cpu_stop(cpu, event);
	cpu->events[hwc->idx] = NULL;
	/*
	 * pm_stopped needs no clearing: it is set only between apmu_cpu_pm_save() and
	 * apmu_cpu_pm_restore(), on this CPU with IRQs off, so no del() runs meanwhile. A
	 * cpu_pm_suspend() failing without an exit may leave bits; restore then only
	 * restarts an index in use by its own event.
	 */
	pmu->ops->put_idx(cpu->used, event);
	hwc->idx = -1;
	apmu_update_userpage(event);
}

/*
 * With no counter in use the counters are already stopped (the bracket that released
 * the last one stopped them and did not start them again), so a bracket that begins idle
 * has nothing to stop. Every del() is inside a bracket (event_sched_out()).
 */
static bool apmu_cpu_idle(struct apmu_cpu *cpu)
{
	return bitmap_empty(cpu->used, APMU_MAX_IDX);
}

/*
 * Does some event's counter run (held and not stopped)? Walked only for a backend whose
 * PMU-wide enable also runs counters no event runs (&apmu_pmu_ops.start_when_running), so
 * start() and stop(), the per-event hot path, keep no running state of their own.
 */
static noinline bool apmu_cpu_running(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	unsigned int idx;

	for_each_set_bit(idx, cpu->used, pmu->nr_idx)
		if (cpu->events[idx] && !(cpu->events[idx]->hw.state & PERF_HES_STOPPED))
			return true;
	return false;
}

/* May the backend's start() be called now (its contract, &apmu_pmu_ops.start)? */
static __always_inline bool apmu_may_start(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	if (apmu_cpu_idle(cpu))
		return false;
	return !pmu->ops->start_when_running || apmu_cpu_running(pmu, cpu);
}

/*
 * The PMU-wide enable gates every counter, so a group added in one bracket starts and
 * stops together. pmu_enable() also ends every context switch of a task with events,
 * where EL0 access follows the task.
 */
static __always_inline void apmu_hw_enable(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	if (unlikely(READ_ONCE(apmu_sysctl_user_access)))
		apmu_user_access_update(pmu, cpu);
	if (apmu_may_start(pmu, cpu))
		pmu->ops->start(pmu);
}

/*
 * Every counter stops, in effect before the bracket's stop()s read them and its add()s
 * reprogram them. perf core calls stop() only inside a bracket, from the handler or from
 * apmu_cpu_pm_save() (outside one only for address-filter and AUX events, which apmu has
 * not), so a backend's disable() needs no barrier of its own.
 */
static void apmu_hw_disable(struct apmu_pmu *pmu)
{
	pmu->ops->stop(pmu);
}

/* Called on every CPU the task runs on: another instance's CPUs are not ours to touch */
static void apmu_pmu_enable(struct pmu *p)
{
	struct apmu_pmu *pmu = to_apmu(p);

	if (!cpumask_test_cpu(smp_processor_id(), &pmu->supported_cpus))
		return;
	apmu_hw_enable(pmu, this_cpu_ptr(pmu->hw));
}

static void apmu_pmu_disable(struct pmu *p)
{
	struct apmu_pmu *pmu = to_apmu(p);

	if (!cpumask_test_cpu(smp_processor_id(), &pmu->supported_cpus))
		return;
	if (apmu_cpu_idle(this_cpu_ptr(pmu->hw)))
		return;
	apmu_hw_disable(pmu);
}

/* perf core skips this PMU's events on CPUs it does not drive (heterogeneous systems) */
bool apmu_pmu_filter(struct pmu *p, int cpu)
{
	return !cpumask_test_cpu(cpu, &to_apmu(p)->supported_cpus);
}

/**
 * apmu_cpu_pm_save() - a CPU is about to lose its PMU state (CPU_PM_ENTER)
 * @pmu: instance
 * @cpu: the calling CPU's state
 *
 * Folds every running counter into its event. Called with IRQs off on that CPU.
 */
void apmu_cpu_pm_save(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	unsigned int idx;

	apmu_hw_disable(pmu);
	for_each_set_bit(idx, cpu->used, APMU_MAX_IDX) {
		struct perf_event *event = cpu->events[idx];

		/* the odd half of a pair is the same event; a stopped event stays stopped */
		if (!event || event->hw.idx != idx || (event->hw.state & PERF_HES_STOPPED))
			continue;
		apmu_cpu_stop(cpu, event);
		__set_bit(idx, cpu->pm_stopped);
	}
}
EXPORT_SYMBOL_IF_KUNIT(apmu_cpu_pm_save);

/**
 * apmu_cpu_pm_restore() - the PMU came back from a power-down (CPU_PM_EXIT) or the
 * power-down did not happen (CPU_PM_ENTER_FAILED)
 * @pmu: instance
 * @cpu: the calling CPU's state
 *
 * The registers are UNKNOWN after power-down: reset the PMU, restart exactly the events
 * apmu_cpu_pm_save() stopped, and give a stopped event's counter back its folded value
 * (prev_count), which read() and rdpmc readers still use.
 */
void apmu_cpu_pm_restore(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	unsigned int idx;

	pmu->ops->reset(pmu);
	apmu_user_access_reset_cpu(cpu);
	for_each_set_bit(idx, cpu->used, APMU_MAX_IDX) {
		struct perf_event *event = cpu->events[idx];
		struct hw_perf_event *hwc;

		if (!event || event->hw.idx != idx)
			continue;
		hwc = &event->hw;
		if (test_bit(idx, cpu->pm_stopped)) {
			apmu_cpu_start(cpu, event);
			/* re-armed: an rdpmc reader needs the new offset */
			apmu_update_userpage(event);
		} else {
			pmu->ops->write_counter(event, local64_read(&hwc->prev_count) &
						       apmu_counter_mask(hwc));
		}
	}
	bitmap_zero(cpu->pm_stopped, APMU_MAX_IDX);
	apmu_hw_enable(pmu, cpu);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_cpu_pm_restore);

/**
 * apmu_cpu_reinit() - make the calling CPU's PMU match its events (CPU coming online)
 * @pmu: instance
 * @cpu: the calling CPU's state
 *
 * perf core's hotplug state comes before apmu's, so events may already be on the
 * counters: fold them, reset the PMU (stale state from before, or from firmware) and
 * reprogram them. Called with IRQs off.
 */
void apmu_cpu_reinit(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	apmu_cpu_pm_save(pmu, cpu);
	apmu_cpu_pm_restore(pmu, cpu);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_cpu_reinit);

/**
 * apmu_cpu_quiesce() - stop the calling CPU's PMU if nothing is in use on it
 * @pmu: instance
 * @cpu: the calling CPU's state
 *
 * CPU going offline, module unload. Counters in use count on until perf's del() folds
 * them. Called with IRQs off.
 */
void apmu_cpu_quiesce(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	if (!bitmap_empty(cpu->used, APMU_MAX_IDX))
		return;
	pmu->ops->quiesce(pmu);
	apmu_user_access_reset_cpu(cpu);
}

/*
 * Fold and re-arm the running counting events on 32-bit counters of the calling CPU,
 * with the counters stopped meanwhile. IRQs off. Return: whether any was folded (the
 * fold timer is still needed).
 */
static bool apmu_fold_cpu(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	bool stopped = false;
	unsigned int idx;

	for_each_set_bit(idx, cpu->used, APMU_MAX_IDX) {
		struct perf_event *event = cpu->events[idx];

		if (!event || (event->hw.flags & ARMPMU_EVT_64BIT) ||
		    (event->hw.state & PERF_HES_STOPPED) || is_sampling_event(event))
			continue;
		if (!stopped) {
			apmu_hw_disable(pmu);
			stopped = true;
		}
		apmu_event_update(event);
		apmu_arm_counting(pmu, event);
		apmu_update_userpage(event);
	}
	/* the events were in use, and still are: the PMU-wide enable was on */
	if (stopped)
		pmu->ops->start(pmu);
	return stopped;
}

/**
 * apmu_fold_timer() - fold a CPU's 32-bit counters on a PMU without an overflow interrupt
 * @timer: the CPU's &apmu_cpu.fold_timer
 *
 * What the overflow interrupt does for counting events, every %APMU_FOLD_PERIOD_NS.
 * Context: hardirq, pinned to its CPU; perf core and apmu's hotplug and CPU PM paths
 * touch the counters with IRQs off there, so none is interrupted by it.
 * Return: HRTIMER_RESTART while a 32-bit counter runs on the CPU; HRTIMER_NORESTART when
 * none does (apmu_start() starts it again), the CPU is going offline, or the callback
 * runs on another CPU than its own.
 */
enum hrtimer_restart apmu_fold_timer(struct hrtimer *timer)
{
	struct apmu_cpu *cpu = container_of(timer, struct apmu_cpu, fold_timer);
	struct apmu_pmu *pmu = cpu->pmu;

	if (unlikely(cpu != this_cpu_ptr(pmu->hw) || !READ_ONCE(cpu->fold_on)))
		return HRTIMER_NORESTART;
	if (!apmu_fold_cpu(pmu, cpu))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(APMU_FOLD_PERIOD_NS));
	return HRTIMER_RESTART;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_fold_timer);

/**
 * apmu_fold_cpu_online() - the calling CPU comes online for its instance
 * @cpu: its state
 *
 * From now on apmu_start() may start the fold timer. IRQs off, before apmu_cpu_reinit().
 */
void apmu_fold_cpu_online(struct apmu_cpu *cpu)
{
	cpu->fold_on = true;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_fold_cpu_online);

/**
 * apmu_fold_cpu_offline() - the calling CPU goes offline for its instance (or the
 * instance goes away)
 * @cpu: its state
 *
 * Cancels the fold timer until apmu_fold_cpu_online() (a queued pinned hrtimer would be
 * migrated at CPU death), and folds and re-arms the counters still in use once more, so
 * they have a whole half range of slack until perf's del(). Process context on the CPU.
 */
void apmu_fold_cpu_offline(struct apmu_cpu *cpu)
{
	/* first, so neither apmu_start() nor the callback queues it again */
	WRITE_ONCE(cpu->fold_on, false);
	hrtimer_cancel(&cpu->fold_timer);
	if (cpu->pmu->has_irq)
		return;
	guard(irqsave)();
	apmu_fold_cpu(cpu->pmu, cpu);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_fold_cpu_offline);

/*
 * The registers a sample of @event reports. With skid the interrupt may be taken in the
 * kernel: an exclude_kernel event then reports the task's user-mode state, or nothing
 * (NULL, the period still counts) for a thread without one. A CPU-wide event's skid
 * across a context switch credits the next task, as in-tree.
 */
static struct pt_regs *apmu_sample_regs(struct perf_event *event, struct pt_regs *regs)
{
	struct pt_regs *uregs;

	if (!event->attr.exclude_kernel || user_mode(regs))
		return regs;
	/* an event counting neither EL1 nor EL0 has no user state to offer either */
	if (event->attr.exclude_user)
		return NULL;
	if (!current->mm || (current->flags & APMU_COMPAT_NO_USER_STATE))
		return NULL;
	uregs = task_pt_regs(current);
	return user_mode(uregs) ? uregs : NULL;
}

/**
 * apmu_handle_irq() - PMU overflow interrupt
 * @irq: the interrupt
 * @dev_id: the &struct apmu_cpu of the CPU the interrupt belongs to
 *
 * Takes the overflow flags once (take_overflows(), which also stops the counters for the
 * handler's time). Each overflowed event is folded; a 32-bit counting counter is re-armed
 * at half range, a sampling event gets its next period and, when one elapsed, a sample.
 * The time spent goes to perf's CPU-time limit (perf_sample_event_took()).
 * Return: IRQ_NONE when none of our counters had overflowed, or the interrupt arrived on
 * a CPU other than its own.
 */
irqreturn_t apmu_handle_irq(int irq, void *dev_id)
{
	struct apmu_cpu *cpu = dev_id;
	struct apmu_pmu *pmu = cpu->pmu;
	struct pt_regs *regs = get_irq_regs();
	u64 start = sched_clock();
	/* perf_sample_data_init() sets what perf reads; addr (BPF may read it) below */
	struct perf_sample_data data __uninitialized;
	struct pt_regs *sregs;
	unsigned long ovs;
	unsigned int idx;

	if (unlikely(cpu != this_cpu_ptr(pmu->hw)))
		return IRQ_NONE;
	ovs = pmu->ops->take_overflows(pmu, cpu->used);
	if (!ovs)
		return IRQ_NONE;

	for_each_set_bit(idx, &ovs, APMU_MAX_IDX) {
		struct perf_event *event = cpu->events[idx];
		struct hw_perf_event *hwc;

		/* stopped: folded at stop(); only a counter without an enable of its own
		 * (XScale's CCNT, under PMNC.E) can have wrapped since
		 */
		if (!event || (event->hw.state & PERF_HES_STOPPED))
			continue;
		hwc = &event->hw;
		apmu_fold(event);
		if (!is_sampling_event(event)) {
			apmu_arm_counting(pmu, event);
			apmu_update_userpage(event);
			continue;
		}

		perf_sample_data_init(&data, 0, hwc->last_period);
		data.addr = 0;
		if (!apmu_set_period(event))
			continue;
		sregs = apmu_sample_regs(event, regs);
		if (sregs && apmu_event_overflow(event, &data, sregs))
			apmu_cpu_stop(cpu, event);
	}
	/*
	 * The flags were cleared in effect when take_overflows() stopped the counters, so
	 * the request is deasserted before the EOI; start() puts the re-armed values in
	 * effect before they count.
	 */
	if (apmu_may_start(pmu, cpu))
		pmu->ops->start(pmu);

	/* perf's wakeups are irq_work: where no interrupt may run them, run them now */
	if (pmu->run_irq_work)
		irq_work_run();
	apmu_sample_took(sched_clock() - start);
	return IRQ_HANDLED;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_handle_irq);

/* Could @event be placed on the counters @used leaves free? Takes them if so. */
static bool apmu_fits(struct apmu_pmu *pmu, unsigned long *used, struct perf_event *event)
{
	unsigned long flags;

	return pmu->ops->get_idx(used, event, &flags) >= 0;
}

/*
 * Leader and siblings must fit on the counters together, and a lone event too (as
 * in-tree), or an event that can never count would open.
 */
static int apmu_validate_group(struct perf_event *event)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct perf_event *leader = event->group_leader, *sibling;
	DECLARE_BITMAP(used, APMU_MAX_IDX) = { };

	/* a lone event has no ctx yet, so no stable sibling list */
	if (leader == event) {
		if (!apmu_fits(pmu, used, event))
			goto never_fits;
		return 0;
	}
	if (leader->pmu != event->pmu && !is_software_event(leader))
		goto spans_pmus;
	if (leader->pmu == event->pmu && !apmu_fits(pmu, used, leader))
		goto too_big;
	for_each_sibling_event(sibling, leader) {
		if (is_software_event(sibling))
			continue;
		if (sibling->pmu != event->pmu)
			goto spans_pmus;
		if (!apmu_fits(pmu, used, sibling))
			goto too_big;
	}
	if (!apmu_fits(pmu, used, event))
		goto too_big;
	return 0;

spans_pmus:
	dev_dbg(pmu->dev, "group mixes hardware events of two PMUs\n");
	return -EINVAL;
too_big:
	dev_dbg(pmu->dev, "group needs more counters than the %u implemented\n",
		pmu->num_counters + pmu->num_dedicated);
	return -EINVAL;
never_fits:
	dev_dbg(pmu->dev, "no counter of this PMU (%u) can ever take the event\n",
		pmu->num_counters + pmu->num_dedicated);
	return -EINVAL;
}

/* The types perf core offers every PMU (the legacy ones), or this one by its own type */
static bool apmu_type_is_ours(struct perf_event *event)
{
	u32 type = event->attr.type;

	return type == event->pmu->type || type == PERF_TYPE_HARDWARE ||
	       type == PERF_TYPE_HW_CACHE || type == PERF_TYPE_RAW;
}

/* EL0 reads need the backend's user_access(), and a task event (its own counters) */
static int apmu_user_read_ok(struct apmu_pmu *pmu, struct perf_event *event)
{
	if (!pmu->ops->user_access) {
		dev_dbg(pmu->dev, "rdpmc: this PMU has no EL0 counter reads\n");
		return -EOPNOTSUPP;
	}
	if (!(event->attach_state & PERF_ATTACH_TASK)) {
		dev_dbg(pmu->dev, "rdpmc needs a task event, not a CPU-wide one\n");
		return -EINVAL;
	}
	return 0;
}

/*
 * The order of the checks decides the errno of an attribute with several faults, as
 * in-tree where it can: type (-ENOENT, perf core asks the next PMU), CPU (-ENOENT),
 * branch stack (-EOPNOTSUPP), map_event(), what the core cannot offer, set_filter(),
 * EL0 reads (-EOPNOTSUPP, then -EINVAL), the group (-EINVAL).
 */
static int apmu_event_init(struct perf_event *event)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	int ret;

	if (!apmu_type_is_ours(event))
		return -ENOENT;
	if (event->cpu >= 0 && !cpumask_test_cpu(event->cpu, &pmu->supported_cpus)) {
		dev_dbg(pmu->dev, "CPU%d is not one of this PMU's CPUs\n", event->cpu);
		return -ENOENT;
	}
	/* no BRBE here (apmu.rst): the in-tree driver's answer without it */
	if (has_branch_stack(event)) {
		dev_dbg(pmu->dev, "no branch stack on this PMU\n");
		return -EOPNOTSUPP;
	}
	ret = pmu->ops->map_event(event);
	if (ret < 0)
		return ret;

	if (is_sampling_event(event) && !apmu_can_sample()) {
		dev_dbg(pmu->dev, "sampling needs perf_event_overflow(), unresolved at load\n");
		return -EOPNOTSUPP;
	}
	if (is_sampling_event(event) && !pmu->has_irq) {
		dev_dbg(pmu->dev, "sampling needs the overflow interrupt, which this PMU has not\n");
		return -EOPNOTSUPP;
	}

	hwc->idx = -1;
	hwc->flags = 0;
	hwc->config_base = ret;
	if (pmu->ops->set_filter) {
		ret = pmu->ops->set_filter(event);
		if (ret)
			return ret;
	}
	if (hwc->flags & PERF_EVENT_FLAG_USER_READ_CNT) {
		ret = apmu_user_read_ok(pmu, event);
		if (ret)
			return ret;
	}
	ret = apmu_validate_group(event);
	if (ret)
		return ret;
	/* last: perf core may call a failed event's destroy hook after clearing its pmu */
	if (hwc->flags & PERF_EVENT_FLAG_USER_READ_CNT)
		event->destroy = apmu_user_event_destroy;
	return 0;
}

/**
 * apmu_pmu_alloc_cpus() - allocate an instance's per-CPU state
 * @pmu: instance, with @nr_idx set by its backend
 *
 * Return: 0 or -ENOMEM. The caller frees @pmu->hw with free_percpu().
 */
int apmu_pmu_alloc_cpus(struct apmu_pmu *pmu)
{
	struct apmu_cpu *c;
	unsigned int cpu;

	if (WARN_ON(!pmu->nr_idx || pmu->nr_idx > APMU_MAX_IDX))
		return -EINVAL;
	pmu->hw = __alloc_percpu(struct_size(c, events, pmu->nr_idx),
				 __alignof__(struct apmu_cpu));
	if (!pmu->hw)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(pmu->hw, cpu);
		c->pmu = pmu;
		/* used only without an overflow interrupt, unknown yet (apmu_irq_parse()) */
		hrtimer_setup(&c->fold_timer, apmu_fold_timer, CLOCK_MONOTONIC,
			      HRTIMER_MODE_REL_PINNED_HARD);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmu_alloc_cpus);

/**
 * apmu_pmu_init() - fill the perf PMU callbacks of an instance
 * @pmu: instance, with @ops, @attr_groups, @name and @supported_cpus set
 * @owner: module that holds the code; open events pin it, so rmmod waits for them
 *
 * The capabilities follow from the ops: no &apmu_pmu_ops.set_filter, no mode exclusion
 * (PERF_PMU_CAP_NO_EXCLUDE); no &apmu_pmu_ops.user_access, no rdpmc (apmu_event_init()).
 */
void apmu_pmu_init(struct apmu_pmu *pmu, struct module *owner)
{
	int caps = PERF_PMU_CAP_EXTENDED_HW_TYPE;

	/* what the backend leaves out, as in-tree (armpmu_register()) */
	if (!pmu->ops->set_filter)
		caps |= PERF_PMU_CAP_NO_EXCLUDE;
	pmu->pmu = (struct pmu) {
		.module		= owner,
		.task_ctx_nr	= perf_hw_context,
		.capabilities	= caps,
		.attr_groups	= pmu->attr_groups,
		.event_init	= apmu_event_init,
		.add		= apmu_add,
		.del		= apmu_del,
		.start		= apmu_start,
		.stop		= apmu_stop,
		.read		= apmu_read,
		.pmu_enable	= apmu_pmu_enable,
		.pmu_disable	= apmu_pmu_disable,
		.event_idx	= apmu_event_idx,
	};
	apmu_compat_set_parent(&pmu->pmu, pmu->dev);
	apmu_compat_set_filter(&pmu->pmu, apmu_pmu_filter);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pmu_init);

static ssize_t cpus_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct apmu_pmu *pmu = to_apmu(dev_get_drvdata(dev));

	return cpumap_print_to_pagebuf(true, buf, &pmu->supported_cpus);
}
static DEVICE_ATTR_RO(cpus);

static struct attribute *apmu_cpus_attrs[] = {
	&dev_attr_cpus.attr,
	NULL,
};

/* cpus: perf treats a PMU with it as a core PMU and applies its JSON event names */
const struct attribute_group apmu_cpus_group = {
	.attrs = apmu_cpus_attrs,
};
