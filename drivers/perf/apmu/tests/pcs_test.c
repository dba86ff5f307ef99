// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for apmu's PC-sampling frame rules (apmu_pcs/frame.c), run on the frame model
 * (pcs_model.h): the external PMU frame and the external debug frame (FEAT_PCSRv8, the
 * debug_* cases). Any access the model counts as a violation fails the case it happens in.
 */
#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/cleanup.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <asm/cputype.h>

#include "pcs_model.h"
#include "../../apmu_pcs/internal.h"

struct pcs_test {
	struct apmu_pcs_model m;
	struct apmu_pcs_unit u;
};

/* A unit on a model; identified (the way apmu_pcs_unit_add() does) unless @raw */
static struct pcs_test *pcs_setup(struct kunit *test, unsigned int pcsample, bool imp,
				  bool ss)
{
	struct pcs_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	apmu_pcs_model_init(&t->m, pcsample, imp, ss);
	t->u.cpu = 0;
	t->u.ops = &apmu_pcs_model_ops;
	t->u.priv = &t->m;
	t->u.online = true;
	raw_spin_lock_init(&t->u.lock);
	test->priv = t;
	return t;
}

static struct pcs_test *pcs_setup_id(struct kunit *test, unsigned int pcsample, bool imp,
				     bool ss)
{
	struct pcs_test *t = pcs_setup(test, pcsample, imp, ss);

	KUNIT_ASSERT_EQ(test, apmu_pcs_identify(&t->u), 0);
	return t;
}

/* Violations caught in atomic context are reported here, with the model's message */
static void pcs_exit(struct kunit *test)
{
	struct pcs_test *t = test->priv;

	if (t && t->m.violations)
		KUNIT_FAIL(test, "%u frame rule violation(s), last: %s", t->m.violations,
			   t->m.last);
}

static void identify_v8p9(struct kunit *test)
{
	struct pcs_test *t = pcs_setup_id(test, APMU_PCSAMPLE_V8P9, true, true);

	KUNIT_EXPECT_TRUE(test, t->u.has_ctl);
	KUNIT_EXPECT_TRUE(test, t->u.imp);
	KUNIT_EXPECT_TRUE(test, t->u.ss);
	KUNIT_EXPECT_FALSE(test, t->u.swlock);

	t = pcs_setup_id(test, APMU_PCSAMPLE_V8P9, false, false);
	KUNIT_EXPECT_TRUE(test, t->u.has_ctl);
	KUNIT_EXPECT_FALSE(test, t->u.imp);
	KUNIT_EXPECT_FALSE(test, t->u.ss);
}

/* FEAT_PCSRv8p2 only: no PMPCSCTL, which the driver must then never touch */
static void identify_v8p2_no_pmpcsctl(struct kunit *test)
{
	struct pcs_test *t = pcs_setup_id(test, APMU_PCSAMPLE_V8P2, true, true);
	bool en = true, ss = true;

	KUNIT_EXPECT_FALSE(test, t->u.has_ctl);
	KUNIT_EXPECT_FALSE(test, t->u.imp);
	KUNIT_EXPECT_FALSE(test, t->u.ss);
	KUNIT_EXPECT_EQ(test, apmu_pcs_get_ctl(&t->u, &en, &ss), 0);
	KUNIT_EXPECT_FALSE(test, en);
	KUNIT_EXPECT_FALSE(test, ss);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, true), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, false), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_snapshot(&t->u, true), -EOPNOTSUPP);
}

static void identify_refuses_other_frames(struct kunit *test)
{
	struct pcs_test *t = pcs_setup(test, APMU_PCSAMPLE_V8P9, true, false);

	/* an external debug frame: Arm, but ARCHID 0x6A15 */
	t->m.devarch = FIELD_PREP(APMU_DEVARCH_ARCHITECT, APMU_ARCHITECT_ARM) |
		       APMU_DEVARCH_PRESENT | 0x6A15;
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&t->u), -ENODEV);
	/* memory that reads as zero, or as ones */
	t->m.devarch = 0;
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&t->u), -ENODEV);
	t->m.devarch = U32_MAX;
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&t->u), -ENODEV);
	/* a PMU without PC sampling, or with a reserved PCSample value */
	apmu_pcs_model_init(&t->m, 0, true, false);
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&t->u), -ENODEV);
	apmu_pcs_model_init(&t->m, 3, true, false);
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&t->u), -ENODEV);
	/* the PMUv3 32-bit programmers' model is fine */
	apmu_pcs_model_init(&t->m, APMU_PCSAMPLE_V8P9, true, false);
	t->m.devarch = (t->m.devarch & ~APMU_DEVARCH_ARCHID) | APMU_ARCHID_PMUV3;
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&t->u), 0);
}

static void enable_with_imp(struct kunit *test)
{
	struct pcs_test *t = pcs_setup_id(test, APMU_PCSAMPLE_V8P9, true, false);
	bool en, ss;

	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, true), 0);
	KUNIT_EXPECT_EQ(test, t->m.ctl, APMU_PMPCSCTL_EN);
	KUNIT_EXPECT_EQ(test, apmu_pcs_get_ctl(&t->u, &en, &ss), 0);
	KUNIT_EXPECT_TRUE(test, en);
	KUNIT_EXPECT_FALSE(test, ss);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, false), 0);
	KUNIT_EXPECT_EQ(test, t->m.ctl, 0);
	KUNIT_EXPECT_EQ(test, apmu_pcs_get_ctl(&t->u, &en, &ss), 0);
	KUNIT_EXPECT_FALSE(test, en);
}

/*
 * IMP == 0: EN is RAZ/WI. Writing it is -EOPNOTSUPP whatever the value (there is nothing
 * to suspend or resume), and writes nothing.
 */
static void enable_without_imp_eopnotsupp(struct kunit *test)
{
	struct pcs_test *t = pcs_setup_id(test, APMU_PCSAMPLE_V8P9, false, true);
	u32 writes = t->m.writes;
	bool en, ss;

	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, true), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, false), -EOPNOTSUPP);
	/* refused before the state check: the same errno with the core powered down */
	t->m.pu = false;
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, false), -EOPNOTSUPP);
	t->m.pu = true;
	KUNIT_EXPECT_EQ(test, t->m.writes, writes);
	KUNIT_EXPECT_EQ(test, apmu_pcs_get_ctl(&t->u, &en, &ss), 0);
	KUNIT_EXPECT_FALSE(test, en);
	/* SS is independent of IMP, and writing it must not set EN */
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_snapshot(&t->u, true), 0);
	KUNIT_EXPECT_EQ(test, t->m.ctl, APMU_PMPCSCTL_SS);
}

static void snapshot_needs_pmuv3_ss(struct kunit *test)
{
	struct pcs_test *t = pcs_setup_id(test, APMU_PCSAMPLE_V8P9, true, false);
	u32 writes = t->m.writes;

	KUNIT_EXPECT_EQ(test, apmu_pcs_set_snapshot(&t->u, true), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_snapshot(&t->u, false), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, t->m.writes, writes);

	t = pcs_setup_id(test, APMU_PCSAMPLE_V8P9, true, true);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, true), 0);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_snapshot(&t->u, true), 0);
	KUNIT_EXPECT_EQ(test, t->m.ctl, APMU_PMPCSCTL_EN | APMU_PMPCSCTL_SS);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_snapshot(&t->u, false), 0);
	KUNIT_EXPECT_EQ(test, t->m.ctl, APMU_PMPCSCTL_EN);
}

/* RES0 bits that read as 1 must still be written as 0 (the model counts it otherwise) */
static void res0_written_as_zero(struct kunit *test)
{
	struct pcs_test *t = pcs_setup_id(test, APMU_PCSAMPLE_V8P9, true, true);
	bool en, ss;

	t->m.res0_noise = true;
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, true), 0);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_snapshot(&t->u, true), 0);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, false), 0);
	KUNIT_EXPECT_EQ(test, t->m.ctl, APMU_PMPCSCTL_SS);
	KUNIT_EXPECT_EQ(test, apmu_pcs_get_ctl(&t->u, &en, &ss), 0);
	KUNIT_EXPECT_FALSE(test, en);
	KUNIT_EXPECT_TRUE(test, ss);
	KUNIT_EXPECT_EQ(test, t->m.violations, 0);
}

static void software_lock_unlocked_around_writes(struct kunit *test)
{
	struct pcs_test *t = pcs_setup(test, APMU_PCSAMPLE_V8P9, true, false);

	t->m.sli = true;
	t->m.slk = true;
	KUNIT_ASSERT_EQ(test, apmu_pcs_identify(&t->u), 0);
	KUNIT_EXPECT_TRUE(test, t->u.swlock);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, true), 0);
	KUNIT_EXPECT_EQ(test, t->m.ctl, APMU_PMPCSCTL_EN);
	/* and locked again afterwards */
	KUNIT_EXPECT_TRUE(test, t->m.slk);
}

/* Every entry point, with the frame inaccessible: errno, and no access at all */
static void expect_refused(struct kunit *test, struct pcs_test *t, int err)
{
	u32 reads = t->m.reads, writes = t->m.writes;
	struct apmu_pcs_sample s;
	bool en, ss;

	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&t->u), err);
	KUNIT_EXPECT_EQ(test, apmu_pcs_get_ctl(&t->u, &en, &ss), err);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, true), err);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, false), err);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_snapshot(&t->u, true), err);
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), err);
	KUNIT_EXPECT_FALSE(test, s.valid);
	KUNIT_EXPECT_EQ(test, t->m.reads, reads);
	KUNIT_EXPECT_EQ(test, t->m.writes, writes);
}

/**
 * struct pcs_state_case - a state of the core in which the frame must not be accessed
 * @name: description
 * @pu: EDPRSR.PU
 * @dlk: EDPRSR.DLK (the OS double lock)
 * @oslk: EDPRSR.OSLK (the OS lock)
 * @offline: the CPU is offline (CPU hotplug)
 * @pm_off: the CPU is in a CPU PM low-power state
 * @err: what every entry point returns
 */
struct pcs_state_case {
	const char *name;
	bool pu, dlk, oslk, offline, pm_off;
	int err;
};

static const struct pcs_state_case pcs_state_cases[] = {
	{ "powered down (EDPRSR.PU=0)", false, false, false, false, false, -EAGAIN },
	/* with PU == 0, DLK and OSLK are UNKNOWN: still powered down */
	{ "PU=0, DLK and OSLK UNKNOWN", false, true, true, false, false, -EAGAIN },
	{ "OS double lock (EDPRSR.DLK=1)", true, true, false, false, false, -EIO },
	{ "OS double lock and OS lock", true, true, true, false, false, -EIO },
	{ "OS lock (EDPRSR.OSLK=1)", true, false, true, false, false, -EBUSY },
	{ "CPU offline", true, false, false, true, false, -EAGAIN },
	{ "CPU in a CPU PM low-power state", true, false, false, false, true, -EAGAIN },
};

KUNIT_ARRAY_PARAM_DESC(pcs_state, pcs_state_cases, name);

/* Put the unit and its model in the power and lock state of @c */
static void pcs_apply_state(struct pcs_test *t, const struct pcs_state_case *c)
{
	t->m.pu = c->pu;
	t->m.dlk = c->dlk;
	t->m.oslk = c->oslk;
	if (c->offline)
		apmu_pcs_set_online(&t->u, false);
	if (c->pm_off)
		apmu_pcs_set_pm_off(&t->u, true);
}

/*
 * Power and lock state (EDPRSR), CPU hotplug and CPU PM: the frame is not touched, each
 * entry point says why with its errno, and it is accessed again once the state clears
 */
static void frame_state_refused(struct kunit *test)
{
	const struct pcs_state_case *c = test->param_value;
	struct pcs_test *t = pcs_setup_id(test, APMU_PCSAMPLE_V8P9, true, true);

	pcs_apply_state(t, c);
	expect_refused(test, t, c->err);
	t->m.pu = true;
	t->m.dlk = false;
	t->m.oslk = false;
	apmu_pcs_set_online(&t->u, true);
	apmu_pcs_set_pm_off(&t->u, false);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, true), 0);
}

/*
 * PMDEVAFF0/1 must be the CPU's MPIDR affinity: the frame of another CPU (a wrong
 * phandle or pcs= entry) is refused, before PMDEVID, PMLSR or PMPCSCTL are read.
 */
static void identify_refuses_other_cpus_frame(struct kunit *test)
{
	struct pcs_test *t = pcs_setup(test, APMU_PCSAMPLE_V8P9, true, true);

	t->u.mpidr = 0x0000000100;	/* Aff1 = 1 */
	t->m.devaff = 0x0000000101;	/* Aff1 = 1, Aff0 = 1: the next core */
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&t->u), -EXDEV);
	KUNIT_EXPECT_FALSE(test, t->u.has_ctl);
	t->m.devaff = 0x0100000100;	/* Aff3 differs */
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&t->u), -EXDEV);
	/* MPIDR bit 31 (RES1), U and MT are not affinity */
	t->m.devaff = 0x00c1000100;
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&t->u), 0);
	KUNIT_EXPECT_TRUE(test, t->u.has_ctl);
}

/*
 * A new unit starts powered down (its CPU may be idle with CPU_PM_ENTER already run):
 * nothing is read until the CPU itself, in apmu_pcs_wake()'s IPI, clears pm_off.
 */
static void new_unit_untouched_until_cpu_answers(struct kunit *test)
{
	struct pcs_test *t = pcs_setup(test, APMU_PCSAMPLE_V8P9, true, true);

	t->u.cpu = raw_smp_processor_id();
	t->u.pm_off = true;
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&t->u), -EAGAIN);
	KUNIT_EXPECT_EQ(test, t->m.reads, 0);
	KUNIT_EXPECT_EQ(test, t->m.writes, 0);
	apmu_pcs_wake(&t->u);
	KUNIT_EXPECT_FALSE(test, t->u.pm_off);
	/* the IPI recorded the CPU's MPIDR: the model's PMDEVAFF (0) must now match it */
	KUNIT_EXPECT_EQ(test, t->u.mpidr, read_cpuid_mpidr() & APMU_DEVAFF_MASK);
	t->m.devaff = t->u.mpidr;
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&t->u), 0);

	/* an offline CPU is not asked and stays untouched */
	t->u.online = false;
	t->u.pm_off = true;
	apmu_pcs_wake(&t->u);
	KUNIT_EXPECT_TRUE(test, t->u.pm_off);
	expect_refused(test, t, -EAGAIN);
}

/*
 * EN is counted across perf events: the first resumes it, the last suspends it again,
 * an event in between does not. Root's enable=0 (sysfs) refuses new events, and so does
 * sample on snapshot; SS cannot be set while events sample. add() (events_get) never
 * fails: an event opened before root's enable=0 is added and leaves EN alone.
 */
static void events_count_enable(struct kunit *test)
{
	struct pcs_test *t = pcs_setup_id(test, APMU_PCSAMPLE_V8P9, true, true);
	bool en, ss;

	KUNIT_EXPECT_EQ(test, apmu_pcs_events_refused(&t->u), 0);
	apmu_pcs_events_get(&t->u);
	apmu_pcs_events_get(&t->u);
	KUNIT_EXPECT_EQ(test, apmu_pcs_get_ctl(&t->u, &en, &ss), 0);
	KUNIT_EXPECT_TRUE(test, en);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_snapshot(&t->u, true), -EBUSY);
	apmu_pcs_events_put(&t->u);
	KUNIT_EXPECT_EQ(test, apmu_pcs_get_ctl(&t->u, &en, &ss), 0);
	KUNIT_EXPECT_TRUE(test, en);
	apmu_pcs_events_put(&t->u);
	KUNIT_EXPECT_EQ(test, apmu_pcs_get_ctl(&t->u, &en, &ss), 0);
	KUNIT_EXPECT_FALSE(test, en);

	/* root suspends: refused until root resumes, and root's EN stays after */
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, false), 0);
	KUNIT_EXPECT_EQ(test, apmu_pcs_events_refused(&t->u), -EBUSY);
	/* an event opened before: added, EN left as root wrote it */
	apmu_pcs_events_get(&t->u);
	KUNIT_EXPECT_EQ(test, t->u.active, 1);
	KUNIT_EXPECT_EQ(test, apmu_pcs_get_ctl(&t->u, &en, &ss), 0);
	KUNIT_EXPECT_FALSE(test, en);
	apmu_pcs_events_put(&t->u);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, true), 0);
	KUNIT_EXPECT_EQ(test, apmu_pcs_events_refused(&t->u), 0);
	apmu_pcs_events_get(&t->u);
	apmu_pcs_events_put(&t->u);
	KUNIT_EXPECT_EQ(test, apmu_pcs_get_ctl(&t->u, &en, &ss), 0);
	KUNIT_EXPECT_TRUE(test, en);

	/* sample on snapshot set: refused */
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_snapshot(&t->u, true), 0);
	KUNIT_EXPECT_EQ(test, apmu_pcs_events_refused(&t->u), -EBUSY);
	KUNIT_EXPECT_EQ(test, t->u.active, 0);
}

/*
 * The unit's CPU goes through a power-down idle state: CPU_PM_ENTER, the core powers
 * down, powers up again with a Warm reset (PMPCSCTL.EN and SS back to 0), CPU_PM_EXIT.
 */
static void pm_cycle(struct pcs_test *t)
{
	apmu_pcs_set_pm_off(&t->u, true);
	apmu_pcs_model_power(&t->m, false);
	apmu_pcs_model_power(&t->m, true);
	apmu_pcs_set_pm_off(&t->u, false);
}

/* The unit's CPU is taken offline (powered down) and brought back (a Warm reset) */
static void hotplug_cycle(struct pcs_test *t)
{
	apmu_pcs_set_online(&t->u, false);
	apmu_pcs_model_power(&t->m, false);
	apmu_pcs_model_power(&t->m, true);
	apmu_pcs_set_online(&t->u, true);
}

#define KVA	0xffff800080123454ULL
#define UVA	0x0000aaaad0001234ULL
#define UVA_HP	0x0000aaaad0005678ULL

static void sample_sequence(struct kunit *test)
{
	static const u64 seq[] = {
		0, 0, U64_MAX, 0,
	};
	struct pcs_test *t = pcs_setup_id(test, APMU_PCSAMPLE_V8P9, true, false);
	u64 s4[ARRAY_SIZE(seq)];
	struct apmu_pcs_sample s;

	memcpy(s4, seq, sizeof(seq));
	s4[0] = apmu_pcs_model_pcsr(KVA, 1, true);
	s4[1] = apmu_pcs_model_pcsr(UVA, 0, true);
	/* "no valid sample" is PMPCSR[31:0] == 0xFFFFFFFF whatever the upper half holds */
	s4[3] = 0x12345678FFFFFFFFULL;
	t->m.seq = s4;
	t->m.nseq = ARRAY_SIZE(s4);
	t->m.cid1 = 42;
	t->m.vmid = 7;

	/* suspended (EN == 0 with IMP == 1): no valid sample */
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_FALSE(test, s.valid);
	KUNIT_ASSERT_EQ(test, apmu_pcs_set_enable(&t->u, true), 0);

	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_TRUE(test, s.valid);
	KUNIT_EXPECT_EQ(test, s.pc, KVA);
	KUNIT_EXPECT_EQ(test, s.el, 1);
	KUNIT_EXPECT_EQ(test, s.sec, APMU_PCS_NONSECURE);
	KUNIT_EXPECT_EQ(test, s.cid1, 42);
	KUNIT_EXPECT_EQ(test, s.vmid, 7);
	KUNIT_EXPECT_FALSE(test, s.has_cid2);

	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_TRUE(test, s.valid);
	KUNIT_EXPECT_EQ(test, s.pc, UVA);
	KUNIT_EXPECT_EQ(test, s.el, 0);

	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_FALSE(test, s.valid);
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_FALSE(test, s.valid);
	/* one PMPCSR[31:0] read per sample, nothing read after "no valid sample" */
	KUNIT_EXPECT_EQ(test, t->m.samples, 5);
}

/* Block 1 (kernel at EL2): CONTEXTIDR_EL2 instead of the VMID */
static void sample_cid2_block(struct kunit *test)
{
	struct pcs_test *t = pcs_setup_id(test, APMU_PCSAMPLE_V8P2, false, false);
	u64 seq = apmu_pcs_model_pcsr(KVA, 2, true);
	struct apmu_pcs_sample s;

	t->u.cid2_block = true;
	t->m.seq = &seq;
	t->m.nseq = 1;
	t->m.cid1 = 1;
	t->m.cid2 = 1234;
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_TRUE(test, s.valid);
	KUNIT_EXPECT_EQ(test, s.el, 2);
	KUNIT_EXPECT_TRUE(test, s.has_cid2);
	KUNIT_EXPECT_EQ(test, s.cid2, 1234);
	KUNIT_EXPECT_EQ(test, s.cid1, 1);
}

/*
 * EN and SS reset on a Warm reset, which the core goes through when it powers up again.
 * A perf event sampling across a CPU PM power-down keeps getting samples: the driver
 * re-applies the EN it wants at CPU_PM_EXIT, on the CPU, after the power check.
 */
static void power_cycle_keeps_event_enable(struct kunit *test)
{
	struct pcs_test *t = pcs_setup_id(test, APMU_PCSAMPLE_V8P9, true, false);
	u64 seq = apmu_pcs_model_pcsr(KVA, 1, true);
	struct apmu_pcs_sample s;
	u32 writes;

	t->m.seq = &seq;
	t->m.nseq = 1;
	KUNIT_ASSERT_EQ(test, apmu_pcs_events_refused(&t->u), 0);
	apmu_pcs_events_get(&t->u);
	KUNIT_EXPECT_EQ(test, t->m.ctl, APMU_PMPCSCTL_EN);
	pm_cycle(t);
	KUNIT_EXPECT_EQ(test, t->m.ctl, APMU_PMPCSCTL_EN);
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_TRUE(test, s.valid);
	KUNIT_EXPECT_EQ(test, s.pc, KVA);
	/* a second cycle too (the wanted EN is kept, not consumed) */
	pm_cycle(t);
	KUNIT_EXPECT_EQ(test, t->m.ctl, APMU_PMPCSCTL_EN);

	/* the last event goes while the core is down: EN is no longer wanted */
	apmu_pcs_set_pm_off(&t->u, true);
	apmu_pcs_model_power(&t->m, false);
	apmu_pcs_events_put(&t->u);
	apmu_pcs_model_power(&t->m, true);
	writes = t->m.writes;
	apmu_pcs_set_pm_off(&t->u, false);
	KUNIT_EXPECT_EQ(test, t->m.ctl, 0);
	/* nothing wanted: the way back from idle writes nothing */
	KUNIT_EXPECT_EQ(test, t->m.writes, writes);
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_FALSE(test, s.valid);
}

/* root's enable=1 and sample_on_snapshot=1 stand across a CPU PM power-down */
static void power_cycle_keeps_root_enable(struct kunit *test)
{
	struct pcs_test *t = pcs_setup_id(test, APMU_PCSAMPLE_V8P9, true, true);
	bool en, ss;
	u32 writes;

	KUNIT_ASSERT_EQ(test, apmu_pcs_set_enable(&t->u, true), 0);
	KUNIT_ASSERT_EQ(test, apmu_pcs_set_snapshot(&t->u, true), 0);
	pm_cycle(t);
	KUNIT_EXPECT_EQ(test, t->m.ctl, APMU_PMPCSCTL_EN | APMU_PMPCSCTL_SS);
	KUNIT_EXPECT_EQ(test, apmu_pcs_get_ctl(&t->u, &en, &ss), 0);
	KUNIT_EXPECT_TRUE(test, en);
	KUNIT_EXPECT_TRUE(test, ss);

	/* the software lock is unlocked around the re-applying write, as around any */
	t->m.sli = true;
	t->m.slk = true;
	KUNIT_ASSERT_EQ(test, apmu_pcs_identify(&t->u), 0);
	pm_cycle(t);
	KUNIT_EXPECT_EQ(test, t->m.ctl, APMU_PMPCSCTL_EN | APMU_PMPCSCTL_SS);
	KUNIT_EXPECT_TRUE(test, t->m.slk);

	/* nothing is re-applied while the frame cannot be accessed (OS lock at exit) */
	apmu_pcs_set_pm_off(&t->u, true);
	apmu_pcs_model_power(&t->m, false);
	apmu_pcs_model_power(&t->m, true);
	t->m.oslk = true;
	writes = t->m.writes;
	apmu_pcs_set_pm_off(&t->u, false);
	KUNIT_EXPECT_EQ(test, t->m.writes, writes);
	t->m.oslk = false;
	/* ... nor while EDPRSR still says powered down */
	apmu_pcs_set_pm_off(&t->u, true);
	apmu_pcs_model_power(&t->m, false);
	apmu_pcs_set_pm_off(&t->u, false);
	KUNIT_EXPECT_EQ(test, t->m.writes, writes);
	apmu_pcs_model_power(&t->m, true);
	/* and at the next exit it is */
	pm_cycle(t);
	KUNIT_EXPECT_EQ(test, t->m.ctl, APMU_PMPCSCTL_EN | APMU_PMPCSCTL_SS);

	/* root's 0 stands too, and costs no write on the way back */
	KUNIT_ASSERT_EQ(test, apmu_pcs_set_snapshot(&t->u, false), 0);
	KUNIT_ASSERT_EQ(test, apmu_pcs_set_enable(&t->u, false), 0);
	writes = t->m.writes;
	pm_cycle(t);
	KUNIT_EXPECT_EQ(test, t->m.ctl, 0);
	KUNIT_EXPECT_EQ(test, t->m.writes, writes);
	KUNIT_EXPECT_EQ(test, apmu_pcs_events_refused(&t->u), -EBUSY);
}

/* CPU hotplug: the core is powered down while offline; EN is set again when it is back */
static void hotplug_keeps_enable(struct kunit *test)
{
	struct pcs_test *t = pcs_setup_id(test, APMU_PCSAMPLE_V8P9, true, false);
	u64 seq = apmu_pcs_model_pcsr(UVA_HP, 0, true);
	struct apmu_pcs_sample s;
	bool en, ss;

	t->m.seq = &seq;
	t->m.nseq = 1;
	KUNIT_ASSERT_EQ(test, apmu_pcs_set_enable(&t->u, true), 0);
	hotplug_cycle(t);
	KUNIT_EXPECT_EQ(test, apmu_pcs_get_ctl(&t->u, &en, &ss), 0);
	KUNIT_EXPECT_TRUE(test, en);
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_TRUE(test, s.valid);
	KUNIT_EXPECT_EQ(test, s.pc, UVA_HP);
	/* while offline, nothing is accessed and root's write is refused */
	apmu_pcs_set_online(&t->u, false);
	apmu_pcs_model_power(&t->m, false);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, false), -EAGAIN);
	apmu_pcs_model_power(&t->m, true);
	apmu_pcs_set_online(&t->u, true);
	KUNIT_EXPECT_EQ(test, t->m.ctl, APMU_PMPCSCTL_EN);
}

static void decode_fields(struct kunit *test)
{
	struct apmu_pcs_sample s = { };

	/* PCSample[55:0] is sign-extended from bit 55; T and RES0 bits are not the PC */
	apmu_pcs_decode(APMU_PMPCSR_NS | FIELD_PREP(APMU_PMPCSR_EL, 1) | APMU_PMPCSR_T |
			(KVA & APMU_PMPCSR_PC), &s);
	KUNIT_EXPECT_TRUE(test, s.valid);
	KUNIT_EXPECT_EQ(test, s.pc, KVA);
	KUNIT_EXPECT_EQ(test, s.el, 1);
	KUNIT_EXPECT_STREQ(test, apmu_pcs_sec_name(s.sec), "non-secure");

	apmu_pcs_decode(FIELD_PREP(APMU_PMPCSR_EL, 3) | 0x1000, &s);
	KUNIT_EXPECT_EQ(test, s.pc, 0x1000);
	KUNIT_EXPECT_EQ(test, s.el, 3);
	KUNIT_EXPECT_STREQ(test, apmu_pcs_sec_name(s.sec), "secure");
	apmu_pcs_decode(APMU_PMPCSR_NSE | 0x1000, &s);
	KUNIT_EXPECT_STREQ(test, apmu_pcs_sec_name(s.sec), "root");
	apmu_pcs_decode(APMU_PMPCSR_NSE | APMU_PMPCSR_NS | 0x1000, &s);
	KUNIT_EXPECT_STREQ(test, apmu_pcs_sec_name(s.sec), "realm");

	apmu_pcs_decode(0xFFFFFFFFULL, &s);
	KUNIT_EXPECT_FALSE(test, s.valid);
	/* 0xFFFFFFFF in the upper half is a PC, not "no valid sample" */
	apmu_pcs_decode(0xFFFFFFFF00000000ULL, &s);
	KUNIT_EXPECT_TRUE(test, s.valid);
}

/*
 * The MMIO backend's accessors (readl/writel at the frame's offsets), on a frame in
 * memory; without a debug frame the power state is what the unit tracks.
 */
static void mmio_accessors_on_memory_frame(struct kunit *test)
{
	u32 *frame = kunit_kzalloc(test, APMU_PCS_FRAME_SIZE, GFP_KERNEL);
	struct apmu_pcs_unit u = { .ops = &apmu_pcs_mmio_ops, .online = true };
	struct apmu_pcs_sample s;
	u64 pcsr = apmu_pcs_model_pcsr(KVA, 1, true);

	KUNIT_ASSERT_NOT_NULL(test, frame);
	raw_spin_lock_init(&u.lock);
	u.base = (void __force __iomem *)frame;
	frame[APMU_PMDEVARCH / 4] = FIELD_PREP(APMU_DEVARCH_ARCHITECT, APMU_ARCHITECT_ARM) |
				    APMU_DEVARCH_PRESENT | APMU_ARCHID_PMUV3;
	frame[APMU_PMDEVID / 4] = APMU_PCSAMPLE_V8P9;
	frame[APMU_PMPCSCTL / 4] = APMU_PMPCSCTL_IMP;
	KUNIT_ASSERT_EQ(test, apmu_pcs_identify(&u), 0);
	KUNIT_EXPECT_TRUE(test, u.imp);
	KUNIT_EXPECT_FALSE(test, u.ss);

	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&u, true), 0);
	KUNIT_EXPECT_EQ(test, frame[APMU_PMPCSCTL / 4], APMU_PMPCSCTL_EN);
	KUNIT_EXPECT_EQ(test, frame[APMU_PMPCSCTL_HI / 4], 0);

	frame[APMU_PMPCSR_LO / 4] = lower_32_bits(pcsr);
	frame[APMU_PMPCSR_HI / 4] = upper_32_bits(pcsr);
	frame[APMU_PMCID1SR / 4] = 77;
	frame[APMU_PMVIDSR / 4] = 0xffff0005;
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&u, &s), 0);
	KUNIT_EXPECT_TRUE(test, s.valid);
	KUNIT_EXPECT_EQ(test, s.pc, KVA);
	KUNIT_EXPECT_EQ(test, s.cid1, 77);
	KUNIT_EXPECT_EQ(test, s.vmid, 5);

	/* offline: refused before any access */
	apmu_pcs_set_online(&u, false);
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&u, &s), -EAGAIN);
}

/*
 * The MMIO debug frame (FEAT_DoPD: core power domain): EDDEVARCH and EDPRSR are read
 * only with the CPU online and out of CPU PM; a frame that is not external debug is
 * refused (-ENXIO) before its EDPRSR is believed.
 */
static void mmio_debug_frame_read_only_when_up(struct kunit *test)
{
	u32 *frame = kunit_kzalloc(test, APMU_PCS_FRAME_SIZE, GFP_KERNEL);
	u32 *dbg = kunit_kzalloc(test, APMU_PCS_FRAME_SIZE, GFP_KERNEL);
	struct apmu_pcs_unit u = { .ops = &apmu_pcs_mmio_ops, .online = true, .pm_off = true };

	KUNIT_ASSERT_NOT_NULL(test, frame);
	KUNIT_ASSERT_NOT_NULL(test, dbg);
	raw_spin_lock_init(&u.lock);
	u.base = (void __force __iomem *)frame;
	u.dbg = (void __force __iomem *)dbg;
	frame[APMU_PMDEVARCH / 4] = FIELD_PREP(APMU_DEVARCH_ARCHITECT, APMU_ARCHITECT_ARM) |
				    APMU_DEVARCH_PRESENT | APMU_ARCHID_PMUV3;
	frame[APMU_PMDEVID / 4] = APMU_PCSAMPLE_V8P9;
	dbg[APMU_EDPRSR / 4] = APMU_EDPRSR_PU;

	/* CPU PM low-power state: nothing read, EDPRSR taken as powered down */
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&u), -EAGAIN);
	scoped_guard(raw_spinlock_irqsave, &u.lock)
		KUNIT_EXPECT_EQ(test, u.ops->prsr(&u), 0);

	/* up, but the debug frame is not external debug */
	u.pm_off = false;
	dbg[APMU_PMDEVARCH / 4] = FIELD_PREP(APMU_DEVARCH_ARCHITECT, APMU_ARCHITECT_ARM) |
				  APMU_DEVARCH_PRESENT | APMU_ARCHID_PMUV3;
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&u), -ENXIO);

	dbg[APMU_PMDEVARCH / 4] = FIELD_PREP(APMU_DEVARCH_ARCHITECT, APMU_ARCHITECT_ARM) |
				  APMU_DEVARCH_PRESENT |
				  FIELD_PREP(APMU_DEVARCH_ARCHID, APMU_ARCHPART_DEBUG);
	/* the debug frame of another CPU (EDDEVAFF0) is refused */
	dbg[APMU_PMDEVAFF0 / 4] = 1;
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&u), -EXDEV);
	dbg[APMU_PMDEVAFF0 / 4] = 0;
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&u), 0);

	/* EDPRSR.PU == 0 read from the debug frame */
	dbg[APMU_EDPRSR / 4] = 0;
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&u), -EAGAIN);
	/* offline: EDPRSR not read at all */
	dbg[APMU_EDPRSR / 4] = APMU_EDPRSR_PU;
	u.online = false;
	scoped_guard(raw_spinlock_irqsave, &u.lock)
		KUNIT_EXPECT_EQ(test, u.ops->prsr(&u), 0);
}

/*
 * Addresses refused before any access: memory (System RAM; any page the kernel has a
 * struct page for, which no-map carve-outs such as /reserved-memory no-map regions
 * have), misaligned frames. The /reserved-memory node and IORES_DESC_RESERVED checks
 * need a device tree or firmware map with such regions, which the test VM lacks.
 */
static void mmio_refuses_memory(struct kunit *test)
{
	struct page *pg = alloc_page(GFP_KERNEL);
	phys_addr_t pa;

	KUNIT_ASSERT_NOT_NULL(test, pg);
	pa = page_to_phys(pg);
	KUNIT_EXPECT_NOT_NULL(test, pcs_addr_refused(pa, false));
	KUNIT_EXPECT_NOT_NULL(test, pcs_addr_refused(pa, true));
	KUNIT_EXPECT_STREQ(test, pcs_addr_refused(pa + 0x800, false), "not 4 KiB aligned");
	__free_page(pg);
}

/*
 * A frame a device tree node describes is a device, even where pfn_valid() says memory
 * (a boot section with some RAM in it is valid throughout): a described device page, here
 * the PL011's, passes the checks that need no access (request_mem_region() comes later).
 */
static void mmio_accepts_described_device(struct kunit *test)
{
	struct device_node *np = of_find_compatible_node(NULL, NULL, "arm,pl011");
	struct resource r;
	int ret;

	if (!np)
		kunit_skip(test, "no arm,pl011 node in this device tree (QEMU virt has one)");
	ret = of_address_to_resource(np, 0, &r);
	of_node_put(np);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_NULL(test, pcs_addr_refused(r.start, true));
	KUNIT_EXPECT_NULL(test, pcs_addr_refused(r.start, false));
}

/**
 * struct pcs_classify_case - a sample and the verdict apmu_pcs_classify() gives it
 * @sec: Security state
 * @el: Exception level
 * @vmid: VMID (block 0)
 * @cid2: sampled through block 1 (CONTEXTIDR_EL2)
 * @host: APMU_PCS_HOST_* of the kernel
 * @vcpu: the task named is a vCPU thread in guest context
 * @v: the verdict
 */
struct pcs_classify_case {
	u8 sec, el;
	u16 vmid;
	bool cid2;
	unsigned int host;
	bool vcpu;
	enum apmu_pcs_verdict v;
};

#define NVHE	0
#define VHE	APMU_PCS_HOST_VHE
#define PKVM	APMU_PCS_HOST_PKVM

static const struct pcs_classify_case pcs_classify_cases[] = {
	/* Secure EL3 firmware, Secure EL1 TEE, Root, Realm: never */
	{ APMU_PCS_SECURE, 3, 0, false, NVHE, false, APMU_PCS_DROP },
	{ APMU_PCS_SECURE, 1, 0, false, NVHE, false, APMU_PCS_DROP },
	{ APMU_PCS_SECURE, 0, 0, true, VHE, false, APMU_PCS_DROP },
	{ APMU_PCS_ROOT, 3, 0, false, NVHE, false, APMU_PCS_DROP },
	{ APMU_PCS_REALM, 1, 0, false, NVHE, false, APMU_PCS_DROP },
	{ APMU_PCS_REALM, 0, 0, true, VHE, false, APMU_PCS_DROP },
	/* Non-secure EL3 does not exist; never either */
	{ APMU_PCS_NONSECURE, 3, 0, true, VHE, false, APMU_PCS_DROP },
	/* EL2: the hypervisor under nVHE and pKVM, the kernel under VHE */
	{ APMU_PCS_NONSECURE, 2, 0, false, NVHE, false, APMU_PCS_DROP },
	{ APMU_PCS_NONSECURE, 2, 0, false, NVHE | PKVM, false, APMU_PCS_DROP },
	{ APMU_PCS_NONSECURE, 2, 0, true, VHE | PKVM, false, APMU_PCS_DROP },
	{ APMU_PCS_NONSECURE, 2, 0, true, VHE, false, APMU_PCS_HOST },
	/* nVHE: the host runs with VMID 0, guests with their own */
	{ APMU_PCS_NONSECURE, 1, 0, false, NVHE, false, APMU_PCS_HOST },
	{ APMU_PCS_NONSECURE, 0, 0, false, NVHE, false, APMU_PCS_HOST },
	{ APMU_PCS_NONSECURE, 1, 5, false, NVHE, false, APMU_PCS_GUEST },
	{ APMU_PCS_NONSECURE, 0, 5, false, NVHE, false, APMU_PCS_GUEST },
	/* VHE: EL1 is a guest's; EL0 a guest's when a vCPU thread is in the guest */
	{ APMU_PCS_NONSECURE, 1, 0, true, VHE, false, APMU_PCS_GUEST },
	{ APMU_PCS_NONSECURE, 0, 0, true, VHE, false, APMU_PCS_HOST },
	{ APMU_PCS_NONSECURE, 0, 0, true, VHE, true, APMU_PCS_GUEST },
};

static void pcs_classify_case_desc(const struct pcs_classify_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s EL%u vmid %u%s host %#x%s",
		 apmu_pcs_sec_name(c->sec), c->el, c->vmid, c->cid2 ? " cid2" : "", c->host,
		 c->vcpu ? " vcpu" : "");
}

KUNIT_ARRAY_PARAM(pcs_classify, pcs_classify_cases, pcs_classify_case_desc);

/*
 * What apmu_pcs hands to perf (pcs_produce()): only Non-secure samples, never EL3, EL2
 * only where the kernel runs there (VHE) and not under protected KVM; guest samples
 * (VMID != 0 under nVHE, EL1 or a vCPU thread's EL0 under VHE) are told apart.
 */
static void classify_security_and_guests(struct kunit *test)
{
	const struct pcs_classify_case *c = test->param_value;
	struct apmu_pcs_sample s = {
		.valid = true, .pc = 0xffff800080001000ULL,
		.sec = c->sec, .el = c->el, .vmid = c->vmid, .has_cid2 = c->cid2,
	};

	KUNIT_EXPECT_EQ(test, apmu_pcs_classify(&s, c->host, c->vcpu), c->v);
}

/* A unit of the debug kind on an external debug frame model, not yet identified */
static struct pcs_test *pcs_setup_debug(struct kunit *test, unsigned int pcsample,
					unsigned int pcsroffset)
{
	struct pcs_test *t = pcs_setup(test, 0, false, false);

	apmu_pcs_model_init_debug(&t->m, pcsample, pcsroffset);
	t->u.kind = APMU_PCS_KIND_DEBUG;
	return t;
}

/**
 * struct pcs_debug_id_case - an external debug frame and what identification says
 * @name: description
 * @pcsample: EDDEVID.PCSample
 * @pcsroffset: EDDEVID1.PCSROffset
 * @el23: the CPU implements EL2 or EL3
 * @archid: EDDEVARCH.ARCHID (0: external debug, v8.0)
 * @devaff: EDDEVAFF1:EDDEVAFF0 (the CPU's MPIDR affinity is 0)
 * @err: apmu_pcs_identify()'s return
 */
struct pcs_debug_id_case {
	const char *name;
	unsigned int pcsample, pcsroffset;
	bool el23;
	u32 archid;
	u64 devaff;
	int err;
};

static const struct pcs_debug_id_case pcs_debug_id_cases[] = {
	{ "PCSample=3: EDPCSR, EDCIDSR, EDVIDSR (Cortex-A53/A57/A72)", 3, 2, true, 0, 0, 0 },
	{ "PCSample=2 without EL2 and EL3: no EDVIDSR", 2, 2, false, 0, 0, 0 },
	{ "PCSample=2 with EL2 or EL3: Security state unknown", 2, 2, true, 0, 0, -ENODEV },
	{ "PCSample=0: none (a FEAT_PCSRv8p2 core)", 0, 0, true, 0, 0, -ENODEV },
	{ "PCSample=1: reserved in Armv8", 1, 2, false, 0, 0, -ENODEV },
	{ "PCSample=4: reserved", 4, 2, true, 0, 0, -ENODEV },
	{ "PCSROffset=0: EDPCSR not implemented", 3, 0, true, 0, 0, -ENODEV },
	{ "PCSROffset=1: not an Armv8 value (Armv7 offsets)", 3, 1, true, 0, 0, -ENODEV },
	{ "EDDEVARCH: a PMU frame given as the debug frame", 3, 2, true, APMU_ARCHID_PMUV3,
	  0, -ENODEV },
	{ "EDDEVAFF: another CPU's debug frame", 3, 2, true, 0, 0x101, -EXDEV },
};

KUNIT_ARRAY_PARAM_DESC(pcs_debug_id, pcs_debug_id_cases, name);

/*
 * FEAT_PCSRv8: EDDEVID.PCSample and EDDEVID1.PCSROffset decide, EDDEVARCH and EDDEVAFF
 * must be the CPU's external debug; what is refused reads nothing after the ID registers
 */
static void debug_identify(struct kunit *test)
{
	const struct pcs_debug_id_case *c = test->param_value;
	struct pcs_test *t = pcs_setup_debug(test, c->pcsample, c->pcsroffset);

	t->u.el23 = c->el23;
	t->m.devaff = c->devaff;
	if (c->archid)
		t->m.devarch = (t->m.devarch & ~APMU_DEVARCH_ARCHID) | c->archid;
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&t->u), c->err);
	KUNIT_EXPECT_EQ(test, t->m.samples, 0);
	KUNIT_EXPECT_EQ(test, t->m.writes, 0);
	if (c->err)
		return;
	KUNIT_EXPECT_EQ(test, t->u.has_vidsr, c->pcsample == APMU_EDPCSAMPLE_CID_VID);
	KUNIT_EXPECT_FALSE(test, t->u.has_ctl);
	KUNIT_EXPECT_FALSE(test, t->u.imp);
	KUNIT_EXPECT_FALSE(test, t->u.ss);
	KUNIT_EXPECT_STREQ(test, apmu_pcs_kind_name(&t->u), "debug");
}

/**
 * struct pcs_debug_sample_case - one EDPCSR sample and its decoding
 * @name: description
 * @pc: the sampled PC the model holds (EDPCSRhi:EDPCSRlo)
 * @vidsr: EDVIDSR captured with it
 * @valid: a valid sample
 * @out: the decoded PC
 * @el: its Exception level
 * @sec: its Security state
 * @vmid: its VMID
 * @v: what apmu_pcs_classify() does with it on an nVHE host
 */
struct pcs_debug_sample_case {
	const char *name;
	u64 pc;
	u32 vidsr;
	bool valid;
	u64 out;
	u8 el, sec;
	u16 vmid;
	enum apmu_pcs_verdict v;
};

#define ED_NS	APMU_EDVIDSR_NS
#define ED_HV	APMU_EDVIDSR_HV

static const struct pcs_debug_sample_case pcs_debug_sample_cases[] = {
	{ "kernel PC: EL1, Non-secure, AArch64", KVA, ED_NS | ED_HV, true, KVA, 1,
	  APMU_PCS_NONSECURE, 0, APMU_PCS_HOST },
	{ "user PC: EL0", UVA, ED_NS | ED_HV, true, UVA, 0, APMU_PCS_NONSECURE, 0,
	  APMU_PCS_HOST },
	{ "AArch32 EL0: HV=0, EDPCSRhi RAZ", 0x0000abcd00008000ULL, ED_NS, true, 0x8000, 0,
	  APMU_PCS_NONSECURE, 0, APMU_PCS_HOST },
	{ "EL2 (E2): a hypervisor's, never delivered", 0xffff800080001000ULL,
	  ED_NS | ED_HV | APMU_EDVIDSR_E2, true, 0xffff800080001000ULL, 2,
	  APMU_PCS_NONSECURE, 0, APMU_PCS_DROP },
	{ "Secure EL3 (E3)", 0x0e001000, ED_HV | APMU_EDVIDSR_E3, true, 0x0e001000, 3,
	  APMU_PCS_SECURE, 0, APMU_PCS_DROP },
	{ "Secure EL1 (NS=0)", KVA, ED_HV, true, KVA, 1, APMU_PCS_SECURE, 0, APMU_PCS_DROP },
	{ "guest EL1, VMID 5", KVA, ED_NS | ED_HV | 5, true, KVA, 1, APMU_PCS_NONSECURE, 5,
	  APMU_PCS_GUEST },
	{ "guest EL0, 16-bit VMID 0x1234", UVA, ED_NS | ED_HV | 0x1234, true, UVA, 0,
	  APMU_PCS_NONSECURE, 0x1234, APMU_PCS_GUEST },
	{ "no valid sample: EDPCSRlo 0xFFFFFFFF", 0x12345678FFFFFFFFULL, ED_NS | ED_HV, false,
	  0, 0, 0, 0, APMU_PCS_DROP },
};

KUNIT_ARRAY_PARAM_DESC(pcs_debug_sample, pcs_debug_sample_cases, name);

/*
 * EDPCSRlo, then EDPCSRhi, EDCIDSR and EDVIDSR, decoded; nothing but EDPCSRlo read when
 * it says "no valid sample" (the model fails the case on a read of UNKNOWN context);
 * what apmu_pcs_classify() then hands perf users
 */
static void debug_sample_decoded(struct kunit *test)
{
	const struct pcs_debug_sample_case *c = test->param_value;
	struct pcs_test *t = pcs_setup_debug(test, 3, 2);
	struct apmu_pcs_sample s;
	u32 reads;

	KUNIT_ASSERT_EQ(test, apmu_pcs_identify(&t->u), 0);
	t->m.seq = &c->pc;
	t->m.nseq = 1;
	t->m.vidsr = c->vidsr;
	t->m.cid1 = 42;
	reads = t->m.reads;
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_EQ(test, t->m.samples, 1);
	KUNIT_EXPECT_EQ(test, s.valid, c->valid);
	KUNIT_EXPECT_EQ(test, t->m.reads - reads, c->valid ? 4 : 1);
	KUNIT_EXPECT_EQ(test, t->m.writes, 0);
	if (!c->valid)
		return;
	KUNIT_EXPECT_EQ(test, s.pc, c->out);
	KUNIT_EXPECT_EQ(test, s.el, c->el);
	KUNIT_EXPECT_EQ(test, s.sec, c->sec);
	KUNIT_EXPECT_EQ(test, s.vmid, c->vmid);
	KUNIT_EXPECT_EQ(test, s.cid1, 42);
	KUNIT_EXPECT_FALSE(test, s.has_cid2);
	KUNIT_EXPECT_EQ(test, apmu_pcs_classify(&s, 0, false), c->v);
}

/* PCSample=2 (no EL2, no EL3): EDVIDSR is never read; the kernel's own Security state */
static void debug_no_vidsr(struct kunit *test)
{
	struct pcs_test *t = pcs_setup_debug(test, 2, 2);
	u64 pc = UVA;
	struct apmu_pcs_sample s;

	KUNIT_ASSERT_EQ(test, apmu_pcs_identify(&t->u), 0);
	t->m.seq = &pc;
	t->m.nseq = 1;
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_TRUE(test, s.valid);
	KUNIT_EXPECT_EQ(test, s.pc, UVA);
	KUNIT_EXPECT_EQ(test, s.el, 0);
	KUNIT_EXPECT_EQ(test, s.sec, APMU_PCS_NONSECURE);
	KUNIT_EXPECT_EQ(test, s.vmid, 0);
	KUNIT_EXPECT_EQ(test, apmu_pcs_classify(&s, 0, false), APMU_PCS_HOST);
}

/* The software lock is opened around EDPCSRlo (else no side effects) and closed again */
static void debug_software_lock(struct kunit *test)
{
	struct pcs_test *t = pcs_setup_debug(test, 3, 2);
	u64 pc = KVA;
	struct apmu_pcs_sample s;

	t->m.sli = true;
	t->m.slk = true;
	KUNIT_ASSERT_EQ(test, apmu_pcs_identify(&t->u), 0);
	KUNIT_EXPECT_TRUE(test, t->u.swlock);
	t->m.seq = &pc;
	t->m.nseq = 1;
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_TRUE(test, s.valid);
	KUNIT_EXPECT_EQ(test, s.pc, KVA);
	KUNIT_EXPECT_TRUE(test, t->m.slk);
	KUNIT_EXPECT_EQ(test, t->m.writes, 2);
}

/* FEAT_VHE and EL2: no sample is taken while an external debugger has set EDSCR.SC2 */
static void debug_sc2_no_sample(struct kunit *test)
{
	struct pcs_test *t = pcs_setup_debug(test, 3, 2);
	u64 pc = KVA;
	struct apmu_pcs_sample s;

	KUNIT_ASSERT_EQ(test, apmu_pcs_identify(&t->u), 0);
	t->u.sc2_fmt = true;
	t->m.seq = &pc;
	t->m.nseq = 1;
	t->m.sc2 = true;
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_FALSE(test, s.valid);
	KUNIT_EXPECT_EQ(test, t->m.samples, 0);
	t->m.sc2 = false;
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_TRUE(test, s.valid);
	KUNIT_EXPECT_EQ(test, t->m.samples, 1);
	/* without FEAT_VHE, EDSCR is not read at all */
	t->u.sc2_fmt = false;
	t->m.sc2 = true;
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_TRUE(test, s.valid);
}

/*
 * No PMPCSCTL: enable and sample on snapshot are -EOPNOTSUPP and nothing is written, by
 * perf events or on the way back from a power-down or hotplug either; samples go on
 */
static void debug_no_ctl(struct kunit *test)
{
	struct pcs_test *t = pcs_setup_debug(test, 3, 2);
	u64 pc = KVA;
	struct apmu_pcs_sample s;
	bool en = true, ss = true;

	KUNIT_ASSERT_EQ(test, apmu_pcs_identify(&t->u), 0);
	t->m.seq = &pc;
	t->m.nseq = 1;
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, true), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_enable(&t->u, false), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, apmu_pcs_set_snapshot(&t->u, true), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, apmu_pcs_get_ctl(&t->u, &en, &ss), 0);
	KUNIT_EXPECT_FALSE(test, en);
	KUNIT_EXPECT_FALSE(test, ss);
	KUNIT_EXPECT_EQ(test, apmu_pcs_events_refused(&t->u), 0);
	apmu_pcs_events_get(&t->u);
	pm_cycle(t);
	hotplug_cycle(t);
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_TRUE(test, s.valid);
	apmu_pcs_events_put(&t->u);
	KUNIT_EXPECT_EQ(test, t->m.writes, 0);
}

/*
 * Power and lock state of the core, on the debug frame: EDPCSR and its context are in the
 * Core power domain (an error response when off, under the OS lock or double lock): not
 * accessed, the errno says why, and sampling resumes once the state clears
 */
static void debug_frame_state_refused(struct kunit *test)
{
	const struct pcs_state_case *c = test->param_value;
	struct pcs_test *t = pcs_setup_debug(test, 3, 2);
	u64 pc = KVA;
	struct apmu_pcs_sample s;
	u32 reads, writes;

	t->m.sli = true;
	KUNIT_ASSERT_EQ(test, apmu_pcs_identify(&t->u), 0);
	t->m.seq = &pc;
	t->m.nseq = 1;
	pcs_apply_state(t, c);
	reads = t->m.reads;
	writes = t->m.writes;
	KUNIT_EXPECT_EQ(test, apmu_pcs_identify(&t->u), c->err);
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), c->err);
	KUNIT_EXPECT_FALSE(test, s.valid);
	KUNIT_EXPECT_EQ(test, t->m.reads, reads);
	KUNIT_EXPECT_EQ(test, t->m.writes, writes);
	KUNIT_EXPECT_EQ(test, t->m.samples, 0);
	t->m.pu = true;
	t->m.dlk = false;
	t->m.oslk = false;
	apmu_pcs_set_online(&t->u, true);
	apmu_pcs_set_pm_off(&t->u, false);
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&t->u, &s), 0);
	KUNIT_EXPECT_TRUE(test, s.valid);
}

/*
 * The MMIO backend on a debug frame in memory: the frame is its own debug frame (EDPRSR,
 * EDDEVARCH, EDDEVAFF through pcs_mmio_probe()), and samples come from EDPCSR
 */
static void mmio_debug_kind_on_memory_frame(struct kunit *test)
{
	u32 *frame = kunit_kzalloc(test, APMU_PCS_FRAME_SIZE, GFP_KERNEL);
	struct apmu_pcs_unit u = { .ops = &apmu_pcs_mmio_ops, .online = true,
				   .kind = APMU_PCS_KIND_DEBUG };
	struct apmu_pcs_sample s;

	KUNIT_ASSERT_NOT_NULL(test, frame);
	raw_spin_lock_init(&u.lock);
	u.base = (void __force __iomem *)frame;
	u.dbg = u.base;
	frame[APMU_EDDEVARCH / 4] = FIELD_PREP(APMU_DEVARCH_ARCHITECT, APMU_ARCHITECT_ARM) |
				    APMU_DEVARCH_PRESENT | 0x6A15;
	frame[APMU_EDDEVID / 4] = APMU_EDPCSAMPLE_CID_VID;
	frame[APMU_EDDEVID1 / 4] = APMU_PCSROFFSET_NONE;
	frame[APMU_EDPRSR / 4] = APMU_EDPRSR_PU;
	KUNIT_ASSERT_EQ(test, apmu_pcs_identify(&u), 0);
	KUNIT_EXPECT_TRUE(test, u.has_vidsr);
	frame[APMU_EDPCSR_LO / 4] = lower_32_bits(KVA);
	frame[APMU_EDPCSR_HI / 4] = upper_32_bits(KVA);
	frame[APMU_EDCIDSR / 4] = 77;
	frame[APMU_EDVIDSR / 4] = APMU_EDVIDSR_NS | APMU_EDVIDSR_HV;
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&u, &s), 0);
	KUNIT_EXPECT_TRUE(test, s.valid);
	KUNIT_EXPECT_EQ(test, s.pc, KVA);
	KUNIT_EXPECT_EQ(test, s.el, 1);
	KUNIT_EXPECT_EQ(test, s.cid1, 77);
	/* powered down (EDPRSR.PU read from the frame itself): refused */
	frame[APMU_EDPRSR / 4] = 0;
	KUNIT_EXPECT_EQ(test, apmu_pcs_read_sample(&u, &s), -EAGAIN);
}

static struct kunit_case apmu_pcs_cases[] = {
	KUNIT_CASE(identify_v8p9),
	KUNIT_CASE(new_unit_untouched_until_cpu_answers),
	KUNIT_CASE(identify_refuses_other_cpus_frame),
	KUNIT_CASE(events_count_enable),
	KUNIT_CASE(mmio_debug_frame_read_only_when_up),
	KUNIT_CASE(identify_v8p2_no_pmpcsctl),
	KUNIT_CASE(identify_refuses_other_frames),
	KUNIT_CASE(enable_with_imp),
	KUNIT_CASE(enable_without_imp_eopnotsupp),
	KUNIT_CASE(snapshot_needs_pmuv3_ss),
	KUNIT_CASE(res0_written_as_zero),
	KUNIT_CASE(software_lock_unlocked_around_writes),
	KUNIT_CASE_PARAM(frame_state_refused, pcs_state_gen_params),
	KUNIT_CASE(power_cycle_keeps_event_enable),
	KUNIT_CASE(power_cycle_keeps_root_enable),
	KUNIT_CASE(hotplug_keeps_enable),
	KUNIT_CASE(sample_sequence),
	KUNIT_CASE(sample_cid2_block),
	KUNIT_CASE(decode_fields),
	KUNIT_CASE_PARAM(classify_security_and_guests, pcs_classify_gen_params),
	KUNIT_CASE(mmio_accessors_on_memory_frame),
	KUNIT_CASE(mmio_refuses_memory),
	KUNIT_CASE(mmio_accepts_described_device),
	KUNIT_CASE_PARAM(debug_identify, pcs_debug_id_gen_params),
	KUNIT_CASE_PARAM(debug_sample_decoded, pcs_debug_sample_gen_params),
	KUNIT_CASE(debug_no_vidsr),
	KUNIT_CASE(debug_software_lock),
	KUNIT_CASE(debug_sc2_no_sample),
	KUNIT_CASE(debug_no_ctl),
	KUNIT_CASE_PARAM(debug_frame_state_refused, pcs_state_gen_params),
	KUNIT_CASE(mmio_debug_kind_on_memory_frame),
	{}
};

static struct kunit_suite apmu_pcs_suite = {
	.name = "apmu_pcs",
	.exit = pcs_exit,
	.test_cases = apmu_pcs_cases,
};

kunit_test_suite(apmu_pcs_suite);
