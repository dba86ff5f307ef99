// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: perf_event glue. event_init validates everything once; add/del/start/stop/read
 * and the interrupt only touch the current CPU's &struct apmu_cpu and registers.
 */
#include <linux/bitfield.h>
#include <linux/bitmap.h>
#include <linux/irq_work.h>
#include <linux/perf_event.h>
#include <linux/perf/arm_pmu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/task_stack.h>
#include <kunit/visibility.h>
#include <asm/virt.h>

#include "../apmu.h"
#include "../compat.h"
#include "../pmuv3/regs.h"

/* config1 fields, in the in-tree armv8_pmuv3 positions (see format/) */
#define APMU_CFG1_LONG		BIT_ULL(0)
#define APMU_CFG1_RDPMC		BIT_ULL(1)
#define APMU_CFG1_TH_COUNT	BIT_ULL(2)
#define APMU_CFG1_TH_COMPARE	GENMASK_ULL(4, 3)
#define APMU_CFG1_THRESHOLD	GENMASK_ULL(16, 5)
#define APMU_CFG1_TH_ALL	GENMASK_ULL(16, 2)

static inline bool apmu_chained(struct hw_perf_event *hwc)
{
	return hwc->flags & APMU_HWF_CHAIN;
}

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

/**
 * apmu_event_update() - fold the counter's progress since the last read into the count
 * @event: a counting event on this CPU
 *
 * The subtraction is done at the counter's width, so it is exact while fewer than 2^width
 * events happened since the last update. Every event that can wrap between updates is
 * armed at most half a range before its overflow (APMU_ARM_32BIT, apmu_set_period()) and
 * folded and re-armed by the overflow interrupt, which so has half a range of slack. A
 * sampling event's period_left shrinks by the same amount.
 * Return: the counter value now.
 */
u64 apmu_event_update(struct perf_event *event)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	bool chained = apmu_chained(hwc);
	u64 prev, now, delta;

	do {
		prev = local64_read(&hwc->prev_count);
		now = apmu_pmuv3_read_counter(pmu, hwc->idx, chained);
		now = apmu_counter_value(hwc, now);
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	delta = (now - prev) & apmu_counter_mask(hwc);
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
	return now;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_event_update);

static void apmu_read(struct perf_event *event)
{
	apmu_event_update(event);
}

/**
 * apmu_set_period() - program a sampling event's counter for its next overflow
 * @event: a sampling event on this CPU
 *
 * The counter starts at -left, so it overflows after the rest of the period. At most half
 * the counter's range is used, so a late interrupt still finds the count unambiguous.
 * Return: true when a whole period had elapsed (a sample is due).
 */
static bool apmu_set_period(struct perf_event *event)
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
	apmu_pmuv3_write_counter(pmu, hwc->idx, apmu_chained(hwc),
				 (u64)-left & apmu_counter_mask(hwc));
	perf_event_update_userpage(event);
	return elapsed;
}

/*
 * Arm a counting event's counter. A 32-bit counter starts at half range (APMU_ARM_32BIT)
 * and interrupts at its overflow, 2^31 events later, where the handler folds and re-arms
 * it. A 64-bit counter (PMCCNTR, PMICNTR, LP event counters, a CHAIN pair) starts at 0:
 * at 5 GHz it reaches 2^63 after 58 years, so it needs no interrupt.
 */
static void apmu_arm_counting(struct apmu_pmu *pmu, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 start = hwc->flags & ARMPMU_EVT_64BIT ? 0 : APMU_ARM_32BIT;

	local64_set(&hwc->prev_count, apmu_counter_value(hwc, start));
	apmu_pmuv3_write_counter(pmu, hwc->idx, apmu_chained(hwc), start);
}

static void apmu_start(struct perf_event *event, int flags)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	bool wide = hwc->flags & ARMPMU_EVT_64BIT;

	hwc->state = 0;
	if (is_sampling_event(event)) {
		apmu_set_period(event);
		hwc->flags |= APMU_HWF_IRQ;
		apmu_pmuv3_enable(pmu, hwc->idx, apmu_chained(hwc), hwc->config_base, true);
		return;
	}
	apmu_arm_counting(pmu, event);
	if (wide)
		hwc->flags &= ~APMU_HWF_IRQ;
	else
		hwc->flags |= APMU_HWF_IRQ;
	apmu_pmuv3_enable(pmu, hwc->idx, apmu_chained(hwc), hwc->config_base, !wide);
}

static void apmu_stop(struct perf_event *event, int flags)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	/*
	 * An interrupt-raising counter also gets PMINTENCLR and PMOVSCLR, so no stale flag
	 * interrupts the next user; so does a pair, whose even half flags its 32-bit wraps.
	 */
	if ((hwc->flags & APMU_HWF_IRQ) || apmu_chained(hwc))
		apmu_pmuv3_disable(pmu, hwc->idx, apmu_chained(hwc));
	else
		apmu_pmuv3_disable_counter(pmu, hwc->idx);
	apmu_event_update(event);
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

/*
 * A 64-bit count was asked for (config1 "long"), event counters are only 32-bit and the
 * PMU implements CHAIN (PMCEID bit 0x1e; QEMU does not). Without CHAIN the count is still
 * 64-bit, extended through the overflow interrupt; only a sampling period is then capped
 * at 2^31.
 */
static inline bool apmu_wants_chain(struct apmu_pmu *pmu, struct perf_event *event)
{
	return (event->attr.config1 & APMU_CFG1_LONG) && !pmu->long_evcnt &&
	       test_bit(APMU_EV_CHAIN, pmu->pmceid);
}

/* How apmu_pmuv3_get_idx() must place @event */
static inline unsigned int apmu_idx_flags(struct apmu_pmu *pmu, struct perf_event *event)
{
	unsigned int flags = 0;

	if (apmu_wants_chain(pmu, event))
		flags |= APMU_GET_CHAIN;
	if (event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT)
		flags |= APMU_GET_USER;
	return flags;
}

static int apmu_add(struct perf_event *event, int flags)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct apmu_cpu *cpu = this_cpu_ptr(pmu->hw);
	struct hw_perf_event *hwc = &event->hw;
	bool chained;
	int idx;

	/* A task event can be scheduled on any CPU; only count on ours */
	if (!cpumask_test_cpu(smp_processor_id(), &pmu->supported_cpus))
		return -ENOENT;

	idx = apmu_pmuv3_get_idx(pmu, cpu->used, hwc->config_base, apmu_idx_flags(pmu, event));
	if (idx < 0)
		return idx;

	chained = idx < APMU_MAX_EVCNT && apmu_wants_chain(pmu, event);
	hwc->idx = idx;
	hwc->flags &= ~(ARMPMU_EVT_64BIT | APMU_HWF_CHAIN);
	/* user space reads a single counter: a user-read event never gets a pair */
	if (chained)
		hwc->flags |= APMU_HWF_CHAIN;
	if (apmu_pmuv3_counter_is_64bit(pmu, idx, chained))
		hwc->flags |= ARMPMU_EVT_64BIT;
	cpu->events[idx] = event;
	/* a pair's overflow interrupt comes from its odd counter */
	if (chained)
		cpu->events[idx + 1] = event;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		apmu_start(event, PERF_EF_RELOAD);
	perf_event_update_userpage(event);
	return 0;
}

static void apmu_del(struct perf_event *event, int flags)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct apmu_cpu *cpu = this_cpu_ptr(pmu->hw);
	struct hw_perf_event *hwc = &event->hw;

	apmu_stop(event, PERF_EF_UPDATE);
	cpu->events[hwc->idx] = NULL;
	if (apmu_chained(hwc))
		cpu->events[hwc->idx + 1] = NULL;
	__clear_bit(hwc->idx, cpu->pm_stopped);
	apmu_pmuv3_put_idx(cpu->used, hwc->idx, apmu_chained(hwc));
	hwc->idx = -1;
	perf_event_update_userpage(event);
}

/*
 * QEMU (7.2) computes its PMU interrupt line as PMCR.E && (PMINTEN & PMOVS), but only on
 * PMINTEN/PMOVS writes and overflows, not on a PMCR write: an overflow flag left pending
 * across a bracket in which apmu wrote PMINTENCLR/PMOVSCLR/PMINTENSET of another counter
 * (E clear, so the line went low) is never signalled once E is set again, and that
 * counter's samples stop (seen: 174 samples instead of ~2100 with a 32-bit task event and
 * a hotplug storm on the same CPU). Writing 0 to PMINTENSET, a no-op on hardware, makes
 * QEMU look again. Only on QEMU's PMU (MIDR implementer 0), so hardware pays nothing.
 */
static inline void apmu_irq_resync(struct apmu_pmu *pmu)
{
	if (unlikely(pmu->irq_resync))
		apmu_wr(pmu, APMU_R_PMINTENSET, 0, 0);
}

/*
 * PMCR_EL0.E gates every counter at once, so perf's pmu_disable()/pmu_enable() bracket
 * around a group's add makes the group start and stop counting together. The PMCR value
 * is the PMU's constant, so no register read is needed. pmu_enable() also ends every
 * context switch of a task with events, which is where EL0 access follows the task.
 *
 * The PMEVTYPER, PMEVCNTR and PMCNTENSET writes made while E was clear affect counting
 * only after a Context synchronization event (Arm ARM, "Synchronization requirements for
 * AArch64 System registers"): the ISB before E is set makes every counter start with its
 * new type and value, one barrier for the whole bracket.
 */
static void apmu_hw_enable(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	apmu_user_access_update(pmu, cpu);
	if (bitmap_empty(cpu->used, APMU_NR_IDX))
		return;
	apmu_isb(pmu);
	apmu_wr(pmu, APMU_R_PMCR, 0, pmu->pmcr | APMU_PMCR_E);
	apmu_irq_resync(pmu);
}

/*
 * Every counter stops at once, and the ISB makes that take effect before anything else
 * happens in the bracket: the stop()s that read counters for the last time, and the
 * PMEVTYPER/PMEVCNTR/PMCNTENSET writes of the add()s, which must not let a counter count
 * with its previous type or value. perf core calls stop() only inside a bracket, from
 * apmu's handler or from apmu_cpu_pm_save(), all with E cleared this way (it calls it
 * outside one only for address-filter and AUX events, which apmu has not): so stop()
 * itself needs no barrier. One ISB here and one before E is set, whatever the number of
 * events (Arm ARM, "Synchronization requirements for AArch64 System registers").
 */
static void apmu_hw_disable(struct apmu_pmu *pmu)
{
	apmu_wr(pmu, APMU_R_PMCR, 0, pmu->pmcr);
	apmu_isb(pmu);
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
	apmu_hw_disable(pmu);
}

/* perf core skips this PMU's events on CPUs it does not drive (heterogeneous systems) */
static bool apmu_pmu_filter(struct pmu *p, int cpu)
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
	for_each_set_bit(idx, cpu->used, APMU_NR_IDX) {
		struct perf_event *event = cpu->events[idx];

		/* the odd half of a pair is the same event; a stopped event stays stopped */
		if (!event || event->hw.idx != idx || (event->hw.state & PERF_HES_STOPPED))
			continue;
		apmu_stop(event, PERF_EF_UPDATE);
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
 * ones perf had stopped or throttled).
 */
void apmu_cpu_pm_restore(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	unsigned int idx;

	apmu_pmuv3_reset(pmu);
	apmu_user_access_reset_cpu(pmu);
	for_each_set_bit(idx, cpu->pm_stopped, APMU_NR_IDX) {
		apmu_start(cpu->events[idx], PERF_EF_RELOAD);
		/* re-armed: an rdpmc reader needs the new offset */
		perf_event_update_userpage(cpu->events[idx]);
	}
	bitmap_zero(cpu->pm_stopped, APMU_NR_IDX);
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

/*
 * The registers a sample of @event reports. The overflow interrupt is taken some
 * instructions after the overflow (skid), possibly after the task entered the kernel: an
 * event that excludes the kernel must not hand out a kernel address, so its sample gets
 * the task's user-mode state (the PC where it entered the kernel). With no user context
 * (a kernel thread, a user worker, the idle task) there is nothing to report: NULL, no
 * sample (the period still counts). A CPU-wide event's sample whose skid crossed a
 * context switch is credited to the next task's user PC: the same skid as in-tree.
 */
#ifdef PF_USER_WORKER
#define APMU_NO_USER_STATE	(PF_KTHREAD | PF_IO_WORKER | PF_USER_WORKER)
#else
#define APMU_NO_USER_STATE	(PF_KTHREAD | PF_IO_WORKER)
#endif

static struct pt_regs *apmu_sample_regs(struct perf_event *event, struct pt_regs *regs)
{
	struct pt_regs *uregs;

	if (!event->attr.exclude_kernel || user_mode(regs))
		return regs;
	/* an event counting neither EL1 nor EL0 has no user state to offer either */
	if (event->attr.exclude_user)
		return NULL;
	/* kernel threads and user workers (io_uring, vhost) have no user-mode state */
	if (!current->mm || (current->flags & APMU_NO_USER_STATE))
		return NULL;
	uregs = task_pt_regs(current);
	return user_mode(uregs) ? uregs : NULL;
}

/**
 * apmu_handle_irq() - PMU overflow interrupt
 * @irq: the interrupt
 * @dev_id: the &struct apmu_cpu of the CPU the interrupt belongs to
 *
 * Takes the overflow flags of our counters once (PMOVSCLR). Each overflowed counter is
 * folded into its event; a 32-bit counting counter is re-armed at half range, which
 * extends it to 64 bits exactly; a sampling event gets its next period and, when one
 * elapsed, a sample with the interrupted registers. perf may then ask for the event to
 * stop (throttling, an event limit). The counters are stopped (PMCR.E) meanwhile, so the
 * handler does not count itself. The time spent goes to perf's CPU-time limit, which
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
	struct perf_sample_data data;
	struct pt_regs *sregs;
	unsigned long ovs;
	unsigned int idx;

	if (unlikely(cpu != this_cpu_ptr(pmu->hw)))
		return IRQ_NONE;
	ovs = apmu_pmuv3_take_overflows(pmu, cpu->used);
	if (!ovs)
		return IRQ_NONE;

	apmu_hw_disable(pmu);
	for_each_set_bit(idx, &ovs, APMU_NR_IDX) {
		struct perf_event *event = cpu->events[idx];
		struct hw_perf_event *hwc;

		if (!event)
			continue;
		hwc = &event->hw;
		/* a CHAIN pair overflows through its odd half; the even one only wrapped */
		if (apmu_chained(hwc) && idx == hwc->idx)
			continue;
		apmu_event_update(event);
		if (!is_sampling_event(event)) {
			apmu_arm_counting(pmu, event);
			perf_event_update_userpage(event);
			continue;
		}

		perf_sample_data_init(&data, 0, hwc->last_period);
		if (!apmu_set_period(event))
			continue;
		sregs = apmu_sample_regs(event, regs);
		if (sregs && apmu_event_overflow(event, &data, sregs))
			apmu_stop(event, 0);
	}
	/*
	 * The PMOVSCLR write already took effect at the ISB of apmu_hw_disable(), so the
	 * interrupt request is deasserted before the GIC is told the handler is done (else
	 * it is taken again, for nothing). This ISB puts the re-armed counters' values in
	 * effect before PMCR.E lets them count.
	 */
	apmu_isb(pmu);
	if (!bitmap_empty(cpu->used, APMU_NR_IDX)) {
		apmu_wr(pmu, APMU_R_PMCR, 0, pmu->pmcr | APMU_PMCR_E);
		apmu_irq_resync(pmu);
	}

	/* deliver perf's pending wakeups now rather than at the next tick */
	irq_work_run();
	apmu_sample_took(sched_clock() - start);
	return IRQ_HANDLED;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_handle_irq);

/* Could @event be placed on the counters @used leaves free? Takes them if so. */
static bool apmu_fits(struct apmu_pmu *pmu, unsigned long *used, struct perf_event *event)
{
	return apmu_pmuv3_get_idx(pmu, used, event->hw.config_base,
				  apmu_idx_flags(pmu, event)) >= 0;
}

/* Leader and siblings must fit on the counters together, or the group can never run. */
static int apmu_validate_group(struct perf_event *event)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct perf_event *leader = event->group_leader, *sibling;
	DECLARE_BITMAP(used, APMU_NR_IDX) = { };

	/* A lone event always fits; the leader's siblings are stable only once it has a ctx */
	if (leader == event)
		return 0;
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
	dev_dbg(pmu->dev, "group needs more counters than the %u+1 implemented\n",
		pmu->num_counters);
	return -EINVAL;
}

/*
 * Map the perf exclusion flags to PMEVTYPER/PMCCFILTR filter bits: U (EL0), P (EL1) and
 * NSH (EL2). Which EL the kernel runs at decides what "kernel" and "hypervisor" mean:
 *  - VHE (kernel at EL2): we are the hypervisor, exclude_hv has nothing to act on; the
 *    host kernel is EL2 (NSH), guests' kernels are EL1 (P);
 *  - kernel at EL1: EL2, if implemented, is the hypervisor (NSH), as in-tree.
 *
 * The filters see only the Exception level, not whose code runs there. Telling a guest
 * from the host needs KVM to switch the filters at every guest entry and exit
 * (kvm_set_pmu_events()), which modules cannot reach. So:
 *  - guest-only counting (exclude_host without exclude_guest) is refused;
 *  - excluding both host and guest leaves nothing: the counter is programmed to count at
 *    no Exception level (U and P set, NSH clear; NSU/NSK/M = 0 differ from U/P, so
 *    Non-secure EL0/EL1 and EL3 are excluded too), so it reads 0, as in-tree;
 *  - exclude_guest (perf's default) excludes a guest's EL1 under VHE and nothing else:
 *    a guest's EL0 counts as user time, and without VHE all guest time counts as host
 *    time. Without EL2 (is_hyp_mode_available() false) no guest can run and every flag
 *    is exact. apmu.rst says this.
 */
static int apmu_event_filter(struct apmu_pmu *pmu, struct perf_event *event, u64 *filt)
{
	struct perf_event_attr *attr = &event->attr;
	u64 f = 0;

	if (attr->exclude_idle) {
		dev_dbg(pmu->dev, "exclude_idle: the PMU cannot tell idle from busy\n");
		return -EOPNOTSUPP;
	}
	if (attr->exclude_host && !attr->exclude_guest) {
		dev_dbg(pmu->dev, "guest-only counting needs KVM's filter switching\n");
		return -EOPNOTSUPP;
	}
	if (attr->exclude_host) {
		*filt = APMU_FILT_U | APMU_FILT_P;
		return 0;
	}

	if (attr->exclude_user)
		f |= APMU_FILT_U;
	if (attr->exclude_kernel)
		f |= APMU_FILT_P;

	if (is_kernel_in_hyp_mode()) {
		/* host kernel at EL2; guests' kernels at EL1 */
		if (!attr->exclude_kernel)
			f |= APMU_FILT_NSH;
		if (attr->exclude_guest)
			f |= APMU_FILT_P;
	} else if (!attr->exclude_hv) {
		/* EL2 is the hypervisor; NSH is RES0 where EL2 is not implemented */
		f |= APMU_FILT_NSH;
	}

	*filt = f;
	return 0;
}

/* Threshold counting (FEAT_PMUv3_TH): PMEVTYPER.TH and .TC from the config1 fields. */
static int apmu_event_threshold(struct apmu_pmu *pmu, struct perf_event *event, u64 *th)
{
	u64 cfg1 = event->attr.config1;
	u32 threshold = FIELD_GET(APMU_CFG1_THRESHOLD, cfg1);
	u32 control = FIELD_GET(APMU_CFG1_TH_COMPARE, cfg1) << 1 |
		      FIELD_GET(APMU_CFG1_TH_COUNT, cfg1);

	*th = 0;
	if (!(cfg1 & APMU_CFG1_TH_ALL))
		return 0;
	if (!apmu_threshold_max(pmu)) {
		dev_dbg(pmu->dev, "threshold fields set but PMMIR_EL1.THWIDTH is 0\n");
		return -EINVAL;
	}
	if (!threshold) {
		dev_dbg(pmu->dev, "threshold_compare/threshold_count need a threshold\n");
		return -EINVAL;
	}
	if (threshold > apmu_threshold_max(pmu)) {
		dev_dbg(pmu->dev, "threshold %u above threshold_max %u\n", threshold,
			apmu_threshold_max(pmu));
		return -EINVAL;
	}
	*th = FIELD_PREP(APMU_EVTYPE_TH, threshold) | FIELD_PREP(APMU_EVTYPE_TC, control);
	return 0;
}

static int apmu_event_init(struct perf_event *event)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;
	u64 evnum, filt, th;
	int ret;

	ret = apmu_map_event(pmu, event);
	if (ret < 0)
		return ret;
	evnum = ret;

	if (event->cpu >= 0 && !cpumask_test_cpu(event->cpu, &pmu->supported_cpus)) {
		dev_dbg(pmu->dev, "CPU%d is not one of this PMU's CPUs\n", event->cpu);
		return -ENOENT;
	}
	if (attr->config1 & ~(APMU_CFG1_LONG | APMU_CFG1_RDPMC | APMU_CFG1_TH_ALL)) {
		dev_dbg(pmu->dev, "config1 0x%llx sets bits outside the format/ fields\n",
			attr->config1);
		return -EINVAL;
	}
	if (attr->config2) {
		dev_dbg(pmu->dev, "config2 0x%llx: no config2 field exists\n", attr->config2);
		return -EINVAL;
	}
	if (evnum == APMU_EV_CHAIN) {
		dev_dbg(pmu->dev, "CHAIN (0x1e) only counts as the odd half of a pair\n");
		return -EINVAL;
	}
	if (is_sampling_event(event) && !apmu_can_sample()) {
		dev_dbg(pmu->dev, "sampling needs perf_event_overflow(), unresolved at load\n");
		return -EOPNOTSUPP;
	}
	if (is_sampling_event(event) && !pmu->has_irq) {
		dev_dbg(pmu->dev, "sampling needs the overflow interrupt, absent from the DT\n");
		return -EOPNOTSUPP;
	}
	if (has_branch_stack(event)) {
		dev_dbg(pmu->dev, "no branch stack on this PMU\n");
		return -EOPNOTSUPP;
	}

	ret = apmu_event_filter(pmu, event, &filt);
	if (ret)
		return ret;
	ret = apmu_event_threshold(pmu, event, &th);
	if (ret)
		return ret;

	hwc->idx = -1;
	hwc->flags = 0;
	hwc->config_base = evnum | filt | th;

	/*
	 * rdpmc: user space reads one counter of its own task, so a CHAIN pair (two reads
	 * that can tear) cannot serve it; the cycle counter and long event counters can.
	 */
	if (attr->config1 & APMU_CFG1_RDPMC) {
		if (!(event->attach_state & PERF_ATTACH_TASK)) {
			dev_dbg(pmu->dev, "rdpmc needs a task event, not a CPU-wide one\n");
			return -EINVAL;
		}
		/* only CPU_CYCLES without a threshold can have the 64-bit PMCCNTR */
		if (apmu_wants_chain(pmu, event) && (evnum != APMU_EV_CPU_CYCLES || th)) {
			dev_dbg(pmu->dev, "rdpmc of a 64-bit count needs 64-bit counters\n");
			return -EOPNOTSUPP;
		}
		hwc->flags |= PERF_EVENT_FLAG_USER_READ_CNT;
		event->destroy = apmu_user_event_destroy;
	}

	return apmu_validate_group(event);
}

/**
 * apmu_pmu_init() - fill the perf PMU callbacks of an instance
 * @pmu: instance, with @name and @supported_cpus set
 * @owner: module that holds the code; open events pin it, so rmmod waits for them
 */
void apmu_pmu_init(struct apmu_pmu *pmu, struct module *owner)
{
	pmu->pmu = (struct pmu) {
		.module		= owner,
		.task_ctx_nr	= perf_hw_context,
		.capabilities	= PERF_PMU_CAP_EXTENDED_HW_TYPE,
		.attr_groups	= apmu_attr_groups,
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
