// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the PMUv3 backend's counter logic, on the calling CPU's registers through the
 * accessors of <asm/arm_pmuv3.h> (the same names on AArch64 and AArch32).
 * APMU_PMUV3_AARCH32 selects the AArch32 rules: 32-bit PMCCNTR and event counters,
 * PMUv3 from ID_DFR0.PerfMon 3, no thresholds, no EL0 reads. KUnit compiles this file
 * again with APMU_PMUV3_ACCESSORS_H naming its register model's accessors.
 */
/* the accessors first: arch_arm.h must precede <asm/arm_pmuv3.h> */
#if defined(APMU_PMUV3_ACCESSORS_H)
#include APMU_PMUV3_ACCESSORS_H
#elif defined(CONFIG_ARM64)
#include "arch_arm64.h"
#include "arch_system.h"
#else
#include "arch_arm.h"
#include "arch_system.h"
#endif

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/perf/arm_pmu.h>

#include "pmuv3.h"

#ifndef APMU_PMUV3_OPS
#define APMU_PMUV3_OPS		apmu_pmuv3_ops
#endif

/* pmuv3_pick_idx() flags */
#define APMU_GET_CHAIN		BIT(0)	/* a CHAIN pair for a 64-bit count */
#define APMU_GET_USER		BIT(1)	/* read from EL0: never PMICNTR */

/*
 * A PMUv3 of any revision: not 0 (none) or 0xf (IMPLEMENTATION DEFINED); from AArch32,
 * not ID_DFR0.PerfMon 1 or 2 either (PMUv1, PMUv2: ARMv7's, another programming model).
 */
static bool pmuv3_version_ok(unsigned int pmuver)
{
	if (pmuver == APMU_PMUVER_NI || pmuver == APMU_PMUVER_IMP_DEF)
		return false;
	return !APMU_PMUV3_AARCH32 || pmuver >= APMU_PERFMON_V3;
}

/* MIDR implementer [31:24]; a core model adds architecture [19:16] and part number [15:4] */
#define APMU_MIDR_IMPLEMENTER	GENMASK(31, 24)
#define APMU_MIDR_MODEL		(APMU_MIDR_IMPLEMENTER | GENMASK(19, 4))

/*
 * The PMUs that need a workaround (APMU_PMUV3_QUIRK_*), matched once at probe on the
 * MIDR or, where it cannot tell, the device tree root compatible. QEMU's entries and
 * what they were measured against: apmu.rst, "QEMU versions".
 */
static const struct pmuv3_quirk {
	u32 midr_mask;
	u32 midr;
	const char *machine;	/* root compatible; NULL: any machine */
	bool aarch32;		/* only for the AArch32 backend */
	bool tcg;		/* only where no KVM runs the machine (QEMU's own PMU) */
	unsigned int quirks;
	const char *what;
} pmuv3_quirk_table[] = {
	/* QEMU's TCG CPUs (MIDR implementer 0): pmcr_write() does not re-evaluate the IRQ */
	{ .midr_mask = APMU_MIDR_IMPLEMENTER, .midr = 0,
	  .quirks = APMU_PMUV3_QUIRK_IRQ_RESYNC,
	  .what = "QEMU's PMU: its overflow interrupt is re-raised after PMCR.E is set" },
	/* QEMU's AArch32 "max" CPU has Cortex-A57's MIDR: known by its virt board */
	{ .machine = "linux,dummy-virt", .aarch32 = true,
	  .quirks = APMU_PMUV3_QUIRK_IRQ_RESYNC,
	  .what = "QEMU's virt board: the overflow interrupt is re-raised after PMCR.E is set" },
	/* QEMU's named AArch64 CPUs: real MIDRs, the virt board without KVM */
	{ .machine = "linux,dummy-virt", .tcg = true,
	  .quirks = APMU_PMUV3_QUIRK_IRQ_RESYNC,
	  .what = "QEMU's virt board, no KVM: overflow interrupt re-raised after PMCR.E set" },
	/*
	 * NVIDIA Olympus: PMCCNTR counts in WFI/WFE, unlike CPU_CYCLES on an event counter
	 * (posted "perf/arm_pmu: Skip PMCCNTR_EL0 on NVIDIA Olympus", not in 7.2).
	 */
	{ .midr_mask = APMU_MIDR_MODEL, .midr = 0x4e0f0100,
	  .quirks = APMU_PMUV3_QUIRK_NO_PMCCNTR,
	  .what = "NVIDIA Olympus: PMCCNTR counts in WFI/WFE, CPU_CYCLES uses event counters" },
};

/**
 * pmuv3_quirks() - the workarounds this PMU needs
 * @midr: the MIDR of the probing CPU
 * @machine_is: tells whether the machine's device tree root has a compatible
 * @kvm_guest: the kernel runs as a KVM guest (KVM's hypervisor services answer)
 * @dev: the PMU's device, to say which workarounds apply, each once (NULL: silent)
 *
 * Return: APMU_PMUV3_QUIRK_* of every matching pmuv3_quirk_table entry.
 */
static unsigned int pmuv3_quirks(u32 midr, bool (*machine_is)(const char *compat),
				 bool kvm_guest, struct device *dev)
{
	const struct pmuv3_quirk *q;
	unsigned int quirks = 0;

	for (q = pmuv3_quirk_table; q < pmuv3_quirk_table + ARRAY_SIZE(pmuv3_quirk_table); q++) {
		if ((midr & q->midr_mask) != q->midr ||
		    (q->aarch32 && !APMU_PMUV3_AARCH32) || (q->tcg && kvm_guest) ||
		    (q->machine && !machine_is(q->machine)))
			continue;
		if (dev && (q->quirks & ~quirks))
			dev_info(dev, "%s\n", q->what);
		quirks |= q->quirks;
	}
	return quirks;
}

static int pmuv3_probe(struct apmu_pmu *pmu)
{
	struct apmu_pmuv3 *pv = to_pmuv3(&pmu->pmu);
	bool el2_traps, icntr, v3p9;
	u32 ceid[4];
	u64 ceid0, ceid1;

	pv->pmuver = read_pmuver();
	if (!pmuv3_version_ok(pv->pmuver)) {
		dev_err(pmu->dev, "no PMUv3 (%s=%u)\n",
			APMU_PMUV3_AARCH32 ? "ID_DFR0.PerfMon" : "ID_AA64DFR0_EL1.PMUVer",
			pv->pmuver);
		return -ENODEV;
	}
	pmu->num_counters = FIELD_GET(APMU_PMCR_N, read_pmcr());
	if (pmu->num_counters > APMU_MAX_EVCNT)
		pmu->num_counters = APMU_MAX_EVCNT;
	/* PMCR.LP exists from PMUv3p5: event counters then overflow at 64 bits */
	pv->long_evcnt = !APMU_PMUV3_AARCH32 && pv->pmuver >= APMU_PMUVER_V3P5 &&
			 pv->allow_lp;
	/* PMCCNTR overflows at 64 bits with PMCR.LC; 32-bit from AArch32 (arch_arm.h) */
	pv->long_ccnt = !APMU_PMUV3_AARCH32;
	pv->pmcr = (pv->long_ccnt ? ARMV8_PMU_PMCR_LC : 0) |
		   (pv->long_evcnt ? ARMV8_PMU_PMCR_LP : 0);
	/* PMUACR_EL1 and PMICNTR_EL0 only where EL2 cannot trap them: such a trap is fatal */
	v3p9 = !APMU_PMUV3_AARCH32 && pv->pmuver >= APMU_PMUVER_V3P9;
	icntr = pmuv3_has_icntr();
	el2_traps = (v3p9 || icntr) && apmu_pmuv3_el2_may_trap();
	if (el2_traps)
		dev_info(pmu->dev, "EL2 may trap PMUACR_EL1/PMICNTR_EL0 (entered at EL2, this kernel's EL2 setup does not clear its fine-grained traps): no per-counter EL0 access, no PMICNTR\n");
	pv->pmuacr = v3p9 && !el2_traps;
	pv->has_icntr = icntr && !el2_traps;
	pmu->num_dedicated = 1 + pv->has_icntr;
	pv->cnt_mask = GENMASK_ULL(pmu->num_counters, 0) >> 1 | APMU_CNT_BIT_C;
	if (pv->has_icntr)
		pv->cnt_mask |= APMU_CNT_BIT_F0;
	pv->quirks = pmuv3_quirks(apmu_pmuv3_midr(), apmu_pmuv3_machine_is,
				  apmu_pmuv3_kvm_guest(), pmu->dev);
	/* this CPU stands for all of the instance's, as in-tree (arm_pmu.c, has_smt) */
	pv->pmccntr_ok = !(pv->quirks & APMU_PMUV3_QUIRK_NO_PMCCNTR) &&
			 !apmu_pmuv3_core_has_smt();
	/* PMMIR exists from PMUv3p4 (PMUVer and PerfMon 5) */
	pv->pmmir = 0;
	if (pv->pmuver >= APMU_PMUVER_V3P4)
		pv->pmmir = lower_32_bits(read_pmmir());
	/* AArch32 PMEVTYPER<n> has no TH/TC bits to write a threshold to, as in-tree */
	if (APMU_PMUV3_AARCH32)
		pv->pmmir &= ~APMU_PMMIR_THWIDTH;

	/*
	 * PMCEID0/1_EL0 [31:0]: events 0x00-0x3f; [63:32] (PMUv3p1): 0x4000-0x403f. One
	 * bitmap, indexed by (event & 0x3f) plus 64 for the high range.
	 */
	ceid0 = read_pmceid0();
	ceid1 = read_pmceid1();
	ceid[0] = lower_32_bits(ceid0);
	ceid[1] = lower_32_bits(ceid1);
	ceid[2] = upper_32_bits(ceid0);
	ceid[3] = upper_32_bits(ceid1);
	bitmap_from_arr32(pv->pmceid, ceid, 128);

	snprintf(pmu->info, sizeof(pmu->info),
		 "PMUv3 version %u, %u event counters + cycle counter%s", pv->pmuver,
		 pmu->num_counters, pv->long_evcnt ? ", 64-bit" : "");
	return 0;
}

static void pmuv3_reset(struct apmu_pmu *pmu)
{
	struct apmu_pmuv3 *pv = to_pmuv3(&pmu->pmu);
	u64 all = pv->cnt_mask;

	write_pmcntenclr(all);
	write_pmintenclr(all);
	write_pmovsclr(all);
	write_pmuserenr(0);
	if (pv->pmuacr)
		write_pmuacr(0);
	/* P and C reset every event counter and PMCCNTR; they read as zero afterwards */
	write_pmcr(pv->pmcr | ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_C);
	/*
	 * The reset is an indirect write of the counters: the ISB orders it before the
	 * counter writes that follow at CPU PM exit and online, as in-tree.
	 */
	isb();
}

/* Counter values are kept: perf reads the counts still open afterwards */
static void pmuv3_quiesce(struct apmu_pmu *pmu)
{
	struct apmu_pmuv3 *pv = to_pmuv3(&pmu->pmu);
	u64 all = pv->cnt_mask;

	write_pmcr(read_pmcr() & ~ARMV8_PMU_PMCR_E);
	write_pmcntenclr(all);
	write_pmintenclr(all);
	write_pmovsclr(all);
	write_pmuserenr(0);
	if (pv->pmuacr)
		write_pmuacr(0);
}

/* The PMCNTEN/PMINTEN/PMOVS bits of a counter, or of a CHAIN pair (@idx: the odd half) */
static inline u64 apmu_cnt_bits(int idx, bool chained)
{
	return chained ? BIT_ULL(idx - 1) | BIT_ULL(idx) : BIT_ULL(idx);
}

/**
 * pmuv3_pick_idx() - pick a free counter for an event
 * @pv: instance
 * @used: counter indexes in use; the chosen ones are set (plain bit operations: a CPU's
 *	  map is touched only on that CPU with IRQs off, a scratch map by one validation)
 * @evtype: the PMEVTYPER value the event needs (event number, filters, threshold)
 * @flags: %APMU_GET_CHAIN: a CHAIN pair for a 64-bit count on 32-bit event counters;
 *	   %APMU_GET_USER: user space reads the counter
 *
 * CPU_CYCLES prefers PMCCNTR (where @pv->pmccntr_ok), INST_RETIRED PMICNTR
 * (FEAT_PMUv3_ICNTR), unless a threshold is asked (they have no TH/TC) or, for PMICNTR,
 * user space reads it. A CHAIN pair is an even counter and the odd one above it, the
 * event's index, as in-tree; never for user-space reads.
 * Return: the counter index (the odd one of a pair), or -EAGAIN when none is free.
 */
static int pmuv3_pick_idx(struct apmu_pmuv3 *pv, unsigned long *used, u64 evtype,
			  unsigned int flags)
{
	unsigned int nr = pv->pmu.num_counters;
	u16 evnum = evtype & ARMV8_PMU_EVTYPE_EVENT;
	bool fixed_ok = !(evtype & (APMU_EVTYPE_TH | APMU_EVTYPE_TC));
	unsigned long free;
	unsigned int idx;

	/* the event number first: most events are not CPU_CYCLES (the hot path) */
	if (evnum == ARMV8_PMUV3_PERFCTR_CPU_CYCLES && fixed_ok && pv->pmccntr_ok &&
	    !__test_and_set_bit(APMU_IDX_CYCLE, used))
		return APMU_IDX_CYCLE;
	/* never a CHAIN pair (two reads that can tear) for EL0: wait for PMCCNTR, as in-tree */
	if ((flags & (APMU_GET_CHAIN | APMU_GET_USER)) == (APMU_GET_CHAIN | APMU_GET_USER))
		return -EAGAIN;
	if (fixed_ok && evnum == ARMV8_PMUV3_PERFCTR_INST_RETIRED && pv->has_icntr &&
	    !(flags & APMU_GET_USER) && !__test_and_set_bit(APMU_IDX_INSTR, used))
		return APMU_IDX_INSTR;

	if (flags & APMU_GET_CHAIN) {
		for (idx = 0; idx + 1 < nr; idx += 2) {
			if (test_bit(idx, used) || test_bit(idx + 1, used))
				continue;
			__set_bit(idx, used);
			__set_bit(idx + 1, used);
			return idx + 1;
		}
		return -EAGAIN;
	}

	/* the event counters are bits 0 to nr - 1 of the map's first word (nr < 32) */
	free = ~used[0] & (BIT(nr) - 1);
	if (!free)
		return -EAGAIN;
	idx = __ffs(free);
	__set_bit(idx, used);
	return idx;
}

/**
 * pmuv3_counter_is_64bit() - whether a counter overflows at 64 bits
 * @pv: instance
 * @idx: counter index
 * @chained: @idx is the high half of a CHAIN pair
 *
 * PMCCNTR with PMCR.LC, PMICNTR always, a CHAIN pair, event counters with PMCR.LP
 * (PMUv3p5).
 * Return: true for a 64-bit counter.
 */
static bool pmuv3_counter_is_64bit(struct apmu_pmuv3 *pv, int idx, bool chained)
{
	if (idx == APMU_IDX_CYCLE)
		return pv->long_ccnt;
	return idx == APMU_IDX_INSTR || chained || pv->long_evcnt;
}

static int pmuv3_get_idx(unsigned long *used, struct perf_event *event,
			 unsigned long *hwflags)
{
	struct apmu_pmuv3 *pv = to_pmuv3(event->pmu);
	unsigned int flags = 0;
	bool chained;
	int idx;

	if (apmu_wants_chain(pv, event))
		flags |= APMU_GET_CHAIN;
	if (event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT)
		flags |= APMU_GET_USER;
	idx = pmuv3_pick_idx(pv, used, event->hw.config_base, flags);
	if (idx < 0)
		return idx;
	chained = idx < APMU_MAX_EVCNT && (flags & APMU_GET_CHAIN);
	*hwflags = chained ? APMU_HWF_CHAIN : 0;
	if (pmuv3_counter_is_64bit(pv, idx, chained))
		*hwflags |= ARMPMU_EVT_64BIT;
	return idx;
}

static void pmuv3_put_idx(unsigned long *used, struct perf_event *event)
{
	__clear_bit(event->hw.idx, used);
	if (event->hw.flags & APMU_HWF_CHAIN)
		__clear_bit(event->hw.idx - 1, used);
}

/*
 * A CHAIN pair's 64-bit value, re-read until the high half is stable. From PMUv3p5 event
 * counters are 64 bits whatever PMCR_EL0.LP says (it only moves the overflow), so only
 * bits [31:0] of each half count. Out of line, so the single counters' paths need no
 * stack frame.
 */
static noinline u64 pmuv3_read_chain(int idx)
{
	u64 hi, lo, prev;

	hi = lower_32_bits(read_pmevcntrn(idx));
	do {
		prev = hi;
		lo = lower_32_bits(read_pmevcntrn(idx - 1));
		hi = lower_32_bits(read_pmevcntrn(idx));
	} while (hi != prev);
	return hi << 32 | lo;
}

/**
 * pmuv3_read() - a counter's value, or a CHAIN pair's 64-bit value
 * @idx: counter index
 * @chained: @idx - 1 and @idx form a CHAIN pair
 *
 * Return: the raw value. A 32-bit event counter on PMUv3p5 is a 64-bit register whose
 * upper half the caller ignores (it compares at the counter's width).
 */
static u64 pmuv3_read(int idx, bool chained)
{
	if (idx == APMU_IDX_CYCLE)
		return read_pmccntr();
	if (idx == APMU_IDX_INSTR)
		return read_pmicntr();
	if (unlikely(chained))
		return pmuv3_read_chain(idx);
	return read_pmevcntrn(idx);
}

static noinline void pmuv3_write_chain(int idx, u64 val)
{
	write_pmevcntrn(idx - 1, lower_32_bits(val));
	write_pmevcntrn(idx, upper_32_bits(val));
}

static void pmuv3_write(int idx, bool chained, u64 val)
{
	if (idx == APMU_IDX_CYCLE)
		write_pmccntr(val);
	else if (idx == APMU_IDX_INSTR)
		write_pmicntr(val);
	else if (unlikely(chained))
		pmuv3_write_chain(idx, val);
	else
		write_pmevcntrn(idx, val);
}

static u64 pmuv3_read_counter(struct perf_event *event)
{
	return pmuv3_read(event->hw.idx, event->hw.flags & APMU_HWF_CHAIN);
}

static void pmuv3_write_counter(struct perf_event *event, u64 val)
{
	pmuv3_write(event->hw.idx, event->hw.flags & APMU_HWF_CHAIN, val);
}

/* CHAIN counts overflows of counter idx - 1 at the ELs its own filter allows */
static noinline void pmuv3_type_chain(int idx, u64 evtype)
{
	write_pmevtypern(idx - 1, evtype);
	write_pmevtypern(idx, ARMV8_PMUV3_PERFCTR_CHAIN | (evtype & APMU_FILT_MASK));
}

/**
 * pmuv3_enable() - program and enable one counter (or CHAIN pair)
 * @idx: counter index
 * @chained: @idx - 1 and @idx form a CHAIN pair
 * @evtype: PMEVTYPER value; PMCCFILTR and PMICFILTR take only the filter bits
 * @irq: also enable the overflow interrupt (PMINTENSET); of a pair, the odd counter's
 *
 * The type is written before the enable; a pair is enabled with one PMCNTENSET write.
 */
static void pmuv3_enable(int idx, bool chained, u64 evtype, bool irq)
{
	if (idx == APMU_IDX_CYCLE)
		write_pmccfiltr(evtype & APMU_FILT_MASK);
	else if (idx == APMU_IDX_INSTR)
		write_pmicfiltr(evtype & APMU_FILT_MASK);
	else if (unlikely(chained))
		pmuv3_type_chain(idx, evtype);
	else
		write_pmevtypern(idx, evtype);
	if (irq)
		write_pmintenset(BIT_ULL(idx));
	write_pmcntenset(apmu_cnt_bits(idx, chained));
}

/**
 * pmuv3_disable() - disable a counter (or pair), its interrupt and overflow flags
 * @idx: counter index
 * @chained: @idx - 1 and @idx form a CHAIN pair
 *
 * PMCNTENCLR, PMINTENCLR and PMOVSCLR are W1C. No barrier: the caller runs with PMCR.E
 * clear and synchronized (pmuv3_stop()).
 */
static void pmuv3_disable(int idx, bool chained)
{
	u64 bits = apmu_cnt_bits(idx, chained);

	write_pmcntenclr(bits);
	write_pmintenclr(bits);
	write_pmovsclr(bits);
}

static void pmuv3_enable_event(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	pmuv3_enable(hwc->idx, hwc->flags & APMU_HWF_CHAIN, hwc->config_base,
		     hwc->flags & APMU_HWF_IRQ);
}

/*
 * A counting event on a 64-bit counter never enabled its interrupt nor can set its flag
 * (a pair's low half does, at its wraps): one PMCNTENCLR write does.
 */
static void pmuv3_disable_event(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	if (hwc->flags & (APMU_HWF_IRQ | APMU_HWF_CHAIN))
		pmuv3_disable(hwc->idx, hwc->flags & APMU_HWF_CHAIN);
	else
		write_pmcntenclr(BIT_ULL(hwc->idx));
}

/*
 * PMCR_EL0.E gates every counter. The ISB before it makes the bracket's PMEVTYPER,
 * PMEVCNTR and PMCNTENSET writes take effect first (Arm ARM, "Synchronization
 * requirements for AArch64 System registers"). APMU_PMUV3_QUIRK_IRQ_RESYNC: QEMU
 * evaluates its interrupt line on PMINTEN/PMOVS writes, not on a PMCR write, so a
 * pending overflow would stay unsignalled; writing 0 to PMINTENSET makes it look again.
 */
static void pmuv3_start(struct apmu_pmu *pmu)
{
	struct apmu_pmuv3 *pv = to_pmuv3(&pmu->pmu);

	isb();
	write_pmcr(pv->pmcr | ARMV8_PMU_PMCR_E);
	if (unlikely(pv->quirks & APMU_PMUV3_QUIRK_IRQ_RESYNC))
		write_pmintenset(0);
}

/*
 * Every counter stops (PMCR_EL0.E clear), in effect before anything else in the bracket.
 * In the handler the ISB also puts PMOVSCLR in effect, so the request is deasserted
 * before the EOI.
 */
static void pmuv3_stop(struct apmu_pmu *pmu)
{
	write_pmcr(to_pmuv3(&pmu->pmu)->pmcr);
	isb();
}

/**
 * pmuv3_take_overflows() - take the overflow flags of our counters, stop the counters
 * @pmu: instance
 * @used: counter indexes in use on this CPU
 *
 * Every set flag is cleared (PMOVSCLR is W1C) before the counters are read, so a new
 * overflow raises a new interrupt; a flag of an unused counter too, as in-tree, or it
 * would hold the level-sensitive interrupt asserted. A CHAIN pair's low half is in @used
 * but holds no event.
 * Return: the flags of counters in @used taken; 0 when none of ours had overflowed.
 */
static unsigned long pmuv3_take_overflows(struct apmu_pmu *pmu, const unsigned long *used)
{
	u64 ovs = read_pmovsclr() & to_pmuv3(&pmu->pmu)->cnt_mask;
	u64 mine = 0;

	if (!ovs)
		return 0;
	write_pmovsclr(ovs);
	bitmap_to_arr64(&mine, used, APMU_PMUV3_NR_IDX);
	ovs &= mine;
	if (ovs)
		pmuv3_stop(pmu);
	else
		isb();	/* the stale flag's interrupt request goes before the GIC EOI */
	return ovs;
}

/*
 * EL0 access: PMUSERENR_EL0.ER (event counters), CR (PMCCNTR); unused counters read 0.
 * FEAT_PMUv3p9 (@pv->pmuacr): PMUACR_EL1 (P<n> bit n, C bit 31) has @own and the unused
 * counters, UEN makes it decide EL0 reads, ER|CR keep writes trapped, as in-tree.
 * PMICNTR is never read from EL0.
 */
static void pmuv3_user_access(struct apmu_pmu *pmu, const unsigned long *used,
			      const unsigned long *own, bool grant)
{
	struct apmu_pmuv3 *pv = to_pmuv3(&pmu->pmu);
	unsigned long unused;
	unsigned int idx;
	u64 mine = 0, task = 0;

	if (!used) {
		write_pmuserenr(0);
		if (pv->pmuacr)
			write_pmuacr(0);
		return;
	}
	bitmap_to_arr64(&mine, used, APMU_PMUV3_NR_IDX);
	unused = pv->cnt_mask & ~mine & ~APMU_CNT_BIT_F0;
	for_each_set_bit(idx, &unused, APMU_PMUV3_NR_IDX)
		pmuv3_write(idx, false, 0);
	if (pv->pmuacr) {
		bitmap_to_arr64(&task, own, APMU_PMUV3_NR_IDX);
		write_pmuacr((task & pv->cnt_mask & ~APMU_CNT_BIT_F0) | unused);
	}
	if (grant)
		write_pmuserenr(ARMV8_PMU_USERENR_ER | ARMV8_PMU_USERENR_CR |
				(pv->pmuacr ? APMU_USERENR_UEN : 0));
}

const struct apmu_pmu_ops APMU_PMUV3_OPS = {
	.probe		= pmuv3_probe,
	.map_event	= apmu_pmuv3_map_event,
	.set_filter	= apmu_pmuv3_set_filter,
	.get_idx	= pmuv3_get_idx,
	.put_idx	= pmuv3_put_idx,
	.read_counter	= pmuv3_read_counter,
	.write_counter	= pmuv3_write_counter,
	.enable		= pmuv3_enable_event,
	.disable	= pmuv3_disable_event,
	.start		= pmuv3_start,
	.stop		= pmuv3_stop,
	.take_overflows	= pmuv3_take_overflows,
	.reset		= pmuv3_reset,
	.quiesce	= pmuv3_quiesce,
	/* none from AArch32: the core refuses rdpmc and never grants EL0 access */
	.user_access	= APMU_PMUV3_AARCH32 ? NULL : pmuv3_user_access,
};
