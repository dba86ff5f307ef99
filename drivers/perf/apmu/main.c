// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the module. The perf core (core/core.c), its CPU hotplug and CPU PM callbacks
 * (core/hotplug.c) and the platform driver that binds the PMU devices to the backends
 * (core/platform.c), brought up in that order and down in the reverse.
 */
#define pr_fmt(fmt) "apmu: " fmt

#include <linux/module.h>

#include "apmu.h"

static int __init apmu_init(void)
{
	int ret;

	apmu_overflow_init();
	ret = apmu_hotplug_init();
	if (ret)
		return ret;
	ret = apmu_platform_init();
	if (ret)
		apmu_hotplug_exit();
	return ret;
}
module_init(apmu_init);

static void __exit apmu_exit(void)
{
	apmu_platform_exit();
	apmu_hotplug_exit();
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
