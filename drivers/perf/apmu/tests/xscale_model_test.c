// SPDX-License-Identifier: GPL-2.0
/*
 * The XScale register model's own tests: each rule of xscale_model.h, on the model alone,
 * so that the driver's tests can trust what it reports.
 */
#include <kunit/test.h>

#include "xscale_model.h"

static struct apmu_xs_model *xs_new(struct kunit *test, bool xscale2)
{
	struct apmu_xs_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	apmu_xs_model_init(m, xscale2);
	m->selftest = true;
	apmu_xs_model_select(m);
	return m;
}

/* "The counters continue to record events even after they overflow" */
static void counts_on_after_overflow(struct kunit *test)
{
	struct apmu_xs_model *m = xs_new(test, true);

	apmu_xs_model_write(APMU_XS_EVTSEL, 0xffffff07);
	apmu_xs_model_write(APMU_XS_INTEN, BIT(APMU_XS_PMN_BIT(0)));
	apmu_xs_model_write(APMU_XS_PMN0, 0xfffffffe);
	apmu_xs_model_write(APMU_XS_PMNC, 1);
	apmu_xs_model_count(m, APMU_XS_EVT_INSTRUCTION, 5);
	KUNIT_EXPECT_EQ(test, apmu_xs_model_read(APMU_XS_PMN0), 3);
	KUNIT_EXPECT_EQ(test, apmu_xs_model_read(APMU_XS_FLAG), BIT(APMU_XS_PMN_BIT(0)));
	KUNIT_EXPECT_TRUE(test, apmu_xs_model_irq(m));
	KUNIT_EXPECT_EQ(test, m->violations, 0);
}

/* The request stays until the flag is written with 1; clearing PMNC.E does not end it */
static void irq_until_flag_written_one(struct kunit *test)
{
	struct apmu_xs_model *m = xs_new(test, true);

	apmu_xs_model_write(APMU_XS_EVTSEL, 0xffffffff);
	apmu_xs_model_write(APMU_XS_INTEN, BIT(APMU_XS_CCNT_BIT));
	apmu_xs_model_write(APMU_XS_CCNT, 0xffffffff);
	apmu_xs_model_write(APMU_XS_PMNC, 1);
	apmu_xs_model_cycles(m, 1);
	KUNIT_EXPECT_TRUE(test, apmu_xs_model_irq(m));
	apmu_xs_model_write(APMU_XS_PMNC, 0);
	KUNIT_EXPECT_TRUE(test, apmu_xs_model_irq(m));
	apmu_xs_model_write(APMU_XS_FLAG, 0);
	KUNIT_EXPECT_TRUE(test, apmu_xs_model_irq(m));
	apmu_xs_model_write(APMU_XS_FLAG, BIT(APMU_XS_PMN_BIT(2)));
	KUNIT_EXPECT_TRUE(test, apmu_xs_model_irq(m));
	apmu_xs_model_write(APMU_XS_FLAG, BIT(APMU_XS_CCNT_BIT));
	KUNIT_EXPECT_FALSE(test, apmu_xs_model_irq(m));
	KUNIT_EXPECT_EQ(test, m->violations, 0);
}

/* "first disable the facility (PMNC.E) and then modify EVTSEL" */
static void evtsel_needs_e_clear(struct kunit *test)
{
	struct apmu_xs_model *m = xs_new(test, true);

	apmu_xs_model_write(APMU_XS_EVTSEL, 0xffffff00);
	apmu_xs_model_write(APMU_XS_INTEN, BIT(APMU_XS_PMN_BIT(0)));
	apmu_xs_model_write(APMU_XS_PMNC, 1);
	KUNIT_EXPECT_EQ(test, m->violations, 0);
	/* even the same value again */
	apmu_xs_model_write(APMU_XS_EVTSEL, 0xffffff00);
	KUNIT_EXPECT_EQ(test, m->violations, 1);
	apmu_xs_model_write(APMU_XS_EVTSEL, 0xffffff01);
	KUNIT_EXPECT_EQ(test, m->violations, 2);
}

/* XScale1: the selects are in PMNC, and changing them with E set is the same fault */
static void xscale1_pmnc_evt_needs_e_clear(struct kunit *test)
{
	struct apmu_xs_model *m = xs_new(test, false);

	/* evt0 0x07, evt1 0xff, PMN0's interrupt (bit 4), then E */
	apmu_xs_model_write(APMU_XS_PMNC, 0x07 << 12 | 0xff << 20 | BIT(4));
	apmu_xs_model_write(APMU_XS_PMNC, 0x07 << 12 | 0xff << 20 | BIT(4) | 1);
	KUNIT_EXPECT_EQ(test, m->violations, 0);
	apmu_xs_model_count(m, APMU_XS_EVT_INSTRUCTION, 2);
	KUNIT_EXPECT_EQ(test, apmu_xs_model_read(APMU_XS_PMN0), 2);
	apmu_xs_model_write(APMU_XS_PMNC, 0x08 << 12 | 0xff << 20 | BIT(4) | 1);
	KUNIT_EXPECT_EQ(test, m->violations, 1);
	/* E clear before, but set by the same write that changes the select */
	apmu_xs_model_write(APMU_XS_PMNC, 0x08 << 12 | 0xff << 20 | BIT(4));
	apmu_xs_model_write(APMU_XS_PMNC, 0x09 << 12 | 0xff << 20 | BIT(4) | 1);
	KUNIT_EXPECT_EQ(test, m->violations, 2);
}

/* XScale1 has no INTEN, FLAG, EVTSEL, PMN2 or PMN3 */
static void xscale1_undefined(struct kunit *test)
{
	struct apmu_xs_model *m = xs_new(test, false);

	apmu_xs_model_read(APMU_XS_INTEN);
	apmu_xs_model_write(APMU_XS_FLAG, 1);
	apmu_xs_model_write(APMU_XS_EVTSEL, 0xffffffff);
	apmu_xs_model_read(APMU_XS_PMN2);
	apmu_xs_model_read(APMU_XS_PMN3);
	KUNIT_EXPECT_EQ(test, m->violations, 5);
}

/* XScale1's flags in PMNC [10:8] are write-one-to-clear, in the order PMN0, PMN1, CCNT */
static void xscale1_flags_in_pmnc(struct kunit *test)
{
	struct apmu_xs_model *m = xs_new(test, false);
	u32 ctl = 0x07 << 12 | 0xff << 20 | BIT(4) | BIT(6);

	apmu_xs_model_write(APMU_XS_PMN0, 0xffffffff);
	apmu_xs_model_write(APMU_XS_CCNT, 0xffffffff);
	apmu_xs_model_write(APMU_XS_PMNC, ctl);
	apmu_xs_model_write(APMU_XS_PMNC, ctl | 1);
	apmu_xs_model_count(m, APMU_XS_EVT_INSTRUCTION, 1);
	apmu_xs_model_cycles(m, 1);
	KUNIT_EXPECT_EQ(test, apmu_xs_model_read(APMU_XS_PMNC) & 0x700, BIT(8) | BIT(10));
	KUNIT_EXPECT_TRUE(test, apmu_xs_model_irq(m));
	apmu_xs_model_write(APMU_XS_PMNC, ctl | 1 | BIT(8));
	KUNIT_EXPECT_EQ(test, apmu_xs_model_read(APMU_XS_PMNC) & 0x700, BIT(10));
	apmu_xs_model_write(APMU_XS_PMNC, ctl | 1 | BIT(10));
	KUNIT_EXPECT_FALSE(test, apmu_xs_model_irq(m));
	KUNIT_EXPECT_EQ(test, m->violations, 0);
}

/* An unused counter must select 0xFF while others count; E is clear when nothing counts */
static void power_rules(struct kunit *test)
{
	struct apmu_xs_model *m = xs_new(test, true);

	apmu_xs_model_write(APMU_XS_PMNC, 1);
	KUNIT_EXPECT_EQ(test, m->violations, 1);	/* nothing in use */
	apmu_xs_model_write(APMU_XS_PMNC, 0);
	apmu_xs_model_write(APMU_XS_EVTSEL, 0x00ff0007);
	apmu_xs_model_write(APMU_XS_INTEN, BIT(APMU_XS_PMN_BIT(0)));
	apmu_xs_model_write(APMU_XS_PMNC, 1);
	KUNIT_EXPECT_EQ(test, m->violations, 3);	/* PMN1 and PMN3 select 0x00 */
	apmu_xs_model_write(APMU_XS_PMNC, 0);
	apmu_xs_model_write(APMU_XS_EVTSEL, 0xffffff07);
	apmu_xs_model_write(APMU_XS_PMNC, 1);
	apmu_xs_model_count(m, APMU_XS_EVT_INSTRUCTION, 1);
	KUNIT_EXPECT_EQ(test, m->violations, 3);
}

/* P and C read as 0 and zero the counters, not the flags; D divides CCNT by 64 */
static void reset_bits_and_divider(struct kunit *test)
{
	struct apmu_xs_model *m = xs_new(test, true);

	apmu_xs_model_write(APMU_XS_EVTSEL, 0xffffff07);
	apmu_xs_model_write(APMU_XS_INTEN, BIT(APMU_XS_PMN_BIT(0)) | BIT(APMU_XS_CCNT_BIT));
	apmu_xs_model_write(APMU_XS_PMN0, 0xffffffff);
	apmu_xs_model_write(APMU_XS_PMNC, 1 | BIT(3));
	apmu_xs_model_count(m, APMU_XS_EVT_INSTRUCTION, 1);
	apmu_xs_model_cycles(m, 127);
	KUNIT_EXPECT_EQ(test, apmu_xs_model_read(APMU_XS_CCNT), 1);
	apmu_xs_model_cycles(m, 1);
	KUNIT_EXPECT_EQ(test, apmu_xs_model_read(APMU_XS_CCNT), 2);
	apmu_xs_model_write(APMU_XS_PMNC, 1 | BIT(1) | BIT(2));
	/* P and C read unpredictable: the model says 1 (a write-back would reset) */
	KUNIT_EXPECT_EQ(test, apmu_xs_model_read(APMU_XS_PMNC),
			APMU_XS2_PMNC_ID << 24 | BIT(2) | BIT(1) | 1);
	KUNIT_EXPECT_EQ(test, apmu_xs_model_read(APMU_XS_PMN0), 0);
	KUNIT_EXPECT_EQ(test, apmu_xs_model_read(APMU_XS_CCNT), 0);
	KUNIT_EXPECT_EQ(test, apmu_xs_model_read(APMU_XS_FLAG), BIT(APMU_XS_PMN_BIT(0)));
	apmu_xs_model_write(APMU_XS_INTEN, BIT(5));
	KUNIT_EXPECT_EQ(test, m->violations, 1);	/* reserved */
}

static struct kunit_case xs_model_cases[] = {
	KUNIT_CASE(counts_on_after_overflow),
	KUNIT_CASE(irq_until_flag_written_one),
	KUNIT_CASE(evtsel_needs_e_clear),
	KUNIT_CASE(xscale1_pmnc_evt_needs_e_clear),
	KUNIT_CASE(xscale1_undefined),
	KUNIT_CASE(xscale1_flags_in_pmnc),
	KUNIT_CASE(power_rules),
	KUNIT_CASE(reset_bits_and_divider),
	{}
};

static struct kunit_suite xs_model_suite = {
	.name = "apmu_xscale_model",
	.test_cases = xs_model_cases,
};

kunit_test_suite(xs_model_suite);
