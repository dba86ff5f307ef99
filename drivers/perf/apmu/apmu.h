/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: a loadable perf PMU driver for the Arm Performance Monitors.
 *
 * Layering, as in-tree between arm_pmu.c and its drivers: core/ is the backend-neutral
 * perf core (event_init, add/del/start/stop/read, the overflow loop, group validation,
 * ::filter, hotplug and CPU PM); a backend (pmuv3/) drives one kind of PMU through a
 * const &struct apmu_pmu_ops. A backend reaches its registers through compile-time
 * inline accessors, so the hot paths have no dispatch below the ops; the KUnit module
 * compiles the backend once more against a register model (tests/).
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

/*
 * Counter indexes are the bits of one word: a backend hands the overflow flags of a CPU
 * to the interrupt handler as one unsigned long (33 indexes on AArch64 PMUv3, 32 on
 * AArch32, 5 on XScale).
 */
#define APMU_MAX_IDX		BITS_PER_LONG

/*
 * hw_perf_event.flags: ARMPMU_EVT_64BIT and PERF_EVENT_FLAG_USER_READ_CNT are read by
 * the arch's arch_perf_update_userpage(); the others are apmu's. APMU_HWF_IRQ: the
 * event's overflow interrupt is enabled (sampling, or a 32-bit counter extended in
 * software; never without &apmu_pmu.has_irq, where the fold timer extends it); the
 * core sets it before &apmu_pmu_ops.enable. APMU_HWF_BACKEND: bits a
 * backend's get_idx() reports about the counters it chose (e.g. a PMUv3 CHAIN pair).
 */
#define APMU_HWF_IRQ		BIT(9)
#define APMU_HWF_BACKEND	GENMASK(15, 12)
#define APMU_HWF_COUNTER	(ARMPMU_EVT_64BIT | APMU_HWF_BACKEND)

/* perf core leaves PERF_EVENT_FLAG_ARCH to drivers, as for ARMPMU_EVT_* */
static_assert((PERF_EVENT_FLAG_ARCH & APMU_HWF_IRQ) == APMU_HWF_IRQ);
static_assert((PERF_EVENT_FLAG_ARCH & APMU_HWF_BACKEND) == APMU_HWF_BACKEND);

struct apmu_pmu;

/**
 * struct apmu_pmu_ops - what a backend does for the perf core
 *
 * The seam of the in-tree &struct arm_pmu. Hot-path ops (get_idx to take_overflows)
 * run on the CPU whose counters they touch, with IRQs off or inside perf's
 * pmu_disable()/pmu_enable() bracket; each does its backend's work for one event, or
 * for the whole PMU, in one call. Counter indexes are the backend's; the core only
 * keeps events and bitmaps by them.
 *
 * @probe: on one CPU of the PMU, before registration: discover it (counters, width,
 *	   events) and fill the backend's fields. Return: 0 or -ENODEV (no such PMU).
 * @map_event: the event number @event's type and config ask for, its config words
 *	       checked against the format/ fields. Return: the number; -ENOENT for a
 *	       type that is not ours or an event this PMU lacks; -EINVAL for bad bits.
 * @set_filter: fold the rest of the attribute into hw.config_base (which holds the
 *		event number): exclusion filters, thresholds, and EL0 reads (rdpmc, which
 *		sets PERF_EVENT_FLAG_USER_READ_CNT; the core then refuses the event
 *		without @user_access or when it is CPU-wide). Return: 0, or the errno for
 *		what the PMU cannot honour. Optional: a PMU without it cannot exclude a mode, and
 *		is registered with PERF_PMU_CAP_NO_EXCLUDE (perf core then refuses every
 *		exclude_* bit with -EINVAL, as for the in-tree drivers without it).
 * @get_idx: take free counters for @event in @used (a CPU's, or a scratch map while
 *	     validating a group: @event is not modified). *@flags gets the
 *	     %APMU_HWF_COUNTER bits of the choice (ARMPMU_EVT_64BIT for a 64-bit
 *	     counter, %APMU_HWF_BACKEND bits). Return: the index, or -EAGAIN.
 * @put_idx: release what get_idx() took for @event (its hw.idx) in @used.
 * @read_counter: the raw value of @event's counter, at the counter's width.
 * @write_counter: set @event's counter to @val.
 * @enable: program @event's counter (type, filters) and enable it; also its overflow
 *	    interrupt when hw.flags has %APMU_HWF_IRQ.
 * @disable: stop @event's counter; also its overflow interrupt and flag when it had
 *	     one, so a stale overflow cannot interrupt the next user.
 * @start: let every enabled counter count (the PMU-wide enable), its earlier
 *	   programming in effect first. Called only while some counter of the calling
 *	   CPU runs (&apmu_cpu.running not empty), so a backend may leave its PMU-wide
 *	   enable set whenever it is called.
 * @stop: stop every counter at once, in effect before it returns.
 * @take_overflows: read and clear every set overflow flag (a stale one must not hold
 *		    the interrupt asserted) and, when one of the counters in @used had
 *		    overflowed, stop every counter as @stop does (the overflow
 *		    handler's first step, one call). Return: the overflowed counters'
 *		    indexes; the core handles those that are an event's hw.idx (not, say,
 *		    the low half of a pair).
 * @reset: bring the calling CPU's PMU to a known idle state: no counter, interrupt,
 *	   flag or EL0 access on, counters zeroed. The PMU-wide enable stays off.
 * @quiesce: as @reset, but counter values are kept (CPU going offline).
 * @user_access: EL0 counter reads on the calling CPU. @used NULL: off. Otherwise on,
 *		 and every counter not in @used reads 0 (it may hold another context's
 *		 counts); a backend with per-counter access lets EL0 read only those and
 *		 the counters in @own (the running task's rdpmc events'), not the other
 *		 counters in use. @grant: access was off until now. Optional: without
 *		 it the core refuses every event flagged for EL0 reads (-EOPNOTSUPP).
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
};

/**
 * struct apmu_cpu - per-CPU state of one PMU instance; touched only on its own CPU
 * @pmu: the instance this state belongs to
 * @irq: this CPU's overflow SPI, when the PMU has one SPI per CPU; else 0
 * @irq_requested: @irq is requested
 * @fold_on: the CPU is online for this instance, so @fold_timer may be started; set and
 *	     cleared by the hotplug callbacks, read with IRQs off
 * @fold_timer: on a PMU without an overflow interrupt, folds this CPU's 32-bit counters
 *		before they can wrap (apmu_fold_timer()); pinned to this CPU, hardirq
 * @used: counter indexes in use
 * @running: counter indexes (events' hw.idx) whose event is started: in use and not
 *	     stopped by perf (throttled, or stopped inside its bracket) or by the core
 * @pm_stopped: counter indexes (events' hw.idx) whose running event was stopped by
 *		apmu_cpu_pm_save() and must be restarted by apmu_cpu_pm_restore()
 * @events: the event whose hw.idx is each counter index; &apmu_pmu.nr_idx entries
 */
struct apmu_cpu {
	struct apmu_pmu *pmu;
	int irq;
	bool irq_requested;
	bool fold_on;
	/* cold, so before the bitmaps: @used stays next to @events for the hot paths */
	struct hrtimer fold_timer;
	DECLARE_BITMAP(used, APMU_MAX_IDX);
	DECLARE_BITMAP(running, APMU_MAX_IDX);
	DECLARE_BITMAP(pm_stopped, APMU_MAX_IDX);
	struct perf_event *events[];
};

/**
 * struct apmu_pmu - one PMU instance (one microarchitecture's CPUs)
 * @pmu: the perf PMU, registered as @name; first, so an event's pmu is the instance
 * @ops: the backend
 * @attr_groups: sysfs groups of /sys/bus/event_source/devices/@name (the backend's,
 *		 with the core's &apmu_cpus_group)
 * @dev: the platform device, for messages
 * @hw: per-CPU counter state, with @nr_idx event slots each
 * @supported_cpus: the CPUs this instance counts on
 * @name: PMU name in /sys/bus/event_source/devices/
 * @nr_idx: counter indexes the backend uses (0 to @nr_idx - 1); at most %APMU_MAX_IDX
 * @num_counters: the PMU's general-purpose counters, for messages (set by @ops->probe)
 * @num_dedicated: its dedicated counters (a cycle counter, ...), for messages (set by
 *		   @ops->probe)
 * @info: what @ops->probe found, for the line that announces the PMU
 * @irq: the overflow interrupt when it is one per-CPU PPI, or 0
 * @irq_percpu: @irq is a PPI; otherwise each CPU has its own SPI in &struct apmu_cpu
 * @has_irq: the PMU has an overflow interrupt apmu uses. Without one, sampling is
 *	     refused and 32-bit counters are folded by each CPU's &apmu_cpu.fold_timer
 *	     instead
 * @run_irq_work: the overflow handler runs perf's pending irq_work
 *		  (&apmu_backend.run_irq_work)
 * @node: cpuhp multi-instance node
 * @cpu_pm_nb: CPU PM notifier: PMU state across core power-down
 *
 * A backend embeds it first in its own instance structure.
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
 * @intree_initcall: the init of the in-tree driver for the same devices, which
 *		     initcall_blacklist= must name for apmu to bind them
 * @alloc: a device-managed instance for the matched device, with @ops, @nr_idx,
 *	   @attr_groups and @name set. Return: the core's part of it, or an ERR_PTR()
 *	   (-ENODEV: no PMU of this kind there).
 * @sysctl_register: register the sysctls the backend owns; called in process context
 *		     each time one of its PMUs is registered (so it must do nothing once
 *		     they are). Optional.
 * @sysctl_unregister: unregister them, at module unload. Optional.
 * @run_irq_work: the overflow handler runs perf's pending irq_work itself, for
 *		  architectures that may raise no interrupt for it
 *
 * Each backend defines one; the PMU's capabilities follow from its ops (no set_filter:
 * PERF_PMU_CAP_NO_EXCLUDE).
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

/*
 * The backends in apmu.ko (Kbuild): PMUv3 on arm64 and on 32-bit kernels for ARMv7 and
 * later CPUs (CPU_V7); XScale on ARMv5 kernels with XScale support (CPU_XSCALE). The two
 * never meet in one kernel (ARCH_MULTI_V5 depends on !ARCH_MULTI_V6_V7).
 */
#define APMU_HAVE_PMUV3		(IS_ENABLED(CONFIG_ARM64) || IS_ENABLED(CONFIG_CPU_V7))
#define APMU_HAVE_XSCALE	IS_ENABLED(CONFIG_CPU_XSCALE)

extern const struct apmu_backend apmu_pmuv3_backend;	/* pmuv3/pmu.c */
extern const struct apmu_backend apmu_xscale_backend;	/* xscale/pmu.c */

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

/*
 * A counting event on a 32-bit counter is armed at half range, so its first overflow
 * interrupt comes 2^31 events after the last fold and a late interrupt still finds the
 * delta unambiguous (up to 2^31 more events), as the in-tree driver does.
 */
#define APMU_ARM_32BIT		BIT_ULL(31)

/*
 * core/user_access.c: rdpmc. apmu_sysctl_user_access is the policy, which the backend
 * that has EL0 reads exposes as its sysctl (PMUv3: kernel.perf_user_access) and sets
 * through apmu_user_access_set().
 */
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
