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

struct apmu_sample_fns apmu_sample_fns __ro_after_init;
EXPORT_SYMBOL_NS_GPL(apmu_sample_fns, "APMU");

#ifdef APMU_OVERFLOW_EXPORTED
static void apmu_overflow_lookup(void)
{
	apmu_sample_fns.overflow = perf_event_overflow;
	apmu_sample_fns.took = perf_sample_event_took;
	apmu_sample_fns.lost = apmu_compat_lookup("perf_log_lost_samples");
}
#else
static void apmu_overflow_lookup(void)
{
	apmu_sample_fns.overflow = apmu_compat_lookup("perf_event_overflow");
	apmu_sample_fns.took = apmu_compat_lookup("perf_sample_event_took");
	apmu_sample_fns.lost = apmu_compat_lookup("perf_log_lost_samples");
}
#endif

bool apmu_overflow_init(void)
{
	apmu_overflow_lookup();
	if (!apmu_sample_fns.overflow || !apmu_sample_fns.took) {
		pr_notice("perf_event_overflow()/perf_sample_event_took() cannot be resolved: counting only, sampling events are refused\n");
		apmu_sample_fns = (struct apmu_sample_fns){};
	}
	return apmu_sample_fns.overflow;
}

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
	return apmu_sample_fns.overflow;
}
EXPORT_SYMBOL_NS_GPL(apmu_can_sample, "APMU");
