/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: what differs between the kernels apmu builds for, in one place.
 *
 * Supported: 6.1.y (Debian 12's default kernel) to 6.12.y (the test kernel, and Debian
 * 12's linux-image-6.12.*+deb12). Each entry names the interface, the release that
 * changed it and what apmu does on either side; the driver uses only these wrappers.
 * Documentation/admin-guide/perf/apmu.rst, "Supported kernels", says how each is tested.
 */
#ifndef __APMU_COMPAT_H__
#define __APMU_COMPAT_H__

#include <linux/bitfield.h>
#include <linux/hrtimer.h>
#include <linux/perf_event.h>
#include <linux/perf/arm_pmu.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/stringify.h>
#include <linux/sysfs.h>
#include <linux/version.h>

#include "apmu.h"

/*
 * struct pmu::filter(pmu, cpu), true to skip @cpu, since 6.2 (perf core's context
 * rewrite). Before, ::filter_match(event) ran on the CPU about to schedule @event and
 * returned 1 to let it run there; perf core asks it of every event of a group. Before
 * 6.2 a second PMU with perf_hw_context (another instance, or apmu loaded again) also
 * needs PERF_PMU_CAP_HETEROGENEOUS_CPUS, as every in-tree arm_pmu has: without it
 * perf_pmu_register() WARNs and demotes the PMU to perf_invalid_context, which refuses
 * every task event.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
static inline void apmu_compat_set_filter(struct pmu *p, bool (*filter)(struct pmu *, int))
{
	p->filter = filter;
}
#else
static inline int apmu_compat_filter_match(struct perf_event *event)
{
	return cpumask_test_cpu(smp_processor_id(), &to_apmu(event->pmu)->supported_cpus);
}

static inline void apmu_compat_set_filter(struct pmu *p, bool (*filter)(struct pmu *, int))
{
	p->filter_match = apmu_compat_filter_match;
	p->capabilities |= PERF_PMU_CAP_HETEROGENEOUS_CPUS;
}
#endif

/*
 * struct pmu::parent (the PMU's device in sysfs hangs under its platform device) since
 * 6.5; before, perf core's device for the PMU has no parent.
 */
static inline void apmu_compat_set_parent(struct pmu *p, struct device *dev)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	p->parent = dev;
#endif
}

/*
 * The running task's perf context for hardware events: task_struct::perf_event_ctxp is
 * one pointer since 6.2 (perf core's context rewrite); before, an array indexed by the
 * context type, of which hardware PMUs use perf_hw_context.
 */
static inline struct perf_event_context *apmu_compat_task_ctx(struct task_struct *task)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
	return READ_ONCE(task->perf_event_ctxp);
#else
	return READ_ONCE(task->perf_event_ctxp[perf_hw_context]);
#endif
}

/*
 * platform_driver::remove returns void since 6.11. Before, the void form is
 * ::remove_new (6.3, and backported to 6.1.y stable, which Debian's 6.1 kernels are).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define APMU_PLATFORM_REMOVE	remove
#else
#define APMU_PLATFORM_REMOVE	remove_new
#endif

/*
 * sysctl: proc handlers take a const struct ctl_table since 6.11. register_sysctl()
 * sizes the table with ARRAY_SIZE() since 6.6 and rejects an empty entry since 6.11;
 * before 6.6 it walks the table up to an empty entry, which must then be there.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define APMU_CTL_CONST		const
#else
#define APMU_CTL_CONST
#endif
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 6, 0)
#define APMU_CTL_TABLE_END	{ }
#else
#define APMU_CTL_TABLE_END
#endif

/*
 * The format/ field macros of <linux/perf/arm_pmu.h>: a field is declared once as
 * ATTR_CFG_FLD_<name>_CFG/_LO/_HI, and GEN_PMU_FORMAT_ATTR() makes its sysfs file while
 * ATTR_CFG_GET_FLD() decodes it. There since 6.9 (moved from arm_spe_pmu.c); before,
 * equivalent ones here (the same sysfs text, "config1:0" for a one-bit field).
 */
#ifndef GEN_PMU_FORMAT_ATTR
static inline ssize_t apmu_format_show(char *page, const char *cfg, int lo, int hi)
{
	if (lo == hi)
		return sysfs_emit(page, "%s:%d\n", cfg, lo);
	return sysfs_emit(page, "%s:%d-%d\n", cfg, lo, hi);
}

#define GEN_PMU_FORMAT_ATTR(name)					\
static ssize_t name##_show(struct device *dev, struct device_attribute *attr,	\
			   char *page)						\
{										\
	return apmu_format_show(page, __stringify(ATTR_CFG_FLD_##name##_CFG),	\
				ATTR_CFG_FLD_##name##_LO, ATTR_CFG_FLD_##name##_HI);	\
}										\
static struct device_attribute format_attr_##name = __ATTR_RO(name)

#define ATTR_CFG_GET_FLD(attr, name)					\
	FIELD_GET(GENMASK_ULL(ATTR_CFG_FLD_##name##_HI, ATTR_CFG_FLD_##name##_LO),	\
		  (attr)->ATTR_CFG_FLD_##name##_CFG)
#endif

/*
 * hrtimer_setup() (init and callback in one call) is in 6.13, and hrtimer_init() goes
 * in 6.15; apmu's supported kernels have only hrtimer_init().
 */
static inline void apmu_compat_hrtimer_setup(struct hrtimer *timer,
					     enum hrtimer_restart (*fn)(struct hrtimer *),
					     clockid_t clock, enum hrtimer_mode mode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

/*
 * The task flags of threads without user-mode state of their own: kernel threads and
 * io_uring workers, and from 6.4 every user worker (PF_USER_WORKER: io_uring, vhost),
 * which share a process's mm but never run at EL0. Tested by the flag's definition, not
 * the release number: a stable backport brings the flag with its users.
 */
#ifdef PF_USER_WORKER
#define APMU_COMPAT_NO_USER_STATE	(PF_KTHREAD | PF_IO_WORKER | PF_USER_WORKER)
#else
#define APMU_COMPAT_NO_USER_STATE	(PF_KTHREAD | PF_IO_WORKER)
#endif

/*
 * __uninitialized (6.3): no automatic zeroing of a stack variable under
 * CONFIG_INIT_STACK_ALL_ZERO. Without it, older kernels simply zero it.
 */
#ifndef __uninitialized
#define __uninitialized
#endif

/*
 * perf_event_attr::config3 (PERF_ATTR_SIZE_VER8) is in 6.3. A config3 that attr.size does
 * not cover reads 0 (perf core zeroes what user space did not pass); before 6.3 perf
 * core refuses non-zero bytes past its attr with E2BIG itself.
 */
static inline u64 apmu_compat_config3(const struct perf_event_attr *attr)
{
#ifdef PERF_ATTR_SIZE_VER8
	return attr->config3;
#else
	return 0;
#endif
}

/*
 * <kunit/visibility.h> (VISIBLE_IF_KUNIT, EXPORT_SYMBOL_IF_KUNIT) is in 6.2, and in
 * Debian's 6.1.y; the KUnit module is built only where CONFIG_KUNIT is set (not in
 * Debian's configs). MODULE_IMPORT_NS() takes a bare namespace identifier up to 6.12
 * and a string from 6.13: only the KUnit module imports one.
 */

#endif /* __APMU_COMPAT_H__ */
