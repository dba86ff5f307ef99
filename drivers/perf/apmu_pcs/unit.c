// SPDX-License-Identifier: GPL-2.0
/*
 * apmu PC sampling: the units (one per CPU with a usable frame), their view of the CPU
 * (hotplug, CPU PM), and /sys/devices/system/cpu/cpuN/pcsample/.
 *
 * A unit's backend (MMIO frames found by mmio.c, or a register model from a test module)
 * hands it over with apmu_pcs_unit_add(); the unit is identified first (PMDEVARCH and
 * PMDEVID, or EDDEVARCH, EDDEVID and EDDEVID1) and only then gets its sysfs group, whose
 * kind file says which frame samples. The files are root-only: a sample shows
 * another context's PC.
 */
#define pr_fmt(fmt) "apmu_pcs: " fmt

#include <linux/cleanup.h>
#include <linux/cpu.h>
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <kunit/visibility.h>

#include "../apmu/compat.h"
#include "../apmu/visibility.h"
#include "pcs.h"
#include "mmio.h"

/* Serialises unit_add/remove and the apmu_pcs PMU's registration */
static DEFINE_MUTEX(apmu_pcs_mutex);
/*
 * Guards apmu_pcs_units writes and the units' @users for perf's event_init, which runs
 * inside perf's SRCU read section: it does not wait for apmu_pcs_mutex, held across a
 * unit's whole addition or removal.
 */
static DEFINE_SPINLOCK(apmu_pcs_units_lock);
/* The unit of each CPU; read locklessly (READ_ONCE) by sysfs, hotplug and CPU PM */
static DEFINE_PER_CPU(struct apmu_pcs_unit *, apmu_pcs_units);
/*
 * The apmu_pcs PMU is registered with the first unit and unregistered at module exit
 * only, when no event is left (each pins this module). Unregistered with the last unit,
 * it could go while an event of that unit was still being freed (a test's unit, whose
 * owner is another module): a use-after-free of its context on kernels whose
 * perf_pmu_unregister() does not wait for an event's last put of it (6.1, 6.12).
 */
static bool apmu_pcs_pmu_up;
static enum cpuhp_state apmu_pcs_hp_state;

static void pcs_set_unit(int cpu, struct apmu_pcs_unit *u)
{
	guard(spinlock)(&apmu_pcs_units_lock);
	WRITE_ONCE(per_cpu(apmu_pcs_units, cpu), u);
}

/* Only now may perf events take the unit (apmu_pcs_unit_get()) */
static void pcs_set_ready(struct apmu_pcs_unit *u)
{
	guard(spinlock)(&apmu_pcs_units_lock);
	u->ready = true;
}

/*
 * After pcs_set_unit(cpu, NULL): wait until no CPU PM notifier can still use @u, before
 * the caller unmaps and frees it. The notifier runs on the idling CPU with IRQs off, under
 * rcu_read_lock() (cpu_pm_exit()) or cpu_pm_notifier.lock (cpu_pm_enter()), both RCU
 * read-side sections since the RCU flavours were merged: one that loaded @u before it was
 * cleared is done when synchronize_rcu() returns. The hotplug callbacks are excluded by
 * cpus_read_lock(), sysfs by the group's removal, perf events by @u->ready and @u->users.
 */
static void pcs_unit_gone(struct apmu_pcs_unit *u)
{
	synchronize_rcu();
}

/* The unit of a CPU device's sysfs file: the group exists only while the unit does. */
static struct apmu_pcs_unit *dev_unit(struct device *dev)
{
	return READ_ONCE(per_cpu(apmu_pcs_units, dev->id));
}

static ssize_t kind_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", apmu_pcs_kind_name(dev_unit(dev)));
}
static DEVICE_ATTR_ADMIN_RO(kind);

static ssize_t implemented_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", dev_unit(dev)->imp);
}
static DEVICE_ATTR_ADMIN_RO(implemented);

static ssize_t enable_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	bool en, ss;
	int ret = apmu_pcs_get_ctl(dev_unit(dev), &en, &ss);

	return ret ? ret : sysfs_emit(buf, "%d\n", en);
}

static ssize_t enable_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	bool on;
	int ret = kstrtobool(buf, &on);

	if (ret)
		return ret;
	ret = apmu_pcs_set_enable(dev_unit(dev), on);
	return ret ? ret : count;
}
static DEVICE_ATTR_ADMIN_RW(enable);

static ssize_t sample_on_snapshot_show(struct device *dev, struct device_attribute *attr,
				       char *buf)
{
	bool en, ss;
	int ret = apmu_pcs_get_ctl(dev_unit(dev), &en, &ss);

	return ret ? ret : sysfs_emit(buf, "%d\n", ss);
}

static ssize_t sample_on_snapshot_store(struct device *dev, struct device_attribute *attr,
					const char *buf, size_t count)
{
	bool on;
	int ret = kstrtobool(buf, &on);

	if (ret)
		return ret;
	ret = apmu_pcs_set_snapshot(dev_unit(dev), on);
	return ret ? ret : count;
}
static DEVICE_ATTR_ADMIN_RW(sample_on_snapshot);

static ssize_t sample_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct apmu_pcs_sample s;
	int len, ret = apmu_pcs_read_sample(dev_unit(dev), &s);

	if (ret)
		return ret;
	if (!s.valid)
		return sysfs_emit(buf, "no valid sample\n");
	len = sysfs_emit(buf, "pc=0x%016llx el=%u security=%s contextidr_el1=0x%x ", s.pc, s.el,
			 apmu_pcs_sec_name(s.sec), s.cid1);
	if (s.has_cid2)
		return len + sysfs_emit_at(buf, len, "contextidr_el2=0x%x\n", s.cid2);
	return len + sysfs_emit_at(buf, len, "vmid=0x%x\n", s.vmid);
}
static DEVICE_ATTR_ADMIN_RO(sample);

static struct attribute *apmu_pcs_attrs[] = {
	&dev_attr_kind.attr,
	&dev_attr_implemented.attr,
	&dev_attr_enable.attr,
	&dev_attr_sample_on_snapshot.attr,
	&dev_attr_sample.attr,
	NULL,
};

/* sample_on_snapshot exists only with FEAT_PMUv3_SS */
static umode_t apmu_pcs_attr_visible(struct kobject *kobj, struct attribute *attr, int n)
{
	struct device *dev = kobj_to_dev(kobj);

	if (attr == &dev_attr_sample_on_snapshot.attr && !dev_unit(dev)->ss)
		return 0;
	return attr->mode;
}

static const struct attribute_group apmu_pcs_group = {
	.name = "pcsample",
	.attrs = apmu_pcs_attrs,
	.is_visible = apmu_pcs_attr_visible,
};

/*
 * __apmu_pcs_unit_add() - publish, identify and register a unit
 * @u: the unit, lock initialised
 * @cpudev: its CPU's device
 *
 * With apmu_pcs_mutex and cpus_read_lock() held: no hotplug from here, so the state the
 * callbacks maintain starts right. The unit is published before any access, taken as
 * powered down (the CPU may be in an idle state whose CPU_PM_ENTER saw no unit) until the
 * CPU itself says otherwise. On failure the unit is unpublished again; the caller waits
 * for the CPU PM notifiers that may still hold it (pcs_unit_gone()).
 */
static int __apmu_pcs_unit_add(struct apmu_pcs_unit *u, struct device *cpudev)
{
	int ret;

	lockdep_assert_held(&apmu_pcs_mutex);
	u->online = cpu_online(u->cpu);
	u->pm_off = true;
	u->ready = false;
	pcs_set_unit(u->cpu, u);
	apmu_pcs_wake(u);
	ret = apmu_pcs_identify(u);
	if (ret)
		goto clear;
	ret = sysfs_create_group(&cpudev->kobj, &apmu_pcs_group);
	if (ret)
		goto clear;
	u->sysfs = true;
	if (!apmu_pcs_pmu_up) {
		ret = apmu_pcs_pmu_register();
		if (ret)
			goto remove_group;
		apmu_pcs_pmu_up = true;
	}
	/* nothing below can fail, so the caller never frees a unit an event holds */
	pcs_set_ready(u);
	if (u->kind == APMU_PCS_KIND_DEBUG)
		pr_info("cpu%d: PC sampling (FEAT_PCSRv8, external debug frame%s)\n", u->cpu,
			u->has_vidsr ? ", EDVIDSR" : "");
	else
		pr_info("cpu%d: PC sampling (%s%s%s)\n", u->cpu,
			u->has_ctl ? "FEAT_PCSRv8p9" : "FEAT_PCSRv8p2",
			u->imp ? ", EN implemented" : "", u->ss ? ", sample on snapshot" : "");
	return 0;

remove_group:
	sysfs_remove_group(&cpudev->kobj, &apmu_pcs_group);
	u->sysfs = false;
clear:
	pcs_set_unit(u->cpu, NULL);
	return ret;
}

/**
 * apmu_pcs_unit_add() - identify a unit's frame and make it available
 * @u: the unit: @cpu, @kind, @ops, @priv (or @base, @dbg) and @owner set, the rest zero
 *
 * The frame is identified (PMDEVARCH, PMDEVID, PMPCSCTL.IMP; or for the debug kind
 * EDDEVARCH, EDDEVID, EDDEVID1, EDLSR) with the CPU's state
 * checked first; a frame that is not what it should be is reported there. The caller
 * reports the refusal itself.
 *
 * The apmu_pcs PMU is registered with the first unit (and stays until module exit):
 * without a usable frame there is neither a pcsample/ directory nor an apmu_pcs PMU.
 *
 * Context: process; takes apmu_pcs_mutex and cpus_read_lock().
 * Return: 0, -EINVAL for a CPU that does not exist, -EEXIST when the CPU has a unit,
 * -ENODEV when the frame is not a PMU with PC sampling, -EXDEV when it is another CPU's,
 * -ENXIO when the debug frame is not external debug, -EAGAIN/-EBUSY/-EIO when the
 * frame cannot be accessed now (see apmu_pcs_check()), or a sysfs or perf errno.
 */
int apmu_pcs_unit_add(struct apmu_pcs_unit *u)
{
	struct device *cpudev;
	int ret;

	cpudev = u->cpu >= 0 && u->cpu < nr_cpu_ids && cpu_possible(u->cpu) ?
		 get_cpu_device(u->cpu) : NULL;
	if (!cpudev) {
		pr_warn("cpu%d: no such CPU\n", u->cpu);
		return -EINVAL;
	}
	raw_spin_lock_init(&u->lock);
	guard(mutex)(&apmu_pcs_mutex);
	if (per_cpu(apmu_pcs_units, u->cpu)) {
		pr_warn("cpu%d: the CPU already has a PC-sampling frame\n", u->cpu);
		return -EEXIST;
	}
	cpus_read_lock();
	ret = __apmu_pcs_unit_add(u, cpudev);
	cpus_read_unlock();
	if (ret)
		pcs_unit_gone(u);
	return ret;
}
EXPORT_SYMBOL_FAKE_IF_KUNIT(apmu_pcs_unit_add);

/**
 * apmu_pcs_unit_remove() - take a unit away: its sysfs group first
 * @u: a unit added with apmu_pcs_unit_add()
 *
 * When this returns 0, nothing of apmu uses @u or its frame: the caller may unmap and
 * free them. A unit a perf event still samples is not removed: perf events pin the
 * unit's module, so only a caller that does not go through its module's unload (a test)
 * can meet one.
 *
 * Return: 0, or -EBUSY when a perf event holds the unit.
 */
int apmu_pcs_unit_remove(struct apmu_pcs_unit *u)
{
	unsigned int users;

	guard(mutex)(&apmu_pcs_mutex);
	if (per_cpu(apmu_pcs_units, u->cpu) != u)
		return 0;
	/* no new event takes the unit once it is not ready */
	scoped_guard(spinlock, &apmu_pcs_units_lock) {
		users = u->users;
		if (!users)
			u->ready = false;
	}
	if (users) {
		pr_debug("cpu%d: unit held by %u perf events: not removed\n",
			 u->cpu, users);
		return -EBUSY;
	}
	/* Waits for sysfs readers and writers to finish */
	if (u->sysfs)
		sysfs_remove_group(&get_cpu_device(u->cpu)->kobj, &apmu_pcs_group);
	u->sysfs = false;
	cpus_read_lock();
	pcs_set_unit(u->cpu, NULL);
	cpus_read_unlock();
	pcs_unit_gone(u);
	return 0;
}
EXPORT_SYMBOL_FAKE_IF_KUNIT(apmu_pcs_unit_remove);

/**
 * apmu_pcs_unit_get() - the unit sampling @cpu, for a perf event
 * @cpu: the sampled CPU
 *
 * Return: the unit with its backend's module pinned, or NULL.
 */
struct apmu_pcs_unit *apmu_pcs_unit_get(int cpu)
{
	struct apmu_pcs_unit *u;

	if (cpu < 0 || cpu >= nr_cpu_ids)
		return NULL;
	guard(spinlock)(&apmu_pcs_units_lock);
	u = per_cpu(apmu_pcs_units, cpu);
	if (!u || !u->ready || !try_module_get(u->owner))
		return NULL;
	u->users++;
	return u;
}

/**
 * apmu_pcs_unit_put() - release apmu_pcs_unit_get()
 * @u: the unit
 */
void apmu_pcs_unit_put(struct apmu_pcs_unit *u)
{
	scoped_guard(spinlock, &apmu_pcs_units_lock)
		u->users--;
	module_put(u->owner);
}

/* CPU hotplug: AP states run on the CPU concerned, hotplug locked against unit_add */
static int apmu_pcs_cpu_online(unsigned int cpu)
{
	struct apmu_pcs_unit *u = READ_ONCE(per_cpu(apmu_pcs_units, cpu));

	if (u)
		apmu_pcs_set_online(u, true);
	apmu_pcs_pmu_cpu_online(cpu);
	return 0;
}

static int apmu_pcs_cpu_offline(unsigned int cpu)
{
	struct apmu_pcs_unit *u = READ_ONCE(per_cpu(apmu_pcs_units, cpu));

	if (u)
		apmu_pcs_set_online(u, false);
	apmu_pcs_pmu_cpu_offline(cpu);
	return 0;
}

/* CPU PM: runs on the CPU entering or leaving a low-power state, IRQs off */
static int apmu_pcs_cpu_pm_notify(struct notifier_block *nb, unsigned long cmd, void *v)
{
	struct apmu_pcs_unit *u = __this_cpu_read(apmu_pcs_units);

	if (!u)
		return NOTIFY_DONE;
	switch (cmd) {
	case CPU_PM_ENTER:
		apmu_pcs_set_pm_off(u, true);
		break;
	case CPU_PM_EXIT:
	case CPU_PM_ENTER_FAILED:
		apmu_pcs_set_pm_off(u, false);
		break;
	default:
		return NOTIFY_DONE;
	}
	return NOTIFY_OK;
}

static struct notifier_block apmu_pcs_cpu_pm_nb = {
	.notifier_call = apmu_pcs_cpu_pm_notify,
};

/*
 * Module init: hotplug and CPU PM tracking, then the frames of the device tree and of
 * the pcs= parameter (the apmu_pcs perf PMU comes with the first usable one). Refused
 * frames are reported, not errors. Independent of the CPU PMU apmu.ko may register: only
 * sample delivery is apmu.ko's (sample.h).
 */
static int __init apmu_pcs_init(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "perf/apmu_pcs:online",
					apmu_pcs_cpu_online, apmu_pcs_cpu_offline);
	if (ret < 0)
		return ret;
	apmu_pcs_hp_state = ret;
	ret = cpu_pm_register_notifier(&apmu_pcs_cpu_pm_nb);
	if (ret)
		goto remove_hp;
	apmu_pcs_mmio_probe();
	return 0;

remove_hp:
	cpuhp_remove_state_nocalls(apmu_pcs_hp_state);
	return ret;
}
module_init(apmu_pcs_init);

static void __exit apmu_pcs_exit(void)
{
	/*
	 * The units first, with CPU PM still followed: until a unit's sysfs group is gone
	 * its files may access the frame, which must not happen while the CPU is in a
	 * power-down state the notifier no longer reports. apmu_pcs_unit_remove() waits
	 * for a notifier that may still hold the unit before it returns, so none runs on
	 * a freed one.
	 */
	apmu_pcs_mmio_remove();
	/* no event is left: each pins this module (the PMU's) */
	if (apmu_pcs_pmu_up)
		apmu_pcs_pmu_unregister();
	cpu_pm_unregister_notifier(&apmu_pcs_cpu_pm_nb);
	cpuhp_remove_state_nocalls(apmu_pcs_hp_state);
}
module_exit(apmu_pcs_exit);

MODULE_DESCRIPTION("apmu_pcs: PC sample-based profiling (FEAT_PCSRv8, v8p2, v8p9) in sysfs and as a perf PMU");
MODULE_LICENSE("GPL");
