// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: module and platform glue. Binds to the CPU PMU the in-tree driver has left alone
 * (boot with initcall_blacklist=armv8_pmu_driver_init, or xscale_pmu_driver_init): a
 * PMUv3 node of the device tree, or the "xscale-pmu" platform device of a PXA2xx board;
 * then: the backend's instance -> hardware discovery -> overflow IRQ -> cpuhp instance ->
 * perf_pmu_register().
 */
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_platform.h>
#include <linux/platform_device.h>
#include <linux/smp.h>

#include "apmu.h"
#include "compat.h"

static enum cpuhp_state apmu_hp_state;
/*
 * PMUv3 PMUs apmu registered: only then is kernel.perf_user_access apmu's to provide
 * (the in-tree XScale driver has no such sysctl)
 */
static unsigned int apmu_nr_pmus;

#if APMU_HAVE_PMUV3
/* The PMUv3 compatibles and their PMUs' names: pmuv3/models.c */
#define APMU_OF_MATCH	apmu_pmuv3_of_match
#else
#define APMU_OF_MATCH	NULL
#endif

#if APMU_HAVE_XSCALE
/*
 * The XScale PMU has no device tree node: PXA25x and PXA27x board files register a
 * platform device "xscale-pmu" with the PMU interrupt (arch/arm/mach-pxa/devices.c,
 * pxa_device_pmu: IRQ_PMU, PXA_IRQ(12)), which the in-tree arm_xscale_pmu.c binds by
 * driver name. apmu's driver is named "apmu", so it names the device in its id table.
 */
static const struct platform_device_id apmu_id_table[] = {
	{ .name = "xscale-pmu" },
	{ }
};
MODULE_DEVICE_TABLE(platform, apmu_id_table);
#define APMU_ID_TABLE	apmu_id_table
#else
#define APMU_ID_TABLE	NULL
#endif

/*
 * Modules get a CPUHP_AP_ONLINE_DYN state, which comes after perf core's own
 * (CPUHP_AP_PERF_ONLINE): when this runs on the CPU coming up, perf may already have
 * put events on its counters. So the PMU is made to match them (IRQs off, so none is
 * added meanwhile) rather than blindly reset, and only then is the interrupt enabled.
 * Without an interrupt, the fold timer is allowed first, so the reinit's restart of
 * the events starts it.
 */
static int apmu_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct apmu_pmu *pmu = hlist_entry_safe(node, struct apmu_pmu, node);
	unsigned long flags;

	if (!cpumask_test_cpu(cpu, &pmu->supported_cpus))
		return 0;
	/* AP hotplug states run on the CPU coming up: these are its own registers */
	local_irq_save(flags);
	apmu_fold_cpu_online(this_cpu_ptr(pmu->hw));
	apmu_cpu_reinit(pmu, this_cpu_ptr(pmu->hw));
	local_irq_restore(flags);
	apmu_irq_cpu_online(pmu, cpu);
	return 0;
}

/*
 * The reverse order going down: this runs before perf core removes the CPU's events, so
 * counters that are in use keep counting until perf's del() folds them. Only the
 * interrupt (or the fold timer) goes now: an overflow meanwhile is folded exactly by
 * del(), as half-range arming, and the fold period, leave 2^31 events of slack. A CPU
 * with nothing in use (module unload, or no events) is quiesced: no counter,
 * interrupt, flag or EL0 access left on.
 */
static int apmu_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct apmu_pmu *pmu = hlist_entry_safe(node, struct apmu_pmu, node);
	unsigned long flags;

	if (!cpumask_test_cpu(cpu, &pmu->supported_cpus))
		return 0;
	apmu_irq_cpu_offline(pmu, cpu);
	/* and the fold timer of a PMU without one, which must not outlive the CPU */
	apmu_fold_cpu_offline(this_cpu_ptr(pmu->hw));
	local_irq_save(flags);
	apmu_cpu_quiesce(pmu, this_cpu_ptr(pmu->hw));
	local_irq_restore(flags);
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

struct apmu_probe_call {
	struct apmu_pmu *pmu;
	int ret;
};

static void apmu_probe_cpu(void *info)
{
	struct apmu_probe_call *call = info;

	call->ret = call->pmu->ops->probe(call->pmu);
}

/* The platform device is the XScale one when it matched by id table, else a PMUv3 node */
static bool apmu_is_xscale(struct platform_device *pdev)
{
	return APMU_HAVE_XSCALE && platform_get_device_id(pdev);
}

/* The backend's instance for @pdev, named; an ERR_PTR() when it has none */
static struct apmu_pmu *apmu_alloc(struct platform_device *pdev)
{
	/* APMU_HAVE_*: constants, so the backend not built is not called either */
	if (APMU_HAVE_XSCALE && apmu_is_xscale(pdev))
		return apmu_xscale_alloc(&pdev->dev);
	if (!APMU_HAVE_PMUV3)
		return ERR_PTR(-ENODEV);
	return apmu_pmuv3_alloc(&pdev->dev);
}

static int apmu_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct apmu_probe_call call;
	struct apmu_pmu *pmu;
	int ret;

	pmu = apmu_alloc(pdev);
	if (IS_ERR(pmu))
		return PTR_ERR(pmu);
	pmu->dev = dev;
	platform_set_drvdata(pdev, pmu);

	ret = apmu_pmu_alloc_cpus(pmu);
	if (ret)
		return ret;

	/* The DT names this PMU's CPUs through its interrupts */
	ret = apmu_irq_parse(pdev, pmu);
	if (ret)
		goto free_percpu;

	/* Hardware first: discovery runs on one of this PMU's CPUs */
	call.pmu = pmu;
	ret = smp_call_function_any(&pmu->supported_cpus, apmu_probe_cpu, &call, 1);
	if (ret) {
		dev_err(dev, "no online CPU to probe the PMU on\n");
		goto free_percpu;
	}
	ret = call.ret;
	if (ret)
		goto free_percpu;

	ret = apmu_irq_request(pmu);
	if (ret)
		goto free_percpu;

	ret = cpuhp_state_add_instance(apmu_hp_state, &pmu->node);
	if (ret)
		goto free_irq;

	pmu->cpu_pm_nb.notifier_call = apmu_cpu_pm_notify;
	ret = cpu_pm_register_notifier(&pmu->cpu_pm_nb);
	if (ret)
		goto remove_cpuhp;

	apmu_pmu_init(pmu, THIS_MODULE);
	ret = perf_pmu_register(&pmu->pmu, pmu->name, -1);
	if (ret)
		goto unregister_cpu_pm;

	if (!apmu_is_xscale(pdev))
		apmu_nr_pmus++;
	dev_info(dev, "%s: %s, CPUs %*pbl\n", pmu->name, pmu->info,
		 cpumask_pr_args(&pmu->supported_cpus));
	return 0;

unregister_cpu_pm:
	apmu_cpu_pm_unregister(&pmu->cpu_pm_nb);
remove_cpuhp:
	cpuhp_state_remove_instance(apmu_hp_state, &pmu->node);
free_irq:
	apmu_irq_free(pmu);
free_percpu:
	free_percpu(pmu->hw);
	return ret;
}

static void apmu_remove(struct platform_device *pdev)
{
	struct apmu_pmu *pmu = platform_get_drvdata(pdev);

	perf_pmu_unregister(&pmu->pmu);
	if (!apmu_is_xscale(pdev))
		apmu_nr_pmus--;
	apmu_cpu_pm_unregister(&pmu->cpu_pm_nb);
	/* Runs apmu_cpu_offline() on every CPU: counters and interrupts off, flags clear */
	cpuhp_state_remove_instance(apmu_hp_state, &pmu->node);
	apmu_irq_free(pmu);
	free_percpu(pmu->hw);
}

static struct platform_driver apmu_driver = {
	.driver = {
		.name = "apmu",
		.of_match_table = APMU_OF_MATCH,
		.suppress_bind_attrs = true,
	},
	.id_table = APMU_ID_TABLE,
	.probe = apmu_probe,
	.APMU_PLATFORM_REMOVE = apmu_remove,
};

/*
 * If another driver (the in-tree armv8_pmuv3 or armv5_xscale) owns a PMU device, apmu
 * must not touch that PMU's registers: say so once, with the way out.
 */
static void apmu_report_taken_nodes(void)
{
#if APMU_HAVE_PMUV3
	struct device_node *np;

	for_each_matching_node(np, apmu_pmuv3_of_match) {
		struct platform_device *pdev = of_find_device_by_node(np);

		if (!pdev)
			continue;
		if (pdev->dev.driver && pdev->dev.driver != &apmu_driver.driver)
			pr_info("apmu: %pOF is driven by %s; core PMU not registered (boot with initcall_blacklist=armv8_pmu_driver_init to use apmu)\n",
				np, pdev->dev.driver->name);
		put_device(&pdev->dev);
	}
#endif
}

/* The same for the XScale PMU's platform device, which has no device tree node */
static void apmu_report_taken_xscale(void)
{
#if APMU_HAVE_XSCALE
	const char *name = apmu_id_table[0].name;
	struct device *dev = bus_find_device_by_name(&platform_bus_type, NULL, name);

	if (!dev) {
		pr_debug("apmu: no %s platform device (PXA2xx board files register it)\n", name);
		return;
	}
	if (dev->driver && dev->driver != &apmu_driver.driver)
		pr_info("apmu: %s is driven by %s; core PMU not registered (boot with initcall_blacklist=xscale_pmu_driver_init to use apmu)\n",
			dev_name(dev), dev->driver->name);
	put_device(dev);
#endif
}

static int __init apmu_init(void)
{
	int ret;

	apmu_overflow_init();
	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/apmu:online",
				      apmu_cpu_online, apmu_cpu_offline);
	if (ret < 0)
		return ret;
	apmu_hp_state = ret;

	ret = platform_driver_register(&apmu_driver);
	if (ret)
		goto remove_hp_state;
	apmu_report_taken_nodes();
	apmu_report_taken_xscale();
	if (apmu_nr_pmus)
		apmu_user_access_register();
	return 0;

remove_hp_state:
	cpuhp_remove_multi_state(apmu_hp_state);
	return ret;
}
module_init(apmu_init);

static void __exit apmu_exit(void)
{
	apmu_user_access_unregister();
	platform_driver_unregister(&apmu_driver);
	cpuhp_remove_multi_state(apmu_hp_state);
}
module_exit(apmu_exit);

MODULE_DESCRIPTION("apmu: loadable perf PMU driver for the Arm Performance Monitors");
MODULE_LICENSE("GPL");
#ifdef CONFIG_ARM64
/*
 * The AMU and PC-sampling units are modules of their own (apmu_amu.ko, apmu_pcs.ko, built
 * for arm64): `modprobe apmu` loads them after apmu, as when they were part of it
 */
MODULE_SOFTDEP("post: apmu_amu apmu_pcs");
#endif
