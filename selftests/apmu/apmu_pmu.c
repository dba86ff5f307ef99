// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for apmu's core PMU, counting: sysfs, exact user-space instruction counts
 * (QEMU -icount makes them deterministic), filters, groups, multiplexing, every listed
 * event, CPU hotplug, the errnos of bad attributes, the 32-bit counter path (apmu32), the
 * counting-only fallback (nosample) and the PMU without an overflow interrupt (noirq),
 * which the test-only apmu_knobs.ko forces.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "apmu_util.h"

FIXTURE(apmu) {
	struct apmu_pmu_info pmu;
	char time_pct[16];	/* perf_cpu_time_max_percent to put back, if set */
};

#define TIME_PCT	"/proc/sys/kernel/perf_cpu_time_max_percent"

FIXTURE_SETUP(apmu)
{
	self->time_pct[0] = '\0';
	if (apmu_find_pmu(&self->pmu))
		SKIP(return, "no apmu PMU in /sys/bus/event_source/devices (no PMUv3 bound)");
}

FIXTURE_TEARDOWN(apmu)
{
	if (self->time_pct[0])
		apmu_write_file(TIME_PCT, self->time_pct);
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
	/*
	 * As in-tree: sw_incr is never listed (EL0 cannot write PMSWINC_EL0, and rotation
	 * leaves no fixed counter to increment), and the threshold fields always are, so a
	 * threshold= term is refused at open (EINVAL without FEAT_PMUv3_TH), not by perf's
	 * parser.
	 */
	ASSERT_NE(0, apmu_read_pmu_file(&self->pmu, "events/sw_incr", buf, sizeof(buf)));
	ASSERT_EQ(0, apmu_read_pmu_file(&self->pmu, "format/threshold", buf, sizeof(buf)));
	ASSERT_STREQ("config1:5-16", buf);
	ASSERT_EQ(0, apmu_read_pmu_file(&self->pmu, "format/threshold_compare", buf,
					sizeof(buf)));
	ASSERT_STREQ("config1:3-4", buf);
	ASSERT_EQ(0, apmu_read_pmu_file(&self->pmu, "format/threshold_count", buf,
					sizeof(buf)));
	ASSERT_STREQ("config1:2", buf);
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

/* The extended hardware type: config[63:32] names apmu's PMU, config[31:0] the event */
TEST_F(apmu, exact_user_instructions_extended_type)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = (__u64)self->pmu.type << 32 | PERF_COUNT_HW_INSTRUCTIONS,
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

/* Several loop sizes: each count is the same fixed overhead plus exactly 2 per iteration */
TEST_F(apmu, exact_user_instructions_sizes)
{
	static const unsigned long sizes[] = { 1, 10, 1000, 65536, 200003 };
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	uint64_t base, c;
	unsigned int i;
	int fd;

	fd = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	count_spin(fd, 1);
	base = count_spin(fd, 1) - 2;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		c = count_spin(fd, sizes[i]);
		EXPECT_EQ(base + 2 * sizes[i], c) TH_LOG("%lu iterations", sizes[i]);
	}
	close(fd);
}

/*
 * A syscall-heavy loop counted three ways in one group, so all three run over exactly
 * the same instructions: user only, kernel only, both. user + kernel == both, exactly.
 */
TEST_F(apmu, user_kernel_split)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.disabled = 1,
		.exclude_hv = 1,
		.read_format = PERF_FORMAT_GROUP,
	};
	struct { uint64_t nr, v[3]; } r;
	int lead, fk, fb, i;

	attr.exclude_kernel = 1;
	lead = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(lead, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	attr.disabled = 0;
	attr.exclude_kernel = 0;
	attr.exclude_user = 1;
	fk = apmu_perf_open(&attr, 0, -1, lead, 0);
	ASSERT_GE(fk, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	attr.exclude_user = 0;
	fb = apmu_perf_open(&attr, 0, -1, lead, 0);
	ASSERT_GE(fb, 0) TH_LOG("perf_event_open: %s", strerror(errno));

	ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	for (i = 0; i < 1000; i++)
		syscall(__NR_getppid);
	ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	ASSERT_EQ((ssize_t)sizeof(r), read(lead, &r, sizeof(r)));
	TH_LOG("user %llu kernel %llu both %llu", (unsigned long long)r.v[0],
	       (unsigned long long)r.v[1], (unsigned long long)r.v[2]);
	ASSERT_EQ(3ULL, r.nr);
	/* every getppid() is at least a few kernel instructions */
	ASSERT_GT(r.v[1], 10 * 1000ULL);
	ASSERT_GT(r.v[0], 1000ULL);
	ASSERT_EQ(r.v[0] + r.v[1], r.v[2]);
	close(fb);
	close(fk);
	close(lead);
}

/* exclude_user leaves the user loop out; exclude_hv/exclude_guest change nothing here. */
TEST_F(apmu, exclude_flags)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.disabled = 1,
	};
	uint64_t k1, k2, u1, u2;
	int fd;

	attr.exclude_user = 1;
	fd = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	count_spin(fd, 1000);
	k1 = count_spin(fd, 1000);
	k2 = count_spin(fd, 201000);
	close(fd);
	TH_LOG("kernel only: %llu and %llu", (unsigned long long)k1, (unsigned long long)k2);
	ASSERT_GT(k1, 0ULL);
	/* 400000 more user instructions, none of them counted */
	ASSERT_EQ(k1, k2);

	attr.exclude_user = 0;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 0;
	attr.exclude_guest = 1;
	fd = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	count_spin(fd, 1000);
	u1 = count_spin(fd, 1000);
	close(fd);
	attr.exclude_hv = 1;
	attr.exclude_guest = 0;
	fd = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	count_spin(fd, 1000);
	u2 = count_spin(fd, 1000);
	close(fd);
	/* no EL2 and no guests on this machine: same user count either way */
	ASSERT_EQ(u1, u2);
}

/* A group needing more event counters than exist can never run: -EINVAL at open. */
TEST_F(apmu, group_too_big)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x08,		/* INST_RETIRED */
		.exclude_kernel = 1,
		.disabled = 1,
	};
	/* with PMICNTR, one more INST_RETIRED fits */
	unsigned int n = apmu_inst_counters(&self->pmu), i;
	int fds[34], lead;

	ASSERT_GT(n, 0U);
	ASSERT_LT(n, 33U);
	lead = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(lead, 0);
	attr.disabled = 0;
	for (i = 1; i < n; i++) {
		fds[i] = apmu_perf_open(&attr, 0, -1, lead, 0);
		ASSERT_GE(fds[i], 0) TH_LOG("member %u: %s", i, strerror(errno));
	}
	ASSERT_EQ(-1, apmu_perf_open(&attr, 0, -1, lead, 0));
	ASSERT_EQ(EINVAL, errno);
	for (i = 1; i < n; i++)
		close(fds[i]);
	close(lead);
}

/*
 * The same with an rdpmc member (config1:1) as the one that does not fit: EINVAL, and
 * nothing else (perf core frees the refused event after clearing its pmu: a destroy
 * hook left set by the failed event_init would run on it and oops). No
 * kernel.perf_user_access needed: rdpmc is accepted on any task event.
 */
TEST_F(apmu, group_too_big_rdpmc_member)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x08,		/* INST_RETIRED */
		.exclude_kernel = 1,
		.disabled = 1,
	};
	unsigned int n = apmu_inst_counters(&self->pmu), i;
	int fds[34], lead, fd;

#ifndef __aarch64__
	SKIP(return, "32-bit Arm: rdpmc is refused before any group check");
#endif
	ASSERT_GT(n, 0U);
	ASSERT_LT(n, 33U);
	lead = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(lead, 0);
	attr.disabled = 0;
	for (i = 1; i < n; i++) {
		fds[i] = apmu_perf_open(&attr, 0, -1, lead, 0);
		ASSERT_GE(fds[i], 0) TH_LOG("member %u: %s", i, strerror(errno));
	}
	attr.config1 = 2;	/* rdpmc */
	for (i = 0; i < 3; i++) {
		fd = apmu_perf_open(&attr, 0, -1, lead, 0);
		ASSERT_EQ(-1, fd);
		ASSERT_EQ(EINVAL, errno);
	}
	/* the group still counts */
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	spin(1000);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));
	for (i = 1; i < n; i++)
		close(fds[i]);
	close(lead);
}

/*
 * A software leader with apmu siblings (the CVE-2013-4254 shape): the siblings are still
 * validated against apmu's counters, and a group that fits counts.
 */
TEST_F(apmu, software_leader_group)
{
	struct perf_event_attr sw = {
		.size = sizeof(sw),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.disabled = 1,
	};
	struct perf_event_attr hw = {
		.size = sizeof(hw),
		.type = self->pmu.type,
		.config = 0x08,
		.exclude_kernel = 1,
	};
	unsigned int n = apmu_inst_counters(&self->pmu), i;
	int lead, fds[34];
	uint64_t c;

	ASSERT_LT(n, 33U);
	lead = apmu_perf_open(&sw, 0, -1, -1, 0);
	ASSERT_GE(lead, 0);
	for (i = 0; i < n; i++) {
		fds[i] = apmu_perf_open(&hw, 0, -1, lead, 0);
		ASSERT_GE(fds[i], 0) TH_LOG("sibling %u: %s", i, strerror(errno));
	}
	ASSERT_EQ(-1, apmu_perf_open(&hw, 0, -1, lead, 0));
	ASSERT_EQ(EINVAL, errno);
	ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	spin(100000);
	ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	for (i = 0; i < n; i++) {
		ASSERT_EQ((ssize_t)sizeof(c), read(fds[i], &c, sizeof(c)));
		ASSERT_GE(c, 200000ULL) TH_LOG("sibling %u", i);
		close(fds[i]);
	}
	close(lead);
}

/* A group of exactly N event counters plus the cycle counter counts, all together. */
TEST_F(apmu, group_fits_counts_together)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x08,
		.exclude_kernel = 1,
		.disabled = 1,
		.read_format = PERF_FORMAT_GROUP,
	};
	unsigned int n = apmu_pmu_counters(&self->pmu), i;
	struct { uint64_t nr, v[34]; } r;
	int fds[34], lead;

	ASSERT_GT(n, 0U);
	ASSERT_LT(n, 32U);
	lead = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(lead, 0);
	attr.disabled = 0;
	for (i = 1; i < n; i++) {
		fds[i] = apmu_perf_open(&attr, 0, -1, lead, 0);
		ASSERT_GE(fds[i], 0) TH_LOG("member %u: %s", i, strerror(errno));
	}
	attr.config = 0x11;		/* CPU_CYCLES, on PMCCNTR */
	fds[n] = apmu_perf_open(&attr, 0, -1, lead, 0);
	ASSERT_GE(fds[n], 0) TH_LOG("cycles member: %s", strerror(errno));

	ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	spin(100000);
	ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	ASSERT_LT(0, read(lead, &r, sizeof(r)));
	ASSERT_EQ(n + 1, r.nr);
	for (i = 0; i < n; i++)
		EXPECT_EQ(r.v[0], r.v[i]) TH_LOG("member %u", i);
	EXPECT_GE(r.v[0], 200000ULL);
	EXPECT_GE(r.v[n], 200000ULL);
	for (i = 1; i <= n; i++)
		close(fds[i]);
	close(lead);
}

/*
 * Pinned events must always be on a counter: N pinned INST_RETIRED events count, one more
 * cannot be scheduled and goes to error state (read() returns 0 bytes), as perf defines.
 */
TEST_F(apmu, pinned_events)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x08,
		.exclude_kernel = 1,
		.pinned = 1,
	};
	unsigned int n = apmu_inst_counters(&self->pmu), i;
	int fds[34];
	uint64_t c;

	ASSERT_LT(n, 33U);
	for (i = 0; i <= n; i++) {
		fds[i] = apmu_perf_open(&attr, 0, -1, -1, 0);
		ASSERT_GE(fds[i], 0) TH_LOG("pinned event %u: %s", i, strerror(errno));
	}
	spin(100000);
	for (i = 0; i < n; i++) {
		ASSERT_EQ((ssize_t)sizeof(c), read(fds[i], &c, sizeof(c)));
		ASSERT_GE(c, 200000ULL) TH_LOG("pinned event %u", i);
	}
	ASSERT_EQ(0, read(fds[n], &c, sizeof(c))) TH_LOG("the extra pinned event ran");
	for (i = 0; i <= n; i++)
		close(fds[i]);
}

/*
 * N+3 separate events on N+1 counters: perf rotates them. Every event must run part of
 * the time, and its count scaled by time_enabled/time_running must be within 3% of the
 * real number of instructions: the rotation's error (0.2% on QEMU 7.2) plus QEMU 10's,
 * which charges the timer tick's handler to EL0 (1.0-1.7% more counted; 2.1% on a KASAN
 * kernel, whose handler is longer; see apmu_hetero.c).
 */
TEST_F(apmu, multiplexing_scaled_within_3pct)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x08,
		.exclude_kernel = 1,
		.disabled = 1,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	unsigned int n = apmu_pmu_counters(&self->pmu) + 3, i;
	const unsigned long iters = 40000000;	/* 80M instructions, ~80 ms of guest time */
	struct { uint64_t val, ena, run; } r;
	int fds[40];

	ASSERT_LT(n, 40U);
	for (i = 0; i < n; i++) {
		fds[i] = apmu_perf_open(&attr, 0, -1, -1, 0);
		ASSERT_GE(fds[i], 0);
	}
	for (i = 0; i < n; i++)
		ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0);
	spin(iters);
	for (i = 0; i < n; i++)
		ioctl(fds[i], PERF_EVENT_IOC_DISABLE, 0);
	for (i = 0; i < n; i++) {
		double scaled;

		ASSERT_EQ((ssize_t)sizeof(r), read(fds[i], &r, sizeof(r)));
		ASSERT_GT(r.run, 0ULL) TH_LOG("event %u never ran", i);
		ASSERT_LT(r.run, r.ena) TH_LOG("event %u was never rotated out", i);
		scaled = (double)r.val * r.ena / r.run;
		TH_LOG("event %u: %llu counted, running %.1f%%, scaled %.0f", i,
		       (unsigned long long)r.val, 100.0 * r.run / r.ena, scaled);
		EXPECT_LT(scaled, 2.0 * iters * 1.03);
		EXPECT_GT(scaled, 2.0 * iters * 0.97);
		close(fds[i]);
	}
}

/*
 * Every entry in events/ opens and counts over a workload. QEMU advertises some events
 * in PMCEID that it never counts: they may read 0 and are listed here.
 */
static const char * const qemu_never_counts[] = {
	"stall_frontend",	/* 0x23: advertised by QEMU, not emulated */
	"stall_backend",	/* 0x24: idem */
	"stall",		/* 0x3c: idem */
};

TEST_F(apmu, every_listed_event_counts)
{
	char path[300], file[300], buf[64];
	struct dirent *d;
	unsigned int n = 0, i;
	DIR *dir;

	snprintf(path, sizeof(path), APMU_SYSFS_PMUS "/%s/events", self->pmu.name);
	dir = opendir(path);
	ASSERT_TRUE(dir != NULL);
	while ((d = readdir(dir))) {
		struct perf_event_attr attr = { .size = sizeof(attr), .type = self->pmu.type };
		int fd, ret, zero_ok = 0;
		unsigned int ev;
		uint64_t c = 0;

		if (d->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "events/%s", d->d_name);
		ASSERT_EQ(0, apmu_read_pmu_file(&self->pmu, file, buf, sizeof(buf)));
		ret = sscanf(buf, "event=0x%x", &ev);
		ASSERT_EQ(1, ret) TH_LOG("%s: '%s'", d->d_name, buf);
		attr.config = ev;
		fd = apmu_perf_open(&attr, 0, -1, -1, 0);
		ASSERT_GE(fd, 0) TH_LOG("%s: %s", d->d_name, strerror(errno));
		spin(10000);
		syscall(__NR_getppid);
		ASSERT_EQ((ssize_t)sizeof(c), read(fd, &c, sizeof(c)));
		close(fd);
		for (i = 0; i < ARRAY_SIZE(qemu_never_counts); i++)
			zero_ok |= !strcmp(d->d_name, qemu_never_counts[i]);
		TH_LOG("%-24s event=0x%04x count %llu%s", d->d_name, ev, (unsigned long long)c,
		       zero_ok ? " (never counted by QEMU)" : "");
		if (!zero_ok)
			EXPECT_GT(c, 0ULL) TH_LOG("%s counted nothing", d->d_name);
		n++;
	}
	closedir(dir);
	ASSERT_GE(n, 2U);
}

/*
 * cpu1 goes offline and back while a per-CPU event on it and a task event are open.
 * Perf core (6.12) switches a per-CPU event off when its CPU goes away and does not
 * restart it: its count must be kept, not lost or corrupted. The task event goes on
 * counting, and a new event on cpu1 counts once it is back (apmu reset its PMU).
 */
TEST_F(apmu, cpu_offline_online_keeps_counts)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
	};
	uint64_t c0, c1, c2, t0, t1, n;
	int fcpu, ftask, fnew;

	if (access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "cpu1 cannot be offlined here (no second CPU or no hotplug)");
	fcpu = apmu_perf_open(&attr, -1, 1, -1, 0);
	ASSERT_GE(fcpu, 0) TH_LOG("cpu1 event: %s", strerror(errno));
	ftask = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(ftask, 0);
	usleep(20000);
	ASSERT_EQ((ssize_t)sizeof(c0), read(fcpu, &c0, sizeof(c0)));
	ASSERT_EQ(0, apmu_set_online(1, 0));
	ASSERT_EQ((ssize_t)sizeof(c1), read(fcpu, &c1, sizeof(c1)));
	spin(100000);
	ASSERT_EQ((ssize_t)sizeof(t0), read(ftask, &t0, sizeof(t0)));
	ASSERT_EQ(0, apmu_set_online(1, 1));
	usleep(20000);
	ASSERT_EQ((ssize_t)sizeof(c2), read(fcpu, &c2, sizeof(c2)));
	spin(100000);
	ASSERT_EQ((ssize_t)sizeof(t1), read(ftask, &t1, sizeof(t1)));
	TH_LOG("cpu1 cycles: %llu before, %llu offline, %llu back online",
	       (unsigned long long)c0, (unsigned long long)c1, (unsigned long long)c2);
	ASSERT_GT(c0, 0ULL);
	ASSERT_GE(c1, c0);
	ASSERT_GE(c2, c1);
	ASSERT_GE(t1 - t0, 200000ULL);

	fnew = apmu_perf_open(&attr, -1, 1, -1, 0);
	ASSERT_GE(fnew, 0) TH_LOG("new cpu1 event: %s", strerror(errno));
	usleep(20000);
	ASSERT_EQ((ssize_t)sizeof(n), read(fnew, &n, sizeof(n)));
	ASSERT_GT(n, 0ULL) TH_LOG("cpu1 does not count after coming back online");
	close(fnew);
	close(fcpu);
	close(ftask);
}

/*
 * A hotplug storm: STORM_CYCLES offline/online cycles of cpu1 under CPU-wide counting and
 * sampling. While cpu1 comes up, a second thread opens a CPU-wide cycles event on it as
 * soon as perf takes one (from CPUHP_AP_PERF_ONLINE, before the online callbacks of
 * modules have run): such an event must count once cpu1 is up, not be zeroed by a late
 * PMU reset. Meanwhile a workload pinned to cpu0 runs a known number of loops under
 * CPU-wide counting and sampling on cpu0, whose counts must match it afterwards. Events
 * on cpu1 opened before the storm are switched off by perf core (6.12) at the first
 * offline and stay off: their counts must survive. The console is checked for splats.
 */
#define STORM_CYCLES	100
#define STORM_CHUNK	1000000UL	/* spin() iterations per workload chunk */
#define STORM_PERIOD	1000000ULL	/* cpu0 sampling period, cycles */

struct storm {
	int armed;			/* the cycle whose online the opener races */
	int stop;
	int fd[STORM_CYCLES];
};

#define LOAD(x)		__atomic_load_n(&(x), __ATOMIC_SEQ_CST)
#define STORE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_SEQ_CST)

static void *storm_opener(void *arg)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.read_format = PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	struct storm *st = arg;
	int i, fd;

	while (!LOAD(st->stop)) {
		i = LOAD(st->armed);
		if (i < 0 || LOAD(st->fd[i]) >= 0) {
			usleep(100);
			continue;
		}
		fd = apmu_perf_open(&attr, -1, 1, -1, 0);	/* ENODEV until perf has cpu1 */
		if (fd >= 0)
			STORE(st->fd[i], fd);
	}
	return NULL;
}

/* Count the PERF_RECORD_SAMPLE, _LOST and _THROTTLE records of a ring */
static void storm_ring(void *ring, size_t size, unsigned int *samples, unsigned int *lost,
		       unsigned int *throttled)
{
	const struct perf_event_header *h;
	struct apmu_ring r;

	*samples = 0;
	*lost = 0;
	*throttled = 0;
	apmu_ring_begin(&r, ring, size);
	while ((h = apmu_ring_next(&r))) {
		*samples += h->type == PERF_RECORD_SAMPLE;
		*lost += h->type == PERF_RECORD_LOST;
		*throttled += h->type == PERF_RECORD_THROTTLE;
	}
}

TEST_F_TIMEOUT(apmu, hotplug_storm_counting_sampling, 300)
{
	struct perf_event_attr cnt = {
		.size = sizeof(cnt),
		.type = self->pmu.type,
		.config = 0x08,			/* INST_RETIRED, user */
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	struct perf_event_attr smp = {
		.size = sizeof(smp),
		.type = self->pmu.type,
		.config = 0x11,			/* CPU_CYCLES, all ELs */
		.sample_period = STORM_PERIOD,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CPU,
	};
	size_t psz = getpagesize(), rsize = 64 * psz;
	uint64_t c0, task, s0, c1a, c1b, s1a, s1b, loops;
	unsigned int i, stuck = 0, raced = 0, unscheduled = 0, samples, lost, throttled;
	struct { uint64_t val, run; } ra, rb;
	int f0, ftask, fs0, f1, fs1, pfd[2], status;
	uint64_t *shared;
	struct storm *st;
	pthread_t thr;
	void *ring;
	pid_t child;

	if (access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "cpu1 cannot be offlined here (no second CPU or no hotplug)");
	/*
	 * Sampling handlers are slow under QEMU with lockdep, more so around hotplug: perf
	 * would lower kernel.perf_event_max_sample_rate for every later test. Its CPU-time
	 * limit is off during the storm (1000 samples a second cannot hang anything).
	 */
	ASSERT_EQ(0, apmu_read_file(TIME_PCT, self->time_pct, sizeof(self->time_pct)));
	ASSERT_EQ(0, apmu_write_file(TIME_PCT, "0"));
	shared = mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(shared != MAP_FAILED);
	st = (struct storm *)(shared + 2);
	STORE(st->armed, -1);
	STORE(st->stop, 0);
	for (i = 0; i < STORM_CYCLES; i++)
		st->fd[i] = -1;
	ASSERT_EQ(0, apmu_pin(0));

	/* the workload: chunks of spin() on cpu0 until told to stop, counted in shared[0] */
	ASSERT_EQ(0, pipe(pfd));
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		char c;

		if (read(pfd[0], &c, 1) != 1)
			_exit(1);
		while (!LOAD(shared[1])) {
			spin(STORM_CHUNK);
			STORE(shared[0], shared[0] + 1);
		}
		_exit(0);
	}
	ftask = apmu_perf_open(&cnt, child, -1, -1, 0);
	ASSERT_GE(ftask, 0) TH_LOG("workload event: %s", strerror(errno));
	f0 = apmu_perf_open(&cnt, -1, 0, -1, 0);
	ASSERT_GE(f0, 0) TH_LOG("cpu0 counting: %s", strerror(errno));
	fs0 = apmu_perf_open(&smp, -1, 0, -1, 0);
	ASSERT_GE(fs0, 0) TH_LOG("cpu0 sampling: %s", strerror(errno));
	ring = mmap(NULL, rsize + psz, PROT_READ | PROT_WRITE, MAP_SHARED, fs0, 0);
	ASSERT_TRUE(ring != MAP_FAILED);
	f1 = apmu_perf_open(&cnt, -1, 1, -1, 0);
	ASSERT_GE(f1, 0) TH_LOG("cpu1 counting: %s", strerror(errno));
	fs1 = apmu_perf_open(&smp, -1, 1, -1, 0);
	ASSERT_GE(fs1, 0) TH_LOG("cpu1 sampling: %s", strerror(errno));
	ASSERT_EQ(1, write(pfd[1], "g", 1));
	ASSERT_EQ(0, pthread_create(&thr, NULL, storm_opener, st));

	usleep(10000);
	ASSERT_EQ((ssize_t)sizeof(c1a), read(f1, &c1a, sizeof(c1a)));
	ASSERT_EQ((ssize_t)sizeof(s1a), read(fs1, &s1a, sizeof(s1a)));
	for (i = 0; i < STORM_CYCLES; i++) {
		ASSERT_EQ(0, apmu_set_online(1, 0)) TH_LOG("cycle %u: offline", i);
		STORE(st->armed, i);
		ASSERT_EQ(0, apmu_set_online(1, 1)) TH_LOG("cycle %u: online", i);
		raced += LOAD(st->fd[i]) >= 0;
		while (LOAD(st->fd[i]) < 0)
			usleep(100);
		STORE(st->armed, -1);
		/*
		 * cpu1 is up: an event perf runs must count, idle cycles included. perf
		 * core 6.12 itself sometimes never schedules an event opened in this
		 * window (time_running stays 0, with the in-tree driver as well): not
		 * the driver's to count, so only logged.
		 */
		ASSERT_EQ((ssize_t)sizeof(ra), read(st->fd[i], &ra, sizeof(ra)));
		usleep(2000);
		ASSERT_EQ((ssize_t)sizeof(rb), read(st->fd[i], &rb, sizeof(rb)));
		if (rb.run == ra.run)
			unscheduled++;
		else if (rb.val - ra.val < 1000000 && stuck++ < 5)
			TH_LOG("cycle %u: cpu1 event opened during online ran %llu ns, counted %llu",
			       i, (unsigned long long)(rb.run - ra.run),
			       (unsigned long long)(rb.val - ra.val));
		close(st->fd[i]);
	}
	STORE(st->stop, 1);
	pthread_join(thr, NULL);
	STORE(shared[1], 1);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	loops = LOAD(shared[0]);

	ASSERT_EQ((ssize_t)sizeof(task), read(ftask, &task, sizeof(task)));
	ASSERT_EQ((ssize_t)sizeof(c0), read(f0, &c0, sizeof(c0)));
	ASSERT_EQ((ssize_t)sizeof(s0), read(fs0, &s0, sizeof(s0)));
	ASSERT_EQ((ssize_t)sizeof(c1b), read(f1, &c1b, sizeof(c1b)));
	ASSERT_EQ((ssize_t)sizeof(s1b), read(fs1, &s1b, sizeof(s1b)));
	storm_ring(ring, rsize, &samples, &lost, &throttled);
	TH_LOG("%u cycles (%u opens won the online race), %u stuck events, %u never scheduled by perf",
	       STORM_CYCLES, raced, stuck, unscheduled);
	TH_LOG("workload: %llu loops = %llu user instructions; its event %llu; cpu0 inst:u %llu",
	       (unsigned long long)loops, (unsigned long long)(2 * STORM_CHUNK * loops),
	       (unsigned long long)task, (unsigned long long)c0);
	TH_LOG("cpu0 cycles %llu: %u samples, %u lost, %u throttled", (unsigned long long)s0,
	       samples, lost, throttled);
	TH_LOG("cpu1 before/after the storm: inst:u %llu/%llu, cycles %llu/%llu",
	       (unsigned long long)c1a, (unsigned long long)c1b, (unsigned long long)s1a,
	       (unsigned long long)s1b);
	EXPECT_EQ(0U, stuck);
	/* the loops ran on cpu0, under both its task event and cpu0's CPU-wide event */
	EXPECT_GE(task, 2 * STORM_CHUNK * loops);
	/*
	 * Not far above: QEMU adds other work to a user count (apmu_util.h), measured
	 * up to 4% here with cpu1 going up and down meanwhile.
	 */
	EXPECT_LE(task, 2 * STORM_CHUNK * (loops + 1) + 2 * STORM_CHUNK * loops / 4);
	EXPECT_GE(c0, task);
	/* cpu0 sampled all along: one sample per period (perf may throttle: not below half) */
	EXPECT_EQ(0U, lost);
	EXPECT_LE(samples, s0 / STORM_PERIOD + 1);
	EXPECT_GE(samples, s0 / STORM_PERIOD / 2);
	/* cpu1's events from before the storm: switched off, nothing lost */
	EXPECT_GE(c1b, c1a);
	EXPECT_GE(s1b, s1a);
	munmap(ring, rsize + psz);
	close(fs1);
	close(f1);
	close(fs0);
	close(f0);
	close(ftask);
	munmap(shared, psz);
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
#define OWN	0xffffffffu	/* replaced by apmu's dynamic type */
/* rdpmc is for task events (EINVAL); on 32-bit Arm it is refused altogether first */
#ifdef __aarch64__
#define APMU_RDPMC_CPU_WIDE_ERR	EINVAL
#else
#define APMU_RDPMC_CPU_WIDE_ERR	EOPNOTSUPP
#endif
#define HW_CACHE(t, op, res)	((t) | (op) << 8 | (res) << 16)

struct bad_attr {
	const char *what;
	struct perf_event_attr attr;
	int err;
	const char *unless_event;	/* the errno holds only if events/<this> is absent */
	int unless_threshold;		/* ... only without FEAT_PMUv3_TH */
	int cpu_wide;			/* open on CPU 0 for all tasks, not for this task */
	/*
	 * ... only on the generic arm,armv8-pmuv3 node, which has no per-core cache map (a
	 * Cortex-A72's maps L1D reads to its own 0x40)
	 */
	int generic_node;
};

static const struct bad_attr bad_attrs[] = {
	{ "config bit 16", { .type = OWN, .config = 1ULL << 16 }, EINVAL },
	{ "config bit 32", { .type = OWN, .config = 1ULL << 32 | 0x11 }, EINVAL },
	{ "config bit 63", { .type = OWN, .config = 1ULL << 63 | 0x11 }, EINVAL },
	{ "raw type, config bit 16", { .type = PERF_TYPE_RAW, .config = 0x10011 }, EINVAL },
	{ "raw type, config bit 40", { .type = PERF_TYPE_RAW, .config = 1ULL << 40 | 8 },
	  EINVAL },
	{ "config1 bit 17", { .type = OWN, .config = 0x11, .config1 = 1ULL << 17 }, EINVAL },
	{ "config1 bit 63", { .type = OWN, .config = 0x11, .config1 = 1ULL << 63 }, EINVAL },
	{ "threshold_count", { .type = OWN, .config = 0x11, .config1 = 1ULL << 2 }, EINVAL,
	  NULL, 1 },
	{ "threshold", { .type = OWN, .config = 0x11, .config1 = 5ULL << 5 }, EINVAL, NULL, 1 },
	{ "threshold_compare alone", { .type = OWN, .config = 0x11, .config1 = 1ULL << 3 },
	  EINVAL },
	{ "config2 bit 0", { .type = OWN, .config = 0x11, .config2 = 1 }, EINVAL },
	{ "config2 bit 63", { .type = OWN, .config = 0x11, .config2 = 1ULL << 63 }, EINVAL },
	/* no config3 field either (attr.size covers it here; E2BIG from perf core before 6.3) */
	{ "config3 bit 0", { .type = OWN, .config = 0x11, .config3 = 1 }, EINVAL },
	{ "config3 bit 63", { .type = OWN, .config = 0x11, .config3 = 1ULL << 63 }, EINVAL },
	{ "CHAIN alone", { .type = OWN, .config = 0x1e }, EINVAL },
	{ "CHAIN as a raw event", { .type = PERF_TYPE_RAW, .config = 0x1e }, EINVAL },
	{ "hardware: bus-cycles not in PMCEID",
	  { .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_BUS_CYCLES }, ENOENT,
	  "bus_cycles" },
	{ "hardware: ref-cycles has no PMUv3 mapping",
	  { .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_REF_CPU_CYCLES }, ENOENT },
	/* out of range is -EINVAL, as in-tree and on x86; -ENOENT is for a valid event */
	{ "hardware: config PERF_COUNT_HW_MAX",
	  { .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_MAX }, EINVAL },
	{ "hardware: config 0xffff", { .type = PERF_TYPE_HARDWARE, .config = 0xffff }, EINVAL },
	{ "hardware (extended type): config PERF_COUNT_HW_MAX",
	  { .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_MAX | (__u64)OWN << 32 },
	  EINVAL },
	{ "cache: L1D read access not in PMCEID",
	  { .type = PERF_TYPE_HW_CACHE, .config = HW_CACHE(0, 0, 0) }, ENOENT, "l1d_cache",
	  .generic_node = 1 },
	{ "cache: L1D prefetch has no mapping",
	  { .type = PERF_TYPE_HW_CACHE, .config = HW_CACHE(0, 2, 0) }, ENOENT },
	{ "cache: op beyond PERF_COUNT_HW_CACHE_OP_MAX",
	  { .type = PERF_TYPE_HW_CACHE, .config = HW_CACHE(0, 3, 0) }, EINVAL },
	{ "cache: type PERF_COUNT_HW_CACHE_MAX",
	  { .type = PERF_TYPE_HW_CACHE, .config = HW_CACHE(7, 0, 0) }, EINVAL },
	{ "cache: type 0xff", { .type = PERF_TYPE_HW_CACHE, .config = HW_CACHE(0xff, 0, 0) },
	  EINVAL },
	{ "cache: result beyond PERF_COUNT_HW_CACHE_RESULT_MAX",
	  { .type = PERF_TYPE_HW_CACHE, .config = HW_CACHE(0, 0, 2) }, EINVAL },
	/* in-tree ignores config[63:24]; apmu refuses bits outside the fields (apmu.rst) */
	{ "cache: config bit 24", { .type = PERF_TYPE_HW_CACHE, .config = 1ULL << 24 },
	  EINVAL },
	{ "sampling at a frequency above perf_event_max_sample_rate",
	  { .type = OWN, .config = 0x11, .freq = 1, .sample_freq = 1U << 30 }, EINVAL },
	{ "branch stack", { .type = OWN, .config = 0x11, .sample_period = 100000,
	  .sample_type = PERF_SAMPLE_BRANCH_STACK,
	  .branch_sample_type = PERF_SAMPLE_BRANCH_ANY }, EOPNOTSUPP },
	/* a branch stack is refused before the event is looked at, as in-tree */
	{ "branch stack with config bits outside event",
	  { .type = OWN, .config = 0x10000, .sample_period = 100000,
	  .sample_type = PERF_SAMPLE_BRANCH_STACK,
	  .branch_sample_type = PERF_SAMPLE_BRANCH_ANY }, EOPNOTSUPP },
	{ "branch stack on ref-cycles (no PMUv3 mapping), extended type",
	  { .type = PERF_TYPE_HARDWARE,
	  .config = PERF_COUNT_HW_REF_CPU_CYCLES | (__u64)OWN << 32,
	  .sample_period = 100000, .sample_type = PERF_SAMPLE_BRANCH_STACK,
	  .branch_sample_type = PERF_SAMPLE_BRANCH_ANY }, EOPNOTSUPP },
	{ "exclude_idle", { .type = OWN, .config = 0x11, .exclude_idle = 1 }, EOPNOTSUPP },
	{ "guest only (exclude_host) with no KVM filter switching",
	  { .type = OWN, .config = 0x11, .exclude_host = 1 }, EOPNOTSUPP },
	{ "rdpmc on a CPU-wide event", { .type = OWN, .config = 0x11, .config1 = 2 },
	  APMU_RDPMC_CPU_WIDE_ERR, NULL, 0, 1 },
	{ "an unknown type", { .type = 1000, .config = 0x11 }, ENOENT },
};

static int pmu_has_event(const struct apmu_pmu_info *pmu, const char *ev)
{
	char path[64], buf[64];

	snprintf(path, sizeof(path), "events/%s", ev);
	return !apmu_read_pmu_file(pmu, path, buf, sizeof(buf));
}

/*
 * perf_event_attr.config3 is in kernels from 6.3 (PERF_ATTR_SIZE_VER8). An older one
 * refuses the unknown non-zero bytes past its own attr size itself, with E2BIG.
 */
static int kernel_has_config3(void)
{
	struct utsname u;
	unsigned int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return 1;
	return major > 6 || (major == 6 && minor >= 3);
}

TEST_F(apmu, bad_attrs_errno)
{
	char buf[32] = "";
	unsigned int i, n = 0;
	int has_th;

	apmu_read_pmu_file(&self->pmu, "caps/threshold_max", buf, sizeof(buf));
	has_th = strtoul(buf, NULL, 0) != 0;

	for (i = 0; i < ARRAY_SIZE(bad_attrs); i++) {
		const struct bad_attr *b = &bad_attrs[i];
		struct perf_event_attr attr = b->attr;
		int fd, err;

		if (b->unless_event && pmu_has_event(&self->pmu, b->unless_event))
			continue;
		if (b->unless_threshold && has_th)
			continue;
		if (b->generic_node && strcmp(self->pmu.name, "apmu_armv8_pmuv3"))
			continue;
		attr.size = sizeof(attr);
		if (attr.type == OWN)
			attr.type = self->pmu.type;
		if (attr.config >> 32 == OWN)
			attr.config = (__u32)attr.config | (__u64)self->pmu.type << 32;
		errno = 0;
		fd = b->cpu_wide ? apmu_perf_open(&attr, -1, 0, -1, 0) :
				   apmu_perf_open(&attr, 0, -1, -1, 0);
		err = errno;
		if (fd >= 0)
			close(fd);
		EXPECT_EQ(-1, fd) TH_LOG("%s: opened", b->what);
		if (attr.config3 && err == E2BIG && !kernel_has_config3()) {
			TH_LOG("%s: E2BIG, this kernel has no config3", b->what);
			n++;
			continue;
		}
		EXPECT_EQ(b->err, err)
			TH_LOG("%s: errno %d (%s), want %d (%s)", b->what, err, strerror(err),
			       b->err, strerror(b->err));
		n++;
	}
	/* On QEMU's PMU every row applies: at least 25 distinct rejections */
	TH_LOG("%u invalid attributes checked", n);
	ASSERT_GE(n, 25U);
}

#define APMU_MAX_CPUS	4096

/*
 * A cpulist ("0-3,5") added to @count, one per CPU listed. Return: the number of CPUs
 * listed, -1 for a malformed list.
 */
static int cpulist_count(const char *list, unsigned char *count)
{
	unsigned int a, b;
	int n, cpus = 0;

	while (*list) {
		if (sscanf(list, "%u%n", &a, &n) != 1)
			return -1;
		list += n;
		b = a;
		if (*list == '-') {
			if (sscanf(list + 1, "%u%n", &b, &n) != 1)
				return -1;
			list += n + 1;
		}
		if (b < a || b >= APMU_MAX_CPUS)
			return -1;
		for (; a <= b; a++, cpus++)
			count[a]++;
		if (*list == ',')
			list++;
		else if (*list)
			return -1;
	}
	return cpus;
}

/*
 * What perf reads of a core PMU for its metrics, as the in-tree driver gives it: caps/slots,
 * bus_slots, bus_width and threshold_max in "0x%08x" (PMMIR_EL1's fields, all 0 before
 * PMUv3p4, pmu_version 5, where PMMIR does not exist), and cpus: the core PMUs' cpus
 * together list every possible CPU, each CPU once (one PMU per CPU type, or perf's
 * heterogeneous paths go wrong).
 */
TEST_F(apmu, caps_and_cpus_as_perf_reads_them)
{
	static const char * const caps[] = { "slots", "bus_slots", "bus_width", "threshold_max" };
	static unsigned char possible[APMU_MAX_CPUS], listed[APMU_MAX_CPUS];
	char buf[4096], path[300];
	unsigned int i, ver, val, n;
	struct apmu_pmu_info other;
	struct dirent *d;
	DIR *dir;
	int ret;

	ASSERT_EQ(0, apmu_read_pmu_file(&self->pmu, "caps/pmu_version", buf, sizeof(buf)));
	ver = strtoul(buf, NULL, 0);
	for (i = 0; i < ARRAY_SIZE(caps); i++) {
		snprintf(path, sizeof(path), "caps/%s", caps[i]);
		ASSERT_EQ(0, apmu_read_pmu_file(&self->pmu, path, buf, sizeof(buf)))
			TH_LOG("no %s", path);
		ret = sscanf(buf, "0x%8x%n", &val, &n);
		ASSERT_EQ(1, ret) TH_LOG("%s: \"%s\"", path, buf);
		ASSERT_EQ(10U, strlen(buf)) TH_LOG("%s: \"%s\", not 0x%%08x", path, buf);
		ASSERT_EQ(10U, n);
		if (ver < 5 && strcmp(caps[i], "threshold_max"))
			ASSERT_EQ(0U, val) TH_LOG("%s %u without PMMIR (pmu_version %u)", path,
						  val, ver);
	}

	ASSERT_EQ(0, apmu_read_file("/sys/devices/system/cpu/possible", buf, sizeof(buf)));
	ASSERT_GT(cpulist_count(buf, possible), 0) TH_LOG("possible CPUs \"%s\"", buf);
	dir = opendir(APMU_SYSFS_PMUS);
	ASSERT_TRUE(dir != NULL);
	while ((d = readdir(dir))) {
		if (strncmp(d->d_name, "apmu_", 5) || strlen(d->d_name) >= sizeof(other.name))
			continue;
		snprintf(other.name, sizeof(other.name), "%s", d->d_name);
		if (apmu_read_pmu_file(&other, "cpus", buf, sizeof(buf)))
			continue;	/* not a core PMU (apmu_amu, apmu_pcs: cpumask) */
		EXPECT_GT(cpulist_count(buf, listed), 0) TH_LOG("%s/cpus \"%s\"", other.name, buf);
	}
	closedir(dir);
	for (i = 0, n = 0; i < APMU_MAX_CPUS; i++) {
		if (possible[i] == listed[i])
			continue;
		TH_LOG("CPU%u: possible %u, in %u core PMUs' cpus", i, possible[i], listed[i]);
		n++;
	}
	ASSERT_EQ(0U, n);
}

/*
 * branches (PERF_COUNT_HW_BRANCH_INSTRUCTIONS) maps as in-tree: BR_RETIRED (0x21) where
 * PMCEID has it, else PC_WRITE_RETIRED (0x0c), else ENOENT. QEMU implements neither; a
 * Cortex-A53 has 0x0c, later cores 0x21.
 */
TEST_F(apmu, branches_maps_like_in_tree)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS | (__u64)self->pmu.type << 32,
		.exclude_kernel = 1,
		.disabled = 1,
	};
	int br = pmu_has_event(&self->pmu, "br_retired");
	int pcw = pmu_has_event(&self->pmu, "pc_write_retired");
	uint64_t c;
	int fd;

	TH_LOG("PMCEID: br_retired %s, pc_write_retired %s", br ? "yes" : "no",
	       pcw ? "yes" : "no");
	fd = apmu_perf_open(&attr, 0, -1, -1, 0);
	if (!br && !pcw) {
		ASSERT_EQ(-1, fd);
		ASSERT_EQ(ENOENT, errno);
		return;
	}
	ASSERT_GE(fd, 0) TH_LOG("branches: %s", strerror(errno));
	c = count_spin(fd, 10000);
	close(fd);
	/* the loop takes one branch per iteration */
	ASSERT_GE(c, 10000ULL);
}

/*
 * CPU PM end to end: the test-only module apmu_cpu_pm_test (tests/cpu_pm_trigger.c)
 * runs the kernel's real cpu_pm_enter()/cpu_pm_exit() chain with IRQs off on the CPU a
 * write names, as a cpuidle driver does around core power-down. apmu's notifier folds
 * the counters at CPU_PM_ENTER and resets and reprograms the PMU at CPU_PM_EXIT: no
 * count may be lost or added.
 */
#define CPU_PM_CYCLE	"/sys/kernel/debug/apmu_cpu_pm/cycle"

#ifdef __aarch64__
/* pwrite() without libc, whose error path (errno) would add user instructions */
static long raw_pwrite(int fd, const char *buf, unsigned long len)
{
	register long x0 __asm__("x0") = fd;
	register long x1 __asm__("x1") = (long)buf;
	register long x2 __asm__("x2") = len;
	register long x3 __asm__("x3") = 0;
	register long x8 __asm__("x8") = __NR_pwrite64;

	__asm__ volatile("svc #0" : "+r" (x0) : "r" (x1), "r" (x2), "r" (x3), "r" (x8)
			 : "memory");
	return x0;
}

/*
 * One window of the group led by @lead (this task's inst_retired:u and cpu_cycles:u):
 * spin @n, write @what to the trigger three times, spin @n. Each count in @v; the
 * smallest of five windows (a tick only adds, apmu_util.h). -1 if a write that should
 * run a cycle failed.
 */
static int cpu_pm_window(int lead, int tfd, const char *what, int cycle, unsigned long n,
			 uint64_t v[2])
{
	struct { uint64_t nr, val[2]; } r;
	long ret[3];
	int run, i;

	v[0] = UINT64_MAX;
	v[1] = UINT64_MAX;
	for (run = 0; run < 5; run++) {
		ioctl(lead, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
		ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		spin(n);
		ret[0] = raw_pwrite(tfd, what, 2);
		ret[1] = raw_pwrite(tfd, what, 2);
		ret[2] = raw_pwrite(tfd, what, 2);
		spin(n);
		ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
		if (read(lead, &r, sizeof(r)) != sizeof(r) || r.nr != 2)
			return -1;
		for (i = 0; i < 3; i++)
			if (cycle ? ret[i] != 2 : ret[i] != -EINVAL)
				return -1;
		for (i = 0; i < 2; i++)
			if (r.val[i] < v[i])
				v[i] = r.val[i];
	}
	return 0;
}
#endif

TEST_F(apmu, cpu_pm_cycle_keeps_counts)
{
#ifndef __aarch64__
	SKIP(return, "the CPU PM trigger module is built for arm64 only");
#else
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x08,		/* INST_RETIRED, on an event counter */
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.disabled = 1,
		.read_format = PERF_FORMAT_GROUP,
	};
	uint64_t with[2], without[2], more[2];
	char cpu[3];
	int lead, fd, tfd;

	tfd = open(CPU_PM_CYCLE, O_WRONLY);
	if (tfd < 0)
		SKIP(return, "no %s: insmod apmu_cpu_pm_test.ko (test only)", CPU_PM_CYCLE);
	ASSERT_EQ(0, apmu_pin(1));
	snprintf(cpu, sizeof(cpu), "1\n");
	lead = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(lead, 0) TH_LOG("%s", strerror(errno));
	attr.config = 0x11;	/* CPU_CYCLES, on PMCCNTR (-icount: one per instruction) */
	attr.disabled = 0;
	fd = apmu_perf_open(&attr, 0, -1, lead, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));

	/* "x\n" is refused (EINVAL): the same user-space instructions, no cycle */
	ASSERT_EQ(0, cpu_pm_window(lead, tfd, "x\n", 0, 20000, without));
	ASSERT_EQ(0, cpu_pm_window(lead, tfd, cpu, 1, 20000, with));
	ASSERT_EQ(0, cpu_pm_window(lead, tfd, cpu, 1, 70000, more));
	TH_LOG("inst_retired:u %llu without CPU PM, %llu with 3 cycles, %llu with 100000 more",
	       (unsigned long long)without[0], (unsigned long long)with[0],
	       (unsigned long long)more[0]);
	TH_LOG("cpu_cycles:u %llu without CPU PM, %llu with 3 cycles, %llu with 100000 more",
	       (unsigned long long)without[1], (unsigned long long)with[1],
	       (unsigned long long)more[1]);
	EXPECT_GT(with[0], 80000ULL);
	/* nothing lost, nothing added, on an event counter and on PMCCNTR */
	EXPECT_EQ(without[0], with[0]);
	EXPECT_EQ(without[1], with[1]);
	/* and counting goes on after each cycle: 100000 more iterations, 200000 more */
	EXPECT_EQ(200000ULL, more[0] - with[0]);
	EXPECT_EQ(200000ULL, more[1] - with[1]);
	close(fd);
	close(lead);
	close(tfd);
#endif
}

/*
 * The same for a CPU-wide event while another task runs there: the cycle runs in a
 * kworker on that CPU (smp_call_on_cpu()) and the event stays on the counters across it.
 * The busy child spins in chunks until the parent has cycled the CPU PM_MIN_CYCLES times
 * (however the two CPUs are scheduled), and its user instructions must all be counted.
 */
#define PM_CHUNK_ITERS	2000000UL
#define PM_MIN_CHUNKS	5
#define PM_MAX_CHUNKS	200
#define PM_MIN_CYCLES	3

struct pm_child {
	volatile int cycled;	/* parent: PM_MIN_CYCLES cycles done while it spun */
	volatile int chunks;	/* child: chunks spun */
};

TEST_F(apmu, cpu_pm_cycle_keeps_cpu_wide_counts)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x08,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.disabled = 1,
	};
	int fd, tfd, sync[2], status, cycles = 0;
	struct pm_child *sh;
	uint64_t c = 0, want;
	pid_t child;
	char x;

	tfd = open(CPU_PM_CYCLE, O_WRONLY);
	if (tfd < 0)
		SKIP(return, "no %s: insmod apmu_cpu_pm_test.ko (test only)", CPU_PM_CYCLE);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(sh != MAP_FAILED);
	ASSERT_EQ(0, apmu_pin(1));
	fd = apmu_perf_open(&attr, -1, 0, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("CPU-wide on cpu0: %s", strerror(errno));
	ASSERT_EQ(0, pipe(sync));
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		if (apmu_pin(0))
			_exit(1);
		if (read(sync[0], &x, 1) != 1)
			_exit(1);
		do {
			spin(PM_CHUNK_ITERS);
			sh->chunks++;
		} while ((!sh->cycled || sh->chunks < PM_MIN_CHUNKS) &&
			 sh->chunks < PM_MAX_CHUNKS);
		_exit(0);
	}
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(1, write(sync[1], "x", 1));
	while (waitpid(child, &status, WNOHANG) == 0) {
		ASSERT_EQ(2, pwrite(tfd, "0\n", 2, 0))
			TH_LOG("cycle on cpu0: %s", strerror(errno));
		/* a cycle counts once the child has spun a chunk: it lands while it spins */
		if (sh->chunks && ++cycles >= PM_MIN_CYCLES)
			sh->cycled = 1;
		usleep(2000);
	}
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ((ssize_t)sizeof(c), read(fd, &c, sizeof(c)));
	want = 2 * PM_CHUNK_ITERS * sh->chunks;
	TH_LOG("cpu0 user instructions %llu across %d CPU PM cycles (child: %llu in %d chunks)",
	       (unsigned long long)c, cycles, (unsigned long long)want, sh->chunks);
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	/* the child spun until the cycles were done, so they landed while it ran */
	EXPECT_GE(cycles, PM_MIN_CYCLES);
	EXPECT_LT(sh->chunks, PM_MAX_CHUNKS);
	/*
	 * every instruction of the child's loop; others on cpu0 only add: up to 5% on QEMU
	 * 10 (the ticks' handlers charged to EL0, apmu_hetero.c; 12% on QEMU 10 with KASAN,
	 * which no make check lane runs), while a segment of the loop counted twice adds more
	 */
	EXPECT_GE(c, want);
	EXPECT_LT(c, want + want / 10);
	munmap(sh, sizeof(*sh));
	close(fd);
	close(tfd);
}

/*
 * exclude_host and exclude_guest together leave nothing to count: the event opens (as
 * in-tree) and counts exactly 0, whatever runs, on both kinds of counter.
 */
TEST_F(apmu, exclude_host_and_guest_counts_nothing)
{
	static const __u64 configs[] = { 0x11, 0x08 };	/* PMCCNTR, an event counter */
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.exclude_host = 1,
		.exclude_guest = 1,
	};
	unsigned int i;
	uint64_t c;
	int fd;

	for (i = 0; i < 2; i++) {
		attr.config = configs[i];
		fd = apmu_perf_open(&attr, 0, -1, -1, 0);
		ASSERT_GE(fd, 0) TH_LOG("config 0x%llx: %s", configs[i], strerror(errno));
		spin(1000000);
		syscall(__NR_getppid);
		ASSERT_EQ((ssize_t)sizeof(c), read(fd, &c, sizeof(c)));
		close(fd);
		EXPECT_EQ(0ULL, c)
			TH_LOG("config 0x%llx counted %llu", configs[i], (unsigned long long)c);
	}
}

/*
 * The 32-bit event counter path: apmu loaded with long_counters=0 (PMCR_EL0.LP clear, as on
 * every core before PMUv3p5: Cortex-A53/A55/A57/A72/A76, Neoverse N1). A counting event
 * takes 2^31 events from its half-range start to its first overflow and 2^31 between the
 * following ones, so wraps take real work: each test retires 5e9 user instructions, four
 * overflows of every 32-bit counter, with no read() in between that could hide a lost one.
 *
 * The reference is the cycle counter leading the same group: PMCCNTR_EL0 is 64-bit
 * (PMCR_EL0.LC) whatever long_counters says, and under QEMU -icount shift=0 one cycle is
 * one instruction, so over the same window cycles:u and inst_retired:u are equal, a timer
 * tick included (it adds to both, see apmu_util.h).
 */
#define WRAP_ITERS	2500000000UL	/* 5e9 instructions (2.5e9 fits 32-bit Arm's long) */
#define WRAP_INSNS	(2ULL * WRAP_ITERS)
#define WRAP_PERIOD	0x88000000ULL	/* > 2^31: capped at 2^31 per arming, 2 samples */
#define WRAP_RING_PAGES	8

/*
 * Does apmu offer sampling? Not with the test-only apmu_knobs.ko loaded with sampling=0
 * (the counting-only fallback) or overflow_irq=0 (as on a PMU without an overflow
 * interrupt).
 */
static int apmu_sampling_offered(void)
{
	return !apmu_knob_off("sampling") && !apmu_knob_off("overflow_irq");
}

FIXTURE(apmu32) {
	struct apmu_pmu_info pmu;
	struct apmu_alone alone;
	int alone_on;
	int sampling;
};

FIXTURE_SETUP(apmu32)
{
	char buf[32];

	self->alone_on = 0;
	if (apmu_find_pmu(&self->pmu))
		SKIP(return, "no apmu PMU in /sys/bus/event_source/devices (no PMUv3 bound)");
	ASSERT_EQ(0, apmu_read_pmu_file(&self->pmu, "caps/long_counters", buf, sizeof(buf)));
	if (buf[0] != '0')
		SKIP(return, "64-bit event counters: load apmu with long_counters=0 for this");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs a second CPU for the workload to run alone on");
	self->sampling = apmu_sampling_offered();
}

FIXTURE_TEARDOWN(apmu32)
{
	if (self->alone_on && apmu_alone_end(&self->alone))
		TH_LOG("could not put the scheduler settings back: %s", strerror(errno));
}

struct wrap_result {
	uint64_t cycles, inst, inst_long, inst_sampled, switches;
	unsigned int samples, bad_period;
};

/*
 * One group on @pid/@cpu: cycles:u (the reference), inst_retired:u counting, the same
 * with config1 "long", the same sampling with a period above 2^31 (when apmu samples;
 * otherwise its open must fail with EOPNOTSUPP, and the counters are extended by apmu's
 * fold timer instead of the overflow interrupt), and the context switches. This task
 * runs spin(WRAP_ITERS) alone on cpu1 (apmu_alone_begin()). A CPU-wide event is never
 * restarted by a context switch, so it sees every wrap whatever runs; a task event is
 * restarted at each switch of its task, which hides a lost wrap unless the task ran 2^32
 * instructions without one. On Linux 6.12 the stopper and the deadline server still
 * preempt a SCHED_FIFO task a few times a second (seen: 1 to 4 switches in 5 s), so the
 * task case is exact either way but only shows the old bug without them.
 */
static void run_wrap(struct __test_metadata *_metadata, FIXTURE_DATA(apmu32) *self,
		     pid_t pid, int cpu, struct wrap_result *res)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x11,			/* CPU_CYCLES: PMCCNTR_EL0 */
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.disabled = 1,
		.read_format = PERF_FORMAT_GROUP,
	};
	struct perf_event_attr sw = {
		.size = sizeof(sw),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CONTEXT_SWITCHES,
	};
	size_t psz = getpagesize(), size = WRAP_RING_PAGES * psz;
	uint64_t nr = self->sampling ? 5 : 4;
	struct { uint64_t nr, v[5]; } r;
	const struct perf_event_header *h;
	int lead, fi, fl, fs = -1, fsw;
	struct apmu_ring rr;
	void *ring = NULL;

	memset(res, 0, sizeof(*res));
	if (!self->alone_on) {
		self->alone_on = 1;
		ASSERT_EQ(0, apmu_alone_begin(&self->alone, 1))
			TH_LOG("cpu1 alone: %s", strerror(errno));
	}
	lead = apmu_perf_open(&attr, pid, cpu, -1, 0);
	ASSERT_GE(lead, 0) TH_LOG("cycles: %s", strerror(errno));
	attr.disabled = 0;
	attr.config = 0x08;			/* INST_RETIRED: an event counter */
	fi = apmu_perf_open(&attr, pid, cpu, lead, 0);
	ASSERT_GE(fi, 0) TH_LOG("inst_retired: %s", strerror(errno));
	attr.config1 = 1;			/* long */
	fl = apmu_perf_open(&attr, pid, cpu, lead, 0);
	ASSERT_GE(fl, 0) TH_LOG("inst_retired,long: %s", strerror(errno));
	attr.config1 = 0;
	attr.sample_period = WRAP_PERIOD;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
	if (self->sampling) {
		fs = apmu_perf_open(&attr, pid, cpu, lead, 0);
		ASSERT_GE(fs, 0) TH_LOG("sampling inst_retired: %s", strerror(errno));
		ring = mmap(NULL, size + psz, PROT_READ | PROT_WRITE, MAP_SHARED, fs, 0);
		ASSERT_TRUE(ring != MAP_FAILED);
	} else {
		ASSERT_EQ(-1, apmu_perf_open(&attr, pid, cpu, lead, 0));
		ASSERT_EQ(EOPNOTSUPP, errno) TH_LOG("sampling refused with %s", strerror(errno));
	}
	/* a software member: counts switches over exactly the same window */
	fsw = apmu_perf_open(&sw, pid, cpu, lead, 0);
	ASSERT_GE(fsw, 0) TH_LOG("context switches: %s", strerror(errno));

	ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	spin(WRAP_ITERS);
	ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	ASSERT_EQ((ssize_t)((nr + 1) * sizeof(uint64_t)), read(lead, &r, sizeof(r)));
	ASSERT_EQ(nr, r.nr);
	res->switches = r.v[nr - 1];
	res->cycles = r.v[0];
	res->inst = r.v[1];
	res->inst_long = r.v[2];
	if (!self->sampling)
		goto out;
	res->inst_sampled = r.v[3];

	apmu_ring_begin(&rr, ring, size);
	while ((h = apmu_ring_next(&rr))) {
		if (h->type == PERF_RECORD_SAMPLE) {
			const uint64_t *v = (const uint64_t *)(h + 1);	/* ip, period */

			res->samples++;
			res->bad_period += v[1] != WRAP_PERIOD;
		}
	}
	munmap(ring, size + psz);
	close(fs);
out:
	close(fsw);
	close(fl);
	close(fi);
	close(lead);
}

static void check_wrap(struct __test_metadata *_metadata, const struct wrap_result *res,
		       int sampling)
{
	TH_LOG("cycles:u %llu, inst_retired:u %llu, long %llu, sampling %llu",
	       (unsigned long long)res->cycles, (unsigned long long)res->inst,
	       (unsigned long long)res->inst_long, (unsigned long long)res->inst_sampled);
	TH_LOG("%u samples, %llu context switches", res->samples,
	       (unsigned long long)res->switches);
	/* the loop, plus a few ticks' worth (under 1%) */
	ASSERT_GE(res->cycles, WRAP_INSNS);
	ASSERT_LT(res->cycles, WRAP_INSNS + WRAP_INSNS / 100);
	/* exact: a lost wrap would be 2^32 short */
	EXPECT_EQ(res->cycles, res->inst);
	EXPECT_EQ(res->cycles, res->inst_long);
	if (!sampling)
		return;
	EXPECT_EQ(res->cycles, res->inst_sampled);
	EXPECT_EQ(res->inst_sampled / WRAP_PERIOD, (uint64_t)res->samples);
	EXPECT_EQ(0U, res->bad_period);
}

/*
 * Task events of this task, pinned alone to cpu1. Only a run without a context switch
 * shows a lost wrap, so a run with one is followed by another, up to two. (Seen: none
 * when this test runs first in its process, 4 in every run after the CPU-wide one.)
 */
TEST_F_TIMEOUT(apmu32, task_exact_across_wraps, 180)
{
	struct wrap_result res;
	int run;

	for (run = 0; run < 2; run++) {
		run_wrap(_metadata, self, 0, -1, &res);
		check_wrap(_metadata, &res, self->sampling);
		if (!res.switches)
			break;
	}
}

/* The same as CPU-wide events on cpu1, where this task runs alone */
TEST_F_TIMEOUT(apmu32, cpu_wide_exact_across_wraps, 180)
{
	struct wrap_result res;

	run_wrap(_metadata, self, -1, 1, &res);
	check_wrap(_metadata, &res, self->sampling);
}

/*
 * The counting-only fallback (apmu_knobs.ko loaded with sampling=0, as when
 * perf_event_overflow() cannot be resolved, or with overflow_irq=0, as on a PMU without
 * an overflow interrupt): sampling is refused, counting still works.
 */
FIXTURE(nosample) {
	struct apmu_pmu_info pmu;
};

FIXTURE_SETUP(nosample)
{
	if (apmu_find_pmu(&self->pmu))
		SKIP(return, "no apmu PMU in /sys/bus/event_source/devices (no PMUv3 bound)");
	if (apmu_sampling_offered())
		SKIP(return, "sampling is available: load the test-only apmu_knobs.ko with sampling=0 or overflow_irq=0");
}

FIXTURE_TEARDOWN(nosample)
{
}

TEST_F(nosample, sampling_refused_counting_exact)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x11,
		.sample_period = 100000,
	};
	uint64_t a, b;
	int fd;

	ASSERT_EQ(-1, apmu_perf_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(EOPNOTSUPP, errno);
	attr.sample_period = 0;
	attr.freq = 1;
	attr.sample_freq = 1000;
	ASSERT_EQ(-1, apmu_perf_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(EOPNOTSUPP, errno);

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = self->pmu.type;
	attr.config = 0x08;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	fd = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	count_spin(fd, 1000);
	a = count_spin(fd, 1000);
	b = count_spin(fd, 101000);
	close(fd);
	ASSERT_EQ(200000ULL, b - a);
}

/*
 * No overflow interrupt (apmu_knobs.ko loaded with overflow_irq=0, as on a PMU whose node
 * has none): none is requested, so /proc/interrupts has no apmu line, and none was taken
 * (the apmu32 wrap tests, which run before this one, crossed 2^32 several times).
 */
FIXTURE(noirq) {
	struct apmu_pmu_info pmu;
};

FIXTURE_SETUP(noirq)
{
	if (apmu_find_pmu(&self->pmu))
		SKIP(return, "no apmu PMU in /sys/bus/event_source/devices (no PMUv3 bound)");
	if (!apmu_knob_off("overflow_irq"))
		SKIP(return, "apmu uses the overflow interrupt: load the test-only apmu_knobs.ko with overflow_irq=0");
}

FIXTURE_TEARDOWN(noirq)
{
}

TEST_F(noirq, no_interrupt_requested_or_taken)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x08,
		.sample_period = 1000000,
	};
	char line[512];
	FILE *f;

	f = fopen("/proc/interrupts", "r");
	ASSERT_TRUE(f != NULL);
	/* (pointer comparisons as booleans: the harness casts to integers, 32-bit -Werror) */
	while (fgets(line, sizeof(line), f))
		EXPECT_FALSE(strstr(line, "apmu") != NULL) TH_LOG("%s", line);
	fclose(f);
	EXPECT_EQ(0ULL, apmu_irqs());
	/* an event counter too, not only the cycle counter (nosample) */
	ASSERT_EQ(-1, apmu_perf_open(&attr, 0, -1, -1, 0));
	ASSERT_EQ(EOPNOTSUPP, errno);
}

TEST_HARNESS_MAIN
