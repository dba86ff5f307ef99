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
int apmu_event_overflow(struct perf_event *event, struct perf_sample_data *data,
			struct pt_regs *regs);

/* Account @ns spent in the overflow handler to perf's CPU-time limit. */
void apmu_sample_took(u64 ns);

/* PERF_RECORD_LOST_SAMPLES for @lost dropped samples, where that could be resolved */
void apmu_lost_samples(struct perf_event *event, u64 lost);

#endif /* __APMU_SAMPLE_H */
