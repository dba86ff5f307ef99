// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for sampling on apmu's PMU: exact sample counts on the cycle counter, event
 * counters, frequency mode, IOC_REFRESH, group reads, no interrupt after close, and no
 * kernel address in the samples of an unprivileged user who excluded the kernel.
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

/*
 * Sampling: samples through the overflow interrupt and perf_event_overflow(). Exact
 * checks use the cycle counter, whose overflow interrupt QEMU raises on time; QEMU raises
 * event-counter overflows late, so those are checked for totals and for samples at all.
 */
#define RING_PAGES	64

struct ring_stats {
	unsigned int samples, in_spin, throttle, unthrottle, lost, bad_period, bad_tid;
};

/* Walk the ring buffer of @base, as perf's reader does. */
static void ring_scan(void *base, uint64_t period, struct ring_stats *st)
{
	/* a Thumb function's address has bit 0 set (armhf builds T32): not its first PC */
	uintptr_t lo = (uintptr_t)spin & ~(uintptr_t)1, hi = lo + 64;
	const struct perf_event_header *h;
	const struct apmu_sample_rec *sm;
	struct apmu_ring r;

	memset(st, 0, sizeof(*st));
	apmu_ring_begin(&r, base, RING_PAGES * getpagesize());
	while ((h = apmu_ring_next(&r))) {
		switch (h->type) {
		case PERF_RECORD_SAMPLE:
			sm = (const void *)h;
			st->samples++;
			st->in_spin += sm->ip >= lo && sm->ip < hi;
			st->bad_period += period && sm->period != period;
			st->bad_tid += sm->pid != (uint32_t)getpid();
			break;
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
	}
}

#define SAMPLE_RATE	"/proc/sys/kernel/perf_event_max_sample_rate"
#define TIME_PCT	"/proc/sys/kernel/perf_cpu_time_max_percent"
#define DEFAULT_RATE	"100000"	/* perf's DEFAULT_MAX_SAMPLE_RATE */

FIXTURE(sampling) {
	struct apmu_pmu_info pmu;
	int fd;
	void *ring;
	char rate[24];		/* perf_event_max_sample_rate to put back, if changed */
	char time_pct[16];	/* perf_cpu_time_max_percent to put back, if changed */
};

/*
 * perf lowers kernel.perf_event_max_sample_rate, for good, when an overflow handler took
 * longer than perf_cpu_time_max_percent allows on average (perf_sample_event_took(): "perf:
 * interrupt took too long"); under QEMU any earlier sampling test can leave it lowered.
 * The exact-count tests here then see throttling, and frequency_mode's 4000 Hz may be
 * refused: as root, put perf's default limit back and hold it still (a CPU-time limit of
 * 0 stops the lowering; the rate can only be written while that limit is on), and put
 * both back afterwards. Throttling itself is tested in apmu_pmu and check-in-vm.sh.
 */
static void hold_sample_rate(FIXTURE_DATA(sampling) *self)
{
	int pct;

	if (geteuid() || apmu_read_file(TIME_PCT, self->time_pct, sizeof(self->time_pct)) ||
	    apmu_read_file(SAMPLE_RATE, self->rate, sizeof(self->rate))) {
		self->rate[0] = '\0';
		self->time_pct[0] = '\0';
		return;
	}
	pct = atoi(self->time_pct);
	if (pct == 0 || pct == 100 || apmu_write_file(SAMPLE_RATE, DEFAULT_RATE))
		self->rate[0] = '\0';
	if (apmu_write_file(TIME_PCT, "0"))
		self->time_pct[0] = '\0';
}

FIXTURE_SETUP(sampling)
{
	self->fd = -1;
	self->ring = NULL;
	self->rate[0] = '\0';
	self->time_pct[0] = '\0';
	if (apmu_find_pmu(&self->pmu))
		SKIP(return, "no apmu PMU in /sys/bus/event_source/devices (no PMUv3 bound)");
	hold_sample_rate(self);
}

FIXTURE_TEARDOWN(sampling)
{
	if (self->ring)
		munmap(self->ring, (RING_PAGES + 1) * getpagesize());
	if (self->fd >= 0)
		close(self->fd);
	/* the CPU-time limit first: the rate can only be written while it is on */
	if (self->time_pct[0])
		apmu_write_file(TIME_PCT, self->time_pct);
	if (self->rate[0])
		apmu_write_file(SAMPLE_RATE, self->rate);
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
	ASSERT_TRUE(p != MAP_FAILED);
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
	const struct perf_event_header *h;
	size_t psz = getpagesize();
	unsigned int n = 0, grew = 0;
	uint64_t prev_ins = 0;
	struct apmu_ring r;
	int sib;

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
	ASSERT_TRUE(self->ring != MAP_FAILED);
	ioctl(self->fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	spin(5000000);
	ioctl(self->fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);

	apmu_ring_begin(&r, self->ring, RING_PAGES * psz);
	while ((h = apmu_ring_next(&r))) {
		if (h->type == PERF_RECORD_SAMPLE) {
			const uint64_t *v = (const uint64_t *)(h + 1);	/* nr, leader, sibling */

			ASSERT_EQ(2ULL, v[0]);
			grew += v[2] > prev_ins;
			prev_ins = v[2];
			n++;
		}
	}
	close(sib);
	TH_LOG("%u samples, last sibling count %llu", n, (unsigned long long)prev_ins);
	ASSERT_GE(n, 5U);
	/* the sibling's count grows from sample to sample */
	ASSERT_EQ(n, grew);
	ASSERT_GE(prev_ins, 5000000ULL);
}

/*
 * Throttling, on a group: perf stops a sampling event that overflowed
 * kernel.perf_event_max_sample_rate / HZ times in a tick (here 1000 / 250: 4), and
 * restarts it at the next tick. Up to 6.15 perf core asks the driver to stop that event
 * (perf_event_overflow() returns non-zero: apmu calls its own stop()); since 6.16 it
 * stops the whole group itself, through pmu->stop() called from inside apmu's overflow
 * handler, ignores what the driver does with the return, and restarts every member with
 * pmu->start(). On either kernel: the group throttles and comes back at every tick, the
 * leader counts only while it runs (about one period per sample: nothing while
 * throttled), and the counting sibling runs whenever the leader does (on 6.16 and later
 * it is stopped with it; before, it runs on).
 */
#define THR_PERIOD	10000
#define THR_RATE	"1000"
#define THR_TICK_CHARGE	40000

TEST_F(sampling, throttled_group_restarts)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x11,			/* CPU_CYCLES, on PMCCNTR: interrupts on time */
		.sample_period = THR_PERIOD,
		.read_format = PERF_FORMAT_GROUP,
		.exclude_kernel = 1,
	};
	struct { uint64_t nr, leader, sibling; } v;
	char rate[24], pct[16];
	struct ring_stats st;
	int sib, ok;

	if (geteuid())
		SKIP(return, "not root: kernel.perf_event_max_sample_rate cannot be lowered");
	/* the rate can be written only while the CPU-time limit is on; then hold it still */
	ASSERT_EQ(0, apmu_read_file(SAMPLE_RATE, rate, sizeof(rate)));
	ASSERT_EQ(0, apmu_read_file(TIME_PCT, pct, sizeof(pct)));
	ASSERT_EQ(0, apmu_write_file(TIME_PCT, "25"));
	ok = !apmu_write_file(SAMPLE_RATE, THR_RATE);
	apmu_write_file(TIME_PCT, "0");
	ASSERT_TRUE(ok);

	open_sampling(_metadata, self, &attr);
	attr.config = 0x08;			/* INST_RETIRED, counting, on an event counter */
	attr.sample_period = 0;
	attr.sample_type = 0;
	attr.disabled = 0;
	sib = apmu_perf_open(&attr, 0, -1, self->fd, 0);
	ASSERT_GE(sib, 0) TH_LOG("sibling: %s", strerror(errno));
	ioctl(self->fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	spin(50000000);			/* 100M cycles under -icount: 25 ticks */
	ioctl(self->fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	ok = read(self->fd, &v, sizeof(v)) == (ssize_t)sizeof(v);
	close(sib);

	apmu_write_file(TIME_PCT, "25");
	apmu_write_file(SAMPLE_RATE, rate);
	apmu_write_file(TIME_PCT, pct);
	ASSERT_TRUE(ok);
	ASSERT_EQ(2ULL, v.nr);
	ring_scan(self->ring, THR_PERIOD, &st);
	TH_LOG("%u samples, %u throttled, %u unthrottled; leader %llu cycles, sibling %llu instructions",
	       st.samples, st.throttle, st.unthrottle, (unsigned long long)v.leader,
	       (unsigned long long)v.sibling);
	/* throttled again and again, and back each time with samples */
	ASSERT_GE(st.throttle, 5U);
	ASSERT_GE(st.unthrottle, 4U);
	ASSERT_GE(st.samples, 2 * st.throttle);
	ASSERT_EQ(0U, st.bad_period);
	/*
	 * the leader counted its periods and nothing while throttled (spinning on, it
	 * would count about 100M). QEMU charges the timer tick a task takes at EL0 to EL0,
	 * at once (about 29000 events on QEMU 10, a lockdep kernel): a jump one overflow
	 * covers with one sample, at every tick that restarts the group.
	 */
	ASSERT_GE(v.leader, (uint64_t)st.samples * THR_PERIOD);
	ASSERT_LE(v.leader, (uint64_t)(st.samples + 2) * THR_PERIOD +
			    (uint64_t)(st.throttle + 2) * THR_TICK_CHARGE);
	/* the sibling ran at least while the leader did: not left stopped */
	ASSERT_GE(v.sibling, v.leader / 2);
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
 * An unprivileged user (uid 1000, kernel.perf_event_paranoid=2) sampling its own task
 * with exclude_kernel=1 must never be handed a kernel address: when the overflow
 * interrupt is taken after the task entered the kernel (skid: small on hardware, large
 * under QEMU), the sample must carry the task's user PC or be dropped. A getppid()
 * after every short loop gives the skid a kernel entry to land in.
 */
#define UNPRIV_LOOPS	100000		/* of spin(50) and getppid() */
#define UNPRIV_PERIOD	20011		/* about 650 samples, at a low rate */
struct unpriv_stats {
	int err;			/* 0, or the step that failed in the child */
	int err_no;
	unsigned int samples, kernel_ip;
	uint64_t first_kernel_ip, count;
};

static void unpriv_child(int fd_out, unsigned int type, __u64 config, __u64 period)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = type,
		.config = config,
		.sample_period = period,
		.sample_type = PERF_SAMPLE_IP,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.disabled = 1,
	};
	size_t psz = getpagesize(), size = RING_PAGES * psz;
	const struct perf_event_header *h;
	struct unpriv_stats st = { 0 };
	struct apmu_ring r;
	void *ring;
	int fd, i;

	if (apmu_drop_privileges()) {
		st.err = 1;
		goto out;
	}
	fd = apmu_perf_open(&attr, 0, -1, -1, 0);
	if (fd < 0) {
		st.err = 2;
		goto out;
	}
	ring = mmap(NULL, size + psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED) {
		st.err = 3;
		goto out;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < UNPRIV_LOOPS; i++) {
		spin(50);
		syscall(__NR_getppid);
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &st.count, sizeof(st.count)) != sizeof(st.count)) {
		st.err = 4;
		goto out;
	}
	apmu_ring_begin(&r, ring, size);
	while ((h = apmu_ring_next(&r))) {
		if (h->type == PERF_RECORD_SAMPLE) {
			uint64_t ip = *(const uint64_t *)(h + 1);

			st.samples++;
			if (apmu_is_kernel_addr(ip) && !st.kernel_ip++)
				st.first_kernel_ip = ip;
		}
	}
out:
	st.err_no = errno;
	if (write(fd_out, &st, sizeof(st)) != sizeof(st))
		_exit(2);
	_exit(0);
}

static void unpriv_no_kernel_ip(struct __test_metadata *_metadata, unsigned int type,
				__u64 config, __u64 period, unsigned int min_samples)
{
	int paranoid = apmu_get_paranoid(), pfd[2], status;
	struct unpriv_stats st;
	pid_t child;
	ssize_t n;

	ASSERT_NE(-100, paranoid);
	ASSERT_EQ(0, apmu_set_paranoid(2));
	ASSERT_EQ(0, pipe(pfd));
	child = fork();
	ASSERT_GE(child, 0);
	if (!child)
		unpriv_child(pfd[1], type, config, period);
	n = read(pfd[0], &st, sizeof(st));
	waitpid(child, &status, 0);
	apmu_set_paranoid(paranoid);
	ASSERT_EQ((ssize_t)sizeof(st), n);
	ASSERT_EQ(0, st.err) TH_LOG("uid %d child failed at step %d: %s", APMU_UNPRIV_UID,
				    st.err, strerror(st.err_no));
	TH_LOG("uid %d, event 0x%llx: %llu user events, %u samples", APMU_UNPRIV_UID, config,
	       (unsigned long long)st.count, st.samples);
	TH_LOG("%u samples with a kernel IP (first 0x%llx)", st.kernel_ip,
	       (unsigned long long)st.first_kernel_ip);
	/* the loops alone are UNPRIV_LOOPS * 100 user instructions */
	ASSERT_GE(st.count, UNPRIV_LOOPS * 100ULL);
	EXPECT_EQ(0U, st.kernel_ip);
	EXPECT_GE(st.samples, min_samples);
}

/*
 * On the cycle counter QEMU raises the overflow on time: in the kernel only when it came
 * in the last few instructions before the svc, so most of the ~650 samples are kept.
 */
TEST_F(sampling, unprivileged_exclude_kernel_no_kernel_ip_cycles)
{
	unpriv_no_kernel_ip(_metadata, self->pmu.type, 0x11, UNPRIV_PERIOD, 300);
}

/*
 * On an event counter QEMU raises it late, nearly always after the getppid() entered the
 * kernel: a driver that drops those samples may deliver few, so only none leaking counts.
 */
TEST_F(sampling, unprivileged_exclude_kernel_no_kernel_ip_event_counter)
{
	unpriv_no_kernel_ip(_metadata, self->pmu.type, 0x08, UNPRIV_PERIOD, 0);
}

TEST_HARNESS_MAIN
