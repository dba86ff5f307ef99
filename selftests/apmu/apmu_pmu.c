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
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
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
static uint64_t count_spin_once(int fd, unsigned long n)
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

/*
 * QEMU (7.2, -icount) attributes the instructions of an interrupt handler that
 * interrupted EL0 to EL0 (measured: a timer tick adds ~15-20k "user" instructions), so a
 * window hit by a tick over-counts. A tick only ever adds: the smallest of a few runs is
 * the exact, deterministic count. Windows here are well under the 4 ms tick period.
 */
static uint64_t count_spin(int fd, unsigned long n)
{
	uint64_t best = UINT64_MAX, v;
	int i;

	for (i = 0; i < 5; i++) {
		v = count_spin_once(fd, n);
		if (v < best)
			best = v;
	}
	return best;
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

static unsigned int pmu_counters(struct __test_metadata *_metadata,
				 const struct apmu_pmu_info *pmu)
{
	char buf[16];

	if (apmu_read_pmu_file(pmu, "caps/counters", buf, sizeof(buf)))
		return 0;
	return strtoul(buf, NULL, 0);
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
	unsigned int n = pmu_counters(_metadata, &self->pmu), i;
	char buf[8] = "0";
	int fds[33], lead;

	apmu_read_pmu_file(&self->pmu, "caps/instruction_counter", buf, sizeof(buf));
	ASSERT_GT(n, 0U);
	/* with PMICNTR, one more INST_RETIRED fits */
	n += atoi(buf);
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
	unsigned int n = pmu_counters(_metadata, &self->pmu), i;
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
	unsigned int n = pmu_counters(_metadata, &self->pmu), i;
	char buf[8] = "0";
	int fds[34];
	uint64_t c;

	apmu_read_pmu_file(&self->pmu, "caps/instruction_counter", buf, sizeof(buf));
	n += atoi(buf);
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
	unsigned int n = pmu_counters(_metadata, &self->pmu) + 3, i;
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

static int read_param(const char *name, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/apmu/parameters/%s", name);
	return apmu_read_file(path, buf, len);
}

FIXTURE_SETUP(apmu32)
{
	char buf[32];

	if (apmu_find_pmu(&self->pmu))
		SKIP(return, "no apmu PMU in /sys/bus/event_source/devices (no PMUv3 bound)");
	ASSERT_EQ(0, apmu_read_pmu_file(&self->pmu, "caps/long_counters", buf, sizeof(buf)));
	if (buf[0] != '0')
		SKIP(return, "event counters are 64-bit (PMCR_EL0.LP): load apmu with long_counters=0 to test the 32-bit path");
	ASSERT_EQ(0, read_param("test_counter_start", buf, sizeof(buf)));
	self->start = strtoul(buf, NULL, 0);
	ASSERT_GT(self->start, 0xf0000000UL)
		TH_LOG("load apmu with test_counter_start close to 2^32 for this test");
}

FIXTURE_TEARDOWN(apmu32)
{
}

/* The sum of the "apmu" lines of /proc/interrupts over all CPUs. */
static unsigned long long apmu_irqs(void)
{
	unsigned long long total = 0, v;
	char line[512], *p, *end;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "apmu"))
			continue;
		p = strchr(line, ':');
		if (!p)
			continue;
		for (p++;; p = end) {
			v = strtoull(p, &end, 10);
			if (end == p)
				break;
			total += v;
		}
	}
	fclose(f);
	return total;
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
 * User-space counter reads (config1:1, rdpmc): the kernel.perf_user_access sysctl, the
 * mmap page protocol, EL0 access only while the task has such events, and no counter
 * value of another context visible to EL0.
 */
#define MRS_EVCNTR(n)	case n: asm volatile("mrs %0, pmevcntr" #n "_el0" : "=r" (v)); break

static uint64_t mrs_counter(unsigned int idx)
{
	uint64_t v = 0;

	switch (idx) {
	case 31: asm volatile("mrs %0, pmccntr_el0" : "=r" (v)); break;
	MRS_EVCNTR(0); MRS_EVCNTR(1); MRS_EVCNTR(2); MRS_EVCNTR(3); MRS_EVCNTR(4);
	MRS_EVCNTR(5); MRS_EVCNTR(6); MRS_EVCNTR(7); MRS_EVCNTR(8); MRS_EVCNTR(9);
	MRS_EVCNTR(10); MRS_EVCNTR(11); MRS_EVCNTR(12); MRS_EVCNTR(13); MRS_EVCNTR(14);
	MRS_EVCNTR(15); MRS_EVCNTR(16); MRS_EVCNTR(17); MRS_EVCNTR(18); MRS_EVCNTR(19);
	MRS_EVCNTR(20); MRS_EVCNTR(21); MRS_EVCNTR(22); MRS_EVCNTR(23); MRS_EVCNTR(24);
	MRS_EVCNTR(25); MRS_EVCNTR(26); MRS_EVCNTR(27); MRS_EVCNTR(28); MRS_EVCNTR(29);
	MRS_EVCNTR(30);
	}
	return v;
}

/* The self-monitoring read of tools/lib/perf: offset + counter, under the page's seqlock. */
static int rdpmc_read(volatile struct perf_event_mmap_page *pc, uint64_t *count)
{
	uint32_t seq, idx;
	uint64_t pmc, offset;
	unsigned int width;

	do {
		seq = pc->lock;
		__sync_synchronize();
		idx = pc->index;
		offset = pc->offset;
		width = pc->pmc_width;
		if (!pc->cap_user_rdpmc || !idx)
			return -1;
		pmc = mrs_counter(idx - 1);
		if (width < 64)
			pmc = (int64_t)(pmc << (64 - width)) >> (64 - width);
		*count = offset + pmc;
		__sync_synchronize();
	} while (pc->lock != seq);
	return 0;
}

static int write_sysctl_user_access(int v)
{
	FILE *f = fopen("/proc/sys/kernel/perf_user_access", "w");
	int ret;

	if (!f)
		return -1;
	ret = fprintf(f, "%d\n", v) < 0;
	ret |= fclose(f) != 0;
	return ret ? -1 : 0;
}

FIXTURE(rdpmc) {
	struct apmu_pmu_info pmu;
	int fd;
	volatile struct perf_event_mmap_page *pc;
};

FIXTURE_SETUP(rdpmc)
{
	self->fd = -1;
	self->pc = NULL;
	if (apmu_find_pmu(&self->pmu))
		SKIP(return, "no apmu PMU in /sys/bus/event_source/devices (no PMUv3 bound)");
	ASSERT_EQ(0, write_sysctl_user_access(1))
		TH_LOG("kernel.perf_user_access missing: apmu must register it");
}

FIXTURE_TEARDOWN(rdpmc)
{
	if (self->pc)
		munmap((void *)self->pc, getpagesize());
	if (self->fd >= 0)
		close(self->fd);
	write_sysctl_user_access(0);
}

static void open_rdpmc(struct __test_metadata *_metadata, FIXTURE_DATA(rdpmc) *self,
		       uint64_t config)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = config,
		.config1 = 2,		/* rdpmc */
		.exclude_kernel = 1,
	};
	void *p;

	self->fd = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(self->fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	p = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	self->pc = p;
}

TEST_F(rdpmc, self_read_matches_read)
{
	uint64_t r1, r2, r3, a, b;

	open_rdpmc(_metadata, self, 0x08);	/* INST_RETIRED, user only */
	ASSERT_EQ(1, (int)self->pc->cap_user_rdpmc);
	ASSERT_NE(0, self->pc->index);
	ASSERT_LE(self->pc->index, 31) TH_LOG("INST_RETIRED must be on an event counter");
	ASSERT_EQ(0, rdpmc_read(self->pc, &r1));
	ASSERT_EQ((ssize_t)sizeof(r2), read(self->fd, &r2, sizeof(r2)));
	ASSERT_EQ(0, rdpmc_read(self->pc, &r3));
	TH_LOG("rdpmc %llu, read() %llu, rdpmc %llu (counter %u, width %u)",
	       (unsigned long long)r1, (unsigned long long)r2, (unsigned long long)r3,
	       self->pc->index - 1, self->pc->pmc_width);
	ASSERT_LE(r1, r2);
	ASSERT_LE(r2, r3);
	ASSERT_LT(r3 - r1, 5000ULL);

	/* the loop's 200000 user instructions, seen from user space alone */
	ASSERT_EQ(0, rdpmc_read(self->pc, &a));
	spin(100000);
	ASSERT_EQ(0, rdpmc_read(self->pc, &b));
	ASSERT_GE(b - a, 200000ULL);
	ASSERT_LT(b - a, 200000ULL + 1000);
}

TEST_F(rdpmc, cycles_on_pmccntr)
{
	uint64_t a, b;

	open_rdpmc(_metadata, self, 0x11);
	ASSERT_EQ(1, (int)self->pc->cap_user_rdpmc);
	ASSERT_EQ(32, self->pc->index);		/* PMCCNTR_EL0 is counter 31 */
	ASSERT_EQ(64, self->pc->pmc_width);
	ASSERT_EQ(0, rdpmc_read(self->pc, &a));
	spin(10000);
	ASSERT_EQ(0, rdpmc_read(self->pc, &b));
	ASSERT_GT(b, a);
}

/* With the sysctl at 0, or without such an event, EL0 reads trap (SIGILL). */
static int mrs_traps(void)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		mrs_counter(31);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGILL;
}

TEST_F(rdpmc, el0_access_only_when_allowed)
{
	/* no rdpmc event in this (new) task: EL0 access is off */
	ASSERT_EQ(1, mrs_traps());
	open_rdpmc(_metadata, self, 0x11);
	ASSERT_NE(0, self->pc->index);
	ASSERT_EQ(0, write_sysctl_user_access(0));
	/* the sysctl revokes access at once and hides the index */
	ASSERT_EQ(1, mrs_traps());
	sched_yield();
	ASSERT_EQ(0, self->pc->index);
}

/*
 * A busy child on the same CPU counts on several counters; whenever this task runs with
 * EL0 access, every counter it does not own must read 0, never the child's counts.
 */
TEST_F(rdpmc, no_stale_values_from_other_tasks)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x08,
		.exclude_kernel = 1,
	};
	unsigned int n = pmu_counters(_metadata, &self->pmu), i, round, mine;
	cpu_set_t set;
	pid_t child;
	int sync[2];
	char c;

	ASSERT_GT(n, 1U);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	ASSERT_EQ(0, pipe(sync));
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		for (i = 0; i < n; i++)
			apmu_perf_open(&attr, 0, -1, -1, 0);
		if (write(sync[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			spin(1000000);
	}
	ASSERT_EQ(1, read(sync[0], &c, 1));
	open_rdpmc(_metadata, self, 0x11);
	mine = self->pc->index - 1;
	for (round = 0; round < 50; round++) {
		usleep(1000);		/* let the child run and count on this CPU */
		for (i = 0; i < n; i++) {
			if (i == mine)
				continue;
			EXPECT_EQ(0ULL, mrs_counter(i)) TH_LOG("round %u: counter %u", round, i);
		}
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

/*
 * Sampling: samples through the overflow interrupt and perf_event_overflow(). Exact
 * checks use the cycle counter, whose overflow interrupt QEMU raises on time; QEMU raises
 * event-counter overflows late, so those are checked for totals and for samples at all.
 */
#define RING_PAGES	64

struct sample {			/* PERF_SAMPLE_IP | TID | TIME | CPU | PERIOD */
	struct perf_event_header hdr;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu, res;
	uint64_t period;
};

struct ring_stats {
	unsigned int samples, in_spin, throttle, unthrottle, lost, bad_period, bad_tid;
};

/* Walk the ring buffer of @base, as perf's reader does. */
static void ring_scan(void *base, uint64_t period, struct ring_stats *st)
{
	struct perf_event_mmap_page *pc = base;
	size_t psz = getpagesize(), size = RING_PAGES * psz;
	char *data = (char *)base + psz;
	uint64_t head = pc->data_head, tail = pc->data_tail;
	uintptr_t lo = (uintptr_t)spin, hi = lo + 64;

	__sync_synchronize();
	memset(st, 0, sizeof(*st));
	while (tail < head) {
		struct perf_event_header *h = (void *)(data + tail % size);
		char buf[256];

		if (h->size > sizeof(buf) || !h->size)
			break;
		/* a record may wrap around the end of the buffer */
		if (tail % size + h->size > size) {
			size_t first = size - tail % size;

			memcpy(buf, h, first);
			memcpy(buf + first, data, h->size - first);
			h = (void *)buf;
		}
		switch (h->type) {
		case PERF_RECORD_SAMPLE: {
			struct sample *sm = (void *)h;

			st->samples++;
			st->in_spin += sm->ip >= lo && sm->ip < hi;
			st->bad_period += period && sm->period != period;
			st->bad_tid += sm->pid != (uint32_t)getpid();
			break;
		}
		case PERF_RECORD_THROTTLE:
			st->throttle++;
			break;
		case PERF_RECORD_UNTHROTTLE:
			st->unthrottle++;
			break;
		case PERF_RECORD_LOST:
			st->lost++;
			break;
		}
		tail += h->size;
	}
}

FIXTURE(sampling) {
	struct apmu_pmu_info pmu;
	int fd;
	void *ring;
};

FIXTURE_SETUP(sampling)
{
	self->fd = -1;
	self->ring = NULL;
	if (apmu_find_pmu(&self->pmu))
		SKIP(return, "no apmu PMU in /sys/bus/event_source/devices (no PMUv3 bound)");
}

FIXTURE_TEARDOWN(sampling)
{
	if (self->ring)
		munmap(self->ring, (RING_PAGES + 1) * getpagesize());
	if (self->fd >= 0)
		close(self->fd);
}

static void open_sampling(struct __test_metadata *_metadata, FIXTURE_DATA(sampling) *self,
			  struct perf_event_attr *attr)
{
	void *p;

	attr->size = sizeof(*attr);
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	attr->disabled = 1;
	self->fd = apmu_perf_open(attr, 0, -1, -1, 0);
	ASSERT_GE(self->fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	p = mmap(NULL, (RING_PAGES + 1) * getpagesize(), PROT_READ | PROT_WRITE, MAP_SHARED,
		 self->fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	self->ring = p;
}

/* Fixed period on PMCCNTR: samples == count / period, every one in the loop. */
TEST_F(sampling, fixed_period_on_cycle_counter)
{
	struct perf_event_attr attr = {
		.type = self->pmu.type,
		.config = 0x11,
		.sample_period = 100000,
		.exclude_kernel = 1,
	};
	struct ring_stats st;
	uint64_t count;
	double expect;

	open_sampling(_metadata, self, &attr);
	ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(10000000);			/* 20M user instructions = cycles under -icount */
	ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0);
	ASSERT_EQ((ssize_t)sizeof(count), read(self->fd, &count, sizeof(count)));
	ring_scan(self->ring, attr.sample_period, &st);
	expect = (double)count / attr.sample_period;
	TH_LOG("%llu cycles, %u samples (%.1f expected), %u in the loop, %u throttled",
	       (unsigned long long)count, st.samples, expect, st.in_spin, st.throttle);
	ASSERT_GE(count, 20000000ULL);
	ASSERT_EQ(0U, st.lost);
	ASSERT_EQ(0U, st.throttle);
	ASSERT_EQ(0U, st.bad_period);
	ASSERT_EQ(0U, st.bad_tid);
	/* within 1% (and the last partial period) */
	ASSERT_LE(st.samples, expect * 1.01 + 1);
	ASSERT_GE(st.samples, expect * 0.99 - 1);
	ASSERT_GE(st.in_spin * 100, st.samples * 90) TH_LOG("samples outside the hot loop");
}

/* Event counters: QEMU's overflow interrupt is late, so: totals right, some samples. */
TEST_F(sampling, event_counter_samples)
{
	struct perf_event_attr attr = {
		.type = self->pmu.type,
		.config = 0x08,		/* INST_RETIRED, on an event counter */
		.sample_period = 200000,
		.exclude_kernel = 1,
	};
	struct ring_stats st;
	uint64_t count;

	open_sampling(_metadata, self, &attr);
	ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(5000000);
	ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0);
	ASSERT_EQ((ssize_t)sizeof(count), read(self->fd, &count, sizeof(count)));
	ring_scan(self->ring, attr.sample_period, &st);
	TH_LOG("%llu instructions, %u samples", (unsigned long long)count, st.samples);
	ASSERT_GE(count, 10000000ULL);
	ASSERT_LT(count, 10000000ULL + 2000000);
	ASSERT_GE(st.samples, 1U);
	ASSERT_LE(st.samples, count / attr.sample_period + 1);
	ASSERT_EQ(0U, st.bad_period);
}

/* Frequency mode: perf adjusts the period; samples keep coming at a sane rate. */
TEST_F(sampling, frequency_mode)
{
	struct perf_event_attr attr = {
		.type = self->pmu.type,
		.config = 0x11,
		.freq = 1,
		.sample_freq = 4000,
		.exclude_kernel = 1,
	};
	struct ring_stats st;

	open_sampling(_metadata, self, &attr);
	ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(50000000);			/* 100M cycles: 100 ms of guest time */
	ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0);
	ring_scan(self->ring, 0, &st);
	TH_LOG("%u samples at 4000 Hz over ~100 ms", st.samples);
	ASSERT_GE(st.samples, 100U);
	ASSERT_LE(st.samples, 1000U);
	ASSERT_GE(st.in_spin * 100, st.samples * 90);
}

/* PERF_EVENT_IOC_REFRESH: exactly N overflows, then the event disables itself. */
TEST_F(sampling, refresh_limits_overflows)
{
	struct perf_event_attr attr = {
		.type = self->pmu.type,
		.config = 0x11,
		.sample_period = 100000,
		.exclude_kernel = 1,
	};
	struct ring_stats st;

	open_sampling(_metadata, self, &attr);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_REFRESH, 3));
	spin(5000000);			/* room for 100 periods */
	ring_scan(self->ring, attr.sample_period, &st);
	TH_LOG("%u samples with a refresh of 3", st.samples);
	ASSERT_EQ(3U, st.samples);
}

/*
 * Leader sampling: the cycle counter samples, each sample carries the whole group's
 * counts (PERF_SAMPLE_READ with PERF_FORMAT_GROUP), read through apmu's read().
 */
TEST_F(sampling, group_read_in_samples)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x11,
		.sample_period = 1000000,
		.sample_type = PERF_SAMPLE_READ,
		.read_format = PERF_FORMAT_GROUP,
		.exclude_kernel = 1,
		.disabled = 1,
	};
	struct perf_event_mmap_page *pc;
	size_t psz = getpagesize();
	uint64_t tail, head, prev_ins = 0;
	unsigned int n = 0, grew = 0;
	int sib;
	char *data;

	self->fd = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(self->fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	attr.config = 0x08;
	attr.sample_period = 0;
	attr.sample_type = 0;
	attr.disabled = 0;
	sib = apmu_perf_open(&attr, 0, -1, self->fd, 0);
	ASSERT_GE(sib, 0) TH_LOG("sibling: %s", strerror(errno));
	self->ring = mmap(NULL, (RING_PAGES + 1) * psz, PROT_READ | PROT_WRITE, MAP_SHARED,
			  self->fd, 0);
	ASSERT_NE(MAP_FAILED, self->ring);
	ioctl(self->fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	spin(5000000);
	ioctl(self->fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);

	pc = self->ring;
	data = (char *)self->ring + psz;
	head = pc->data_head;
	__sync_synchronize();
	for (tail = pc->data_tail; tail < head;) {
		struct perf_event_header *h = (void *)(data + tail % (RING_PAGES * psz));

		if (h->type == PERF_RECORD_SAMPLE) {
			uint64_t *v = (uint64_t *)(h + 1);	/* nr, leader, sibling */

			ASSERT_EQ(2ULL, v[0]);
			grew += v[2] > prev_ins;
			prev_ins = v[2];
			n++;
		}
		tail += h->size;
	}
	close(sib);
	TH_LOG("%u samples, last sibling count %llu", n, (unsigned long long)prev_ins);
	ASSERT_GE(n, 5U);
	/* the sibling's count grows from sample to sample */
	ASSERT_EQ(n, grew);
	ASSERT_GE(prev_ins, 5000000ULL);
}

/* After the last sampling event closes, no apmu interrupt fires any more. */
TEST_F(sampling, no_interrupt_after_close)
{
	struct perf_event_attr attr = {
		.type = self->pmu.type,
		.config = 0x11,
		.sample_period = 10000,
	};
	unsigned long long a, b;

	open_sampling(_metadata, self, &attr);
	ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(1000000);
	munmap(self->ring, (RING_PAGES + 1) * getpagesize());
	self->ring = NULL;
	close(self->fd);
	self->fd = -1;
	a = apmu_irqs();
	spin(2000000);
	usleep(100000);
	b = apmu_irqs();
	TH_LOG("apmu interrupts: %llu, then %llu", a, b);
	ASSERT_GT(a, 0ULL);
	ASSERT_EQ(a, b);
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
	ASSERT_EQ(0, read_param("sampling", buf, sizeof(buf)));
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
