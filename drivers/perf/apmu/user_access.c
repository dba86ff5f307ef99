// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: user-space counter reads (rdpmc on arm64: MRS of PMEVCNTR<n>_EL0/PMCCNTR_EL0).
 *
 * Same contract as the in-tree driver: an event opened with config1:1 (rdpmc) by a task
 * gets PERF_EVENT_FLAG_USER_READ_CNT; the arch's arch_perf_update_userpage() then
 * publishes cap_user_rdpmc and pmc_width, and event_idx gives the counter. EL0 access
 * (PMUSERENR_EL0.ER|CR) is on only while the running task's context has such events and
 * the kernel.perf_user_access sysctl is 1; every counter the task does not own is zeroed
 * when access is turned on, so nothing leaks from another context.
 *
 * The sysctl belongs to the in-tree driver, whose init registers it; when that init was
 * blacklisted (the only way apmu gets a PMU), apmu registers it with the same meaning.
 */
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/sysctl.h>

#include "apmu.h"
#include "regs.h"

/*
 * perf_event_context.is_active bits meaning "events scheduled in": EVENT_FLEXIBLE |
 * EVENT_PINNED (EVENT_ALL, private to kernel/events/core.c, stable since v4.x).
 */
#define APMU_CTX_EVENTS_ACTIVE	0x3

static int apmu_sysctl_user_access __read_mostly;
static DEFINE_PER_CPU(u64, apmu_userenr);
static struct ctl_table_header *apmu_sysctl_header;

/* The per-CPU cache mirrors the real PMUSERENR_EL0 only; a register model is written through. */
static void apmu_write_userenr(const struct apmu_regs *regs, u64 val)
{
	if (regs != &apmu_sysregs) {
		regs->write(APMU_R_PMUSERENR, 0, val);
		return;
	}
	if (this_cpu_read(apmu_userenr) == val)
		return;
	apmu_sysreg_write(APMU_R_PMUSERENR, 0, val);
	this_cpu_write(apmu_userenr, val);
}

/*
 * Called from pmu_enable(): IRQs are off, so current's context cannot be freed. The
 * context must also be active: when a task is switched out, perf core clears is_active
 * before it removes the events (and calls pmu_enable() on the way), so access goes off
 * there and the next task, which may have no perf context at all, runs without it. This
 * is what the in-tree driver gets from perf_cpu_task_ctx(), which modules cannot call.
 */
static bool apmu_task_wants_user_access(void)
{
	struct perf_event_context *ctx;

	if (!READ_ONCE(apmu_sysctl_user_access))
		return false;
	ctx = READ_ONCE(current->perf_event_ctxp);
	return ctx && ctx->nr_user && (READ_ONCE(ctx->is_active) & APMU_CTX_EVENTS_ACTIVE);
}

/**
 * apmu_user_access_update() - set EL0 counter access for the running task
 * @pmu: instance
 * @cpu: this CPU's state
 *
 * Zeroes the counters not in use before EL0 may read them: they may hold another
 * context's counts.
 */
void apmu_user_access_update(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	unsigned long unused;
	unsigned int idx;
	u64 mine = 0;

	if (!apmu_task_wants_user_access()) {
		apmu_write_userenr(pmu->regs, 0);
		return;
	}
	bitmap_to_arr64(&mine, cpu->used, APMU_NR_IDX);
	unused = pmu->cnt_mask & ~mine;
	for_each_set_bit(idx, &unused, APMU_NR_IDX)
		apmu_pmuv3_write_counter(pmu, idx, false, 0);
	apmu_write_userenr(pmu->regs, APMU_USERENR_ER | APMU_USERENR_CR);
}

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
 * how to read it, so user-read INST_RETIRED events stay on event counters.
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

static void apmu_user_access_off(void *regs)
{
	apmu_write_userenr(regs, 0);
}

static int apmu_user_access_sysctl(const struct ctl_table *table, int write, void *buffer,
				   size_t *lenp, loff_t *ppos)
{
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (ret || !write || READ_ONCE(apmu_sysctl_user_access))
		return ret;
	/* Turned off: revoke EL0 access everywhere now, not at the next context switch */
	on_each_cpu(apmu_user_access_off, (void *)&apmu_sysregs, 1);
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
