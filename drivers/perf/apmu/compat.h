/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: what differs between the kernels apmu builds for (6.1.y to 7.2.y), in one place.
 * The driver uses the newest kernel's interfaces; older kernels are mapped onto them
 * here; an entry goes when the oldest supported kernel is past its change. The side of a
 * change is decided by a compile test (compat_probe.c, APMU_HAVE_*) or a macro's presence,
 * never by LINUX_VERSION_CODE: distributions backport.
 */
#ifndef __APMU_COMPAT_H__
#define __APMU_COMPAT_H__

#include <linux/arch_topology.h>
#include <linux/bitfield.h>
#include <linux/cpu_pm.h>
#include <linux/export.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/perf/arm_pmu.h>
#include <linux/platform_device.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/stringify.h>
#include <linux/sysfs.h>
#include <linux/timer.h>

#include "apmu_compat_have.h"

/*
 * struct pmu::filter(pmu, cpu) since 6.2; before, ::filter_match(event), true to let the
 * event run on this CPU, which has no PMU argument (hence the core's filter by name).
 * Before 6.2 a second PMU in perf_hw_context also needs PERF_PMU_CAP_HETEROGENEOUS_CPUS,
 * or perf_pmu_register() demotes it to perf_invalid_context.
 */
bool apmu_pmu_filter(struct pmu *p, int cpu);	/* core/core.c */

#ifdef APMU_HAVE_PMU_FILTER
static inline void apmu_compat_set_filter(struct pmu *p, bool (*filter)(struct pmu *, int))
{
	p->filter = filter;
}
#else
static inline int apmu_compat_filter_match(struct perf_event *event)
{
	return !apmu_pmu_filter(event->pmu, smp_processor_id());
}

static inline void apmu_compat_set_filter(struct pmu *p, bool (*filter)(struct pmu *, int))
{
	p->filter_match = apmu_compat_filter_match;
	p->capabilities |= PERF_PMU_CAP_HETEROGENEOUS_CPUS;
}
#endif

/* struct pmu::parent (sysfs device under the platform device) since 6.5 */
static inline void apmu_compat_set_parent(struct pmu *p, struct device *dev)
{
#ifdef APMU_HAVE_PMU_PARENT
	p->parent = dev;
#endif
}

/* task_struct::perf_event_ctxp: one pointer since 6.2, before an array by context type */
static inline struct perf_event_context *apmu_compat_task_ctx(struct task_struct *task)
{
#ifdef APMU_HAVE_TASK_CTX_POINTER
	return READ_ONCE(task->perf_event_ctxp);
#else
	return READ_ONCE(task->perf_event_ctxp[perf_hw_context]);
#endif
}

/*
 * EVENT_FLEXIBLE | EVENT_PINNED of perf_event_context::is_active (private to
 * kernel/events/core.c; 6.1 to 7.2): the task's context is scheduled in. ctx_sched_out()
 * clears them before the bracket that removes the events; rotation does not. Goes if
 * perf core exports such a test.
 */
#define APMU_CTX_SCHEDULED	0x3

/*
 * @event is mmapped: perf_event::rb tested, never dereferenced, to skip the out-of-line
 * perf_event_update_userpage() for unmapped events. Goes if perf core inlines that test.
 */
static inline bool apmu_compat_event_has_rb(struct perf_event *event)
{
	return READ_ONCE(event->rb);
}

/*
 * The address of a function not exported to modules (perf_event_overflow(),
 * perf_sample_event_took(): core/overflow.c), resolved by a kprobe registered disabled:
 * arming would patch text under stop_machine() (apmu.rst, "32-bit Arm"). NULL without
 * CONFIG_KPROBES. Goes when perf core exports both (Kbuild: APMU_OVERFLOW_EXPORTED).
 */
static inline void *apmu_compat_lookup(const char *name)
{
#if IS_ENABLED(CONFIG_KPROBES)
	struct kprobe kp = { .symbol_name = name, .flags = KPROBE_FLAG_DISABLED };
	void *addr;

	if (register_kprobe(&kp) < 0)
		return NULL;
	addr = kp.addr;
	unregister_kprobe(&kp);
	return addr;
#else
	return NULL;
#endif
}

/* platform_driver::remove is void since 6.11; before, ::remove_new (6.3, 6.1.y stable) */
#ifdef APMU_HAVE_PLATFORM_REMOVE_VOID
#define APMU_PLATFORM_REMOVE	remove
#else
#define APMU_PLATFORM_REMOVE	remove_new
#endif

/*
 * sysctl: const struct ctl_table in handlers since 6.11; register_sysctl() sizes the
 * table since 6.6 (and refuses an empty entry since 6.11), before it needs one at the end.
 */
#ifdef APMU_HAVE_CTL_TABLE_CONST
#define APMU_CTL_CONST		const
#else
#define APMU_CTL_CONST
#endif
#ifdef APMU_HAVE_REGISTER_SYSCTL_SZ
#define APMU_CTL_TABLE_END
#else
#define APMU_CTL_TABLE_END	{ }
#endif

/* <linux/perf/arm_pmu.h>'s format/ field macros are there since 6.9; before, the same here */
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

/* hrtimer_setup() since 6.13 (hrtimer_init() gone in 6.15) */
#ifndef APMU_HAVE_HRTIMER_SETUP
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/* topology_core_has_smt() since 6.16; before, the same test of cpu_topology[] */
#ifndef APMU_HAVE_TOPOLOGY_CORE_HAS_SMT
static inline bool topology_core_has_smt(int cpu)
{
#ifdef CONFIG_GENERIC_ARCH_TOPOLOGY
	return cpu_topology[cpu].thread_id != -1;
#else
	return false;
#endif
}
#endif

/* timer_delete{,_sync}() since 6.2 (and 6.1.y); del_timer{,_sync}() gone by 7.2 */
#ifndef APMU_HAVE_TIMER_DELETE
static inline int timer_delete(struct timer_list *timer)
{
	return del_timer(timer);
}

static inline int timer_delete_sync(struct timer_list *timer)
{
	return del_timer_sync(timer);
}
#endif

/* timer_container_of() since 6.16; from_timer() gone by 7.2 */
#ifndef APMU_HAVE_TIMER_CONTAINER_OF
#define timer_container_of(var, callback_timer, timer_fieldname) \
	from_timer(var, callback_timer, timer_fieldname)
#endif

/*
 * Symbol namespaces are string literals since 6.13; before, the macros stringify an
 * identifier, so these take the string as 6.13's do (license "GPL" from 6.5, "_gpl"
 * before, as EXPORT_SYMBOL_NS_GPL() itself).
 */
#ifndef APMU_HAVE_NS_STRING
#undef MODULE_IMPORT_NS
#define MODULE_IMPORT_NS(ns)		MODULE_INFO(import_ns, ns)
#undef EXPORT_SYMBOL_NS_GPL
#ifdef APMU_HAVE_EXPORT_LICENSE_GPL
#define EXPORT_SYMBOL_NS_GPL(sym, ns)	__EXPORT_SYMBOL(sym, "GPL", ns)
#else
#define EXPORT_SYMBOL_NS_GPL(sym, ns)	__EXPORT_SYMBOL(sym, "_gpl", ns)
#endif
#endif

/*
 * A PPI serving only some CPUs: after 6.12 one interrupt, its CPUs from
 * platform_get_irq_affinity(), requested with request_percpu_irq_affinity(); before, one
 * interrupt per partition (irq_get_percpu_devid_partition(), request_percpu_irq()).
 * apmu_compat_ppi_affinity(): the CPUs of PPI @irq (interrupt 0 of @pdev) in @mask.
 */
#ifdef APMU_HAVE_PERCPU_IRQ_AFFINITY
static inline int apmu_compat_ppi_affinity(struct platform_device *pdev, int irq,
					   struct cpumask *mask)
{
	const struct cpumask *affinity = NULL;

	if (platform_get_irq_affinity(pdev, 0, &affinity) != irq || !affinity)
		return -ENOENT;
	cpumask_copy(mask, affinity);
	return 0;
}
#else
static inline int apmu_compat_ppi_affinity(struct platform_device *pdev, int irq,
					   struct cpumask *mask)
{
	return irq_get_percpu_devid_partition(irq, mask);
}

static inline int __must_check
request_percpu_irq_affinity(unsigned int irq, irq_handler_t handler, const char *devname,
			    const cpumask_t *affinity, void __percpu *percpu_dev_id)
{
	return request_percpu_irq(irq, handler, devname, percpu_dev_id);
}
#endif

/* Threads that never run at EL0: kernel threads, io_uring and (6.4) all user workers */
#ifdef PF_USER_WORKER
#define APMU_COMPAT_NO_USER_STATE	(PF_KTHREAD | PF_IO_WORKER | PF_USER_WORKER)
#else
#define APMU_COMPAT_NO_USER_STATE	(PF_KTHREAD | PF_IO_WORKER)
#endif

/* __uninitialized (6.3): no zeroing under CONFIG_INIT_STACK_ALL_ZERO */
#ifndef __uninitialized
#define __uninitialized
#endif

/* perf_event_attr::config3 since 6.3; before, perf core refuses it (E2BIG) */
static inline u64 apmu_compat_config3(const struct perf_event_attr *attr)
{
#ifdef PERF_ATTR_SIZE_VER8
	return attr->config3;
#else
	return 0;
#endif
}

/*
 * Throttling: since 6.16 perf core stops a throttled group itself; apmu stops the event
 * on perf_event_overflow()'s return on every kernel, its stop() a no-op when stopped
 * (apmu.rst, "Linux 7.2"). <kunit/visibility.h>: 6.2, and Debian's 6.1.y.
 */

/*
 * cpu_pm_unregister_notifier() waits for cpu_pm_notify()'s RCU walkers only in newer
 * kernels (6.12); apmu frees what its notifiers use next, so it waits itself.
 */
static inline void apmu_cpu_pm_unregister(struct notifier_block *nb)
{
	if (!cpu_pm_unregister_notifier(nb))
		synchronize_rcu();
}

#endif /* __APMU_COMPAT_H__ */
