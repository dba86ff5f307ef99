/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A register model of one Intel XScale core's performance monitor (CP14), for KUnit. It
 * enforces the rules of "Managing the Performance Monitor" (IXP42X/IXC1100 developer's
 * manual, 252480-006US, section 3.7.3) and the register layouts of the two variants, so
 * that a driver bug, not the model, is what a test catches:
 *
 *  - XScale2 (PXA27x, IXP42x): PMNC (E bit 0, P bit 1, C bit 2, D bit 3, ID [31:24]
 *    read-only), CCNT, PMN0-PMN3, INTEN and FLAG (bit 0 CCNT, bits 1-4 PMN0-PMN3) and
 *    EVTSEL (evtCount3..0 in bytes 3..0, table 59). XScale1 (PXA25x): two event counters,
 *    and the interrupt enables ([6:4]: PMN0, PMN1, CCNT), overflow flags ([10:8], same
 *    order) and event selects (evtCount0 [19:12], evtCount1 [27:20]) live in PMNC; its
 *    INTEN, FLAG, EVTSEL, PMN2 and PMN3 do not exist and an access to them is UNDEFINED.
 *  - "An interrupt request will be generated when a counter's overflow flag is set and
 *    its associated interrupt enable bit is set in INTEN. The interrupt request will
 *    remain asserted until software clears the overflow flag by writing a one to the flag
 *    that is set." FLAG is write-one-to-clear; apmu_xs_model_irq() is the request, and
 *    "Disabling the facility (PMNC.E) doesn't deassert the interrupt request": it does not
 *    look at E.
 *  - "The counters continue to record events even after they overflow": a counter wraps
 *    from 0xffffffff to 0, sets its flag and goes on counting.
 *  - "To change an event for a performance counter, first disable the facility (PMNC.E)
 *    and then modify EVTSEL. Not doing so will cause unpredictable results": a write to
 *    EVTSEL while PMNC.E is set is a violation, even of the value it holds; on XScale1 a
 *    PMNC write that changes an evtCount field is one when E is set before it or by it.
 *  - "Power can be saved by selecting event 0xFF for any unused event counter. This only
 *    applies when other event counters are in use. When the performance monitor is not
 *    used at all (PMNC.E = 0x0), hardware ensures minimal power consumption": apmu extends
 *    every count through the overflow interrupt, so a counter holds an event exactly while
 *    its interrupt is enabled; the model takes INTEN as the set of counters in use. Whenever
 *    PMNC.E is set - when a PMNC write leaves it set, and whenever events are counted - an
 *    event counter whose interrupt is disabled must select 0xFF, and some counter must be in
 *    use (PMNC.E set with nothing counting is a violation).
 *  - Bits that are reserved (INTEN and FLAG [31:5], PMNC [23:4] on XScale2; PMNC bits 7,
 *    11 and [31:28] on XScale1) are written as 0: a 1 there is a violation. P and C read
 *    as 0: a 1 zeroes PMN0-PMN3 or CCNT (the flags stay). PMNC.D makes CCNT count once
 *    every 64 cycles.
 *
 * Each violation is counted in @violations, and fails the running KUnit test unless
 * @selftest. Not modelled: which events exist (any number but 0xFF counts what the test
 * gives it), the interrupt controller, and power.
 */
#ifndef __APMU_XSCALE_MODEL_H
#define __APMU_XSCALE_MODEL_H

#include <linux/types.h>

#include "../xscale/xscale.h"	/* the event numbers, APMU_XS_EVT_UNUSED */

/* The CP14 performance monitor registers, for the model's accessors */
enum apmu_xs_reg {
	APMU_XS_PMNC,
	APMU_XS_CCNT,
	APMU_XS_INTEN,
	APMU_XS_FLAG,
	APMU_XS_EVTSEL,
	APMU_XS_PMN0,
	APMU_XS_PMN1,
	APMU_XS_PMN2,
	APMU_XS_PMN3,
	APMU_XS_NR_REGS,
};

/* Counter numbering inside the model: XScale2's INTEN/FLAG bit numbers */
#define APMU_XS_CCNT_BIT	0
#define APMU_XS_PMN_BIT(n)	((n) + 1)

/* The ID field XScale2's PMNC reads in [31:24] */
#define APMU_XS2_PMNC_ID	0x14

/**
 * struct apmu_xs_model - one core's XScale performance monitor
 * @xscale2: the four-counter XScale2 layout (else XScale1: two counters, all in PMNC)
 * @nr_pmn: event counters (2 or 4)
 * @pmnc: PMNC E, D (P and C read as 0), and on XScale2 the ID field
 * @inten: interrupt enables, XScale2 bit numbering (CCNT bit 0, PMN<n> bit n + 1)
 * @flag: overflow flags, the same numbering
 * @evt: evtCount of PMN0-PMN3
 * @ccnt: CCNT
 * @pmn: PMN0-PMN3
 * @div: cycles counted towards the next CCNT increment when PMNC.D is set
 * @violations: rule violations (see the header comment)
 * @last: the latest violation, for the tests' messages
 * @writes: register writes
 * @reads: register reads
 * @evtsel_writes: EVTSEL writes (XScale1: PMNC writes that change an evtCount field)
 * @selftest: the model's own tests: count violations without failing the test
 */
struct apmu_xs_model {
	bool xscale2;
	unsigned int nr_pmn;
	u32 pmnc;
	u32 inten;
	u32 flag;
	u8 evt[4];
	u32 ccnt;
	u32 pmn[4];
	unsigned int div;
	unsigned int violations;
	const char *last;
	unsigned int writes, reads, evtsel_writes;
	bool selftest;
};

void apmu_xs_model_init(struct apmu_xs_model *m, bool xscale2);
void apmu_xs_model_select(struct apmu_xs_model *m);
u32 apmu_xs_model_read(enum apmu_xs_reg reg);
void apmu_xs_model_write(enum apmu_xs_reg reg, u32 val);
void apmu_xs_model_count(struct apmu_xs_model *m, u8 evt, u64 n);
void apmu_xs_model_cycles(struct apmu_xs_model *m, u64 n);
bool apmu_xs_model_irq(const struct apmu_xs_model *m);

#endif /* __APMU_XSCALE_MODEL_H */
