// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: compile tests of the target kernel, never part of a module.
 *
 * Kbuild compiles this file once per APMU_PROBE_<NAME> below, with the target kernel's
 * flags and -Werror, and writes "#define APMU_HAVE_<NAME> 1" into apmu_compat_have.h for
 * each that compiles (Kbuild, "Kernel compile tests"). compat.h reads those defines and
 * nothing else: a feature is detected where it is, whatever the version number says
 * (distributions backport: Debian's 6.1.y has timer_delete_sync(), 6.1.0 had not).
 * Each test is as small as the question it answers; compat.h says what hangs on it.
 */
#include <linux/arch_topology.h>
#include <linux/build_bug.h>
#include <linux/export.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/platform_device.h>
#include <linux/sched.h>
#include <linux/sysctl.h>
#include <linux/timer.h>

#ifdef APMU_PROBE_PMU_FILTER
bool apmu_probe(struct pmu *p, int cpu);
static struct pmu apmu_probe_pmu __maybe_unused = { .filter = apmu_probe };
#endif

#ifdef APMU_PROBE_PMU_PARENT
static struct pmu apmu_probe_pmu __maybe_unused = { .parent = NULL };
#endif

/* one pointer: an array would not convert without a warning */
#ifdef APMU_PROBE_TASK_CTX_POINTER
struct perf_event_context *apmu_probe(struct task_struct *t);
struct perf_event_context *apmu_probe(struct task_struct *t)
{
	return t->perf_event_ctxp;
}
#endif

#ifdef APMU_PROBE_PLATFORM_REMOVE_VOID
void apmu_probe(struct platform_device *pdev);
static struct platform_driver apmu_probe_driver __maybe_unused = { .remove = apmu_probe };
#endif

#ifdef APMU_PROBE_CTL_TABLE_CONST
int apmu_probe(const struct ctl_table *t, int w, void *b, size_t *l, loff_t *p);
static struct ctl_table apmu_probe_table __maybe_unused = { .proc_handler = apmu_probe };
#endif

#ifdef APMU_PROBE_REGISTER_SYSCTL_SZ
struct ctl_table_header *apmu_probe(struct ctl_table *t, size_t n);
struct ctl_table_header *apmu_probe(struct ctl_table *t, size_t n)
{
	return register_sysctl_sz("kernel", t, n);
}
#endif

#ifdef APMU_PROBE_HRTIMER_SETUP
void apmu_probe(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *));
void apmu_probe(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *))
{
	hrtimer_setup(t, fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
}
#endif

#ifdef APMU_PROBE_TIMER_DELETE
int apmu_probe(struct timer_list *t);
int apmu_probe(struct timer_list *t)
{
	return timer_delete(t) + timer_delete_sync(t);
}
#endif

#ifdef APMU_PROBE_TIMER_CONTAINER_OF
struct apmu_probe_s {
	struct timer_list t;
};

struct apmu_probe_s *apmu_probe(struct timer_list *t);
struct apmu_probe_s *apmu_probe(struct timer_list *t)
{
	struct apmu_probe_s *s = timer_container_of(s, t, t);

	return s;
}
#endif

/*
 * MODULE_IMPORT_NS("NS") imports NS where namespaces are strings; where they are
 * identifiers the macro stringifies its argument, and the import would be "\"NS\"".
 * MODULE_INFO() is replaced here to see the argument the macro hands it.
 */
#ifdef APMU_PROBE_NS_STRING
#undef MODULE_INFO
#define MODULE_INFO(tag, info) static const char apmu_probe_##tag[] __maybe_unused = info
MODULE_IMPORT_NS("APMU_PROBE");
static_assert(sizeof(apmu_probe_import_ns) == sizeof("APMU_PROBE"));
#endif

/*
 * The license argument EXPORT_SYMBOL_GPL() gives __EXPORT_SYMBOL(): "GPL" since the
 * export rework of 6.5 (before, the section suffix "_gpl"). Only asked where namespaces
 * are identifiers (compat.h, EXPORT_SYMBOL_NS_GPL()).
 */
#ifdef APMU_PROBE_EXPORT_LICENSE_GPL
#undef __EXPORT_SYMBOL
#define __EXPORT_SYMBOL(sym, license, ns) \
	static const char apmu_probe_##sym[] __maybe_unused = license ns
void apmu_probe_sym(void);
void apmu_probe_sym(void)
{
}
EXPORT_SYMBOL_GPL(apmu_probe_sym);
static_assert(sizeof(apmu_probe_apmu_probe_sym) == sizeof("GPL"));
#endif

#ifdef APMU_PROBE_PERCPU_IRQ_AFFINITY
int apmu_probe(struct platform_device *pdev, irq_handler_t fn, void __percpu *dev_id);
int apmu_probe(struct platform_device *pdev, irq_handler_t fn, void __percpu *dev_id)
{
	const struct cpumask *affinity;
	int irq = platform_get_irq_affinity(pdev, 0, &affinity);

	return request_percpu_irq_affinity(irq, fn, "apmu", affinity, dev_id);
}
#endif

#ifdef APMU_PROBE_TOPOLOGY_CORE_HAS_SMT
bool apmu_probe(int cpu);
bool apmu_probe(int cpu)
{
	return topology_core_has_smt(cpu);
}
#endif
