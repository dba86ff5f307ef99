/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: a loadable perf PMU driver for the Arm Performance Monitors.
 *
 * Layering: core.c is the perf glue (event_init, add/del/start/stop/read); pmuv3.c is the
 * PMUv3 counter logic; it reaches the hardware only through a &struct apmu_regs table, which
 * is the real system registers (pmuv3_sysreg.c) or the KUnit register model (tests/).
 */
#ifndef __APMU_H
#define __APMU_H

#include <linux/bitfield.h>
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/notifier.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#include <apmu/pmuv3_regs.h>

/**
 * enum apmu_reg - the PMUv3 registers the driver uses
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
};

/**
 * struct apmu_regs - register access for one backend, on the calling CPU
 * @read: read register @reg; @n selects PMEVCNTR<n>/PMEVTYPER<n> and is 0 otherwise
 * @write: write @val to register @reg (@n as for @read)
 * @sync: a Context synchronization event (ISB): earlier register writes now affect
 *	 counting; optional
 */
struct apmu_regs {
	u64 (*read)(enum apmu_reg reg, unsigned int n);
	void (*write)(enum apmu_reg reg, unsigned int n, u64 val);
	void (*sync)(void);
};

extern const struct apmu_regs apmu_sysregs;

struct apmu_pmu;

/**
 * struct apmu_cpu - per-CPU state of one PMU instance; touched only on its own CPU
 * @pmu: the instance this state belongs to
 * @events: the event occupying each counter index (bit positions as in PMCNTENSET)
 * @used: counter indexes in use
 * @pm_stopped: counter indexes (the first of a pair) whose running event was stopped by
 *		apmu_cpu_pm_save() and must be restarted by apmu_cpu_pm_restore()
 * @irq: this CPU's overflow SPI, when the PMU has one SPI per CPU; else 0
 * @irq_requested: @irq is requested
 */
struct apmu_cpu {
	struct apmu_pmu *pmu;
	struct perf_event *events[APMU_NR_IDX];
	DECLARE_BITMAP(used, APMU_NR_IDX);
	DECLARE_BITMAP(pm_stopped, APMU_NR_IDX);
	int irq;
	bool irq_requested;
};

/**
 * struct apmu_pmu - one PMU instance (one microarchitecture's CPUs)
 * @pmu: the perf PMU, registered as @name
 * @dev: the platform device, for messages
 * @regs: register access (real system registers or the KUnit model)
 * @hw: per-CPU counter state
 * @supported_cpus: the CPUs this instance counts on
 * @name: PMU name in /sys/bus/event_source/devices/
 * @num_counters: implemented event counters, PMCR_EL0.N
 * @pmuver: ID_AA64DFR0_EL1.PMUVer
 * @allow_lp: use PMCR_EL0.LP where implemented (the long_counters parameter)
 * @long_evcnt: event counters are 64-bit (PMUv3p5, PMCR_EL0.LP set)
 * @pmcr: the PMCR_EL0 value for every CPU of this PMU, with E clear (LC, and LP when
 *	  @long_evcnt); the same on all of them, so it is set once at probe
 * @has_icntr: the instruction counter PMICNTR_EL0 exists (FEAT_PMUv3_ICNTR)
 * @pmmir: PMMIR_EL1 (slots, bus, threshold width), 0 before PMUv3p4
 * @cnt_mask: counter indexes that exist: P<N-1:0>, C and, with @has_icntr, F0
 * @pmceid: PMCEID0/1 as one bitmap: bits 0-63 common events 0x0-0x3f,
 *	    bits 64-127 the 0x4000-0x403f range
 * @irq: the overflow interrupt when it is one per-CPU PPI, or 0
 * @irq_percpu: @irq is a PPI; otherwise each CPU has its own SPI in &struct apmu_cpu
 * @has_irq: the PMU has an overflow interrupt (sampling needs it)
 * @irq_resync: the PMU is QEMU's, which re-evaluates its overflow interrupt request
 *		on PMINTEN/PMOVS writes and overflows but not when PMCR.E is set (core.c)
 * @node: cpuhp multi-instance node
 * @cpu_pm_nb: CPU PM notifier: PMU state across core power-down
 */
struct apmu_pmu {
	struct pmu pmu;
	struct device *dev;
	const struct apmu_regs *regs;
	struct apmu_cpu __percpu *hw;
	cpumask_t supported_cpus;
	const char *name;
	unsigned int num_counters;
	unsigned int pmuver;
	bool allow_lp;
	bool long_evcnt;
	u64 pmcr;
	bool has_icntr;
	u32 pmmir;
	u64 cnt_mask;
	DECLARE_BITMAP(pmceid, 128);
	int irq;
	bool irq_percpu;
	bool has_irq;
	bool irq_resync;
	struct hlist_node node;
	struct notifier_block cpu_pm_nb;
};

/*
 * hw_perf_event.flags bits: ARMPMU_EVT_64BIT and PERF_EVENT_FLAG_USER_READ_CNT are read by
 * the arch's arch_perf_update_userpage(); the others are ours. APMU_HWF_CHAIN: the event
 * occupies a CHAIN pair, hw.idx and hw.idx + 1. APMU_HWF_IRQ: its overflow interrupt is
 * enabled (sampling, or a 32-bit counter extended in software).
 */
#define APMU_HWF_CHAIN		BIT(8)
#define APMU_HWF_IRQ		BIT(9)

static inline struct apmu_pmu *to_apmu(struct pmu *pmu)
{
	return container_of(pmu, struct apmu_pmu, pmu);
}

/* pmuv3.c: the PMUv3 counter logic on top of &struct apmu_regs */
void apmu_pmuv3_probe(struct apmu_pmu *pmu);
void apmu_pmuv3_reset(struct apmu_pmu *pmu);
void apmu_pmuv3_quiesce(struct apmu_pmu *pmu);
/* apmu_pmuv3_get_idx() flags */
#define APMU_GET_CHAIN		BIT(0)	/* a CHAIN pair for a 64-bit count */
#define APMU_GET_USER		BIT(1)	/* read from EL0: never PMICNTR */

int apmu_pmuv3_get_idx(struct apmu_pmu *pmu, unsigned long *used, u64 evtype,
		       unsigned int flags);
void apmu_pmuv3_put_idx(unsigned long *used, int idx, bool chained);
u64 apmu_pmuv3_read_counter(struct apmu_pmu *pmu, int idx, bool chained);
void apmu_pmuv3_write_counter(struct apmu_pmu *pmu, int idx, bool chained, u64 val);
void apmu_pmuv3_enable(struct apmu_pmu *pmu, int idx, bool chained, u64 evtype, bool irq);
void apmu_pmuv3_disable(struct apmu_pmu *pmu, int idx, bool chained);
void apmu_pmuv3_disable_counter(struct apmu_pmu *pmu, int idx);
u64 apmu_pmuv3_take_overflows(struct apmu_pmu *pmu, const unsigned long *used);
bool apmu_pmuv3_counter_is_64bit(struct apmu_pmu *pmu, int idx, bool chained);

/* irq.c: overflow interrupt wiring */
struct platform_device;
int apmu_irq_parse(struct platform_device *pdev, struct apmu_pmu *pmu);
int apmu_irq_request(struct apmu_pmu *pmu);
void apmu_irq_free(struct apmu_pmu *pmu);
void apmu_irq_cpu_online(struct apmu_pmu *pmu, unsigned int cpu);
void apmu_irq_cpu_offline(struct apmu_pmu *pmu, unsigned int cpu);

/* overflow.c: sample delivery */
bool apmu_overflow_init(void);
bool apmu_can_sample(void);
void apmu_sample_took(u64 ns);
int apmu_event_overflow(struct perf_event *event, struct perf_sample_data *data,
			struct pt_regs *regs);

/* events.c: attribute to event number */
bool apmu_event_implemented(struct apmu_pmu *pmu, u16 evnum);
int apmu_map_event(struct apmu_pmu *pmu, struct perf_event *event);

/* core.c: perf glue */
void apmu_pmu_init(struct apmu_pmu *pmu, struct module *owner);
irqreturn_t apmu_handle_irq(int irq, void *dev_id);
void apmu_cpu_pm_save(struct apmu_pmu *pmu, struct apmu_cpu *cpu);
void apmu_cpu_pm_restore(struct apmu_pmu *pmu, struct apmu_cpu *cpu);
void apmu_cpu_reinit(struct apmu_pmu *pmu, struct apmu_cpu *cpu);
u64 apmu_event_update(struct perf_event *event);

/*
 * A counting event on a 32-bit counter is armed at half range, so its first overflow
 * interrupt comes 2^31 events after the last fold and a late interrupt still finds the
 * delta unambiguous (up to 2^31 more events), as the in-tree driver does.
 */
#define APMU_ARM_32BIT		BIT_ULL(31)

/* The largest PMEVTYPER.TH value: 2^PMMIR.THWIDTH - 1, 0 without FEAT_PMUv3_TH */
static inline u32 apmu_threshold_max(struct apmu_pmu *pmu)
{
	return (1U << FIELD_GET(APMU_PMMIR_THWIDTH, pmu->pmmir)) - 1;
}

/* user_access.c: rdpmc */
void apmu_user_access_update(struct apmu_pmu *pmu, struct apmu_cpu *cpu);
void apmu_user_access_reset_cpu(struct apmu_pmu *pmu);
u64 apmu_user_access_get(struct apmu_pmu *pmu);
void apmu_user_access_set(int on);
void apmu_user_event_destroy(struct perf_event *event);
int apmu_event_idx(struct perf_event *event);
void apmu_user_access_register(void);
void apmu_user_access_unregister(void);

/* sysfs.c */
extern const struct attribute_group *apmu_attr_groups[];

#endif /* __APMU_H */
