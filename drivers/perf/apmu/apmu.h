/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: a loadable perf PMU driver for the Arm Performance Monitors. As in-tree: core/ is
 * the backend-neutral perf core, a backend drives one kind of PMU through its ops.
 */
#ifndef __APMU_H
#define __APMU_H

#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/mod_devicetable.h>
#include <linux/notifier.h>
#include <linux/perf_event.h>
#include <linux/perf/arm_pmu.h>
#include <linux/types.h>

#include "sample.h"

/* Counter indexes are the bits of one word: the overflow flags the handler gets */
#define APMU_MAX_IDX		BITS_PER_LONG

/*
 * hw_perf_event.flags, inside PERF_EVENT_FLAG_ARCH. APMU_HWF_IRQ: the event's overflow
 * interrupt is on (never without &apmu_pmu.has_irq). APMU_HWF_BACKEND: what get_idx() chose.
 */
#define APMU_HWF_IRQ		BIT(9)
#define APMU_HWF_BACKEND	GENMASK(15, 12)
#define APMU_HWF_COUNTER	(ARMPMU_EVT_64BIT | APMU_HWF_BACKEND)

static_assert((PERF_EVENT_FLAG_ARCH & APMU_HWF_IRQ) == APMU_HWF_IRQ);
static_assert((PERF_EVENT_FLAG_ARCH & APMU_HWF_BACKEND) == APMU_HWF_BACKEND);

struct apmu_pmu;

/**
 * struct apmu_pmu_ops - what a backend does for the perf core
 *
 * Hot-path ops (@get_idx to @take_overflows) run on their counters' CPU, with IRQs off
 * or inside perf's pmu_disable()/pmu_enable() bracket. Counter indexes are the backend's.
 *
 * @probe: on one CPU of the PMU, before registration: discover it and fill the backend's
 *	   fields. Return: 0 or -ENODEV (no such PMU).
 * @map_event: the event number @event's type and config ask for. Return: the number;
 *	       -ENOENT for a foreign type or an event this PMU lacks, -EINVAL for bad bits.
 * @set_filter: fold exclusion filters and thresholds into hw.config_base (the event
 *		number); flag rdpmc with PERF_EVENT_FLAG_USER_READ_CNT. Return: 0 or an
 *		errno. Optional: without it, PERF_PMU_CAP_NO_EXCLUDE.
 * @get_idx: take counters for @event in @used (a CPU's, or a scratch map when validating
 *	     a group); *@flags gets their %APMU_HWF_COUNTER bits. Return: index or -EAGAIN.
 * @put_idx: release what get_idx() took for @event (its hw.idx) in @used.
 * @read_counter: the raw value of @event's counter, at the counter's width.
 * @write_counter: set @event's counter to @val.
 * @enable: program and enable @event's counter; its interrupt too with %APMU_HWF_IRQ.
 * @disable: stop @event's counter, clear its interrupt enable and overflow flag.
 * @start: the PMU-wide enable, earlier programming in effect first. Called only while
 *	   some counter of the CPU is in use; with @start_when_running, only while
 *	   some event's counter runs (held and not stopped).
 * @stop: stop every counter at once, in effect before it returns.
 * @take_overflows: read and clear every overflow flag and, when a counter in @used
 *		    overflowed, @stop. Return: the overflowed indexes.
 * @reset: idle the calling CPU's PMU: no counter, interrupt, flag, EL0 access or
 *	   PMU-wide enable on, counters zeroed.
 * @quiesce: as @reset, but counter values are kept (CPU going offline).
 * @user_access: EL0 counter reads on this CPU: off for @used NULL; else counters not in
 *		 @used read 0, and with per-counter access only @own (the running task's
 *		 rdpmc counters) are readable. @grant: access was off. Optional: without
 *		 it the core refuses events flagged for EL0 reads (-EOPNOTSUPP).
 * @start_when_running: the PMU-wide enable also runs counters that no event runs (one
 *			without an enable of its own, as XScale's CCNT), so @start is
 *			called only while some event's counter runs; the core then walks
 *			the CPU's events before each @start.
 */
struct apmu_pmu_ops {
	int (*probe)(struct apmu_pmu *pmu);
	int (*map_event)(struct perf_event *event);
	int (*set_filter)(struct perf_event *event);
	int (*get_idx)(unsigned long *used, struct perf_event *event, unsigned long *flags);
	void (*put_idx)(unsigned long *used, struct perf_event *event);
	u64 (*read_counter)(struct perf_event *event);
	void (*write_counter)(struct perf_event *event, u64 val);
	void (*enable)(struct perf_event *event);
	void (*disable)(struct perf_event *event);
	void (*start)(struct apmu_pmu *pmu);
	void (*stop)(struct apmu_pmu *pmu);
	unsigned long (*take_overflows)(struct apmu_pmu *pmu, const unsigned long *used);
	void (*reset)(struct apmu_pmu *pmu);
	void (*quiesce)(struct apmu_pmu *pmu);
	void (*user_access)(struct apmu_pmu *pmu, const unsigned long *used,
			    const unsigned long *own, bool grant);
	bool start_when_running;
};

/**
 * struct apmu_cpu - per-CPU state of one PMU instance; touched only on its own CPU
 * @pmu: the instance this state belongs to
 * @irq: this CPU's overflow SPI, when the PMU has one SPI per CPU; else 0
 * @irq_requested: @irq is requested
 * @fold_on: CPU online for this instance, @fold_timer may run (hotplug sets; IRQs off)
 * @fold_timer: without an overflow interrupt, folds 32-bit counters before they wrap
 * @used: counter indexes in use
 * @pm_stopped: indexes apmu_cpu_pm_save() stopped and apmu_cpu_pm_restore() restarts
 * @events: the event on each counter index; &apmu_pmu.nr_idx entries
 */
struct apmu_cpu {
	struct apmu_pmu *pmu;
	int irq;
	bool irq_requested;
	bool fold_on;
	/* cold: @used stays next to @events for the hot paths */
	struct hrtimer fold_timer;
	DECLARE_BITMAP(used, APMU_MAX_IDX);
	DECLARE_BITMAP(pm_stopped, APMU_MAX_IDX);
	struct perf_event *events[];
};

/**
 * struct apmu_pmu - one PMU instance, embedded first in the backend's
 * @pmu: the perf PMU, registered as @name; first, so an event's pmu is the instance
 * @ops: the backend
 * @attr_groups: sysfs groups of the PMU (the backend's, with &apmu_cpus_group)
 * @dev: the platform device, for messages
 * @hw: per-CPU counter state, with @nr_idx event slots each
 * @supported_cpus: the CPUs this instance counts on
 * @name: PMU name in /sys/bus/event_source/devices/
 * @nr_idx: counter indexes the backend uses (0 to @nr_idx - 1); at most %APMU_MAX_IDX
 * @num_counters: general-purpose counters, for messages (set by @ops->probe)
 * @num_dedicated: dedicated counters (cycle counter, ...), for messages (@ops->probe)
 * @info: what @ops->probe found, for the line that announces the PMU
 * @irq: the overflow interrupt when it is one per-CPU PPI, or 0
 * @irq_percpu: @irq is a PPI; otherwise each CPU has its own SPI in &struct apmu_cpu
 * @has_irq: an overflow interrupt is used; without, no sampling, and fold timers
 * @run_irq_work: the overflow handler runs perf's irq_work (&apmu_backend.run_irq_work)
 * @node: cpuhp multi-instance node
 * @cpu_pm_nb: CPU PM notifier: PMU state across core power-down
 */
struct apmu_pmu {
	struct pmu pmu;
	const struct apmu_pmu_ops *ops;
	const struct attribute_group **attr_groups;
	struct device *dev;
	struct apmu_cpu __percpu *hw;
	cpumask_t supported_cpus;
	const char *name;
	unsigned int nr_idx;
	unsigned int num_counters;
	unsigned int num_dedicated;
	char info[64];
	int irq;
	bool irq_percpu;
	bool has_irq;
	bool run_irq_work;
	struct hlist_node node;
	struct notifier_block cpu_pm_nb;
};

static inline struct apmu_pmu *to_apmu(struct pmu *pmu)
{
	return container_of(pmu, struct apmu_pmu, pmu);
}

/**
 * struct apmu_backend - one kind of PMU, as the platform glue (core/platform.c) binds it
 * @name: the kind, for messages
 * @of_match: the device tree compatibles of its PMUs (.data: the backend's), or NULL
 * @id_table: the platform device names of its PMUs (board files), or NULL
 * @intree_initcall: the in-tree driver's init, for initcall_blacklist=
 * @alloc: a device-managed instance with @ops, @nr_idx, @attr_groups and @name set.
 *	   Return: it, or an ERR_PTR() (-ENODEV: no such PMU).
 * @sysctl_register: register the backend's sysctls; process context, once per PMU
 *		     registered, so idempotent. Optional.
 * @sysctl_unregister: unregister them, at module unload. Optional.
 * @run_irq_work: the overflow handler runs perf's irq_work, for architectures that may
 *		  raise no interrupt for it
 */
struct apmu_backend {
	const char *name;
	const struct of_device_id *of_match;
	const struct platform_device_id *id_table;
	const char *intree_initcall;
	struct apmu_pmu *(*alloc)(struct device *dev);
	void (*sysctl_register)(void);
	void (*sysctl_unregister)(void);
	bool run_irq_work;
};

/* PMUv3: arm64 and ARMv7+ (CPU_V7); XScale: ARMv5, never in the same kernel */
#define APMU_HAVE_PMUV3		(IS_ENABLED(CONFIG_ARM64) || IS_ENABLED(CONFIG_CPU_V7))
#define APMU_HAVE_XSCALE	IS_ENABLED(CONFIG_CPU_XSCALE)

extern const struct apmu_backend apmu_pmuv3_backend;
extern const struct apmu_backend apmu_xscale_backend;

/* core/platform.c: the platform driver, and the overflow interrupt from DT to CPUs */
int apmu_platform_init(void);
void apmu_platform_exit(void);
void apmu_irq_cpu_online(struct apmu_pmu *pmu, unsigned int cpu);
void apmu_irq_cpu_offline(struct apmu_pmu *pmu, unsigned int cpu);
#if IS_ENABLED(CONFIG_KUNIT)
extern bool apmu_irq_ignore;
#endif

/* core/hotplug.c: CPU hotplug and CPU PM */
int apmu_hotplug_init(void);
void apmu_hotplug_exit(void);
int apmu_hotplug_add(struct apmu_pmu *pmu);
void apmu_hotplug_remove(struct apmu_pmu *pmu);

/* core/overflow.c: sample delivery (sample.h), resolved once at load */
bool apmu_overflow_init(void);
#if IS_ENABLED(CONFIG_KUNIT)
void apmu_overflow_test_sampling(bool on);
#endif

/* core/core.c: the perf core */
int apmu_pmu_alloc_cpus(struct apmu_pmu *pmu);
void apmu_pmu_init(struct apmu_pmu *pmu, struct module *owner);
irqreturn_t apmu_handle_irq(int irq, void *dev_id);
void apmu_cpu_pm_save(struct apmu_pmu *pmu, struct apmu_cpu *cpu);
void apmu_cpu_pm_restore(struct apmu_pmu *pmu, struct apmu_cpu *cpu);
void apmu_cpu_reinit(struct apmu_pmu *pmu, struct apmu_cpu *cpu);
void apmu_cpu_quiesce(struct apmu_pmu *pmu, struct apmu_cpu *cpu);
u64 apmu_event_update(struct perf_event *event);
enum hrtimer_restart apmu_fold_timer(struct hrtimer *timer);
void apmu_fold_cpu_online(struct apmu_cpu *cpu);
void apmu_fold_cpu_offline(struct apmu_cpu *cpu);
extern const struct attribute_group apmu_cpus_group;

/* 32-bit counters armed at half range, as in-tree: a late interrupt is unambiguous */
#define APMU_ARM_32BIT		BIT_ULL(31)

/* core/user_access.c: rdpmc; the policy the backend's sysctl sets (apmu_user_access_set()) */
extern int apmu_sysctl_user_access;
void apmu_user_access_update(struct apmu_pmu *pmu, struct apmu_cpu *cpu);
void apmu_user_access_reset_cpu(struct apmu_cpu *cpu);
void apmu_user_access_set(int on);
void apmu_user_event_destroy(struct perf_event *event);
int apmu_event_idx(struct perf_event *event);

/* A format/ field ATTR_CFG_FLD_<name>_*: its bits in its config word, its hex digits */
#define APMU_FLD_MASK(name)	\
	GENMASK_ULL(ATTR_CFG_FLD_##name##_HI, ATTR_CFG_FLD_##name##_LO)
#define APMU_FLD_DIGITS(name)	\
	DIV_ROUND_UP(ATTR_CFG_FLD_##name##_HI - ATTR_CFG_FLD_##name##_LO + 1, 4)

/* core/sysfs.c: an events/ file, "event=0x<id>" in @digits hex digits (the event field's) */
struct apmu_event_attr {
	struct perf_pmu_events_attr pmu_attr;
	unsigned int digits;
};

ssize_t apmu_event_show(struct device *dev, struct device_attribute *attr, char *buf);

#define APMU_EVENT_ATTR(_name, _id, _digits)					\
	(&((struct apmu_event_attr[]) {						\
		{ .pmu_attr = { .attr = __ATTR(_name, 0444, apmu_event_show, NULL),	\
				.id = _id },					\
		  .digits = _digits }						\
	})[0].pmu_attr.attr.attr)

#endif /* __APMU_H */
