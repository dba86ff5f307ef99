// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: user-space counter reads (rdpmc on arm64: MRS of PMEVCNTR<n>_EL0/PMCCNTR_EL0).
 *
 * Same contract as the in-tree driver: an event opened with config1:1 (rdpmc) by a task
 * gets PERF_EVENT_FLAG_USER_READ_CNT; the arch's arch_perf_update_userpage() then
 * publishes cap_user_rdpmc and pmc_width, and event_idx gives the counter. EL0 access
 * (PMUSERENR_EL0.ER|CR) is on only while the running task has such events on the counters
 * and the kernel.perf_user_access sysctl is 1; counters nobody uses are zeroed before
 * access is granted, and a class of counters holding someone else's event is withheld
 * (see apmu_user_access_allowed() for the one window where it is not).
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
#include "compat.h"
#include "regs.h"

int apmu_sysctl_user_access __read_mostly;
EXPORT_SYMBOL_IF_KUNIT(apmu_sysctl_user_access);
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
 * EL0 may read what the running task counts, nothing else. PMUSERENR_EL0 grants reads by
 * class only (ER: every event counter, CR: PMCCNTR), so a class that holds a counter of
 * anyone else's event (a CPU-wide event, another task's) is withheld, and the task's own
 * user-read events of that class publish index 0: perf's user-space read then falls back
 * to read(). Withholding happens where the grant starts (the task's events arriving at a
 * context switch or at their first enable), while the task is not running user code.
 * Once granted, a class is never revoked under the running task for someone else's
 * event: the task may be between reading the index and the MRS, which would then fault
 * (SIGILL). Such an event stays readable to the task until it is next switched out; see
 * apmu.rst.
 */
static u64 apmu_user_access_allowed(struct apmu_cpu *cpu)
{
	u64 allowed = APMU_USERENR_ER | APMU_USERENR_CR;
	unsigned int idx;

	for_each_set_bit(idx, cpu->used, APMU_NR_IDX) {
		struct perf_event *event = cpu->events[idx];

		if (event && event->hw.target != current)
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
 * Called from pmu_enable() with IRQs off. Access is on while user-read (rdpmc) events are
 * on this CPU's counters and kernel.perf_user_access is 1: such events are task events,
 * on the counters only while their task's context is scheduled in, so they are the
 * running task's (perf removes them, inside a pmu_disable()/pmu_enable() bracket, when
 * the task is switched out or the event closes, and access goes off right there). Before
 * a class is granted, the counters nobody uses are zeroed: they may hold another
 * context's counts.
 */
void apmu_user_access_update(struct apmu_pmu *pmu, struct apmu_cpu *cpu)
{
	u64 cur = apmu_user_access_get(pmu);
	unsigned long unused;
	unsigned int idx;
	u64 mine = 0, val;

	if (likely(!cpu->nr_user) || !READ_ONCE(apmu_sysctl_user_access)) {
		if (unlikely(cur))
			apmu_write_userenr(pmu->regs, 0);
		return;
	}
	val = cur | apmu_user_access_allowed(cpu);
	if (val == cur)
		return;
	bitmap_to_arr64(&mine, cpu->used, APMU_NR_IDX);
	unused = pmu->cnt_mask & ~mine;
	for_each_set_bit(idx, &unused, APMU_NR_IDX)
		apmu_pmuv3_write_counter(pmu, idx, false, 0);
	apmu_write_userenr(pmu->regs, val);
	apmu_user_access_publish(cpu);
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

static int apmu_user_access_sysctl(APMU_CTL_CONST struct ctl_table *table, int write,
				   void *buffer, size_t *lenp, loff_t *ppos)
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
	APMU_CTL_TABLE_END
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
