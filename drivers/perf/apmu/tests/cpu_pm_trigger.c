// SPDX-License-Identifier: GPL-2.0
/*
 * apmu, test only (never part of apmu.ko): runs the kernel's real CPU PM notifier chain,
 * cpu_pm_enter() then cpu_pm_exit(), on a chosen CPU with IRQs off, as a cpuidle driver
 * does around a state that powers the core down, only without the power-down. QEMU's
 * virt machine has no idle state that loses the PMU, so this is how the VM tests reach
 * apmu's CPU PM notifiers (core PMU, AMU, PC sampling) end to end, through the chain and
 * with every other notifier of the kernel (GIC, arch timer, FP/SIMD) on it as in idle.
 *
 * /sys/kernel/debug/apmu_cpu_pm/cycle: writing a CPU number runs one cycle on that CPU
 * and returns when it is done; the write fails with cpu_pm_enter()'s error (after the
 * chain ran CPU_PM_ENTER_FAILED), or -EINVAL / -ENXIO for a CPU that is not online.
 * On the writer's own CPU the cycle runs in the writer's context, preemption and IRQs
 * off, so the writer's own task events stay on the counters through it, as CPU-wide
 * events do when a CPU idles; on another CPU it runs in a kworker bound there
 * (smp_call_on_cpu()), in process context as the idle task is.
 */
#include <linux/cpu.h>
#include <linux/cpu_pm.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/smp.h>

static struct dentry *apmu_cpu_pm_dir;

static int apmu_cpu_pm_cycle(void *unused)
{
	unsigned long flags;
	int ret;

	local_irq_save(flags);
	/* on failure cpu_pm_enter() has already run CPU_PM_ENTER_FAILED: no exit then */
	ret = cpu_pm_enter();
	if (!ret)
		ret = cpu_pm_exit();
	local_irq_restore(flags);
	return ret;
}

static ssize_t apmu_cpu_pm_write(struct file *file, const char __user *ubuf, size_t len,
				 loff_t *ppos)
{
	unsigned int cpu;
	int ret;

	ret = kstrtouint_from_user(ubuf, len, 0, &cpu);
	if (ret)
		return ret;
	if (cpu >= nr_cpu_ids)
		return -EINVAL;

	/* the CPU stays online until the cycle is done */
	cpus_read_lock();
	if (!cpu_online(cpu)) {
		ret = -ENXIO;
	} else if (cpu == get_cpu()) {
		ret = apmu_cpu_pm_cycle(NULL);
		put_cpu();
	} else {
		put_cpu();
		ret = smp_call_on_cpu(cpu, apmu_cpu_pm_cycle, NULL, false);
	}
	cpus_read_unlock();
	return ret ? ret : len;
}

static const struct file_operations apmu_cpu_pm_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= apmu_cpu_pm_write,
	.llseek	= noop_llseek,
};

static int __init apmu_cpu_pm_init(void)
{
	if (!IS_ENABLED(CONFIG_CPU_PM)) {
		pr_info("apmu_cpu_pm_test: CONFIG_CPU_PM is not set, no CPU PM notifiers to run\n");
		return -ENODEV;
	}
	apmu_cpu_pm_dir = debugfs_create_dir("apmu_cpu_pm", NULL);
	debugfs_create_file("cycle", 0200, apmu_cpu_pm_dir, NULL, &apmu_cpu_pm_fops);
	return 0;
}
module_init(apmu_cpu_pm_init);

static void __exit apmu_cpu_pm_exit(void)
{
	debugfs_remove(apmu_cpu_pm_dir);
}
module_exit(apmu_cpu_pm_exit);

MODULE_DESCRIPTION("apmu test only: run cpu_pm_enter()/cpu_pm_exit() on a chosen CPU");
MODULE_LICENSE("GPL");
