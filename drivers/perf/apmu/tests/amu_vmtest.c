// SPDX-License-Identifier: GPL-2.0
/*
 * apmu_amu_test.ko: a test-only module (never part of apmu.ko) that registers an AMU unit
 * over the AMU register model, so that tests in a VM without an AMU (QEMU) reach the real
 * cpuN/amu sysfs files and the real apmu_amu perf PMU, with only the registers faked.
 *
 * The model's per-CPU configuration is in module parameters (arrays indexed by CPU); a
 * change takes effect when the CPU next comes online (discovery runs then), so a test can
 * offline a CPU, change it, and online it again. Defaults, for a 2-CPU VM:
 *   cpu0: AMU, EL2 highest and the kernel at EL2: group-1 enables writable; CG1NC = 4
 *   cpu1: AMU, EL3 implemented and the kernel at EL2: group-1 enables read-only; CG1NC = 2
 * Counters advance by step * (n + 1) (group 1: step * (n + 5)) at each read while enabled.
 * "violations" counts accesses the model forbids (amu_model.h), "why" says the first.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "../compat.h"
#include "amu_model.h"

#define ALL(v)	{ [0 ... APMU_AMU_MODEL_CPUS - 1] = (v) }

static struct apmu_amu_model model = {
	.kernel_cap = true,
	.amu = ALL(1),
	.el2 = ALL(1),
	.el3 = { [1] = 1 },
	.cur_el = ALL(2),
	.ncg = ALL(1),
	.cg0nc = ALL(APMU_AMU_NR_G0),
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
module_param_array_named(cur_el, model.cur_el, uint, NULL, 0600);
MODULE_PARM_DESC(cur_el, "CurrentEL.EL by CPU");
module_param_array_named(ncg, model.ncg, uint, NULL, 0600);
MODULE_PARM_DESC(ncg, "AMCFGR_EL0.NCG by CPU");
module_param_array_named(cg1nc, model.cg1nc, uint, NULL, 0600);
MODULE_PARM_DESC(cg1nc, "AMCGCR_EL0.CG1NC by CPU");
module_param_named(step, model.step, uint, 0600);
MODULE_PARM_DESC(step, "counter advance per read");
module_param_named(violations, model.violations, uint, 0400);
MODULE_PARM_DESC(violations, "accesses the architecture or apmu's AMU rules forbid");
module_param_string(why, model.why, sizeof(model.why), 0400);
MODULE_PARM_DESC(why, "the first violation");

static struct apmu_amu unit = { .regs = &apmu_amu_model_regs };

static int __init apmu_amu_test_init(void)
{
	apmu_amu_model_select(&model);
	unit.owner = THIS_MODULE;
	return apmu_amu_register(&unit);
}
module_init(apmu_amu_test_init);

static void __exit apmu_amu_test_exit(void)
{
	apmu_amu_unregister(&unit);
	if (model.violations)
		pr_err("apmu_amu_test: %u AMU model violation(s), first: %s\n",
		       model.violations, model.why);
}
module_exit(apmu_amu_test_exit);

MODULE_DESCRIPTION("apmu AMU unit over a register model, for tests in VMs without an AMU");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
