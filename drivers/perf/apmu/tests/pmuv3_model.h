/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A register model of one CPU's PMUv3, for KUnit. It implements the architectural rules
 * the driver depends on, so that a driver bug, not the model, is what a test catches.
 * References are to the Arm ARM (DDI 0487): the register descriptions and the pseudocode
 * AArch64.IncrementEventCounter() and AArch64.IncrementCycleCounter() (J1.1.1,
 * aarch64/debug). The rules, exactly:
 *
 *  - PMCNTENSET/CLR, PMINTENSET/CLR and PMOVSSET/CLR are W1S/W1C views of one state each:
 *    both read it; a 1 sets (SET) or clears (CLR) that bit, a 0 leaves it alone.
 *  - Bits of counters that are not implemented (P<n> for n >= PMCR.N, F0 without
 *    FEAT_PMUv3_ICNTR, and bits [63:33]) are RAZ/WI in those registers.
 *  - PMCR_EL0: N is read-only; P and C are write-only and read as zero, a 1 zeroes every
 *    implemented PMEVCNTR<n> (all 64 bits) or PMCCNTR and leaves the overflow flags
 *    alone; LP is RES0 (RAZ/WI) before PMUv3p5; E, D, DP, LC and (from PMUv3p5) LP hold
 *    what is written; every other bit is RAZ/WI.
 *  - PMEVTYPER<n>: evtCount[15:10] is RES0 (RAZ/WI) before PMUv3p1 (and with PMUVer
 *    0xf), bits [63:32] (no FEAT_PMUv3_TH) and [25:16] are RAZ/WI; PMCCFILTR and
 *    PMICFILTR keep bits [31:26]; PMUSERENR keeps EN, SW, CR and ER.
 *  - UNDEFINED: PMEVCNTR<n>/PMEVTYPER<n> for n >= PMCR.N, PMICNTR/PMICFILTR without
 *    FEAT_PMUv3_ICNTR, PMMIR_EL1 before PMUv3p4 (or with PMUVer 0xf), and any write to
 *    PMCEID0/1, PMMIR or the ID registers. Each such access is counted in @undef, reads
 *    as 0, writes nothing, and fails the running KUnit test (unless @selftest).
 *  - Counter widths: PMEVCNTR<n> is 32 bits wide before PMUv3p5 (bits [63:32] RAZ/WI)
 *    and 64 bits wide from PMUv3p5 (PMUVer 6..0xe) WHATEVER PMCR.LP says; PMCCNTR and
 *    PMICNTR are 64 bits wide.
 *  - Overflow: an event counter sets its PMOVS bit on the unsigned overflow of bits
 *    [31:0] when LP is 0 (always before PMUv3p5; on PMUv3p5 bits [63:32] keep counting)
 *    and of bits [63:0] when LP is 1. PMCCNTR overflows at bits [31:0] when PMCR.LC is
 *    0 and [63:0] when it is 1 (an implementation with AArch32 at some EL, so LC is
 *    RW). PMICNTR overflows at [63:0].
 *  - CHAIN (0x1E): every overflow of an even counter n with LP 0 is one CHAIN event for
 *    counter n + 1 (if n + 1 < N), which counts it when it is enabled and its evtCount is
 *    CHAIN. With LP 1 an even counter's overflow (at 64 bits) generates no CHAIN event:
 *    the pseudocode counts CHAIN only when "lp == '0'". CHAIN on an even counter, or
 *    given to apmu_model_count(), counts nothing.
 *  - Only counters enabled in PMCNTENSET count, and only while PMCR.E is set; the
 *    overflow interrupt request is any PMOVS bit whose PMINTEN bit is set.
 *  - Runaway re-reads: more than %APMU_MODEL_REREAD_MAX consecutive reads of the
 *    PMEVCNTR registers of one even/odd pair, with no register write and no
 *    apmu_model_count() in between, fail the running KUnit test (a consistent hi/lo read
 *    of a pair that is not counting needs at most three) and are counted in @runaway;
 *    from then on they return 0 until a register write, a count or a read of another
 *    pair, so a re-read loop that compares two reads exits instead of hanging the test.
 *
 *
 * The AArch32 view (@aarch32, apmu_model_init_aarch32()): the same PMU, reached through
 * the AArch32 System registers of CP15 (Arm ARM, the AArch32 PMU register descriptions),
 * for the backend compiled with APMU_PMUV3_AARCH32 = 1 (pmuv3_aarch32_test.c):
 *
 *  - ID_DFR0.PerfMon, bits [27:24], identifies the PMU, and @pmuver holds it: 0 none,
 *    1 PMUv1 and 2 PMUv2 (ARMv7's), 3 PMUv3, from 4 (PMUv3p1) the values of
 *    ID_AA64DFR0_EL1.PMUVer, 0xf IMPLEMENTATION DEFINED. When it is not a PMUv3 (0, 1, 2,
 *    0xf), any access to another PMU register fails the test: the driver must refuse the
 *    PMU from ID_DFR0 alone. The AArch64 ID registers (ID_AA64DFR0/1_EL1) do not exist.
 *  - Every PMU register is 32 bits wide except PMCCNTR, which has a 64-bit encoding
 *    (MRRC/MCRR p15, 0, <Rt>, <Rt2>, c9: all 64 bits) and a 32-bit one
 *    (MRC/MCR p15, 0, <Rt>, c9, c13, 0: reads bits [31:0]; writes bits [31:0] and leaves
 *    bits [63:32] unchanged). A write with any of bits [63:32] set to another register
 *    (a PMEVTYPER<n> threshold field TH/TC, F0 at bit 32 of the counter bitmaps) is an
 *    access to a field AArch32 lacks: the 32-bit accessors of 32-bit Arm would silently
 *    drop those bits, so it counts as UNDEFINED (it writes nothing and fails the test).
 *  - PMEVCNTR<n> is PMEVCNTR<n>_EL0[31:0]: from PMUv3p5 a read returns bits [31:0] of
 *    the 64-bit counter and a write updates bits [31:0] and leaves bits [63:32] unchanged.
 *    Counting, widths and overflow points are those of the AArch64 rules above (PMCR.LC
 *    and LP are PMCR bits 6 and 7 in AArch32 too).
 *  - PMCEID0/1 are PMCEID0/1_EL0[31:0]; PMCEID2/3 are their bits [63:32] (events
 *    0x4000-0x403f) and exist from PMUv3p1, UNDEFINED before. PMMIR is PMMIR_EL1[31:0]
 *    (with THWIDTH at [23:20]), from PMUv3p4.
 *  - PMICNTR and PMICFILTR have no AArch32 encoding (FEAT_PMUv3_ICNTR is AArch64-only):
 *    UNDEFINED.
 *
 * Not modelled: exception-level filtering (every enabled counter counts every event given
 * to apmu_model_count()), PMCR.D (PMCCNTR counts every CPU_CYCLES) and X, MDCR_EL2.HPMN
 * and HLP (all counters are in the range PMCR_EL0 controls), SW_INCR, thresholds,
 * PMSELR/PMXEVCNTR, PMUSERENR traps; PMCEID0/1 read what the test put in @ceid0/@ceid1.
 */
#ifndef __APMU_PMUV3_MODEL_H
#define __APMU_PMUV3_MODEL_H

#include <linux/types.h>

#include "../pmuv3/pmuv3.h"

/**
 * enum apmu_reg - the PMUv3 registers the model has
 * @APMU_R_PMCR: PMCR_EL0
 * @APMU_R_PMCNTENSET: PMCNTENSET_EL0 (W1S view of the counter enables)
 * @APMU_R_PMCNTENCLR: PMCNTENCLR_EL0 (W1C view of the same enables)
 * @APMU_R_PMINTENSET: PMINTENSET_EL1 (W1S view of the overflow interrupt enables)
 * @APMU_R_PMINTENCLR: PMINTENCLR_EL1 (W1C view of the same enables)
 * @APMU_R_PMOVSSET: PMOVSSET_EL0 (W1S view of the overflow flags)
 * @APMU_R_PMOVSCLR: PMOVSCLR_EL0 (W1C view of the same flags)
 * @APMU_R_PMUSERENR: PMUSERENR_EL0
 * @APMU_R_PMCCNTR: PMCCNTR_EL0
 * @APMU_R_PMCCFILTR: PMCCFILTR_EL0
 * @APMU_R_PMICNTR: PMICNTR_EL0 (FEAT_PMUv3_ICNTR)
 * @APMU_R_PMICFILTR: PMICFILTR_EL0 (FEAT_PMUv3_ICNTR)
 * @APMU_R_PMEVCNTR: PMEVCNTR<n>_EL0
 * @APMU_R_PMEVTYPER: PMEVTYPER<n>_EL0
 * @APMU_R_PMCEID0: PMCEID0_EL0
 * @APMU_R_PMCEID1: PMCEID1_EL0
 * @APMU_R_PMMIR: PMMIR_EL1
 * @APMU_R_DFR0: ID_AA64DFR0_EL1, for PMUVer
 * @APMU_R_DFR1: ID_AA64DFR1_EL1, for PMICNTR
 * @APMU_R_PMCCNTR32: AArch32 PMCCNTR through its 32-bit encoding
 *		      (MRC/MCR p15, 0, <Rt>, c9, c13, 0): bits [31:0]
 * @APMU_R_PMCEID2: AArch32 PMCEID2 (PMCEID0_EL0[63:32], PMUv3p1)
 * @APMU_R_PMCEID3: AArch32 PMCEID3 (PMCEID1_EL0[63:32], PMUv3p1)
 * @APMU_R_ID_DFR0: AArch32 ID_DFR0, for PerfMon (bits [27:24])
 * @APMU_R_PMUACR: PMUACR_EL1 (FEAT_PMUv3p9): per-counter EL0 access
 */
enum apmu_reg {
	APMU_R_PMCR,
	APMU_R_PMCNTENSET,
	APMU_R_PMCNTENCLR,
	APMU_R_PMINTENSET,
	APMU_R_PMINTENCLR,
	APMU_R_PMOVSSET,
	APMU_R_PMOVSCLR,
	APMU_R_PMUSERENR,
	APMU_R_PMCCNTR,
	APMU_R_PMCCFILTR,
	APMU_R_PMICNTR,
	APMU_R_PMICFILTR,
	APMU_R_PMEVCNTR,
	APMU_R_PMEVTYPER,
	APMU_R_PMCEID0,
	APMU_R_PMCEID1,
	APMU_R_PMMIR,
	APMU_R_DFR0,
	APMU_R_DFR1,
	APMU_R_PMCCNTR32,
	APMU_R_PMCEID2,
	APMU_R_PMCEID3,
	APMU_R_ID_DFR0,
	APMU_R_PMUACR,
};

/* ID_AA64DFR0_EL1.PMUVer of FEAT_PMUv3p1 */
#define APMU_MODEL_PMUVER_V3P1	0x4

/* ID_DFR0.PerfMon, bits [27:24] (AArch32) */
#define APMU_MODEL_ID_DFR0_PERFMON	GENMASK(27, 24)

/* Consecutive reads of one counter pair, nothing changing, that count as a runaway loop */
#define APMU_MODEL_REREAD_MAX	16

/**
 * struct apmu_model - one CPU's PMUv3 registers
 * @n: implemented event counters (PMCR_EL0.N)
 * @pmuver: ID_AA64DFR0_EL1.PMUVer; with @aarch32, ID_DFR0.PerfMon
 * @aarch32: the AArch32 view (see above): the driver runs in AArch32 state
 * @icntr: FEAT_PMUv3_ICNTR implemented
 * @pmcr: PMCR_EL0 bits other than N
 * @cnten: counter enables behind PMCNTENSET/CLR
 * @inten: interrupt enables behind PMINTENSET/CLR
 * @ovs: overflow flags behind PMOVSSET/CLR
 * @userenr: PMUSERENR_EL0
 * @ccntr: PMCCNTR_EL0
 * @ccfiltr: PMCCFILTR_EL0
 * @icntr_val: PMICNTR_EL0
 * @icfiltr: PMICFILTR_EL0
 * @evcntr: PMEVCNTR<n>_EL0
 * @evtyper: PMEVTYPER<n>_EL0
 * @ceid0: PMCEID0_EL0
 * @ceid1: PMCEID1_EL0
 * @pmmir: PMMIR_EL1 (read from PMUv3p4; bits [31:0] from AArch32)
 * @midr: MIDR_EL1 (apmu_model_init(): a Cortex-A57's, 0x411fd070)
 * @smt: not a register: the system's topology gives the core several threads
 * @pmuacr: PMUACR_EL1 (from PMUv3p9; bits of unimplemented counters RAZ/WI)
 * @el2_trap: EL2 traps PMUACR_EL1 and PMICNTR_EL0 (HDFGxTR2_EL2 bits left 0): an access is
 *	      an error of the driver, counted in @undef
 * @userenr_grants: PMUSERENR writes that set any of EN, SW, CR, ER (EL0 access)
 * @undef: accesses that are UNDEFINED on hardware
 * @runaway: runaway re-read loops detected
 * @writes: register writes, all registers
 * @reads: register reads, all registers
 * @selftest: the model's own tests: count UNDEFINED accesses and runaway loops in
 *	      @undef and @runaway without failing the running test
 * @rr_pair: the counter pair (n / 2) of the current run of PMEVCNTR reads, or -1
 * @rr_count: PMEVCNTR reads in the current run
 * @rr_tripped: the current run exceeded %APMU_MODEL_REREAD_MAX; its reads return 0
 * @reset_unsynced: a PMCR write with P or C, no isb() since: the counter reset is an
 *		    indirect write, which the Arm ARM orders before a later direct write of
 *		    a counter only across a Context synchronization event
 * @unsynced_cntr_writes: counter writes (PMEVCNTR, PMCCNTR, PMICNTR) made while
 *			  @reset_unsynced: on hardware the pending reset may still zero them
 */
struct apmu_model {
	unsigned int n;
	unsigned int pmuver;
	bool aarch32;
	bool icntr;
	u64 pmcr;
	u64 cnten, inten, ovs;
	u64 userenr;
	u64 ccntr, ccfiltr;
	u64 icntr_val, icfiltr;
	u64 evcntr[APMU_MAX_EVCNT];
	u64 evtyper[APMU_MAX_EVCNT];
	u64 ceid0, ceid1;
	u32 pmmir;
	u32 midr;
	bool smt;
	u64 pmuacr;
	bool el2_trap;
	unsigned int userenr_grants;
	unsigned int undef;
	unsigned int runaway;
	unsigned int writes, reads;
	bool selftest;
	int rr_pair;
	unsigned int rr_count;
	bool rr_tripped;
	bool reset_unsynced;
	unsigned int unsynced_cntr_writes;
};

void apmu_model_init(struct apmu_model *m, unsigned int n, unsigned int pmuver);
void apmu_model_init_aarch32(struct apmu_model *m, unsigned int n, unsigned int perfmon);
void apmu_model_select(struct apmu_model *m);
u64 apmu_model_read(enum apmu_reg reg, unsigned int n);
void apmu_model_write(enum apmu_reg reg, unsigned int n, u64 val);
void apmu_model_count(struct apmu_model *m, u16 evnum, u64 count);
bool apmu_model_irq_pending(const struct apmu_model *m);
void apmu_model_isb(void);
bool apmu_model_smt(void);
bool apmu_model_el2_trap(void);
bool apmu_model_el0_can_read(const struct apmu_model *m, unsigned int idx);
u32 apmu_model_midr(void);

/* The PMUv3 backend compiled against the model (pmuv3_test.c) */
extern const struct apmu_pmu_ops apmu_pmuv3_model_ops;
void apmu_model_pmu_init(struct apmu_pmuv3 *pv, bool allow_lp);
/* ... and again with the AArch32 rules, over the model's AArch32 view */
extern const struct apmu_pmu_ops apmu_pmuv3_a32_model_ops;

#endif /* __APMU_PMUV3_MODEL_H */
