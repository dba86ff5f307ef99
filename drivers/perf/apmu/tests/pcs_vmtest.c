// SPDX-License-Identifier: GPL-2.0
/*
 * apmu_pcs_test.ko: test only, never part of apmu_pcs.ko. It gives CPUs 0 and 1
 * PC-sampling units over the frame model (pcs_model.h), handed to apmu_pcs.ko (its
 * symbols for the fakes, namespace APMU_FAKE: visibility.h), so tests in the VM (which
 * has no external PMU frames) drive the real /sys/devices/system/cpu/cpuN/pcsample/
 * files and the apmu_pcs perf PMU:
 *   cpu0: FEAT_PCSRv8p9 with IMP == 0 (EN RAZ/WI), no FEAT_PMUv3_SS;
 *   cpu1: FEAT_PCSRv8p9 with IMP == 1, FEAT_PMUv3_SS and the CoreSight software lock.
 * With debug=1 both are external debug frames instead (FEAT_PCSRv8, the debug kind):
 * EDDEVID.PCSample = pcsample= (3 unless given: EDPCSR, EDCIDSR, EDVIDSR),
 * EDDEVID1.PCSROffset = 2 (no offset), cpu1 with the software lock.
 * Each samples a fixed sequence: the kernel PCs of msleep() (three in four) and
 * msleep_interruptible() at EL1, Non-secure, with CONTEXTIDR_EL1 = 1 (init) and VMID 0:
 * functions of the kernel image, which perf resolves from /proc/kallsyms.
 *
 * /sys/kernel/debug/apmu_pcs_test/cpuN/ sets each model's power and lock state
 * (powered, oslock, dlock), the sampled CONTEXTIDR_EL1 (cid1) and VMID (vmid), and the
 * PMPCSR values the model cycles through (seq0..seq3: PC, EL, NS, NSE as PMPCSR holds
 * them; with debug=1 plain PCs, EDPCSRhi:EDPCSRlo, and vidsr the EDVIDSR captured with
 * each, and sc2 EDSCR.SC2), and shows its counters; violations must stay 0.
 * prsr_delay_us makes every EDPRSR read, so every sample read, that slow
 * (microseconds). "powered" only changes what EDPRSR.PU says (an access then is a
 * violation). A real power cycle resets PMPCSCTL.EN and SS (apmu_pcs_model_power());
 * the module makes one:
 *  - at CPU hotplug: the core is powered down once the CPU is dead and powered up (a
 *    Warm reset) before it boots again (a CPUHP_BP_PREPARE_DYN state);
 *  - on writing cpuN/pm_cycle: CPU N, in a kworker bound to it with IRQs off, runs
 *    cpu_pm_enter(), powers the core down and up again, and cpu_pm_exit(), as a
 *    power-down idle state would (every CPU PM notifier of the kernel runs). Only with
 *    CONFIG_CPU_PM (else the write is EOPNOTSUPP: there are no notifications).
 * Writing N to cpuN/remove_race races unit removal with the CPU PM notifier: a kthread
 * bound to CPU N loops cpu_pm_enter()/cpu_pm_exit() (each exit restores PMPCSCTL, which
 * reads EDPRSR, made slow here) while this CPU removes the unit, marks the model gone
 * (any access is then a violation) and adds the unit back, N times. EIO when apmu
 * touched the unit after apmu_pcs_unit_remove() returned (a freed, unmapped frame on
 * hardware); the unit's enable must be set (else the exit touches nothing).
 */
#define pr_fmt(fmt) "apmu_pcs_test: " fmt

#include <linux/bitfield.h>
#include <linux/cpu.h>
#include <linux/err.h>
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/smp.h>
#include <linux/workqueue.h>
#include <asm/cputype.h>

#include "../compat.h"
#include "pcs_model.h"

#define PCS_VM_UNITS	2

static bool debug;
module_param(debug, bool, 0444);
MODULE_PARM_DESC(debug, "units on external debug frames (FEAT_PCSRv8) instead of PMU frames");
static unsigned int pcsample = APMU_EDPCSAMPLE_CID_VID;
module_param(pcsample, uint, 0444);
MODULE_PARM_DESC(pcsample, "EDDEVID.PCSample of the debug frames (debug=1)");

/**
 * struct pcs_vm_unit - a unit over a model
 * @m: the model
 * @u: the unit
 * @seq: @m's PMPCSR sequence
 * @added: apmu accepted the unit
 */
struct pcs_vm_unit {
	struct apmu_pcs_model m;
	struct apmu_pcs_unit u;
	u64 seq[4];
	bool added;
};

static struct pcs_vm_unit pcs_vm[PCS_VM_UNITS];
static struct dentry *pcs_vm_dir;
static enum cpuhp_state pcs_vm_hp;

/* CPU hotplug, on the control CPU: the core is down once the CPU is dead ... */
static int pcs_vm_cpu_dead(unsigned int cpu)
{
	if (cpu < PCS_VM_UNITS && pcs_vm[cpu].added)
		apmu_pcs_model_power(&pcs_vm[cpu].m, false);
	return 0;
}

/* ... and powers up, a Warm reset, before it boots again */
static int pcs_vm_cpu_prepare(unsigned int cpu)
{
	if (cpu < PCS_VM_UNITS && pcs_vm[cpu].added)
		apmu_pcs_model_power(&pcs_vm[cpu].m, true);
	return 0;
}

/* On CPU N, in a kworker bound to it: a power-down idle state, as cpuidle enters one */
static long pcs_vm_pm_cycle_on_cpu(void *info)
{
	struct pcs_vm_unit *v = info;
	long ret;

	local_irq_disable();
	ret = cpu_pm_enter();
	if (!ret) {
		apmu_pcs_model_power(&v->m, false);
		apmu_pcs_model_power(&v->m, true);
		ret = cpu_pm_exit();
	}
	local_irq_enable();
	return ret;
}

static ssize_t pcs_vm_pm_cycle_write(struct file *file, const char __user *buf,
				     size_t count, loff_t *ppos)
{
	struct pcs_vm_unit *v = file->private_data;
	long ret;

	/* without CONFIG_CPU_PM, cpu_pm_enter() notifies nobody: no cycle to make */
	if (!IS_ENABLED(CONFIG_CPU_PM))
		return -EOPNOTSUPP;
	cpus_read_lock();
	ret = cpu_online(v->u.cpu) ? work_on_cpu(v->u.cpu, pcs_vm_pm_cycle_on_cpu, v) :
				     -ENODEV;
	cpus_read_unlock();
	return ret ? ret : count;
}

static const struct file_operations pcs_vm_pm_cycle_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = pcs_vm_pm_cycle_write,
	.llseek = noop_llseek,
};

/* On CPU N: CPU PM notifications as fast as they come, until stopped */
static int pcs_vm_pm_loop(void *info)
{
	while (!kthread_should_stop()) {
		local_irq_disable();
		if (!cpu_pm_enter())
			cpu_pm_exit();
		local_irq_enable();
		cond_resched();
	}
	return 0;
}

/* A unit as pcs_vm_init() hands it over: apmu_pcs_unit_add() wants the rest zero */
static void pcs_vm_unit_reset(struct pcs_vm_unit *v)
{
	int cpu = v->u.cpu;

	v->u = (struct apmu_pcs_unit) {
		.cpu = cpu,
		.kind = debug ? APMU_PCS_KIND_DEBUG : APMU_PCS_KIND_PMU,
		.ops = &apmu_pcs_model_ops,
		.priv = &v->m,
		.owner = THIS_MODULE,
		.cid_is_pid = true,
	};
}

static ssize_t pcs_vm_remove_race_write(struct file *file, const char __user *buf,
					size_t count, loff_t *ppos)
{
	struct pcs_vm_unit *v = file->private_data;
	struct task_struct *loop;
	unsigned int i, n, before;
	int ret, err;

	ret = kstrtouint_from_user(buf, count, 0, &n);
	if (ret)
		return ret;
	if (!IS_ENABLED(CONFIG_CPU_PM))
		return -EOPNOTSUPP;
	if (!v->added)
		return -ENODEV;
	before = v->m.violations;
	WRITE_ONCE(v->m.prsr_delay_us, 200);
	for (i = 0; i < n && !ret; i++) {
		loop = kthread_create_on_cpu(pcs_vm_pm_loop, NULL, v->u.cpu, "apmu_pcs_pm/%u");
		if (IS_ERR(loop)) {
			ret = PTR_ERR(loop);
			break;
		}
		wake_up_process(loop);
		/* let the loop get going: an exit in flight holds the unit in EDPRSR's delay */
		usleep_range(1000, 2000);
		/* an event still samples the unit: it stays, and so does the test's frame */
		err = apmu_pcs_unit_remove(&v->u);
		if (err) {
			kthread_stop(loop);
			ret = err;
			break;
		}
		WRITE_ONCE(v->m.gone, true);
		/* long enough for a notifier that still held the unit to finish */
		mdelay(2);
		WRITE_ONCE(v->m.gone, false);
		/* the loop stops before the unit comes back: identification needs CPU N up */
		kthread_stop(loop);
		if (v->m.violations != before) {
			pr_err("cpu%d: removal %u: %s\n", v->u.cpu, i, v->m.last);
			ret = -EIO;
		}
		pcs_vm_unit_reset(v);
		err = apmu_pcs_unit_add(&v->u);
		if (err) {
			pr_err("cpu%d: unit not added back (%pe)\n", v->u.cpu, ERR_PTR(err));
			v->added = false;
			ret = ret ?: err;
		}
	}
	WRITE_ONCE(v->m.prsr_delay_us, 0);
	/* what the race test provoked is its result, not a violation of the other tests */
	v->m.violations = before;
	return ret ? ret : count;
}

static const struct file_operations pcs_vm_remove_race_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = pcs_vm_remove_race_write,
	.llseek = noop_llseek,
};

/* PMDEVAFF of the model: the CPU's own MPIDR, as on hardware */
static void pcs_vm_mpidr(void *info)
{
	struct pcs_vm_unit *v = info;

	v->m.devaff = read_cpuid_mpidr();
}

static void pcs_vm_debugfs(struct pcs_vm_unit *v)
{
	struct dentry *d;
	unsigned int i;
	char name[16];

	snprintf(name, sizeof(name), "cpu%d", v->u.cpu);
	d = debugfs_create_dir(name, pcs_vm_dir);
	debugfs_create_bool("powered", 0600, d, &v->m.pu);
	debugfs_create_bool("oslock", 0600, d, &v->m.oslk);
	debugfs_create_bool("dlock", 0600, d, &v->m.dlk);
	debugfs_create_u32("reads", 0400, d, &v->m.reads);
	debugfs_create_u32("writes", 0400, d, &v->m.writes);
	debugfs_create_u32("samples", 0400, d, &v->m.samples);
	debugfs_create_u32("violations", 0400, d, &v->m.violations);
	/* each EDPRSR read, so each sample read, takes this long: a slow external bus */
	debugfs_create_u32("prsr_delay_us", 0600, d, &v->m.prsr_delay_us);
	/* the context ID samples capture: a Linux TID (u->cid_is_pid) */
	debugfs_create_u32("cid1", 0600, d, &v->m.cid1);
	debugfs_create_u32("vmid", 0600, d, &v->m.vmid);
	if (debug) {
		debugfs_create_x32("vidsr", 0600, d, &v->m.vidsr);
		debugfs_create_bool("sc2", 0600, d, &v->m.sc2);
	}
	for (i = 0; i < ARRAY_SIZE(v->seq); i++) {
		snprintf(name, sizeof(name), "seq%u", i);
		debugfs_create_x64(name, 0600, d, &v->seq[i]);
	}
	debugfs_create_file("pm_cycle", 0200, d, v, &pcs_vm_pm_cycle_fops);
	debugfs_create_file("remove_race", 0200, d, v, &pcs_vm_remove_race_fops);
}

static int __init pcs_vm_init(void)
{
	u64 hot = apmu_pcs_model_pcsr((unsigned long)msleep, 1, true);
	u64 cold = apmu_pcs_model_pcsr((unsigned long)msleep_interruptible, 1, true);
	int cpu, ret, n = 0;

	/* EDPCSR holds the PC alone: EL and Security state are in EDVIDSR */
	if (debug) {
		hot = (unsigned long)msleep;
		cold = (unsigned long)msleep_interruptible;
	}
	pcs_vm_dir = debugfs_create_dir("apmu_pcs_test", NULL);
	for (cpu = 0; cpu < PCS_VM_UNITS && cpu < nr_cpu_ids; cpu++) {
		struct pcs_vm_unit *v = &pcs_vm[cpu];

		if (debug)
			apmu_pcs_model_init_debug(&v->m, pcsample, APMU_PCSROFFSET_NONE);
		else
			apmu_pcs_model_init(&v->m, APMU_PCSAMPLE_V8P9, cpu == 1, cpu == 1);
		v->m.sli = cpu == 1;
		v->m.slk = true;
		v->seq[0] = hot;
		v->seq[1] = hot;
		v->seq[2] = cold;
		v->seq[3] = hot;
		v->m.seq = v->seq;
		v->m.nseq = ARRAY_SIZE(v->seq);
		v->m.cid1 = 1;
		if (cpu_online(cpu))
			smp_call_function_single(cpu, pcs_vm_mpidr, v, 1);
		v->u.cpu = cpu;
		pcs_vm_unit_reset(v);
		ret = apmu_pcs_unit_add(&v->u);
		if (ret) {
			pr_err("cpu%d: unit refused (%pe)\n", cpu, ERR_PTR(ret));
			continue;
		}
		v->added = true;
		pcs_vm_debugfs(v);
		n++;
	}
	if (!n) {
		debugfs_remove_recursive(pcs_vm_dir);
		return -ENODEV;
	}
	ret = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "apmu_pcs_test:power",
					pcs_vm_cpu_prepare, pcs_vm_cpu_dead);
	if (ret < 0)
		pr_err("no hotplug power model (%pe)\n", ERR_PTR(ret));
	else
		pcs_vm_hp = ret;
	pr_info("%d PC-sampling units over the %s frame model\n", n,
		debug ? "external debug" : "external PMU");
	return 0;
}
module_init(pcs_vm_init);

static void __exit pcs_vm_exit(void)
{
	int cpu;

	if (pcs_vm_hp)
		cpuhp_remove_state_nocalls(pcs_vm_hp);
	for (cpu = 0; cpu < PCS_VM_UNITS; cpu++) {
		struct pcs_vm_unit *v = &pcs_vm[cpu];

		if (!v->added)
			continue;
		apmu_pcs_unit_remove(&v->u);
		if (v->m.violations)
			pr_err("cpu%d: %u frame rule violations, last: %s\n",
			       cpu, v->m.violations, v->m.last);
	}
	debugfs_remove_recursive(pcs_vm_dir);
}
module_exit(pcs_vm_exit);

MODULE_DESCRIPTION("apmu test only: PC-sampling units over a register model");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("APMU_FAKE");
