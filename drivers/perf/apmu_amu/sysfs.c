// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: /sys/devices/system/cpu/cpuN/amu/, present only on CPUs with an AMU:
 *
 *   core_cycles, const_cycles, inst_retired, mem_stall_cycles
 *				AMEVCNTR0<0..3>_EL0, group 0 by name (n < AMCGCR_EL0.CG0NC,
 *				and enabled by firmware in AMCNTENSET0_EL0)
 *   aux<n>_event		AMEVTYPER1<n>_EL0.evtCount, n < AMCGCR_EL0.CG1NC
 *   aux<n>_count		AMEVCNTR1<n>_EL0
 *   aux<n>_enable		AMCNTENSET1_EL0.P<n>; writable (W1S/W1C of bit n) only by a
 *				kernel at EL2 on a CPU without EL3
 *
 * Every value is read on CPU N. The files are root-only: AMU counts reveal what other
 * contexts run (the kernel keeps AMUSERENR_EL0.EN clear for the same reason).
 */
#define pr_fmt(fmt) "apmu: amu: " fmt

#include <linux/bitfield.h>
#include <linux/cpu.h>
#include <linux/device.h>
#include <linux/kstrtox.h>
#include <linux/percpu.h>
#include <linux/sysfs.h>
#include <kunit/visibility.h>

#include "amu.h"
#include "internal.h"

/* The unit whose amu/ group CPU N shows (one at a time: the directory name is fixed) */
static DEFINE_PER_CPU(struct apmu_amu *, apmu_amu_sysfs_owner);

static ssize_t apmu_amu_attr_show(struct device *dev, struct device_attribute *attr,
				  char *buf);
static ssize_t apmu_amu_attr_store(struct device *dev, struct device_attribute *attr,
				   const char *buf, size_t count);

/* A cpuN/amu file, defined in the array (as arm-cmn.c does) */
#define AMU_ATTR(_name, _mode, _file, _n)					\
	(&((struct apmu_amu_attr[]) {{						\
		.attr = __ATTR(_name, _mode, apmu_amu_attr_show,		\
			       apmu_amu_attr_store),				\
		.file = _file,							\
		.n = _n,							\
	}})[0].attr.attr)
#define AMU_G0(_name, _n)	AMU_ATTR(_name, 0400, APMU_AMU_F_G0, _n)
/* group-1 counter n: its event number, its count and its enable */
#define AMU_EVENT(n)	AMU_ATTR(aux##n##_event, 0400, APMU_AMU_F_EVENT, n)
#define AMU_COUNT(n)	AMU_ATTR(aux##n##_count, 0400, APMU_AMU_F_COUNT, n)
#define AMU_ENABLE(n)	AMU_ATTR(aux##n##_enable, 0600, APMU_AMU_F_ENABLE, n)

VISIBLE_IF_KUNIT struct attribute *apmu_amu_attrs[] = {
	AMU_G0(core_cycles, APMU_AMU_G0_CORE),
	AMU_G0(const_cycles, APMU_AMU_G0_CONST),
	AMU_G0(inst_retired, APMU_AMU_G0_INST),
	AMU_G0(mem_stall_cycles, APMU_AMU_G0_STALL),
	AMU_EVENT(0), AMU_COUNT(0), AMU_ENABLE(0),
	AMU_EVENT(1), AMU_COUNT(1), AMU_ENABLE(1),
	AMU_EVENT(2), AMU_COUNT(2), AMU_ENABLE(2),
	AMU_EVENT(3), AMU_COUNT(3), AMU_ENABLE(3),
	AMU_EVENT(4), AMU_COUNT(4), AMU_ENABLE(4),
	AMU_EVENT(5), AMU_COUNT(5), AMU_ENABLE(5),
	AMU_EVENT(6), AMU_COUNT(6), AMU_ENABLE(6),
	AMU_EVENT(7), AMU_COUNT(7), AMU_ENABLE(7),
	AMU_EVENT(8), AMU_COUNT(8), AMU_ENABLE(8),
	AMU_EVENT(9), AMU_COUNT(9), AMU_ENABLE(9),
	AMU_EVENT(10), AMU_COUNT(10), AMU_ENABLE(10),
	AMU_EVENT(11), AMU_COUNT(11), AMU_ENABLE(11),
	AMU_EVENT(12), AMU_COUNT(12), AMU_ENABLE(12),
	AMU_EVENT(13), AMU_COUNT(13), AMU_ENABLE(13),
	AMU_EVENT(14), AMU_COUNT(14), AMU_ENABLE(14),
	AMU_EVENT(15), AMU_COUNT(15), AMU_ENABLE(15),
	NULL
};
EXPORT_SYMBOL_IF_KUNIT(apmu_amu_attrs);

/* Only the files of counters @cpu implements */
VISIBLE_IF_KUNIT umode_t apmu_amu_visible(struct apmu_amu *amu, unsigned int cpu,
					  const struct apmu_amu_attr *a)
{
	const struct apmu_amu_cpu *info = &amu->info[cpu];

	if (info->absent != APMU_AMU_PRESENT)
		return 0;
	/* group 0: implemented, enabled by firmware, and not erratum-broken */
	if (a->file == APMU_AMU_F_G0)
		return info->g0 & BIT(a->n) ? a->attr.attr.mode : 0;
	return a->n < info->cg1nc ? a->attr.attr.mode : 0;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_amu_visible);

static umode_t apmu_amu_is_visible(struct kobject *kobj, struct attribute *attr, int i)
{
	struct device *dev = kobj_to_dev(kobj);
	struct apmu_amu *amu = per_cpu(apmu_amu_sysfs_owner, dev->id);

	if (!amu)
		return 0;
	return apmu_amu_visible(amu, dev->id, to_amu_attr(container_of(attr,
						struct device_attribute, attr)));
}

static const struct attribute_group apmu_amu_group = {
	.name = "amu",
	.attrs = apmu_amu_attrs,
	.is_visible = apmu_amu_is_visible,
};

/* What reading the file @a of @cpu's amu/ shows */
VISIBLE_IF_KUNIT ssize_t apmu_amu_show_one(struct apmu_amu *amu, unsigned int cpu,
					   const struct apmu_amu_attr *a, char *buf)
{
	u64 val;
	int ret;

	switch (a->file) {
	case APMU_AMU_F_G0:
		ret = apmu_amu_read(amu, cpu, APMU_AMU_R_EVCNTR0, a->n, &val);
		break;
	case APMU_AMU_F_COUNT:
		ret = apmu_amu_read(amu, cpu, APMU_AMU_R_EVCNTR1, a->n, &val);
		break;
	case APMU_AMU_F_EVENT:
		ret = apmu_amu_read(amu, cpu, APMU_AMU_R_EVTYPER1, a->n, &val);
		if (ret)
			return ret;
		return sysfs_emit(buf, "0x%04llx\n", FIELD_GET(APMU_AMEVTYPER_EVTCOUNT, val));
	case APMU_AMU_F_ENABLE:
		ret = apmu_amu_read(amu, cpu, APMU_AMU_R_CNTENSET1, 0, &val);
		if (ret)
			return ret;
		return sysfs_emit(buf, "%u\n", !!(val & BIT_ULL(a->n)));
	default:
		return -EINVAL;
	}
	if (ret)
		return ret;
	return sysfs_emit(buf, "%llu\n", val);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_amu_show_one);

/* What writing @buf to the file @a of @cpu's amu/ does */
VISIBLE_IF_KUNIT ssize_t apmu_amu_store_one(struct apmu_amu *amu, unsigned int cpu,
					    const struct apmu_amu_attr *a, const char *buf,
					    size_t count)
{
	bool on;
	int ret;

	if (a->file != APMU_AMU_F_ENABLE)
		return -EACCES;
	ret = kstrtobool(buf, &on);
	if (ret) {
		pr_debug("cpu%u: aux%u_enable takes a boolean (kstrtobool: 0/1, y/n, on/off)\n",
			 cpu, a->n);
		return -EINVAL;
	}
	ret = apmu_amu_set_enable(amu, cpu, a->n, on);
	return ret ? ret : count;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_amu_store_one);

static ssize_t apmu_amu_attr_show(struct device *dev, struct device_attribute *attr,
				  char *buf)
{
	struct apmu_amu *amu = per_cpu(apmu_amu_sysfs_owner, dev->id);

	if (!amu)
		return -ENODEV;
	return apmu_amu_show_one(amu, dev->id, to_amu_attr(attr), buf);
}

static ssize_t apmu_amu_attr_store(struct device *dev, struct device_attribute *attr,
				   const char *buf, size_t count)
{
	struct apmu_amu *amu = per_cpu(apmu_amu_sysfs_owner, dev->id);

	if (!amu)
		return -ENODEV;
	return apmu_amu_store_one(amu, dev->id, to_amu_attr(attr), buf, count);
}

/**
 * apmu_amu_sysfs_add() - create cpuN/amu for @cpu, which discovery found an AMU on
 * @amu: the unit
 * @cpu: the CPU
 *
 * Return: 0 (also when another unit already shows @cpu's amu/), or a negative errno.
 */
int apmu_amu_sysfs_add(struct apmu_amu *amu, unsigned int cpu)
{
	struct device *dev = get_cpu_device(cpu);
	int ret;

	if (!dev)
		return 0;
	if (per_cpu(apmu_amu_sysfs_owner, cpu)) {
		pr_debug("cpu%u: amu/ already shown by another AMU unit\n", cpu);
		return 0;
	}
	per_cpu(apmu_amu_sysfs_owner, cpu) = amu;
	ret = sysfs_create_group(&dev->kobj, &apmu_amu_group);
	if (ret) {
		per_cpu(apmu_amu_sysfs_owner, cpu) = NULL;
		return ret;
	}
	amu->info[cpu].sysfs = true;
	return 0;
}

/**
 * apmu_amu_sysfs_remove() - remove cpuN/amu if @amu created it
 * @amu: the unit
 * @cpu: the CPU
 */
void apmu_amu_sysfs_remove(struct apmu_amu *amu, unsigned int cpu)
{
	struct device *dev = get_cpu_device(cpu);

	if (!dev || !amu->info[cpu].sysfs)
		return;
	/* waits for readers and writers of the files to finish */
	sysfs_remove_group(&dev->kobj, &apmu_amu_group);
	per_cpu(apmu_amu_sysfs_owner, cpu) = NULL;
	amu->info[cpu].sysfs = false;
}
