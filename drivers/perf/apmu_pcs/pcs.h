/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu PC sample-based profiling: each unit is one core's frame of one of two kinds, the
 * external PMU frame (FEAT_PCSRv8p2/v8p9: PMPCSR) or the external debug frame
 * (FEAT_PCSRv8: EDPCSR), reached through &struct apmu_pcs_ops. frame.c: the
 * architectural rules; unit.c: discovery, hotplug, CPU PM, sysfs; pmu.c: the apmu_pcs
 * perf PMU, the same for both kinds.
 */
#ifndef __APMU_PCS_H
#define __APMU_PCS_H

#include <linux/bits.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include <apmu/pcs_regs.h>

struct apmu_pcs_unit;
struct module;

/**
 * enum apmu_pcs_kind - which frame holds a unit's PC sample registers
 * @APMU_PCS_KIND_PMU: the external PMU frame, PMPCSR (FEAT_PCSRv8p2, FEAT_PCSRv8p9)
 * @APMU_PCS_KIND_DEBUG: the external debug frame, EDPCSR (FEAT_PCSRv8)
 */
enum apmu_pcs_kind {
	APMU_PCS_KIND_PMU,
	APMU_PCS_KIND_DEBUG,
};

/**
 * struct apmu_pcs_ops - how a unit reaches its registers
 * @read: 32-bit read of the unit's frame (the external PMU frame, or for
 *	%APMU_PCS_KIND_DEBUG the external debug frame) at byte offset @off
 * @write: 32-bit write of the unit's frame at byte offset @off
 * @prsr: the core's EDPRSR (PU, OSLK, DLK), from the external debug frame, never the
 *	PMU frame; read only with the CPU online and out of CPU PM (FEAT_DoPD puts
 *	EDPRSR in the core power domain)
 * @probe: optional: identify the frames behind @prsr (EDDEVARCH), once, with @lock
 *	held and the CPU up, before the first @prsr. Return 0 or -ENXIO
 */
struct apmu_pcs_ops {
	u32 (*read)(struct apmu_pcs_unit *u, unsigned int off);
	void (*write)(struct apmu_pcs_unit *u, unsigned int off, u32 val);
	u32 (*prsr)(struct apmu_pcs_unit *u);
	int (*probe)(struct apmu_pcs_unit *u);
};

/**
 * enum apmu_pcs_sec - Security state of a sample, PMPCSR.{NSE,NS}
 * @APMU_PCS_SECURE: Secure (NSE=0, NS=0)
 * @APMU_PCS_NONSECURE: Non-secure (NSE=0, NS=1)
 * @APMU_PCS_ROOT: Root (NSE=1, NS=0, FEAT_RME)
 * @APMU_PCS_REALM: Realm (NSE=1, NS=1, FEAT_RME)
 */
enum apmu_pcs_sec {
	APMU_PCS_SECURE,
	APMU_PCS_NONSECURE,
	APMU_PCS_ROOT,
	APMU_PCS_REALM,
};

/**
 * struct apmu_pcs_sample - one decoded PMPCSR sample
 * @valid: false when PMPCSR[31:0] read as 0xFFFFFFFF ("no valid sample"); nothing
 *	else is meaningful then
 * @pc: PCSample[55:0] sign-extended from bit 55 (TTBR1 addresses come out whole)
 * @el: Exception level, PMPCSR.EL
 * @sec: Security state, PMPCSR.{NSE,NS}
 * @cid1: CONTEXTIDR_EL1 captured with the sample (PMCID1SR)
 * @has_cid2: sampled through block 1: @cid2 is valid, @vmid is not
 * @cid2: CONTEXTIDR_EL2 captured with the sample (PMCID2SR)
 * @vmid: VMID captured with the sample (PMVIDSR), block 0 only
 */
struct apmu_pcs_sample {
	bool valid;
	u64 pc;
	u8 el;
	u8 sec;
	u32 cid1;
	bool has_cid2;
	u32 cid2;
	u16 vmid;
};

/**
 * struct apmu_pcs_unit - one core's PC-sampling frame
 * @cpu: the core whose PCs the frame samples
 * @kind: the frame's kind (set by the backend before apmu_pcs_unit_add())
 * @ops: register accessors
 * @priv: the accessors' context (a register model in tests)
 * @base: the mapped sample frame (MMIO backend): the PMU frame, or the debug frame
 * @dbg: the mapped external debug frame, for EDPRSR (MMIO backend), or NULL; @base
 *	itself for %APMU_PCS_KIND_DEBUG
 * @res: the claimed PMU frame region (MMIO backend), or NULL; a debug frame is shared
 *	with the CoreSight CPU debug driver and never claimed
 * @owner: the module providing @ops (pinned while perf events use the unit)
 * @lock: held across the state check and the accesses after it, and by the hotplug
 *	and CPU PM callbacks that change @online and @pm_off
 * @online: @cpu is online (CPU hotplug)
 * @pm_off: @cpu is in a low-power state that may power the core down (CPU PM)
 * @has_ctl: PMDEVID.PCSample says FEAT_PCSRv8p9: PMPCSCTL exists
 * @imp: PMPCSCTL.IMP: EN is implemented
 * @ss: FEAT_PMUv3_SS (PMDEVID.PMSS): PMPCSCTL.SS exists
 * @swlock: the frame implements the CoreSight software lock (PMLSR.SLI, EDLSR.SLI)
 * @has_vidsr: %APMU_PCS_KIND_DEBUG: EDVIDSR is implemented (EDDEVID.PCSample == 3)
 * @sc2_fmt: %APMU_PCS_KIND_DEBUG: the core implements FEAT_VHE and EL2, where
 *	EDSCR.SC2 (an external debugger's control) selects another sample format: EDSCR
 *	is read before each sample, which is dropped while SC2 is set
 * @el23: the core implements EL2 or EL3 (ID_AA64PFR0_EL1), read on the CPU by
 *	apmu_pcs_wake(): without EDVIDSR a sample's Security state and EL2 cannot be
 *	told then
 * @cid2_block: sample through block 1 (CONTEXTIDR_EL2) rather than block 0 (VMID):
 *	the kernel runs at EL2 (VHE) and keeps its context ID there
 * @cid_is_pid: the sampled context ID is the Linux TID (CONFIG_PID_IN_CONTEXTIDR)
 * @mpidr: the CPU's MPIDR_EL1 affinity, which PMDEVAFF0/1 and EDDEVAFF0/1 must match
 * @users: perf events sampling this unit
 * @ctl: the PMPCSCTL value wanted (EN, SS; under @lock), written again by the CPU at
 *	each power-up (Warm reset clears them)
 * @active: perf events between add() and del() (under @lock)
 * @ev_en: the events set PMPCSCTL.EN (when @active went 0 -> 1) and clear it again
 *	when it goes 1 -> 0, unless root has written enable since (under @lock)
 * @root_off: root suspended sampling through sysfs (enable = 0) (under @lock)
 * @ready: identified: perf events may use the unit (set under apmu_pcs_units_lock)
 * @sysfs: the pcsample/ group is registered
 */
struct apmu_pcs_unit {
	int cpu;
	enum apmu_pcs_kind kind;
	const struct apmu_pcs_ops *ops;
	void *priv;
	void __iomem *base;
	void __iomem *dbg;
	struct resource *res;
	struct module *owner;
	raw_spinlock_t lock;
	bool online;
	bool pm_off;
	bool has_ctl;
	bool imp;
	bool ss;
	bool swlock;
	bool has_vidsr;
	bool sc2_fmt;
	bool el23;
	bool cid2_block;
	bool cid_is_pid;
	u64 mpidr;
	unsigned int users;
	u32 ctl;
	unsigned int active;
	bool ev_en;
	bool root_off;
	bool ready;
	bool sysfs;
};

/* frame.c: the architectural rules */
int apmu_pcs_check(struct apmu_pcs_unit *u);
int apmu_pcs_identify(struct apmu_pcs_unit *u);
void apmu_pcs_wake(struct apmu_pcs_unit *u);
int apmu_pcs_get_ctl(struct apmu_pcs_unit *u, bool *en, bool *ss);
int apmu_pcs_set_enable(struct apmu_pcs_unit *u, bool on);
int apmu_pcs_set_snapshot(struct apmu_pcs_unit *u, bool on);
int apmu_pcs_events_refused(struct apmu_pcs_unit *u);
void apmu_pcs_events_get(struct apmu_pcs_unit *u);
void apmu_pcs_events_put(struct apmu_pcs_unit *u);
int apmu_pcs_read_sample(struct apmu_pcs_unit *u, struct apmu_pcs_sample *s);
int apmu_pcs_read_sample_locked(struct apmu_pcs_unit *u, struct apmu_pcs_sample *s);
void apmu_pcs_decode(u64 pcsr, struct apmu_pcs_sample *s);
void apmu_pcs_decode_debug(u32 lo, u32 hi, u32 vidsr, bool has_vidsr,
			   struct apmu_pcs_sample *s);
const char *apmu_pcs_kind_name(const struct apmu_pcs_unit *u);
const char *apmu_pcs_sec_name(u8 sec);
void apmu_pcs_set_online(struct apmu_pcs_unit *u, bool online);
void apmu_pcs_set_pm_off(struct apmu_pcs_unit *u, bool off);

/* unit.c: units, discovery, sysfs */
int apmu_pcs_unit_add(struct apmu_pcs_unit *u);
int apmu_pcs_unit_remove(struct apmu_pcs_unit *u);
struct apmu_pcs_unit *apmu_pcs_unit_get(int cpu);
void apmu_pcs_unit_put(struct apmu_pcs_unit *u);

/* pmu.c: the apmu_pcs perf PMU */
#define APMU_PCS_HOST_VHE	BIT(0)	/* the kernel runs at EL2 */
#define APMU_PCS_HOST_PKVM	BIT(1)	/* protected KVM: EL2 is not the host's */

/**
 * enum apmu_pcs_verdict - what apmu_pcs does with a valid sample
 * @APMU_PCS_DROP: never delivered: another Security state, EL3, or a hypervisor's EL2
 * @APMU_PCS_HOST: the host's (kernel or user)
 * @APMU_PCS_GUEST: a KVM guest's: dropped under exclude_guest, else delivered without
 *	a task when its context ID is the guest's
 */
enum apmu_pcs_verdict {
	APMU_PCS_DROP,
	APMU_PCS_HOST,
	APMU_PCS_GUEST,
};

int apmu_pcs_pmu_register(void);
void apmu_pcs_pmu_unregister(void);
int apmu_pcs_reader_cpu(int target);
void apmu_pcs_pmu_cpu_online(unsigned int cpu);
void apmu_pcs_pmu_cpu_offline(unsigned int cpu);

#endif /* __APMU_PCS_H */
