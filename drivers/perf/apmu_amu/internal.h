/* SPDX-License-Identifier: GPL-2.0 */
/* apmu_amu: the unit's inside, for sysfs.c and the KUnit suite (tests/amu_test.c) */
#ifndef __APMU_AMU_INTERNAL_H
#define __APMU_AMU_INTERNAL_H

#include <linux/device.h>
#include <linux/kconfig.h>
#include <linux/sysfs.h>
#include <linux/types.h>
#include <kunit/visibility.h>

#include "amu.h"

/**
 * enum apmu_amu_file - what a cpuN/amu file shows
 * @APMU_AMU_F_G0: AMEVCNTR0<n>_EL0
 * @APMU_AMU_F_EVENT: AMEVTYPER1<n>_EL0.evtCount
 * @APMU_AMU_F_COUNT: AMEVCNTR1<n>_EL0
 * @APMU_AMU_F_ENABLE: AMCNTENSET1_EL0.P<n>
 */
enum apmu_amu_file {
	APMU_AMU_F_G0,
	APMU_AMU_F_EVENT,
	APMU_AMU_F_COUNT,
	APMU_AMU_F_ENABLE,
};

/**
 * struct apmu_amu_attr - one cpuN/amu file
 * @attr: the device attribute
 * @file: what it shows
 * @n: the counter
 */
struct apmu_amu_attr {
	struct device_attribute attr;
	enum apmu_amu_file file;
	unsigned int n;
};

#define to_amu_attr(a)	container_of(a, struct apmu_amu_attr, attr)

#if IS_ENABLED(CONFIG_KUNIT)
/* sysfs.c: the cpuN/amu files (NULL-terminated) and their handlers */
extern struct attribute *apmu_amu_attrs[];
umode_t apmu_amu_visible(struct apmu_amu *amu, unsigned int cpu,
			 const struct apmu_amu_attr *a);
ssize_t apmu_amu_show_one(struct apmu_amu *amu, unsigned int cpu,
			  const struct apmu_amu_attr *a, char *buf);
ssize_t apmu_amu_store_one(struct apmu_amu *amu, unsigned int cpu,
			   const struct apmu_amu_attr *a, const char *buf, size_t count);
#endif

#endif /* __APMU_AMU_INTERNAL_H */
