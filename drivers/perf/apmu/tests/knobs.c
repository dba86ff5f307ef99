// SPDX-License-Identifier: GPL-2.0
/*
 * apmu_knobs: test only, never part of apmu.ko. Puts apmu.ko, loaded before it, in the
 * states the VM tests need that the VM's kernel and device tree do not give
 * (scripts/vm/lib.sh, sec_nosample and sec_noirq; scripts/vm/arm-apmu-in-vm.sh):
 *
 *  sampling=0      as if perf_event_overflow() could not be resolved: counting only,
 *		    sampling events refused with -EOPNOTSUPP
 *  overflow_irq=0  every PMU apmu drives probed again as one whose device tree node has
 *		    no interrupt: counting only, 32-bit counters folded by a per-CPU timer
 *
 * Unloading it puts both back (the PMUs probed again with their interrupt). Built with
 * the KUnit suites: it uses apmu.ko's EXPORT_SYMBOL_IF_KUNIT hooks.
 *
 * overflow_irq=0 must be loaded and unloaded with no perf event open on apmu's PMUs:
 * re-probing unbinds each PMU device (apmu_remove(), perf_pmu_unregister()), and perf
 * core before 6.15 does not detach the events of a PMU that goes. The VM scripts load
 * it right after apmu.ko and unload it before apmu.ko.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>

#include "../apmu.h"
#include "../compat.h"

static bool sampling = true;
module_param(sampling, bool, 0444);
MODULE_PARM_DESC(sampling,
		 "N: apmu refuses sampling events, as when perf_event_overflow() cannot be resolved (default Y)");

static bool overflow_irq = true;
module_param(overflow_irq, bool, 0444);
MODULE_PARM_DESC(overflow_irq,
		 "N: apmu's PMUs probed again without their overflow interrupt (default Y)");

/* More PMU devices than any machine the tests boot has (two, --hetero) */
#define APMU_KNOBS_MAX_PMUS	8

struct apmu_knobs_devs {
	struct device *dev[APMU_KNOBS_MAX_PMUS];
	unsigned int n;
};

static int apmu_knobs_collect(struct device *dev, void *data)
{
	struct apmu_knobs_devs *devs = data;

	if (devs->n == APMU_KNOBS_MAX_PMUS)
		return -ENOSPC;
	devs->dev[devs->n++] = get_device(dev);
	return 0;
}

/* Unbind every device apmu's platform driver holds, and probe it again */
static int apmu_knobs_reprobe(void)
{
	struct device_driver *drv = driver_find("apmu", &platform_bus_type);
	struct apmu_knobs_devs devs = { };
	unsigned int i;
	int ret;

	if (!drv) {
		pr_err("apmu's platform driver is not registered\n");
		return -ENODEV;
	}
	/* collected first: reprobing takes each off the driver's list being walked */
	ret = driver_for_each_device(drv, NULL, &devs, apmu_knobs_collect);
	for (i = 0; i < devs.n; i++) {
		int err = device_reprobe(devs.dev[i]);

		if (!err && devs.dev[i]->driver != drv)
			err = -ENODEV;
		if (err) {
			dev_err(devs.dev[i], "not bound to apmu again: %pe\n", ERR_PTR(err));
			ret = ret ?: err;
		}
		put_device(devs.dev[i]);
	}
	if (!devs.n) {
		pr_err("no PMU device is bound to apmu\n");
		ret = ret ?: -ENODEV;
	}
	return ret;
}

static int __init apmu_knobs_init(void)
{
	int ret;

	if (!sampling) {
		apmu_overflow_test_sampling(false);
		pr_notice("sampling=0: counting only, sampling events are refused\n");
	}
	if (!overflow_irq) {
		apmu_irq_ignore = true;
		ret = apmu_knobs_reprobe();
		if (ret) {
			apmu_irq_ignore = false;
			apmu_knobs_reprobe();
			if (!sampling)
				apmu_overflow_test_sampling(true);
			return ret;
		}
	}
	return 0;
}
module_init(apmu_knobs_init);

static void __exit apmu_knobs_exit(void)
{
	if (!overflow_irq) {
		apmu_irq_ignore = false;
		apmu_knobs_reprobe();
	}
	if (!sampling)
		apmu_overflow_test_sampling(true);
}
module_exit(apmu_knobs_exit);

MODULE_DESCRIPTION("apmu test knobs: sampling=0 and overflow_irq=0 for apmu.ko (test only)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
