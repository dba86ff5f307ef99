// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for apmu's user-space counter reads (rdpmc): the kernel.perf_user_access
 * sysctl, the mmap page protocol, EL0 access rules, no leaks between tasks, and on
 * 32-bit event counters (rdpmc32) reads past 2^31 and 2^32 and no CHAIN pair for rdpmc.
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
#include <setjmp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "apmu_util.h"

/*
 * User-space counter reads (config1:1, rdpmc): the kernel.perf_user_access sysctl, the
 * mmap page protocol, EL0 access only while the task has such events, and no counter
 * value of another context visible to EL0.
 */
#ifdef __aarch64__
#define MRS_EVCNTR(n)	case n: asm volatile("mrs %0, pmevcntr" #n "_el0" : "=r" (v)); break

static uint64_t mrs_counter(unsigned int idx)
{
	uint64_t v = 0;

	switch (idx) {
	case 31:
		asm volatile("mrs %0, pmccntr_el0" : "=r" (v));
		break;
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
#else
/*
 * 32-bit Arm: apmu grants no EL0 counter reads from AArch32 (the in-tree driver neither):
 * the PMUv3 backend has no user_access(), so rdpmc events are refused with EOPNOTSUPP and
 * the tests reading counters from EL0 skip (rdpmc_a32 below checks the refusal instead).
 */
#define APMU_NO_RDPMC	"32-bit Arm: no EL0 counter reads, rdpmc refused"

static uint64_t mrs_counter(unsigned int idx)
{
	(void)idx;
	abort();	/* not reached: the fixtures skip first */
}
#endif

/*
 * The self-monitoring read of tools/lib/perf: offset + counter, under the page's seqlock
 * (the protocol of struct perf_event_mmap_page in <linux/perf_event.h>). The barriers
 * keep the compiler and the CPU from moving the page's reads across the lock's.
 */
static int rdpmc_read(struct perf_event_mmap_page *pc, uint64_t *count)
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

FIXTURE(rdpmc) {
	struct apmu_pmu_info pmu;
	int fd;
	struct perf_event_mmap_page *pc;
};

FIXTURE_SETUP(rdpmc)
{
	self->fd = -1;
	self->pc = NULL;
	if (apmu_find_pmu(&self->pmu))
		SKIP(return, "no apmu PMU in /sys/bus/event_source/devices (no PMUv3 bound)");
#ifdef APMU_NO_RDPMC
	SKIP(return, APMU_NO_RDPMC);
#endif
	ASSERT_EQ(0, apmu_set_user_access(1))
		TH_LOG("kernel.perf_user_access missing: apmu must register it");
}

FIXTURE_TEARDOWN(rdpmc)
{
	if (self->pc)
		munmap(self->pc, getpagesize());
	if (self->fd >= 0)
		close(self->fd);
	apmu_set_user_access(0);
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
	ASSERT_TRUE(p != MAP_FAILED);
	self->pc = p;
}

TEST_F(rdpmc, self_read_matches_read)
{
	uint64_t r1, r2, r3, a, b, best;
	int i;

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

	/*
	 * The loop's 200000 user instructions, seen from user space alone: the smallest of
	 * a few runs, as a timer tick in the window adds to it under QEMU (apmu_util.h).
	 */
	for (i = 0, best = UINT64_MAX; i < 5; i++) {
		ASSERT_EQ(0, rdpmc_read(self->pc, &a));
		spin(100000);
		ASSERT_EQ(0, rdpmc_read(self->pc, &b));
		if (b - a < best)
			best = b - a;
	}
	ASSERT_GE(best, 200000ULL);
	ASSERT_LT(best, 200000ULL + 1000);
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

/*
 * A task without events, run on this CPU right after this task (which has EL0 access):
 * its reads must trap. Returns 0 when they do, else what mrs_traps() says.
 */
static int mrs_traps_pinned(void)
{
	cpu_set_t set, old;
	int ret;

	if (sched_getaffinity(0, sizeof(old), &old))
		return -1;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -1;
	ret = mrs_traps();	/* the child inherits the CPU and no perf event */
	sched_setaffinity(0, sizeof(old), &old);
	return ret == 1 ? 0 : 1;
}

TEST_F(rdpmc, el0_access_only_when_allowed)
{
	/* no rdpmc event in this (new) task: EL0 access is off */
	ASSERT_EQ(1, mrs_traps());
	open_rdpmc(_metadata, self, 0x11);
	ASSERT_NE(0, self->pc->index);
	ASSERT_EQ(0, mrs_traps_pinned());
	ASSERT_EQ(0, apmu_set_user_access(0));
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
	unsigned int n = apmu_pmu_counters(&self->pmu), i, round, mine;
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
 * rdpmc on 32-bit event counters (apmu loaded with long_counters=0): user space reads
 * the counter at pmc_width 32, sign-extends it and adds the page's offset. That must
 * equal read() however far the count went, here past 2^31 and past 2^32 user
 * instructions, so through several re-armings of the counter by its overflow interrupt.
 */
FIXTURE(rdpmc32) {
	struct apmu_pmu_info pmu;
	struct apmu_alone alone;
	int fd, fd2, alone_on;
	struct perf_event_mmap_page *pc;
};

FIXTURE_SETUP(rdpmc32)
{
	char buf[8];

	self->fd = -1;
	self->fd2 = -1;
	self->alone_on = 0;
	self->pc = NULL;
	if (apmu_find_pmu(&self->pmu))
		SKIP(return, "no apmu PMU in /sys/bus/event_source/devices (no PMUv3 bound)");
	ASSERT_EQ(0, apmu_read_pmu_file(&self->pmu, "caps/long_counters", buf, sizeof(buf)));
	if (buf[0] != '0')
		SKIP(return, "64-bit event counters: load apmu with long_counters=0 for this");
#ifdef APMU_NO_RDPMC
	SKIP(return, APMU_NO_RDPMC);
#endif
	ASSERT_EQ(0, apmu_set_user_access(1))
		TH_LOG("kernel.perf_user_access missing: apmu must register it");
}

FIXTURE_TEARDOWN(rdpmc32)
{
	if (self->alone_on && apmu_alone_end(&self->alone))
		TH_LOG("could not put the scheduler settings back: %s", strerror(errno));
	if (self->pc)
		munmap(self->pc, getpagesize());
	if (self->fd2 >= 0)
		close(self->fd2);
	if (self->fd >= 0)
		close(self->fd);
	apmu_set_user_access(0);
}

/*
 * rdpmc, read(), rdpmc: in order, and close (a timer tick between them adds ~20k).
 * EXPECT, not ASSERT: the harness (6.12) may skip the teardown after an ASSERT, and it
 * must put the scheduler settings back.
 */
static void check_rdpmc_vs_read(struct __test_metadata *_metadata,
				FIXTURE_DATA(rdpmc32) *self, uint64_t at_least)
{
	uint64_t r1 = 0, r2 = 0, r3 = 0;

	EXPECT_EQ(0, rdpmc_read(self->pc, &r1));
	EXPECT_EQ((ssize_t)sizeof(r2), read(self->fd, &r2, sizeof(r2)));
	EXPECT_EQ(0, rdpmc_read(self->pc, &r3));
	TH_LOG("rdpmc %llu, read() %llu, rdpmc %llu", (unsigned long long)r1,
	       (unsigned long long)r2, (unsigned long long)r3);
	TH_LOG("counter %u, width %u, offset 0x%llx, raw 0x%llx", self->pc->index - 1,
	       self->pc->pmc_width, (unsigned long long)self->pc->offset,
	       (unsigned long long)mrs_counter(self->pc->index - 1));
	EXPECT_GE(r2, at_least);
	EXPECT_EQ(32, self->pc->pmc_width);
	EXPECT_LE(r1, r2);
	EXPECT_LE(r2, r3);
	EXPECT_LT(r3 - r1, 100000ULL);
}

/*
 * A context switch restarts the counter, which hides a wrong offset: a run only shows
 * the 2^31 case if none came before that check. Linux 6.12 still preempts a lone
 * SCHED_FIFO task now and then (apmu_pmu.c, apmu32), so up to three runs are made, until
 * one reaches 2^31 without a switch; each must be right.
 */
TEST_F_TIMEOUT(rdpmc32, self_read_past_2_31_and_2_32, 180)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x08,		/* INST_RETIRED: an event counter */
		.config1 = 2,		/* rdpmc */
		.exclude_kernel = 1,
	};
	struct perf_event_attr sw = {
		.size = sizeof(sw),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CONTEXT_SWITCHES,
	};
	uint64_t sw0, sw1, sw2;
	int run, swfd;
	void *p;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs a second CPU to run alone on");
	swfd = apmu_perf_open(&sw, 0, -1, -1, 0);
	ASSERT_GE(swfd, 0) TH_LOG("context switches: %s", strerror(errno));
	self->alone_on = 1;
	ASSERT_EQ(0, apmu_alone_begin(&self->alone, 1))
		TH_LOG("cpu1 alone: %s", strerror(errno));

	for (run = 0; run < 3; run++) {
		self->fd = apmu_perf_open(&attr, 0, -1, -1, 0);
		ASSERT_GE(self->fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
		p = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, self->fd, 0);
		ASSERT_TRUE(p != MAP_FAILED);
		self->pc = p;
		ASSERT_EQ(1, (int)self->pc->cap_user_rdpmc);
		ASSERT_NE(0, self->pc->index);
		ASSERT_LE(self->pc->index, 31) TH_LOG("INST_RETIRED must be on an event counter");

		ASSERT_EQ((ssize_t)sizeof(sw0), read(swfd, &sw0, sizeof(sw0)));
		spin(1UL << 30);		/* 2^31 */
		spin(1UL << 24);		/* ... and then some */
		ASSERT_EQ((ssize_t)sizeof(sw1), read(swfd, &sw1, sizeof(sw1)));
		check_rdpmc_vs_read(_metadata, self, 1ULL << 31);
		spin(1UL << 30);		/* 2^32 */
		spin(1UL << 24);
		ASSERT_EQ((ssize_t)sizeof(sw2), read(swfd, &sw2, sizeof(sw2)));
		check_rdpmc_vs_read(_metadata, self, 1ULL << 32);
		TH_LOG("run %d: %llu context switches before the 2^31 check, %llu more before 2^32",
		       run, (unsigned long long)(sw1 - sw0), (unsigned long long)(sw2 - sw1));

		munmap(p, getpagesize());
		self->pc = NULL;
		close(self->fd);
		self->fd = -1;
		if (sw1 == sw0)
			break;
	}
	close(swfd);
}

/*
 * long + rdpmc on CPU_CYCLES while PMCCNTR_EL0 is held by another cycles event (pinned,
 * so always): on 32-bit event counters a 64-bit user read could only be a CHAIN pair,
 * and a pair cannot be read by user space in one access (it would be told pmc_width 64
 * and read 32 bits). The event must not be given any counter: it never runs, its page
 * has no index, and it still runs on PMCCNTR once that is free.
 */
TEST_F(rdpmc32, long_rdpmc_cycles_not_paired_when_pmccntr_busy)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x11,		/* CPU_CYCLES */
		.exclude_kernel = 1,
		.pinned = 1,
	};
	struct { uint64_t val, ena, run; } r;
	unsigned int idx;
	void *p;

	self->fd2 = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(self->fd2, 0) TH_LOG("pinned cycles: %s", strerror(errno));
	attr.pinned = 0;
	attr.config1 = 3;	/* long, rdpmc */
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	self->fd = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(self->fd, 0) TH_LOG("long,rdpmc cycles: %s", strerror(errno));
	p = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	self->pc = p;

	spin(1000000);
	idx = self->pc->index;
	ASSERT_EQ((ssize_t)sizeof(r), read(self->fd, &r, sizeof(r)));
	TH_LOG("PMCCNTR busy: index %u, width %u, count %llu, running %llu of %llu ns",
	       idx, self->pc->pmc_width, (unsigned long long)r.val,
	       (unsigned long long)r.run, (unsigned long long)r.ena);
	ASSERT_GT(r.ena, 0ULL);
	if (idx) {
		/*
		 * Without CHAIN (QEMU) no pair exists to be refused: the count is extended
		 * through the interrupt on one 32-bit counter, and user space is told so.
		 * With CHAIN the event waits (-EAGAIN at add), as in-tree (KUnit
		 * user_read_never_gets_a_pair).
		 */
		EXPECT_LT(idx, 32U);
		EXPECT_EQ(32, self->pc->pmc_width);
		EXPECT_GE(r.val, 2000000ULL);
	} else {
		EXPECT_EQ(0ULL, r.run);
		EXPECT_EQ(0ULL, r.val);
	}

	close(self->fd2);
	self->fd2 = -1;
	sched_yield();
	spin(1000000);
	idx = self->pc->index;
	ASSERT_EQ((ssize_t)sizeof(r), read(self->fd, &r, sizeof(r)));
	TH_LOG("PMCCNTR free: index %u, width %u, count %llu", idx, self->pc->pmc_width,
	       (unsigned long long)r.val);
	/* a new placement, at the next context switch: PMCCNTR when the event was waiting */
	if (!self->pc->index || self->pc->index == 32) {
		ASSERT_EQ(32U, self->pc->index);	/* PMCCNTR_EL0 is counter 31 */
		ASSERT_EQ(64, self->pc->pmc_width);
	}
	ASSERT_GE(r.val, 2000000ULL);
}

static sigjmp_buf mrs_env;

static void mrs_sigill(int sig)
{
	siglongjmp(mrs_env, 1);
}

/* Does an EL0 read of counter @idx trap? 1 if it does, 0 if it returned a value. */
static int mrs_traps_here(unsigned int idx)
{
	struct sigaction sa = { .sa_handler = mrs_sigill }, old;
	int trapped = 1;

	sigaction(SIGILL, &sa, &old);
	if (!sigsetjmp(mrs_env, 1)) {
		mrs_counter(idx);
		trapped = 0;
	}
	sigaction(SIGILL, &old, NULL);
	return trapped;
}

/*
 * EL0 access ends with the task's last rdpmc event: right at close(), not at the task's
 * next context switch.
 */
TEST_F(rdpmc, access_ends_at_close)
{
	open_rdpmc(_metadata, self, 0x11);
	ASSERT_EQ(32, self->pc->index);
	ASSERT_EQ(0, mrs_traps_here(31)) TH_LOG("no EL0 access with an rdpmc event open");
	munmap(self->pc, getpagesize());
	self->pc = NULL;
	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(1, mrs_traps_here(31)) TH_LOG("PMCCNTR still readable after close()");
}

/*
 * The child of rotation_keeps_access: reads its rdpmc event in a tight loop for @secs
 * while a group as large as all event counters makes perf rotate the event on and off
 * the counters every few milliseconds. Returns 0 if it survives with reads of both kinds.
 */
static int rdpmc_loop_under_rotation(int type, unsigned int n, int secs)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = type,
		.config = 0x08,
		.exclude_kernel = 1,
	};
	unsigned long direct = 0, fallback = 0;
	struct perf_event_mmap_page *pc;
	int fd, leader = -1, g;
	unsigned int i;
	uint64_t v;
	time_t end;

	for (i = 0; i < n; i++) {
		g = apmu_perf_open(&attr, 0, -1, leader, 0);
		if (g < 0)
			return 20;
		if (leader < 0)
			leader = g;
	}
	attr.config1 = 2;	/* rdpmc */
	fd = apmu_perf_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return 21;
	pc = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED)
		return 22;
	end = time(NULL) + secs;
	while (time(NULL) < end) {
		for (i = 0; i < 1000; i++) {
			if (!rdpmc_read(pc, &v))
				direct++;
			else
				fallback++;
		}
	}
	printf("# %lu user-space reads, %lu with the event off the counters\n", direct,
	       fallback);
	return direct && fallback ? 0 : 23;
}

/*
 * Multiplexing takes the task's rdpmc event off the counters and back every few
 * milliseconds while the task runs, and the task keeps migrating between the CPUs. EL0
 * access must be on wherever the task runs: a read in progress (index read, MRS not yet
 * done) that lands on a CPU without it dies with SIGILL. The MRS then returns junk and
 * the seqlock retry sees the new index, as in-tree.
 */
TEST_F(rdpmc, rotation_keeps_access)
{
	unsigned int n = apmu_pmu_counters(&self->pmu);
	int status, flips = 0;
	cpu_set_t set;
	pid_t pid;

	ASSERT_GT(n, 0U);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid)
		_exit(rdpmc_loop_under_rotation(self->pmu.type, n, 3));
	/* and migrate it between the two CPUs every millisecond or so meanwhile */
	while (waitpid(pid, &status, WNOHANG) == 0) {
		CPU_ZERO(&set);
		CPU_SET(flips++ & 1, &set);
		sched_setaffinity(pid, sizeof(set), &set);
		usleep(1000);
	}
	TH_LOG("%d migrations forced", flips);
	ASSERT_FALSE(WIFSIGNALED(status)) TH_LOG("reader killed by signal %d", WTERMSIG(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
}

#ifdef APMU_NO_RDPMC
/*
 * 32-bit Arm: an rdpmc event (config1:1) is refused with EOPNOTSUPP, even with
 * kernel.perf_user_access=1 where apmu registers it, on both kinds of counter; a plain
 * event's mmap page never offers EL0 reads (cap_user_rdpmc 0) and read() still counts.
 */
FIXTURE(rdpmc_a32) {
	struct apmu_pmu_info pmu;
};

FIXTURE_SETUP(rdpmc_a32)
{
	if (apmu_find_pmu(&self->pmu))
		SKIP(return, "no apmu PMU in /sys/bus/event_source/devices (no PMUv3 bound)");
	if (apmu_set_user_access(1))
		TH_LOG("no kernel.perf_user_access here: refused whatever it says");
}

FIXTURE_TEARDOWN(rdpmc_a32)
{
	apmu_set_user_access(0);
}

TEST_F(rdpmc_a32, rdpmc_refused_eopnotsupp)
{
	static const uint64_t configs[] = { 0x11, 0x08 };	/* CPU_CYCLES, INST_RETIRED */
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct perf_event_attr attr = {
			.size = sizeof(attr),
			.type = self->pmu.type,
			.config = configs[i],
			.config1 = 2,		/* rdpmc */
			.exclude_kernel = 1,
		};
		int fd = apmu_perf_open(&attr, 0, -1, -1, 0);

		if (fd >= 0)
			close(fd);
		EXPECT_EQ(-1, fd) TH_LOG("config 0x%llx,rdpmc=1 was accepted",
					 (unsigned long long)configs[i]);
		EXPECT_EQ(EOPNOTSUPP, errno) TH_LOG("config 0x%llx: %s",
						    (unsigned long long)configs[i],
						    strerror(errno));
	}
}

TEST_F(rdpmc_a32, no_cap_user_rdpmc_on_plain_events)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = self->pmu.type,
		.config = 0x08,			/* INST_RETIRED */
		.exclude_kernel = 1,
	};
	struct perf_event_mmap_page *pc;
	unsigned int cap;
	uint64_t c;
	void *p;
	int fd;

	fd = apmu_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("perf_event_open: %s", strerror(errno));
	p = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	pc = p;
	c = count_spin(fd, 1000);
	cap = pc->cap_user_rdpmc;
	EXPECT_EQ(0U, cap);
	EXPECT_GE(c, 2000ULL);
	EXPECT_LT(c, 2100ULL);
	TH_LOG("cap_user_rdpmc %u, index %u, pmc_width %u, read() %llu",
	       (unsigned int)pc->cap_user_rdpmc, (unsigned int)pc->index,
	       (unsigned int)pc->pmc_width, (unsigned long long)c);
	munmap(p, getpagesize());
	close(fd);
}
#endif

TEST_HARNESS_MAIN
