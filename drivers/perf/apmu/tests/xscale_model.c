// SPDX-License-Identifier: GPL-2.0
/*
 * The XScale performance monitor register model (xscale_model.h has the rules).
 */
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/bitfield.h>
#include <linux/bits.h>

#include "xscale_model.h"

/* PMNC fields common to both layouts */
#define XS_PMNC_E		BIT(0)
#define XS_PMNC_P		BIT(1)
#define XS_PMNC_C		BIT(2)
#define XS_PMNC_D		BIT(3)
/* XScale2 */
#define XS2_PMNC_ID		GENMASK(31, 24)
#define XS2_PMNC_RES0		GENMASK(23, 4)
#define XS2_FLAG_MASK		GENMASK(4, 0)
/* XScale1: interrupt enables [6:4] and flags [10:8] in the order PMN0, PMN1, CCNT */
#define XS1_PMNC_INTEN		GENMASK(6, 4)
#define XS1_PMNC_FLAG		GENMASK(10, 8)
#define XS1_PMNC_EVT0		GENMASK(19, 12)
#define XS1_PMNC_EVT1		GENMASK(27, 20)
#define XS1_PMNC_RES0		(BIT(7) | BIT(11) | GENMASK(31, 28))

static struct apmu_xs_model *cur;

static const char *const reg_names[APMU_XS_NR_REGS] = {
	[APMU_XS_PMNC] = "PMNC", [APMU_XS_CCNT] = "CCNT", [APMU_XS_INTEN] = "INTEN",
	[APMU_XS_FLAG] = "FLAG", [APMU_XS_EVTSEL] = "EVTSEL", [APMU_XS_PMN0] = "PMN0",
	[APMU_XS_PMN1] = "PMN1", [APMU_XS_PMN2] = "PMN2", [APMU_XS_PMN3] = "PMN3",
};

void apmu_xs_model_init(struct apmu_xs_model *m, bool xscale2)
{
	*m = (struct apmu_xs_model) {
		.xscale2 = xscale2,
		.nr_pmn = xscale2 ? 4 : 2,
		.pmnc = xscale2 ? FIELD_PREP(XS2_PMNC_ID, APMU_XS2_PMNC_ID) : 0,
		/* EVTSEL's reset value is unpredictable (table 59): not 0xFF */
		.evt = { 0x5a, 0x5a, 0x5a, 0x5a },
	};
}

void apmu_xs_model_select(struct apmu_xs_model *m)
{
	cur = m;
}

static __printf(2, 3) void xs_violation(struct apmu_xs_model *m, const char *fmt, ...)
{
	struct kunit *test = kunit_get_current_test();
	struct va_format vaf;
	va_list args;

	m->violations++;
	m->last = fmt;
	if (m->selftest || !test)
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	KUNIT_FAIL(test, KUNIT_SUBTEST_INDENT "XScale model: %pV", &vaf);
	va_end(args);
}

/* The register exists on this variant */
static bool xs_exists(struct apmu_xs_model *m, enum apmu_xs_reg reg)
{
	switch (reg) {
	case APMU_XS_PMNC:
	case APMU_XS_CCNT:
	case APMU_XS_PMN0:
	case APMU_XS_PMN1:
		return true;
	case APMU_XS_INTEN:
	case APMU_XS_FLAG:
	case APMU_XS_EVTSEL:
	case APMU_XS_PMN2:
	case APMU_XS_PMN3:
		return m->xscale2;
	default:
		return false;
	}
}

/* XScale1 keeps PMN0, PMN1, CCNT in PMNC bit order; the model numbers CCNT, PMN0, PMN1 */
static u32 xs1_bits_to_model(u32 bits)
{
	return ((bits & 0x3) << 1) | ((bits >> 2) & 1);
}

static u32 xs1_model_to_bits(u32 mask)
{
	return ((mask >> 1) & 0x3) | ((mask & 1) << 2);
}

/*
 * "Power can be saved by selecting event 0xFF for any unused event counter. This only
 * applies when other event counters are in use. When the performance monitor is not used
 * at all (PMNC.E = 0x0), hardware ensures minimal power consumption." INTEN is the set of
 * counters in use (header comment). Checked whenever PMNC.E is set.
 */
static void xs_check_power(struct apmu_xs_model *m, const char *when)
{
	unsigned int n;

	if (!(m->pmnc & XS_PMNC_E))
		return;
	if (!m->inten) {
		xs_violation(m, "PMNC.E set with no counter in use (%s)", when);
		return;
	}
	for (n = 0; n < m->nr_pmn; n++)
		if (!(m->inten & BIT(APMU_XS_PMN_BIT(n))) && m->evt[n] != APMU_XS_EVT_UNUSED)
			xs_violation(m, "unused PMN%u selects %#x, not 0xFF, others counting (%s)",
				     n, m->evt[n], when);
}

/*
 * PMNC.P (bit 1) and PMNC.C (bit 2) are "Read-unpredictable / Write" in both layouts
 * (80200 and PXA27x manuals, PMNC): the model reads them as 1, the value that hurts, so a
 * read-modify-write that does not clear them resets the counters and fails the test.
 */
static u32 xs_read_pmnc(struct apmu_xs_model *m)
{
	u32 v = m->pmnc | XS_PMNC_P | XS_PMNC_C;

	if (m->xscale2)
		return v;
	return v | FIELD_PREP(XS1_PMNC_INTEN, xs1_model_to_bits(m->inten)) |
	       FIELD_PREP(XS1_PMNC_FLAG, xs1_model_to_bits(m->flag)) |
	       FIELD_PREP(XS1_PMNC_EVT0, m->evt[0]) | FIELD_PREP(XS1_PMNC_EVT1, m->evt[1]);
}

u32 apmu_xs_model_read(enum apmu_xs_reg reg)
{
	struct apmu_xs_model *m = cur;

	m->reads++;
	if (!xs_exists(m, reg)) {
		xs_violation(m, "UNDEFINED read of %s on XScale1",
			     reg < APMU_XS_NR_REGS ? reg_names[reg] : "?");
		return 0;
	}
	switch (reg) {
	case APMU_XS_PMNC:
		return xs_read_pmnc(m);
	case APMU_XS_CCNT:
		return m->ccnt;
	case APMU_XS_INTEN:
		return m->inten;
	case APMU_XS_FLAG:
		return m->flag;
	case APMU_XS_EVTSEL:
		return m->evt[0] | m->evt[1] << 8 | m->evt[2] << 16 | (u32)m->evt[3] << 24;
	default:
		return m->pmn[reg - APMU_XS_PMN0];
	}
}

/*
 * "first disable the facility (PMNC.E) and then modify EVTSEL": an EVTSEL write while E
 * is set is a violation even when it writes the same value (XScale2); on XScale1 a PMNC
 * write that changes a select must find E clear and leave it clear (@e_after).
 */
static void xs_write_evt(struct apmu_xs_model *m, const u8 *evt, bool whole, bool e_after)
{
	bool changed = memcmp(m->evt, evt, m->nr_pmn);

	if (!whole && !changed)
		return;
	m->evtsel_writes++;
	if (m->pmnc & XS_PMNC_E)
		xs_violation(m, "event select written while PMNC.E is set (unpredictable)");
	else if (changed && e_after)
		xs_violation(m, "event select changed by the PMNC write that sets E");
	memcpy(m->evt, evt, m->nr_pmn);
}

static void xs_write_pmnc(struct apmu_xs_model *m, u32 val)
{
	u32 res0 = m->xscale2 ? XS2_PMNC_RES0 : XS1_PMNC_RES0;

	if (val & res0)
		xs_violation(m, "PMNC reserved bits written as 1 (%#x)", val & res0);
	if (!m->xscale2) {
		u8 evt[2] = { FIELD_GET(XS1_PMNC_EVT0, val), FIELD_GET(XS1_PMNC_EVT1, val) };

		xs_write_evt(m, evt, false, val & XS_PMNC_E);
		m->inten = xs1_bits_to_model(FIELD_GET(XS1_PMNC_INTEN, val));
		/* the flags are write-one-to-clear */
		m->flag &= ~xs1_bits_to_model(FIELD_GET(XS1_PMNC_FLAG, val));
	}
	if (val & XS_PMNC_P)
		memset(m->pmn, 0, sizeof(m->pmn));
	if (val & XS_PMNC_C)
		m->ccnt = 0;
	m->pmnc = (m->pmnc & (m->xscale2 ? XS2_PMNC_ID : 0)) | (val & (XS_PMNC_E | XS_PMNC_D));
	xs_check_power(m, "PMNC write");
}

void apmu_xs_model_write(enum apmu_xs_reg reg, u32 val)
{
	struct apmu_xs_model *m = cur;
	u8 evt[4];

	m->writes++;
	if (!xs_exists(m, reg)) {
		xs_violation(m, "UNDEFINED write of %s on XScale1",
			     reg < APMU_XS_NR_REGS ? reg_names[reg] : "?");
		return;
	}
	switch (reg) {
	case APMU_XS_PMNC:
		xs_write_pmnc(m, val);
		return;
	case APMU_XS_CCNT:
		m->ccnt = val;
		return;
	case APMU_XS_INTEN:
		if (val & ~XS2_FLAG_MASK)
			xs_violation(m, "INTEN reserved bits written as 1 (%#x)", val);
		m->inten = val & XS2_FLAG_MASK;
		return;
	case APMU_XS_FLAG:
		if (val & ~XS2_FLAG_MASK)
			xs_violation(m, "FLAG reserved bits written as 1 (%#x)", val);
		m->flag &= ~val;
		return;
	case APMU_XS_EVTSEL:
		evt[0] = val;
		evt[1] = val >> 8;
		evt[2] = val >> 16;
		evt[3] = val >> 24;
		xs_write_evt(m, evt, true, false);
		return;
	default:
		m->pmn[reg - APMU_XS_PMN0] = val;
		return;
	}
}

/* Add @n to a 32-bit counter; every wrap sets its flag, and it goes on counting */
static void xs_advance(struct apmu_xs_model *m, u32 *cnt, unsigned int bit, u64 n)
{
	u64 sum = (u64)*cnt + n;

	if (sum >> 32)
		m->flag |= BIT(bit);
	*cnt = (u32)sum;
}

/**
 * apmu_xs_model_count() - @n events numbered @evt happen while the core runs
 * @m: the model
 * @evt: the event number (0xFF counts nothing)
 * @n: how many
 */
void apmu_xs_model_count(struct apmu_xs_model *m, u8 evt, u64 n)
{
	unsigned int i;

	if (!(m->pmnc & XS_PMNC_E))
		return;
	xs_check_power(m, "counting");
	if (evt == APMU_XS_EVT_UNUSED)
		return;
	for (i = 0; i < m->nr_pmn; i++)
		if (m->evt[i] == evt)
			xs_advance(m, &m->pmn[i], APMU_XS_PMN_BIT(i), n);
}

/**
 * apmu_xs_model_cycles() - @n core clock cycles pass
 * @m: the model
 * @n: how many (CCNT counts one in 64 with PMNC.D)
 */
void apmu_xs_model_cycles(struct apmu_xs_model *m, u64 n)
{
	if (!(m->pmnc & XS_PMNC_E))
		return;
	xs_check_power(m, "counting");
	if (m->pmnc & XS_PMNC_D) {
		n += m->div;
		m->div = n % 64;
		n /= 64;
	}
	xs_advance(m, &m->ccnt, APMU_XS_CCNT_BIT, n);
}

/**
 * apmu_xs_model_irq() - the overflow interrupt request
 * @m: the model
 *
 * Return: some counter's flag and interrupt enable are both set (PMNC.E does not matter).
 */
bool apmu_xs_model_irq(const struct apmu_xs_model *m)
{
	return m->flag & m->inten;
}
