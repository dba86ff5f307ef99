// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: Activity Monitors (AMU) unit: per-CPU discovery (at each online, only where the
 * kernel enabled the AMU), register reads and group-1 enable writes on the CPU
 * concerned, hotplug and CPU PM. An AMU reset (power-down, hotplug) zeroes the counters
 * and the group-1 enables (AMEVCNTR<g><n>_EL0, AMCNTENSET1_EL0.P<n>), and no firmware
 * saves them where the kernel runs at the highest Exception level
 * (Documentation/arch/arm64/booting.rst): the unit folds its events around CPU PM and
 * writes its group-1 enables back.
 */
#define pr_fmt(fmt) "apmu: amu: " fmt

#include <linux/bitfield.h>
#include <linux/cleanup.h>
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/err.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <asm/virt.h>
#include <kunit/visibility.h>

#include "../apmu/compat.h"
#include "../apmu/visibility.h"
#include "amu.h"

static enum cpuhp_state apmu_amu_hp_state;
static struct apmu_amu apmu_amu_hw = { .regs = &apmu_amu_sysregs };

/*
 * The highest implemented Exception level: EL3 if ID_AA64PFR0_EL1.EL3 says it is
 * implemented, else EL2 if ID_AA64PFR0_EL1.EL2 does, else EL1 (the kernel's own).
 */
static u8 apmu_amu_highest_el(u64 pfr0)
{
	if (FIELD_GET(ID_AA64PFR0_EL1_EL3_MASK, pfr0) != APMU_AMU_EL_NI)
		return 3;
	if (FIELD_GET(ID_AA64PFR0_EL1_EL2_MASK, pfr0) != APMU_AMU_EL_NI)
		return 2;
	return 1;
}

/*
 * The group-1 enables apmu keeps for this CPU (on it, IRQs off): where it may write them,
 * those found the first time, which later writes to aux<n>_enable change
 */
static void apmu_amu_en1_discovered(struct apmu_amu *amu, const struct apmu_amu_cpu *info)
{
	struct apmu_amu_pcpu *pc = this_cpu_ptr(amu->pcpu);

	/* no group 1 (NCG == 0, AMUv1p1): cg1nc is 0, and AMCNTENSET1_EL0 is not read */
	pc->en1_mask = info->writable ? BIT(info->cg1nc) - 1 : 0;
	if (pc->en1_mask && !pc->en1_known) {
		pc->en1 = amu->regs->read(APMU_AMU_R_CNTENSET1, 0) & pc->en1_mask;
		pc->en1_known = true;
	}
}

/*
 * Runs on the CPU being discovered, IRQs off (so no other access to the CPU's AMU, an IPI
 * or the CPU PM notifier, comes in between)
 */
static void apmu_amu_discover_local(struct apmu_amu *amu, struct apmu_amu_cpu *info)
{
	const struct apmu_amu_regs *r = amu->regs;
	u64 cfgr, cgcr, pfr0, en0;

	*info = (struct apmu_amu_cpu) { .absent = APMU_AMU_NOT_ENABLED };
	if (!r->kernel_enabled())
		return;

	pfr0 = r->read(APMU_AMU_R_PFR0, 0);
	info->version = FIELD_GET(ID_AA64PFR0_EL1_AMU_MASK, pfr0);
	info->cur_el = amu->kernel_el;
	info->high_el = apmu_amu_highest_el(pfr0);
	/* AMCNTENSET1/CLR1_EL0 writes: only at the highest EL (apmu_amu_set_enable()) */
	info->writable = info->cur_el == 2 &&
			 FIELD_GET(ID_AA64PFR0_EL1_EL3_MASK, pfr0) == APMU_AMU_EL_NI;

	cfgr = r->read(APMU_AMU_R_AMCFGR, 0);
	cgcr = r->read(APMU_AMU_R_AMCGCR, 0);
	info->ncg = FIELD_GET(APMU_AMCFGR_NCG, cfgr);
	info->cg0nc = min_t(u64, FIELD_GET(APMU_AMCGCR_CG0NC, cgcr), APMU_AMU_NR_G0);
	info->const_broken = r->const_broken();
	/*
	 * Group-0 enables are firmware's: a counter left disabled (AMCNTENSET0_EL0.P<n> == 0)
	 * would show a constant value. Not offered, nor the erratum-broken AMEVCNTR0<1>.
	 */
	en0 = r->read(APMU_AMU_R_CNTENSET0, 0);
	info->g0 = en0 & (BIT(info->cg0nc) - 1);
	if (info->const_broken)
		info->g0 &= ~BIT(APMU_AMU_G0_CONST);
	/*
	 * AMCFGR_EL0.NCG == 0: group 1 is UNDEFINED. AMUv1p1's sparse group 1 (AMCG1IDR_EL0)
	 * is not handled: not exposed at all.
	 */
	if (info->ncg && info->version < APMU_AMU_V1P1)
		info->cg1nc = min_t(u64, FIELD_GET(APMU_AMCGCR_CG1NC, cgcr), APMU_AMU_NR_G1);
	info->absent = APMU_AMU_PRESENT;
	apmu_amu_en1_discovered(amu, info);
}

/**
 * struct apmu_amu_call - one cross-call to the CPU whose AMU is accessed
 * @amu: the unit
 * @info: discovery result (discovery)
 * @reg: the register (reads and writes)
 * @n: the counter (reads)
 * @val: the value read, or to write
 */
struct apmu_amu_call {
	struct apmu_amu *amu;
	struct apmu_amu_cpu *info;
	enum apmu_amu_reg reg;
	unsigned int n;
	u64 val;
};

static void apmu_amu_discover_fn(void *data)
{
	struct apmu_amu_call *c = data;

	apmu_amu_discover_local(c->amu, c->info);
}

/* Say once which group-0 counters firmware left disabled (they are not offered) */
static void apmu_amu_report(unsigned int cpu, const struct apmu_amu_cpu *info)
{
	u8 off = (BIT(info->cg0nc) - 1) & ~info->g0;

	if (info->const_broken)
		off &= ~BIT(APMU_AMU_G0_CONST);
	if (info->absent == APMU_AMU_PRESENT && off)
		pr_info_once("cpu%u: group-0 counters 0x%x disabled by firmware (AMCNTENSET0_EL0): not offered\n",
			     cpu, off);
}

/* Recompute what the PMU offers: what some CPU with an AMU has; lock held */
static void apmu_amu_update_max(struct apmu_amu *amu)
{
	unsigned int cpu;

	amu->g0 = 0;
	amu->g1_max = 0;
	for_each_cpu(cpu, &amu->cpus) {
		amu->g0 |= amu->info[cpu].g0;
		amu->g1_max = max(amu->g1_max, amu->info[cpu].cg1nc);
	}
}

/*
 * Publish what discovery found on the online @cpu, under the lock readers take: a
 * rediscovery is never seen half-written, and a reader never uses counter limits of
 * the old discovery with the registers of the new one.
 */
static void apmu_amu_publish(struct apmu_amu *amu, unsigned int cpu,
			     struct apmu_amu_cpu *info)
{
	guard(raw_spinlock_irqsave)(&amu->lock);
	info->sysfs = amu->info[cpu].sysfs;	/* sysfs.c's, not discovery's */
	amu->info[cpu] = *info;
	if (info->absent == APMU_AMU_PRESENT) {
		cpumask_set_cpu(cpu, &amu->cpus);
		cpumask_set_cpu(cpu, &amu->online);
	} else {
		cpumask_clear_cpu(cpu, &amu->cpus);
		cpumask_clear_cpu(cpu, &amu->online);
	}
	apmu_amu_update_max(amu);
}

/**
 * apmu_amu_discover() - discover @cpu's AMU, on that CPU
 * @amu: the unit
 * @cpu: an online CPU
 *
 * Return: 0, or -ENXIO if @cpu is offline.
 */
int apmu_amu_discover(struct apmu_amu *amu, unsigned int cpu)
{
	struct apmu_amu_cpu info;
	struct apmu_amu_call c = { .amu = amu, .info = &info };
	int ret;

	ret = smp_call_function_single(cpu, apmu_amu_discover_fn, &c, 1);
	if (ret)
		return ret;
	apmu_amu_report(cpu, &info);
	apmu_amu_publish(amu, cpu, &info);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_amu_discover);

/**
 * apmu_amu_reg_ok() - may @reg/@n be accessed on a CPU that discovery described as @info?
 * @info: the discovery result
 * @reg: the register
 * @n: the counter, for the per-counter registers
 *
 * Only what discovery found implemented and offered (see apmu_amu_discover_local()).
 * Return: true if the access is allowed.
 */
bool apmu_amu_reg_ok(const struct apmu_amu_cpu *info, enum apmu_amu_reg reg,
		     unsigned int n)
{
	if (info->absent != APMU_AMU_PRESENT)
		return false;
	switch (reg) {
	case APMU_AMU_R_CNTENSET0:
		return true;
	case APMU_AMU_R_EVCNTR0:
		return n < APMU_AMU_NR_G0 && (info->g0 & BIT(n));
	case APMU_AMU_R_CNTENSET1:
		return info->cg1nc;
	case APMU_AMU_R_EVCNTR1:
	case APMU_AMU_R_EVTYPER1:
		return n < info->cg1nc;
	default:
		return false;
	}
}

/**
 * apmu_amu_cpu_ok() - apmu_amu_reg_ok() on the current discovery result of @cpu
 * @amu: the unit
 * @cpu: the CPU
 * @reg: the register
 * @n: the counter, for the per-counter registers
 * @info: where the discovery result the decision was made on is copied
 *
 * Callable with IRQs off (the perf read path).
 * Return: true if the access is allowed.
 */
bool apmu_amu_cpu_ok(struct apmu_amu *amu, unsigned int cpu, enum apmu_amu_reg reg,
		     unsigned int n, struct apmu_amu_cpu *info)
{
	if (cpu >= nr_cpu_ids) {
		*info = (struct apmu_amu_cpu) { .absent = APMU_AMU_NOT_DISCOVERED };
		return false;
	}
	guard(raw_spinlock_irqsave)(&amu->lock);
	*info = amu->info[cpu];
	return apmu_amu_reg_ok(info, reg, n);
}

static void apmu_amu_read_fn(void *data)
{
	struct apmu_amu_call *c = data;

	c->val = c->amu->regs->read(c->reg, c->n);
}

/**
 * apmu_amu_read() - read an AMU register of @cpu, on that CPU
 * @amu: the unit
 * @cpu: the CPU whose register is read
 * @reg: %APMU_AMU_R_CNTENSET0, %APMU_AMU_R_CNTENSET1, %APMU_AMU_R_EVCNTR0,
 *	%APMU_AMU_R_EVCNTR1 or %APMU_AMU_R_EVTYPER1
 * @n: the counter, for the per-counter registers
 * @val: the value read
 *
 * Return: 0; -ENODEV if @cpu has no AMU or does not implement @reg/@n; -ENXIO if @cpu is
 * offline.
 */
int apmu_amu_read(struct apmu_amu *amu, unsigned int cpu, enum apmu_amu_reg reg,
		  unsigned int n, u64 *val)
{
	struct apmu_amu_call c = { .amu = amu, .reg = reg, .n = n };
	struct apmu_amu_cpu info;
	int ret;

	if (!apmu_amu_cpu_ok(amu, cpu, reg, n, &info))
		return -ENODEV;
	ret = smp_call_function_single(cpu, apmu_amu_read_fn, &c, 1);
	if (ret)
		return ret;
	*val = c.val;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_amu_read);

/* On the CPU, IRQs off: the write, and what the CPU is to have after an AMU reset */
static void apmu_amu_write_fn(void *data)
{
	struct apmu_amu_call *c = data;
	struct apmu_amu_pcpu *pc = this_cpu_ptr(c->amu->pcpu);

	c->amu->regs->write(c->reg, 0, c->val);
	if (c->reg == APMU_AMU_R_CNTENSET1)
		pc->en1 |= c->val;
	else
		pc->en1 &= ~c->val;
}

/*
 * On the CPU, IRQs off: give the group-1 enables apmu may write back the state wanted,
 * after an AMU reset cleared them (read first: nothing is written if nothing was lost).
 * &apmu_amu_pcpu.en1_mask is 0 unless the kernel is at the highest Exception level.
 */
static void apmu_amu_restore_local(struct apmu_amu *amu)
{
	struct apmu_amu_pcpu *pc = this_cpu_ptr(amu->pcpu);
	const struct apmu_amu_regs *r = amu->regs;
	u64 cur, set, clr;

	if (!pc->en1_mask || !pc->en1_known)
		return;
	cur = r->read(APMU_AMU_R_CNTENSET1, 0);
	set = pc->en1 & pc->en1_mask & ~cur;
	clr = ~pc->en1 & pc->en1_mask & cur;
	if (set)
		r->write(APMU_AMU_R_CNTENSET1, 0, set);
	if (clr)
		r->write(APMU_AMU_R_CNTENCLR1, 0, clr);
}

/**
 * apmu_amu_restore_en1() - restore the wanted group-1 enables of the calling CPU
 * @amu: the unit
 *
 * Call on the CPU, IRQs off (for KUnit; the CPU PM notifier and online do it).
 */
void apmu_amu_restore_en1(struct apmu_amu *amu)
{
	apmu_amu_restore_local(amu);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_amu_restore_en1);

/**
 * apmu_amu_set_enable() - enable or disable group-1 counter @n of @cpu, on that CPU
 * @amu: the unit
 * @cpu: the CPU
 * @n: the group-1 counter, below AMCGCR_EL0.CG1NC
 * @on: enable (AMCNTENSET1_EL0, W1S) or disable (AMCNTENCLR1_EL0, W1C)
 *
 * AMCNTENSET1/CLR1_EL0 writes are UNDEFINED below the highest implemented Exception
 * level: only a kernel at EL2 on a CPU without EL3 writes them (at EL1 a hypervisor may
 * hide EL2). The state is written again after an AMU reset (CPU PM exit, online).
 * Return: 0; -EPERM unless the kernel is at EL2 without EL3; -ENODEV if @cpu has no
 * counter @n; -ENXIO if @cpu is offline.
 */
int apmu_amu_set_enable(struct apmu_amu *amu, unsigned int cpu, unsigned int n, bool on)
{
	struct apmu_amu_call c = { .amu = amu, .val = BIT_ULL(n) };
	struct apmu_amu_cpu info;

	if (!apmu_amu_cpu_ok(amu, cpu, APMU_AMU_R_EVCNTR1, n, &info)) {
		pr_debug("cpu%u: no group-1 counter %u (AMCGCR_EL0.CG1NC=%u)\n",
			 cpu, n, info.cg1nc);
		return -ENODEV;
	}
	if (!info.writable) {
		pr_debug("cpu%u: AMCNTEN%s1_EL0 is written only by a kernel at EL2 with no EL3 (the highest implemented Exception level for sure); the kernel runs at EL%u, highest EL shown EL%u\n",
			 cpu, on ? "SET" : "CLR", info.cur_el, info.high_el);
		return -EPERM;
	}
	c.reg = on ? APMU_AMU_R_CNTENSET1 : APMU_AMU_R_CNTENCLR1;
	return smp_call_function_single(cpu, apmu_amu_write_fn, &c, 1);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_amu_set_enable);

/*
 * Runs on the CPU coming up (process context, bound to it). Discovery is redone each time:
 * a CPU brought up late may be of another kind.
 */
static int apmu_amu_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct apmu_amu *amu = hlist_entry_safe(node, struct apmu_amu, node);
	struct apmu_amu_cpu info;
	unsigned long flags;
	int ret;

	/* IRQs off: an aux<n>_enable write (an IPI) comes before or after, not between */
	local_irq_save(flags);
	apmu_amu_discover_local(amu, &info);
	/* the CPU was down, and its AMU may have been reset */
	if (info.absent == APMU_AMU_PRESENT)
		apmu_amu_restore_local(amu);
	local_irq_restore(flags);
	apmu_amu_report(cpu, &info);
	apmu_amu_publish(amu, cpu, &info);
	if (info.absent != APMU_AMU_PRESENT)
		return 0;
	/* a missing amu/ directory must not keep the CPU offline */
	ret = apmu_amu_sysfs_add(amu, cpu);
	if (ret)
		pr_warn_once("cpu%u: cannot create amu/ (%pe); the CPU goes online without it\n",
			     cpu, ERR_PTR(ret));
	return 0;
}

/*
 * The CPU's amu/ goes with it, and it leaves the PMU's cpus (perf -a opens events on
 * those); its discovery results stay
 */
static int apmu_amu_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct apmu_amu *amu = hlist_entry_safe(node, struct apmu_amu, node);

	apmu_amu_sysfs_remove(amu, cpu);
	scoped_guard(raw_spinlock_irqsave, &amu->lock)
		cpumask_clear_cpu(cpu, &amu->online);
	return 0;
}

/**
 * apmu_amu_cpu_pm() - the calling CPU enters or leaves a low-power state
 * @amu: the unit
 * @cmd: %CPU_PM_ENTER, %CPU_PM_EXIT or %CPU_PM_ENTER_FAILED
 *
 * On the CPU, IRQs off. Entering, the active events take what they counted so far;
 * leaving, the group-1 enables are written back and the events take what was counted
 * since (or since a reset). %CPU_PM_ENTER_FAILED: nothing was reset, nothing to do.
 */
void apmu_amu_cpu_pm(struct apmu_amu *amu, unsigned long cmd)
{
	switch (cmd) {
	case CPU_PM_ENTER:
		apmu_amu_pmu_fold(amu);
		break;
	case CPU_PM_EXIT:
		apmu_amu_restore_local(amu);
		apmu_amu_pmu_fold(amu);
		break;
	}
}
EXPORT_SYMBOL_IF_KUNIT(apmu_amu_cpu_pm);

static int apmu_amu_cpu_pm_notify(struct notifier_block *nb, unsigned long cmd, void *v)
{
	struct apmu_amu *amu = container_of(nb, struct apmu_amu, cpu_pm_nb);

	switch (cmd) {
	case CPU_PM_ENTER:
	case CPU_PM_EXIT:
	case CPU_PM_ENTER_FAILED:
		apmu_amu_cpu_pm(amu, cmd);
		return NOTIFY_OK;
	default:
		return NOTIFY_DONE;
	}
}

/**
 * apmu_amu_alloc() - allocate a unit's discovery results and per-CPU state
 * @amu: the unit
 *
 * Return: 0 or -ENOMEM.
 */
int apmu_amu_alloc(struct apmu_amu *amu)
{
	unsigned int cpu;

	amu->info = kcalloc(nr_cpu_ids, sizeof(*amu->info), GFP_KERNEL);
	if (!amu->info)
		return -ENOMEM;
	amu->pcpu = alloc_percpu(struct apmu_amu_pcpu);
	if (!amu->pcpu) {
		kfree(amu->info);
		amu->info = NULL;
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu)
		INIT_LIST_HEAD(&per_cpu_ptr(amu->pcpu, cpu)->active);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		amu->info[cpu].absent = APMU_AMU_NOT_DISCOVERED;
	raw_spin_lock_init(&amu->lock);
	cpumask_clear(&amu->cpus);
	cpumask_clear(&amu->online);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_amu_alloc);

/**
 * apmu_amu_free() - undo apmu_amu_alloc()
 * @amu: the unit
 */
void apmu_amu_free(struct apmu_amu *amu)
{
	free_percpu(amu->pcpu);
	amu->pcpu = NULL;
	kfree(amu->info);
	amu->info = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_amu_free);

/**
 * apmu_amu_register() - discover the AMU on every online CPU, create cpuN/amu where there
 *	is one, and register the PMU if any CPU has one
 * @amu: the unit: @regs, @kernel_el and @owner set, the rest zero
 *
 * Return: 0 or a negative errno.
 */
int apmu_amu_register(struct apmu_amu *amu)
{
	unsigned int cpu;
	int ret;

	ret = apmu_amu_alloc(amu);
	if (ret)
		return ret;

	ret = cpuhp_state_add_instance(apmu_amu_hp_state, &amu->node);
	if (ret)
		goto free_info;
	amu->cpu_pm_nb.notifier_call = apmu_amu_cpu_pm_notify;
	ret = cpu_pm_register_notifier(&amu->cpu_pm_nb);
	if (ret)
		goto remove_hp;

	if (cpumask_empty(&amu->cpus)) {
		pr_info("CPUs %*pbl have no AMU enabled by the kernel (ARM64_HAS_AMU_EXTN with ID_AA64PFR0_EL1.AMU): no cpuN/amu, no %s PMU\n",
			cpumask_pr_args(cpu_online_mask), amu->name ?: "apmu_amu");
		return 0;
	}
	ret = apmu_amu_pmu_register(amu);
	if (ret)
		goto unregister_cpu_pm;
	cpu = cpumask_first(&amu->cpus);
	pr_info("%s: AMU on CPUs %*pbl (cpu%u: %u group-0, %u group-1 counters, group-1 enables %s at EL%u)\n",
		amu->pmu.name, cpumask_pr_args(&amu->cpus), cpu, amu->info[cpu].cg0nc,
		amu->info[cpu].cg1nc, amu->info[cpu].writable ? "writable" : "read-only",
		amu->info[cpu].cur_el);
	return 0;

unregister_cpu_pm:
	apmu_cpu_pm_unregister(&amu->cpu_pm_nb);
remove_hp:
	cpuhp_state_remove_instance(apmu_amu_hp_state, &amu->node);
free_info:
	apmu_amu_free(amu);
	return ret;
}
EXPORT_SYMBOL_FAKE_IF_KUNIT(apmu_amu_register);

/**
 * apmu_amu_unregister() - undo apmu_amu_register()
 * @amu: the unit
 */
void apmu_amu_unregister(struct apmu_amu *amu)
{
	/* no event is left on any CPU's list after this */
	apmu_amu_pmu_unregister(amu);
	/* waits for notifier walks still in apmu_amu_cpu_pm_notify() (compat.h) */
	apmu_cpu_pm_unregister(&amu->cpu_pm_nb);
	/* runs apmu_amu_cpu_offline() on each online CPU: every cpuN/amu goes */
	cpuhp_state_remove_instance(apmu_amu_hp_state, &amu->node);
	apmu_amu_free(amu);
}
EXPORT_SYMBOL_FAKE_IF_KUNIT(apmu_amu_unregister);

/*
 * A CPU without an AMU is not an error: the module loads and offers nothing. Independent
 * of apmu.ko: the AMU is read whoever drives the CPU PMU.
 */
static int __init apmu_amu_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/apmu/amu:online",
				      apmu_amu_cpu_online, apmu_amu_cpu_offline);
	if (ret < 0)
		return ret;
	apmu_amu_hp_state = ret;

	apmu_amu_hw.owner = THIS_MODULE;
	/* group-1 enables only at EL2 with ID_AA64PFR0_EL1.EL3 == 0 (apmu_amu_set_enable()) */
	apmu_amu_hw.kernel_el = is_kernel_in_hyp_mode() ? 2 : 1;
	ret = apmu_amu_register(&apmu_amu_hw);
	if (ret) {
		cpuhp_remove_multi_state(apmu_amu_hp_state);
		return ret;
	}
	return 0;
}
module_init(apmu_amu_init);

static void __exit apmu_amu_exit(void)
{
	apmu_amu_unregister(&apmu_amu_hw);
	cpuhp_remove_multi_state(apmu_amu_hp_state);
}
module_exit(apmu_amu_exit);

MODULE_DESCRIPTION("apmu_amu: the Activity Monitors (AMU) counters in sysfs and as a perf PMU");
MODULE_LICENSE("GPL");
