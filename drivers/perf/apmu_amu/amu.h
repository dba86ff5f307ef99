/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: the Activity Monitors (FEAT_AMUv1) unit: per-CPU sysfs and the counting-only
 * apmu_amu perf PMU. The AMU is live kernel state (frequency invariance reads
 * AMEVCNTR0<0>, <1>): the unit only reads it, except the group-1 enables
 * (AMCNTENSET1_EL0/AMCNTENCLR1_EL0), written only at the highest implemented Exception
 * level (apmu_amu_set_enable()). The registers are reached through &struct apmu_amu_regs
 * (sysreg.c, or the KUnit model).
 */
#ifndef __APMU_AMU_H
#define __APMU_AMU_H

#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>
#include <linux/types.h>

/* AMCFGR_EL0 (Activity Monitors Configuration Register) */
#define APMU_AMCFGR_N		GENMASK_ULL(7, 0)	/* counters implemented, minus 1 */
#define APMU_AMCFGR_NCG		GENMASK_ULL(31, 28)	/* counter groups implemented, minus 1 */
/* AMCGCR_EL0 (Activity Monitors Counter Group Configuration Register) */
#define APMU_AMCGCR_CG0NC	GENMASK_ULL(7, 0)	/* group-0 counters implemented */
#define APMU_AMCGCR_CG1NC	GENMASK_ULL(15, 8)	/* group-1 counters implemented */
/* AMEVTYPER1<n>_EL0.evtCount: the event counted by AMEVCNTR1<n>_EL0 */
#define APMU_AMEVTYPER_EVTCOUNT	GENMASK_ULL(15, 0)

/* Group 0 architected counters, AMEVCNTR0<n>_EL0, named in sysfs and perf */
#define APMU_AMU_G0_CORE	0	/* CPU_CYCLES, 0x0011 */
#define APMU_AMU_G0_CONST	1	/* CNT_CYCLES, 0x4004: constant frequency */
#define APMU_AMU_G0_INST	2	/* INST_RETIRED, 0x0008 */
#define APMU_AMU_G0_STALL	3	/* STALL_BACKEND_MEM, 0x4005 */
#define APMU_AMU_NR_G0		4
/* AMCNTENSET1_EL0/AMCNTENCLR1_EL0 have P<n> for n = 15..0: at most 16 group-1 counters */
#define APMU_AMU_NR_G1		16

/* ID_AA64PFR0_EL1.EL2/EL3 value meaning "not implemented" */
#define APMU_AMU_EL_NI		0
/* AMUv1p1: group 1 may be sparse (AMCG1IDR_EL0), not handled, so not exposed */
#define APMU_AMU_V1P1		2

/**
 * enum apmu_amu_reg - the registers the AMU unit reaches through &struct apmu_amu_regs
 * @APMU_AMU_R_PFR0: ID_AA64PFR0_EL1 (AMU, EL2 and EL3 fields)
 * @APMU_AMU_R_AMCFGR: AMCFGR_EL0
 * @APMU_AMU_R_AMCGCR: AMCGCR_EL0
 * @APMU_AMU_R_CNTENSET0: AMCNTENSET0_EL0 (read only: group-0 enables are never written)
 * @APMU_AMU_R_CNTENCLR0: AMCNTENCLR0_EL0 (never accessed; named so the model can fail a write)
 * @APMU_AMU_R_CNTENSET1: AMCNTENSET1_EL0, W1S (UNDEFINED when AMCFGR_EL0.NCG == 0)
 * @APMU_AMU_R_CNTENCLR1: AMCNTENCLR1_EL0, W1C (UNDEFINED when AMCFGR_EL0.NCG == 0)
 * @APMU_AMU_R_EVCNTR0: AMEVCNTR0<n>_EL0
 * @APMU_AMU_R_EVCNTR1: AMEVCNTR1<n>_EL0
 * @APMU_AMU_R_EVTYPER1: AMEVTYPER1<n>_EL0
 * @APMU_AMU_NR_REGS: number of registers
 */
enum apmu_amu_reg {
	APMU_AMU_R_PFR0,
	APMU_AMU_R_AMCFGR,
	APMU_AMU_R_AMCGCR,
	APMU_AMU_R_CNTENSET0,
	APMU_AMU_R_CNTENCLR0,
	APMU_AMU_R_CNTENSET1,
	APMU_AMU_R_CNTENCLR1,
	APMU_AMU_R_EVCNTR0,
	APMU_AMU_R_EVCNTR1,
	APMU_AMU_R_EVTYPER1,
	APMU_AMU_NR_REGS,
};

/**
 * struct apmu_amu_regs - AMU register access on the calling CPU (preemption disabled)
 * @kernel_enabled: the kernel enabled the AMU on this CPU (ARM64_HAS_AMU_EXTN and
 *	ID_AA64PFR0_EL1.AMU != 0, as cpu_amu_enable()); else no AMU register is accessed
 * @const_broken: the constant-frequency counter AMEVCNTR0<1> is erratum-broken
 *	(ARM64_WORKAROUND_BROKEN_AMU_CONSTCNT)
 * @read: read register @reg; @n selects AMEVCNTR0<n>, AMEVCNTR1<n> or AMEVTYPER1<n>
 * @write: write @val to register @reg; only AMCNTENSET1_EL0/AMCNTENCLR1_EL0 are written
 */
struct apmu_amu_regs {
	bool (*kernel_enabled)(void);
	bool (*const_broken)(void);
	u64 (*read)(enum apmu_amu_reg reg, unsigned int n);
	void (*write)(enum apmu_amu_reg reg, unsigned int n, u64 val);
};

extern const struct apmu_amu_regs apmu_amu_sysregs;

/**
 * enum apmu_amu_absent - why a CPU has no AMU unit
 * @APMU_AMU_PRESENT: it has one
 * @APMU_AMU_NOT_ENABLED: the kernel did not enable the AMU (ARM64_HAS_AMU_EXTN not
 *	set: CONFIG_ARM64_AMU_EXTN=n, or ID_AA64PFR0_EL1.AMU == 0)
 * @APMU_AMU_NOT_DISCOVERED: never online since the unit was registered
 */
enum apmu_amu_absent {
	APMU_AMU_PRESENT,
	APMU_AMU_NOT_ENABLED,
	APMU_AMU_NOT_DISCOVERED,
};

/**
 * struct apmu_amu_cpu - what discovery found on one CPU
 * @absent: %APMU_AMU_PRESENT, or why the CPU has no AMU unit
 * @const_broken: AMEVCNTR0<1> is not to be trusted (erratum): not offered
 * @writable: the kernel runs at EL2 (VHE) without EL3, the highest implemented
 *	Exception level: AMCNTENSET1/CLR1 writes are defined. Never at EL1
 * @cur_el: Exception level the kernel runs at (&apmu_amu.kernel_el)
 * @high_el: highest implemented Exception level (ID_AA64PFR0_EL1.EL3, .EL2)
 * @version: ID_AA64PFR0_EL1.AMU (1: AMUv1, %APMU_AMU_V1P1: AMUv1p1)
 * @ncg: counter groups implemented minus one (AMCFGR_EL0.NCG)
 * @cg0nc: group-0 counters implemented: AMCGCR_EL0.CG0NC, at most %APMU_AMU_NR_G0
 * @g0: the group-0 counters offered: implemented, enabled by firmware
 *	(AMCNTENSET0_EL0.P<n>) and, for AMEVCNTR0<1>, not erratum-broken
 * @cg1nc: group-1 counters: AMCGCR_EL0.CG1NC (0 when NCG == 0, and on AMUv1p1, whose
 *	group 1 is not handled), at most %APMU_AMU_NR_G1
 * @sysfs: this unit created the CPU's amu/ group
 */
struct apmu_amu_cpu {
	enum apmu_amu_absent absent;
	bool const_broken;
	bool writable;
	u8 cur_el;
	u8 high_el;
	u8 version;
	u8 ncg;
	u8 cg0nc;
	u8 g0;
	u8 cg1nc;
	bool sysfs;
};

/**
 * struct apmu_amu_pcpu - per-CPU state of a unit, used only on that CPU with IRQs off
 * @active: the unit's events added on this CPU (linked by &perf_event.active_entry),
 *	which the CPU PM notifier folds before an AMU reset and re-bases after it
 * @en1: the group-1 enables wanted here: AMCNTENSET1_EL0 as first found, then changed by
 *	writes to aux<n>_enable. Valid once @en1_known
 * @en1_mask: the enables apmu restores after an AMU reset, which clears them: P<n> for
 *	n < CG1NC where apmu may write them (&apmu_amu_cpu.writable), else 0
 * @en1_known: @en1 was taken from the CPU
 */
struct apmu_amu_pcpu {
	struct list_head active;
	u16 en1;
	u16 en1_mask;
	bool en1_known;
};

/**
 * struct apmu_amu - one AMU unit: the register backend, the per-CPU discovery results,
 *	the cpuN/amu sysfs groups and the apmu_amu perf PMU
 * @regs: register backend
 * @kernel_el: the Exception level the kernel runs at: 2 (VHE) or 1, the same on every
 *	CPU; set by whoever registers the unit (apmu_amu_init(): is_kernel_in_hyp_mode())
 * @name: PMU name (%NULL: "apmu_amu")
 * @owner: module that owns @pmu (pinned by open events)
 * @cpus: CPUs on which discovery found an AMU, online or not
 * @online: the online CPUs of @cpus: the PMU's "cpus", where events may be opened
 * @lock: serializes updates of @info, @cpus, @online and the maxima with their readers
 *	(event_init, the counter reads of events and of sysfs files)
 * @info: discovery results, by CPU (nr_cpu_ids entries)
 * @pcpu: per-CPU state: the active events and the wanted group-1 enables
 * @cpu_pm_nb: CPU PM notifier: events and enables across core power-down
 * @node: cpuhp instance
 * @pmu: the apmu_amu perf PMU
 * @pmu_registered: @pmu is registered with perf
 * @g1_max: largest CG1NC found on any CPU (events/ offered)
 * @g0: the group-0 counters offered on some CPU (&apmu_amu_cpu.g0, ORed)
 */
struct apmu_amu {
	const struct apmu_amu_regs *regs;
	u8 kernel_el;
	const char *name;
	struct module *owner;
	cpumask_t cpus;
	cpumask_t online;
	raw_spinlock_t lock;
	struct apmu_amu_cpu *info;
	struct apmu_amu_pcpu __percpu *pcpu;
	struct notifier_block cpu_pm_nb;
	struct hlist_node node;
	struct pmu pmu;
	bool pmu_registered;
	u8 g1_max;
	u8 g0;
};

/* perf config: format/counter "config:0-3", format/group "config:8" (0: AMEVCNTR0<n>) */
#define ATTR_CFG_FLD_counter_CFG	config
#define ATTR_CFG_FLD_counter_LO		0
#define ATTR_CFG_FLD_counter_HI		3
#define ATTR_CFG_FLD_group_CFG		config
#define ATTR_CFG_FLD_group_LO		8
#define ATTR_CFG_FLD_group_HI		8
#define APMU_AMU_CFG_COUNTER	GENMASK_ULL(ATTR_CFG_FLD_counter_HI, ATTR_CFG_FLD_counter_LO)
#define APMU_AMU_CFG_GROUP	BIT_ULL(ATTR_CFG_FLD_group_LO)

/* amu.c */
int apmu_amu_register(struct apmu_amu *amu);
void apmu_amu_unregister(struct apmu_amu *amu);
int apmu_amu_alloc(struct apmu_amu *amu);
void apmu_amu_free(struct apmu_amu *amu);
void apmu_amu_cpu_pm(struct apmu_amu *amu, unsigned long cmd);
void apmu_amu_restore_en1(struct apmu_amu *amu);
int apmu_amu_discover(struct apmu_amu *amu, unsigned int cpu);
bool apmu_amu_reg_ok(const struct apmu_amu_cpu *info, enum apmu_amu_reg reg,
		     unsigned int n);
bool apmu_amu_cpu_ok(struct apmu_amu *amu, unsigned int cpu, enum apmu_amu_reg reg,
		     unsigned int n, struct apmu_amu_cpu *info);
int apmu_amu_read(struct apmu_amu *amu, unsigned int cpu, enum apmu_amu_reg reg,
		  unsigned int n, u64 *val);
int apmu_amu_set_enable(struct apmu_amu *amu, unsigned int cpu, unsigned int n, bool on);

/* sysfs.c */
int apmu_amu_sysfs_add(struct apmu_amu *amu, unsigned int cpu);
void apmu_amu_sysfs_remove(struct apmu_amu *amu, unsigned int cpu);

/* pmu.c */
void apmu_amu_pmu_init(struct apmu_amu *amu);
int apmu_amu_pmu_register(struct apmu_amu *amu);
void apmu_amu_pmu_unregister(struct apmu_amu *amu);
void apmu_amu_pmu_fold(struct apmu_amu *amu);

#endif /* __APMU_AMU_H */
