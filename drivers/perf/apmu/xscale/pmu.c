// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the XScale backend as the platform glue binds it: its platform device, and an
 * instance for the core: which of the two layouts the CPU has (from its main ID
 * register, as the in-tree arm_xscale_pmu.c decides), its name and its sysfs files
 * besides the core's cpus: format/ and events/ (the in-tree event names).
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>

#include <asm/cputype.h>

#include "xscale.h"

GEN_PMU_FORMAT_ATTR(event);

static struct attribute *apmu_xs_format_attrs[] = {
	&format_attr_event.attr,
	NULL,
};

static const struct attribute_group apmu_xs_format_group = {
	.name = "format",
	.attrs = apmu_xs_format_attrs,
};

#define APMU_XS_EVENT_ATTR(_name, _id)	APMU_EVENT_ATTR(_name, _id, APMU_FLD_DIGITS(event))

/*
 * The events of the in-tree driver's enum xscale_perf_types, lower-cased: both layouts
 * share them (XScale1 has no separate list there either). ccnt is not an event select
 * but the cycle counter, as in-tree.
 */
static struct attribute *apmu_xs_event_attrs[] = {
	APMU_XS_EVENT_ATTR(icache_miss, APMU_XS_EVT_ICACHE_MISS),
	APMU_XS_EVENT_ATTR(icache_no_deliver, APMU_XS_EVT_ICACHE_NO_DELIVER),
	APMU_XS_EVENT_ATTR(data_stall, APMU_XS_EVT_DATA_STALL),
	APMU_XS_EVENT_ATTR(itlb_miss, APMU_XS_EVT_ITLB_MISS),
	APMU_XS_EVENT_ATTR(dtlb_miss, APMU_XS_EVT_DTLB_MISS),
	APMU_XS_EVENT_ATTR(branch, APMU_XS_EVT_BRANCH),
	APMU_XS_EVENT_ATTR(branch_miss, APMU_XS_EVT_BRANCH_MISS),
	APMU_XS_EVENT_ATTR(instruction, APMU_XS_EVT_INSTRUCTION),
	APMU_XS_EVENT_ATTR(dcache_full_stall, APMU_XS_EVT_DCACHE_FULL_STALL),
	APMU_XS_EVENT_ATTR(dcache_full_stall_contig, APMU_XS_EVT_DCACHE_FULL_STALL_CONTIG),
	APMU_XS_EVENT_ATTR(dcache_access, APMU_XS_EVT_DCACHE_ACCESS),
	APMU_XS_EVENT_ATTR(dcache_miss, APMU_XS_EVT_DCACHE_MISS),
	APMU_XS_EVENT_ATTR(dcache_write_back, APMU_XS_EVT_DCACHE_WRITE_BACK),
	APMU_XS_EVENT_ATTR(pc_changed, APMU_XS_EVT_PC_CHANGED),
	APMU_XS_EVENT_ATTR(bcu_request, APMU_XS_EVT_BCU_REQUEST),
	APMU_XS_EVENT_ATTR(bcu_full, APMU_XS_EVT_BCU_FULL),
	APMU_XS_EVENT_ATTR(bcu_drain, APMU_XS_EVT_BCU_DRAIN),
	APMU_XS_EVENT_ATTR(bcu_ecc_no_elog, APMU_XS_EVT_BCU_ECC_NO_ELOG),
	APMU_XS_EVENT_ATTR(bcu_1_bit_err, APMU_XS_EVT_BCU_1_BIT_ERR),
	APMU_XS_EVENT_ATTR(rmw, APMU_XS_EVT_RMW),
	APMU_XS_EVENT_ATTR(ccnt, APMU_XS_EVT_CCNT),
	NULL,
};

static const struct attribute_group apmu_xs_events_group = {
	.name = "events",
	.attrs = apmu_xs_event_attrs,
};

static const struct attribute_group *apmu_xs_attr_groups[] = {
	&apmu_cpus_group,
	&apmu_xs_format_group,
	&apmu_xs_events_group,
	NULL,
};

/**
 * apmu_xscale_alloc() - an XScale instance for the CPU we run on, device-managed
 * @dev: the "xscale-pmu" platform device
 *
 * The layout comes from the main ID register as in-tree (XSCALE_PMU_PROBE): implementer
 * Intel (0x69) and the core generation in bits [15:13], 1 for XScale1 (PXA25x), 2 for
 * XScale2 (PXA27x, IXP42x). XScale3 (PXA3xx) is not handled in-tree either.
 *
 * Return: the core's part of the instance; ERR_PTR(-ENODEV) for another CPU,
 * ERR_PTR(-ENOMEM).
 */
static struct apmu_pmu *apmu_xscale_alloc(struct device *dev)
{
	u32 midr = read_cpuid_id();
	struct apmu_xscale *xs;
	bool v2;

	if (midr >> 24 != ARM_CPU_IMP_INTEL) {
		dev_info(dev, "CPU ID %#010x: not an Intel XScale core, no PMU\n", midr);
		return ERR_PTR(-ENODEV);
	}
	switch (midr & ARM_CPU_XSCALE_ARCH_MASK) {
	case ARM_CPU_XSCALE_ARCH_V1:
		v2 = false;
		break;
	case ARM_CPU_XSCALE_ARCH_V2:
		v2 = true;
		break;
	default:
		dev_info(dev, "CPU ID %#010x: XScale core generation %u is not supported, no PMU\n",
			 midr, (midr & ARM_CPU_XSCALE_ARCH_MASK) >> 13);
		return ERR_PTR(-ENODEV);
	}

	xs = devm_kzalloc(dev, sizeof(*xs), GFP_KERNEL);
	if (!xs)
		return ERR_PTR(-ENOMEM);
	apmu_xscale_setup(xs, v2, &apmu_xscale_ops);
	xs->pmu.attr_groups = apmu_xs_attr_groups;
	xs->pmu.name = v2 ? "apmu_armv5_xscale2" : "apmu_armv5_xscale1";
	return &xs->pmu;
}

/*
 * The XScale PMU has no device tree node: PXA25x and PXA27x board files register a
 * platform device "xscale-pmu" with the PMU interrupt (arch/arm/mach-pxa/devices.c,
 * pxa_device_pmu: IRQ_PMU, PXA_IRQ(12)), which the in-tree arm_xscale_pmu.c binds by
 * driver name. apmu's driver is named "apmu", so it names the device in its id table.
 */
static const struct platform_device_id apmu_xscale_id_table[] = {
	{ .name = "xscale-pmu" },
	{ }
};
MODULE_DEVICE_TABLE(platform, apmu_xscale_id_table);

const struct apmu_backend apmu_xscale_backend = {
	.name			= "XScale",
	.id_table		= apmu_xscale_id_table,
	.intree_initcall	= "xscale_pmu_driver_init",
	.alloc			= apmu_xscale_alloc,
	/* ARMv5 kernels are uniprocessor: no interrupt runs perf's irq_work after ours */
	.run_irq_work		= true,
};
