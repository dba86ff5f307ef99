/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A register model of one core's PC-sampling frame, for KUnit and for the VM test module:
 * the external PMU frame (FEAT_PCSRv8p2/FEAT_PCSRv8p9) or, with @debug, the external
 * debug frame (FEAT_PCSRv8). It implements the rules the driver must keep, and counts
 * (and reports) each break as a violation, so that a driver bug, not the model, is what
 * a test catches:
 *  - with the core powered down (EDPRSR.PU == 0), under the OS double lock (DLK) or under
 *    the OS lock (OSLK), an access gets an error response (an external abort on
 *    hardware): any access then is a violation;
 *  - PMPCSCTL (only with PMDEVID.PCSample == 2): IMP (bit 1) is read-only; EN (bit 0) is
 *    RAZ/WI when IMP == 0 and writing it as 1 then is a violation; SS (bit 4) exists only
 *    with FEAT_PMUv3_SS (PMDEVID.PMSS), else it is RES0; bits [63:5] and [3:2] are RES0
 *    and writing any of them as 1 is a violation; with @res0_noise, reads return RES0
 *    bits set, so a driver that writes back what it read is caught;
 *  - with the CoreSight software lock set (PMLSR.SLI and SLK), writes are ignored: a
 *    write then is a violation;
 *  - reading PMPCSR[31:0] (at 0x200 or 0x220) takes the next value of @seq and captures
 *    the context registers; 0xFFFFFFFF when EN == 0 with IMP == 1 (sampling suspended);
 *  - PMPCSCTL.EN and SS reset to 0 on a Warm reset, which a core powering up again (a
 *    CPU PM power-down idle state, a hotplug cycle) goes through:
 *    apmu_pcs_model_power() clears them when @pu goes from 0 to 1;
 *  - any other offset is not the driver's business: a violation;
 *  - with @gone set (the test has taken the unit away and the driver promised not to
 *    touch it any more), any access, EDPRSR included, is a violation.
 * The debug frame (@debug) keeps the same power and lock rules, and:
 *  - it is read at EDDEVARCH, EDDEVAFF0/1, EDDEVID, EDDEVID1, EDLSR, EDSCR and the sample
 *    registers only; EDVIDSR exists only with EDDEVID.PCSample == 3; the only write
 *    allowed is EDLAR (the software lock): EDOSLAR, EDPRCR and the rest are a
 *    debugger's, so any other write is a violation;
 *  - reading EDPCSRlo takes the next value of @seq (a PC: 0xFFFFFFFF in its low half is
 *    "no valid sample") and captures EDPCSRhi (PC[63:32] with EDVIDSR.HV, else RAZ),
 *    EDCIDSR (@cid1) and EDVIDSR (@vidsr); with the software lock set the read has no
 *    side effects (Arm ARM): a violation, as the context would be stale;
 *  - EDPCSRhi, EDCIDSR and EDVIDSR read when no valid sample was taken (none yet, or
 *    the last EDPCSRlo said "no valid sample": they are UNKNOWN) are violations;
 *  - EDSCR.SC2 (@sc2) is the debugger's switch to the other sample format.
 * A violation inside a KUnit test fails that test (kunit_get_current_test()); elsewhere it
 * is logged with pr_err.
 */
#ifndef __APMU_PCS_MODEL_H
#define __APMU_PCS_MODEL_H

#include <linux/types.h>

#include "../../apmu_pcs/pcs.h"

/**
 * struct apmu_pcs_model - one core's PC-sampling frame and power/lock state
 * @devarch: PMDEVARCH
 * @devid: PMDEVID (PCSample, PMSS)
 * @devaff: PMDEVAFF1:PMDEVAFF0, the core's MPIDR_EL1
 * @imp: PMPCSCTL.IMP
 * @sli: the software lock is implemented (PMLSR.SLI)
 * @slk: the software lock is set (PMLSR.SLK)
 * @res0_noise: reads of PMPCSCTL return RES0 bits as 1
 * @ctl: PMPCSCTL's EN and SS
 * @pu: the core is powered up (EDPRSR.PU)
 * @oslk: the OS lock is set (EDPRSR.OSLK)
 * @dlk: the OS double lock is set (EDPRSR.DLK)
 * @seq: the PMPCSR values successive samples return
 * @nseq: entries in @seq (0: every sample is "no valid sample")
 * @pos: the next entry of @seq
 * @cid1: CONTEXTIDR_EL1 captured with each sample
 * @cid2: CONTEXTIDR_EL2 captured with each sample
 * @vmid: VMID captured with each sample
 * @latched: PMPCSR of the last sample taken
 * @lat_cid1: CONTEXTIDR_EL1 of the last sample
 * @lat_cid2: CONTEXTIDR_EL2 of the last sample
 * @lat_vmid: VMID of the last sample
 * @reads: frame reads, all registers
 * @writes: frame writes, all registers
 * @samples: samples taken (PMPCSR[31:0] reads)
 * @violations: accesses that break a rule above
 * @gone: the unit was removed: any access is a violation
 * @prsr_delay_us: each EDPRSR read takes this long (a slow APB access), so that a
 *	test can catch an access in flight while it removes the unit
 * @debug: the frame is an external debug frame (FEAT_PCSRv8)
 * @devid1: EDDEVID1 (PCSROffset), debug frame
 * @vidsr: EDVIDSR captured with each sample (NS, E2, E3, HV, VMID), debug frame
 * @sc2: EDSCR.SC2, debug frame
 * @lat_vidsr: EDVIDSR of the last sample
 * @lat_ok: the last EDPCSRlo read took a valid sample: EDPCSRhi, EDCIDSR and EDVIDSR
 *	hold its context
 * @last: the last violation, for the test's message
 */
struct apmu_pcs_model {
	u32 devarch;
	u32 devid;
	u64 devaff;
	bool imp;
	bool sli;
	bool slk;
	bool res0_noise;
	u32 ctl;
	bool pu;
	bool oslk;
	bool dlk;
	const u64 *seq;
	unsigned int nseq;
	unsigned int pos;
	u32 cid1;
	u32 cid2;
	u32 vmid;
	u64 latched;
	u32 lat_cid1;
	u32 lat_cid2;
	u32 lat_vmid;
	u32 reads;
	u32 writes;
	u32 samples;
	u32 violations;
	bool gone;
	u32 prsr_delay_us;
	bool debug;
	u32 devid1;
	u32 vidsr;
	bool sc2;
	u32 lat_vidsr;
	bool lat_ok;
	char last[128];
};

extern const struct apmu_pcs_ops apmu_pcs_model_ops;

void apmu_pcs_model_init(struct apmu_pcs_model *m, unsigned int pcsample, bool imp, bool ss);
void apmu_pcs_model_init_debug(struct apmu_pcs_model *m, unsigned int pcsample,
			       unsigned int pcsroffset);
void apmu_pcs_model_power(struct apmu_pcs_model *m, bool on);
u64 apmu_pcs_model_pcsr(u64 pc, unsigned int el, bool ns);

#endif /* __APMU_PCS_MODEL_H */
