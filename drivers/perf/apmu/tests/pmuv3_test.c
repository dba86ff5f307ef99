// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for apmu's PMUv3 backend, run on the register model. This file compiles
 * the backend itself (../pmuv3/pmuv3.c) against the model's accessors, as
 * apmu_pmuv3_model_ops, which the core's tests drive too.
 */
#define APMU_PMUV3_ACCESSORS_H	"../tests/pmuv3_model_access.h"
#define APMU_PMUV3_OPS		apmu_pmuv3_model_ops
#include "../pmuv3/pmuv3.c"

#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/module.h>
#include <linux/perf/arm_pmu.h>

/**
 * apmu_model_pmu_init() - a PMUv3 instance over the register model, not yet probed
 * @pv: instance, zeroed
 * @allow_lp: the long_counters module parameter
 */
void apmu_model_pmu_init(struct apmu_pmuv3 *pv, bool allow_lp)
{
	pv->pmu.ops = &apmu_pmuv3_model_ops;
	pv->pmu.nr_idx = APMU_PMUV3_NR_IDX;	/* as pmuv3/pmu.c: no F0 on 32-bit Arm */
	pv->allow_lp = allow_lp;
}

struct apmu_test {
	struct apmu_model m;
	struct apmu_pmuv3 pv;
	struct apmu_cpu *cpu;
};

/*
 * A model with @n counters at @pmuver (and PMICNTR if @icntr), probed and reset like a
 * CPU coming online; @allow_lp is the long_counters module parameter. The model fails the
 * test by itself on an UNDEFINED access or a runaway re-read loop (pmuv3_model.h).
 */
static struct apmu_test *apmu_test_setup_lp(struct kunit *test, unsigned int n,
					    unsigned int pmuver, bool icntr, bool allow_lp)
{
	struct apmu_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	apmu_model_init(&t->m, n, pmuver);
	t->m.icntr = icntr;
	apmu_model_select(&t->m);
	apmu_model_pmu_init(&t->pv, allow_lp);
	t->cpu = kunit_kzalloc(test, struct_size(t->cpu, events, APMU_NR_IDX), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->cpu);
	t->cpu->pmu = &t->pv.pmu;
	KUNIT_ASSERT_EQ(test, pmuv3_probe(&t->pv.pmu), 0);
	pmuv3_reset(&t->pv.pmu);
	return t;
}

static struct apmu_test *apmu_test_setup_full(struct kunit *test, unsigned int n,
					      unsigned int pmuver, bool icntr)
{
	return apmu_test_setup_lp(test, n, pmuver, icntr, true);
}

static struct apmu_test *apmu_test_setup(struct kunit *test, unsigned int n,
					 unsigned int pmuver)
{
	return apmu_test_setup_full(test, n, pmuver, false);
}

/* What the core's del() has the backend release: counter @idx, or the pair ending there */
static void put_idx(struct kunit *test, unsigned long *used, int idx, bool chained)
{
	struct perf_event *ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ev);
	ev->hw.idx = idx;
	ev->hw.flags = chained ? APMU_HWF_CHAIN : 0;
	pmuv3_put_idx(used, ev);
}

static void model_w1s_w1c_pairs(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_PMUVER_V3P5);

	apmu_model_write(APMU_R_PMINTENSET, 0, BIT(0) | BIT(3));
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMINTENSET, 0), BIT(0) | BIT(3));
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMINTENCLR, 0), BIT(0) | BIT(3));
	/* writing 0 bits changes nothing; writing 1 to CLR clears only that bit */
	apmu_model_write(APMU_R_PMINTENSET, 0, 0);
	apmu_model_write(APMU_R_PMINTENCLR, 0, BIT(0));
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMINTENSET, 0), BIT(3));
	apmu_model_write(APMU_R_PMOVSSET, 0, BIT(31) | BIT(1));
	apmu_model_write(APMU_R_PMOVSCLR, 0, BIT(1));
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMOVSCLR, 0), BIT(31));
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

static void model_raz_wi_above_n(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_PMUVER_V3P5);
	u64 pmcr;

	apmu_model_write(APMU_R_PMCNTENSET, 0, U64_MAX);
	/* P5..P0 and C; P30..P6 and F0 (no FEAT_PMUv3_ICNTR) are RAZ/WI */
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMCNTENSET, 0), 0x8000003fULL);
	apmu_model_write(APMU_R_PMCNTENCLR, 0, U64_MAX);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMCNTENSET, 0), 0);
	/*
	 * PMCR.N is read-only. (The field is read into a local: inside KUNIT_EXPECT_EQ,
	 * 7.2's FIELD_GET and FIELD_PREP are too long a token expansion for sparse 0.6.5.)
	 */
	apmu_model_write(APMU_R_PMCR, 0, APMU_PMCR_N);
	pmcr = FIELD_GET(APMU_PMCR_N, apmu_model_read(APMU_R_PMCR, 0));
	KUNIT_EXPECT_EQ(test, pmcr, 6);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

/* Counter widths by PMUVer alone: LP is RES0 before PMUv3p5 and never narrows a counter. */
static void model_counter_widths(struct kunit *test)
{
	static const unsigned int vers[] = {
		APMU_PMUVER_V3, APMU_MODEL_PMUVER_V3P1, APMU_PMUVER_V3P4, APMU_PMUVER_V3P5, 0x8,
		APMU_PMUVER_IMP_DEF,
	};
	struct apmu_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	unsigned int i;
	bool v3p5;

	KUNIT_ASSERT_NOT_NULL(test, m);
	for (i = 0; i < ARRAY_SIZE(vers); i++) {
		apmu_model_init(m, 2, vers[i]);
		apmu_model_select(m);
		v3p5 = vers[i] >= APMU_PMUVER_V3P5 && vers[i] != APMU_PMUVER_IMP_DEF;
		for (int lp = 0; lp < 2; lp++) {
			apmu_model_write(APMU_R_PMCR, 0, lp ? ARMV8_PMU_PMCR_LP : 0);
			KUNIT_EXPECT_EQ_MSG(test,
					    apmu_model_read(APMU_R_PMCR, 0) & ARMV8_PMU_PMCR_LP,
					    lp && v3p5 ? ARMV8_PMU_PMCR_LP : 0, "PMUVer %#x",
					    vers[i]);
			apmu_model_write(APMU_R_PMEVCNTR, 1, 0x100000005ULL);
			KUNIT_EXPECT_EQ_MSG(test, apmu_model_read(APMU_R_PMEVCNTR, 1),
					    v3p5 ? 0x100000005ULL : 5, "PMUVer %#x LP %d",
					    vers[i], lp);
			/* PMCCNTR is 64 bits wide whatever PMCR.LC says */
			apmu_model_write(APMU_R_PMCR, 0, lp ? ARMV8_PMU_PMCR_LC : 0);
			apmu_model_write(APMU_R_PMCCNTR, 0, 0x100000005ULL);
			KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMCCNTR, 0), 0x100000005ULL);
		}
		KUNIT_EXPECT_EQ(test, m->undef, 0);
	}
}

/*
 * Overflow points (AArch64.IncrementEventCounter/IncrementCycleCounter): bits [31:0] with
 * LP/LC = 0, bits [63:0] with LP/LC = 1; a 64-bit wide counter keeps its upper half.
 */
static void model_overflow_points(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 2, APMU_PMUVER_V3P5);
	struct apmu_model *m = &t->m;

	m->evtyper[0] = ARMV8_PMUV3_PERFCTR_INST_RETIRED;
	m->cnten = BIT(0) | APMU_CNT_BIT_C;
	m->pmcr = ARMV8_PMU_PMCR_E;
	m->evcntr[0] = U32_MAX;
	m->ccntr = U32_MAX;
	apmu_model_count(m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 1);
	apmu_model_count(m, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 1);
	KUNIT_EXPECT_EQ(test, m->evcntr[0], BIT_ULL(32));
	KUNIT_EXPECT_EQ(test, m->ccntr, BIT_ULL(32));
	KUNIT_EXPECT_EQ(test, m->ovs, BIT(0) | APMU_CNT_BIT_C);

	m->ovs = 0;
	m->pmcr = ARMV8_PMU_PMCR_E | ARMV8_PMU_PMCR_LP | ARMV8_PMU_PMCR_LC;
	m->evcntr[0] = U32_MAX;
	m->ccntr = U32_MAX;
	apmu_model_count(m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 1);
	apmu_model_count(m, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 1);
	KUNIT_EXPECT_EQ(test, m->ovs, 0);
	m->evcntr[0] = U64_MAX;
	m->ccntr = U64_MAX;
	apmu_model_count(m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 2);
	apmu_model_count(m, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 2);
	KUNIT_EXPECT_EQ(test, m->evcntr[0], 1);
	KUNIT_EXPECT_EQ(test, m->ccntr, 1);
	KUNIT_EXPECT_EQ(test, m->ovs, BIT(0) | APMU_CNT_BIT_C);

	/* PMUv3: 32 bits wide, the count wraps */
	t = apmu_test_setup(test, 2, APMU_PMUVER_V3);
	m = &t->m;
	m->evtyper[0] = ARMV8_PMUV3_PERFCTR_INST_RETIRED;
	m->cnten = BIT(0);
	m->pmcr = ARMV8_PMU_PMCR_E;
	m->evcntr[0] = U32_MAX;
	apmu_model_count(m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 3);
	KUNIT_EXPECT_EQ(test, m->evcntr[0], 2);
	KUNIT_EXPECT_EQ(test, m->ovs, BIT(0));
}

/* CHAIN counts on an odd counter only, once per overflow of the even one, only when enabled. */
static void model_chain_rules(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 4, APMU_PMUVER_V3);
	struct apmu_model *m = &t->m;

	m->pmcr = ARMV8_PMU_PMCR_E;
	/* CHAIN on an even counter counts nothing, nor does CHAIN given from outside */
	m->evtyper[2] = ARMV8_PMUV3_PERFCTR_CHAIN;
	m->cnten = BIT(2);
	apmu_model_count(m, ARMV8_PMUV3_PERFCTR_CHAIN, 5);
	KUNIT_EXPECT_EQ(test, m->evcntr[2], 0);
	/* 0/1 pair: three overflows of counter 0 are three CHAIN events for counter 1 */
	m->evtyper[0] = ARMV8_PMUV3_PERFCTR_INST_RETIRED;
	m->evtyper[1] = ARMV8_PMUV3_PERFCTR_CHAIN;
	m->cnten = BIT(0) | BIT(1);
	m->evcntr[0] = U32_MAX;
	apmu_model_count(m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 2ULL << 32 | 1);
	KUNIT_EXPECT_EQ(test, m->evcntr[0], 0);
	KUNIT_EXPECT_EQ(test, m->evcntr[1], 3);
	/* a disabled odd counter counts no CHAIN */
	m->cnten = BIT(0);
	apmu_model_count(m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 1ULL << 32);
	KUNIT_EXPECT_EQ(test, m->evcntr[1], 3);
	/*
	 * The odd counter overflowing is the pair's overflow: its own PMOVS bit, and no CHAIN
	 * for the even counter above it.
	 */
	m->cnten = BIT(0) | BIT(1) | BIT(2);
	m->evcntr[1] = U32_MAX;
	m->ovs = 0;
	apmu_model_count(m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 1ULL << 32);
	KUNIT_EXPECT_EQ(test, m->evcntr[1], 0);
	KUNIT_EXPECT_EQ(test, m->evcntr[2], 0);
	KUNIT_EXPECT_EQ(test, m->ovs, BIT(0) | BIT(1));
}

/* Every UNDEFINED access is caught (counted here; it fails any other test). */
static void model_undefined_accesses(struct kunit *test)
{
	struct apmu_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	apmu_model_init(m, 4, APMU_PMUVER_V3);
	m->selftest = true;
	apmu_model_select(m);

	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMEVCNTR, 4), 0);
	apmu_model_write(APMU_R_PMEVCNTR, 4, 1);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMEVTYPER, 30), 0);
	apmu_model_write(APMU_R_PMEVTYPER, 4, ARMV8_PMUV3_PERFCTR_INST_RETIRED);
	KUNIT_EXPECT_EQ(test, m->undef, 4);
	/* no FEAT_PMUv3_ICNTR */
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMICNTR, 0), 0);
	apmu_model_write(APMU_R_PMICNTR, 0, 1);
	apmu_model_write(APMU_R_PMICFILTR, 0, 0);
	KUNIT_EXPECT_EQ(test, m->undef, 7);
	/* PMMIR_EL1 before PMUv3p4 */
	apmu_model_read(APMU_R_PMMIR, 0);
	KUNIT_EXPECT_EQ(test, m->undef, 8);
	/* writes to read-only registers */
	apmu_model_write(APMU_R_PMCEID0, 0, 0);
	apmu_model_write(APMU_R_PMCEID1, 0, 0);
	apmu_model_write(APMU_R_PMMIR, 0, 0);
	apmu_model_write(APMU_R_DFR0, 0, 0);
	apmu_model_write(APMU_R_DFR1, 0, 0);
	KUNIT_EXPECT_EQ(test, m->undef, 13);

	apmu_model_init(m, 4, APMU_PMUVER_V3P4);
	m->selftest = true;
	apmu_model_read(APMU_R_PMMIR, 0);
	apmu_model_read(APMU_R_PMEVCNTR, 3);
	KUNIT_EXPECT_EQ(test, m->undef, 0);
	/* PMUACR_EL1 before PMUv3p9; PMUSERENR_EL0.UEN is RES0 there */
	apmu_model_write(APMU_R_PMUACR, 0, 1);
	KUNIT_EXPECT_EQ(test, m->undef, 1);
	apmu_model_write(APMU_R_PMUSERENR, 0, APMU_USERENR_UEN | ARMV8_PMU_USERENR_ER);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMUSERENR, 0), ARMV8_PMU_USERENR_ER);

	/* PMUv3p9: PMUACR holds P<N-1:0> and C (F0 only with PMICNTR), UEN sticks */
	apmu_model_init(m, 4, APMU_PMUVER_V3P9);
	m->selftest = true;
	apmu_model_write(APMU_R_PMUACR, 0, U64_MAX);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMUACR, 0), 0x8000000fULL);
	apmu_model_write(APMU_R_PMUSERENR, 0, APMU_USERENR_UEN);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMUSERENR, 0), APMU_USERENR_UEN);
	KUNIT_EXPECT_TRUE(test, apmu_model_el0_can_read(m, 3));
	KUNIT_EXPECT_FALSE(test, apmu_model_el0_can_read(m, 4));
	KUNIT_EXPECT_EQ(test, m->undef, 0);
	/* ... unless EL2 traps it (and PMICNTR) */
	m->el2_trap = true;
	m->icntr = true;
	apmu_model_write(APMU_R_PMUACR, 0, 0);
	apmu_model_read(APMU_R_PMICNTR, 0);
	KUNIT_EXPECT_EQ(test, m->undef, 2);
}

/* PMCR.P and C are write-only actions that leave the overflow flags; PMEVTYPER RES0 bits. */
static void model_pmcr_actions_and_res0(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 4, APMU_PMUVER_V3);
	u64 pmcr;

	t->m.evcntr[3] = 7;
	t->m.ccntr = 9;
	t->m.ovs = BIT(3) | APMU_CNT_BIT_C;
	apmu_model_write(APMU_R_PMCR, 0, ARMV8_PMU_PMCR_E | ARMV8_PMU_PMCR_P);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[3], 0);
	KUNIT_EXPECT_EQ(test, t->m.ccntr, 9);
	apmu_model_write(APMU_R_PMCR, 0, ARMV8_PMU_PMCR_E | ARMV8_PMU_PMCR_C);
	KUNIT_EXPECT_EQ(test, t->m.ccntr, 0);
	KUNIT_EXPECT_EQ(test, t->m.ovs, BIT(3) | APMU_CNT_BIT_C);
	pmcr = ARMV8_PMU_PMCR_E | FIELD_PREP(APMU_PMCR_N, 4);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMCR, 0), pmcr);
	/* PMUv3 (not v3p1): evtCount[15:10] RES0; no FEAT_PMUv3_TH: bits [63:32] RES0 */
	apmu_model_write(APMU_R_PMEVTYPER, 1, APMU_EVTYPE_TH | ARMV8_PMU_EXCLUDE_EL0 | 0x4008);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMEVTYPER, 1), ARMV8_PMU_EXCLUDE_EL0 | 0x8);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

/* A re-read loop on a pair that nothing changes is stopped and reported. */
static void model_runaway_reread(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 4, APMU_PMUVER_V3P5);
	unsigned int i;

	t->m.selftest = true;
	t->m.evcntr[0] = 3;
	t->m.evcntr[2] = 0x100000001ULL;
	t->m.evcntr[3] = 5;
	for (i = 0; i < APMU_MODEL_REREAD_MAX; i++)
		KUNIT_EXPECT_NE(test, apmu_model_read(APMU_R_PMEVCNTR, 2 + (i & 1)), 0);
	KUNIT_EXPECT_EQ(test, t->m.runaway, 0);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMEVCNTR, 2), 0);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMEVCNTR, 3), 0);
	KUNIT_EXPECT_EQ(test, t->m.runaway, 1);
	/* other registers do not end the run; a write does */
	apmu_model_read(APMU_R_PMOVSCLR, 0);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMEVCNTR, 3), 0);
	apmu_model_write(APMU_R_PMOVSCLR, 0, 0);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMEVCNTR, 3), 5);
	/* so does reading another pair, or counting */
	for (i = 0; i <= APMU_MODEL_REREAD_MAX; i++)
		apmu_model_read(APMU_R_PMEVCNTR, 2);
	KUNIT_EXPECT_EQ(test, t->m.runaway, 2);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMEVCNTR, 0), 3);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMEVCNTR, 2), 0x100000001ULL);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

static void probe_reads_identification(struct kunit *test)
{
	struct apmu_test *t;

	t = apmu_test_setup(test, 6, APMU_PMUVER_V3P5);
	KUNIT_EXPECT_EQ(test, t->pv.pmu.num_counters, 6);
	KUNIT_EXPECT_EQ(test, t->pv.pmuver, APMU_PMUVER_V3P5);
	KUNIT_EXPECT_TRUE(test, t->pv.long_evcnt);
	KUNIT_EXPECT_EQ(test, t->pv.cnt_mask, 0x8000003fULL);

	t = apmu_test_setup(test, 31, APMU_PMUVER_V3);
	KUNIT_EXPECT_EQ(test, t->pv.pmu.num_counters, 31);
	KUNIT_EXPECT_FALSE(test, t->pv.long_evcnt);
	KUNIT_EXPECT_EQ(test, t->pv.cnt_mask, 0xffffffffULL);
}

/* Machines for pmuv3_quirks(): QEMU's virt board, and any other */
static bool quirk_machine_virt(const char *compat)
{
	return !strcmp(compat, "linux,dummy-virt");
}

static bool quirk_machine_other(const char *compat)
{
	return false;
}

/*
 * The quirk table, on AArch64: QEMU's TCG CPUs (MIDR implementer 0; QEMU 7.2 and 10.0's
 * -cpu max: 0x000f0510) get the interrupt resync on any board, and so do real MIDRs on
 * QEMU's virt board without KVM (named TCG CPUs); a KVM guest there gets none (its PMU is
 * KVM's); the model none either.
 * pmuv3_start() writes PMINTENSET once more, with 0, exactly when the quirk is set.
 */
static void probe_quirks_table(struct kunit *test)
{
	struct apmu_test *t;
	unsigned int w;

	KUNIT_EXPECT_EQ(test, pmuv3_quirks(0x000f0510, quirk_machine_other, false, NULL),
			APMU_PMUV3_QUIRK_IRQ_RESYNC);
	KUNIT_EXPECT_EQ(test, pmuv3_quirks(0x000f0510, quirk_machine_virt, false, NULL),
			APMU_PMUV3_QUIRK_IRQ_RESYNC);
	/* a real MIDR on QEMU's virt board: a KVM guest (KVM's PMU) gets none */
	KUNIT_EXPECT_EQ(test, pmuv3_quirks(0x411fd070, quirk_machine_virt, true, NULL), 0);
	/* ... QEMU's own named CPUs (-cpu cortex-a72: TCG, no KVM) get the resync */
	KUNIT_EXPECT_EQ(test, pmuv3_quirks(0x410fd083, quirk_machine_virt, false, NULL),
			APMU_PMUV3_QUIRK_IRQ_RESYNC);
	KUNIT_EXPECT_EQ(test, pmuv3_quirks(0x410fd083, quirk_machine_other, false, NULL), 0);
	KUNIT_EXPECT_EQ(test, pmuv3_quirks(0x414fd0b1, quirk_machine_other, false, NULL), 0);
	/* NVIDIA Olympus, any variant and revision; not another NVIDIA core (Carmel) */
	KUNIT_EXPECT_EQ(test, pmuv3_quirks(0x4e0f0100, quirk_machine_other, false, NULL),
			APMU_PMUV3_QUIRK_NO_PMCCNTR);
	KUNIT_EXPECT_EQ(test, pmuv3_quirks(0x4e2f0103, quirk_machine_other, true, NULL),
			APMU_PMUV3_QUIRK_NO_PMCCNTR);
	KUNIT_EXPECT_EQ(test, pmuv3_quirks(0x4e0f0040, quirk_machine_other, false, NULL), 0);

	t = apmu_test_setup(test, 6, APMU_PMUVER_V3P5);
	KUNIT_EXPECT_EQ(test, t->pv.quirks, 0);
	w = t->m.writes;
	pmuv3_start(&t->pv.pmu);
	KUNIT_EXPECT_EQ(test, t->m.writes, w + 1);	/* PMCR only */
	pmuv3_stop(&t->pv.pmu);
	t->pv.quirks = APMU_PMUV3_QUIRK_IRQ_RESYNC;
	t->m.inten = BIT(2);
	w = t->m.writes;
	pmuv3_start(&t->pv.pmu);
	KUNIT_EXPECT_EQ(test, t->m.writes, w + 2);	/* PMCR, then PMINTENSET */
	KUNIT_EXPECT_EQ(test, t->m.inten, BIT(2));	/* a write of 0 sets nothing */
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

static void probe_maps_pmceid(struct kunit *test)
{
	struct apmu_test *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	apmu_model_init(&t->m, 6, APMU_PMUVER_V3P5);
	/* CPU_CYCLES (0x11) and 0x4004 in PMCEID0; 0x3c and 0x4023 in PMCEID1 */
	t->m.ceid0 = BIT_ULL(0x11) | BIT_ULL(32 + 0x04);
	t->m.ceid1 = BIT_ULL(0x3c - 0x20) | BIT_ULL(32 + 0x03);
	apmu_model_select(&t->m);
	apmu_model_pmu_init(&t->pv, true);
	pmuv3_probe(&t->pv.pmu);

	KUNIT_EXPECT_TRUE(test, test_bit(0x11, t->pv.pmceid));
	KUNIT_EXPECT_TRUE(test, test_bit(0x3c, t->pv.pmceid));
	KUNIT_EXPECT_TRUE(test, test_bit(64 + 0x04, t->pv.pmceid));
	KUNIT_EXPECT_TRUE(test, test_bit(64 + 0x23, t->pv.pmceid));
	KUNIT_EXPECT_EQ(test, bitmap_weight(t->pv.pmceid, 128), 4);
}

static void reset_leaves_pmu_idle(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_PMUVER_V3P5);
	unsigned int i;

	/* dirty every piece of state, as firmware or a previous owner might */
	t->m.cnten = 0x8000003f;
	t->m.inten = 0x8000003f;
	t->m.ovs = 0x8000003f;
	t->m.pmcr = ARMV8_PMU_PMCR_E;
	t->m.userenr = ARMV8_PMU_USERENR_EN;
	t->m.ccntr = 1234;
	for (i = 0; i < 6; i++)
		t->m.evcntr[i] = i + 1;

	pmuv3_reset(&t->pv.pmu);

	KUNIT_EXPECT_EQ(test, t->m.cnten, 0);
	KUNIT_EXPECT_EQ(test, t->m.inten, 0);
	KUNIT_EXPECT_EQ(test, t->m.ovs, 0);
	KUNIT_EXPECT_EQ(test, t->m.userenr, 0);
	KUNIT_EXPECT_EQ(test, t->m.ccntr, 0);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ(test, t->m.evcntr[i], 0);
	/* E clear until something is scheduled; 64-bit overflow for both counter kinds */
	KUNIT_EXPECT_EQ(test, t->m.pmcr, ARMV8_PMU_PMCR_LC | ARMV8_PMU_PMCR_LP);
	KUNIT_EXPECT_EQ(test, t->pv.pmcr, ARMV8_PMU_PMCR_LC | ARMV8_PMU_PMCR_LP);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

static void get_idx_allocation(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_PMUVER_V3P5);
	DECLARE_BITMAP(used, APMU_NR_IDX) = { };
	int i;

	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 0),
			APMU_IDX_CYCLE);
	/* a second cycles event falls back to an event counter */
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 0), 0);
	for (i = 1; i < 6; i++)
		KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used,
						     ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0), i);
	/* never an index at or above PMCR.N */
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 0),
			-EAGAIN);
}

/*
 * CPU_CYCLES never takes PMCCNTR on an SMT core (it counts the core's clock while this
 * thread waits in WFI/WFE), nor on a core whose MIDR the quirk table names (Olympus): it
 * takes event counters like any event, as in-tree 7.2 (armv8pmu_can_use_pmccntr()).
 */
static void get_idx_pmccntr_not_on_smt_or_quirk(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_PMUVER_V3P5);
	DECLARE_BITMAP(used, APMU_NR_IDX) = { };
	unsigned int i;
	static const struct { bool smt; u32 midr; } cases[] = {
		{ .smt = true, .midr = 0x411fd070 },	/* Cortex-A57 in an SMT topology */
		{ .smt = false, .midr = 0x4e0f0100 },	/* NVIDIA Olympus */
	};

	KUNIT_EXPECT_TRUE(test, t->pv.pmccntr_ok);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		t->m.smt = cases[i].smt;
		t->m.midr = cases[i].midr;
		KUNIT_ASSERT_EQ(test, pmuv3_probe(&t->pv.pmu), 0);
		KUNIT_EXPECT_FALSE(test, t->pv.pmccntr_ok);
		bitmap_zero(used, APMU_NR_IDX);
		KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used,
						     ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 0), 0);
		KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
						     APMU_GET_USER), 1);
		KUNIT_EXPECT_FALSE(test, test_bit(APMU_IDX_CYCLE, used));
	}
	t->m.smt = false;
	t->m.midr = 0x411fd070;
	KUNIT_ASSERT_EQ(test, pmuv3_probe(&t->pv.pmu), 0);
	KUNIT_EXPECT_TRUE(test, t->pv.pmccntr_ok);
}

static void enable_disable_touch_one_counter(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_PMUVER_V3);
	u64 evtype = ARMV8_PMUV3_PERFCTR_INST_RETIRED | ARMV8_PMU_EXCLUDE_EL1;

	pmuv3_enable(4, false, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, true);
	pmuv3_enable(2, false, evtype, true);
	KUNIT_EXPECT_EQ(test, t->m.evtyper[2], evtype);
	KUNIT_EXPECT_EQ(test, t->m.cnten, BIT(2) | BIT(4));
	KUNIT_EXPECT_EQ(test, t->m.inten, BIT(2) | BIT(4));

	t->m.ovs = BIT(2) | BIT(4);
	pmuv3_disable(2, false);
	/* PMCNTENCLR, PMINTENCLR and PMOVSCLR for bit 2 only */
	KUNIT_EXPECT_EQ(test, t->m.cnten, BIT(4));
	KUNIT_EXPECT_EQ(test, t->m.inten, BIT(4));
	KUNIT_EXPECT_EQ(test, t->m.ovs, BIT(4));
	KUNIT_EXPECT_TRUE(test, apmu_model_irq_pending(&t->m));
	pmuv3_disable(4, false);
	KUNIT_EXPECT_FALSE(test, apmu_model_irq_pending(&t->m));
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

/* Stopping a 64-bit counting counter costs one register write and leaves the rest. */
static void disable_counter_is_one_write(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_PMUVER_V3P5);

	struct perf_event *ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ev);
	ev->hw.idx = 1;
	ev->hw.flags = ARMPMU_EVT_64BIT;
	pmuv3_enable(1, false, ARMV8_PMUV3_PERFCTR_INST_RETIRED, false);
	pmuv3_enable(3, false, ARMV8_PMUV3_PERFCTR_INST_RETIRED, true);
	t->m.writes = 0;
	pmuv3_disable_event(ev);
	KUNIT_EXPECT_EQ(test, t->m.writes, 1);
	KUNIT_EXPECT_EQ(test, t->m.cnten, BIT(3));
	KUNIT_EXPECT_EQ(test, t->m.inten, BIT(3));
}

static void cycle_counter_uses_pmccfiltr(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_PMUVER_V3P5);

	pmuv3_enable(APMU_IDX_CYCLE, false,
		     ARMV8_PMUV3_PERFCTR_CPU_CYCLES | ARMV8_PMU_EXCLUDE_EL0, false);
	KUNIT_EXPECT_EQ(test, t->m.ccfiltr, ARMV8_PMU_EXCLUDE_EL0);
	KUNIT_EXPECT_EQ(test, t->m.cnten, APMU_CNT_BIT_C);
	/* counting only: the 64-bit cycle counter needs no interrupt */
	KUNIT_EXPECT_EQ(test, t->m.inten, 0);
	KUNIT_EXPECT_TRUE(test, pmuv3_counter_is_64bit(&t->pv, APMU_IDX_CYCLE, false));
}

static void overflow_take_clears_stale_flags(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_PMUVER_V3);
	DECLARE_BITMAP(used, APMU_NR_IDX) = { };

	__set_bit(1, used);
	__set_bit(APMU_IDX_CYCLE, used);
	t->m.ovs = BIT(1) | BIT(3) | BIT(31);
	t->m.pmcr |= ARMV8_PMU_PMCR_E;
	KUNIT_EXPECT_EQ(test, pmuv3_take_overflows(&t->pv.pmu, used), BIT(1) | BIT(31));
	/* the stale flag of unused counter 3 is cleared too: it must not assert the IRQ */
	KUNIT_EXPECT_EQ(test, t->m.ovs, 0);
	/* and the counters stop for the handler */
	KUNIT_EXPECT_EQ(test, t->m.pmcr & ARMV8_PMU_PMCR_E, 0);
	/*
	 * Nothing of ours, a stale flag with its interrupt enabled: cleared (one write), the
	 * counters keep running (PMCR.E stays), and the handler says IRQ_NONE once, instead
	 * of the level-sensitive interrupt being taken forever
	 */
	t->m.pmcr |= ARMV8_PMU_PMCR_E;
	t->m.writes = 0;
	t->m.ovs = BIT(3);
	t->m.inten = BIT(3);
	KUNIT_EXPECT_EQ(test, pmuv3_take_overflows(&t->pv.pmu, used), 0);
	KUNIT_EXPECT_EQ(test, t->m.ovs, 0);
	KUNIT_EXPECT_EQ(test, t->m.writes, 1);
	KUNIT_EXPECT_EQ(test, t->m.pmcr & ARMV8_PMU_PMCR_E, ARMV8_PMU_PMCR_E);
	/* no flag set: nothing written */
	t->m.writes = 0;
	KUNIT_EXPECT_EQ(test, pmuv3_take_overflows(&t->pv.pmu, used), 0);
	KUNIT_EXPECT_EQ(test, t->m.writes, 0);
}

static void evcnt_32bit_wrap_raises_overflow(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_PMUVER_V3);

	pmuv3_write(0, false, 0xfffffff0);
	pmuv3_enable(0, false, ARMV8_PMUV3_PERFCTR_INST_RETIRED, true);
	t->m.pmcr |= ARMV8_PMU_PMCR_E;
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0x20);
	KUNIT_EXPECT_EQ(test, pmuv3_read(0, false), 0x10);
	KUNIT_EXPECT_EQ(test, t->m.ovs, BIT(0));
	KUNIT_EXPECT_TRUE(test, apmu_model_irq_pending(&t->m));
	KUNIT_EXPECT_FALSE(test, pmuv3_counter_is_64bit(&t->pv, 0, false));
}

static void quiesce_stops_everything(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_PMUVER_V3P5);

	pmuv3_enable(0, false, ARMV8_PMUV3_PERFCTR_INST_RETIRED, true);
	pmuv3_enable(APMU_IDX_CYCLE, false, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, true);
	t->m.pmcr |= ARMV8_PMU_PMCR_E;
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 100);
	t->m.ovs = BIT(0);

	pmuv3_quiesce(&t->pv.pmu);
	KUNIT_EXPECT_EQ(test, t->m.pmcr & ARMV8_PMU_PMCR_E, 0);
	KUNIT_EXPECT_EQ(test, t->m.cnten, 0);
	KUNIT_EXPECT_EQ(test, t->m.inten, 0);
	KUNIT_EXPECT_EQ(test, t->m.ovs, 0);
	/* counts already taken stay readable */
	KUNIT_EXPECT_EQ(test, pmuv3_read(0, false), 100);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

static void chain_pairs_are_even_odd(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_PMUVER_V3);
	DECLARE_BITMAP(used, APMU_NR_IDX) = { };
	u64 ev = ARMV8_PMUV3_PERFCTR_INST_RETIRED;

	__set_bit(1, used);
	/* 0/1 is half taken: the first pair is 2/3 (index 3), then 4/5, then nothing */
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ev, APMU_GET_CHAIN), 3);
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ev, APMU_GET_CHAIN), 5);
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ev, APMU_GET_CHAIN), -EAGAIN);
	/* counter 0 is still free for a single event */
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0), 0);
	put_idx(test, used, 3, true);
	KUNIT_EXPECT_FALSE(test, test_bit(2, used));
	KUNIT_EXPECT_FALSE(test, test_bit(3, used));
	KUNIT_EXPECT_TRUE(test, test_bit(4, used));
}

static void chain_pair_counts_64bit(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_PMUVER_V3);
	u64 start = 0x1fffffff0ULL, n = 3ULL << 32 | 0x25;

	pmuv3_write(3, true, start);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[2], 0xfffffff0);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[3], 1);
	pmuv3_enable(3, true, ARMV8_PMUV3_PERFCTR_INST_RETIRED | ARMV8_PMU_EXCLUDE_EL1, true);
	/* the odd counter counts CHAIN with the event's filters; only it interrupts */
	KUNIT_EXPECT_EQ(test, t->m.evtyper[3], ARMV8_PMUV3_PERFCTR_CHAIN | ARMV8_PMU_EXCLUDE_EL1);
	KUNIT_EXPECT_EQ(test, t->m.cnten, BIT(2) | BIT(3));
	KUNIT_EXPECT_EQ(test, t->m.inten, BIT(3));

	t->m.pmcr |= ARMV8_PMU_PMCR_E;
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, n);
	KUNIT_EXPECT_EQ(test, pmuv3_read(3, true), start + n);
	KUNIT_EXPECT_TRUE(test, pmuv3_counter_is_64bit(&t->pv, 3, true));
	/* the low half wrapped (flag, no interrupt); the pair did not */
	KUNIT_EXPECT_EQ(test, t->m.ovs, BIT(2));
	KUNIT_EXPECT_FALSE(test, apmu_model_irq_pending(&t->m));

	pmuv3_disable(3, true);
	KUNIT_EXPECT_EQ(test, t->m.cnten, 0);
	KUNIT_EXPECT_EQ(test, t->m.inten, 0);
	KUNIT_EXPECT_EQ(test, t->m.ovs, 0);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

static void chain_needs_two_counters(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 1, APMU_PMUVER_V3);
	DECLARE_BITMAP(used, APMU_NR_IDX) = { };

	/* one event counter: a pair can never be formed, and counter 1 is never touched */
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ARMV8_PMUV3_PERFCTR_INST_RETIRED,
					     APMU_GET_CHAIN), -EAGAIN);
	KUNIT_EXPECT_FALSE(test, test_bit(1, used));
}

static struct apmu_test *apmu_test_setup_icntr(struct kunit *test)
{
	return apmu_test_setup_full(test, 6, APMU_PMUVER_V3P5, true);
}

static void icntr_takes_inst_retired(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup_icntr(test);
	DECLARE_BITMAP(used, APMU_NR_IDX) = { };

	KUNIT_EXPECT_TRUE(test, t->pv.has_icntr);
	KUNIT_EXPECT_EQ(test, t->pv.cnt_mask, APMU_CNT_BIT_F0 | 0x8000003fULL);
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0),
			APMU_IDX_INSTR);
	/* a second one, or one with a threshold, goes to an event counter */
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0), 0);
	put_idx(test, used, APMU_IDX_INSTR, false);
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used,
					     ARMV8_PMUV3_PERFCTR_INST_RETIRED | APMU_EVTYPE_TH, 0),
			1);
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used,
					     ARMV8_PMUV3_PERFCTR_CPU_CYCLES | APMU_EVTYPE_TH, 0),
			2);
}

static void icntr_never_for_user_reads(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup_icntr(test);
	DECLARE_BITMAP(used, APMU_NR_IDX) = { };

	/* user space knows PMEVCNTR<n> and PMCCNTR only: INST_RETIRED on an event counter */
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ARMV8_PMUV3_PERFCTR_INST_RETIRED,
					     APMU_GET_USER), 0);
	KUNIT_EXPECT_FALSE(test, test_bit(APMU_IDX_INSTR, used));
	/* the cycle counter is fine for user reads */
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
					     APMU_GET_USER), APMU_IDX_CYCLE);
}

/* long + rdpmc on CPU_CYCLES never takes a CHAIN pair: it waits for PMCCNTR */
static void user_read_never_gets_a_pair(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_PMUVER_V3);
	DECLARE_BITMAP(used, APMU_NR_IDX) = { };
	unsigned int both = APMU_GET_CHAIN | APMU_GET_USER;

	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, both),
			APMU_IDX_CYCLE);
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, both),
			-EAGAIN);
	KUNIT_EXPECT_TRUE(test, bitmap_weight(used, APMU_NR_IDX) == 1);
	/* without rdpmc the same event does get a pair */
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
					     APMU_GET_CHAIN), 1);
}

static void icntr_f0_bits(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup_icntr(test);

	pmuv3_write(APMU_IDX_INSTR, false, 5);
	pmuv3_enable(APMU_IDX_INSTR, false,
		     ARMV8_PMUV3_PERFCTR_INST_RETIRED | ARMV8_PMU_EXCLUDE_EL1, true);
	KUNIT_EXPECT_EQ(test, t->m.icfiltr, ARMV8_PMU_EXCLUDE_EL1);
	KUNIT_EXPECT_EQ(test, t->m.cnten, APMU_CNT_BIT_F0);
	KUNIT_EXPECT_EQ(test, t->m.inten, APMU_CNT_BIT_F0);
	t->m.pmcr |= ARMV8_PMU_PMCR_E;
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 1000);
	KUNIT_EXPECT_EQ(test, pmuv3_read(APMU_IDX_INSTR, false), 1005);
	KUNIT_EXPECT_TRUE(test, pmuv3_counter_is_64bit(&t->pv, APMU_IDX_INSTR, false));

	t->m.ovs = APMU_CNT_BIT_F0 | BIT(0);
	pmuv3_disable(APMU_IDX_INSTR, false);
	KUNIT_EXPECT_EQ(test, t->m.cnten, 0);
	KUNIT_EXPECT_EQ(test, t->m.inten, 0);
	KUNIT_EXPECT_EQ(test, t->m.ovs, BIT(0));
	/* reset and quiesce cover F0 too */
	t->m.cnten = APMU_CNT_BIT_F0;
	pmuv3_quiesce(&t->pv.pmu);
	KUNIT_EXPECT_EQ(test, t->m.cnten, 0);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

static void no_icntr_f0_raz_wi(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_PMUVER_V3P5);
	DECLARE_BITMAP(used, APMU_NR_IDX) = { };

	KUNIT_EXPECT_FALSE(test, t->pv.has_icntr);
	apmu_model_write(APMU_R_PMINTENSET, 0, APMU_CNT_BIT_F0);
	KUNIT_EXPECT_EQ(test, apmu_model_read(APMU_R_PMINTENSET, 0), 0);
	/* INST_RETIRED lands on an event counter and PMICNTR is never accessed */
	KUNIT_EXPECT_EQ(test, pmuv3_pick_idx(&t->pv, used, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0), 0);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

/* A counting event placed on counter @idx of the test CPU, as apmu_add() leaves it. */
static struct perf_event *fake_event(struct kunit *test, struct apmu_test *t, int idx,
				     u64 evtype)
{
	struct perf_event *ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ev);
	ev->pmu = &t->pv.pmu.pmu;
	ev->state = PERF_EVENT_STATE_ACTIVE;
	ev->hw.idx = idx;
	ev->hw.config_base = evtype;
	ev->hw.flags = ARMPMU_EVT_64BIT;
	local64_set(&ev->hw.prev_count, 0);
	local64_set(&ev->count, 0);
	__set_bit(idx, t->cpu->used);
	t->cpu->events[idx] = ev;
	pmuv3_enable(idx, false, evtype, false);
	return ev;
}

/* Core power-down loses every register; counts survive and counting resumes. */
static void cpu_pm_save_restore(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_PMUVER_V3P5);
	struct perf_event *ev0, *cyc;

	ev0 = fake_event(test, t, 0, ARMV8_PMUV3_PERFCTR_INST_RETIRED | ARMV8_PMU_EXCLUDE_EL1);
	cyc = fake_event(test, t, APMU_IDX_CYCLE, ARMV8_PMUV3_PERFCTR_CPU_CYCLES);
	t->m.pmcr |= ARMV8_PMU_PMCR_E;
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 1000);
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 3000);

	apmu_cpu_pm_save(&t->pv.pmu, t->cpu);
	KUNIT_EXPECT_EQ(test, local64_read(&ev0->count), 1000);
	KUNIT_EXPECT_EQ(test, local64_read(&cyc->count), 3000);
	KUNIT_EXPECT_EQ(test, t->m.cnten, 0);
	/* counting is off while saved */
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 50);

	/* power-down: the registers come back as garbage */
	apmu_model_init(&t->m, 6, APMU_PMUVER_V3P5);
	t->m.evtyper[0] = 0x1234;
	t->m.evcntr[0] = 0xdead;
	t->m.ccntr = 0xbeef;
	t->m.inten = 0x8000003f;

	apmu_cpu_pm_restore(&t->pv.pmu, t->cpu);
	KUNIT_EXPECT_EQ(test, t->m.evtyper[0],
			ARMV8_PMUV3_PERFCTR_INST_RETIRED | ARMV8_PMU_EXCLUDE_EL1);
	KUNIT_EXPECT_EQ(test, t->m.cnten, BIT(0) | APMU_CNT_BIT_C);
	KUNIT_EXPECT_EQ(test, t->m.inten, 0);
	KUNIT_EXPECT_EQ(test, t->m.pmcr, ARMV8_PMU_PMCR_E | ARMV8_PMU_PMCR_LC | ARMV8_PMU_PMCR_LP);
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 7);
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 11);
	apmu_event_update(ev0);
	apmu_event_update(cyc);
	KUNIT_EXPECT_EQ(test, local64_read(&ev0->count), 1007);
	KUNIT_EXPECT_EQ(test, local64_read(&cyc->count), 3011);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
	/* the counters were written back only once the P/C reset was synchronized */
	KUNIT_EXPECT_EQ(test, t->m.unsynced_cntr_writes, 0);
}

/*
 * A counting event on counter @idx, or on the CHAIN pair @idx - 1/@idx when @flags has
 * APMU_HWF_CHAIN, whose counter starts at @start. prev_count is taken by
 * apmu_event_update() itself, so the test does not depend on how it is encoded.
 */
static struct perf_event *fake_event_at(struct kunit *test, struct apmu_test *t, int idx,
					u64 evtype, unsigned long flags, u64 start)
{
	struct perf_event *ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);
	bool chained = flags & APMU_HWF_CHAIN;
	bool irq = chained || !(flags & ARMPMU_EVT_64BIT);

	KUNIT_ASSERT_NOT_NULL(test, ev);
	ev->pmu = &t->pv.pmu.pmu;
	ev->state = PERF_EVENT_STATE_ACTIVE;
	ev->hw.idx = idx;
	ev->hw.config_base = evtype;
	ev->hw.flags = flags | (irq ? APMU_HWF_IRQ : 0);
	__set_bit(idx, t->cpu->used);
	if (chained)
		__set_bit(idx - 1, t->cpu->used);
	t->cpu->events[idx] = ev;
	pmuv3_write(idx, chained, start);
	pmuv3_enable(idx, chained, evtype, irq);
	apmu_event_update(ev);
	local64_set(&ev->count, 0);
	local64_set(&ev->hw.period_left, 0);
	return ev;
}

/*
 * PMUv3p5 with long_counters=0 (PMCR.LP = 0): the even counter of a CHAIN pair is still a
 * 64-bit register, so once it passes 2^32 its bits [63:32] are not zero. The pair's value
 * is odd[31:0]:even[31:0]; a read must return exactly that, and return (issue 7, defect 2:
 * a hi/lo re-read loop that mixed the upper half in never converged).
 */
static void chain_v3p5_lp0_even_past_2_32(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup_lp(test, 6, APMU_PMUVER_V3P5, false, false);
	u64 start = 0x1fffffff0ULL, total = 0x20;
	struct perf_event *ev;

	KUNIT_ASSERT_FALSE(test, t->pv.long_evcnt);
	KUNIT_ASSERT_EQ(test, t->m.pmcr & ARMV8_PMU_PMCR_LP, 0);
	ev = fake_event_at(test, t, 3, ARMV8_PMUV3_PERFCTR_INST_RETIRED | ARMV8_PMU_EXCLUDE_EL1,
			   ARMPMU_EVT_64BIT | APMU_HWF_CHAIN, start);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[2], 0xfffffff0);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[3], 1);
	KUNIT_EXPECT_EQ(test, t->m.evtyper[3], ARMV8_PMUV3_PERFCTR_CHAIN | ARMV8_PMU_EXCLUDE_EL1);
	t->m.pmcr |= ARMV8_PMU_PMCR_E;

	/* one 32-bit overflow: PMOVS<2>, one CHAIN, and the even counter's upper half counts */
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, total);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[2], 0x100000010ULL);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[3], 2);
	KUNIT_EXPECT_EQ(test, t->m.ovs, BIT(2));
	KUNIT_EXPECT_EQ(test, pmuv3_read(3, true), start + total);
	apmu_event_update(ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total);

	/* five more: the even counter's upper half is 6, the odd counter 7 */
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 5ULL << 32 | 7);
	total += 5ULL << 32 | 7;
	KUNIT_EXPECT_EQ(test, t->m.evcntr[2], 0x600000017ULL);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[3], 7);
	KUNIT_EXPECT_EQ(test, pmuv3_read(3, true), start + total);
	apmu_event_update(ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total);
	KUNIT_EXPECT_EQ(test, t->m.ovs, BIT(2));
	KUNIT_EXPECT_FALSE(test, apmu_model_irq_pending(&t->m));
	KUNIT_EXPECT_EQ(test, t->m.runaway, 0);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

/*
 * The same pair overflowing at 2^64 (where a sampling period starts it): both halves are
 * 64-bit registers, the odd one's 32-bit overflow is the pair's, and the read is exact.
 */
static void chain_v3p5_lp0_pair_overflow(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup_lp(test, 6, APMU_PMUVER_V3P5, false, false);
	struct perf_event *ev;

	ev = fake_event_at(test, t, 1, ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
			   ARMPMU_EVT_64BIT | APMU_HWF_CHAIN, -0x10ULL);
	KUNIT_EXPECT_EQ(test, t->m.inten, BIT(1));
	t->m.pmcr |= ARMV8_PMU_PMCR_E;
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 0x20);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[0], 0x100000010ULL);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[1], 0x100000000ULL);
	KUNIT_EXPECT_EQ(test, t->m.ovs, BIT(0) | BIT(1));
	KUNIT_EXPECT_TRUE(test, apmu_model_irq_pending(&t->m));
	KUNIT_EXPECT_EQ(test, pmuv3_read(1, true), 0x10);
	apmu_event_update(ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), 0x20);
	KUNIT_EXPECT_EQ(test, t->m.runaway, 0);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

/*
 * PMUv3p5 with PMCR.LP = 1: an even counter's overflow (at 64 bits) is no CHAIN event, so
 * a pair would not extend; a 64-bit count is one counter, read whole.
 */
static void chain_v3p5_lp1(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup_lp(test, 6, APMU_PMUVER_V3P5, false, true);
	struct perf_event *ev;

	/*
	 * This suite's model is AArch64's, with <asm/arm_pmuv3.h>'s unsigned long
	 * PMEVCNTR<n> accessors: on 32-bit Arm they hold 32 bits, so it has no 64-bit event
	 * counter to show (the AArch32 suite covers PMUv3p5 there, with LP = 0).
	 */
	if (BITS_PER_LONG < 64)
		kunit_skip(test, "32-bit Arm: 32-bit PMEVCNTR accessors, no 64-bit event counter");

	KUNIT_ASSERT_TRUE(test, t->pv.long_evcnt);
	KUNIT_ASSERT_EQ(test, t->m.pmcr & ARMV8_PMU_PMCR_LP, ARMV8_PMU_PMCR_LP);
	KUNIT_EXPECT_TRUE(test, pmuv3_counter_is_64bit(&t->pv, 2, false));

	/* a pair programmed anyway: no flag and no CHAIN at 2^32... */
	pmuv3_write(2, false, 0xfffffff0);
	pmuv3_enable(3, true, ARMV8_PMUV3_PERFCTR_INST_RETIRED, false);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[3], 0);
	t->m.pmcr |= ARMV8_PMU_PMCR_E;
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0x20);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[2], 0x100000010ULL);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[3], 0);
	KUNIT_EXPECT_EQ(test, t->m.ovs, 0);
	/* ...nor at 2^64, where PMOVS<2> is set */
	pmuv3_write(2, false, -0x10ULL);
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0x20);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[2], 0x10);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[3], 0);
	KUNIT_EXPECT_EQ(test, t->m.ovs, BIT(2));
	pmuv3_disable(3, true);

	/* the driver's way: one 64-bit counter, exact across 2^32 and beyond, no flag */
	ev = fake_event_at(test, t, 0, ARMV8_PMUV3_PERFCTR_INST_RETIRED, ARMPMU_EVT_64BIT,
			   0xfffffff0);
	KUNIT_EXPECT_EQ(test, t->m.inten, 0);
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0x20);
	KUNIT_EXPECT_EQ(test, pmuv3_read(0, false), 0x100000010ULL);
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 3ULL << 32);
	apmu_event_update(ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), (3ULL << 32) + 0x20);
	KUNIT_EXPECT_EQ(test, t->m.ovs, 0);
	KUNIT_EXPECT_EQ(test, t->m.runaway, 0);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

/*
 * PMUv3p1 (32-bit event counters, LP RES0): a CHAIN pair extends across many wraps of the
 * even counter and overflows as a pair at 2^64.
 */
static void chain_v3p1_read_extend(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup(test, 6, APMU_MODEL_PMUVER_V3P1);
	u64 start = 0x7fffffff0ULL, total = 0x20;
	struct perf_event *ev;

	KUNIT_EXPECT_FALSE(test, t->pv.long_evcnt);
	KUNIT_EXPECT_EQ(test, t->m.pmcr, ARMV8_PMU_PMCR_LC);
	ev = fake_event_at(test, t, 5, ARMV8_PMUV3_PERFCTR_INST_RETIRED | ARMV8_PMU_EXCLUDE_EL0,
			   ARMPMU_EVT_64BIT | APMU_HWF_CHAIN, start);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[4], 0xfffffff0);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[5], 7);
	KUNIT_EXPECT_EQ(test, t->m.inten, BIT(5));
	t->m.pmcr |= ARMV8_PMU_PMCR_E;

	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, total);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[4], 0x10);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[5], 8);
	KUNIT_EXPECT_EQ(test, pmuv3_read(5, true), start + total);
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 3ULL << 32 | 5);
	total += 3ULL << 32 | 5;
	KUNIT_EXPECT_EQ(test, t->m.evcntr[4], 0x15);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[5], 11);
	apmu_event_update(ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total);
	KUNIT_EXPECT_EQ(test, t->m.ovs, BIT(4));
	KUNIT_EXPECT_FALSE(test, apmu_model_irq_pending(&t->m));

	/* the pair's overflow at 2^64: PMOVS<5>, whose interrupt is enabled */
	pmuv3_write(5, true, -0x10ULL);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[5], U32_MAX);
	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0x20);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[5], 0);
	KUNIT_EXPECT_EQ(test, t->m.ovs, BIT(4) | BIT(5));
	KUNIT_EXPECT_TRUE(test, apmu_model_irq_pending(&t->m));
	KUNIT_EXPECT_EQ(test, pmuv3_read(5, true), 0x10);
	KUNIT_EXPECT_EQ(test, t->m.runaway, 0);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

/*
 * PMUv3p5 with long_counters=0: a 32-bit (unchained) event counter is a 64-bit register
 * overflowing at bits [31:0], so its upper half counts the wraps. Deltas must come from
 * bits [31:0] only, whatever the upper half holds.
 */
static void evcnt32_v3p5_lp0_upper_bits(struct kunit *test)
{
	struct apmu_test *t = apmu_test_setup_lp(test, 6, APMU_PMUVER_V3P5, false, false);
	u64 start = 0xfffffff0, total = 0x20;
	struct perf_event *ev;
	unsigned int i;

	KUNIT_EXPECT_FALSE(test, pmuv3_counter_is_64bit(&t->pv, 1, false));
	ev = fake_event_at(test, t, 1, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0, start);
	KUNIT_EXPECT_EQ(test, t->m.inten, BIT(1));
	t->m.pmcr |= ARMV8_PMU_PMCR_E;

	apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, total);
	KUNIT_EXPECT_EQ(test, t->m.evcntr[1], 0x100000010ULL);
	KUNIT_EXPECT_EQ(test, t->m.ovs, BIT(1));
	KUNIT_EXPECT_TRUE(test, apmu_model_irq_pending(&t->m));
	apmu_event_update(ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total);

	/* steps under 2^31 that keep crossing 2^32: every delta exact */
	for (i = 0; i < 6; i++) {
		apmu_model_count(&t->m, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0x7fff0001);
		total += 0x7fff0001;
		apmu_event_update(ev);
		KUNIT_EXPECT_EQ(test, local64_read(&ev->count), total);
		KUNIT_EXPECT_EQ(test, local64_read(&ev->hw.period_left), -(s64)total);
	}
	KUNIT_EXPECT_EQ(test, t->m.evcntr[1], start + total);
	KUNIT_EXPECT_NE(test, upper_32_bits(t->m.evcntr[1]), 0);
	KUNIT_EXPECT_EQ(test, t->m.runaway, 0);
	KUNIT_EXPECT_EQ(test, t->m.undef, 0);
}

static struct kunit_case apmu_pmuv3_cases[] = {
	KUNIT_CASE(model_w1s_w1c_pairs),
	KUNIT_CASE(model_raz_wi_above_n),
	KUNIT_CASE(model_counter_widths),
	KUNIT_CASE(model_overflow_points),
	KUNIT_CASE(model_chain_rules),
	KUNIT_CASE(model_undefined_accesses),
	KUNIT_CASE(model_pmcr_actions_and_res0),
	KUNIT_CASE(model_runaway_reread),
	KUNIT_CASE(probe_reads_identification),
	KUNIT_CASE(probe_maps_pmceid),
	KUNIT_CASE(probe_quirks_table),
	KUNIT_CASE(reset_leaves_pmu_idle),
	KUNIT_CASE(get_idx_allocation),
	KUNIT_CASE(get_idx_pmccntr_not_on_smt_or_quirk),
	KUNIT_CASE(enable_disable_touch_one_counter),
	KUNIT_CASE(disable_counter_is_one_write),
	KUNIT_CASE(cycle_counter_uses_pmccfiltr),
	KUNIT_CASE(overflow_take_clears_stale_flags),
	KUNIT_CASE(evcnt_32bit_wrap_raises_overflow),
	KUNIT_CASE(quiesce_stops_everything),
	KUNIT_CASE(chain_pairs_are_even_odd),
	KUNIT_CASE(chain_pair_counts_64bit),
	KUNIT_CASE(chain_needs_two_counters),
	KUNIT_CASE(icntr_takes_inst_retired),
	KUNIT_CASE(icntr_never_for_user_reads),
	KUNIT_CASE(user_read_never_gets_a_pair),
	KUNIT_CASE(icntr_f0_bits),
	KUNIT_CASE(no_icntr_f0_raz_wi),
	KUNIT_CASE(cpu_pm_save_restore),
	KUNIT_CASE(chain_v3p5_lp0_even_past_2_32),
	KUNIT_CASE(chain_v3p5_lp0_pair_overflow),
	KUNIT_CASE(chain_v3p5_lp1),
	KUNIT_CASE(chain_v3p1_read_extend),
	KUNIT_CASE(evcnt32_v3p5_lp0_upper_bits),
	{}
};

static struct kunit_suite apmu_pmuv3_suite = {
	.name = "apmu_pmuv3",
	.test_cases = apmu_pmuv3_cases,
};

kunit_test_suite(apmu_pmuv3_suite);

MODULE_DESCRIPTION("KUnit tests for apmu's PMUv3 counter logic");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
