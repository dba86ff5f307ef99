// SPDX-License-Identifier: GPL-2.0
/*
 * apmu_pcs_test.ko: test only, never part of apmu.ko. It gives CPUs 0 and 1
 * PC-sampling units over the frame model (pcs_model.h), so tests in the VM (which has
 * no external PMU frames) drive the real /sys/devices/system/cpu/cpuN/pcsample/ files
 * and the apmu_pcs perf PMU:
 *   cpu0: FEAT_PCSRv8p9 with IMP == 0 (EN RAZ/WI), no FEAT_PMUv3_SS;
 *   cpu1: FEAT_PCSRv8p9 with IMP == 1, FEAT_PMUv3_SS and the CoreSight software lock.
 * Each samples a fixed sequence: the kernel PCs of msleep() (three in four) and
 * msleep_interruptible() at EL1, Non-secure, with CONTEXTIDR_EL1 = 1 (init) and VMID 0:
 * functions of the kernel image, which perf resolves from /proc/kallsyms.
 *
 * /sys/kernel/debug/apmu_pcs_test/cpuN/ sets each model's power and lock state
 * (powered, oslock, dlock) and shows its counters; violations must stay 0.
 */
#include <linux/bitfield.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/smp.h>
#include <asm/cputype.h>

#include "pcs_model.h"

#define PCS_VM_UNITS	2

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

/* PMDEVAFF of the model: the CPU's own MPIDR, as on hardware */
static void pcs_vm_mpidr(void *info)
{
	struct pcs_vm_unit *v = info;

	v->m.devaff = read_cpuid_mpidr();
}

static void pcs_vm_debugfs(struct pcs_vm_unit *v)
{
	struct dentry *d;
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
}

static int __init pcs_vm_init(void)
{
	u64 hot = apmu_pcs_model_pcsr((unsigned long)msleep, 1, true);
	u64 cold = apmu_pcs_model_pcsr((unsigned long)msleep_interruptible, 1, true);
	int cpu, ret, n = 0;

	pcs_vm_dir = debugfs_create_dir("apmu_pcs_test", NULL);
	for (cpu = 0; cpu < PCS_VM_UNITS && cpu < nr_cpu_ids; cpu++) {
		struct pcs_vm_unit *v = &pcs_vm[cpu];

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
		v->u.ops = &apmu_pcs_model_ops;
		v->u.priv = &v->m;
		v->u.owner = THIS_MODULE;
		v->u.cid_is_pid = true;
		ret = apmu_pcs_unit_add(&v->u);
		if (ret) {
			pr_err("apmu_pcs_test: cpu%d: unit refused (%d)\n", cpu, ret);
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
	pr_info("apmu_pcs_test: %d PC-sampling units over the frame model\n", n);
	return 0;
}
module_init(pcs_vm_init);

static void __exit pcs_vm_exit(void)
{
	int cpu;

	for (cpu = 0; cpu < PCS_VM_UNITS; cpu++) {
		struct pcs_vm_unit *v = &pcs_vm[cpu];

		if (!v->added)
			continue;
		apmu_pcs_unit_remove(&v->u);
		if (v->m.violations)
			pr_err("apmu_pcs_test: cpu%d: %u frame rule violations, last: %s\n",
			       cpu, v->m.violations, v->m.last);
	}
	debugfs_remove_recursive(pcs_vm_dir);
}
module_exit(pcs_vm_exit);

MODULE_DESCRIPTION("apmu test only: PC-sampling units over a register model");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(APMU_PCS_TEST);
