// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for apmu's core PMU: sysfs, exact user-space instruction counts (QEMU
 * -icount makes them deterministic), monotonic cycles, and the errnos of bad attributes.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "apmu_util.h"

/* Exactly 2 instructions per iteration (subs, b.ne), whatever the compiler does around. */
static void __attribute__((noinline)) spin(unsigned long n)
{
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	b.ne	1b\n" : "+r" (n) : : "cc");
}

/* User-space instructions retired around spin(n), counted by @fd. */
static uint64_t count_spin(int fd, unsigned long n)
{
	uint64_t val = 0;

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &val, sizeof(val)) != sizeof(val))
		return UINT64_MAX;
	return val;
}

FIXTURE(apmu) {
	struct apmu_pmu_info pmu;
};

FIXTURE_SETUP(apmu)
{
	if (apmu_find_pmu(&self->pmu))
		SKIP(return, "no apmu PMU in /sys/bus/event_source/devices (no PMUv3 bound)");
}

FIXTURE_TEARDOWN(apmu)
{
}

TEST_F(apmu, sysfs_type_cpus_format)
{
	char buf[256];

	ASSERT_GT(self->pmu.type, PERF_TYPE_MAX - 1);
	ASSERT_EQ(0, apmu_read_pmu_file(&self->pmu, "cpus", buf, sizeof(buf)));
	ASSERT_NE('\0', buf[0]);
	ASSERT_EQ(0, apmu_read_pmu_file(&self->pmu, "format/event", buf, sizeof(buf)));
	ASSERT_STREQ("config:0-15", buf);
	ASSERT_EQ(0, apmu_read_pmu_file(&self->pmu, "format/long", buf, sizeof(buf)));
	ASSERT_STREQ("config1:0", buf);
	ASSERT_EQ(0, apmu_read_pmu_file(&self->pmu, "events/cpu_cycles", buf, sizeof(buf)));
	ASSERT_STREQ("event=0x0011", buf);
}

/*
 * The count difference between two loop lengths is exactly the instructions added: the
 * ioctl()s around the loop contribute the same user instructions to both. Two runs of the
 * same length give the same count (deterministic under -icount).
 */
static void check_exact(struct __test_metadata *_metadata, struct perf_event_attr *attr)
{
	uint64_t a, a2, b;
	int fd;

	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	fd = apmu_perf_open(attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));

	count_spin(fd, 1000);			/* warm up: fault in code and stack */
	a = count_spin(fd, 1000);
	a2 = count_spin(fd, 1000);
	b = count_spin(fd, 101000);
	close(fd);

	TH_LOG("user instructions: 1000 iterations %llu, 101000 iterations %llu",
	       (unsigned long long)a, (unsigned long long)b);
	ASSERT_GT(a, 2000ULL);
	ASSERT_EQ(a, a2);
	ASSERT_EQ(200000ULL, b - a);
}

TEST_F(apmu, exact_user_instructions_generic)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
	};

	check_exact(_metadata, &attr);
}

TEST_F(apmu, exact_user_instructions_raw_inst_retired)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x08,			/* INST_RETIRED */
	};

	check_exact(_metadata, &attr);
}

TEST_F(apmu, cycles_monotonic)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
	};
	uint64_t prev = 0, now;
	int fd, i;

	fd = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	for (i = 0; i < 5; i++) {
		spin(10000);
		ASSERT_EQ((ssize_t)sizeof(now), read(fd, &now, sizeof(now)));
		ASSERT_GT(now, prev) TH_LOG("read %d: %llu after %llu", i,
					    (unsigned long long)now,
					    (unsigned long long)prev);
		/* 20000 user instructions ran since the last read: at least that many cycles */
		if (i)
			ASSERT_GE(now - prev, 20000ULL);
		prev = now;
	}
	close(fd);
}

/* Bad attributes: each gets its documented errno. */
#define APMU_OWN_TYPE	(-1)
struct bad_attr {
	const char *what;
	int type;		/* APMU_OWN_TYPE: apmu's dynamic type */
	__u64 config, config1, config2;
	__u64 sample_period;
	int err;
};

static const struct bad_attr bad_attrs[] = {
	{ "config bit 16 outside event=config:0-15", APMU_OWN_TYPE, 1ULL << 16, 0, 0, 0, EINVAL },
	{ "config bit 63", APMU_OWN_TYPE, 1ULL << 63 | 0x11, 0, 0, 0, EINVAL },
	{ "config1 bit 2 outside long/rdpmc", APMU_OWN_TYPE, 0x11, 1ULL << 2, 0, 0, EINVAL },
	{ "config2 set", APMU_OWN_TYPE, 0x11, 0, 1, 0, EINVAL },
	{ "CHAIN alone", APMU_OWN_TYPE, 0x1e, 0, 0, 0, EINVAL },
	{ "generic hw event nobody maps", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES,
	  0, 0, 0, ENOENT },
	{ "generic hw event beyond the enum", PERF_TYPE_HARDWARE, PERF_COUNT_HW_MAX,
	  0, 0, 0, ENOENT },
};

TEST_F(apmu, bad_attrs_errno)
{
	unsigned int i;

	for (i = 0; i < sizeof(bad_attrs) / sizeof(bad_attrs[0]); i++) {
		const struct bad_attr *b = &bad_attrs[i];
		struct perf_event_attr attr = {
			.size = sizeof(attr),
			.type = b->type == APMU_OWN_TYPE ? self->pmu.type : b->type,
			.config = b->config,
			.config1 = b->config1,
			.config2 = b->config2,
			.sample_period = b->sample_period,
		};
		int fd = apmu_perf_open(&attr, 0, -1, -1, 0);
		int err = errno;

		if (fd >= 0)
			close(fd);
		EXPECT_EQ(-1, fd) TH_LOG("%s: opened", b->what);
		EXPECT_EQ(b->err, err) TH_LOG("%s: errno %d (%s), want %d", b->what,
					       err, strerror(err), b->err);
	}
}

TEST_HARNESS_MAIN
