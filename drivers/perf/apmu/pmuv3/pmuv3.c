// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the PMUv3 backend's counter logic. Every function acts on the calling CPU's
 * registers through the inline accessors of <asm/arm_pmuv3.h> (read_pmcr(),
 * write_pmevtypern(), ...), the same names on AArch64 and AArch32. APMU_PMUV3_AARCH32
 * (from the accessor header) selects the AArch32 rules: 32-bit PMCCNTR and event
 * counters, PMUv3 from ID_DFR0.PerfMon 3, no thresholds and no EL0 reads.
 *
 * The KUnit module compiles this file again against its register model, as
 * apmu_pmuv3_model_ops: it names the model's accessor header in APMU_PMUV3_ACCESSORS_H
 * (tests/pmuv3_model_access.h), included here in place of the arch's. apmu.ko holds no
 * model code and no dispatch per register.
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

/*
 * MIDR implementer [31:24], and a core model: implementer, architecture [19:16] and part
 * number [15:4] (variant and revision masked), the same on AArch64 and AArch32
 */
#define APMU_MIDR_IMPLEMENTER	GENMASK(31, 24)
#define APMU_MIDR_MODEL		(APMU_MIDR_IMPLEMENTER | GENMASK(19, 4))

/*
 * The PMUs that need a workaround (APMU_PMUV3_QUIRK_*), matched once at probe on the
 * MIDR and, where the MIDR cannot tell, the device tree root compatible; each hot path
 * then tests one bit of apmu_pmuv3.quirks. Each entry says what would remove it.
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
	/*
	 * QEMU's TCG CPUs (-cpu max on AArch64: MIDR_EL1 implementer 0, "reserved for
	 * software use"). QEMU's pmcr_write() does not re-evaluate the PMU interrupt line,
	 * 7.2 to 10.0 (measured by the hotplug storm test with long_counters=0, see
	 * pmuv3_start()); goes when a QEMU that does is the oldest one apmu is tested on.
	 */
	{ .midr_mask = APMU_MIDR_IMPLEMENTER, .midr = 0,
	  .quirks = APMU_PMUV3_QUIRK_IRQ_RESYNC,
	  .what = "QEMU's PMU: its overflow interrupt is re-raised after PMCR.E is set" },
	/*
	 * QEMU's AArch32 "max" CPU reports Cortex-A57's MIDR (0x411fd070): QEMU is known by
	 * its virt board. A 32-bit KVM guest on that board pays one CP15 write per
	 * pmu_enable. Goes with the entry above.
	 */
	{ .machine = "linux,dummy-virt", .aarch32 = true,
	  .quirks = APMU_PMUV3_QUIRK_IRQ_RESYNC,
	  .what = "QEMU's virt board: the overflow interrupt is re-raised after PMCR.E is set" },
	/*
	 * QEMU's named AArch64 CPUs (-cpu cortex-a72, neoverse-n1, ...) have their real
	 * MIDRs and QEMU's PMU: known by the virt board without KVM's hypervisor services
	 * (a KVM guest's PMU is KVM's, and a PMINTENSET write there is a trap). Seen: the
	 * hotplug storm test's samples, 5 where 1683 are due, on -cpu cortex-a72.
	 */
	{ .machine = "linux,dummy-virt", .tcg = true,
	  .quirks = APMU_PMUV3_QUIRK_IRQ_RESYNC,
	  .what = "QEMU's virt board, no KVM: overflow interrupt re-raised after PMCR.E set" },
	/*
	 * NVIDIA Olympus (MIDR implementer 0x4e, part 0x010): its PMCCNTR keeps counting
	 * while the PE is in WFI/WFE, unlike CPU_CYCLES on an event counter. From the
	 * posted "perf/arm_pmu: Skip PMCCNTR_EL0 on NVIDIA Olympus" (not in Linux 7.2);
	 * follows what upstream settles on.
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

/**
 * pmuv3_probe() - discover the PMU on the calling CPU
 * @pmu: instance to fill: counters, version, long counters, common events
 *
 * Return: 0, or -ENODEV without a PMUv3.
 */
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
	/*
	 * PMUACR_EL1 and PMICNTR_EL0 only where EL2 cannot trap them (a trap taken by an
	 * EL2 that does not expect it is fatal): said once, as what is left out
	 */
	v3p9 = !APMU_PMUV3_AARCH32 && pv->pmuver >= APMU_PMUVER_V3P9;
	icntr = pmuv3_has_icntr();
	el2_traps = (v3p9 || icntr) && apmu_pmuv3_el2_may_trap();
	if (el2_traps)
		dev_info(pmu->dev, "EL2 may trap PMUACR_EL1/PMICNTR_EL0 (entered at EL2, this kernel's EL2 setup does not clear its fine-grained traps): no per-counter EL0 access, no PMICNTR\n");
	pv->pmuacr = v3p9 && !el2_traps;
	pv->has_icntr = icntr && !el2_traps;
	/* PMCCNTR, and PMICNTR where used */
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
	 * PMCEID0/1_EL0 bits [31:0] describe events 0x00-0x3f, bits [63:32] (PMUv3p1) the
	 * 0x4000-0x403f range. Re-pack them as one bitmap indexed by (event & 0x3f) plus 64
	 * for the high range.
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

/**
 * pmuv3_reset() - bring the calling CPU's PMU to a known idle state
 * @pmu: instance
 *
 * Counters disabled, overflow interrupts disabled, overflow flags cleared, all counters
 * zeroed, EL0 access off. PMCR.E stays clear until an event is scheduled.
 */
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
	 * The reset is a side effect of the PMCR write (an indirect write of the
	 * counters): a Context synchronization event orders it before the counter writes
	 * that follow at CPU PM exit and online (the events restarted there), so no
	 * pending reset can zero a counter just written, as in-tree (armv8pmu_pmcr_write()
	 * issues an ISB with every PMCR write). Not a hot path: reset runs at online and
	 * CPU PM exit only.
	 */
	isb();
}

/**
 * pmuv3_quiesce() - stop the calling CPU's PMU (CPU going offline, module unload)
 * @pmu: instance
 *
 * Leaves no counter enabled, no interrupt enabled and no overflow flag pending. Counter
 * values are kept, so counts still open can be read out by perf afterwards.
 */
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

/*
 * The PMCNTEN/PMINTEN/PMOVS bits of a counter, or of both halves of a CHAIN pair (@idx
 * the odd, high half).
 */
static inline u64 apmu_cnt_bits(int idx, bool chained)
{
	return chained ? BIT_ULL(idx - 1) | BIT_ULL(idx) : BIT_ULL(idx);
}

/**
 * pmuv3_pick_idx() - pick a free counter for an event
 * @pv: instance
 * @used: counter indexes in use; the chosen ones are set. A CPU's map is only touched
 *	  on that CPU with IRQs off, a group's scratch map by its validation alone: plain,
 *	  not atomic, bit operations
 * @evtype: the PMEVTYPER value the event needs (event number, filters, threshold)
 * @flags: %APMU_GET_CHAIN: a 64-bit count is needed on 32-bit event counters, take a
 *	   CHAIN pair; %APMU_GET_USER: user space reads the counter
 *
 * CPU_CYCLES prefers the dedicated PMCCNTR (where @pv->pmccntr_ok) and INST_RETIRED the
 * instruction counter PMICNTR (FEAT_PMUv3_ICNTR): both are 64-bit, so no pair is needed
 * there. They have no threshold fields, so a threshold event always takes an event
 * counter, and PMICNTR is not offered to user-space reads (tools know PMEVCNTR<n> and
 * PMCCNTR only). A CHAIN pair
 * is an even counter (the low half) and the odd one above it, which counts its overflows
 * and is the event's index, as in-tree: the pair's overflow is the odd counter's.
 * A CHAIN pair is never given to an event user space reads (%APMU_GET_USER).
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
	/*
	 * User space reads one counter: a 64-bit count it reads must be on a 64-bit counter,
	 * never on a CHAIN pair (two reads that can tear). With PMCCNTR taken, wait for it,
	 * as the in-tree driver does.
	 */
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
 * PMCCNTR does with PMCR.LC (set by apmu except from AArch32), PMICNTR always, a CHAIN
 * pair as a whole, and event counters with PMCR.LP, which exists from PMUv3p5.
 *
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
	/* user space reads a single counter: a user-read event never gets a pair */
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
 * A CHAIN pair's 64-bit value. The low half may carry into the high half between the two
 * reads: re-read until the high half is stable. From PMUv3p5 event counters are 64 bits
 * wide whatever PMCR_EL0.LP says (LP = 0 only moves the overflow, and so CHAIN, to bit
 * 31), so the even counter's bits [63:32] keep counting its wraps: only bits [31:0] are
 * the low half, and only bits [31:0] of the odd counter are the high half. Out of line,
 * as the other CHAIN helpers: the single counters' paths then need no stack frame.
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
 * @evtype: PMEVTYPER value (event number, filters, threshold). PMCCFILTR and PMICFILTR
 *	    take only the filter bits: their counters' events are fixed
 * @irq: also enable the overflow interrupt (PMINTENSET); of a pair, the odd counter's,
 *	 which overflows when the 64-bit count does
 *
 * The types are written before the enable so the counter never counts a previous event.
 * A pair is enabled with one PMCNTENSET write, so neither half runs without the other.
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
 * PMCNTENCLR, PMINTENCLR and PMOVSCLR are W1C: writing our bits leaves other counters
 * alone. The flags are cleared so a stale overflow cannot interrupt the next user. The
 * caller runs with PMCR.E clear and synchronized (pmuv3_stop()), so the counter is
 * already stopped for its final read and no barrier is needed here.
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
 * An interrupt-raising counter also gets PMINTENCLR and PMOVSCLR, so no stale flag
 * interrupts the next user; so does a pair, whose low half flags its 32-bit wraps. A
 * counting event on a 64-bit counter, whose interrupt was never enabled and whose
 * overflow flag cannot be set, needs one PMCNTENCLR write instead of three.
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
 * PMCR_EL0.E gates every counter at once. The PMCR value is the PMU's constant, so no
 * register read is needed.
 *
 * The PMEVTYPER, PMEVCNTR and PMCNTENSET writes made while E was clear affect counting
 * only after a Context synchronization event (Arm ARM, "Synchronization requirements for
 * AArch64 System registers"): the ISB before E is set makes every counter start with its
 * new type and value, one barrier for the whole bracket.
 *
 * QEMU (7.2) computes its PMU interrupt line as PMCR.E && (PMINTEN & PMOVS), but only on
 * PMINTEN/PMOVS writes and overflows, not on a PMCR write: an overflow flag left pending
 * across a bracket in which apmu wrote PMINTENCLR/PMOVSCLR/PMINTENSET of another counter
 * (E clear, so the line went low) is never signalled once E is set again, and that
 * counter's samples stop (seen: 174 samples instead of ~2100 with a 32-bit task event and
 * a hotplug storm on the same CPU). Writing 0 to PMINTENSET, a no-op on hardware, makes
 * QEMU look again (still so in QEMU 10.0). Only on QEMU's PMU (pmuv3_quirks()), so
 * hardware pays nothing.
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
 * Every counter stops at once (PMCR_EL0.E clear), and the ISB makes that take effect
 * before anything else happens in the bracket: one ISB here and one before E is set,
 * whatever the number of events (Arm ARM, "Synchronization requirements for AArch64
 * System registers"). In the overflow handler, it also puts the PMOVSCLR write of
 * pmuv3_take_overflows() in effect, so the interrupt request is deasserted before the
 * GIC is told the handler is done.
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
 * Every set flag is cleared (PMOVSCLR is W1C), once, before the counters are read, so an
 * overflow that happens while they are handled raises a new interrupt. A flag of a
 * counter nobody uses is cleared too, as in-tree does: left set with its PMINTEN bit, it
 * would hold the level-sensitive PMU interrupt asserted and the CPU would take it again
 * and again, IRQ_NONE each time (a PPI is not subject to the spurious-IRQ detector).
 * The low half of a CHAIN pair is in @used (its wraps only carry into the high half,
 * the event's index), and the core finds no event there. When one of ours was set,
 * every counter stops (pmuv3_stop(), inline: no second call from the handler), whose
 * ISB also puts the PMOVSCLR write in effect.
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
 * EL0 access: PMUSERENR_EL0.ER for the event counters, CR for PMCCNTR; while it is on,
 * every counter nobody uses reads 0. With FEAT_PMUv3p9 (@pv->pmuacr), also per counter:
 * PMUACR_EL1 (P<n> bit n, C bit 31: the counter indexes) has the counters of @own and the
 * unused ones, PMUSERENR_EL0.UEN makes it decide EL0 reads, and ER|CR keep EL0 writes
 * trapped, as in-tree: other contexts' counters in use are not readable at all. PMICNTR
 * is never read from EL0.
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
	/* none from AArch32: the core then never grants EL0 access, set_filter() refuses rdpmc */
	.user_access	= APMU_PMUV3_AARCH32 ? NULL : pmuv3_user_access,
};
