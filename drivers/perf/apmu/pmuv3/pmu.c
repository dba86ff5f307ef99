// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: a PMUv3 instance for the core: its backend ops, sysfs groups, counter indexes
 * and the long_counters choice.
 */
#include <linux/device.h>
#include <linux/moduleparam.h>
#include <linux/of.h>

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
struct apmu_pmu *apmu_pmuv3_alloc(struct device *dev)
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
