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
 */
#define pr_fmt(fmt) "apmu_pcs: " fmt

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/cleanup.h>
#include <linux/lockdep.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <asm/cputype.h>
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

/*
 * apmu_pcs_identify() - is this frame a PMU with PC sampling? Learn its features.
 * @u: the unit; @u->ops, @u->cpu and the CPU state set
 *
 * PMDEVARCH: Arm PMUv3 (ARCHITECT 0x23B, PRESENT, ARCHID 0x2A16 or 0x2A26); PMDEVID
 * .PCSample FEAT_PCSRv8p2 (1) or FEAT_PCSRv8p9 (2, with PMPCSCTL); PMDEVAFF0/1 the CPU's
 * MPIDR affinity, else the power checks would guard the wrong CPU. Sets @u->has_ctl,
 * @u->imp, @u->ss and @u->swlock.
 *
 * Return: 0, -ENODEV when the frame is something else, -EXDEV when it belongs to
 * another CPU (PMDEVAFF, or EDDEVAFF through @u->ops->probe), -ENXIO when
 * @u->ops->probe refuses the debug frame, or apmu_pcs_check()'s errno. The lock is held.
 */
static int pcs_identify_locked(struct apmu_pcs_unit *u)
{
	unsigned int pcsample;
	u32 arch, devid;
	u64 aff;
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
	arch = u->ops->read(u, APMU_PMDEVARCH);
	if (FIELD_GET(APMU_DEVARCH_ARCHITECT, arch) != APMU_ARCHITECT_ARM ||
	    !(arch & APMU_DEVARCH_PRESENT) ||
	    (FIELD_GET(APMU_DEVARCH_ARCHID, arch) != APMU_ARCHID_PMUV3 &&
	     FIELD_GET(APMU_DEVARCH_ARCHID, arch) != APMU_ARCHID_PMUV3_EXT64)) {
		pr_warn("cpu%d: PMDEVARCH %#x is not an Arm PMUv3\n", u->cpu, arch);
		return -ENODEV;
	}
	/* A frame given for another CPU (wrong phandle or pcs= entry) is refused */
	aff = ((u64)u->ops->read(u, APMU_PMDEVAFF1) << 32 | u->ops->read(u, APMU_PMDEVAFF0)) &
	      APMU_DEVAFF_MASK;
	if (aff != (u->mpidr & APMU_DEVAFF_MASK)) {
		pr_warn("cpu%d: PMDEVAFF %#llx is not the CPU's MPIDR %#llx\n", u->cpu,
			aff, u->mpidr & APMU_DEVAFF_MASK);
		return -EXDEV;
	}
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

static void pcs_wake_on_cpu(void *info)
{
	struct apmu_pcs_unit *u = info;

	guard(raw_spinlock_irqsave)(&u->lock);
	u->mpidr = read_cpuid_mpidr() & APMU_DEVAFF_MASK;
	u->pm_off = false;
}

/**
 * apmu_pcs_wake() - learn that a new unit's CPU is out of any CPU PM low-power state
 * @u: the unit, published (so the CPU PM notifier sees it) with @u->pm_off true
 *
 * A CPU_PM_ENTER before publication saw no unit: only the CPU itself, running this IPI,
 * clears @u->pm_off (as coresight-cpu-debug does) and records its MPIDR affinity. An
 * offline CPU keeps it set; the caller holds cpus_read_lock().
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
 * apmu_pcs_read_sample_locked() - take one sample: PMPCSR, then its context registers
 * @u: the unit, with @u->lock held
 * @s: the decoded sample
 *
 * Reading PMPCSR[31:0] takes the sample; PMPCSR[63:32] and the context registers then
 * return the values captured with it.
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
