// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the PMU across CPU hotplug and CPU power-down (CPU PM), for every instance: the
 * framework half of the in-tree arm_pmu.c (arm_perf_starting_cpu(), cpu_pm_pmu_notify()).
 */
#define pr_fmt(fmt) "apmu: " fmt

#include <linux/cleanup.h>
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/smp.h>

#include "../apmu.h"
#include "../compat.h"

static enum cpuhp_state apmu_hp_state;

/*
 * Modules' CPUHP_AP_ONLINE_DYN comes after perf core's CPUHP_AP_PERF_ONLINE: events may
 * already be on the counters, so the PMU is made to match them (IRQs off), not reset,
 * and only then is the interrupt enabled (without one, the fold timer allowed first).
 */
static int apmu_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct apmu_pmu *pmu = hlist_entry_safe(node, struct apmu_pmu, node);

	if (!cpumask_test_cpu(cpu, &pmu->supported_cpus))
		return 0;
	/* AP hotplug states run on the CPU coming up: these are its own registers */
	scoped_guard(irqsave) {
		apmu_fold_cpu_online(this_cpu_ptr(pmu->hw));
		apmu_cpu_reinit(pmu, this_cpu_ptr(pmu->hw));
	}
	apmu_irq_cpu_online(pmu, cpu);
	return 0;
}

/*
 * Going down, before perf core removes the CPU's events: counters in use count on until
 * del() folds them (half-range arming leaves the slack); only the interrupt or fold
 * timer goes now. A CPU with nothing in use is quiesced.
 */
static int apmu_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct apmu_pmu *pmu = hlist_entry_safe(node, struct apmu_pmu, node);

	if (!cpumask_test_cpu(cpu, &pmu->supported_cpus))
		return 0;
	apmu_irq_cpu_offline(pmu, cpu);
	/* and the fold timer of a PMU without one, which must not outlive the CPU */
	apmu_fold_cpu_offline(this_cpu_ptr(pmu->hw));
	scoped_guard(irqsave)
		apmu_cpu_quiesce(pmu, this_cpu_ptr(pmu->hw));
	return 0;
}

/*
 * Idle states that power the core down lose the PMU registers: save the counts on the
 * way down, reprogram on the way up. Runs on the CPU concerned with IRQs off.
 */
static int apmu_cpu_pm_notify(struct notifier_block *nb, unsigned long cmd, void *v)
{
	struct apmu_pmu *pmu = container_of(nb, struct apmu_pmu, cpu_pm_nb);
	struct apmu_cpu *cpu = this_cpu_ptr(pmu->hw);

	if (!cpumask_test_cpu(smp_processor_id(), &pmu->supported_cpus))
		return NOTIFY_DONE;
	if (bitmap_empty(cpu->used, APMU_MAX_IDX) && cmd == CPU_PM_ENTER)
		return NOTIFY_OK;

	switch (cmd) {
	case CPU_PM_ENTER:
		apmu_cpu_pm_save(pmu, cpu);
		break;
	case CPU_PM_EXIT:
	case CPU_PM_ENTER_FAILED:
		apmu_cpu_pm_restore(pmu, cpu);
		break;
	default:
		return NOTIFY_DONE;
	}
	return NOTIFY_OK;
}

/**
 * apmu_hotplug_add() - follow @pmu's CPUs through hotplug and CPU PM
 * @pmu: instance, its interrupt requested (the online callback enables it)
 *
 * Runs the online callback on every online CPU of @pmu before it returns.
 * Return: 0, or the errno of the cpuhp or CPU PM registration (nothing left added).
 */
int apmu_hotplug_add(struct apmu_pmu *pmu)
{
	int ret;

	ret = cpuhp_state_add_instance(apmu_hp_state, &pmu->node);
	if (ret)
		return ret;
	pmu->cpu_pm_nb.notifier_call = apmu_cpu_pm_notify;
	ret = cpu_pm_register_notifier(&pmu->cpu_pm_nb);
	if (ret)
		cpuhp_state_remove_instance(apmu_hp_state, &pmu->node);
	return ret;
}

/**
 * apmu_hotplug_remove() - undo apmu_hotplug_add()
 * @pmu: instance, unregistered from perf
 *
 * Runs the offline callback on every online CPU of @pmu: counters and interrupts off,
 * flags clear.
 */
void apmu_hotplug_remove(struct apmu_pmu *pmu)
{
	apmu_cpu_pm_unregister(&pmu->cpu_pm_nb);
	cpuhp_state_remove_instance(apmu_hp_state, &pmu->node);
}

int apmu_hotplug_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/apmu:online",
				      apmu_cpu_online, apmu_cpu_offline);
	if (ret < 0)
		return ret;
	apmu_hp_state = ret;
	return 0;
}

void apmu_hotplug_exit(void)
{
	cpuhp_remove_multi_state(apmu_hp_state);
}
