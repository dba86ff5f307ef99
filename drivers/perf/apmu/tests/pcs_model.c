// SPDX-License-Identifier: GPL-2.0
/*
 * Register model of a PC-sampling external PMU frame or external debug frame: see
 * pcs_model.h for the rules.
 */
#define pr_fmt(fmt) "apmu_pcs_model: " fmt

#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/printk.h>

#include "pcs_model.h"

/**
 * apmu_pcs_model_init() - a powered-up, unlocked frame
 * @m: the model
 * @pcsample: PMDEVID.PCSample (1: FEAT_PCSRv8p2, 2: FEAT_PCSRv8p9 with PMPCSCTL)
 * @imp: PMPCSCTL.IMP
 * @ss: FEAT_PMUv3_SS (PMDEVID.PMSS)
 */
void apmu_pcs_model_init(struct apmu_pcs_model *m, unsigned int pcsample, bool imp, bool ss)
{
	*m = (struct apmu_pcs_model) {
		.devarch = FIELD_PREP(APMU_DEVARCH_ARCHITECT, APMU_ARCHITECT_ARM) |
			   APMU_DEVARCH_PRESENT |
			   FIELD_PREP(APMU_DEVARCH_ARCHID, APMU_ARCHID_PMUV3_EXT64),
		.devid = FIELD_PREP(APMU_PMDEVID_PCSAMPLE, pcsample) |
			 FIELD_PREP(APMU_PMDEVID_PMSS, ss ? 1 : 0),
		.imp = imp,
		.pu = true,
	};
}

/**
 * apmu_pcs_model_init_debug() - a powered-up, unlocked external debug frame
 * @m: the model
 * @pcsample: EDDEVID.PCSample (3: EDPCSR, EDCIDSR, EDVIDSR; 2: no EDVIDSR; 0: none)
 * @pcsroffset: EDDEVID1.PCSROffset (2: no offset, the only Armv8 value with EDPCSR)
 *
 * Samples are Non-secure AArch64 ones (EDVIDSR.NS and HV) until the test says otherwise.
 */
void apmu_pcs_model_init_debug(struct apmu_pcs_model *m, unsigned int pcsample,
			       unsigned int pcsroffset)
{
	*m = (struct apmu_pcs_model) {
		.debug = true,
		.devarch = FIELD_PREP(APMU_DEVARCH_ARCHITECT, APMU_ARCHITECT_ARM) |
			   APMU_DEVARCH_PRESENT |
			   FIELD_PREP(APMU_DEVARCH_ARCHID, 0x6000 | APMU_ARCHPART_DEBUG),
		.devid = FIELD_PREP(APMU_EDDEVID_PCSAMPLE, pcsample),
		.devid1 = FIELD_PREP(APMU_EDDEVID1_PCSROFFSET, pcsroffset),
		.vidsr = APMU_EDVIDSR_NS | APMU_EDVIDSR_HV,
		.pu = true,
	};
}

/**
 * apmu_pcs_model_power() - the core powers down or up (EDPRSR.PU)
 * @m: the model
 * @on: powered up
 *
 * Powering up is a Warm reset of the core's PMU: PMPCSCTL.EN and PMPCSCTL.SS ("On a Warm
 * reset, this field resets to '0'") come back as 0, whatever the driver had written.
 */
void apmu_pcs_model_power(struct apmu_pcs_model *m, bool on)
{
	if (on && !m->pu)
		m->ctl = 0;
	m->pu = on;
}

/**
 * apmu_pcs_model_pcsr() - a PMPCSR value
 * @pc: the sampled PC
 * @el: its Exception level
 * @ns: Non-secure
 *
 * Return: PMPCSR with PCSample[55:0], EL and NS.
 */
u64 apmu_pcs_model_pcsr(u64 pc, unsigned int el, bool ns)
{
	return (pc & APMU_PMPCSR_PC) | FIELD_PREP(APMU_PMPCSR_EL, el) |
	       (ns ? APMU_PMPCSR_NS : 0);
}

static void violation(struct apmu_pcs_model *m, const char *what, unsigned int off)
{
	struct kunit *test = kunit_get_current_test();

	m->violations++;
	snprintf(m->last, sizeof(m->last), "%s (offset 0x%03x)", what, off);
	if (test && preemptible()) {
		KUNIT_FAIL(test, "PC-sample frame model: %s", m->last);
		return;
	}
	/* Atomic context (the driver holds the unit's lock): no allocation for KUnit's log */
	pr_err("%s\n", m->last);
	if (test)
		kunit_set_failure(test);
}

static bool pcs_ss(const struct apmu_pcs_model *m)
{
	return FIELD_GET(APMU_PMDEVID_PCSAMPLE, m->devid) == APMU_PCSAMPLE_V8P9 &&
	       FIELD_GET(APMU_PMDEVID_PMSS, m->devid) == 1;
}

static bool has_ctl(const struct apmu_pcs_model *m)
{
	return FIELD_GET(APMU_PMDEVID_PCSAMPLE, m->devid) == APMU_PCSAMPLE_V8P9;
}

/* The error-response conditions of the frame's registers. Return: access allowed. */
static bool accessible(struct apmu_pcs_model *m, unsigned int off, bool write)
{
	if (!m->pu)
		violation(m, write ? "write with the core powered down" :
				     "read with the core powered down", off);
	else if (m->dlk)
		violation(m, write ? "write under the OS double lock" :
				     "read under the OS double lock", off);
	else if (m->oslk)
		violation(m, write ? "write under the OS lock" : "read under the OS lock", off);
	else
		return true;
	return false;
}

/* Reading PMPCSR[31:0] takes a sample and captures the context registers. */
static u32 take_sample(struct apmu_pcs_model *m)
{
	m->samples++;
	if ((has_ctl(m) && m->imp && !(m->ctl & APMU_PMPCSCTL_EN)) || !m->nseq) {
		m->latched = U64_MAX;
	} else {
		m->latched = m->seq[m->pos];
		m->pos = (m->pos + 1) % m->nseq;
	}
	m->lat_cid1 = m->cid1;
	m->lat_cid2 = m->cid2;
	m->lat_vmid = m->vmid;
	return lower_32_bits(m->latched);
}

static bool has_vidsr(const struct apmu_pcs_model *m)
{
	return FIELD_GET(APMU_EDDEVID_PCSAMPLE, m->devid) == APMU_EDPCSAMPLE_CID_VID;
}

/* EDPCSRlo: takes a sample and captures its context, unless the software lock is set */
static u32 take_debug_sample(struct apmu_pcs_model *m)
{
	u64 pc = m->nseq ? m->seq[m->pos] : U64_MAX;

	if (m->sli && m->slk) {
		violation(m, "EDPCSRlo read with the software lock set (stale context)",
			  APMU_EDPCSR_LO);
		m->lat_ok = false;
		return lower_32_bits(pc);
	}
	m->samples++;
	if (m->nseq)
		m->pos = (m->pos + 1) % m->nseq;
	m->latched = pc;
	m->lat_ok = lower_32_bits(pc) != APMU_PMPCSR_NO_SAMPLE;
	m->lat_cid1 = m->cid1;
	m->lat_vidsr = m->vidsr;
	return lower_32_bits(pc);
}

/* The context of the last sample: UNKNOWN unless a valid one was taken */
static u32 debug_context(struct apmu_pcs_model *m, unsigned int off, u32 val)
{
	if (!m->lat_ok)
		violation(m, "sample context read without a valid EDPCSRlo sample (UNKNOWN)", off);
	return val;
}

static u32 model_read_debug(struct apmu_pcs_model *m, unsigned int off)
{
	switch (off) {
	case APMU_EDDEVARCH:
		return m->devarch;
	case APMU_EDDEVID:
		return m->devid;
	case APMU_EDDEVID1:
		return m->devid1;
	case APMU_EDDEVAFF0:
		return lower_32_bits(m->devaff);
	case APMU_EDDEVAFF1:
		return upper_32_bits(m->devaff);
	case APMU_EDLSR:
		return (m->sli ? APMU_PMLSR_SLI : 0) | (m->sli && m->slk ? APMU_PMLSR_SLK : 0);
	case APMU_EDSCR:
		return m->sc2 ? APMU_EDSCR_SC2 : 0;
	case APMU_EDPCSR_LO:
		if (!FIELD_GET(APMU_EDDEVID_PCSAMPLE, m->devid))
			break;
		return take_debug_sample(m);
	case APMU_EDPCSR_HI:
		return debug_context(m, off, m->lat_vidsr & APMU_EDVIDSR_HV || !has_vidsr(m) ?
					     upper_32_bits(m->latched) : 0);
	case APMU_EDCIDSR:
		return debug_context(m, off, m->lat_cid1);
	case APMU_EDVIDSR:
		if (!has_vidsr(m))
			break;
		return debug_context(m, off, m->lat_vidsr);
	}
	violation(m, "read of a debug register the driver has no use for", off);
	return 0;
}

static u32 model_read(struct apmu_pcs_unit *u, unsigned int off)
{
	struct apmu_pcs_model *m = u->priv;

	m->reads++;
	if (READ_ONCE(m->gone))
		violation(m, "read after the unit was removed", off);
	if (!accessible(m, off, false))
		return 0;
	if (m->debug)
		return model_read_debug(m, off);
	switch (off) {
	case APMU_PMDEVARCH:
		return m->devarch;
	case APMU_PMDEVID:
		return m->devid;
	case APMU_PMDEVAFF0:
		return lower_32_bits(m->devaff);
	case APMU_PMDEVAFF1:
		return upper_32_bits(m->devaff);
	case APMU_PMLSR:
		return (m->sli ? APMU_PMLSR_SLI : 0) | (m->sli && m->slk ? APMU_PMLSR_SLK : 0);
	case APMU_PMPCSCTL:
		if (!has_ctl(m))
			break;
		return (m->imp ? APMU_PMPCSCTL_IMP : 0) | m->ctl |
		       (m->res0_noise ? lower_32_bits(APMU_PMPCSCTL_RES0) : 0);
	case APMU_PMPCSCTL_HI:
		if (!has_ctl(m))
			break;
		return m->res0_noise ? upper_32_bits(APMU_PMPCSCTL_RES0) : 0;
	case APMU_PMPCSR_LO:
	case APMU_PMPCSR2_LO:
		return take_sample(m);
	case APMU_PMPCSR_HI:
	case APMU_PMPCSR2_HI:
		return upper_32_bits(m->latched);
	case APMU_PMCID1SR:
	case APMU_PMCID1SR2:
		return m->lat_cid1;
	case APMU_PMVIDSR:
		return m->lat_vmid;
	case APMU_PMCID2SR:
		return m->lat_cid2;
	}
	violation(m, "read of a register the driver has no use for", off);
	return 0;
}

static void write_ctl(struct apmu_pcs_model *m, u32 val, unsigned int off)
{
	if (!has_ctl(m)) {
		violation(m, "PMPCSCTL written without FEAT_PCSRv8p9", off);
		return;
	}
	if (m->sli && m->slk) {
		violation(m, "PMPCSCTL written with the software lock set (ignored)", off);
		return;
	}
	if (val & lower_32_bits(APMU_PMPCSCTL_RES0))
		violation(m, "PMPCSCTL RES0 bits [31:5]/[3:2] written as 1", off);
	if ((val & APMU_PMPCSCTL_SS) && !pcs_ss(m))
		violation(m, "PMPCSCTL.SS written as 1 without FEAT_PMUv3_SS (RES0)", off);
	if ((val & APMU_PMPCSCTL_EN) && !m->imp)
		violation(m, "PMPCSCTL.EN written as 1 with IMP == 0 (RAZ/WI)", off);
	/* IMP is read-only; EN is RAZ/WI without IMP; SS is RES0 without FEAT_PMUv3_SS */
	m->ctl = (m->imp ? val & APMU_PMPCSCTL_EN : 0) | (pcs_ss(m) ? val & APMU_PMPCSCTL_SS : 0);
}

static void model_write(struct apmu_pcs_unit *u, unsigned int off, u32 val)
{
	struct apmu_pcs_model *m = u->priv;

	m->writes++;
	if (READ_ONCE(m->gone))
		violation(m, "write after the unit was removed", off);
	if (!accessible(m, off, true))
		return;
	if (m->debug) {
		if (off == APMU_EDLAR)
			m->slk = val != APMU_LAR_KEY;
		else
			violation(m, "write to a debug register (only EDLAR is apmu's)", off);
		return;
	}
	switch (off) {
	case APMU_PMLAR:
		m->slk = val != APMU_LAR_KEY;
		return;
	case APMU_PMPCSCTL:
		write_ctl(m, val, off);
		return;
	case APMU_PMPCSCTL_HI:
		if (val)
			violation(m, "PMPCSCTL RES0 bits [63:32] written as 1", off);
		return;
	}
	violation(m, "write to a register the driver must not write", off);
}

/* EDPRSR: in the debug power domain, readable whatever the core's state */
static u32 model_prsr(struct apmu_pcs_unit *u)
{
	struct apmu_pcs_model *m = u->priv;

	if (READ_ONCE(m->gone))
		violation(m, "EDPRSR read after the unit was removed", APMU_EDPRSR);
	if (m->prsr_delay_us)
		udelay(m->prsr_delay_us);
	return (m->pu ? APMU_EDPRSR_PU : 0) | (m->oslk ? APMU_EDPRSR_OSLK : 0) |
	       (m->dlk ? APMU_EDPRSR_DLK : 0);
}

const struct apmu_pcs_ops apmu_pcs_model_ops = {
	.read = model_read,
	.write = model_write,
	.prsr = model_prsr,
};
