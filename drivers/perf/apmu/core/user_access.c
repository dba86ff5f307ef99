// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: user-space counter reads (rdpmc), the backend-neutral part: when EL0 access is
 * on (apmu.rst, "User-space counter reads").
 */
#define pr_fmt(fmt) "apmu: " fmt

#include <linux/cleanup.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <kunit/visibility.h>

#include "../apmu.h"
#include "../compat.h"

/* kernel.perf_user_access; pmu_enable() reads it first (apmu_hw_enable()) */
int apmu_sysctl_user_access __read_mostly;
EXPORT_SYMBOL_IF_KUNIT(apmu_sysctl_user_access);
/*
 * The instance that granted EL0 access on each CPU, or NULL. Only on its own CPU, IRQs
 * off on the context-switch path (hence the raw __this_cpu accessors).
 */
static DEFINE_PER_CPU(struct apmu_cpu *, apmu_user_cpu);

/* EL0 access off on the calling CPU, if @cpu's instance had granted it. */
static void apmu_user_access_off(struct apmu_cpu *cpu)
{
	if (__this_cpu_read(apmu_user_cpu) != cpu)
		return;
	cpu->pmu->ops->user_access(cpu->pmu, NULL, NULL, false);
	__this_cpu_write(apmu_user_cpu, NULL);
}

/*
 * Does the running task's scheduled-in context hold user-read events (nr_user) of @pmu?
 * @own gets their counters on this CPU. IRQs off on the task's CPU: the context and its
 * RCU event_list stay. Only @pmu's events count: perf brackets only the PMUs of the
 * task's events at switch-out, so access granted for another instance would outlive the
 * task. The answer follows the context, not the counters: a read in flight across a
 * rotation or migration must not fault.
 */
static bool apmu_task_wants_user_access(struct apmu_pmu *pmu, unsigned long *own)
{
	struct perf_event_context *ctx = apmu_compat_task_ctx(current);
	struct perf_event *event;
	bool wants = false;
	int idx;

	if (!ctx || !READ_ONCE(ctx->nr_user) ||
	    !(READ_ONCE(ctx->is_active) & APMU_CTX_SCHEDULED))
		return false;
	list_for_each_entry_rcu(event, &ctx->event_list, event_entry) {
		if (READ_ONCE(event->pmu) != &pmu->pmu ||
		    !(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
			continue;
		wants = true;
		/* on this CPU's counters: hw.idx is only ever set by add() on it */
		idx = READ_ONCE(event->hw.idx);
		if (idx >= 0 && READ_ONCE(event->oncpu) == smp_processor_id())
			__set_bit(idx, own);
	}
	return wants;
}

/**
 * apmu_user_access_update() - set EL0 counter access for the running task
 * @pmu: instance
 * @cpu: this CPU's state
 *
 * From pmu_enable() and apmu_user_event_destroy(), IRQs off. With the sysctl 0 nothing
 * is looked at: apmu_user_access_set() revoked access on every CPU.
 */
void apmu_user_access_update(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	DECLARE_BITMAP(own, APMU_MAX_IDX) = { };
	bool cur;

	if (likely(!READ_ONCE(apmu_sysctl_user_access)) || !pmu->ops->user_access)
		return;
	cur = __this_cpu_read(apmu_user_cpu) == cpu;
	if (!apmu_task_wants_user_access(pmu, own)) {
		if (unlikely(cur))
			apmu_user_access_off(cpu);
		return;
	}
	pmu->ops->user_access(pmu, cpu->used, own, !cur);
	__this_cpu_write(apmu_user_cpu, cpu);
}

/**
 * apmu_user_event_destroy() - an rdpmc event is being freed
 * @event: the event (unused: perf core may have cleared its pmu already)
 *
 * The pmu_enable() that ended the event's removal still counted it in nr_user: re-check
 * the access granted on this CPU, whichever instance granted it.
 */
void apmu_user_event_destroy(struct perf_event *event)
{
	struct apmu_cpu *cpu;

	guard(irqsave)();
	cpu = __this_cpu_read(apmu_user_cpu);
	if (cpu)
		apmu_user_access_update(cpu->pmu, cpu);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_user_event_destroy);

/* @cpu's instance just reset its PMU, EL0 access included: it grants none now. */
void apmu_user_access_reset_cpu(struct apmu_cpu *cpu)
{
	if (this_cpu_read(apmu_user_cpu) == cpu)
		this_cpu_write(apmu_user_cpu, NULL);
}

/**
 * apmu_event_idx() - the arch's rdpmc index of @event's counter (arm64: 32 is PMCCNTR)
 * @event: the event
 *
 * Return: the counter index plus one, or 0 when user space may not read the event.
 */
int apmu_event_idx(struct perf_event *event)
{
	if (!READ_ONCE(apmu_sysctl_user_access) ||
	    !(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT) || event->hw.idx < 0)
		return 0;
	return event->hw.idx + 1;
}

static void apmu_user_access_revoke(void *unused)
{
	struct apmu_cpu *cpu = this_cpu_read(apmu_user_cpu);

	if (cpu)
		apmu_user_access_off(cpu);
}

/**
 * apmu_user_access_set() - the kernel.perf_user_access policy
 * @on: 1 lets tasks read their rdpmc events from EL0
 *
 * Off revokes EL0 access on every CPU at once. Process context.
 */
void apmu_user_access_set(int on)
{
	WRITE_ONCE(apmu_sysctl_user_access, on);
	if (!on)
		on_each_cpu(apmu_user_access_revoke, NULL, 1);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_user_access_set);
