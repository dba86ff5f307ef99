// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the sysfs show function every backend's events/ files share (APMU_EVENT_ATTR()).
 */
#define pr_fmt(fmt) "apmu: " fmt

#include <linux/device.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>

#include "../apmu.h"

/**
 * apmu_event_show() - an events/ file: the event term perf passes back to the PMU
 * @dev: the PMU's device
 * @attr: the &struct apmu_event_attr's device attribute
 * @buf: the page sysfs reads
 *
 * Return: the length of "event=0x<id>\n", @id zero-padded to the event field's digits.
 */
ssize_t apmu_event_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct apmu_event_attr *ev = container_of(attr, struct apmu_event_attr, pmu_attr.attr);

	return sysfs_emit(buf, "event=0x%0*llx\n", ev->digits, ev->pmu_attr.id);
}
