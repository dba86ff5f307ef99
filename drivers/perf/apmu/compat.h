/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: what differs between the kernels apmu builds for, in one place.
 *
 * Supported: 6.1.y (Debian 12's default kernel) to 7.2.y. Each entry names the kernel
 * change it follows, what apmu does on either side and what would remove it. The driver
 * is written against the newest kernel's interfaces (hrtimer_setup(), timer_delete_sync(),
 * string symbol namespaces, ...); older kernels are mapped onto them here.
 *
 * Which side of a change the target kernel is on is decided by a compile test
 * (compat_probe.c, run by Kbuild into apmu_compat_have.h: APMU_HAVE_*), or by the
 * presence of a macro, never by LINUX_VERSION_CODE: distributions backport interfaces
 * into older release numbers. Documentation/admin-guide/perf/apmu.rst, "Supported
 * kernels", says how each kernel is built and tested.
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
 * struct pmu::filter(pmu, cpu), true to skip @cpu, since 6.2 (perf core's context
 * rewrite). Before, ::filter_match(event) ran on the CPU about to schedule @event and
 * returned 1 to let it run there; perf core asks it of every event of a group. Before
 * 6.2 a second PMU with perf_hw_context (another instance, or apmu loaded again) also
 * needs PERF_PMU_CAP_HETEROGENEOUS_CPUS, as every in-tree arm_pmu has: without it
 * perf_pmu_register() WARNs and demotes the PMU to perf_invalid_context, which refuses
 * every task event. ::filter_match() has no PMU argument to find a filter through: it
 * calls the core's, by name (the only one apmu has). Goes when the oldest supported
 * kernel has ::filter.
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

/*
 * struct pmu::parent (the PMU's device in sysfs hangs under its platform device) since
 * 6.5; before, perf core's device for the PMU has no parent. Goes (for a plain
 * assignment) when the oldest supported kernel has ::parent.
 */
static inline void apmu_compat_set_parent(struct pmu *p, struct device *dev)
{
#ifdef APMU_HAVE_PMU_PARENT
	p->parent = dev;
#endif
}

/*
 * The running task's perf context for hardware events: task_struct::perf_event_ctxp is
 * one pointer since 6.2 (perf core's context rewrite); before, an array indexed by the
 * context type, of which hardware PMUs use perf_hw_context. Goes (for READ_ONCE of the
 * pointer) when the oldest supported kernel has the one pointer.
 */
static inline struct perf_event_context *apmu_compat_task_ctx(struct task_struct *task)
{
#ifdef APMU_HAVE_TASK_CTX_POINTER
	return READ_ONCE(task->perf_event_ctxp);
#else
	return READ_ONCE(task->perf_event_ctxp[perf_hw_context]);
#endif
}

/*
 * perf core's "events of this context are scheduled in" bits of
 * perf_event_context::is_active (EVENT_FLEXIBLE | EVENT_PINNED, private to
 * kernel/events/core.c, the same values from 6.1 to 7.2; user_access.c reads them).
 * ctx_sched_out() clears them when the task is switched out, before it removes the
 * events in the pmu_disable()/pmu_enable() bracket that ends in apmu's pmu_enable();
 * multiplexing rotation does not touch them. A copy, because the enum is not in a
 * header: goes if perf core exports a "task context scheduled in" test to modules.
 */
#define APMU_CTX_SCHEDULED	0x3

/*
 * Whether @event has a ring buffer (is mmapped): perf_event::rb is perf core's, and
 * apmu only tests it for NULL, never dereferences it, to skip the out-of-line
 * perf_event_update_userpage() call, which makes the same test under RCU, for the
 * events nobody mmapped (core.c, apmu_update_userpage()). Goes if perf core makes that
 * test inline itself.
 */
static inline bool apmu_compat_event_has_rb(struct perf_event *event)
{
	return READ_ONCE(event->rb);
}

/*
 * The address of a kernel function not exported to modules (perf_event_overflow() and
 * perf_sample_event_took() up to 7.2 at least: core/overflow.c), by a kprobe:
 * register_kprobe() resolves the name. The probe is registered disabled: its address is
 * resolved, but it is never armed, so no kernel text is patched. Arming patches text
 * under stop_machine(), which hangs QEMU 7.2's 32-bit Arm virt machine
 * (Documentation/admin-guide/perf/apmu.rst, "32-bit Arm"). NULL without CONFIG_KPROBES
 * or for a symbol kprobes refuse. Goes when perf core exports both functions (Kbuild
 * then defines APMU_OVERFLOW_EXPORTED and they are called directly).
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

/*
 * platform_driver::remove returns void since 6.11. Before, the void form is
 * ::remove_new (6.3, and backported to 6.1.y stable, which Debian's 6.1 kernels are).
 * Goes (for .remove) when the oldest supported kernel has the void ::remove.
 */
#ifdef APMU_HAVE_PLATFORM_REMOVE_VOID
#define APMU_PLATFORM_REMOVE	remove
#else
#define APMU_PLATFORM_REMOVE	remove_new
#endif

/*
 * sysctl: proc handlers take a const struct ctl_table since 6.11. register_sysctl()
 * sizes the table with ARRAY_SIZE() (register_sysctl_sz()) since 6.6 and rejects an
 * empty entry since 6.11; before 6.6 it walks the table up to an empty entry, which must
 * then be there. Each goes when the oldest supported kernel is past its change.
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

/*
 * The format/ field macros of <linux/perf/arm_pmu.h>: a field is declared once as
 * ATTR_CFG_FLD_<name>_CFG/_LO/_HI, and GEN_PMU_FORMAT_ATTR() makes its sysfs file while
 * ATTR_CFG_GET_FLD() decodes it. There since 6.9 (moved from arm_spe_pmu.c); before,
 * equivalent ones here (the same sysfs text, "config1:0" for a one-bit field). Goes when
 * the oldest supported kernel has them.
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
 * hrtimer_setup() (init and callback in one call) since 6.13; hrtimer_init() is gone
 * in 6.15. Before, the two steps it replaced. Goes when the oldest supported kernel has
 * hrtimer_setup().
 */
#ifndef APMU_HAVE_HRTIMER_SETUP
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/*
 * topology_core_has_smt() since 6.16 (with the in-tree PMUv3 driver's PMCCNTR rule):
 * whether the firmware described threads in @cpu's core. Before, the same test of
 * arch_topology's cpu_topology[] (exported on arm64 and arm). Goes when the oldest
 * supported kernel has it.
 */
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

/*
 * timer_delete() and timer_delete_sync() replace del_timer() and del_timer_sync() since
 * 6.2 (backported to 6.1.y stable: Debian's 6.1 has them); the old names are gone by
 * 7.2. Before, the old names. Goes when the oldest supported kernel has the new ones.
 */
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

/*
 * timer_container_of() replaces from_timer() since 6.16; the old name is gone by 7.2.
 * Before, from_timer() (the same container_of()). Goes when the oldest supported kernel
 * has timer_container_of().
 */
#ifndef APMU_HAVE_TIMER_CONTAINER_OF
#define timer_container_of(var, callback_timer, timer_fieldname) \
	from_timer(var, callback_timer, timer_fieldname)
#endif

/*
 * Symbol namespaces are string literals since 6.13 (EXPORT_SYMBOL_NS_GPL(sym, "NS"),
 * MODULE_IMPORT_NS("NS"); <kunit/visibility.h> exports into "EXPORTED_FOR_KUNIT_TESTING").
 * Before, the macros take an identifier and stringify it, so a string would become the
 * namespace "\"NS\"": here they take the string as it is, as 6.13's do. The export goes
 * through __EXPORT_SYMBOL() (license "GPL" from 6.5, the section suffix "_gpl" before),
 * as EXPORT_SYMBOL_NS_GPL() itself does. Goes when the oldest supported kernel has
 * string namespaces.
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
 * A per-CPU interrupt (PPI) that serves only some CPUs: since genirq's per-CPU affinity
 * rework (after 6.12; 7.2 has only it) there are no PPI partitions and no
 * irq_get_percpu_devid_partition(); a PPI is one Linux interrupt,
 * platform_get_irq_affinity() gives the CPUs the firmware ties it to, and
 * request_percpu_irq_affinity() requests it for those CPUs only (two PMUs of a
 * heterogeneous system share it). Before, each partition is an interrupt of its own,
 * whose CPUs irq_get_percpu_devid_partition() copies, and request_percpu_irq() requests
 * it. apmu_compat_ppi_affinity() puts the CPUs of PPI @irq (interrupt 0 of @pdev) in
 * @mask: 0, or an errno when the kernel knows of no partition. Goes (for
 * platform_get_irq_affinity()) when the oldest supported kernel has the new interface.
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

/*
 * The task flags of threads without user-mode state of their own: kernel threads and
 * io_uring workers, and from 6.4 every user worker (PF_USER_WORKER: io_uring, vhost),
 * which share a process's mm but never run at EL0. Tested by the flag's definition, not
 * the release number: a stable backport brings the flag with its users. Goes (for the
 * three flags) when the oldest supported kernel has PF_USER_WORKER.
 */
#ifdef PF_USER_WORKER
#define APMU_COMPAT_NO_USER_STATE	(PF_KTHREAD | PF_IO_WORKER | PF_USER_WORKER)
#else
#define APMU_COMPAT_NO_USER_STATE	(PF_KTHREAD | PF_IO_WORKER)
#endif

/*
 * __uninitialized (6.3): no automatic zeroing of a stack variable under
 * CONFIG_INIT_STACK_ALL_ZERO. Without it, older kernels simply zero it. Goes when the
 * oldest supported kernel has it.
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
 * Throttling since 6.16 (perf core's rework of the throttle for groups): perf core stops
 * a throttled event's whole group itself, through pmu->stop() called from inside
 * perf_event_overflow() (so from apmu's overflow handler and PC-sample delivery), and
 * restarts every member with pmu->start() at the next tick; drivers no longer act on
 * perf_event_overflow()'s return (7.2 also stops an event at its IOC_REFRESH limit
 * there). Before, only the return says so, and the driver stops the one event. apmu
 * does the latter on every kernel: its stop() callbacks do nothing for an event already
 * stopped, so one source is right on both sides and no compile test is needed
 * (kselftest apmu_sampling throttled_group_restarts shows both). Goes (the stop after
 * the return) when the oldest supported kernel has 6.16's throttle.
 */

/*
 * <kunit/visibility.h> (VISIBLE_IF_KUNIT, EXPORT_SYMBOL_IF_KUNIT) is in 6.2, and in
 * Debian's 6.1.y; the KUnit module is built only where CONFIG_KUNIT is set (not in
 * Debian's configs).
 */

/*
 * cpu_pm_unregister_notifier() waits for the walks of cpu_pm_notify(), which run under
 * rcu_read_lock() on the idling CPU (CPU_PM_EXIT), only in newer kernels (6.12's waits:
 * "Wait for the rcu_read_lock() walkers"); an older one returns while a walk that loaded
 * the notifier may still run it. apmu frees what its notifiers use right after
 * unregistering, so it waits itself, on every kernel: a second grace period where the
 * kernel already waited, at unload only. Remove once the oldest supported kernel waits.
 */
static inline void apmu_cpu_pm_unregister(struct notifier_block *nb)
{
	if (!cpu_pm_unregister_notifier(nb))
		synchronize_rcu();
}

#endif /* __APMU_COMPAT_H__ */
