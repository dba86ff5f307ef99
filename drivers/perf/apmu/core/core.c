// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the backend-neutral perf core. event_init validates everything once;
 * add/del/start/stop/read and the interrupt only touch the current CPU's
 * &struct apmu_cpu and, through the backend's &struct apmu_pmu_ops, its counters.
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
 * perf_event_update_userpage() refreshes the event's mmap page (index, offset, times for
 * rdpmc and self-monitoring). An event nobody mmapped (perf stat's, most counting events)
 * has no ring buffer and so no page: the call would only take and drop an RCU read lock
 * to find that out, two out-of-line calls with CONFIG_PREEMPT_RCU, at every add() and
 * del() of a context switch. The pointer is tested first, as the function tests it under
 * its lock; only whether it is NULL is read, nothing is dereferenced. A buffer attached
 * concurrently misses nothing: perf_mmap() updates the page itself right after attaching
 * it, and the function, finding the pointer still NULL, would have skipped as well.
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
	/* an atomic add: PERF_EVENT_IOC_RESET zeroes count from another CPU (see below) */
	local64_add(delta, &event->count);
	local64_set(&hwc->period_left, local64_read(&hwc->period_left) - delta);
	return now;
}

/**
 * apmu_event_update() - fold the counter's progress since the last read into the count
 * @event: a counting event on this CPU
 *
 * The subtraction is done at the counter's width, so it is exact while fewer than 2^width
 * events happened since the last update. Every event that can wrap between updates is
 * armed at most half a range before its overflow (APMU_ARM_32BIT, apmu_set_period()) and
 * folded and re-armed by the overflow interrupt, which so has half a range of slack. A
 * sampling event's period_left shrinks by the same amount.
 *
 * Every caller runs on the event's CPU with IRQs off (perf's read, stop and del, the
 * overflow handler and the fold timer), and apmu's overflow interrupt is an ordinary IRQ,
 * never a pseudo-NMI; perf core writes prev_count and period_left only there too (period
 * changes), so those two are read and written plainly: no compare-and-exchange loop (the
 * in-tree driver has one, for its NMI). count is different: _perf_event_reset()
 * (PERF_EVENT_IOC_RESET) sets it to 0 from the ioctl caller's CPU, so it gets an atomic
 * add, or a reset landing between a read and a write of it would be lost. (A tracing
 * program that reads this event from inside this function, on this CPU, could still see
 * its delta counted twice: privileged and contrived, accepted.)
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
 * The counter starts at -left, so it overflows after the rest of the period. At most half
 * the counter's range is used, so a late interrupt still finds the count unambiguous.
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
 * Arm a counting event's counter. A 32-bit counter starts at half range (APMU_ARM_32BIT)
 * and interrupts at its overflow, 2^31 events later, where the handler folds and re-arms
 * it. A 64-bit counter (on PMUv3: PMCCNTR, PMICNTR, LP event counters, a CHAIN pair)
 * starts at 0: at 5 GHz it reaches 2^63 after 58 years, so it needs no interrupt.
 */
static void apmu_arm_counting(struct apmu_pmu *pmu, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 start = hwc->flags & ARMPMU_EVT_64BIT ? 0 : APMU_ARM_32BIT;

	local64_set(&hwc->prev_count, apmu_counter_value(hwc, start));
	pmu->ops->write_counter(event, start);
}

/*
 * The fold period of a PMU without an overflow interrupt. A 32-bit counter folded and
 * re-armed at half range (APMU_ARM_32BIT) is exact while fewer than 2^32 events happen
 * between two folds (apmu_event_update() subtracts at 32 bits; a user-space reader
 * sign-extends at 32 bits and sees a jump at 2^32 past the arming point). The fastest
 * PMUv3 events count several per cycle (STALL_SLOT counts PMMIR_EL1.SLOTS per cycle;
 * INST_SPEC up to the decode width): take 16 events per cycle at 5 GHz, 8e10 events/s,
 * as the worst case. 20 ms is then at most 1.6e9 events, under 2^31: a fold late by a
 * whole further period (timer slack, a long IRQs-off section, a preempted vCPU) still
 * sees fewer than 2^32. On slower cores the margin is wider (XScale: 0.6 GHz, one
 * event per cycle, 2^31 events after 3.4 s). The cost: 50 hardirq callbacks a second on
 * each CPU with a 32-bit counter running, only on such PMUs.
 */
#define APMU_FOLD_PERIOD_NS	(20 * NSEC_PER_MSEC)

/*
 * A 32-bit counter just started on the calling CPU of a PMU without an overflow
 * interrupt: make sure its fold timer runs. IRQs are off (perf core's add/start, or
 * apmu's own hotplug and CPU PM paths), so the callback cannot run meanwhile; it stops
 * itself once no 32-bit counter runs. Not while the CPU is offline for this instance:
 * a timer started on a dying CPU would be migrated to another (hrtimers_cpu_dying()),
 * where it must not touch this CPU's counters.
 */
static void apmu_fold_start(struct apmu_cpu *cpu)
{
	if (READ_ONCE(cpu->fold_on) && !hrtimer_is_queued(&cpu->fold_timer))
		hrtimer_start(&cpu->fold_timer, ns_to_ktime(APMU_FOLD_PERIOD_NS),
			      HRTIMER_MODE_REL_PINNED_HARD);
}

/* perf's start() of @event, on @cpu: the calling CPU's state */
static __always_inline void apmu_cpu_start(struct apmu_cpu *cpu, struct perf_event *event)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;

	hwc->state = 0;
	__set_bit(hwc->idx, cpu->running);
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

/* perf's stop() of @event, on @cpu: the calling CPU's state */
static __always_inline void apmu_cpu_stop(struct apmu_cpu *cpu, struct perf_event *event)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	pmu->ops->disable(event);
	apmu_fold(event);
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	__clear_bit(hwc->idx, cpu->running);
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
	 * cpu->pm_stopped needs no clearing: it is set only between apmu_cpu_pm_save() and
	 * apmu_cpu_pm_restore(), which clears it, on this CPU with IRQs off throughout
	 * (CPU_PM_ENTER is followed by CPU_PM_EXIT or CPU_PM_ENTER_FAILED; CPU online runs
	 * the two back to back), so no del() runs while a bit is set. The one exception,
	 * cpu_pm_suspend() failing at cpu_cluster_pm_enter() without an exit, leaves bits
	 * behind; restore then only restarts an index in use by its own event.
	 */
	pmu->ops->put_idx(cpu->used, event);
	hwc->idx = -1;
	apmu_update_userpage(event);
}

/*
 * With no counter in use the counters are already stopped: the PMU-wide enable was last
 * set by a start() while some counter was in use, and the bracket that released the last
 * one stopped them at its pmu_disable() and did not start them at its pmu_enable()
 * (apmu_hw_enable()); reset and quiesce leave it clear. So a bracket that begins with
 * nothing in use (a task with events switched in after one without) has nothing to stop,
 * and the add()s in it program counters that cannot count before the start() that ends
 * it. Every del() is inside a bracket (perf's event_sched_out()).
 */
static bool apmu_cpu_idle(struct apmu_cpu *cpu)
{
	return bitmap_empty(cpu->used, APMU_MAX_IDX);
}

/*
 * Does some counter count once the PMU-wide enable is set? Only then is the backend's
 * start() called (its contract): held counters may all be stopped (throttled, or stopped
 * inside perf's bracket), and a PMU-wide enable with nothing to count is left off.
 */
static bool apmu_cpu_running(struct apmu_cpu *cpu)
{
	return !bitmap_empty(cpu->running, APMU_MAX_IDX);
}

/*
 * The PMU-wide enable gates every counter at once, so perf's pmu_disable()/pmu_enable()
 * bracket around a group's add makes the group start and stop counting together.
 * pmu_enable() also ends every context switch of a task with events, which is where EL0
 * access follows the task. The backend's start() puts the bracket's programming in
 * effect before the counters run: one barrier for the whole bracket.
 */
static void apmu_hw_enable(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	if (unlikely(READ_ONCE(apmu_sysctl_user_access)))
		apmu_user_access_update(pmu, cpu);
	if (!apmu_cpu_running(cpu))
		return;
	pmu->ops->start(pmu);
}

/*
 * Every counter stops at once, in effect before anything else happens in the bracket:
 * the stop()s that read counters for the last time, and the add()s' programming, which
 * must not let a counter count with its previous type or value. perf core calls stop()
 * only inside a bracket, from apmu's handler or from apmu_cpu_pm_save(), all with the
 * counters stopped this way (it calls it outside one only for address-filter and AUX
 * events, which apmu has not): so a backend's disable() needs no barrier of its own.
 */
static void apmu_hw_disable(struct apmu_pmu *pmu)
{
	pmu->ops->stop(pmu);
}

/*
 * perf core calls pmu_enable()/pmu_disable() for a task's events on whatever CPU the
 * task runs, also on CPUs of another PMU instance (big.LITTLE) where ::filter keeps the
 * events themselves off: those CPUs' registers belong to the other instance.
 */
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
 * Folds every running counter into its event, so nothing counted is lost when the
 * core powers down. Called with IRQs off on the CPU concerned.
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
 * The registers are UNKNOWN after power-down: reset the PMU as at CPU online, then
 * reprogram and restart exactly the events apmu_cpu_pm_save() stopped (once each, not
 * ones perf had stopped or throttled). A stopped event's counter gets back the value
 * its count was folded at (prev_count): perf still reads it (read() of an active event,
 * an rdpmc reader adding the counter to the user page's offset), and the reset value
 * would count as events that never happened.
 */
void apmu_cpu_pm_restore(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	unsigned int idx;

	pmu->ops->reset(pmu);
	apmu_user_access_reset_cpu(cpu);
	for_each_set_bit(idx, cpu->used, APMU_MAX_IDX) {
		struct perf_event *event = cpu->events[idx];
		struct hw_perf_event *hwc;

		/* the odd half of a pair is the same event */
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
 * perf core's per-CPU context is live before apmu's online callback runs (its hotplug
 * state comes first), so events may already be on the counters: fold them, reset the
 * PMU (stale flags, enables and EL0 access from before the CPU went down, or from
 * firmware), and reprogram them. Called with IRQs off, so nothing is added meanwhile.
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
 * For a CPU going offline (and module unload): with no counter in use, no counter,
 * interrupt, flag or EL0 access is left on. Counters in use keep counting until perf's
 * del() folds them. Called with IRQs off.
 */
void apmu_cpu_quiesce(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	if (!bitmap_empty(cpu->used, APMU_MAX_IDX))
		return;
	pmu->ops->quiesce(pmu);
	apmu_user_access_reset_cpu(cpu);
}

/*
 * Fold and re-arm the running counting events on 32-bit counters of the calling CPU, with
 * the counters stopped meanwhile (as in apmu_handle_irq(), so they stay consistent with
 * each other); 64-bit counters and stopped events need nothing. IRQs off, on the CPU.
 * Returns whether any was folded, i.e. whether the fold timer is still needed.
 */
static bool apmu_fold_cpu(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	bool stopped = false;
	unsigned int idx;

	for_each_set_bit(idx, cpu->used, APMU_MAX_IDX) {
		struct perf_event *event = cpu->events[idx];

		/* only at hw.idx; 64-bit counters and stopped events need nothing */
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
 * What the overflow interrupt does for a counting event, done every
 * %APMU_FOLD_PERIOD_NS instead of at the overflow: with the counters stopped (as in
 * apmu_handle_irq(), so they stay consistent with each other), each running counting
 * event on a 32-bit counter is folded into its count and re-armed at half range, and
 * its user page is refreshed for rdpmc readers. 64-bit counters need no fold. A hardirq
 * timer pinned to its CPU: perf core calls add/del/start/stop/read with IRQs off on the
 * CPU concerned, and apmu's hotplug and CPU PM callbacks run with IRQs off there too, so
 * none of them can be interrupted by it, as with the overflow interrupt (perf core's
 * own multiplexing hrtimer calls into PMUs the same way).
 *
 * Return: HRTIMER_RESTART, one period on, while a 32-bit counter runs on the CPU;
 * HRTIMER_NORESTART when none does (apmu_start() starts the timer again), the CPU is
 * going offline, or the callback runs on another CPU than its own.
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
 * From now on apmu_start() may start the CPU's fold timer. Called with IRQs off, before
 * apmu_cpu_reinit() restarts the events perf core may have put on the counters already.
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
 * The fold timer is cancelled and not started again until apmu_fold_cpu_online(): a
 * pinned hrtimer left queued would be migrated to another CPU at CPU death. Counters
 * still in use count on until perf core's del() folds them, after the teardown of the
 * hotplug states between apmu's and perf's: they are folded and re-armed once more here,
 * so that they have a whole 2^31 events of slack (APMU_FOLD_PERIOD_NS) from now, not
 * what the last tick left. Called from the hotplug callback, in process context on the
 * CPU (the timer cannot then be running elsewhere), IRQs on.
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
 * The registers a sample of @event reports. The overflow interrupt is taken some
 * instructions after the overflow (skid), possibly after the task entered the kernel: an
 * event that excludes the kernel must not hand out a kernel address, so its sample gets
 * the task's user-mode state (the PC where it entered the kernel). With no user context
 * (a kernel thread, a user worker, the idle task) there is nothing to report: NULL, no
 * sample (the period still counts). A CPU-wide event's sample whose skid crossed a
 * context switch is credited to the next task's user PC: the same skid as in-tree.
 */

static struct pt_regs *apmu_sample_regs(struct perf_event *event, struct pt_regs *regs)
{
	struct pt_regs *uregs;

	if (!event->attr.exclude_kernel || user_mode(regs))
		return regs;
	/* an event counting neither EL1 nor EL0 has no user state to offer either */
	if (event->attr.exclude_user)
		return NULL;
	/* kernel threads and user workers (io_uring, vhost) have no user-mode state */
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
 * Takes the overflow flags of our counters once (the backend's take_overflows()). Each
 * overflowed counter that is an event's hw.idx is folded into its event; a 32-bit
 * counting counter is re-armed at half range, which extends it to 64 bits exactly; a
 * sampling event gets its next period and, when one elapsed, a sample with the
 * interrupted registers. perf may then ask for the event to stop (throttling, an event
 * limit). take_overflows() also stops the counters for the handler's time, so it does
 * not count itself. The time spent goes to perf's CPU-time limit, which
 * lowers perf_event_max_sample_rate (and so throttles) when handlers take too much of a
 * CPU.
 * Return: IRQ_NONE when none of our counters had overflowed, or the interrupt arrived on
 * a CPU other than its own (its flags and events are that CPU's).
 */
irqreturn_t apmu_handle_irq(int irq, void *dev_id)
{
	struct apmu_cpu *cpu = dev_id;
	struct apmu_pmu *pmu = cpu->pmu;
	struct pt_regs *regs = get_irq_regs();
	u64 start = sched_clock();
	/*
	 * perf_sample_data_init() sets what perf reads: no 256-byte zeroing per interrupt.
	 * Except addr, which it sets only when non-zero, and which a BPF perf_event program
	 * may read whatever the sample type (bpf_overflow_handler(), ctx->addr): zeroed below.
	 */
	struct perf_sample_data data __uninitialized;
	struct pt_regs *sregs;
	unsigned long ovs;
	unsigned int idx;

	if (unlikely(cpu != this_cpu_ptr(pmu->hw)))
		return IRQ_NONE;
	/* the counters are stopped too, when one of ours had overflowed */
	ovs = pmu->ops->take_overflows(pmu, cpu->used);
	if (!ovs)
		return IRQ_NONE;

	for_each_set_bit(idx, &ovs, APMU_MAX_IDX) {
		struct perf_event *event = cpu->events[idx];
		struct hw_perf_event *hwc;

		if (!event)
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
	 * The flags taken were cleared in effect when take_overflows() stopped the
	 * counters, so the interrupt request is deasserted before the interrupt controller
	 * is told the handler is done (else it is taken again, for nothing); start() puts
	 * the re-armed counters' values in effect before they count.
	 */
	if (apmu_cpu_running(cpu))
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
 * Leader and siblings must fit on the counters together, or the group can never run; a
 * lone event too (as in-tree validate_group() checks the leader first): PMCR.N = 0 with
 * no PMICNTR for INST_RETIRED, `long` on a CHAIN PMU with one event counter, a threshold
 * event with no event counter would otherwise open and never count.
 */
static int apmu_validate_group(struct perf_event *event)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct perf_event *leader = event->group_leader, *sibling;
	DECLARE_BITMAP(used, APMU_MAX_IDX) = { };

	/* the leader's siblings are stable only once it has a ctx: a lone event has none */
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

/*
 * EL0 reads, for an event its backend's set_filter() flagged: offered only by a backend
 * with &apmu_pmu_ops.user_access, and only to a task event (user space reads the
 * counters of its own task).
 */
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
 * in-tree (armpmu_event_init()) where it can be: -ENOENT for a type that is not ours
 * (perf core then asks the next PMU; in-tree would answer a branch stack first), then the
 * CPU (-ENOENT), a branch stack (-EOPNOTSUPP), the backend's map_event() (-ENOENT for a
 * generic event it lacks, -EINVAL for bad config bits), what the core cannot offer, the
 * backend's filters, and EL0 reads (-EOPNOTSUPP without them, then -EINVAL CPU-wide).
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
	/* without set_filter(): PERF_PMU_CAP_NO_EXCLUDE, perf core checks the rest */
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
	/*
	 * Last, once nothing can fail: perf core frees an event whose event_init failed
	 * after clearing its pmu, and still calls a destroy hook left set (6.12.y's
	 * __free_event()). perf core's contract: a failed event_init leaves none.
	 */
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
