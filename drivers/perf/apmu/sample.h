/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apmu: sample delivery, the one service apmu.ko offers to other modules.
 *
 * perf_event_overflow() and perf_sample_event_took() are not exported to modules (6.12 to
 * 7.2 at least): apmu.ko resolves them once at load (core/overflow.c) and exports these
 * wrappers in the symbol namespace "APMU", which apmu_pcs.ko imports
 * (MODULE_IMPORT_NS("APMU")), so that the only edge between the two modules is explicit.
 * This header goes when perf core exports both functions to modules.
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
 *
 * Return: non-zero when perf wants the event stopped (throttling, event limit); the
 * caller stops it. Since 6.16 perf core has stopped it (a throttled event's whole group)
 * by then, through pmu->stop(), and the caller's stop does nothing (compat.h).
 */
int apmu_event_overflow(struct perf_event *event, struct perf_sample_data *data,
			struct pt_regs *regs);

/* Account @ns spent in the overflow handler to perf's CPU-time limit. */
void apmu_sample_took(u64 ns);

/*
 * Tell the event's reader that @lost samples were dropped (PERF_RECORD_LOST_SAMPLES,
 * perf_log_lost_samples()), when that could be resolved; else nothing.
 */
void apmu_lost_samples(struct perf_event *event, u64 lost);

#endif /* __APMU_SAMPLE_H */
