// SPDX-License-Identifier: GPL-2.0
/*
 * apmu_xscale_dev.ko: test only, never part of apmu.ko. The XScale lane's kernel boots
 * QEMU's PXA27x boards with initcall_blacklist=pxa27x_init (Linux 6.12's legacy PXA27x
 * init oopses there, see scripts/vm/xscale-run.sh), which also drops the "xscale-pmu"
 * platform device that pxa27x_init() registers (arch/arm/mach-pxa/devices.c,
 * pxa_device_pmu). This module registers the same device, with the same interrupt
 * (IRQ_PMU = PXA_IRQ(12) = 28), when none exists, so that apmu's real probe path runs:
 * platform id match, CPU ID, interrupt request, perf_pmu_register(). Unloading it
 * unregisters the device it registered, which unbinds apmu if still loaded: remove
 * apmu.ko first (the lane does). Unloading this module while apmu has events open on
 * the device is not supported: 6.12's perf core cannot revoke open events, so
 * perf_pmu_unregister() would leave them pointing at a freed PMU.
 */
#include <linux/device.h>
#include <linux/ioport.h>
#include <linux/module.h>
#include <linux/platform_device.h>

static unsigned int irq = 28;
module_param(irq, uint, 0444);
MODULE_PARM_DESC(irq, "the PMU interrupt of the device (default 28: PXA27x IRQ_PMU)");

static struct platform_device *xs_vmdev;

static int __init xs_vmdev_init(void)
{
	struct resource res = DEFINE_RES_IRQ(irq);
	struct device *dev;

	dev = bus_find_device_by_name(&platform_bus_type, NULL, "xscale-pmu");
	if (dev) {
		pr_info("apmu_xscale_dev: xscale-pmu already registered, nothing to do\n");
		put_device(dev);
		return 0;
	}
	xs_vmdev = platform_device_register_simple("xscale-pmu", -1, &res, 1);
	if (IS_ERR(xs_vmdev)) {
		int ret = PTR_ERR(xs_vmdev);

		xs_vmdev = NULL;
		return ret;
	}
	pr_info("apmu_xscale_dev: registered xscale-pmu with IRQ %u\n", irq);
	return 0;
}
module_init(xs_vmdev_init);

static void __exit xs_vmdev_exit(void)
{
	if (xs_vmdev)
		platform_device_unregister(xs_vmdev);
}
module_exit(xs_vmdev_exit);

MODULE_DESCRIPTION("apmu test only: register the PXA27x xscale-pmu platform device");
MODULE_LICENSE("GPL");
