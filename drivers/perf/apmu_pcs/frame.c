// SPDX-License-Identifier: GPL-2.0
/*
 * apmu PC sampling: the architectural rules of the external PMU frame.
 *
 *  - PMPCSCTL, PMPCSR and the context registers give an error response (an external
 *    abort) while the core is powered down or under the OS (double) lock: every access
 *    follows a state check under the unit's lock, which the hotplug and CPU PM callbacks
 *    take. Powered down or offline: -EAGAIN; OS lock: -EBUSY; double lock: -EIO.
 *  - PMPCSCTL.IMP (bit 1, RO): EN (bit 0) implemented, else RAZ/WI (-EOPNOTSUPP). SS
 *    (bit 4) only with FEAT_PMUv3_SS (PMDEVID.PMSS). Bits [63:5], [3:2] RES0.
 *  - PMPCSCTL.EN and SS reset to 0 on a Warm reset, which each power-up is: the unit keeps
 *    the wanted value (@ctl) and its CPU writes it again on the way back, if any.
 *  - PMPCSR[31:0] == 0xFFFFFFFF: no valid sample; the rest is UNKNOWN and not read.
 *
 * The debug kind (FEAT_PCSRv8, the external debug frame; Arm ARM EDPCSR, EDVIDSR,
 * EDDEVID, EDDEVID1) keeps the same access rules (Core power domain), and:
 *  - EDDEVID.PCSample 0b0011 (EDPCSR, EDCIDSR, EDVIDSR) or 0b0010 (no EDVIDSR: only
 *    without EL2 and EL3, so only then accepted); EDDEVID1.PCSROffset 0b0010, "no offset
 *    applied", the only Armv8 value with EDPCSR: nothing is subtracted, else refused.
 *  - No PMPCSCTL (EN, SS: -EOPNOTSUPP); nothing written but EDLAR, opened around each
 *    EDPCSRlo read (a locked read has no side effects: stale context).
 *  - EDPCSRhi after EDPCSRlo, PC[63:32] only with EDVIDSR.HV; EDVIDSR.{NS,E2,E3}; EL1 or
 *    EL0 from the PC's address-space half. With FEAT_VHE and EL2, no sample while
 *    EDSCR.SC2 (a debugger's) selects the other format.
 */
#define pr_fmt(fmt) "apmu_pcs: " fmt

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/cleanup.h>
#include <linux/lockdep.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <asm/cputype.h>
#include <asm/sysreg.h>
#include <kunit/visibility.h>

#include "pcs.h"

/**
 * apmu_pcs_check() - may the unit's frame be accessed now?
 * @u: the unit, with @u->lock held
 *
 * Return: 0, or -EAGAIN (CPU offline, in a low-power state, or EDPRSR.PU == 0), -EIO
 * (EDPRSR.DLK: OS double lock) or -EBUSY (EDPRSR.OSLK: OS lock).
 */
int apmu_pcs_check(struct apmu_pcs_unit *u)
{
	u32 prsr;

	lockdep_assert_held(&u->lock);
	if (!u->online || u->pm_off) {
		pr_debug_ratelimited("cpu%d %s: frame not accessed\n", u->cpu,
				     u->online ? "in a low-power state" : "offline");
		return -EAGAIN;
	}
	/* EDPRSR: DLK and OSLK are UNKNOWN while PU == 0, so PU first */
	prsr = u->ops->prsr(u);
	if (!(prsr & APMU_EDPRSR_PU)) {
		pr_debug_ratelimited("cpu%d powered down (EDPRSR.PU=0): frame not accessed\n",
				     u->cpu);
		return -EAGAIN;
	}
	if (prsr & APMU_EDPRSR_DLK) {
		pr_debug_ratelimited("cpu%d OS double lock set (EDPRSR.DLK=1): frame not accessed\n",
				     u->cpu);
		return -EIO;
	}
	if (prsr & APMU_EDPRSR_OSLK) {
		pr_debug_ratelimited("cpu%d OS lock set (EDPRSR.OSLK=1): frame not accessed\n",
				     u->cpu);
		return -EBUSY;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_check);

/* A write, through the CoreSight software lock when the frame has one (PMLSR.SLI). */
static void pcs_write(struct apmu_pcs_unit *u, unsigned int off, u32 val)
{
	if (u->swlock)
		u->ops->write(u, APMU_PMLAR, APMU_LAR_KEY);
	u->ops->write(u, off, val);
	if (u->swlock)
		u->ops->write(u, APMU_PMLAR, 0);
}

/* Is @arch (PMDEVARCH, EDDEVARCH) an Arm component with the architecture ID @archid? */
static bool pcs_arch_is(u32 arch, u32 mask, u32 archid)
{
	return FIELD_GET(APMU_DEVARCH_ARCHITECT, arch) == APMU_ARCHITECT_ARM &&
	       (arch & APMU_DEVARCH_PRESENT) &&
	       (FIELD_GET(APMU_DEVARCH_ARCHID, arch) & mask) == archid;
}

/*
 * PMDEVAFF0/1 or EDDEVAFF0/1 (same offsets) must match the CPU's MPIDR affinity
 * (@u->mpidr): a frame of another CPU (wrong phandle or pcs= entry) is refused, else the
 * power checks would guard the wrong CPU. Lock held, state checked.
 */
static int pcs_check_aff(struct apmu_pcs_unit *u)
{
	u64 aff = ((u64)u->ops->read(u, APMU_PMDEVAFF1) << 32 |
		   u->ops->read(u, APMU_PMDEVAFF0)) & APMU_DEVAFF_MASK;

	if (aff != (u->mpidr & APMU_DEVAFF_MASK)) {
		pr_warn("cpu%d: %s %#llx is not the CPU's MPIDR %#llx\n", u->cpu,
			u->kind == APMU_PCS_KIND_DEBUG ? "EDDEVAFF" : "PMDEVAFF", aff,
			u->mpidr & APMU_DEVAFF_MASK);
		return -EXDEV;
	}
	return 0;
}

/*
 * The debug kind: EDDEVARCH external debug, EDDEVAFF the CPU's, EDDEVID.PCSample 3 (or 2
 * on a CPU without EL2 and EL3), EDDEVID1.PCSROffset "no offset". Lock held, state
 * checked. The frame has no PMPCSCTL: EN and SS are not implemented.
 */
static int pcs_identify_debug(struct apmu_pcs_unit *u)
{
	unsigned int pcsample, offset;
	u32 arch, devid, devid1;
	int ret;

	arch = u->ops->read(u, APMU_EDDEVARCH);
	if (!pcs_arch_is(arch, APMU_ARCHID_DEBUG_MASK, APMU_ARCHPART_DEBUG)) {
		pr_warn("cpu%d: EDDEVARCH %#x is not Arm external debug\n", u->cpu, arch);
		return -ENODEV;
	}
	ret = pcs_check_aff(u);
	if (ret)
		return ret;
	devid = u->ops->read(u, APMU_EDDEVID);
	pcsample = FIELD_GET(APMU_EDDEVID_PCSAMPLE, devid);
	if (pcsample != APMU_EDPCSAMPLE_CID && pcsample != APMU_EDPCSAMPLE_CID_VID) {
		/* 0: a FEAT_PCSRv8p2 core, or none: common, so not a warning */
		pr_info("cpu%d: EDDEVID 0x%x: no PC sampling in the debug frame (PCSample=%u)\n",
			u->cpu, devid, pcsample);
		return -ENODEV;
	}
	if (pcsample == APMU_EDPCSAMPLE_CID && u->el23) {
		pr_warn("cpu%d: EDDEVID.PCSample=2 (no EDVIDSR) on a CPU with EL2 or EL3: the Security state of a sample cannot be told\n",
			u->cpu);
		return -ENODEV;
	}
	devid1 = u->ops->read(u, APMU_EDDEVID1);
	offset = FIELD_GET(APMU_EDDEVID1_PCSROFFSET, devid1);
	if (offset != APMU_PCSROFFSET_NONE) {
		pr_warn("cpu%d: EDDEVID1 0x%x: PCSROffset=%u is not Armv8's \"no offset\" (2)\n",
			u->cpu, devid1, offset);
		return -ENODEV;
	}
	u->has_vidsr = pcsample == APMU_EDPCSAMPLE_CID_VID;
	u->swlock = u->ops->read(u, APMU_EDLSR) & APMU_PMLSR_SLI;
	u->has_ctl = false;
	u->imp = false;
	u->ss = false;
	u->ctl = 0;
	return 0;
}

/*
 * apmu_pcs_identify() - is this frame one with PC sampling? Learn its features.
 * @u: the unit; @u->kind, @u->ops, @u->cpu and the CPU state set
 *
 * PMU kind: PMDEVARCH Arm PMUv3 (ARCHITECT 0x23B, PRESENT, ARCHID 0x2A16 or 0x2A26);
 * PMDEVID.PCSample FEAT_PCSRv8p2 (1) or FEAT_PCSRv8p9 (2, with PMPCSCTL). Debug kind:
 * pcs_identify_debug(). Either frame's DEVAFF0/1 the CPU's MPIDR affinity, else the
 * power checks would guard the wrong CPU. Sets @u->has_ctl, @u->imp, @u->ss, @u->swlock.
 *
 * Return: 0, -ENODEV when the frame is something else, -EXDEV when it belongs to
 * another CPU (PMDEVAFF, or EDDEVAFF through @u->ops->probe), -ENXIO when
 * @u->ops->probe refuses the debug frame, or apmu_pcs_check()'s errno. The lock is held.
 */
static int pcs_identify_locked(struct apmu_pcs_unit *u)
{
	unsigned int pcsample;
	u32 arch, devid;
	int ret;

	/* The debug frame is identified before its EDPRSR is believed, with the CPU up */
	if (u->ops->probe) {
		if (!u->online || u->pm_off)
			return apmu_pcs_check(u);
		ret = u->ops->probe(u);
		if (ret)
			return ret;
	}
	ret = apmu_pcs_check(u);
	if (ret)
		return ret;
	if (u->kind == APMU_PCS_KIND_DEBUG)
		return pcs_identify_debug(u);
	arch = u->ops->read(u, APMU_PMDEVARCH);
	if (!pcs_arch_is(arch, U16_MAX, APMU_ARCHID_PMUV3) &&
	    !pcs_arch_is(arch, U16_MAX, APMU_ARCHID_PMUV3_EXT64)) {
		pr_warn("cpu%d: PMDEVARCH %#x is not an Arm PMUv3\n", u->cpu, arch);
		return -ENODEV;
	}
	ret = pcs_check_aff(u);
	if (ret)
		return ret;
	devid = u->ops->read(u, APMU_PMDEVID);
	pcsample = FIELD_GET(APMU_PMDEVID_PCSAMPLE, devid);
	if (pcsample != APMU_PCSAMPLE_V8P2 && pcsample != APMU_PCSAMPLE_V8P9) {
		pr_warn("cpu%d: PMDEVID %#x: no PC sampling (PCSample=%u)\n",
			u->cpu, devid, pcsample);
		return -ENODEV;
	}
	u->has_ctl = pcsample == APMU_PCSAMPLE_V8P9;
	u->ss = u->has_ctl && FIELD_GET(APMU_PMDEVID_PMSS, devid) == 1;
	u->swlock = u->ops->read(u, APMU_PMLSR) & APMU_PMLSR_SLI;
	u->ctl = u->has_ctl ? u->ops->read(u, APMU_PMPCSCTL) : 0;
	u->imp = u->ctl & APMU_PMPCSCTL_IMP;
	/* what is set now (firmware, or a previous load) is what is wanted */
	u->ctl &= (u->imp ? APMU_PMPCSCTL_EN : 0) | (u->ss ? APMU_PMPCSCTL_SS : 0);
	return 0;
}

int apmu_pcs_identify(struct apmu_pcs_unit *u)
{
	guard(raw_spinlock_irqsave)(&u->lock);
	return pcs_identify_locked(u);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_identify);

/* ID_AA64PFR0_EL1.EL2 and .EL3, ID_AA64MMFR1_EL1.VH: fields named alike in every kernel */
#define PCS_PFR0_EL2	GENMASK_ULL(11, 8)
#define PCS_PFR0_EL3	GENMASK_ULL(15, 12)
#define PCS_MMFR1_VH	GENMASK_ULL(11, 8)

static void pcs_wake_on_cpu(void *info)
{
	struct apmu_pcs_unit *u = info;
	u64 pfr0 = read_sysreg(id_aa64pfr0_el1), mmfr1 = read_sysreg(id_aa64mmfr1_el1);
	bool el2 = FIELD_GET(PCS_PFR0_EL2, pfr0);

	guard(raw_spinlock_irqsave)(&u->lock);
	u->mpidr = read_cpuid_mpidr() & APMU_DEVAFF_MASK;
	u->el23 = el2 || FIELD_GET(PCS_PFR0_EL3, pfr0);
	u->sc2_fmt = el2 && FIELD_GET(PCS_MMFR1_VH, mmfr1);
	u->pm_off = false;
}

/**
 * apmu_pcs_wake() - learn that a new unit's CPU is out of any CPU PM low-power state
 * @u: the unit, published (so the CPU PM notifier sees it) with @u->pm_off true
 *
 * A CPU_PM_ENTER before publication saw no unit: only the CPU itself, running this IPI,
 * clears @u->pm_off (as coresight-cpu-debug does) and records its MPIDR affinity and
 * what the debug kind needs of its ID registers (@u->el23, @u->sc2_fmt). An offline CPU
 * keeps it set; the caller holds cpus_read_lock().
 */
void apmu_pcs_wake(struct apmu_pcs_unit *u)
{
	if (u->online)
		smp_call_function_single(u->cpu, pcs_wake_on_cpu, u, 1);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_wake);

/**
 * apmu_pcs_get_ctl() - read PMPCSCTL.EN and PMPCSCTL.SS
 * @u: the unit
 * @en: EN (0 when IMP == 0: RAZ)
 * @ss: SS (0 without FEAT_PMUv3_SS)
 *
 * Without PMPCSCTL (FEAT_PCSRv8p2 only) both read 0 and the frame is not touched.
 *
 * Return: 0 or apmu_pcs_check()'s errno.
 */
int apmu_pcs_get_ctl(struct apmu_pcs_unit *u, bool *en, bool *ss)
{
	u32 ctl = 0;
	int ret;

	*en = false;
	*ss = false;
	if (!u->has_ctl)
		return 0;
	scoped_guard(raw_spinlock_irqsave, &u->lock) {
		ret = apmu_pcs_check(u);
		if (ret)
			return ret;
		ctl = u->ops->read(u, APMU_PMPCSCTL);
	}
	*en = u->imp && (ctl & APMU_PMPCSCTL_EN);
	*ss = u->ss && (ctl & APMU_PMPCSCTL_SS);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_get_ctl);

/*
 * Change the wanted PMPCSCTL[31:0] (@u->ctl) keeping only the fields that exist: EN when
 * IMP, SS with FEAT_PMUv3_SS; RES0 bits (and the RO IMP) are written as 0. Lock held.
 * Written at once when @write (the state checked), else when the core is next back.
 */
static void pcs_update_ctl(struct apmu_pcs_unit *u, u32 mask, u32 val, bool write)
{
	u32 keep = (u->imp ? APMU_PMPCSCTL_EN : 0) | (u->ss ? APMU_PMPCSCTL_SS : 0);

	lockdep_assert_held(&u->lock);
	u->ctl = ((u->ctl & ~mask) | (val & mask)) & keep;
	if (write)
		pcs_write(u, APMU_PMPCSCTL, u->ctl);
}

/*
 * The core is back (CPU_PM_EXIT, or online): its Warm reset cleared PMPCSCTL.EN and SS.
 * Write what is wanted again, if anything, once the state check allows an access. Lock
 * held; runs on the unit's CPU.
 */
static void pcs_restore_ctl(struct apmu_pcs_unit *u)
{
	int ret;

	lockdep_assert_held(&u->lock);
	if (!u->ctl)
		return;
	ret = apmu_pcs_check(u);
	if (ret) {
		pr_debug_ratelimited("cpu%d: PMPCSCTL %#x not restored (%pe)\n", u->cpu,
				     u->ctl, ERR_PTR(ret));
		return;
	}
	pcs_write(u, APMU_PMPCSCTL, u->ctl);
}

/**
 * apmu_pcs_set_enable() - suspend or resume PC sampling (PMPCSCTL.EN)
 * @u: the unit
 * @on: resume
 *
 * Root's switch (sysfs): suspended, apmu_pcs events are refused; it outlives the events.
 * Return: 0; -EOPNOTSUPP when IMP == 0 (EN is RAZ/WI; the frame is not touched); or
 * apmu_pcs_check()'s errno.
 */
int apmu_pcs_set_enable(struct apmu_pcs_unit *u, bool on)
{
	int ret;

	if (!u->imp) {
		pr_debug("cpu%d: PMPCSCTL.IMP=0: EN is RAZ/WI, sampling cannot be suspended or resumed\n",
			 u->cpu);
		return -EOPNOTSUPP;
	}
	guard(raw_spinlock_irqsave)(&u->lock);
	ret = apmu_pcs_check(u);
	if (ret)
		return ret;
	pcs_update_ctl(u, APMU_PMPCSCTL_EN, on ? APMU_PMPCSCTL_EN : 0, true);
	u->root_off = !on;
	u->ev_en = false;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_set_enable);

/**
 * apmu_pcs_events_refused() - may a new perf event sample the unit? (event_init)
 * @u: the unit
 *
 * Not while root has suspended sampling (enable = 0), nor while SS is set (PMPCSR would
 * repeat the last snapshot).
 * Return: 0 or -EBUSY.
 */
int apmu_pcs_events_refused(struct apmu_pcs_unit *u)
{
	guard(raw_spinlock_irqsave)(&u->lock);
	if (u->root_off) {
		pr_debug("cpu%d: sampling suspended by root (enable=0): event refused\n",
			 u->cpu);
		return -EBUSY;
	}
	if (u->ctl & APMU_PMPCSCTL_SS) {
		pr_debug("cpu%d: sample_on_snapshot=1: event refused\n", u->cpu);
		return -EBUSY;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_events_refused);

/**
 * apmu_pcs_events_get() - a perf event starts sampling the unit (add())
 * @u: the unit
 *
 * PMPCSCTL.EN is counted across events: the first resumes a suspended unit, the last
 * (apmu_pcs_events_put()) suspends it again. Never fails (a failed add() makes perf
 * rotate CPU N's context every jiffy): an event that root's later suspend or SS caught
 * samples nothing meanwhile.
 */
void apmu_pcs_events_get(struct apmu_pcs_unit *u)
{
	guard(raw_spinlock_irqsave)(&u->lock);
	if (!u->active && u->imp && !u->root_off && !(u->ctl & APMU_PMPCSCTL_SS) &&
	    !(u->ctl & APMU_PMPCSCTL_EN)) {
		/* wanted now; written now if the frame answers, else when the core is back */
		pcs_update_ctl(u, APMU_PMPCSCTL_EN, APMU_PMPCSCTL_EN, !apmu_pcs_check(u));
		u->ev_en = true;
	}
	u->active++;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_events_get);

/**
 * apmu_pcs_events_put() - a perf event stops sampling the unit (del())
 * @u: the unit
 */
void apmu_pcs_events_put(struct apmu_pcs_unit *u)
{
	guard(raw_spinlock_irqsave)(&u->lock);
	if (!--u->active && u->ev_en) {
		/* not wanted any more: not written again when the core is back either */
		pcs_update_ctl(u, APMU_PMPCSCTL_EN, 0, !apmu_pcs_check(u));
		u->ev_en = false;
	}
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_events_put);

/**
 * apmu_pcs_set_snapshot() - sample on PMU snapshot rather than on read (PMPCSCTL.SS)
 * @u: the unit
 * @on: sample on snapshot
 *
 * perf cannot use it (each read returns the same snapshot): events refuse it, it refuses
 * events.
 * Return: 0; -EOPNOTSUPP without FEAT_PMUv3_SS (SS is RES0); -EBUSY for @on while
 * perf events sample the unit; or apmu_pcs_check()'s errno.
 */
int apmu_pcs_set_snapshot(struct apmu_pcs_unit *u, bool on)
{
	int ret;

	if (!u->ss) {
		pr_debug("cpu%d: no FEAT_PMUv3_SS: PMPCSCTL.SS is RES0\n", u->cpu);
		return -EOPNOTSUPP;
	}
	guard(raw_spinlock_irqsave)(&u->lock);
	if (on && u->active) {
		pr_debug("cpu%d: perf events sample: sample_on_snapshot refused\n", u->cpu);
		return -EBUSY;
	}
	ret = apmu_pcs_check(u);
	if (ret)
		return ret;
	pcs_update_ctl(u, APMU_PMPCSCTL_SS, on ? APMU_PMPCSCTL_SS : 0, true);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_set_snapshot);

/**
 * apmu_pcs_decode() - decode a PMPCSR value
 * @pcsr: PMPCSR[63:0]
 * @s: the sample; the context fields are left alone
 */
void apmu_pcs_decode(u64 pcsr, struct apmu_pcs_sample *s)
{
	s->valid = lower_32_bits(pcsr) != APMU_PMPCSR_NO_SAMPLE;
	if (!s->valid)
		return;
	s->pc = sign_extend64(pcsr & APMU_PMPCSR_PC, 55);
	s->el = FIELD_GET(APMU_PMPCSR_EL, pcsr);
	s->sec = (pcsr & APMU_PMPCSR_NSE ? 2 : 0) | (pcsr & APMU_PMPCSR_NS ? 1 : 0);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_decode);

/**
 * apmu_pcs_sec_name() - the name of a Security state
 * @sec: &enum apmu_pcs_sec
 *
 * Return: "secure", "non-secure", "root" or "realm".
 */
const char *apmu_pcs_sec_name(u8 sec)
{
	static const char * const names[] = {
		[APMU_PCS_SECURE] = "secure",
		[APMU_PCS_NONSECURE] = "non-secure",
		[APMU_PCS_ROOT] = "root",
		[APMU_PCS_REALM] = "realm",
	};

	return names[sec & 3];
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_sec_name);

/**
 * apmu_pcs_decode_debug() - decode an EDPCSR sample (FEAT_PCSRv8)
 * @lo: EDPCSRlo
 * @hi: EDPCSRhi, read after it
 * @vidsr: EDVIDSR, read after it (ignored without @has_vidsr)
 * @has_vidsr: EDVIDSR is implemented
 * @s: the sample; EDCIDSR is the caller's
 *
 * EDPCSRhi is PC[63:32] when EDVIDSR.HV == 1 and RAZ otherwise (an AArch32 sample,
 * whose PC is EDPCSRlo alone). EDVIDSR.E3 and E2 give EL3 and EL2; below them the sample
 * does not say the Exception level, so a PC in the upper half of the address space
 * (TTBR1, the kernel's) is EL1 and one in the lower half EL0. Without EDVIDSR there is
 * neither EL2 nor EL3 (pcs_identify_debug() checked): a single Security state, the
 * kernel's own, decoded as Non-secure. No offset is subtracted: Armv8 samples have none
 * (EDDEVID1.PCSROffset == 2, checked at identification).
 */
void apmu_pcs_decode_debug(u32 lo, u32 hi, u32 vidsr, bool has_vidsr,
			   struct apmu_pcs_sample *s)
{
	s->valid = lo != APMU_PMPCSR_NO_SAMPLE;
	if (!s->valid)
		return;
	if (has_vidsr && !(vidsr & APMU_EDVIDSR_HV))
		hi = 0;
	s->pc = (u64)hi << 32 | lo;
	if (has_vidsr && (vidsr & APMU_EDVIDSR_E3))
		s->el = 3;
	else if (has_vidsr && (vidsr & APMU_EDVIDSR_E2))
		s->el = 2;
	else
		s->el = (s->pc & BIT_ULL(55)) ? 1 : 0;
	s->sec = !has_vidsr || (vidsr & APMU_EDVIDSR_NS) ? APMU_PCS_NONSECURE : APMU_PCS_SECURE;
	s->vmid = has_vidsr ? FIELD_GET(APMU_EDVIDSR_VMID, vidsr) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_decode_debug);

/**
 * apmu_pcs_kind_name() - the name of a unit's kind, as sysfs shows it
 * @u: the unit
 *
 * Return: "pmu" or "debug".
 */
const char *apmu_pcs_kind_name(const struct apmu_pcs_unit *u)
{
	return u->kind == APMU_PCS_KIND_DEBUG ? "debug" : "pmu";
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_kind_name);

/*
 * The debug kind: EDSCR.SC2 first where it exists (no sample in its other format), then
 * EDPCSRlo with the software lock open (else the read has no side effects), then what it
 * captured. Lock held, state checked.
 */
static void pcs_read_debug(struct apmu_pcs_unit *u, struct apmu_pcs_sample *s)
{
	u32 lo, hi = 0, vidsr = 0, cid = 0;

	if (u->sc2_fmt && (u->ops->read(u, APMU_EDSCR) & APMU_EDSCR_SC2)) {
		pr_debug_ratelimited("cpu%d: EDSCR.SC2=1 (an external debugger's): no sample\n",
				     u->cpu);
		return;
	}
	if (u->swlock)
		u->ops->write(u, APMU_EDLAR, APMU_LAR_KEY);
	lo = u->ops->read(u, APMU_EDPCSR_LO);
	if (lo != APMU_PMPCSR_NO_SAMPLE) {
		hi = u->ops->read(u, APMU_EDPCSR_HI);
		cid = u->ops->read(u, APMU_EDCIDSR);
		if (u->has_vidsr)
			vidsr = u->ops->read(u, APMU_EDVIDSR);
	}
	if (u->swlock)
		u->ops->write(u, APMU_EDLAR, 0);
	apmu_pcs_decode_debug(lo, hi, vidsr, u->has_vidsr, s);
	s->cid1 = cid;
}

/**
 * apmu_pcs_read_sample_locked() - take one sample: PMPCSR, then its context registers
 * @u: the unit, with @u->lock held
 * @s: the decoded sample
 *
 * Reading PMPCSR[31:0] (EDPCSRlo) takes the sample; PMPCSR[63:32] (EDPCSRhi) and the
 * context registers then return the values captured with it.
 *
 * Return: 0 (@s->valid says whether there was a sample) or apmu_pcs_check()'s errno.
 */
int apmu_pcs_read_sample_locked(struct apmu_pcs_unit *u, struct apmu_pcs_sample *s)
{
	unsigned int blk = u->cid2_block ? APMU_PMPCSR2_LO : APMU_PMPCSR_LO;
	u32 lo, hi, ctx;
	int ret;

	*s = (struct apmu_pcs_sample) { };
	ret = apmu_pcs_check(u);
	if (ret)
		return ret;
	if (u->kind == APMU_PCS_KIND_DEBUG) {
		pcs_read_debug(u, s);
		return 0;
	}
	lo = u->ops->read(u, blk);
	if (lo == APMU_PMPCSR_NO_SAMPLE)
		return 0;
	hi = u->ops->read(u, blk + 4);
	s->cid1 = u->ops->read(u, blk + 8);
	ctx = u->ops->read(u, blk + 12);
	apmu_pcs_decode((u64)hi << 32 | lo, s);
	if (u->cid2_block) {
		s->has_cid2 = true;
		s->cid2 = ctx;
	} else {
		s->vmid = FIELD_GET(APMU_PMVIDSR_VMID, ctx);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_read_sample_locked);

/**
 * apmu_pcs_read_sample() - apmu_pcs_read_sample_locked(), taking the unit's lock
 * @u: the unit
 * @s: the decoded sample
 *
 * Return: as apmu_pcs_read_sample_locked().
 */
int apmu_pcs_read_sample(struct apmu_pcs_unit *u, struct apmu_pcs_sample *s)
{
	guard(raw_spinlock_irqsave)(&u->lock);
	return apmu_pcs_read_sample_locked(u, s);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_read_sample);

/**
 * apmu_pcs_set_online() - CPU hotplug: the unit's CPU comes up or goes down
 * @u: the unit
 * @online: the new state
 *
 * Runs on the CPU (a CPUHP_AP_ONLINE_DYN state). Taking the lock waits for an access in
 * flight (a sample read from another CPU) to end. Coming up, the core went through a
 * Warm reset: the wanted PMPCSCTL (@u->ctl) is written again.
 */
void apmu_pcs_set_online(struct apmu_pcs_unit *u, bool online)
{
	guard(raw_spinlock_irqsave)(&u->lock);
	u->online = online;
	if (online)
		pcs_restore_ctl(u);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_set_online);

/**
 * apmu_pcs_set_pm_off() - CPU PM: the unit's CPU enters or leaves a low-power state
 * @u: the unit
 * @off: entering
 *
 * Runs on the CPU, IRQs off (the CPU PM notifier). Leaving (CPU_PM_EXIT, and
 * CPU_PM_ENTER_FAILED, where writing it again is harmless), the core may have been
 * powered down and reset: the wanted PMPCSCTL (@u->ctl) is written again.
 */
void apmu_pcs_set_pm_off(struct apmu_pcs_unit *u, bool off)
{
	guard(raw_spinlock_irqsave)(&u->lock);
	u->pm_off = off;
	if (!off)
		pcs_restore_ctl(u);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_pcs_set_pm_off);
