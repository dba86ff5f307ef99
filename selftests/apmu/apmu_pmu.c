// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for apmu's core PMU, counting: sysfs, exact user-space instruction counts
 * (QEMU -icount makes them deterministic), filters, groups, multiplexing, every listed
 * event, CPU hotplug, the errnos of bad attributes, the 32-bit counter path (apmu32) and
 * the counting-only fallback (nosample).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "apmu_util.h"

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
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
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
 * the time, and its count scaled by time_enabled/time_running must be within 2% of the
 * real number of instructions.
 */
TEST_F(apmu, multiplexing_scaled_within_2pct)
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
		EXPECT_LT(scaled, 2.0 * iters * 1.02);
		EXPECT_GT(scaled, 2.0 * iters * 0.98);
		close(fds[i]);
	}
}

/*
 * Every entry in events/ opens and counts over a workload. QEMU advertises some events
 * in PMCEID that it never counts: they may read 0 and are listed here.
 */
static const char * const qemu_never_counts[] = {
	"sw_incr",		/* counts PMSWINC_EL0 writes; EL0 may not write it */
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
	ASSERT_NE(NULL, dir);
	while ((d = readdir(dir))) {
		struct perf_event_attr attr = { .size = sizeof(attr), .type = self->pmu.type };
		unsigned int ev;
		uint64_t c = 0;
		int fd, zero_ok = 0;

		if (d->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "events/%s", d->d_name);
		ASSERT_EQ(0, apmu_read_pmu_file(&self->pmu, file, buf, sizeof(buf)));
		ASSERT_EQ(1, sscanf(buf, "event=0x%x", &ev)) TH_LOG("%s: '%s'", d->d_name, buf);
		attr.config = ev;
		fd = apmu_perf_open(&attr, 0, -1, -1, 0);
		ASSERT_GE(fd, 0) TH_LOG("%s: %s", d->d_name, strerror(errno));
		spin(10000);
		syscall(__NR_getppid);
		ASSERT_EQ((ssize_t)sizeof(c), read(fd, &c, sizeof(c)));
		close(fd);
		for (i = 0; i < sizeof(qemu_never_counts) / sizeof(qemu_never_counts[0]); i++)
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

static int set_online(int cpu, int on)
{
	char path[64];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ret = fprintf(f, "%d", on) < 0;
	ret |= fclose(f) != 0;
	return ret ? -1 : 0;
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
	ASSERT_EQ(0, set_online(1, 0));
	ASSERT_EQ((ssize_t)sizeof(c1), read(fcpu, &c1, sizeof(c1)));
	spin(100000);
	ASSERT_EQ((ssize_t)sizeof(t0), read(ftask, &t0, sizeof(t0)));
	ASSERT_EQ(0, set_online(1, 1));
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
#define HW_CACHE(t, op, res)	((t) | (op) << 8 | (res) << 16)

struct bad_attr {
	const char *what;
	struct perf_event_attr attr;
	int err;
	const char *unless_event;	/* the errno holds only if events/<this> is absent */
	int unless_threshold;		/* ... only without FEAT_PMUv3_TH */
	int cpu_wide;			/* open on CPU 0 for all tasks, not for this task */
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
	{ "CHAIN alone", { .type = OWN, .config = 0x1e }, EINVAL },
	{ "CHAIN as a raw event", { .type = PERF_TYPE_RAW, .config = 0x1e }, EINVAL },
	{ "hardware: bus-cycles not in PMCEID",
	  { .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_BUS_CYCLES }, ENOENT,
	  "bus_cycles" },
	{ "hardware: branches has no PMUv3 mapping",
	  { .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS }, ENOENT },
	{ "hardware: ref-cycles has no PMUv3 mapping",
	  { .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_REF_CPU_CYCLES }, ENOENT },
	{ "hardware: config PERF_COUNT_HW_MAX",
	  { .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_MAX }, ENOENT },
	{ "hardware: config 0xffff", { .type = PERF_TYPE_HARDWARE, .config = 0xffff }, ENOENT },
	{ "cache: L1D read access not in PMCEID",
	  { .type = PERF_TYPE_HW_CACHE, .config = HW_CACHE(0, 0, 0) }, ENOENT, "l1d_cache" },
	{ "cache: L1D prefetch has no mapping",
	  { .type = PERF_TYPE_HW_CACHE, .config = HW_CACHE(0, 2, 0) }, ENOENT },
	{ "cache: op beyond PERF_COUNT_HW_CACHE_OP_MAX",
	  { .type = PERF_TYPE_HW_CACHE, .config = HW_CACHE(0, 3, 0) }, ENOENT },
	{ "cache: type 0xff", { .type = PERF_TYPE_HW_CACHE, .config = HW_CACHE(0xff, 0, 0) },
	  ENOENT },
	{ "cache: config bit 24", { .type = PERF_TYPE_HW_CACHE, .config = 1ULL << 24 },
	  ENOENT },
	{ "sampling at a frequency above perf_event_max_sample_rate",
	  { .type = OWN, .config = 0x11, .freq = 1, .sample_freq = 1U << 30 }, EINVAL },
	{ "branch stack", { .type = OWN, .config = 0x11, .sample_period = 100000,
	  .sample_type = PERF_SAMPLE_BRANCH_STACK,
	  .branch_sample_type = PERF_SAMPLE_BRANCH_ANY }, EOPNOTSUPP },
	{ "exclude_idle", { .type = OWN, .config = 0x11, .exclude_idle = 1 }, EOPNOTSUPP },
	{ "guest only (exclude_host) with no KVM filter switching",
	  { .type = OWN, .config = 0x11, .exclude_host = 1 }, EOPNOTSUPP },
	{ "rdpmc on a CPU-wide event", { .type = OWN, .config = 0x11, .config1 = 2 }, EINVAL,
	  NULL, 0, 1 },
	{ "an unknown type", { .type = 1000, .config = 0x11 }, ENOENT },
};

static int pmu_has_event(const struct apmu_pmu_info *pmu, const char *ev)
{
	char path[64], buf[64];

	snprintf(path, sizeof(path), "events/%s", ev);
	return !apmu_read_pmu_file(pmu, path, buf, sizeof(buf));
}

TEST_F(apmu, bad_attrs_errno)
{
	char buf[32] = "";
	unsigned int i, n = 0;
	int has_th;

	apmu_read_pmu_file(&self->pmu, "caps/threshold_max", buf, sizeof(buf));
	has_th = strtoul(buf, NULL, 0) != 0;

	for (i = 0; i < sizeof(bad_attrs) / sizeof(bad_attrs[0]); i++) {
		const struct bad_attr *b = &bad_attrs[i];
		struct perf_event_attr attr = b->attr;
		int fd, err;

		if (b->unless_event && pmu_has_event(&self->pmu, b->unless_event))
			continue;
		if (b->unless_threshold && has_th)
			continue;
		attr.size = sizeof(attr);
		if (attr.type == OWN)
			attr.type = self->pmu.type;
		errno = 0;
		fd = b->cpu_wide ? apmu_perf_open(&attr, -1, 0, -1, 0) :
				   apmu_perf_open(&attr, 0, -1, -1, 0);
		err = errno;
		if (fd >= 0)
			close(fd);
		EXPECT_EQ(-1, fd) TH_LOG("%s: opened", b->what);
		EXPECT_EQ(b->err, err) TH_LOG("%s: errno %d (%s), want %d (%s)", b->what,
					       err, strerror(err), b->err, strerror(b->err));
		n++;
	}
	/* On QEMU's PMU every row applies: at least 25 distinct rejections */
	TH_LOG("%u invalid attributes checked", n);
	ASSERT_GE(n, 25U);
}

/*
 * The 32-bit event counter path: apmu loaded with long_counters=0 (PMCR_EL0.LP clear) and
 * test_counter_start near 2^32, so counts cross the 32-bit wrap within a few thousand
 * instructions and are extended through the real overflow interrupt.
 */
FIXTURE(apmu32) {
	struct apmu_pmu_info pmu;
	unsigned long start;
};

FIXTURE_SETUP(apmu32)
{
	char buf[32];

	if (apmu_find_pmu(&self->pmu))
		SKIP(return, "no apmu PMU in /sys/bus/event_source/devices (no PMUv3 bound)");
	ASSERT_EQ(0, apmu_read_pmu_file(&self->pmu, "caps/long_counters", buf, sizeof(buf)));
	if (buf[0] != '0')
		SKIP(return, "event counters are 64-bit (PMCR_EL0.LP): load apmu with long_counters=0 to test the 32-bit path");
	ASSERT_EQ(0, apmu_read_param("test_counter_start", buf, sizeof(buf)));
	self->start = strtoul(buf, NULL, 0);
	ASSERT_GT(self->start, 0xf0000000UL)
		TH_LOG("load apmu with test_counter_start close to 2^32 for this test");
}

FIXTURE_TEARDOWN(apmu32)
{
}

static void check_wrap(struct __test_metadata *_metadata, FIXTURE_DATA(apmu32) *self,
		       __u64 config1)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x08,
		.config1 = config1,
		.disabled = 1,
		.exclude_kernel = 1,
	};
	unsigned long long irq0, irq1;
	uint64_t a, b;
	int fd;

	fd = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	count_spin(fd, 1000);
	a = count_spin(fd, 1000);
	irq0 = apmu_irqs();
	/* 2 * 100000 more instructions from the start value: past the wrap at 2^32 */
	b = count_spin(fd, 101000);
	irq1 = apmu_irqs();
	close(fd);
	TH_LOG("start 0x%lx: %llu then %llu instructions, %llu overflow interrupts",
	       self->start, (unsigned long long)a, (unsigned long long)b, irq1 - irq0);
	ASSERT_GT(2 * 101000ULL, 0xffffffffULL - self->start);
	ASSERT_EQ(200000ULL, b - a);
	ASSERT_GE(irq1 - irq0, 1ULL);
}

TEST_F(apmu32, wrap_32bit_exact)
{
	check_wrap(_metadata, self, 0);
}

/*
 * "long" on 32-bit counters: a CHAIN pair where PMCEID has CHAIN; QEMU has none, so the
 * count is extended through the interrupt, just as exact.
 */
TEST_F(apmu32, wrap_32bit_exact_long)
{
	check_wrap(_metadata, self, 1);
}

/*
 * The counting-only fallback (apmu loaded with sampling=0, as when perf_event_overflow()
 * cannot be resolved): sampling is refused, counting still works.
 */
FIXTURE(nosample) {
	struct apmu_pmu_info pmu;
};

FIXTURE_SETUP(nosample)
{
	char buf[8];

	if (apmu_find_pmu(&self->pmu))
		SKIP(return, "no apmu PMU in /sys/bus/event_source/devices (no PMUv3 bound)");
	ASSERT_EQ(0, apmu_read_param("sampling", buf, sizeof(buf)));
	if (buf[0] == 'Y')
		SKIP(return, "sampling is available: load apmu with sampling=0 to test the fallback");
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

TEST_HARNESS_MAIN
