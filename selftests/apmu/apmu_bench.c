// SPDX-License-Identifier: GPL-2.0
/*
 * apmu_bench: the kernel cost of perf operations on the CPU PMU, in instructions.
 *
 * Meant for QEMU with -icount shift=0 and one CPU (make bench: scripts/bench.sh), where
 * the virtual clock advances one nanosecond per instruction. The meter is that clock, read
 * from EL0 (CNTVCT_EL0), not a counter of the PMU under test: it sees every instruction
 * of an operation, the parts perf runs with the PMU disabled (pmu_disable()/pmu_enable()
 * around add and del), the other task of a context switch and the overflow interrupt
 * included. Each figure is the smallest of several rounds (a timer tick only adds), per
 * operation, less the cost of the same loop without the perf work:
 *
 *   read         read() of a counting event, less a getppid() (the syscall floor)
 *   switch1/4/7  a context switch between two threads that each have 1, 4 or 7 counting
 *                events (cycles and instructions: 7 is every counter of QEMU's PMU),
 *                less the same switch without events
 *   sample       one overflow sample of a cycles event (interrupt, handler, record in a
 *                ring buffer), less the same user work without the event
 *   adddel       ioctl DISABLE + ENABLE of a counting event (perf's del, then add, each
 *                in a pmu_disable()/pmu_enable() bracket), less two getppid()
 *
 * The output is one "path NAME INSTRUCTIONS" line per path; scripts/bench.sh puts apmu's
 * and the in-tree driver's side by side. -q runs a few rounds only (make check, to prove
 * the program still runs: the figures are then rough). The program fails (exit 1) when
 * an event cannot be opened, read or kept on the counters (it would measure something
 * else); it asserts nothing about the figures.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_EVENTS	7
#define SAMPLE_PERIOD	100000
#define RB_PAGES	16

static int rounds = 15;
static int ops = 200;
static long sample_work = 5000000;	/* loop iterations: 10M instructions, ~100 samples */
static int quick;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* The meter, in nanoseconds: one per instruction under -icount shift=0 */
#ifdef __aarch64__
static double ns_per_tick;

static void meter_init(void)
{
	uint64_t frq;

	asm volatile("mrs %0, cntfrq_el0" : "=r" (frq));
	ns_per_tick = 1e9 / (double)frq;
}

static inline uint64_t meter_ticks(void)
{
	uint64_t v;

	asm volatile("isb; mrs %0, cntvct_el0" : "=r" (v) : : "memory");
	return v;
}

static inline double meter_ns(uint64_t ticks)
{
	return (double)ticks * ns_per_tick;
}
#else
static void meter_init(void)
{
}

static inline uint64_t meter_ticks(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline double meter_ns(uint64_t ticks)
{
	return (double)ticks;
}
#endif

static int perf_open(struct perf_event_attr *attr)
{
	attr->size = sizeof(*attr);
	return syscall(__NR_perf_event_open, attr, 0, -1, -1, 0);
}

/* A counting event of this thread: CPU_CYCLES (PMCCNTR) or INST_RETIRED (an event counter) */
static int open_counting(uint64_t config)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = config,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	int fd = perf_open(&attr);

	if (fd < 0)
		die("perf_event_open (counting)");
	return fd;
}

/*
 * n events: instructions first (an event counter, whose width long_counters=0 changes),
 * then cycles (PMCCNTR), then more instructions: 7 fill QEMU's PMU (PMCR.N = 6 + PMCCNTR).
 */
static void open_set(int *fds, int n)
{
	int i;

	for (i = 0; i < n; i++)
		fds[i] = open_counting(i == 1 ? PERF_COUNT_HW_CPU_CYCLES :
				       PERF_COUNT_HW_INSTRUCTIONS);
}

/* Close a set, failing when an event was not on a counter the whole time (multiplexed) */
static void close_set(int *fds, int n, const char *what)
{
	uint64_t v[3];
	int i;

	for (i = 0; i < n; i++) {
		if (read(fds[i], v, sizeof(v)) != sizeof(v))
			die("read");
		if (!v[0] || v[1] != v[2]) {
			fprintf(stderr, "%s: event %d counted %llu, ran %llu of %llu ns\n",
				what, i, (unsigned long long)v[0], (unsigned long long)v[2],
				(unsigned long long)v[1]);
			exit(1);
		}
		close(fds[i]);
	}
}

/* op(arg, n): n operations; returns the smallest time of one, in instructions */
typedef void (*op_fn)(void *arg, int n);

static double best_of(op_fn op, void *arg)
{
	double best = 1e30, t;
	uint64_t a, b;
	int r;

	op(arg, ops);	/* warm up: caches of the kernel's own (page tables, slabs) */
	for (r = 0; r < rounds; r++) {
		a = meter_ticks();
		op(arg, ops);
		b = meter_ticks();
		t = meter_ns(b - a) / ops;
		if (t < best)
			best = t;
	}
	return best;
}

static void op_getppid(void *arg, int n)
{
	while (n--)
		syscall(__NR_getppid);
}

static void op_read(void *arg, int n)
{
	int fd = *(int *)arg;
	uint64_t v[3];

	while (n--) {
		if (read(fd, v, sizeof(v)) != sizeof(v))
			die("read");
	}
}

static void op_toggle(void *arg, int n)
{
	int fd = *(int *)arg;

	while (n--) {
		if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
			die("ioctl");
	}
}

/* Context switches: a pipe ping-pong with a second thread on the same CPU */
struct pong {
	int to[2], from[2];	/* pipes: main to pong, pong to main */
	int nevents;
	int fds[MAX_EVENTS];
	pthread_t thr;
};

static void *pong_main(void *arg)
{
	struct pong *p = arg;
	char c = 0;

	open_set(p->fds, p->nevents);
	if (write(p->from[1], &c, 1) != 1)	/* ready */
		die("write");
	for (;;) {
		if (read(p->to[0], &c, 1) != 1)
			die("read");
		if (c == 'q')
			break;
		if (write(p->from[1], &c, 1) != 1)
			die("write");
	}
	close_set(p->fds, p->nevents, "switch (second thread)");
	return NULL;
}

static void op_pingpong(void *arg, int n)
{
	struct pong *p = arg;
	char c = 'x';

	while (n--) {
		if (write(p->to[1], &c, 1) != 1 || read(p->from[0], &c, 1) != 1)
			die("ping-pong");
	}
}

/* Instructions per context switch with @nevents events in each of the two threads */
static double switch_cost(int nevents)
{
	int fds[MAX_EVENTS];
	struct pong p = { .nevents = nevents };
	double t;
	char c;

	if (pipe(p.to) || pipe(p.from))
		die("pipe");
	open_set(fds, nevents);
	if (pthread_create(&p.thr, NULL, pong_main, &p))
		die("pthread_create");
	if (read(p.from[0], &c, 1) != 1)
		die("read");
	t = best_of(op_pingpong, &p) / 2;	/* two switches per round trip */
	c = 'q';
	if (write(p.to[1], &c, 1) != 1)
		die("write");
	pthread_join(p.thr, NULL);
	close_set(fds, nevents, "switch");
	close(p.to[0]);
	close(p.to[1]);
	close(p.from[0]);
	close(p.from[1]);
	return t;
}

/* User work of a known length: two instructions per iteration */
static void spin(long n)
{
#ifdef __aarch64__
	asm volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r" (n) : : "cc");
#else
	while (n--)
		asm volatile("" : : : "memory");
#endif
}

/* Samples in the ring buffer since the last call; the records are consumed */
static long take_samples(struct perf_event_mmap_page *pg)
{
	char *data = (char *)pg + pg->data_offset;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail;
	long n = 0;

	while (tail < head) {
		struct perf_event_header *h = (void *)(data + tail % pg->data_size);

		if (h->type == PERF_RECORD_SAMPLE) {
			n++;
		} else if (h->type == PERF_RECORD_THROTTLE || h->type == PERF_RECORD_LOST) {
			/* a slow handler (a debug kernel): the figure is then meaningless */
			fprintf(stderr, "sample: throttled, or records lost\n");
			if (!quick)
				exit(1);
		}
		tail += h->size;
	}
	__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
	return n;
}

/* Instructions per overflow sample of a cycles event (PMCCNTR) */
static double sample_cost(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = SAMPLE_PERIOD,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_PERIOD,
		.disabled = 1,
		.wakeup_events = 1000000,
	};
	long page = sysconf(_SC_PAGESIZE);
	double base = 1e30, best = 1e30, t;
	struct perf_event_mmap_page *pg;
	uint64_t a, b;
	long n;
	int fd, r;

	fd = perf_open(&attr);
	if (fd < 0)
		die("perf_event_open (sampling)");
	pg = mmap(NULL, (RB_PAGES + 1) * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED)
		die("mmap");

	spin(sample_work);
	for (r = 0; r < rounds; r++) {
		a = meter_ticks();
		spin(sample_work);
		b = meter_ticks();
		if (meter_ns(b - a) < base)
			base = meter_ns(b - a);
	}
	for (r = 0; r <= rounds; r++) {
		if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
			die("ioctl");
		a = meter_ticks();
		spin(sample_work);
		b = meter_ticks();
		if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
			die("ioctl");
		n = take_samples(pg);
		if (n < sample_work / SAMPLE_PERIOD) {
			fprintf(stderr, "sample: %ld samples in a round, expected ~%ld\n",
				n, 2 * sample_work / SAMPLE_PERIOD);
			exit(1);
		}
		t = (meter_ns(b - a) - base) / n;
		if (r && t < best)	/* round 0 warms up */
			best = t;
	}
	munmap(pg, (RB_PAGES + 1) * page);
	close(fd);
	return best;
}

int main(int argc, char **argv)
{
	double floor, v;
	cpu_set_t set;
	int fd, i;

	if (argc > 1 && !strcmp(argv[1], "-q")) {
		quick = 1;
		rounds = 2;
		ops = 20;
		sample_work = 1000000;
	} else if (argc > 1) {
		fprintf(stderr, "usage: %s [-q]\n", argv[0]);
		return 2;
	}
	meter_init();
	/* one CPU, so a switch is a real context switch and nothing migrates */
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	setvbuf(stdout, NULL, _IOLBF, 0);

	printf("# kernel instructions per operation, smallest of %d rounds of %d\n",
	       rounds, ops);
	floor = best_of(op_getppid, NULL);
	printf("# getppid %.1f (the syscall floor)\n", floor);

	fd = open_counting(PERF_COUNT_HW_INSTRUCTIONS);
	v = best_of(op_read, &fd) - floor;
	printf("path read %.1f\n", v);
	v = best_of(op_toggle, &fd) - 2 * floor;
	printf("path adddel %.1f\n", v);
	close_set(&fd, 1, "read");

	v = switch_cost(0);
	printf("# switch0 %.1f (a context switch without events)\n", v);
	for (i = 1; i <= MAX_EVENTS; i += 3)
		printf("path switch%d %.1f\n", i, switch_cost(i) - v);

	printf("path sample %.1f\n", sample_cost());
	return 0;
}
