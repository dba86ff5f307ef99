// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: an XScale instance for the core: which of the two layouts the CPU has (from its
 * main ID register, as the in-tree arm_xscale_pmu.c decides), its name and its sysfs
 * files besides the core's cpus: format/ and events/ (the in-tree event names).
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>

#include <asm/cputype.h>

#include "xscale.h"

/* event=config:0-7: an 8-bit event select (EVTSEL evtCount<n>), 0xfe for CCNT */
PMU_FORMAT_ATTR(event, "config:0-7");

static struct attribute *apmu_xs_format_attrs[] = {
	&format_attr_event.attr,
	NULL,
};

static const struct attribute_group apmu_xs_format_group = {
	.name = "format",
	.attrs = apmu_xs_format_attrs,
};

static ssize_t apmu_xs_event_show(struct device *dev, struct device_attribute *attr,
				  char *buf)
{
	struct perf_pmu_events_attr *pmu_attr =
		container_of(attr, struct perf_pmu_events_attr, attr);

	return sysfs_emit(buf, "event=0x%02llx\n", pmu_attr->id);
}

#define APMU_XS_EVENT_ATTR(_name, _id)					\
	PMU_EVENT_ATTR_ID(_name, apmu_xs_event_show, _id)

/*
 * The events of the in-tree driver's enum xscale_perf_types, lower-cased: both layouts
 * share them (XScale1 has no separate list there either). ccnt is not an event select
 * but the cycle counter, as in-tree.
 */
static struct attribute *apmu_xs_event_attrs[] = {
	APMU_XS_EVENT_ATTR(icache_miss, 0x00),
	APMU_XS_EVENT_ATTR(icache_no_deliver, 0x01),
	APMU_XS_EVENT_ATTR(data_stall, 0x02),
	APMU_XS_EVENT_ATTR(itlb_miss, 0x03),
	APMU_XS_EVENT_ATTR(dtlb_miss, 0x04),
	APMU_XS_EVENT_ATTR(branch, 0x05),
	APMU_XS_EVENT_ATTR(branch_miss, 0x06),
	APMU_XS_EVENT_ATTR(instruction, 0x07),
	APMU_XS_EVENT_ATTR(dcache_full_stall, 0x08),
	APMU_XS_EVENT_ATTR(dcache_full_stall_contig, 0x09),
	APMU_XS_EVENT_ATTR(dcache_access, 0x0a),
	APMU_XS_EVENT_ATTR(dcache_miss, 0x0b),
	APMU_XS_EVENT_ATTR(dcache_write_back, 0x0c),
	APMU_XS_EVENT_ATTR(pc_changed, 0x0d),
	APMU_XS_EVENT_ATTR(bcu_request, 0x10),
	APMU_XS_EVENT_ATTR(bcu_full, 0x11),
	APMU_XS_EVENT_ATTR(bcu_drain, 0x12),
	APMU_XS_EVENT_ATTR(bcu_ecc_no_elog, 0x14),
	APMU_XS_EVENT_ATTR(bcu_1_bit_err, 0x15),
	APMU_XS_EVENT_ATTR(rmw, 0x16),
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
struct apmu_pmu *apmu_xscale_alloc(struct device *dev)
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
