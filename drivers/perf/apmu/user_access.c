// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: user-space counter reads (rdpmc on arm64: MRS of PMEVCNTR<n>_EL0/PMCCNTR_EL0).
 *
 * Same contract as the in-tree driver: an event opened with config1:1 (rdpmc) by a task
 * gets PERF_EVENT_FLAG_USER_READ_CNT; the arch's arch_perf_update_userpage() then
 * publishes cap_user_rdpmc and pmc_width, and event_idx gives the counter. EL0 access
 * (PMUSERENR_EL0.ER|CR) is on only while the running task's context with such events is
 * scheduled in and the kernel.perf_user_access sysctl is 1; counters nobody uses read 0,
 * and a class of counters holding a CPU-wide event is withheld (see
 * apmu_user_access_allowed() for the one window where it is not).
 *
 * The sysctl belongs to the in-tree driver, whose init registers it; when that init was
 * blacklisted (the only way apmu gets a PMU), apmu registers it with the same meaning.
 */
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/sysctl.h>
#include <kunit/visibility.h>

#include "apmu.h"
#include "regs.h"

static int apmu_sysctl_user_access __read_mostly;
/* PMUSERENR_EL0 of each CPU, as last written by apmu: the EL0 access granted now */
static DEFINE_PER_CPU(u64, apmu_userenr);
static struct ctl_table_header *apmu_sysctl_header;

/* The per-CPU cache mirrors the real PMUSERENR_EL0 only; a register model is its own. */
static u64 apmu_userenr_get(struct apmu_pmu *pmu, int cpu)
{
	if (pmu->regs != &apmu_sysregs)
		return pmu->regs->read(APMU_R_PMUSERENR, 0);
	return per_cpu(apmu_userenr, cpu);
}

static void apmu_write_userenr(const struct apmu_regs *regs, u64 val)
{
	if (regs != &apmu_sysregs) {
		regs->write(APMU_R_PMUSERENR, 0, val);
		return;
	}
	apmu_sysreg_write(APMU_R_PMUSERENR, 0, val);
	this_cpu_write(apmu_userenr, val);
}

/**
 * apmu_user_access_get() - the EL0 counter access granted on the calling CPU
 * @pmu: instance
 *
 * Return: PMUSERENR_EL0 as apmu last set it.
 */
u64 apmu_user_access_get(struct apmu_pmu *pmu)
{
	if (pmu->regs != &apmu_sysregs)
		return pmu->regs->read(APMU_R_PMUSERENR, 0);
	return this_cpu_read(apmu_userenr);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_user_access_get);

/* The PMUSERENR_EL0 bit that lets EL0 read counter @idx: CR for PMCCNTR, else ER. */
static inline u64 apmu_user_class(int idx)
{
	return idx == APMU_IDX_CYCLE ? APMU_USERENR_CR : APMU_USERENR_ER;
}

/*
 * perf core's "events of this context are scheduled in" bits of
 * perf_event_context::is_active (EVENT_FLEXIBLE | EVENT_PINNED, private to
 * kernel/events/core.c). ctx_sched_out() clears them when the task is switched out,
 * before it removes the events in the pmu_disable()/pmu_enable() bracket that ends in
 * apmu's pmu_enable(); multiplexing rotation clears and sets them again inside one
 * bracket, so pmu_enable() never sees them clear for a task that keeps running.
 */
#define APMU_CTX_SCHEDULED	0x3

/*
 * Does the task context @ctx still want EL0 access: scheduled in, with user-read events
 * (perf_event_context::nr_user, which perf core keeps for exactly this; the in-tree
 * driver reads the same two fields through perf_cpu_task_ctx(), which modules cannot
 * call). This is the one place apmu reads perf core's context state; @ctx is the running
 * task's, taken from one of its events (perf_event::ctx), not from task_struct.
 */
static bool apmu_task_ctx_wants_access(struct perf_event_context *ctx)
{
	return (READ_ONCE(ctx->is_active) & APMU_CTX_SCHEDULED) && READ_ONCE(ctx->nr_user);
}

/*
 * EL0 may read what the running task counts, nothing else. PMUSERENR_EL0 grants reads by
 * class only (ER: every event counter, CR: PMCCNTR; PMICNTR is never readable, it would
 * need EN), so a class that holds a counter of a CPU-wide event (perf_event::attach_state
 * without PERF_ATTACH_TASK: only the running task's task events are on the counters) is
 * withheld, and the task's own user-read events of that class publish index 0: perf's
 * user-space read then falls back to read(). Withholding happens where the grant starts
 * (the task's context switched in, or its first rdpmc event enabled), never under the
 * running task: it may be between reading the index and the MRS, which would then fault
 * (SIGILL). So a CPU-wide event that arrives while the task runs stays readable to it
 * until the task is next switched out (on a CPU that never switches, never); see
 * apmu.rst.
 */
static u64 apmu_user_access_allowed(struct apmu_cpu *cpu)
{
	u64 allowed = APMU_USERENR_ER | APMU_USERENR_CR;
	unsigned int idx;

	for_each_set_bit(idx, cpu->used, APMU_IDX_INSTR) {
		struct perf_event *event = cpu->events[idx];

		if (event && !(event->attach_state & PERF_ATTACH_TASK))
			allowed &= ~apmu_user_class(idx);
	}
	return allowed;
}

/* The user-read events of the running task on this CPU publish their (new) index. */
static void apmu_user_access_publish(struct apmu_cpu *cpu)
{
	unsigned int idx;

	for_each_set_bit(idx, cpu->used, APMU_NR_IDX) {
		struct perf_event *event = cpu->events[idx];

		if (event && event->hw.idx == idx &&
		    (event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
			perf_event_update_userpage(event);
	}
}

/**
 * apmu_user_access_update() - set EL0 counter access for the running task
 * @pmu: instance
 * @cpu: this CPU's state
 *
 * Called from pmu_enable() (and when an rdpmc event is freed) with IRQs off. Access is
 * on while the task context whose rdpmc event apmu_add() last placed here is scheduled
 * in and still has rdpmc events, and kernel.perf_user_access is 1, as in-tree: it goes
 * off where perf switches the task out, not when its events merely rotate off the
 * counters (revoking then could make a read in progress fault). While access is on, the
 * counters nobody uses read 0: they may hold another context's counts.
 */
void apmu_user_access_update(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	struct perf_event_context *ctx = cpu->user_ctx;
	u64 cur = apmu_user_access_get(pmu);
	unsigned long unused;
	unsigned int idx;
	u64 mine = 0, val;

	if (likely(!ctx)) {
		if (unlikely(cur))
			apmu_write_userenr(pmu->regs, 0);
		return;
	}
	if (!READ_ONCE(apmu_sysctl_user_access) || !apmu_task_ctx_wants_access(ctx)) {
		cpu->user_ctx = NULL;
		if (cur)
			apmu_write_userenr(pmu->regs, 0);
		return;
	}
	bitmap_to_arr64(&mine, cpu->used, APMU_NR_IDX);
	unused = pmu->cnt_mask & ~mine & ~APMU_CNT_BIT_F0;
	for_each_set_bit(idx, &unused, APMU_NR_IDX)
		apmu_pmuv3_write_counter(pmu, idx, false, 0);
	val = cur | apmu_user_access_allowed(cpu);
	if (val == cur)
		return;
	apmu_write_userenr(pmu->regs, val);
	apmu_user_access_publish(cpu);
}

/**
 * apmu_user_event_destroy() - an rdpmc event is being freed
 * @event: the event
 *
 * perf removes a closed event from its context only after the pmu_enable() that ends its
 * removal, so that pmu_enable() still counts it. Re-evaluate here, where it is gone: a
 * task that closed its last rdpmc event on this CPU loses EL0 access at once. (Closed
 * from elsewhere, the task's access ends at its next context switch.)
 */
void apmu_user_event_destroy(struct perf_event *event)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	unsigned long flags;

	local_irq_save(flags);
	if (cpumask_test_cpu(smp_processor_id(), &pmu->supported_cpus))
		apmu_user_access_update(pmu, this_cpu_ptr(pmu->hw));
	local_irq_restore(flags);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_user_event_destroy);

/* This CPU's PMUSERENR was just reset to 0 by @pmu: forget the cached value. */
void apmu_user_access_reset_cpu(struct apmu_pmu *pmu)
{
	if (pmu->regs == &apmu_sysregs)
		this_cpu_write(apmu_userenr, 0);
}

/**
 * apmu_event_idx() - the counter user space reads for @event, plus one; 0 for none
 * @event: the event
 *
 * Index 32 is PMCCNTR (idx 31). PMICNTR is never handed to user space: tools do not know
 * how to read it, so user-read INST_RETIRED events stay on event counters. 0 while the
 * counter's class is not granted on the event's CPU (see apmu_user_access_allowed()).
 *
 * Return: the counter index plus one, or 0 when user space may not read the event.
 */
int apmu_event_idx(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	int cpu = READ_ONCE(event->oncpu);

	if (!(hwc->flags & PERF_EVENT_FLAG_USER_READ_CNT) || hwc->idx < 0 || cpu < 0)
		return 0;
	if (!(apmu_userenr_get(to_apmu(event->pmu), cpu) & apmu_user_class(hwc->idx)))
		return 0;
	return hwc->idx + 1;
}

static void apmu_user_access_off(void *regs)
{
	apmu_write_userenr(regs, 0);
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
		on_each_cpu(apmu_user_access_off, (void *)&apmu_sysregs, 1);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_user_access_set);

static int apmu_user_access_sysctl(const struct ctl_table *table, int write, void *buffer,
				   size_t *lenp, loff_t *ppos)
{
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (ret || !write)
		return ret;
	apmu_user_access_set(READ_ONCE(apmu_sysctl_user_access));
	return 0;
}

static struct ctl_table apmu_sysctl_table[] = {
	{
		.procname	= "perf_user_access",
		.data		= &apmu_sysctl_user_access,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= apmu_user_access_sysctl,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

/* kernel.perf_user_access, registered once apmu drives a PMU (see the file comment). */
void apmu_user_access_register(void)
{
	if (!apmu_sysctl_header)
		apmu_sysctl_header = register_sysctl("kernel", apmu_sysctl_table);
}

void apmu_user_access_unregister(void)
{
	if (apmu_sysctl_header)
		unregister_sysctl_table(apmu_sysctl_header);
	apmu_sysctl_header = NULL;
}
