// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for apmu's Activity Monitors unit (apmu_amu/) on the AMU register model: per-CPU
 * discovery, every cpuN/amu value, the group-1 enable write rule at each Exception-level
 * configuration, and the apmu_amu perf PMU's event_init checks and counter deltas.
 * The model fails a test on any access the architecture or the driver's rules forbid
 * (amu_model.h); the suite's exit hook reports it.
 */
#include <kunit/test.h>
#include <linux/cpu_pm.h>
#include <linux/cpumask.h>
#include <linux/irqflags.h>
#include <linux/limits.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "amu_model.h"
#include "../../apmu_amu/internal.h"

/* A PMU type no registered PMU has: event_init is called directly */
#define AMU_TEST_TYPE	0x7ffffff0

/**
 * struct amu_test - one test's AMU: the register model and a unit over it
 * @m: the model
 * @amu: the unit (discovered, PMU filled in, not registered)
 * @buf: a PAGE_SIZE buffer for sysfs show()
 */
struct amu_test {
	struct apmu_amu_model m;
	struct apmu_amu amu;
	char *buf;
};

static int amu_test_init(struct kunit *test)
{
	struct amu_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->buf);
	KUNIT_ASSERT_EQ(test, apmu_amu_alloc(&t->amu), 0);
	apmu_amu_model_init(&t->m);
	apmu_amu_model_select(&t->m);
	t->amu.regs = &apmu_amu_model_regs;
	t->amu.kernel_el = 2;	/* the model's: a VHE kernel */
	apmu_amu_pmu_init(&t->amu);
	t->amu.pmu.type = AMU_TEST_TYPE;
	t->amu.pmu.name = "apmu_amu_test";
	test->priv = t;
	return 0;
}

static void amu_test_exit(struct kunit *test)
{
	struct amu_test *t = test->priv;

	if (!t)
		return;
	apmu_amu_model_check(&t->m);
	apmu_amu_free(&t->amu);
}

static void amu_discover_all(struct kunit *test, struct amu_test *t)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		KUNIT_ASSERT_EQ(test, apmu_amu_discover(&t->amu, cpu), 0);
}

/* A formatted string that lives as long as the test */
static __printf(2, 3) const char *amu_fmt(struct kunit *test, const char *fmt, ...)
{
	char *s = kunit_kzalloc(test, 64, GFP_KERNEL);
	va_list args;

	if (!s)
		return "";
	va_start(args, fmt);
	vsnprintf(s, 64, fmt, args);
	va_end(args);
	return s;
}

/* The cpuN/amu file @name, or NULL */
static const struct apmu_amu_attr *amu_attr(const char *name)
{
	struct attribute **a;

	for (a = apmu_amu_attrs; *a; a++)
		if (!strcmp((*a)->name, name))
			return to_amu_attr(container_of(*a, struct device_attribute, attr));
	return NULL;
}

/* The mode cpuN/amu/@name has (apmu_amu_visible()), 0 where it is absent */
static umode_t amu_mode(struct amu_test *t, unsigned int cpu, const char *name)
{
	const struct apmu_amu_attr *a = amu_attr(name);

	return a ? apmu_amu_visible(&t->amu, cpu, a) : 0;
}

/* What reading cpuN/amu/@name returns, through the file's own handler; -ENOENT if absent */
static ssize_t amu_show_raw(struct amu_test *t, unsigned int cpu, const char *name)
{
	const struct apmu_amu_attr *a = amu_attr(name);

	if (!a || !apmu_amu_visible(&t->amu, cpu, a))
		return -ENOENT;
	return apmu_amu_show_one(&t->amu, cpu, a, t->buf);
}

/* cpuN/amu/@name as read, or "error <errno>" */
static const char *amu_show(struct kunit *test, struct amu_test *t, unsigned int cpu,
			    const char *name)
{
	ssize_t ret = amu_show_raw(t, cpu, name);

	if (ret < 0)
		return amu_fmt(test, "error %zd", ret);
	return amu_fmt(test, "%s", t->buf);
}

static ssize_t amu_store(struct amu_test *t, unsigned int cpu, const char *name,
			 const char *val)
{
	const struct apmu_amu_attr *a = amu_attr(name);

	if (!a || !apmu_amu_visible(&t->amu, cpu, a))
		return -ENOENT;
	return apmu_amu_store_one(&t->amu, cpu, a, val, strlen(val));
}

static struct perf_event *amu_event(struct kunit *test, struct amu_test *t, u64 config,
				    int cpu)
{
	struct perf_event *ev = kunit_kzalloc(test, sizeof(*ev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ev);
	ev->pmu = &t->amu.pmu;
	ev->attr.type = AMU_TEST_TYPE;
	ev->attr.size = sizeof(ev->attr);
	ev->attr.config = config;
	ev->cpu = cpu;
	ev->group_leader = ev;
	INIT_LIST_HEAD(&ev->sibling_list);
	return ev;
}

static int amu_init_ev(struct kunit *test, struct amu_test *t, struct perf_event *ev)
{
	return t->amu.pmu.event_init(ev);
}

/* No kernel capability: the AMU is never touched, even where the CPU has one */
static void amu_discover_not_enabled(struct kunit *test)
{
	struct amu_test *t = test->priv;
	unsigned int cpu;

	t->m.kernel_cap = false;
	amu_discover_all(test, t);
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_EQ(test, t->amu.info[cpu].absent, APMU_AMU_NOT_ENABLED);
	KUNIT_EXPECT_TRUE(test, cpumask_empty(&t->amu.cpus));
	KUNIT_EXPECT_EQ(test, t->m.reads, 0);
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "core_cycles"), 0);
	KUNIT_EXPECT_STREQ(test, amu_show(test, t, 0, "core_cycles"), "error -2");
}

/* A mix: cpu0 without an AMU (ID_AA64PFR0_EL1.AMU == 0), the others with one */
static void amu_discover_mixed(struct kunit *test)
{
	struct amu_test *t = test->priv;
	unsigned int cpu;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	t->m.amu[0] = 0;
	amu_discover_all(test, t);
	KUNIT_EXPECT_EQ(test, t->amu.info[0].absent, APMU_AMU_NOT_ENABLED);
	KUNIT_EXPECT_FALSE(test, cpumask_test_cpu(0, &t->amu.cpus));
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "core_cycles"), 0);
	for_each_online_cpu(cpu) {
		if (cpu == 0 || cpu >= APMU_AMU_MODEL_CPUS)
			continue;
		KUNIT_EXPECT_EQ(test, t->amu.info[cpu].absent, APMU_AMU_PRESENT);
		KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(cpu, &t->amu.cpus));
	}
}

/* AMCFGR_EL0.NCG and AMCGCR_EL0.CG0NC/CG1NC, and the files they make visible */
static void amu_discover_counts(struct kunit *test)
{
	struct amu_test *t = test->priv;

	t->m.cg1nc[0] = 3;
	amu_discover_all(test, t);
	KUNIT_EXPECT_EQ(test, t->amu.info[0].ncg, 1);
	KUNIT_EXPECT_EQ(test, t->amu.info[0].cg0nc, 4);
	KUNIT_EXPECT_EQ(test, t->amu.info[0].cg1nc, 3);
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "core_cycles"), 0400);
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "const_cycles"), 0400);
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "inst_retired"), 0400);
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "mem_stall_cycles"), 0400);
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "aux2_event"), 0400);
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "aux2_count"), 0400);
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "aux2_enable"), 0600);
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "aux3_event"), 0);
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "aux3_enable"), 0);
	KUNIT_EXPECT_STREQ(test, amu_show(test, t, 0, "aux3_count"), "error -2");
	KUNIT_EXPECT_EQ(test, t->amu.g1_max, num_online_cpus() > 1 ? 4 : 3);
}

/* NCG == 0: no group 1; AMCNTENSET1/CLR1 and AMEV*1<n> are UNDEFINED, never touched */
static void amu_discover_group0_only(struct kunit *test)
{
	struct amu_test *t = test->priv;
	unsigned int n;
	char name[16];

	t->m.ncg[0] = 0;
	t->m.cg1nc[0] = 4;	/* what a careless read of a stale field would find */
	amu_discover_all(test, t);
	KUNIT_EXPECT_EQ(test, t->amu.info[0].absent, APMU_AMU_PRESENT);
	KUNIT_EXPECT_EQ(test, t->amu.info[0].cg1nc, 0);
	for (n = 0; n < APMU_AMU_NR_G1; n++) {
		snprintf(name, sizeof(name), "aux%u_enable", n);
		KUNIT_EXPECT_EQ(test, amu_mode(t, 0, name), 0);
		KUNIT_EXPECT_EQ(test, apmu_amu_set_enable(&t->amu, 0, n, true), -ENODEV);
		KUNIT_EXPECT_EQ(test, apmu_amu_set_enable(&t->amu, 0, n, false), -ENODEV);
	}
	KUNIT_EXPECT_STREQ(test, amu_show(test, t, 0, "aux0_enable"), "error -2");
	KUNIT_EXPECT_STREQ(test, amu_show(test, t, 0, "core_cycles"), "0\n");
	KUNIT_EXPECT_EQ(test, t->m.writes, 0);
}

/* AMUv1p1 (ID_AA64PFR0_EL1.AMU == 2): group 1 (maybe sparse) is not exposed at all */
static void amu_discover_v1p1(struct kunit *test)
{
	struct amu_test *t = test->priv;
	unsigned int cpu, n;
	char name[16];

	for (cpu = 0; cpu < APMU_AMU_MODEL_CPUS; cpu++)
		t->m.amu[cpu] = 2;
	amu_discover_all(test, t);
	KUNIT_EXPECT_EQ(test, t->amu.info[0].absent, APMU_AMU_PRESENT);
	KUNIT_EXPECT_EQ(test, t->amu.info[0].version, 2);
	KUNIT_EXPECT_EQ(test, t->amu.info[0].cg1nc, 0);
	KUNIT_EXPECT_EQ(test, t->amu.g1_max, 0);
	for (n = 0; n < APMU_AMU_NR_G1; n++) {
		snprintf(name, sizeof(name), "aux%u_event", n);
		KUNIT_EXPECT_EQ(test, amu_mode(t, 0, name), 0);
		snprintf(name, sizeof(name), "aux%u_count", n);
		KUNIT_EXPECT_EQ(test, amu_mode(t, 0, name), 0);
		snprintf(name, sizeof(name), "aux%u_enable", n);
		KUNIT_EXPECT_EQ(test, amu_mode(t, 0, name), 0);
		KUNIT_EXPECT_EQ(test, apmu_amu_set_enable(&t->amu, 0, n, true), -ENODEV);
	}
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "core_cycles"), 0400);
	KUNIT_EXPECT_STREQ(test, amu_show(test, t, 0, "aux0_count"), "error -2");
	KUNIT_EXPECT_EQ(test, t->m.writes, 0);
}

/* Group 0 by name, each 64-bit count read on its own CPU */
static void amu_sysfs_group0(struct kunit *test)
{
	struct amu_test *t = test->priv;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		if (cpu >= APMU_AMU_MODEL_CPUS)
			continue;
		t->m.cnt0[cpu][0] = U64_MAX - cpu;
		t->m.cnt0[cpu][1] = 1000 + cpu;
		t->m.cnt0[cpu][2] = BIT_ULL(40) + cpu;
		t->m.cnt0[cpu][3] = 7 + cpu;
	}
	amu_discover_all(test, t);
	for_each_online_cpu(cpu) {
		if (cpu >= APMU_AMU_MODEL_CPUS)
			continue;
		KUNIT_EXPECT_STREQ(test, amu_show(test, t, cpu, "core_cycles"),
				   amu_fmt(test, "%llu\n", U64_MAX - cpu));
		KUNIT_EXPECT_STREQ(test, amu_show(test, t, cpu, "const_cycles"),
				   amu_fmt(test, "%u\n", 1000 + cpu));
		KUNIT_EXPECT_STREQ(test, amu_show(test, t, cpu, "inst_retired"),
				   amu_fmt(test, "%llu\n", BIT_ULL(40) + cpu));
		KUNIT_EXPECT_STREQ(test, amu_show(test, t, cpu, "mem_stall_cycles"),
				   amu_fmt(test, "%u\n", 7 + cpu));
	}
	/* read-only files refuse writes, whoever opens them for writing */
	KUNIT_EXPECT_EQ(test, amu_store(t, 0, "core_cycles", "0"), -EACCES);
	KUNIT_EXPECT_EQ(test, t->m.writes, 0);
}

/* The erratum-broken constant-frequency counter is not offered */
static void amu_sysfs_const_broken(struct kunit *test)
{
	struct amu_test *t = test->priv;

	KUNIT_EXPECT_FALSE(test, t->amu.g0 & BIT(APMU_AMU_G0_CONST));
	amu_discover_all(test, t);
	KUNIT_EXPECT_TRUE(test, t->amu.g0 & BIT(APMU_AMU_G0_CONST));
	t->m.const_broken = true;
	amu_discover_all(test, t);
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "const_cycles"), 0);
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "core_cycles"), 0400);
	/* every CPU has the erratum: no const_cycles in the PMU's events/ either */
	KUNIT_EXPECT_FALSE(test, t->amu.g0 & BIT(APMU_AMU_G0_CONST));
	KUNIT_EXPECT_EQ(test, amu_init_ev(test, t, amu_event(test, t, APMU_AMU_G0_CONST, 0)),
			-EINVAL);
}

/* Group 1: event number, count and enable state of each counter, on its own CPU */
static void amu_sysfs_group1(struct kunit *test)
{
	struct amu_test *t = test->priv;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		if (cpu >= APMU_AMU_MODEL_CPUS)
			continue;
		t->m.cnt1[cpu][1] = U64_MAX - 1 - cpu;
		t->m.en1[cpu] = BIT(1) | BIT(3);
	}
	amu_discover_all(test, t);
	for_each_online_cpu(cpu) {
		if (cpu >= APMU_AMU_MODEL_CPUS)
			continue;
		KUNIT_EXPECT_STREQ(test, amu_show(test, t, cpu, "aux0_event"),
				   amu_fmt(test, "0x%04x\n", 0x300 + 0x10 * cpu));
		KUNIT_EXPECT_STREQ(test, amu_show(test, t, cpu, "aux3_event"),
				   amu_fmt(test, "0x%04x\n", 0x303 + 0x10 * cpu));
		KUNIT_EXPECT_STREQ(test, amu_show(test, t, cpu, "aux1_count"),
				   amu_fmt(test, "%llu\n", U64_MAX - 1 - cpu));
		KUNIT_EXPECT_STREQ(test, amu_show(test, t, cpu, "aux0_count"), "0\n");
		KUNIT_EXPECT_STREQ(test, amu_show(test, t, cpu, "aux0_enable"), "0\n");
		KUNIT_EXPECT_STREQ(test, amu_show(test, t, cpu, "aux1_enable"), "1\n");
		KUNIT_EXPECT_STREQ(test, amu_show(test, t, cpu, "aux2_enable"), "0\n");
		KUNIT_EXPECT_STREQ(test, amu_show(test, t, cpu, "aux3_enable"), "1\n");
	}
	KUNIT_EXPECT_EQ(test, t->m.writes, 0);
}

/* W1S/W1C of bit n only: the other enables keep their state */
static void amu_write_bit_n_only(struct kunit *test)
{
	struct amu_test *t = test->priv;

	t->m.en1[0] = BIT(0) | BIT(2);
	amu_discover_all(test, t);
	KUNIT_EXPECT_EQ(test, amu_store(t, 0, "aux1_enable", "1"), 1);
	KUNIT_EXPECT_EQ(test, t->m.last_write, BIT(1));
	KUNIT_EXPECT_EQ(test, t->m.en1[0], BIT(0) | BIT(1) | BIT(2));
	KUNIT_EXPECT_EQ(test, amu_store(t, 0, "aux0_enable", "0\n"), 2);
	KUNIT_EXPECT_EQ(test, t->m.last_write, BIT(0));
	KUNIT_EXPECT_EQ(test, t->m.en1[0], BIT(1) | BIT(2));
	KUNIT_EXPECT_EQ(test, amu_store(t, 0, "aux3_enable", "1"), 1);
	KUNIT_EXPECT_EQ(test, t->m.en1[0], BIT(1) | BIT(2) | BIT(3));
	KUNIT_EXPECT_STREQ(test, amu_show(test, t, 0, "aux3_enable"), "1\n");
	KUNIT_EXPECT_STREQ(test, amu_show(test, t, 0, "aux0_enable"), "0\n");
	KUNIT_EXPECT_EQ(test, t->m.writes, 3);
	if (num_online_cpus() > 1)	/* another CPU's enables are its own */
		KUNIT_EXPECT_EQ(test, t->m.en1[1], 0);
}

/* Bad input: -EINVAL, nothing written; counters >= CG1NC have no file and no write */
static void amu_write_bad(struct kunit *test)
{
	struct amu_test *t = test->priv;
	unsigned int n;

	t->m.cg1nc[0] = 2;
	amu_discover_all(test, t);
	KUNIT_EXPECT_EQ(test, amu_store(t, 0, "aux0_enable", "2"), -EINVAL);
	KUNIT_EXPECT_EQ(test, amu_store(t, 0, "aux0_enable", "maybe"), -EINVAL);
	KUNIT_EXPECT_EQ(test, amu_store(t, 0, "aux0_enable", ""), -EINVAL);
	KUNIT_EXPECT_EQ(test, amu_store(t, 0, "aux0_count", "0"), -EACCES);
	KUNIT_EXPECT_EQ(test, amu_store(t, 0, "aux0_event", "0x11"), -EACCES);
	KUNIT_EXPECT_EQ(test, amu_store(t, 0, "aux2_enable", "1"), -ENOENT);
	for (n = 2; n < APMU_AMU_NR_G1; n++) {
		KUNIT_EXPECT_EQ(test, apmu_amu_set_enable(&t->amu, 0, n, true), -ENODEV);
		KUNIT_EXPECT_EQ(test, apmu_amu_set_enable(&t->amu, 0, n, false), -ENODEV);
	}
	KUNIT_EXPECT_EQ(test, t->m.writes, 0);
	KUNIT_EXPECT_EQ(test, t->m.en1[0], 0);
}

/**
 * struct amu_el_case - one Exception-level configuration
 * @el3: ID_AA64PFR0_EL1.EL3
 * @el2: ID_AA64PFR0_EL1.EL2
 * @cur: CurrentEL.EL
 * @writable: AMCNTENSET1/CLR1 writes are defined there
 * @name: description
 */
struct amu_el_case {
	unsigned int el3, el2, cur;
	bool writable;
	const char *name;
};

static const struct amu_el_case amu_el_cases[] = {
	/* EL2 may be hidden by a hypervisor: a kernel at EL1 is never taken as highest */
	{ 0, 0, 1, false, "EL1 only, kernel at EL1" },
	{ 0, 1, 2, true, "EL2 highest, VHE kernel at EL2" },
	{ 0, 1, 1, false, "EL2 highest, kernel at EL1" },
	{ 1, 1, 2, false, "EL3 highest, kernel at EL2" },
	{ 1, 1, 1, false, "EL3 highest, kernel at EL1" },
	{ 2, 0, 1, false, "EL3 (AArch32 too), no EL2, kernel at EL1" },
};

KUNIT_ARRAY_PARAM_DESC(amu_el, amu_el_cases, name);

/*
 * The seed: MSR AMCNTENSET1/CLR1_EL0 only if IsHighestEL(PSTATE.EL), else UNDEFINED; apmu
 * writes only from EL2 with no EL3, the one case where it knows it is at the highest EL
 */
static void amu_write_el_rule(struct kunit *test)
{
	const struct amu_el_case *c = test->param_value;
	struct amu_test *t = test->priv;
	unsigned int cpu;
	ssize_t want;

	for (cpu = 0; cpu < APMU_AMU_MODEL_CPUS; cpu++) {
		t->m.el3[cpu] = c->el3;
		t->m.el2[cpu] = c->el2;
		t->m.cur_el[cpu] = c->cur;
	}
	t->amu.kernel_el = c->cur;
	t->m.en1[0] = BIT(2);
	amu_discover_all(test, t);
	KUNIT_EXPECT_EQ(test, t->amu.info[0].writable, c->writable);
	/* the mode does not change: root-only, and a write says why it fails */
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "aux0_enable"), 0600);
	want = c->writable ? 1 : -EPERM;
	KUNIT_EXPECT_EQ(test, amu_store(t, 0, "aux0_enable", "1"), want);
	KUNIT_EXPECT_EQ(test, amu_store(t, 0, "aux2_enable", "0"), want);
	KUNIT_EXPECT_EQ(test, t->m.writes, c->writable ? 2 : 0);
	KUNIT_EXPECT_EQ(test, t->m.en1[0], c->writable ? BIT(0) : BIT(2));
	KUNIT_EXPECT_STREQ(test, amu_show(test, t, 0, "aux0_enable"), c->writable ? "1\n" : "0\n");
}

/* The model itself: each rule it enforces is seen (then forgiven, for this case only) */
static void amu_model_strict(struct kunit *test)
{
	struct amu_test *t = test->priv;
	const struct apmu_amu_regs *r = &apmu_amu_model_regs;
	unsigned int cpu;

	preempt_disable();
	cpu = smp_processor_id();
	t->m.cg1nc[cpu] = 2;
	t->m.cur_el[cpu] = 1;	/* below the highest EL (EL2) */
	r->write(APMU_AMU_R_CNTENSET1, 0, BIT(0));
	KUNIT_EXPECT_EQ(test, t->m.violations, 1);
	KUNIT_EXPECT_EQ(test, t->m.en1[cpu], 0);
	t->m.cur_el[cpu] = 2;
	r->write(APMU_AMU_R_CNTENSET1, 0, BIT(0) | BIT(2));
	KUNIT_EXPECT_EQ(test, t->m.violations, 2);
	KUNIT_EXPECT_EQ(test, t->m.en1[cpu], BIT(0));	/* P2 >= CG1NC: WI */
	KUNIT_EXPECT_EQ(test, r->read(APMU_AMU_R_CNTENCLR1, 0), BIT(0));
	r->write(APMU_AMU_R_CNTENCLR0, 0, BIT(0));
	KUNIT_EXPECT_EQ(test, t->m.violations, 3);
	r->read(APMU_AMU_R_EVCNTR1, 2);
	KUNIT_EXPECT_EQ(test, t->m.violations, 4);
	t->m.ncg[cpu] = 0;
	r->read(APMU_AMU_R_CNTENSET1, 0);
	KUNIT_EXPECT_EQ(test, t->m.violations, 5);
	t->m.kernel_cap = false;
	r->read(APMU_AMU_R_EVCNTR0, 0);
	KUNIT_EXPECT_EQ(test, t->m.violations, 6);
	preempt_enable();
	t->m.violations = 0;
}

/* The attribute bits an event_init case sets (struct amu_ev_case.set) */
#define AMU_EV_TASK		BIT(0)	/* attach_state PERF_ATTACH_TASK */
#define AMU_EV_SAMPLING		BIT(1)	/* sample_period 1000 */
#define AMU_EV_EXCL_USER	BIT(2)
#define AMU_EV_EXCL_KERNEL	BIT(3)
#define AMU_EV_EXCL_HV		BIT(4)
#define AMU_EV_EXCL_IDLE	BIT(5)
#define AMU_EV_EXCL_HOST	BIT(6)
#define AMU_EV_EXCL_GUEST	BIT(7)
#define AMU_EV_TYPE_HW		BIT(8)	/* another PMU's type: PERF_TYPE_HARDWARE */
#define AMU_EV_CPU_ANY		BIT(9)	/* cpu -1: a per-task event */
#define AMU_EV_CPU_NONE		BIT(10)	/* cpu nr_cpu_ids: a CPU without an AMU */

/**
 * struct amu_ev_case - one event_init case on the model (cpu0: CG1NC = 2)
 * @name: description
 * @config: attr.config
 * @config1: attr.config1
 * @config2: attr.config2
 * @set: AMU_EV_* bits
 * @err: what event_init returns
 */
struct amu_ev_case {
	const char *name;
	u64 config, config1, config2;
	u32 set;
	int err;
};

static const struct amu_ev_case amu_ev_cases[] = {
	{ "group-0 counter 0", 0, 0, 0, 0, 0 },
	{ "group-0 counter 3", 3, 0, 0, 0, 0 },
	{ "group-1 counter 1", 0x101, 0, 0, 0, 0 },
	/* bad config: unknown bits, counters not implemented, config1/2 */
	{ "group-0 counter 4", 4, 0, 0, 0, -EINVAL },
	{ "group-1 counter 2 >= CG1NC", 0x102, 0, 0, 0, -EINVAL },
	{ "config bit 4", 0x10, 0, 0, 0, -EINVAL },
	{ "config bit 63", BIT_ULL(63), 0, 0, 0, -EINVAL },
	{ "config1", 0, 1, 0, 0, -EINVAL },
	{ "config2", 0, 0, 1, 0, -EINVAL },
	{ "another PMU's type", 0, 0, 0, AMU_EV_TYPE_HW, -ENOENT },
	{ "per task, cpu -1", 0, 0, 0, AMU_EV_CPU_ANY, -EOPNOTSUPP },
	{ "per task, attached", 0, 0, 0, AMU_EV_TASK, -EOPNOTSUPP },
	{ "sampling", 0, 0, 0, AMU_EV_SAMPLING, -EOPNOTSUPP },
	{ "exclude_user", 0, 0, 0, AMU_EV_EXCL_USER, -EOPNOTSUPP },
	{ "exclude_kernel", 0, 0, 0, AMU_EV_EXCL_KERNEL, -EOPNOTSUPP },
	{ "exclude_hv", 0, 0, 0, AMU_EV_EXCL_HV, -EOPNOTSUPP },
	{ "exclude_idle", 0, 0, 0, AMU_EV_EXCL_IDLE, -EOPNOTSUPP },
	{ "exclude_host", 0, 0, 0, AMU_EV_EXCL_HOST, -EINVAL },
	/* perf's default: -EINVAL makes it retry without */
	{ "exclude_guest", 0, 0, 0, AMU_EV_EXCL_GUEST, -EINVAL },
	{ "a CPU without an AMU", 0, 0, 0, AMU_EV_CPU_NONE, -ENODEV },
};

KUNIT_ARRAY_PARAM_DESC(amu_ev, amu_ev_cases, name);

/* event_init: each attr gets its errno, and nothing is written */
static void amu_pmu_event_init(struct kunit *test)
{
	const struct amu_ev_case *c = test->param_value;
	struct amu_test *t = test->priv;
	struct perf_event *ev;
	int cpu = 0;

	t->m.cg1nc[0] = 2;
	amu_discover_all(test, t);
	if (c->set & AMU_EV_CPU_ANY)
		cpu = -1;
	if (c->set & AMU_EV_CPU_NONE)
		cpu = nr_cpu_ids;
	ev = amu_event(test, t, c->config, cpu);
	ev->attr.config1 = c->config1;
	ev->attr.config2 = c->config2;
	if (c->set & AMU_EV_TYPE_HW)
		ev->attr.type = PERF_TYPE_HARDWARE;
	if (c->set & AMU_EV_TASK)
		ev->attach_state = PERF_ATTACH_TASK;
	if (c->set & AMU_EV_SAMPLING)
		ev->attr.sample_period = 1000;
	ev->attr.exclude_user = !!(c->set & AMU_EV_EXCL_USER);
	ev->attr.exclude_kernel = !!(c->set & AMU_EV_EXCL_KERNEL);
	ev->attr.exclude_hv = !!(c->set & AMU_EV_EXCL_HV);
	ev->attr.exclude_idle = !!(c->set & AMU_EV_EXCL_IDLE);
	ev->attr.exclude_host = !!(c->set & AMU_EV_EXCL_HOST);
	ev->attr.exclude_guest = !!(c->set & AMU_EV_EXCL_GUEST);
	KUNIT_EXPECT_EQ(test, amu_init_ev(test, t, ev), c->err);
	KUNIT_EXPECT_EQ(test, t->m.writes, 0);
}

/*
 * Deltas of free-running 64-bit counters, across 2^32 and 2^40 (a 64-bit wrap is a reset:
 * amu_pmu_counter_reset); nothing is ever written
 */
static void amu_pmu_deltas(struct kunit *test)
{
	struct amu_test *t = test->priv;
	struct perf_event *ev0, *ev1;
	struct pmu *pmu = &t->amu.pmu;
	unsigned int cpu;

	amu_discover_all(test, t);
	/* perf core calls add/del/start/stop/read on the event's CPU, IRQs off */
	migrate_disable();
	cpu = smp_processor_id();
	ev0 = amu_event(test, t, APMU_AMU_G0_CORE, cpu);
	ev1 = amu_event(test, t, APMU_AMU_CFG_GROUP | 3, cpu);
	KUNIT_EXPECT_EQ(test, pmu->event_init(ev0), 0);
	KUNIT_EXPECT_EQ(test, pmu->event_init(ev1), 0);
	local_irq_disable();
	t->m.cnt0[cpu][APMU_AMU_G0_CORE] = BIT_ULL(32) - 5;
	t->m.cnt1[cpu][3] = 1ULL << 63;
	KUNIT_EXPECT_EQ(test, pmu->add(ev0, PERF_EF_START), 0);
	KUNIT_EXPECT_EQ(test, pmu->add(ev1, PERF_EF_START), 0);
	t->m.cnt0[cpu][APMU_AMU_G0_CORE] += 10;		/* crosses 2^32 */
	t->m.cnt1[cpu][3] += 1ULL << 40;
	pmu->read(ev0);
	pmu->read(ev1);
	KUNIT_EXPECT_EQ(test, local64_read(&ev0->count), 10);
	KUNIT_EXPECT_EQ(test, local64_read(&ev1->count), 1ULL << 40);
	t->m.cnt0[cpu][APMU_AMU_G0_CORE] += 1000;
	pmu->stop(ev0, PERF_EF_UPDATE);
	t->m.cnt0[cpu][APMU_AMU_G0_CORE] += 77;		/* stopped: not counted */
	pmu->read(ev0);
	KUNIT_EXPECT_EQ(test, local64_read(&ev0->count), 1010);
	pmu->start(ev0, 0);
	t->m.cnt0[cpu][APMU_AMU_G0_CORE] += 3;
	pmu->del(ev0, 0);
	pmu->del(ev1, 0);
	t->m.cnt0[cpu][APMU_AMU_G0_CORE] += 5;		/* deleted: not counted */
	local_irq_enable();
	migrate_enable();
	KUNIT_EXPECT_EQ(test, local64_read(&ev0->count), 1013);
	KUNIT_EXPECT_EQ(test, local64_read(&ev1->count), 1ULL << 40);
	/* free-running: never reset, reprogrammed, enabled or disabled */
	KUNIT_EXPECT_EQ(test, t->m.writes, 0);
	KUNIT_EXPECT_EQ(test, t->m.cnt0[cpu][APMU_AMU_G0_CORE], BIT_ULL(32) - 5 + 1095);
}

/*
 * A counter found below its last value was reset by something no CPU PM notification
 * announced (firmware): the event adds the count since the reset, not ~2^64, and goes on
 * from there (power-down with notifications: amu_pm_power_cycle_counts)
 */
static void amu_pmu_counter_reset(struct kunit *test)
{
	struct amu_test *t = test->priv;
	struct pmu *pmu = &t->amu.pmu;
	struct perf_event *ev;
	unsigned int cpu;

	amu_discover_all(test, t);
	migrate_disable();
	cpu = smp_processor_id();
	ev = amu_event(test, t, APMU_AMU_G0_INST, cpu);
	KUNIT_EXPECT_EQ(test, pmu->event_init(ev), 0);
	local_irq_disable();
	t->m.cnt0[cpu][APMU_AMU_G0_INST] = 1000000;
	KUNIT_EXPECT_EQ(test, pmu->add(ev, PERF_EF_START), 0);
	t->m.cnt0[cpu][APMU_AMU_G0_INST] += 500;
	pmu->read(ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), 500);
	t->m.cnt0[cpu][APMU_AMU_G0_INST] = 40;		/* reset, then 40 counted */
	pmu->read(ev);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), 540);
	t->m.cnt0[cpu][APMU_AMU_G0_INST] += 2;		/* re-based on the reset value */
	pmu->del(ev, 0);
	local_irq_enable();
	migrate_enable();
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), 542);
	KUNIT_EXPECT_EQ(test, t->m.writes, 0);
}

/*
 * A rediscovery after event_init took counter n away (CG1NC now smaller): the event's
 * reads re-check it, so AMEVCNTR1<n> is never read (the model fails the test if it is)
 */
static void amu_pmu_rediscovered(struct kunit *test)
{
	struct amu_test *t = test->priv;
	struct pmu *pmu = &t->amu.pmu;
	struct perf_event *ev;
	unsigned int cpu;

	amu_discover_all(test, t);
	migrate_disable();
	cpu = smp_processor_id();
	if (cpu >= APMU_AMU_MODEL_CPUS) {
		migrate_enable();
		kunit_skip(test, "cpu%u is beyond the model", cpu);
	}
	ev = amu_event(test, t, APMU_AMU_CFG_GROUP | 3, cpu);
	KUNIT_EXPECT_EQ(test, pmu->event_init(ev), 0);
	t->m.en1[cpu] = BIT(3);
	t->m.cnt1[cpu][3] = 100;
	local_irq_disable();
	KUNIT_EXPECT_EQ(test, pmu->add(ev, PERF_EF_START), 0);
	t->m.cnt1[cpu][3] += 7;
	pmu->read(ev);
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), 7);
	t->m.cg1nc[cpu] = 2;
	KUNIT_EXPECT_EQ(test, apmu_amu_discover(&t->amu, cpu), 0);
	KUNIT_EXPECT_EQ(test, t->amu.info[cpu].cg1nc, 2);
	local_irq_disable();
	pmu->read(ev);
	pmu->del(ev, 0);
	local_irq_enable();
	migrate_enable();
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), 7);
	/* and a new event on it is refused */
	KUNIT_EXPECT_EQ(test, pmu->event_init(amu_event(test, t, APMU_AMU_CFG_GROUP | 3, cpu)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, apmu_amu_model_check(&t->m), 0);
}

/*
 * A group-0 counter that firmware left disabled (AMCNTENSET0_EL0.P<n> == 0) counts nothing:
 * not offered (no file, no event), rather than shown as a silent constant; offered in the
 * PMU's events/ while some CPU has it
 */
static void amu_group0_disabled(struct kunit *test)
{
	struct amu_test *t = test->priv;
	unsigned int cpu;

	for (cpu = 0; cpu < APMU_AMU_MODEL_CPUS; cpu++)
		t->m.en0[cpu] = BIT(APMU_AMU_G0_CORE) | BIT(APMU_AMU_G0_CONST);
	if (num_online_cpus() > 1)
		t->m.en0[1] |= BIT(APMU_AMU_G0_INST);
	amu_discover_all(test, t);
	KUNIT_EXPECT_EQ(test, t->amu.info[0].g0, 0x3);
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "core_cycles"), 0400);
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "inst_retired"), 0);
	KUNIT_EXPECT_EQ(test, amu_mode(t, 0, "mem_stall_cycles"), 0);
	KUNIT_EXPECT_STREQ(test, amu_show(test, t, 0, "mem_stall_cycles"), "error -2");
	KUNIT_EXPECT_EQ(test, amu_init_ev(test, t, amu_event(test, t, APMU_AMU_G0_INST, 0)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amu_init_ev(test, t, amu_event(test, t, APMU_AMU_G0_STALL, 0)),
			-EINVAL);
	KUNIT_EXPECT_FALSE(test, t->amu.g0 & BIT(APMU_AMU_G0_STALL));
	if (num_online_cpus() > 1) {
		KUNIT_EXPECT_TRUE(test, t->amu.g0 & BIT(APMU_AMU_G0_INST));
		KUNIT_EXPECT_EQ(test, amu_mode(t, 1, "inst_retired"), 0400);
	}
	KUNIT_EXPECT_EQ(test, t->m.writes, 0);
}

/*
 * Core power-down between two reads, through the CPU PM notifier's body on this CPU:
 * fold at CPU_PM_ENTER, AMU reset, re-base at CPU_PM_EXIT. One cycle, several, one after
 * which the counter climbs past its old value; a failed entry (no reset) loses nothing.
 */
static void amu_pm_power_cycle_counts(struct kunit *test)
{
	struct amu_test *t = test->priv;
	struct pmu *pmu = &t->amu.pmu;
	struct perf_event *ev0, *ev1;
	unsigned int cpu, i;
	u64 want = 0;

	for (cpu = 0; cpu < APMU_AMU_MODEL_CPUS; cpu++)
		t->m.en1[cpu] = BIT(2);
	amu_discover_all(test, t);
	migrate_disable();
	cpu = smp_processor_id();
	if (cpu >= APMU_AMU_MODEL_CPUS) {
		migrate_enable();
		kunit_skip(test, "cpu%u is beyond the model", cpu);
	}
	ev0 = amu_event(test, t, APMU_AMU_G0_INST, cpu);
	ev1 = amu_event(test, t, APMU_AMU_CFG_GROUP | 2, cpu);
	KUNIT_EXPECT_EQ(test, pmu->event_init(ev0), 0);
	KUNIT_EXPECT_EQ(test, pmu->event_init(ev1), 0);
	local_irq_disable();
	t->m.cnt0[cpu][APMU_AMU_G0_INST] = 1000000;
	t->m.cnt1[cpu][2] = 1000000;
	KUNIT_EXPECT_EQ(test, pmu->add(ev0, PERF_EF_START), 0);
	KUNIT_EXPECT_EQ(test, pmu->add(ev1, PERF_EF_START), 0);
	apmu_amu_model_advance(&t->m, cpu, 500);
	want += 500;
	pmu->read(ev0);
	KUNIT_EXPECT_EQ(test, local64_read(&ev0->count), want);
	/* one power-down, 600 counted before it, 1000600 after: more than before */
	apmu_amu_model_advance(&t->m, cpu, 600);
	apmu_amu_cpu_pm(&t->amu, CPU_PM_ENTER);
	apmu_amu_model_power_cycle(&t->m, cpu);
	apmu_amu_cpu_pm(&t->amu, CPU_PM_EXIT);
	apmu_amu_model_advance(&t->m, cpu, 1000600);
	want += 600 + 1000600;
	pmu->read(ev0);
	pmu->read(ev1);
	KUNIT_EXPECT_EQ(test, local64_read(&ev0->count), want);
	KUNIT_EXPECT_EQ(test, local64_read(&ev1->count), want);
	/* several between two reads */
	for (i = 0; i < 3; i++) {
		apmu_amu_model_advance(&t->m, cpu, 10 + i);
		want += 10 + i;
		apmu_amu_cpu_pm(&t->amu, CPU_PM_ENTER);
		apmu_amu_model_power_cycle(&t->m, cpu);
		apmu_amu_cpu_pm(&t->amu, CPU_PM_EXIT);
	}
	apmu_amu_model_advance(&t->m, cpu, 3);
	want += 3;
	/* a failed entry: no reset, the counters go on */
	apmu_amu_cpu_pm(&t->amu, CPU_PM_ENTER);
	apmu_amu_model_advance(&t->m, cpu, 4);
	apmu_amu_cpu_pm(&t->amu, CPU_PM_ENTER_FAILED);
	apmu_amu_model_advance(&t->m, cpu, 5);
	want += 9;
	pmu->read(ev0);
	pmu->read(ev1);
	KUNIT_EXPECT_EQ(test, local64_read(&ev0->count), want);
	KUNIT_EXPECT_EQ(test, local64_read(&ev1->count), want);
	/* a stopped event is neither folded nor re-based; a deleted one is off the list */
	pmu->stop(ev1, PERF_EF_UPDATE);
	pmu->del(ev0, 0);
	apmu_amu_cpu_pm(&t->amu, CPU_PM_ENTER);
	apmu_amu_model_power_cycle(&t->m, cpu);
	apmu_amu_cpu_pm(&t->amu, CPU_PM_EXIT);
	pmu->del(ev1, 0);
	local_irq_enable();
	migrate_enable();
	KUNIT_EXPECT_EQ(test, local64_read(&ev0->count), want);
	KUNIT_EXPECT_EQ(test, local64_read(&ev1->count), want);
}

/*
 * An AMU reset clears the group-1 enables: the state wanted (found, then written through
 * aux<n>_enable) comes back at CPU_PM_EXIT, only where apmu may write them
 */
static void amu_pm_restores_enables(struct kunit *test)
{
	struct amu_test *t = test->priv;
	unsigned int cpu, writes;

	migrate_disable();
	cpu = smp_processor_id();
	if (cpu >= APMU_AMU_MODEL_CPUS) {
		migrate_enable();
		kunit_skip(test, "cpu%u is beyond the model", cpu);
	}
	t->m.en1[cpu] = BIT(0) | BIT(2);	/* as firmware left them */
	KUNIT_EXPECT_EQ(test, apmu_amu_discover(&t->amu, cpu), 0);
	KUNIT_EXPECT_EQ(test, amu_store(t, cpu, "aux1_enable", "1"), 1);
	KUNIT_EXPECT_EQ(test, amu_store(t, cpu, "aux2_enable", "0"), 1);
	KUNIT_EXPECT_EQ(test, t->m.en1[cpu], BIT(0) | BIT(1));
	local_irq_disable();
	apmu_amu_cpu_pm(&t->amu, CPU_PM_ENTER);
	apmu_amu_model_power_cycle(&t->m, cpu);
	apmu_amu_cpu_pm(&t->amu, CPU_PM_EXIT);
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, t->m.en1[cpu], BIT(0) | BIT(1));
	KUNIT_EXPECT_STREQ(test, amu_show(test, t, cpu, "aux1_enable"), "1\n");
	KUNIT_EXPECT_STREQ(test, amu_show(test, t, cpu, "aux2_enable"), "0\n");
	/* nothing lost: nothing written */
	writes = t->m.writes;
	local_irq_disable();
	apmu_amu_cpu_pm(&t->amu, CPU_PM_ENTER);
	apmu_amu_cpu_pm(&t->amu, CPU_PM_EXIT);
	apmu_amu_restore_en1(&t->amu);
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, t->m.writes, writes);
	/* below the highest EL (EL3 implemented): never written, a reset stays */
	t->m.el3[cpu] = 1;
	KUNIT_EXPECT_EQ(test, apmu_amu_discover(&t->amu, cpu), 0);
	local_irq_disable();
	apmu_amu_cpu_pm(&t->amu, CPU_PM_ENTER);
	apmu_amu_model_power_cycle(&t->m, cpu);
	apmu_amu_cpu_pm(&t->amu, CPU_PM_EXIT);
	local_irq_enable();
	migrate_enable();
	KUNIT_EXPECT_EQ(test, t->m.en1[cpu], 0);
	KUNIT_EXPECT_EQ(test, t->m.writes, writes);
}

static struct kunit_case amu_cases[] = {
	KUNIT_CASE(amu_discover_not_enabled),
	KUNIT_CASE(amu_discover_mixed),
	KUNIT_CASE(amu_discover_counts),
	KUNIT_CASE(amu_discover_group0_only),
	KUNIT_CASE(amu_discover_v1p1),
	KUNIT_CASE(amu_sysfs_group0),
	KUNIT_CASE(amu_sysfs_const_broken),
	KUNIT_CASE(amu_sysfs_group1),
	KUNIT_CASE(amu_write_bit_n_only),
	KUNIT_CASE(amu_write_bad),
	KUNIT_CASE_PARAM(amu_write_el_rule, amu_el_gen_params),
	KUNIT_CASE(amu_model_strict),
	KUNIT_CASE_PARAM(amu_pmu_event_init, amu_ev_gen_params),
	KUNIT_CASE(amu_pmu_deltas),
	KUNIT_CASE(amu_pmu_counter_reset),
	KUNIT_CASE(amu_pmu_rediscovered),
	KUNIT_CASE(amu_group0_disabled),
	KUNIT_CASE(amu_pm_power_cycle_counts),
	KUNIT_CASE(amu_pm_restores_enables),
	{}
};

static struct kunit_suite apmu_amu_suite = {
	.name = "apmu_amu",
	.init = amu_test_init,
	.exit = amu_test_exit,
	.test_cases = amu_cases,
};

kunit_test_suite(apmu_amu_suite);
