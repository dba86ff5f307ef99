// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: perf_event glue. event_init validates everything once; add/del/start/stop/read
 * and the interrupt only touch the current CPU's &struct apmu_cpu and registers.
 */
#include <linux/bitmap.h>
#include <linux/perf_event.h>
#include <linux/perf/arm_pmu.h>
#include <asm/virt.h>

#include "apmu.h"

/* config1 fields, in the in-tree armv8_pmuv3 positions (see format/) */
#define APMU_CFG1_LONG		BIT_ULL(0)
#define APMU_CFG1_RDPMC		BIT_ULL(1)
#define APMU_CFG_EVENT		GENMASK_ULL(15, 0)

static const u16 apmu_hw_map[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES] = APMU_EV_CPU_CYCLES,
	[PERF_COUNT_HW_INSTRUCTIONS] = APMU_EV_INST_RETIRED,
};

static inline u16 apmu_evnum(struct perf_event *event)
{
	return event->hw.config_base & APMU_EVTYPE_EVENT;
}

static inline u64 apmu_counter_mask(struct hw_perf_event *hwc)
{
	return hwc->flags & ARMPMU_EVT_64BIT ? U64_MAX : U32_MAX;
}

/**
 * apmu_event_update() - fold the counter's progress since the last read into the count
 * @event: a counting event on this CPU
 *
 * The subtraction is done at the counter's width, so one wrap between two updates (a
 * 32-bit counter, whose overflow interrupt calls this) still gives the exact delta.
 * Return: the counter value now.
 */
u64 apmu_event_update(struct perf_event *event)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now;

	do {
		prev = local64_read(&hwc->prev_count);
		now = apmu_pmuv3_read_counter(pmu, hwc->idx);
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	local64_add((now - prev) & apmu_counter_mask(hwc), &event->count);
	return now;
}

static void apmu_read(struct perf_event *event)
{
	apmu_event_update(event);
}

static void apmu_start(struct perf_event *event, int flags)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	bool wide = hwc->flags & ARMPMU_EVT_64BIT;

	hwc->state = 0;
	/* Counting from zero: prev_count matches the value written */
	local64_set(&hwc->prev_count, 0);
	apmu_pmuv3_write_counter(pmu, hwc->idx, 0);
	/* A 64-bit counter never wraps in practice; a 32-bit one needs its overflow IRQ */
	apmu_pmuv3_enable(pmu, hwc->idx, hwc->config_base, !wide);
}

static void apmu_stop(struct perf_event *event, int flags)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->state & PERF_HES_STOPPED)
		return;
	apmu_pmuv3_disable(pmu, hwc->idx);
	apmu_event_update(event);
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int apmu_add(struct perf_event *event, int flags)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct apmu_cpu *cpu = this_cpu_ptr(pmu->hw);
	struct hw_perf_event *hwc = &event->hw;
	int idx;

	/* A task event can be scheduled on any CPU; only count on ours */
	if (!cpumask_test_cpu(smp_processor_id(), &pmu->supported_cpus))
		return -ENOENT;

	idx = apmu_pmuv3_get_idx(pmu, cpu->used, apmu_evnum(event));
	if (idx < 0)
		return idx;

	hwc->idx = idx;
	if (apmu_pmuv3_counter_is_64bit(pmu, idx))
		hwc->flags |= ARMPMU_EVT_64BIT;
	else
		hwc->flags &= ~ARMPMU_EVT_64BIT;
	cpu->events[idx] = event;
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
	__clear_bit(hwc->idx, cpu->used);
	hwc->idx = -1;
	perf_event_update_userpage(event);
}

/*
 * PMCR_EL0.E gates every counter at once, so perf's pmu_disable()/pmu_enable() bracket
 * around a group's add makes the group start and stop counting together. The cached PMCR
 * value saves a register read on this path.
 */
static void apmu_pmu_enable(struct pmu *p)
{
	struct apmu_pmu *pmu = to_apmu(p);
	struct apmu_cpu *cpu = this_cpu_ptr(pmu->hw);

	if (bitmap_empty(cpu->used, APMU_NR_IDX))
		return;
	pmu->regs->write(APMU_R_PMCR, 0, cpu->pmcr | APMU_PMCR_E);
}

static void apmu_pmu_disable(struct pmu *p)
{
	struct apmu_pmu *pmu = to_apmu(p);
	struct apmu_cpu *cpu = this_cpu_ptr(pmu->hw);

	pmu->regs->write(APMU_R_PMCR, 0, cpu->pmcr);
}

/**
 * apmu_handle_irq() - PMU overflow interrupt
 * @irq: the interrupt
 * @dev_id: this CPU's &struct apmu_cpu
 *
 * Takes the overflow flags of our counters once (PMOVSCLR) and folds each overflowed
 * counter into its event, which extends 32-bit counters to 64 bits.
 * Return: IRQ_NONE when none of our counters had overflowed.
 */
irqreturn_t apmu_handle_irq(int irq, void *dev_id)
{
	struct apmu_cpu *cpu = dev_id;
	struct apmu_pmu *pmu = cpu->pmu;
	unsigned long ovs;
	unsigned int idx;

	ovs = apmu_pmuv3_take_overflows(pmu, cpu->used);
	if (!ovs)
		return IRQ_NONE;

	for_each_set_bit(idx, &ovs, APMU_NR_IDX) {
		struct perf_event *event = cpu->events[idx];

		if (event)
			apmu_event_update(event);
	}
	return IRQ_HANDLED;
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
	if (leader->pmu == event->pmu &&
	    apmu_pmuv3_get_idx(pmu, used, apmu_evnum(leader)) < 0)
		goto too_big;
	for_each_sibling_event(sibling, leader) {
		if (is_software_event(sibling))
			continue;
		if (sibling->pmu != event->pmu)
			goto spans_pmus;
		if (apmu_pmuv3_get_idx(pmu, used, apmu_evnum(sibling)) < 0)
			goto too_big;
	}
	if (apmu_pmuv3_get_idx(pmu, used, apmu_evnum(event)) < 0)
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

/* Map the perf exclusion flags to PMEVTYPER/PMCCFILTR filter bits. */
static int apmu_event_filter(struct apmu_pmu *pmu, struct perf_event *event, u64 *filt)
{
	struct perf_event_attr *attr = &event->attr;

	*filt = 0;
	if (attr->exclude_user)
		*filt |= APMU_FILT_U;
	if (attr->exclude_kernel)
		*filt |= APMU_FILT_P;
	/*
	 * The kernel runs at EL2 under VHE: counting it then needs NSH; at EL1 it needs only
	 * a clear P. EL2 (a hypervisor) is counted only when the kernel is the hypervisor.
	 */
	if (is_kernel_in_hyp_mode() && !attr->exclude_kernel)
		*filt |= APMU_FILT_NSH;
	return 0;
}

static int apmu_event_init(struct perf_event *event)
{
	struct apmu_pmu *pmu = to_apmu(event->pmu);
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;
	u64 evnum, filt;
	int ret;

	if (attr->type == PERF_TYPE_HARDWARE) {
		/* Also reached with the extended type: perf core has stripped config[63:32] */
		if (attr->config >= PERF_COUNT_HW_MAX || !apmu_hw_map[attr->config])
			return -ENOENT;
		evnum = apmu_hw_map[attr->config];
	} else if (attr->type == PERF_TYPE_RAW || attr->type == event->pmu->type) {
		if (attr->config & ~APMU_CFG_EVENT) {
			dev_dbg(pmu->dev, "config 0x%llx sets bits outside event=config:0-15\n",
				attr->config);
			return -EINVAL;
		}
		evnum = attr->config;
	} else {
		return -ENOENT;
	}

	if (event->cpu >= 0 && !cpumask_test_cpu(event->cpu, &pmu->supported_cpus)) {
		dev_dbg(pmu->dev, "CPU%d is not one of this PMU's CPUs\n", event->cpu);
		return -ENOENT;
	}
	if (attr->config1 & ~(APMU_CFG1_LONG | APMU_CFG1_RDPMC)) {
		dev_dbg(pmu->dev, "config1 0x%llx sets bits outside long/rdpmc\n",
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
	if (attr->config1 & APMU_CFG1_RDPMC) {
		dev_dbg(pmu->dev, "rdpmc user access is not supported yet\n");
		return -EOPNOTSUPP;
	}
	if (is_sampling_event(event)) {
		dev_dbg(pmu->dev, "sampling is not supported yet\n");
		return -EOPNOTSUPP;
	}
	if (has_branch_stack(event)) {
		dev_dbg(pmu->dev, "no branch stack on this PMU\n");
		return -EOPNOTSUPP;
	}

	ret = apmu_event_filter(pmu, event, &filt);
	if (ret)
		return ret;

	hwc->idx = -1;
	hwc->flags = 0;
	hwc->config_base = evnum | filt;

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
		.parent		= pmu->dev,
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
	};
}
