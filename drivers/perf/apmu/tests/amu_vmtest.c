// SPDX-License-Identifier: GPL-2.0
/*
 * apmu_amu_test.ko: a test-only module (never part of apmu_amu.ko) that registers an AMU
 * unit over the AMU register model with apmu_amu.ko (its symbols for the fakes, namespace
 * APMU_FAKE: visibility.h), so that tests in a VM without an AMU (QEMU) reach the real
 * cpuN/amu sysfs files and the real apmu_amu perf PMU, with only the registers faked.
 *
 * The model's per-CPU configuration is in module parameters (arrays indexed by CPU); a
 * change takes effect when the CPU next comes online (discovery runs then), so a test can
 * offline a CPU, change it, and online it again; kernel_el (default 2) is the Exception
 * level the unit is told the kernel runs at. Defaults, for a 2-CPU VM:
 *   cpu0: AMU, EL2 highest and the kernel at EL2: group-1 enables writable; CG1NC = 4
 *   cpu1: AMU, EL3 implemented and the kernel at EL2: group-1 enables read-only; CG1NC = 2
 * Counters advance by step * (n + 1) (group 1: step * (n + 5)) at each read while enabled.
 * "violations" counts accesses the model forbids (amu_model.h), "why" says the first.
 *
 * Power: the core's AMU resets (apmu_amu_model_power_cycle(): counters and group-1 enables
 * to 0, group-0 enables back as firmware set them):
 *  - at CPU hotplug, once the CPU is dead (a CPUHP_BP_PREPARE_DYN state);
 *  - on writing /sys/kernel/debug/apmu_amu_test/cpuN/pm_cycle: CPU N, in a kworker bound
 *    to it with IRQs off, runs the kernel's cpu_pm_enter(), its AMU resets, and
 *    cpu_pm_exit(), as a power-down idle state does (every CPU PM notifier of the kernel
 *    runs). Only with CONFIG_CPU_PM (else the write is EOPNOTSUPP: nobody is notified).
 * Writing a number K to cpuN/advance makes each enabled counter of CPU N count K events,
 * on CPU N (with step = 0, counters then move only when a test says so).
 * Writing four numbers "core const inst stall" to cpuN/g0_step makes each read of an
 * enabled group-0 counter n of CPU N first add the n-th of them: with step = 0, two
 * reads of a counter differ by exactly that (apmu-stat's exact-value tests).
 */
#define pr_fmt(fmt) "apmu_amu_test: " fmt

#include <linux/cpu.h>
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "../compat.h"
#include "amu_model.h"

#define ALL(v)	{ [0 ... APMU_AMU_MODEL_CPUS - 1] = (v) }

static struct apmu_amu_model model = {
	.kernel_cap = true,
	.amu = ALL(1),
	.el2 = ALL(1),
	.el3 = { [1] = 1 },
	.ncg = ALL(1),
	.cg0nc = ALL(APMU_AMU_NR_G0),
	.en0 = ALL(GENMASK_ULL(APMU_AMU_NR_G0 - 1, 0)),
	.cg1nc = { 4, 2, 4, 4, 4, 4, 4, 4 },
	.step = 1,
	.en1 = { BIT(0) | BIT(2), BIT(0) },
	.cnt0 = { [0 ... APMU_AMU_MODEL_CPUS - 1] = { 1ULL << 40, 1ULL << 33, 1ULL << 36, 12345 } },
	.type1 = {
		{ 0x300, 0x301, 0x302, 0x303, 0x304, 0x305, 0x306, 0x307,
		  0x308, 0x309, 0x30a, 0x30b, 0x30c, 0x30d, 0x30e, 0x30f },
		{ 0x310, 0x311, 0x312, 0x313, 0x314, 0x315, 0x316, 0x317,
		  0x318, 0x319, 0x31a, 0x31b, 0x31c, 0x31d, 0x31e, 0x31f },
	},
};

module_param_named(kernel_cap, model.kernel_cap, bool, 0600);
MODULE_PARM_DESC(kernel_cap, "the kernel has ARM64_HAS_AMU_EXTN");
module_param_array_named(amu, model.amu, uint, NULL, 0600);
MODULE_PARM_DESC(amu, "ID_AA64PFR0_EL1.AMU by CPU");
module_param_array_named(el2, model.el2, uint, NULL, 0600);
MODULE_PARM_DESC(el2, "ID_AA64PFR0_EL1.EL2 by CPU");
module_param_array_named(el3, model.el3, uint, NULL, 0600);
MODULE_PARM_DESC(el3, "ID_AA64PFR0_EL1.EL3 by CPU");
static unsigned int kernel_el = 2;
module_param(kernel_el, uint, 0444);
MODULE_PARM_DESC(kernel_el, "the Exception level the unit is told the kernel runs at (2: VHE)");
module_param_array_named(ncg, model.ncg, uint, NULL, 0600);
MODULE_PARM_DESC(ncg, "AMCFGR_EL0.NCG by CPU");
module_param_array_named(en0, model.en0, ullong, NULL, 0600);
MODULE_PARM_DESC(en0, "AMCNTENSET0_EL0 (firmware's group-0 enables) by CPU");
module_param_array_named(cg1nc, model.cg1nc, uint, NULL, 0600);
MODULE_PARM_DESC(cg1nc, "AMCGCR_EL0.CG1NC by CPU");
module_param_named(step, model.step, uint, 0600);
MODULE_PARM_DESC(step, "counter advance per read");
module_param_named(violations, model.violations, uint, 0400);
MODULE_PARM_DESC(violations, "accesses the architecture or apmu's AMU rules forbid");
module_param_string(why, model.why, sizeof(model.why), 0400);
MODULE_PARM_DESC(why, "the first violation");

static u64 g0_step[APMU_AMU_MODEL_CPUS][APMU_AMU_NR_G0];
static struct apmu_amu_regs amu_vm_regs;
static struct apmu_amu unit = { .regs = &amu_vm_regs };
static struct dentry *amu_vm_dir;
static enum cpuhp_state amu_vm_hp;

/* CPU hotplug, on the control CPU: the core is powered down once the CPU is dead */
static int amu_vm_cpu_dead(unsigned int cpu)
{
	apmu_amu_model_power_cycle(&model, cpu);
	return 0;
}

/* On CPU N, in a kworker bound to it: a power-down idle state, as cpuidle enters one */
static long amu_vm_pm_cycle_on_cpu(void *info)
{
	long ret;

	local_irq_disable();
	ret = cpu_pm_enter();
	if (!ret) {
		apmu_amu_model_power_cycle(&model, smp_processor_id());
		ret = cpu_pm_exit();
	}
	local_irq_enable();
	return ret;
}

static ssize_t amu_vm_pm_cycle_write(struct file *file, const char __user *buf,
				     size_t count, loff_t *ppos)
{
	unsigned int cpu = (uintptr_t)file->private_data;
	long ret;

	/* without CONFIG_CPU_PM, cpu_pm_enter() notifies nobody: no cycle to make */
	if (!IS_ENABLED(CONFIG_CPU_PM))
		return -EOPNOTSUPP;
	cpus_read_lock();
	ret = cpu_online(cpu) ? work_on_cpu(cpu, amu_vm_pm_cycle_on_cpu, NULL) : -ENODEV;
	cpus_read_unlock();
	return ret ? ret : count;
}

static const struct file_operations amu_vm_pm_cycle_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = amu_vm_pm_cycle_write,
	.llseek = noop_llseek,
};

static void amu_vm_advance_fn(void *info)
{
	apmu_amu_model_advance(&model, smp_processor_id(), *(u64 *)info);
}

static ssize_t amu_vm_advance_write(struct file *file, const char __user *buf,
				    size_t count, loff_t *ppos)
{
	unsigned int cpu = (uintptr_t)file->private_data;
	u64 k;
	int ret;

	ret = kstrtou64_from_user(buf, count, 0, &k);
	if (ret)
		return ret;
	ret = smp_call_function_single(cpu, amu_vm_advance_fn, &k, 1);
	return ret ? ret : count;
}

static const struct file_operations amu_vm_advance_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = amu_vm_advance_write,
	.llseek = noop_llseek,
};

/* The model's read; a read of an enabled group-0 counter first adds its g0_step */
static u64 amu_vm_read(enum apmu_amu_reg reg, unsigned int n)
{
	unsigned int cpu = raw_smp_processor_id();

	if (reg == APMU_AMU_R_EVCNTR0 && cpu < APMU_AMU_MODEL_CPUS && n < APMU_AMU_NR_G0 &&
	    n < model.cg0nc[cpu] && (model.en0[cpu] & BIT_ULL(n)) &&
	    apmu_amu_model_regs.kernel_enabled())
		model.cnt0[cpu][n] += READ_ONCE(g0_step[cpu][n]);
	return apmu_amu_model_regs.read(reg, n);
}

static ssize_t amu_vm_g0_step_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	unsigned int cpu = (uintptr_t)file->private_data;
	unsigned long long v[APMU_AMU_NR_G0];
	char buf[128];
	unsigned int n;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3]) != APMU_AMU_NR_G0)
		return -EINVAL;
	for (n = 0; n < APMU_AMU_NR_G0; n++)
		WRITE_ONCE(g0_step[cpu][n], v[n]);
	return count;
}

static const struct file_operations amu_vm_g0_step_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = amu_vm_g0_step_write,
	.llseek = noop_llseek,
};

static void amu_vm_debugfs(void)
{
	struct dentry *d;
	unsigned int cpu;
	char name[16];

	amu_vm_dir = debugfs_create_dir("apmu_amu_test", NULL);
	debugfs_create_u32("power_cycles", 0400, amu_vm_dir, &model.power_cycles);
	for (cpu = 0; cpu < APMU_AMU_MODEL_CPUS && cpu < nr_cpu_ids; cpu++) {
		snprintf(name, sizeof(name), "cpu%u", cpu);
		d = debugfs_create_dir(name, amu_vm_dir);
		debugfs_create_file("pm_cycle", 0200, d, (void *)(uintptr_t)cpu,
				    &amu_vm_pm_cycle_fops);
		debugfs_create_file("advance", 0200, d, (void *)(uintptr_t)cpu,
				    &amu_vm_advance_fops);
		debugfs_create_file("g0_step", 0200, d, (void *)(uintptr_t)cpu,
				    &amu_vm_g0_step_fops);
	}
}

static int __init apmu_amu_test_init(void)
{
	unsigned int cpu;
	int ret;

	apmu_amu_model_select(&model);
	amu_vm_regs = apmu_amu_model_regs;
	amu_vm_regs.read = amu_vm_read;
	unit.owner = THIS_MODULE;
	/* the unit is told the kernel's EL; the model checks its writes against the same */
	unit.kernel_el = kernel_el;
	for (cpu = 0; cpu < APMU_AMU_MODEL_CPUS; cpu++)
		model.cur_el[cpu] = kernel_el;
	ret = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "apmu_amu_test:power",
					NULL, amu_vm_cpu_dead);
	if (ret < 0)
		return ret;
	amu_vm_hp = ret;
	ret = apmu_amu_register(&unit);
	if (ret) {
		cpuhp_remove_state_nocalls(amu_vm_hp);
		return ret;
	}
	amu_vm_debugfs();
	return 0;
}
module_init(apmu_amu_test_init);

static void __exit apmu_amu_test_exit(void)
{
	debugfs_remove_recursive(amu_vm_dir);
	apmu_amu_unregister(&unit);
	cpuhp_remove_state_nocalls(amu_vm_hp);
	if (model.violations)
		pr_err("%u AMU model violation(s), first: %s\n",
		       model.violations, model.why);
}
module_exit(apmu_amu_test_exit);

MODULE_DESCRIPTION("apmu AMU unit over a register model, for tests in VMs without an AMU");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("APMU_FAKE");
