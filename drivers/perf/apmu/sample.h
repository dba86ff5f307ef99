/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: sample delivery, the one service apmu.ko offers other modules (namespace "APMU",
 * imported by apmu_pcs.ko). Goes when perf core exports perf_event_overflow() and
 * perf_sample_event_took() to modules (core/overflow.c resolves them at load).
 */
#ifndef __APMU_SAMPLE_H
#define __APMU_SAMPLE_H

#include <linux/types.h>

struct perf_event;
struct perf_sample_data;
struct pt_regs;

/**
 * struct apmu_sample_fns - perf core's sample delivery, as resolved at load
 * @overflow: perf_event_overflow(), or NULL: no sampling
 * @took: perf_sample_event_took() (perf's CPU-time limit), or NULL
 * @lost: perf_log_lost_samples(), or NULL
 *
 * Written only by apmu.ko's init (__ro_after_init), before any PMU registers. The
 * calls below are inline so an overflow handler pays one indirect call per sample.
 */
struct apmu_sample_fns {
	int (*overflow)(struct perf_event *event, struct perf_sample_data *data,
			struct pt_regs *regs);
	void (*took)(u64 sample_len_ns);
	void (*lost)(struct perf_event *event, u64 lost);
};

extern struct apmu_sample_fns apmu_sample_fns;

/* Can sampling events be delivered? False: refuse them with -EOPNOTSUPP. */
bool apmu_can_sample(void);

/**
 * apmu_event_overflow() - hand a sample to perf (perf_event_overflow())
 * @event: the overflowed sampling event
 * @data: sample data, initialised with the period
 * @regs: the interrupted registers
 *
 * Only when apmu_can_sample().
 * Return: non-zero when perf wants the event stopped (throttling, event limit); the
 * caller stops it (since 6.16 perf core already has: compat.h).
 */
static inline int apmu_event_overflow(struct perf_event *event,
				      struct perf_sample_data *data, struct pt_regs *regs)
{
	return apmu_sample_fns.overflow(event, data, regs);
}

/* Account @ns spent in the overflow handler to perf's CPU-time limit. */
static inline void apmu_sample_took(u64 ns)
{
	if (apmu_sample_fns.took)
		apmu_sample_fns.took(ns);
}

/* PERF_RECORD_LOST_SAMPLES for @lost dropped samples, where that could be resolved */
static inline void apmu_lost_samples(struct perf_event *event, u64 lost)
{
	if (lost && apmu_sample_fns.lost)
		apmu_sample_fns.lost(event, lost);
}

#endif /* __APMU_SAMPLE_H */
