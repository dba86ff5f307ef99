// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the PMUv3 backend as the platform glue binds it: its devices (models.c), its
 * instances (backend ops, sysfs groups, counter indexes, the long_counters choice) and
 * the kernel.perf_user_access sysctl.
 */
#include <linux/device.h>
#include <linux/moduleparam.h>
#include <linux/of.h>
#include <linux/sysctl.h>

#include "pmuv3.h"

static bool long_counters = true;
module_param(long_counters, bool, 0444);
MODULE_PARM_DESC(long_counters,
		 "use 64-bit event counters (PMCR_EL0.LP) where the PMU has them (default Y)");

/**
 * apmu_pmuv3_alloc() - a PMUv3 instance, device-managed
 * @dev: the PMU's platform device, matched by apmu_pmuv3_of_match[]
 *
 * Return: the core's part of the instance, or an ERR_PTR(): -ENODEV for a device no
 * compatible of the table matched (bound by hand, driver_override), -ENOMEM.
 */
static struct apmu_pmu *apmu_pmuv3_alloc(struct device *dev)
{
	const struct apmu_pmuv3_model *model = of_device_get_match_data(dev);
	struct apmu_pmuv3 *pv;

	if (!model) {
		dev_err(dev, "not a PMUv3 device tree node apmu knows (apmu_pmuv3_of_match)\n");
		return ERR_PTR(-ENODEV);
	}
	pv = devm_kzalloc(dev, sizeof(*pv), GFP_KERNEL);
	if (!pv)
		return ERR_PTR(-ENOMEM);
	pv->model = model;
	pv->pmu.name = pv->model->name;
	pv->allow_lp = long_counters;
	pv->pmu.ops = &apmu_pmuv3_ops;
	pv->pmu.attr_groups = apmu_pmuv3_attr_groups;
	pv->pmu.nr_idx = APMU_PMUV3_NR_IDX;
	return &pv->pmu;
}

/*
 * kernel.perf_user_access, the in-tree PMUv3 driver's sysctl (arm_pmuv3.c): its init
 * registers it, and when that init was blacklisted (the only way apmu gets a PMUv3
 * PMU), apmu registers it with the same meaning, once one of its PMUv3 PMUs is
 * registered. The value is the core's policy (core/user_access.c).
 */
static struct ctl_table_header *apmu_pmuv3_sysctl_header;

static int apmu_pmuv3_user_access_sysctl(APMU_CTL_CONST struct ctl_table *table, int write,
					 void *buffer, size_t *lenp, loff_t *ppos)
{
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (ret || !write)
		return ret;
	apmu_user_access_set(READ_ONCE(apmu_sysctl_user_access));
	return 0;
}

static struct ctl_table apmu_pmuv3_sysctl_table[] = {
	{
		.procname	= "perf_user_access",
		.data		= &apmu_sysctl_user_access,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= apmu_pmuv3_user_access_sysctl,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	APMU_CTL_TABLE_END
};

static void apmu_pmuv3_register_sysctl(void)
{
	if (!apmu_pmuv3_sysctl_header)
		apmu_pmuv3_sysctl_header = register_sysctl("kernel", apmu_pmuv3_sysctl_table);
}

static void apmu_pmuv3_unregister_sysctl(void)
{
	if (apmu_pmuv3_sysctl_header)
		unregister_sysctl_table(apmu_pmuv3_sysctl_header);
	apmu_pmuv3_sysctl_header = NULL;
}

const struct apmu_backend apmu_pmuv3_backend = {
	.name			= "PMUv3",
	.of_match		= apmu_pmuv3_of_match,
	.intree_initcall	= "armv8_pmu_driver_init",
	.alloc			= apmu_pmuv3_alloc,
	.sysctl_register	= apmu_pmuv3_register_sysctl,
	.sysctl_unregister	= apmu_pmuv3_unregister_sysctl,
	/*
	 * perf queues its wakeups as irq_work, which arm64 runs from an interrupt right
	 * after the overflow handler. 32-bit Arm raises one only on SMP (is_smp(), which
	 * reads smp_on_up, not exported to modules): the handler runs them, as in-tree.
	 */
	.run_irq_work		= !IS_ENABLED(CONFIG_ARM64),
};
