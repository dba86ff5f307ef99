// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the PMUv3 backend's AArch32 rules. This file compiles the backend
 * (../pmuv3/pmuv3.c) a third time, with APMU_PMUV3_AARCH32 = 1 as 32-bit Arm builds it
 * (pmuv3/arch_arm.h), against the accessors of the register model's AArch32 view
 * (pmuv3_model_access.h, apmu_model_init_aarch32()), as apmu_pmuv3_a32_model_ops; its
 * static functions stay private to this file, so the three compilations link in one
 * module. The suite runs on arm64 like the others: the rules are the backend's, the
 * AArch32 register behaviour is the model's (Arm ARM, the AArch32 PMU registers).
 */
#define APMU_PMUV3_AARCH32	1
#define APMU_PMUV3_ACCESSORS_H	"../tests/pmuv3_model_access.h"
#define APMU_PMUV3_OPS		apmu_pmuv3_a32_model_ops
#include "../pmuv3/pmuv3.c"

#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/perf/arm_pmu.h>
#include <linux/sched.h>
#include "core_harness.h"

/* ID_DFR0.PerfMon values (AArch32) */
#define PERFMON_NI	0x0
#define PERFMON_V1	0x1	/* PMUv1 (ARMv7) */
#define PERFMON_V2	0x2	/* PMUv2 (ARMv7) */
#define PERFMON_V3	0x3
#define PERFMON_V3P1	0x4
#define PERFMON_V3P4	0x5
#define PERFMON_V3P5	0x6
#define PERFMON_V3P9	0x9
#define PERFMON_IMPDEF	0xf

/* perf config1 fields (pmuv3.h, ATTR_CFG_FLD_*) */
#define CFG1_LONG	BIT_ULL(0)
#define CFG1_RDPMC	BIT_ULL(1)

struct a32_test {
	struct apmu_model m;
	struct apmu_pmuv3 pv;
};

/* A PMUv3 instance over the model's AArch32 view, as pmu.c makes one on 32-bit Arm */
static struct a32_test *a32_alloc(struct kunit *test, unsigned int n, unsigned int perfmon,
				  bool allow_lp)
{
	struct a32_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	apmu_model_init_aarch32(&t->m, n, perfmon);
	apmu_model_select(&t->m);
	t->pv.pmu.ops = &apmu_pmuv3_a32_model_ops;
	/* up to C (31): 32-bit Arm's APMU_PMUV3_NR_IDX, no PMICNTR */
	t->pv.pmu.nr_idx = APMU_IDX_CYCLE + 1;
	t->pv.allow_lp = allow_lp;
	return t;
}

/*
 * @n event counters, ID_DFR0.PerfMon @perfmon, long_counters=@allow_lp: probed and reset
 * like a CPU coming online, with the core's per-CPU state and perf callbacks. The model
 * fails the test by itself on any access AArch32 does not have (pmuv3_model.h).
 */
static struct a32_test *a32_setup(struct kunit *test, unsigned int n, unsigned int perfmon,
				  bool allow_lp)
{
	struct a32_test *t = a32_alloc(test, n, perfmon, allow_lp);

	apmu_kt_pmu_start(test, &t->pv.pmu);
	return t;
}

/*
 * The model's AArch32 view itself (Arm ARM, AArch32 PMCCNTR, PMEVCNTR<n>, PMEVTYPER<n>,
 * PMOVSR, PMCEID2/3, ID_DFR0): the rules the other cases rely on.
 */
static void a32_model_registers(struct kunit *test)
{
	struct apmu_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	apmu_model_init_aarch32(m, 4, PERFMON_V3P5);
	m->selftest = true;
	apmu_model_select(m);

	/* ID_DFR0.PerfMon is bits [27:24] */
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_ID_DFR0, 0), 0x06000000ULL);
	/* PMCCNTR, 32-bit encoding: reads [31:0]; writes [31:0], [63:32] unchanged */
	m->ccntr = 0x500000007ULL;
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMCCNTR32, 0), 7);
	apmu_model_write(APMU_R_PMCCNTR32, 0, 0x80000000);
	KUNIT_EXPECT_EQ(test, m->ccntr, 0x580000000ULL);
	/* ...and the 64-bit one (MRRC/MCRR) all 64 bits */
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMCCNTR, 0), 0x580000000ULL);
	apmu_model_write(APMU_R_PMCCNTR, 0, 0x100000002ULL);
	KUNIT_EXPECT_EQ(test, m->ccntr, 0x100000002ULL);
	/* PMUv3p5 PMEVCNTR<n>: a 64-bit counter, [31:0] visible, [63:32] kept on write */
	m->evcntr[1] = 0x300000009ULL;
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMEVCNTR, 1), 9);
	apmu_model_write(APMU_R_PMEVCNTR, 1, 0xfffffff0);
	KUNIT_EXPECT_EQ(test, m->evcntr[1], 0x3fffffff0ULL);
	/* PMCCNTR overflows at 2^32 with PMCR.LC = 0 (PMCCNTR[31] 1 to 0), at 2^64 with 1 */
	m->pmcr = ARMV8_PMU_PMCR_E;
	m->cnten = APMU_CNT_BIT_C;
	m->ccntr = 0x1fffffffeULL;
	apmu_model_count(m, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 4);
	KUNIT_EXPECT_EQ(test, m->ccntr, 0x200000002ULL);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMOVSCLR, 0), APMU_CNT_BIT_C);
	apmu_model_write(APMU_R_PMOVSCLR, 0, APMU_CNT_BIT_C);
	m->pmcr |= ARMV8_PMU_PMCR_LC;
	m->ccntr = 0x1fffffffeULL;
	apmu_model_count(m, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 4);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMOVSCLR, 0), 0);
	m->ccntr = U64_MAX;
	apmu_model_count(m, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 1);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMOVSCLR, 0), APMU_CNT_BIT_C);
	/* W1S/W1C 32-bit views: C at bit 31, P<n> RAZ/WI from N */
	apmu_model_write(APMU_R_PMINTENSET, 0, U32_MAX);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMINTENCLR, 0), 0x8000000fULL);
	apmu_model_write(APMU_R_PMINTENCLR, 0, BIT(31) | BIT(2));
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMINTENSET, 0), 0xbULL);
	KUNIT_EXPECT_EQ(test, m->undef, 0);

	/* no F0, no PMEVTYPER<n>.TH/TC: bits [63:32] of a 32-bit register */
	apmu_model_write(APMU_R_PMCNTENSET, 0, APMU_CNT_BIT_F0);
	KUNIT_EXPECT_EQ(test, m->undef, 1);
	apmu_model_write(APMU_R_PMEVTYPER, 0, FIELD_PREP(APMU_EVTYPE_TH, 1) | 0x11);
	KUNIT_EXPECT_EQ(test, m->undef, 2);
	KUNIT_EXPECT_EQ(test, m->evtyper[0], 0);
	/* no PMICNTR/PMICFILTR, no AArch64 ID registers from AArch32 */
	apmu_model_read(APMU_R_PMICNTR, 0);
	apmu_model_write(APMU_R_PMICFILTR, 0, 0);
	apmu_model_read(APMU_R_DFR0, 0);
	apmu_model_read(APMU_R_DFR1, 0);
	KUNIT_EXPECT_EQ(test, m->undef, 6);

	/* PMCEID2/3 from PMUv3p1 only */
	apmu_model_init_aarch32(m, 4, PERFMON_V3);
	m->selftest = true;
	apmu_model_read(APMU_R_PMCEID2, 0);
	apmu_model_read(APMU_R_PMCEID3, 0);
	KUNIT_EXPECT_EQ(test, m->undef, 2);
	/* not a PMUv3: only ID_DFR0 may be read */
	apmu_model_init_aarch32(m, 4, PERFMON_V2);
	m->selftest = true;
	apmu_model_read(APMU_R_ID_DFR0, 0);
	KUNIT_EXPECT_EQ(test, m->undef, 0);
	apmu_model_read(APMU_R_PMCR, 0);
	KUNIT_EXPECT_EQ(test, m->undef, 1);
}

/*
 * ID_DFR0.PerfMon: 0 (none), 1 and 2 (PMUv1/v2, ARMv7's programming model) and 0xf
 * (IMPLEMENTATION DEFINED) are refused from ID_DFR0 alone; 3 (PMUv3) and later accepted.
 */
static void a32_probe_perfmon(struct kunit *test)
{
	static const unsigned int refused[] = {
		PERFMON_NI, PERFMON_V1, PERFMON_V2, PERFMON_IMPDEF,
	};
	unsigned int i, v;
	struct a32_test *t;

	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		t = a32_alloc(test, 6, refused[i], true);
		KUNIT_EXPECT_EQ_MSG(test, t->pv.pmu.ops->probe(&t->pv.pmu), -ENODEV,
				    "PerfMon %#x", refused[i]);
		/* one ID_DFR0 read and nothing else (the model fails any other access) */
		KUNIT_EXPECT_EQ(test, t->m.reads, 1);
		KUNIT_EXPECT_EQ(test, t->m.writes, 0);
		KUNIT_EXPECT_EQ(test, t->m.undef, 0);
	}
	for (v = PERFMON_V3; v <= PERFMON_V3P9; v++) {
		t = a32_alloc(test, 6, v, true);
		KUNIT_EXPECT_EQ_MSG(test, t->pv.pmu.ops->probe(&t->pv.pmu), 0, "PerfMon %#x", v);
		KUNIT_EXPECT_EQ(test, t->pv.pmuver, v);
		KUNIT_EXPECT_EQ(test, t->pv.pmu.num_counters, 6);
		/* P5..P0 and C, no F0 */
		KUNIT_EXPECT_FALSE(test, t->pv.has_icntr);
		KUNIT_EXPECT_EQ(test, t->pv.cnt_mask, 0x8000003fULL);
		KUNIT_EXPECT_EQ(test, t->m.undef, 0);
	}
}

static bool a32_machine_virt(const char *compat)
{
	return !strcmp(compat, "linux,dummy-virt");
}

static bool a32_machine_other(const char *compat)
{
	return false;
}

/*
 * The quirk table from AArch32: QEMU's AArch32 "max" CPU reports Cortex-A57's MIDR, so
 * QEMU's virt board gets the interrupt resync whatever the MIDR; so does implementer 0;
 * a Cortex-A57 elsewhere gets none, and neither does the model.
 */
static void a32_quirks_table(struct kunit *test)
{
	struct a32_test *t;

	KUNIT_EXPECT_EQ(test, pmuv3_quirks(0x411fd070, a32_machine_virt, true, NULL),
			APMU_PMUV3_QUIRK_IRQ_RESYNC);
	KUNIT_EXPECT_EQ(test, pmuv3_quirks(0x000f0510, a32_machine_other, false, NULL),
			APMU_PMUV3_QUIRK_IRQ_RESYNC);
	KUNIT_EXPECT_EQ(test, pmuv3_quirks(0x411fd070, a32_machine_other, false, NULL), 0);

	t = a32_alloc(test, 6, PERFMON_V3P5, true);
	KUNIT_ASSERT_EQ(test, t->pv.pmu.ops->probe(&t->pv.pmu), 0);
	KUNIT_EXPECT_EQ(test, t->pv.quirks, 0);
}

/*
 * PMCR.LC = 0 (PMCCNTR overflows at 2^32, the width AArch32's MRC sees) and PMCR.LP = 0
 * (event counters at 2^32, PMEVCNTR<n> shows [31:0] only), even on PMUv3p5 with
 * long_counters=1; no counter is treated as 64-bit.
 */
static void a32_pmcr_lc0_lp0(struct kunit *test)
{
	static const unsigned int vers[] = { PERFMON_V3, PERFMON_V3P4, PERFMON_V3P5, 0x7 };
	unsigned int i;
	struct a32_test *t;

	for (i = 0; i < ARRAY_SIZE(vers); i++) {
		t = a32_alloc(test, 6, vers[i], true);
		KUNIT_ASSERT_EQ(test, t->pv.pmu.ops->probe(&t->pv.pmu), 0);
		t->m.pmcr = ARMV8_PMU_PMCR_LC | ARMV8_PMU_PMCR_LP;	/* firmware's */
		t->pv.pmu.ops->reset(&t->pv.pmu);
		KUNIT_EXPECT_EQ_MSG(test, t->m.pmcr & (ARMV8_PMU_PMCR_LC | ARMV8_PMU_PMCR_LP), 0,
				    "PerfMon %#x", vers[i]);
		t->pv.pmu.ops->start(&t->pv.pmu);
		KUNIT_EXPECT_EQ_MSG(test, t->m.pmcr, ARMV8_PMU_PMCR_E, "PerfMon %#x", vers[i]);
		t->pv.pmu.ops->stop(&t->pv.pmu);
		KUNIT_EXPECT_EQ(test, t->m.pmcr, 0);
		KUNIT_EXPECT_FALSE(test, t->pv.long_evcnt);
		KUNIT_EXPECT_FALSE(test, t->pv.long_ccnt);
		KUNIT_EXPECT_FALSE(test, pmuv3_counter_is_64bit(&t->pv, APMU_IDX_CYCLE, false));
		KUNIT_EXPECT_FALSE(test, pmuv3_counter_is_64bit(&t->pv, 0, false));
		KUNIT_EXPECT_EQ(test, t->m.undef, 0);
	}
}

/*
 * The 32-bit W1S/W1C registers (PMCNTENSET/CLR, PMINTENSET/CLR, PMOVSSET/PMOVSR): the
 * backend takes the overflow flags of its own counters, PMCCNTR's at C (bit 31), clears
 * every set flag (a stale one must not hold the interrupt asserted), and never writes
 * bit 32 (F0, which AArch32 does not have: the model fails the test on any such write);
 * quiesce leaves nothing enabled or pending.
 */
static void a32_w1c_c_at_bit31(struct kunit *test)
{
	struct a32_test *t = a32_setup(test, 6, PERFMON_V3P5, true);
	DECLARE_BITMAP(used, APMU_IDX_CYCLE + 1) = { };
	unsigned long taken;

	pmuv3_enable(APMU_IDX_CYCLE, false, ARMV8_PMU_EXCLUDE_EL1, true);
	pmuv3_enable(2, false, ARMV8_PMUV3_PERFCTR_INST_RETIRED, true);
	KUNIT_EXPECT_EQ(test, t->m.cnten, APMU_CNT_BIT_C | BIT(2));
	KUNIT_EXPECT_EQ(test, t->m.inten, APMU_CNT_BIT_C | BIT(2));
	KUNIT_EXPECT_EQ(test, t->m.ccfiltr, ARMV8_PMU_EXCLUDE_EL1);
	__set_bit(APMU_IDX_CYCLE, used);
	__set_bit(2, used);
	t->m.ovs = APMU_CNT_BIT_C | BIT(2) | BIT(0);
	taken = pmuv3_take_overflows(&t->pv.pmu, used);
	KUNIT_EXPECT_EQ(test, taken, APMU_CNT_BIT_C | BIT(2));
	KUNIT_EXPECT_EQ(test, t->m.ovs, 0);
	t->m.ovs |= APMU_CNT_BIT_C | BIT(0);
	pmuv3_disable(APMU_IDX_CYCLE, false);
	KUNIT_EXPECT_EQ(test, t->m.cnten, BIT(2));
	KUNIT_EXPECT_EQ(test, t->m.inten, BIT(2));
	KUNIT_EXPECT_EQ(test, t->m.ovs, BIT(0));
	pmuv3_quiesce(&t->pv.pmu);
	KUNIT_EXPECT_EQ(test, t->m.cnten, 0);
	KUNIT_EXPECT_EQ(test, t->m.inten, 0);
	KUNIT_EXPECT_EQ(test, t->m.ovs, 0);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

/*
 * A counting cycles event on PMCCNTR (LC = 0): armed at half range through the 32-bit
 * MCR, folded and re-armed by the overflow handler, exact across several 2^32 wraps with
 * the interrupt late each time. PMCCNTR[63:32], which an AArch32 MCR never writes, holds
 * garbage and keeps counting the wraps: the count must not see it.
 */
static void a32_cycles_extend_across_wraps(struct kunit *test)
{
	struct a32_test *t = a32_setup(test, 6, PERFMON_V3P5, true);
	struct perf_event *ev;
	u64 total = 0, step;
	int i;

	t->m.ccntr = 0xdead00000000ULL;
	ev = apmu_kt_event(test, &t->pv.pmu, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 0, 0);
	preempt_disable();
	apmu_kt_add(test, &t->pv.pmu, ev);
	KUNIT_EXPECT_EQ(test, ev->hw.idx, APMU_IDX_CYCLE);
	KUNIT_EXPECT_FALSE(test, ev->hw.flags & ARMPMU_EVT_64BIT);
	KUNIT_EXPECT_EQ(test, t->m.ccntr, 0xdead00000000ULL | APMU_ARM_32BIT);
	KUNIT_EXPECT_EQ(test, t->m.inten, APMU_CNT_BIT_C);
	KUNIT_EXPECT_EQ(test, t->m.pmcr, ARMV8_PMU_PMCR_E);

	for (i = 0; i < 5; i++) {
		step = APMU_ARM_32BIT + (1ULL << 30) + i;
		apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, step);
		total += step;
		KUNIT_EXPECT_TRUE(test, apmu_model_irq_pending(&t->m));
		KUNIT_EXPECT_EQ(test, apmu_kt_irq(&t->pv.pmu), IRQ_HANDLED);
		KUNIT_EXPECT_FALSE(test, apmu_model_irq_pending(&t->m));
		KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total);
		KUNIT_EXPECT_EQ(test, lower_32_bits(t->m.ccntr), APMU_ARM_32BIT);
	}
	/* a read between interrupts; PMCCNTR[63:32] counted the wraps, unseen */
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 12345);
	t->pv.pmu.pmu.read(ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total + 12345);
	KUNIT_EXPECT_NE(test, upper_32_bits(t->m.ccntr), 0xdead);
	apmu_kt_del(&t->pv.pmu, ev);
	KUNIT_EXPECT_EQ(test, t->m.cnten, 0);
	KUNIT_EXPECT_EQ(test, t->m.inten, 0);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
	preempt_enable();
}

/*
 * The same on an event counter of a PMUv3p5 (PerfMon 6), where the counter is 64 bits
 * wide but AArch32 sees and writes only its bits [31:0] and PMCR.LP stays 0.
 */
static void a32_evcnt_extends_across_wraps(struct kunit *test)
{
	struct a32_test *t = a32_setup(test, 6, PERFMON_V3P5, true);
	struct perf_event *ev;
	u64 total = 0, step;
	int i;

	t->m.evcntr[0] = 0x7700000000ULL;
	ev = apmu_kt_event(test, &t->pv.pmu, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0, 0);
	preempt_disable();
	apmu_kt_add(test, &t->pv.pmu, ev);
	KUNIT_EXPECT_EQ(test, ev->hw.idx, 0);
	KUNIT_EXPECT_FALSE(test, ev->hw.flags & ARMPMU_EVT_64BIT);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[0], 0x7700000000ULL | APMU_ARM_32BIT);
	KUNIT_EXPECT_EQ(test, t->m.inten, BIT(0));
	for (i = 0; i < 4; i++) {
		step = (3ULL << 30) + i;
		apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, step);
		total += step;
		KUNIT_EXPECT_EQ(test, apmu_kt_irq(&t->pv.pmu), IRQ_HANDLED);
		KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total);
		KUNIT_EXPECT_EQ(test, lower_32_bits(t->m.evcntr[0]), APMU_ARM_32BIT);
	}
	KUNIT_EXPECT_EQ(test, t->m.pmcr & ARMV8_PMU_PMCR_LP, 0);
	apmu_kt_del(&t->pv.pmu, ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
	preempt_enable();
}

/*
 * config1 "long" on PMUv3p1 with CHAIN implemented: a CHAIN pair of 32-bit counters
 * (PMEVTYPER<odd>.evtCount = CHAIN), whose 64-bit value is read exactly across 2^32.
 */
static void a32_chain_pair(struct kunit *test)
{
	struct a32_test *t = a32_setup(test, 6, PERFMON_V3P1, true);
	struct perf_event *ev;

	t->m.ceid0 = BIT_ULL(ARMV8_PMUV3_PERFCTR_CHAIN);
	t->pv.pmu.ops->probe(&t->pv.pmu);
	ev = apmu_kt_event(test, &t->pv.pmu, ARMV8_PMUV3_PERFCTR_INST_RETIRED, CFG1_LONG, 0);
	preempt_disable();
	apmu_kt_add(test, &t->pv.pmu, ev);
	KUNIT_EXPECT_EQ(test, ev->hw.idx, 1);
	KUNIT_EXPECT_TRUE(test, ev->hw.flags & APMU_HWF_CHAIN);
	KUNIT_EXPECT_EQ(test, t->m.evtyper[1], ARMV8_PMUV3_PERFCTR_CHAIN);
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 5ULL << 32 | 7);
	t->pv.pmu.pmu.read(ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), 5ULL << 32 | 7);
	apmu_kt_del(&t->pv.pmu, ev);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
	preempt_enable();
}

/*
 * AArch32 PMEVTYPER<n> is 32 bits: no TH/TC. Even where PMMIR.THWIDTH says
 * FEAT_PMUv3_TH (bits [23:20] of the AArch32 PMMIR too), no threshold is offered
 * (threshold_max, which hides the format/ fields and caps/threshold_max, is 0) and an
 * attribute asking for one is refused with -EINVAL; no PMEVTYPER write has bits [63:32].
 */
static void a32_no_threshold(struct kunit *test)
{
	struct a32_test *t = a32_alloc(test, 6, PERFMON_V3P9, true);
	struct perf_event *ev;
	u32 thwidth, slots;

	t->m.pmmir = FIELD_PREP(APMU_PMMIR_THWIDTH, 12) | FIELD_PREP(APMU_PMMIR_SLOTS, 4);
	KUNIT_ASSERT_EQ(test, t->pv.pmu.ops->probe(&t->pv.pmu), 0);
	thwidth = FIELD_GET(APMU_PMMIR_THWIDTH, t->pv.pmmir);
	slots = FIELD_GET(APMU_PMMIR_SLOTS, t->pv.pmmir);
	KUNIT_EXPECT_EQ(test, thwidth, 0);
	KUNIT_EXPECT_EQ(test, slots, 4);
	KUNIT_EXPECT_EQ(test, apmu_threshold_max(&t->pv), 0);

	ev = apmu_kt_event(test, &t->pv.pmu, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 0, 0);
	ev->attr.config1 = FIELD_PREP(APMU_FLD_MASK(threshold), 5);
	KUNIT_EXPECT_EQ(test, apmu_pmuv3_set_filter(ev), -EINVAL);
	ev->hw.config_base = 0x11;
	ev->attr.config1 = FIELD_PREP(APMU_FLD_MASK(threshold), 1) |
			   FIELD_PREP(APMU_FLD_MASK(threshold_compare), 2);
	KUNIT_EXPECT_EQ(test, apmu_pmuv3_set_filter(ev), -EINVAL);
	ev->hw.config_base = 0x11;
	ev->attr.config1 = FIELD_PREP(APMU_FLD_MASK(threshold_count), 1);
	KUNIT_EXPECT_EQ(test, apmu_pmuv3_set_filter(ev), -EINVAL);
	/* without threshold fields the same event is fine, and its type fits 32 bits */
	ev->hw.config_base = 0x11;
	ev->attr.config1 = 0;
	KUNIT_EXPECT_EQ(test, apmu_pmuv3_set_filter(ev), 0);
	KUNIT_EXPECT_EQ(test, upper_32_bits(ev->hw.config_base), 0);
	pmuv3_reset(&t->pv.pmu);
	pmuv3_enable(2, false, ev->hw.config_base, false);
	KUNIT_EXPECT_EQ(test, t->m.evtyper[2] & ARMV8_PMU_EVTYPE_EVENT, 0x11);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

/*
 * No EL0 counter reads from AArch32: the backend has no user_access(), so the core
 * refuses rdpmc (config1:1) with -EOPNOTSUPP, on a task event, a 64-bit count and a
 * CPU-wide event alike, and leaves no destroy hook behind.
 */
static void a32_rdpmc_refused(struct kunit *test)
{
	struct a32_test *t = a32_setup(test, 6, PERFMON_V3P5, true);
	struct apmu_pmu *pmu = &t->pv.pmu;
	struct perf_event *ev;

	KUNIT_EXPECT_NULL(test, pmu->ops->user_access);
	KUNIT_EXPECT_EQ(test, apmu_kt_init_lone(test, pmu, ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
						CFG1_RDPMC, true, &ev), -EOPNOTSUPP);
	KUNIT_EXPECT_NULL(test, ev->destroy);
	KUNIT_EXPECT_EQ(test, apmu_kt_init_lone(test, pmu, ARMV8_PMUV3_PERFCTR_INST_RETIRED,
						CFG1_RDPMC | CFG1_LONG, true, &ev), -EOPNOTSUPP);
	KUNIT_EXPECT_NULL(test, ev->destroy);
	KUNIT_EXPECT_EQ(test, apmu_kt_init_lone(test, pmu, ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
						CFG1_RDPMC, false, &ev), -EOPNOTSUPP);
	/* the same events without rdpmc are fine */
	KUNIT_EXPECT_EQ(test, apmu_kt_init_lone(test, pmu, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 0,
						true, &ev), 0);
	KUNIT_EXPECT_EQ(test, apmu_kt_init_lone(test, pmu, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 0,
						false, &ev), 0);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

/*
 * The core never grants EL0 access from AArch32, even with kernel.perf_user_access=1 and
 * the running task's context scheduled in with an event flagged for user reads (which
 * event_init() never lets through here): PMUSERENR is only ever written 0 (reset,
 * quiesce), and no counter is zeroed for user space.
 */
static void a32_never_grants_el0(struct kunit *test)
{
	struct a32_test *t = a32_setup(test, 6, PERFMON_V3P5, true);
	struct perf_event_context *tctx;
	struct perf_event *ev;

	tctx = kunit_kzalloc(test, sizeof(*tctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tctx);
	ev = apmu_kt_event(test, &t->pv.pmu, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0, 0);
	ev->hw.flags = PERF_EVENT_FLAG_USER_READ_CNT;
	tctx->nr_user = 1;
	tctx->is_active = 0x3;
	apmu_user_access_set(1);
	t->m.userenr = ARMV8_PMU_USERENR_ER;	/* stale, from before */
	preempt_disable();
	local_irq_disable();
	apmu_cpu_reinit(&t->pv.pmu, this_cpu_ptr(t->pv.pmu.hw));
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, t->m.userenr, 0);
	WRITE_ONCE(current->perf_event_ctxp, tctx);
	t->m.evcntr[5] = 0xbeef;
	apmu_kt_add(test, &t->pv.pmu, ev);
	KUNIT_EXPECT_EQ(test, t->m.userenr, 0);
	t->pv.pmu.pmu.pmu_disable(&t->pv.pmu.pmu);
	t->pv.pmu.pmu.pmu_enable(&t->pv.pmu.pmu);
	apmu_kt_del(&t->pv.pmu, ev);
	apmu_user_event_destroy(ev);
	WRITE_ONCE(current->perf_event_ctxp, NULL);
	preempt_enable();
	apmu_user_access_set(0);
	KUNIT_EXPECT_EQ(test, t->m.userenr, 0);
	KUNIT_EXPECT_EQ(test, t->m.userenr_grants, 0);
	/* the unused counter kept its value: nothing zeroed it for EL0 */
	KUNIT_EXPECT_EQ(test, t->m.evcntr[5], 0xbeef);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

/*
 * PMCEID0/1 and, from PMUv3p1, PMCEID2/3 (events 0x4000-0x403f): the common-event bitmap
 * on PerfMon 4; on PerfMon 3 PMCEID2/3 do not exist and are not read.
 */
static void a32_pmceid(struct kunit *test)
{
	struct a32_test *t;

	t = a32_alloc(test, 6, PERFMON_V3P1, true);
	t->m.ceid0 = BIT_ULL(0x11) | BIT_ULL(32 + 0x04);
	t->m.ceid1 = BIT_ULL(0x3c - 0x20) | BIT_ULL(32 + 0x03);
	KUNIT_ASSERT_EQ(test, t->pv.pmu.ops->probe(&t->pv.pmu), 0);
	KUNIT_EXPECT_TRUE(test, test_bit(0x11, t->pv.pmceid));
	KUNIT_EXPECT_TRUE(test, test_bit(0x3c, t->pv.pmceid));
	KUNIT_EXPECT_TRUE(test, test_bit(64 + 0x04, t->pv.pmceid));
	KUNIT_EXPECT_TRUE(test, test_bit(64 + 0x23, t->pv.pmceid));
	KUNIT_EXPECT_EQ(test, bitmap_weight(t->pv.pmceid, 128), 4);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);

	t = a32_alloc(test, 6, PERFMON_V3, true);
	t->m.ceid0 = BIT_ULL(0x11) | BIT_ULL(32 + 0x04);
	KUNIT_ASSERT_EQ(test, t->pv.pmu.ops->probe(&t->pv.pmu), 0);
	KUNIT_EXPECT_EQ(test, bitmap_weight(t->pv.pmceid, 128), 1);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

static struct kunit_case apmu_pmuv3_aarch32_cases[] = {
	KUNIT_CASE(a32_model_registers),
	KUNIT_CASE(a32_probe_perfmon),
	KUNIT_CASE(a32_quirks_table),
	KUNIT_CASE(a32_pmcr_lc0_lp0),
	KUNIT_CASE(a32_w1c_c_at_bit31),
	KUNIT_CASE(a32_cycles_extend_across_wraps),
	KUNIT_CASE(a32_evcnt_extends_across_wraps),
	KUNIT_CASE(a32_chain_pair),
	KUNIT_CASE(a32_no_threshold),
	KUNIT_CASE(a32_rdpmc_refused),
	KUNIT_CASE(a32_never_grants_el0),
	KUNIT_CASE(a32_pmceid),
	{}
};

static struct kunit_suite apmu_pmuv3_aarch32_suite = {
	.name = "apmu_pmuv3_aarch32",
	.init = apmu_kt_init,
	.test_cases = apmu_pmuv3_aarch32_cases,
};

kunit_test_suite(apmu_pmuv3_aarch32_suite);
