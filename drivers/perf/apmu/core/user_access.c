// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: user-space counter reads (rdpmc on arm64: MRS of PMEVCNTR<n>_EL0/PMCCNTR_EL0),
 * the backend-neutral part: when EL0 access is on, and the sysctl.
 *
 * Same contract as the in-tree driver: an event the backend marks for user reads (PMUv3:
 * config1:1, rdpmc, on a task event) gets PERF_EVENT_FLAG_USER_READ_CNT; the arch's
 * arch_perf_update_userpage() then publishes cap_user_rdpmc and pmc_width, and event_idx
 * gives the counter. EL0 access (the backend's &apmu_pmu_ops.user_access; PMUv3:
 * PMUSERENR_EL0.ER|CR) is on only while the running task's context with such events of
 * this instance is scheduled in and the kernel.perf_user_access sysctl is 1, and counters
 * nobody uses then read 0. EL0 access is granted per class (every event counter, or
 * PMCCNTR), not per counter: the counters of CPU-wide events on the same CPU are readable
 * too, as in-tree (apmu.rst says so).
 *
 * The policy, apmu_sysctl_user_access, is the sysctl of the backend with EL0 reads
 * (PMUv3: kernel.perf_user_access, pmuv3/pmu.c), which sets it with apmu_user_access_set().
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
 * The instance's per-CPU state that has EL0 access on each CPU, NULL for none: the
 * access granted now, and whom the sysctl revokes it from. Read and written only on its
 * own CPU; on the context-switch path (pmu_enable(), IRQs off) with the raw __this_cpu
 * accessors, which spare the preempt_count toggling of this_cpu_read().
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
 * Does the running task want EL0 access to @pmu's counters: its perf context is
 * scheduled in and holds user-read events (perf_event_context::nr_user, which perf core
 * keeps for exactly this), one of them @pmu's? The in-tree driver reads the first two
 * fields through perf_cpu_task_ctx(), which modules cannot call; this is the one place
 * apmu reads perf core's context state (apmu_compat_task_ctx() for the field's older
 * shape). Called with IRQs off on the task's own CPU: perf frees a context only after
 * RCU and after switching it out, so it cannot go away here, and the context's
 * event_list is an RCU list whose events are freed after a grace period (IRQs off is a
 * read-side section).
 *
 * Only @pmu's own events count. On a heterogeneous system a task whose rdpmc events are
 * the other instance's, running on a CPU of this one, does not get access here: perf
 * brackets this instance's pmu_enable() while that task runs (a pinned task group moves
 * the CPU-wide events, multiplexing, a CPU-wide install), but not when it is switched
 * out, as perf then brackets the PMUs of the task's own events only; the next task on
 * the CPU would keep reading the counters. A task that holds an rdpmc event of @pmu has
 * @pmu in its context, so @pmu's bracket at its switch-out revokes. The event list is
 * walked only while the sysctl is 1 and the task has user-read events (nr_user).
 *
 * The answer depends on the context, not on which of its events are on the counters
 * right now: perf's user-space read takes the index, then the MRS, and the task may be
 * preempted, migrated or have its events rotated off the counters in between. The MRS
 * must then return some value (which the mmap page's sequence count makes it retry),
 * never fault: access may only go off where the task is switched out.
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
 * Called from pmu_enable() (and when an rdpmc event is freed) with IRQs off. Access is
 * on while kernel.perf_user_access is 1 and the running task wants it for @pmu (see
 * apmu_task_wants_user_access()); while it is on, every counter nobody uses reads 0, as
 * it may hold another context's counts. A backend without EL0 reads has no
 * user_access(), never marks an event for them and never grants.
 *
 * With per-counter access (PMUv3p9) EL0 may read the counters of the task's rdpmc events
 * on this CPU and every counter nobody uses (read as 0), so that a read in flight across
 * a rotation or a migration faults only where another context's event now holds that
 * counter: then its MRS traps (SIGILL), as in-tree, where any rotation or migration
 * does.
 *
 * With the sysctl 0 (the default) nothing is looked at: no CPU has access then, as
 * apmu_user_access_set() revokes it on every CPU right after clearing the sysctl (an
 * IPI, which a CPU here with IRQs off takes right after granting, if it just did).
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
 * perf removes a closed event from its context (and so from nr_user) only after the
 * pmu_enable() that ends its removal, which still counts it. Re-evaluate here, where it
 * is gone, the access granted on this CPU, whichever instance granted it (on a
 * heterogeneous system not necessarily the freed event's): a task that closed its last
 * rdpmc event of that instance loses EL0 access at once on this CPU. (A task whose event
 * another process closed loses it at its next context switch; it can no longer read
 * that event anyway.)
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
 * apmu_event_idx() - the counter user space reads for @event, plus one; 0 for none
 * @event: the event
 *
 * The backend numbers its counters so that this is the arch's rdpmc index (PMUv3 on
 * arm64: 32 is PMCCNTR, idx 31; PMICNTR is never handed to user space, see get_idx()).
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
 * Turned off, EL0 access is revoked on every CPU at once, not at the next context
 * switch. Process context.
 */
void apmu_user_access_set(int on)
{
	WRITE_ONCE(apmu_sysctl_user_access, on);
	if (!on)
		on_each_cpu(apmu_user_access_revoke, NULL, 1);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_user_access_set);
