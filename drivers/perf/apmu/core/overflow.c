// SPDX-License-Identifier: GPL-2.0
/*
 * apmu: the perf core functions a sampling PMU driver needs, none exported to modules by
 * 6.12: perf_event_overflow(), perf_sample_event_took() (perf's CPU-time limit) and,
 * optionally, perf_log_lost_samples() for apmu_pcs's drops. Called directly where
 * Module.symvers has them (APMU_OVERFLOW_EXPORTED), else resolved once at load
 * (apmu_compat_lookup()); without them sampling events are refused (-EOPNOTSUPP).
 */
#define pr_fmt(fmt) "apmu: " fmt

#include <linux/export.h>
#include <linux/perf_event.h>
#include <kunit/visibility.h>

#include "../apmu.h"
#include "../compat.h"
#include "../sample.h"

typedef int (*apmu_overflow_fn)(struct perf_event *event, struct perf_sample_data *data,
				struct pt_regs *regs);
typedef void (*apmu_took_fn)(u64 sample_len_ns);
typedef void (*apmu_lost_fn)(struct perf_event *event, u64 lost);

/* As resolved once at load; NULL: sampling is refused (lost samples go unreported) */
static apmu_overflow_fn apmu_overflow __read_mostly;
static apmu_took_fn apmu_took __read_mostly;
static apmu_lost_fn apmu_lost __read_mostly;

#ifdef APMU_OVERFLOW_EXPORTED
static void apmu_overflow_lookup(void)
{
	apmu_overflow = perf_event_overflow;
	apmu_took = perf_sample_event_took;
	apmu_lost = apmu_compat_lookup("perf_log_lost_samples");
}
#else
/* compat.h: NULL where the symbol cannot be resolved (or without CONFIG_KPROBES) */
static void apmu_overflow_lookup(void)
{
	apmu_overflow = apmu_compat_lookup("perf_event_overflow");
	apmu_took = apmu_compat_lookup("perf_sample_event_took");
	apmu_lost = apmu_compat_lookup("perf_log_lost_samples");
}
#endif

static void apmu_overflow_clear(void)
{
	apmu_overflow = NULL;
	apmu_took = NULL;
	apmu_lost = NULL;
}

/**
 * apmu_overflow_init() - resolve perf_event_overflow() once, at module load
 *
 * Return: true when sampling can be offered.
 */
bool apmu_overflow_init(void)
{
	apmu_overflow_lookup();
	if (!apmu_overflow || !apmu_took) {
		pr_notice("perf_event_overflow()/perf_sample_event_took() cannot be resolved: counting only, sampling events are refused\n");
		apmu_overflow_clear();
	}
	return apmu_overflow;
}

/* Set by the test-only apmu_knobs.ko (sampling=0): new sampling events are refused */
static bool apmu_test_no_sampling;

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * apmu_overflow_test_sampling() - for the test-only apmu_knobs.ko: sampling or not
 * @on: false: new sampling events are refused; true: offered again
 *
 * The resolved functions stay for the sampling events that exist already.
 */
void apmu_overflow_test_sampling(bool on)
{
	WRITE_ONCE(apmu_test_no_sampling, !on);
}
EXPORT_SYMBOL_IF_KUNIT(apmu_overflow_test_sampling);
#endif

/* sample.h: what apmu_pcs.ko uses too, hence exported in the namespace "APMU" */
bool apmu_can_sample(void)
{
	if (IS_ENABLED(CONFIG_KUNIT) && READ_ONCE(apmu_test_no_sampling))
		return false;
	return apmu_overflow;
}
EXPORT_SYMBOL_NS_GPL(apmu_can_sample, "APMU");

int apmu_event_overflow(struct perf_event *event, struct perf_sample_data *data,
			struct pt_regs *regs)
{
	return apmu_overflow(event, data, regs);
}
EXPORT_SYMBOL_NS_GPL(apmu_event_overflow, "APMU");

void apmu_sample_took(u64 ns)
{
	if (apmu_took)
		apmu_took(ns);
}
EXPORT_SYMBOL_NS_GPL(apmu_sample_took, "APMU");

void apmu_lost_samples(struct perf_event *event, u64 lost)
{
	if (lost && apmu_lost)
		apmu_lost(event, lost);
}
EXPORT_SYMBOL_NS_GPL(apmu_lost_samples, "APMU");
