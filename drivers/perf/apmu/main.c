// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the module. The perf core (core/core.c), its CPU hotplug and CPU PM callbacks
 * (core/hotplug.c) and the platform driver that binds the PMU devices to the backends
 * (core/platform.c), brought up in that order and down in the reverse.
 */
#define pr_fmt(fmt) "apmu: " fmt

#include <linux/err.h>
#include <linux/module.h>

#include "apmu.h"
#include "amu/amu.h"
#include "pcs/pcs.h"

static int __init apmu_init(void)
{
	int ret;

	apmu_overflow_init();
	ret = apmu_hotplug_init();
	if (ret)
		return ret;
	ret = apmu_platform_init();
	if (ret)
		goto exit_hotplug;
	/*
	 * The AMU unit does not depend on the core PMU: it works whoever drives the PMU. Its
	 * failure does not fail apmu (the core PMU and PC sampling go on); then
	 * apmu_amu_exit() does nothing.
	 */
	ret = apmu_amu_init();
	if (ret)
		pr_warn("amu: AMU unit not available (%pe); going on without it\n", ERR_PTR(ret));
	/* PC sampling stands on its own: it works without a core PMU */
	ret = apmu_pcs_init();
	if (ret)
		goto exit_amu;
	return 0;

exit_amu:
	apmu_amu_exit();
	apmu_platform_exit();
exit_hotplug:
	apmu_hotplug_exit();
	return ret;
}
module_init(apmu_init);

static void __exit apmu_exit(void)
{
	apmu_pcs_exit();
	apmu_amu_exit();
	apmu_platform_exit();
	apmu_hotplug_exit();
}
module_exit(apmu_exit);

MODULE_DESCRIPTION("apmu: loadable perf PMU driver for the Arm Performance Monitors");
MODULE_LICENSE("GPL");
