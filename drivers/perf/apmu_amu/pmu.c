// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the apmu_amu perf PMU: counting events over the AMU's free-running counters.
 *
 * The counters are never written, enabled or disabled: an event is the difference of two
 * reads of AMEVCNTR0<n>_EL0 or AMEVCNTR1<n>_EL0 on its CPU, with IRQs off there (perf
 * core calls add/del/start/stop/read on the event's CPU; the CPU PM notifier in amu.c
 * folds the CPU's events around a power-down, which may reset the AMU). A 64-bit counter
 * found below its last value was reset (apmu_amu_ev_update()). Events are CPU-wide
 * counting events only: the counters count every context of the CPU and have no
 * overflow interrupt nor filter (apmu_amu_ev_refused() says what is refused and why).
 */
#define pr_fmt(fmt) "apmu: amu: " fmt

#include <linux/cleanup.h>
#include <linux/cpumask.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>
#include <kunit/visibility.h>

#include "../apmu/compat.h"
#include "amu.h"

#define to_amu(p)	container_of(p, struct apmu_amu, pmu)

/* The config's fields (format/, amu.h) */
static bool apmu_amu_ev_group(const struct perf_event_attr *attr)
{
	return ATTR_CFG_GET_FLD(attr, group);
}

static unsigned int apmu_amu_ev_counter(const struct perf_event_attr *attr)
{
	return ATTR_CFG_GET_FLD(attr, counter);
}

static enum apmu_amu_reg apmu_amu_ev_reg(const struct perf_event_attr *attr)
{
	return apmu_amu_ev_group(attr) ? APMU_AMU_R_EVCNTR1 : APMU_AMU_R_EVCNTR0;
}

/* On the event's CPU, IRQs off (perf core calls add/del/start/stop/read there) */
static u64 apmu_amu_ev_read(struct perf_event *event)
{
	struct apmu_amu *amu = to_amu(event->pmu);
	enum apmu_amu_reg reg = apmu_amu_ev_reg(&event->attr);
	unsigned int n = apmu_amu_ev_counter(&event->attr);
	struct apmu_amu_cpu info;

	/*
	 * A rediscovery since event_init may have taken the AMU, or counter n, away from
	 * this CPU: the event stops moving rather than read an unimplemented counter.
	 */
	if (!apmu_amu_cpu_ok(amu, smp_processor_id(), reg, n, &info))
		return local64_read(&event->hw.prev_count);
	return amu->regs->read(reg, n);
}

static void apmu_amu_ev_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now;

	do {
		prev = local64_read(&hwc->prev_count);
		now = apmu_amu_ev_read(event);
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);
	/*
	 * Backwards: not a 64-bit wrap (centuries away) but a reset that no CPU PM
	 * notification announced (firmware): count from the reset, re-based on @now,
	 * rather than add ~2^64.
	 */
	local64_add(now >= prev ? now - prev : now, &event->count);
}

/**
 * apmu_amu_pmu_fold() - the calling CPU's started events take what their counters counted
 * @amu: the unit
 *
 * On the CPU, IRQs off, from the CPU PM notifier. At CPU_PM_ENTER, before the AMU may be
 * reset: what they counted so far. At CPU_PM_EXIT, what the counters counted since (the
 * rest of the notifier chain, firmware, the wake-up: the AMU counts outside WFI); a value
 * below the folded one means the AMU was reset, and the count since the reset is added
 * (apmu_amu_ev_update()). Only a reset after which a counter climbed past its folded
 * value before the exit is taken for none, which loses at most that folded value.
 */
void apmu_amu_pmu_fold(struct apmu_amu *amu)
{
	struct perf_event *event;

	list_for_each_entry(event, &this_cpu_ptr(amu->pcpu)->active, active_entry)
		if (!(event->hw.state & PERF_HES_STOPPED))
			apmu_amu_ev_update(event);
}

/*
 * The attribute refusals of event_init, which need no discovery result: 0, or the
 * errno, each with a pr_debug saying why
 */
static int apmu_amu_ev_refused(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;

	if (event->cpu < 0 || (event->attach_state & PERF_ATTACH_TASK)) {
		pr_debug("%s: per-task events not supported: the AMU counts every context of the CPU\n",
			 event->pmu->name);
		return -EOPNOTSUPP;
	}
	if (is_sampling_event(event) || has_branch_stack(event)) {
		pr_debug("%s: sampling not supported: the AMU has no overflow interrupt\n",
			 event->pmu->name);
		return -EOPNOTSUPP;
	}
	if (attr->exclude_user || attr->exclude_kernel || attr->exclude_hv ||
	    attr->exclude_idle) {
		pr_debug("%s: exclude_user/kernel/hv/idle not supported: AMU counters count at every Exception level\n",
			 event->pmu->name);
		return -EOPNOTSUPP;
	}
	/*
	 * Refused too, but with -EINVAL, as perf core refuses any exclude_* for a
	 * PERF_PMU_CAP_NO_EXCLUDE PMU: the perf tool sets exclude_guest by default and
	 * retries without exclude_guest/exclude_host only on EINVAL.
	 */
	if (attr->exclude_host || attr->exclude_guest) {
		pr_debug("%s: exclude_host/guest not supported: AMU counters count guests too\n",
			 event->pmu->name);
		return -EINVAL;
	}
	if (attr->config & ~(APMU_AMU_CFG_COUNTER | APMU_AMU_CFG_GROUP) ||
	    attr->config1 || attr->config2 || apmu_compat_config3(attr)) {
		pr_debug("%s: bad config 0x%llx/0x%llx/0x%llx/0x%llx: only the counter and group fields (format/)\n",
			 event->pmu->name, attr->config, attr->config1, attr->config2,
			 apmu_compat_config3(attr));
		return -EINVAL;
	}
	return 0;
}

/*
 * Counting groups mix only with this PMU's events and software events. A lone event
 * always fits; the leader's siblings are stable only once it has a ctx.
 */
static bool apmu_amu_ev_group_ok(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;

	if (leader == event)
		return true;
	if (leader->pmu != event->pmu && !is_software_event(leader))
		return false;
	for_each_sibling_event(sibling, leader)
		if (sibling->pmu != event->pmu && !is_software_event(sibling))
			return false;
	return true;
}

static int apmu_amu_ev_init(struct perf_event *event)
{
	struct apmu_amu *amu = to_amu(event->pmu);
	struct perf_event_attr *attr = &event->attr;
	struct apmu_amu_cpu info;
	bool online = false;
	unsigned int n;
	int ret;

	if (attr->type != event->pmu->type)
		return -ENOENT;
	ret = apmu_amu_ev_refused(event);
	if (ret)
		return ret;
	if (event->cpu < nr_cpu_ids) {
		guard(raw_spinlock_irqsave)(&amu->lock);
		online = cpumask_test_cpu(event->cpu, &amu->online);
		info = amu->info[event->cpu];
	}
	if (!online) {
		pr_debug("%s: cpu%d has no AMU, or is offline\n", event->pmu->name, event->cpu);
		return -ENODEV;
	}
	n = apmu_amu_ev_counter(attr);
	if (!apmu_amu_reg_ok(&info, apmu_amu_ev_reg(attr), n)) {
		pr_debug("%s: cpu%d has no group-%d counter %u (AMCGCR_EL0.CG0NC=%u CG1NC=%u, group 0 offered 0x%x%s)\n",
			 event->pmu->name, event->cpu, apmu_amu_ev_group(attr), n,
			 info.cg0nc, info.cg1nc, info.g0,
			 info.const_broken ? ", const counter broken" : "");
		return -EINVAL;
	}
	if (!apmu_amu_ev_group_ok(event)) {
		pr_debug("%s: group mixes events of another hardware PMU\n", event->pmu->name);
		return -EINVAL;
	}
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	return 0;
}

static void apmu_amu_ev_start(struct perf_event *event, int flags)
{
	local64_set(&event->hw.prev_count, apmu_amu_ev_read(event));
	event->hw.state = 0;
}

static void apmu_amu_ev_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	apmu_amu_ev_update(event);
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

/* add() and del() run on the event's CPU, IRQs off, as the CPU PM notifier does */
static int apmu_amu_ev_add(struct perf_event *event, int flags)
{
	struct apmu_amu *amu = to_amu(event->pmu);

	list_add_tail(&event->active_entry, &this_cpu_ptr(amu->pcpu)->active);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		apmu_amu_ev_start(event, flags);
	return 0;
}

static void apmu_amu_ev_del(struct perf_event *event, int flags)
{
	apmu_amu_ev_stop(event, PERF_EF_UPDATE);
	list_del_init(&event->active_entry);
}

static void apmu_amu_ev_pmu_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		apmu_amu_ev_update(event);
}

static struct apmu_amu *apmu_amu_dev_unit(struct device *dev)
{
	return to_amu((struct pmu *)dev_get_drvdata(dev));
}

/* format/: the fields of amu.h */
GEN_PMU_FORMAT_ATTR(counter);
GEN_PMU_FORMAT_ATTR(group);

static struct attribute *apmu_amu_format_attrs[] = {
	&format_attr_counter.attr,
	&format_attr_group.attr,
	NULL
};

static const struct attribute_group apmu_amu_format_group = {
	.name = "format",
	.attrs = apmu_amu_format_attrs,
};

/* events/: group 0 by name, group 1 by counter number; @id is the event's config */
static ssize_t apmu_amu_event_show(struct device *dev, struct device_attribute *attr,
				   char *buf)
{
	struct perf_pmu_events_attr *pa = container_of(attr, struct perf_pmu_events_attr, attr);
	struct perf_event_attr ev = { .config = pa->id };

	return sysfs_emit(buf, "group=%u,counter=%u\n", apmu_amu_ev_group(&ev),
			  apmu_amu_ev_counter(&ev));
}

/* An events/ file, defined in the array (as arm-cmn.c does) */
#define AMU_EV(_name, _config)							\
	(&((struct perf_pmu_events_attr[]) {{					\
		.attr = __ATTR(_name, 0444, apmu_amu_event_show, NULL),		\
		.id = _config,							\
	}})[0].attr.attr)
#define AMU_EV1(n)	AMU_EV(aux##n, APMU_AMU_CFG_GROUP | (n))

static struct attribute *apmu_amu_event_attrs[] = {
	AMU_EV(core_cycles, APMU_AMU_G0_CORE),
	AMU_EV(const_cycles, APMU_AMU_G0_CONST),
	/* not "inst_retired": the CPU PMU's event of that name (perf -e inst_retired) */
	AMU_EV(amu_inst_retired, APMU_AMU_G0_INST),
	AMU_EV(mem_stall_cycles, APMU_AMU_G0_STALL),
	AMU_EV1(0), AMU_EV1(1), AMU_EV1(2), AMU_EV1(3),
	AMU_EV1(4), AMU_EV1(5), AMU_EV1(6), AMU_EV1(7),
	AMU_EV1(8), AMU_EV1(9), AMU_EV1(10), AMU_EV1(11),
	AMU_EV1(12), AMU_EV1(13), AMU_EV1(14), AMU_EV1(15),
	NULL
};

/*
 * An event is offered if some CPU of the PMU implements its counter (decided once, at
 * registration); a group-0 one not if every CPU has it disabled by firmware or, for
 * const_cycles, has the constant-counter erratum
 */
static umode_t apmu_amu_event_visible(struct kobject *kobj, struct attribute *attr, int i)
{
	struct apmu_amu *amu = apmu_amu_dev_unit(kobj_to_dev(kobj));
	struct perf_pmu_events_attr *pa = container_of(attr, struct perf_pmu_events_attr,
						       attr.attr);
	struct perf_event_attr ev = { .config = pa->id };
	unsigned int n = apmu_amu_ev_counter(&ev);

	if (apmu_amu_ev_group(&ev))
		return n < amu->g1_max ? attr->mode : 0;
	return amu->g0 & BIT(n) ? attr->mode : 0;
}

static const struct attribute_group apmu_amu_events_group = {
	.name = "events",
	.attrs = apmu_amu_event_attrs,
	.is_visible = apmu_amu_event_visible,
};

/*
 * cpumask: the online CPUs with an AMU, where perf opens its events. The uncore name on
 * purpose: the perf tool takes a PMU with a "cpus" file for a CPU PMU (it then gives it
 * the CPU's legacy, cache and JSON events and switches to its hybrid-system paths).
 */
static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct apmu_amu *amu = apmu_amu_dev_unit(dev);
	cpumask_t online;

	scoped_guard(raw_spinlock_irqsave, &amu->lock)
		cpumask_copy(&online, &amu->online);
	return cpumap_print_to_pagebuf(true, buf, &online);
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *apmu_amu_cpus_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL
};

static const struct attribute_group apmu_amu_cpus_group = {
	.attrs = apmu_amu_cpus_attrs,
};

static const struct attribute_group *apmu_amu_attr_groups[] = {
	&apmu_amu_format_group,
	&apmu_amu_events_group,
	&apmu_amu_cpus_group,
	NULL
};

/**
 * apmu_amu_pmu_init() - fill in @amu's &struct pmu, without registering it
 * @amu: the unit
 */
void apmu_amu_pmu_init(struct apmu_amu *amu)
{
	amu->pmu = (struct pmu) {
		.module = amu->owner,
		.task_ctx_nr = perf_invalid_context,
		.capabilities = PERF_PMU_CAP_NO_INTERRUPT,
		.attr_groups = apmu_amu_attr_groups,
		.event_init = apmu_amu_ev_init,
		.add = apmu_amu_ev_add,
		.del = apmu_amu_ev_del,
		.start = apmu_amu_ev_start,
		.stop = apmu_amu_ev_stop,
		.read = apmu_amu_ev_pmu_read,
	};
}
EXPORT_SYMBOL_IF_KUNIT(apmu_amu_pmu_init);

/**
 * apmu_amu_pmu_register() - register the apmu_amu PMU
 * @amu: the unit, discovered
 *
 * Return: 0 or a negative errno.
 */
int apmu_amu_pmu_register(struct apmu_amu *amu)
{
	int ret;

	apmu_amu_pmu_init(amu);
	ret = perf_pmu_register(&amu->pmu, amu->name ?: "apmu_amu", -1);
	if (ret)
		return ret;
	amu->pmu_registered = true;
	return 0;
}

/**
 * apmu_amu_pmu_unregister() - unregister the PMU if it was registered
 * @amu: the unit
 */
void apmu_amu_pmu_unregister(struct apmu_amu *amu)
{
	if (!amu->pmu_registered)
		return;
	perf_pmu_unregister(&amu->pmu);
	amu->pmu_registered = false;
}
