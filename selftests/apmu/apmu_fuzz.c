// SPDX-License-Identifier: GPL-2.0
/*
 * apmu_fuzz: a small deterministic perf_event fuzzer, after perf_event_tests' perf_fuzzer
 * (not packaged by Debian), for the core PMU of apmu or of the in-tree driver.
 *
 *   apmu_fuzz [-s SEED] [-n ITERATIONS] [-t SECONDS] [-p PMU] [-o] [-U] [-R] [-T]
 *
 * From SEED (default 1) it draws a sequence of operations: perf_event_open() with random
 * attributes (the PMU's own type, PERF_TYPE_HARDWARE/HW_CACHE/RAW, which reach the core
 * PMU, and software events; random groups, tiny sample periods, frequency mode with huge
 * frequencies, inherit, exclusion bits, precise_ip, own task, a child or a CPU; with -T
 * also sigtrap events and SIGIO on every wakeup),
 * close(), the event ioctls, prctl(PR_TASK_PERF_EVENTS_ENABLE/DISABLE), ring buffers
 * mapped and read, read(), children that fork and exit with inherited events, moves
 * between CPUs, and writes to kernel.perf_cpu_time_max_percent (1, 25, 50; with -U also
 * 0 and 100, which turn perf's CPU-time limit off) and kernel.perf_event_max_sample_rate
 * (250 to 1000; with -R up to INT_MAX; see op_sysctl()); with -o also CPU 1 offline and
 * online. Between operations it runs user code so that events overflow. The sequence is
 * fixed by SEED; what the kernel answers (timing, errors) is not.
 *
 * It stops after ITERATIONS operations (default 20000) or SECONDS (default 20), restores
 * the sysctls, and passes when it got there: what it looks for is a kernel that hangs or
 * splats (the harness watches the console). It prints a progress line every second, so a
 * console silent for long means a stalled kernel.
 *
 * PMU: the name of a directory in /sys/bus/event_source/devices; by default the first
 * apmu core PMU, else the in-tree one (armv8_pmuv3*, armv7_*).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <linux/perf_event.h>

#include "kselftest.h"
#include "apmu_util.h"

#define FUZZ_MAX_FDS		48
#define FUZZ_MAX_CHILDREN	4
#define SYSCTL_CPU_PCT		"/proc/sys/kernel/perf_cpu_time_max_percent"
#define SYSCTL_RATE		"/proc/sys/kernel/perf_event_max_sample_rate"

struct fuzz_event {
	int fd;
	int clock;	/* cpu-clock or task-clock: periods of 1 ms or more */
	void *map;
	size_t map_len;
};

static struct fuzz_event ev[FUZZ_MAX_FDS];
static pid_t children[FUZZ_MAX_CHILDREN];
static uint64_t rng_state;
static int pmu_type, ncpus, hotplug, huge_rates, unthrottled, signals;
static unsigned long nr_ops, nr_ok, nr_opened;
static volatile sig_atomic_t nr_signals;

/* splitmix64: the operation sequence depends on the seed only */
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int rn(unsigned int n)
{
	return n ? rnd() % n : 0;
}

static int chance(unsigned int pct)
{
	return rn(100) < pct;
}

static void on_signal(int sig)
{
	nr_signals++;
}

/* The type of the core PMU @want, or else of the first apmu_*, armv8_* or armv7_* one */
static int find_core_pmu(const char *want, char *name, size_t len)
{
	static const char * const globs[] = { "apmu_*", "armv8_*", "armv7_*" };
	struct apmu_pmu_info pmu;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(globs); i++) {
		if (!apmu_find_pmu_glob(&pmu, want ? want : globs[i], NULL)) {
			snprintf(name, len, "%s", pmu.name);
			return pmu.type;
		}
		if (want)
			break;
	}
	return -1;
}

static int free_slot(void)
{
	unsigned int i;

	for (i = 0; i < FUZZ_MAX_FDS; i++)
		if (ev[i].fd <= 0)
			return i;
	return -1;
}

/* a random open event's slot, or -1 */
static int any_slot(void)
{
	unsigned int i, start = rn(FUZZ_MAX_FDS);

	for (i = 0; i < FUZZ_MAX_FDS; i++) {
		unsigned int s = (start + i) % FUZZ_MAX_FDS;

		if (ev[s].fd > 0)
			return s;
	}
	return -1;
}

static uint64_t rand_period(void)
{
	switch (rn(5)) {
	case 0:
	case 1:
		return 1 + rn(100);
	case 2:
		return 100 + rn(10000);
	case 3:
		return 1 + (rnd() & 0xffffffffULL);
	default:
		return rnd() >> rn(64);
	}
}

static void rand_config(struct perf_event_attr *a)
{
	static const uint64_t raw[] = { 0x00, 0x08, 0x11, 0x1e, 0x21, 0x23, 0x24, 0x3c,
					0x4004, 0xffff };

	switch (rn(6)) {
	case 0:
	case 1:
		a->type = pmu_type;
		a->config = raw[rn(10)];
		if (chance(10))
			a->config = rnd() & 0xffff;
		if (chance(20))
			a->config1 = rn(4);	/* long, rdpmc */
		break;
	case 2:
		a->type = PERF_TYPE_HARDWARE;
		a->config = rn(PERF_COUNT_HW_MAX + 1);
		if (chance(20))
			a->config |= (uint64_t)pmu_type << 32;	/* extended type */
		break;
	case 3:
		a->type = PERF_TYPE_HW_CACHE;
		a->config = rn(PERF_COUNT_HW_CACHE_MAX) |
			    rn(PERF_COUNT_HW_CACHE_OP_MAX) << 8 |
			    rn(PERF_COUNT_HW_CACHE_RESULT_MAX) << 16;
		break;
	case 4:
		a->type = PERF_TYPE_RAW;
		a->config = raw[rn(10)];
		break;
	default:
		a->type = PERF_TYPE_SOFTWARE;
		a->config = rn(PERF_COUNT_SW_MAX);
		break;
	}
}

static void op_open(void)
{
	struct perf_event_attr a;
	int slot = free_slot(), group = -1, cpu = -1, fd;
	pid_t pid = 0;

	if (slot < 0)
		return;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	rand_config(&a);
	if (chance(60)) {
		if (chance(25)) {
			a.freq = 1;
			a.sample_freq = chance(50) ? 1 + rn(100000) : rnd() >> rn(40);
		} else {
			a.sample_period = rand_period();
		}
		a.sample_type = rnd() & (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
					 PERF_SAMPLE_PERIOD | PERF_SAMPLE_STREAM_ID |
					 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_READ);
		a.wakeup_events = rn(4);
	}
	a.read_format = rnd() & (PERF_FORMAT_TOTAL_TIME_ENABLED |
				 PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID |
				 PERF_FORMAT_GROUP | PERF_FORMAT_LOST);
	a.disabled = chance(30);
	a.inherit = chance(40);
	a.pinned = chance(5);
	a.exclusive = chance(5);
	a.exclude_user = chance(15);
	a.exclude_kernel = chance(30);
	a.exclude_hv = chance(30);
	a.exclude_idle = chance(10);
	a.exclude_host = chance(5);
	a.exclude_guest = chance(5);
	a.mmap = chance(20);
	a.comm = chance(20);
	a.task = chance(10);
	a.enable_on_exec = chance(3);
	a.precise_ip = chance(80) ? 0 : rn(4);
	/*
	 * Signals only with -T: sigtrap events and O_ASYNC descriptors on tiny periods kept
	 * CPU 0 of the lock-debugging kernel in perf's IRQ work (perf_pending_irq(), SIGIO)
	 * with the in-tree driver too (seen: 21,000 IRQ-work IPIs a second, seed 2, no
	 * progress). They test perf core, not the PMU driver.
	 */
	if (chance(5) && signals) {
		a.sigtrap = 1;
		a.remove_on_exec = 1;
	}
	if (chance(30)) {
		int g = any_slot();

		if (g >= 0)
			group = ev[g].fd;
	}
	switch (rn(8)) {
	case 0:
	case 1:
		cpu = rn(ncpus);
		pid = -1;
		a.inherit = 0;
		break;
	case 2:
		cpu = rn(ncpus);
		break;
	case 3: {
		pid_t c = children[rn(FUZZ_MAX_CHILDREN)];

		if (c > 0)
			pid = c;
		break;
	}
	default:
		break;
	}
	/*
	 * cpu-clock and task-clock sample from an hrtimer, which perf core does not
	 * account to the CPU-time limit: with the lock-debugging kernel's slow samples
	 * (callchains, ~100 us each under QEMU), periods near their 10 us minimum keep a
	 * CPU in perf_swevent_hrtimer() whichever PMU driver is loaded. They are not
	 * what this fuzzer is after: at least 1 ms, at most 1000 Hz.
	 */
	if (a.type == PERF_TYPE_SOFTWARE && a.config <= PERF_COUNT_SW_TASK_CLOCK) {
		if (a.freq && a.sample_freq > 1000)
			a.sample_freq = 1 + a.sample_freq % 1000;
		else if (!a.freq && a.sample_period && a.sample_period < 1000000)
			a.sample_period += 1000000;
	}
	if (a.inherit)
		a.read_format &= ~PERF_FORMAT_GROUP;
	fd = apmu_perf_open(&a, pid, cpu, group, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return;
	nr_opened++;
	nr_ok++;
	ev[slot].fd = fd;
	ev[slot].clock = a.type == PERF_TYPE_SOFTWARE && a.config <= PERF_COUNT_SW_TASK_CLOCK;
	if (chance(10) && signals) {
		/* SIGIO on every wakeup, as perf_fuzzer does */
		fcntl(fd, F_SETOWN, getpid());
		fcntl(fd, F_SETFL, O_ASYNC);
	}
}

static void unmap_slot(int s)
{
	if (ev[s].map) {
		munmap(ev[s].map, ev[s].map_len);
		ev[s].map = NULL;
	}
}

static void op_close(void)
{
	int s = any_slot();

	if (s < 0)
		return;
	unmap_slot(s);
	close(ev[s].fd);
	ev[s].fd = 0;
	nr_ok++;
}

static void op_ioctl(void)
{
	int s = any_slot(), o;
	uint64_t v;

	if (s < 0)
		return;
	switch (rn(8)) {
	case 0:
		v = ioctl(ev[s].fd, PERF_EVENT_IOC_ENABLE, chance(30) ? PERF_IOC_FLAG_GROUP : 0);
		break;
	case 1:
		v = ioctl(ev[s].fd, PERF_EVENT_IOC_DISABLE,
			  chance(30) ? PERF_IOC_FLAG_GROUP : 0);
		break;
	case 2:
		v = ioctl(ev[s].fd, PERF_EVENT_IOC_RESET, chance(30) ? PERF_IOC_FLAG_GROUP : 0);
		break;
	case 3:
		v = ioctl(ev[s].fd, PERF_EVENT_IOC_REFRESH, rn(4));
		break;
	case 4:
		v = rand_period() + (ev[s].clock ? 1000000 : 0);
		v = ioctl(ev[s].fd, PERF_EVENT_IOC_PERIOD, &v);
		break;
	case 5:
		o = any_slot();
		v = ioctl(ev[s].fd, PERF_EVENT_IOC_SET_OUTPUT,
			  o >= 0 && chance(80) ? ev[o].fd : -1);
		break;
	case 6:
		v = ioctl(ev[s].fd, PERF_EVENT_IOC_PAUSE_OUTPUT, rn(2));
		break;
	default:
		v = ioctl(ev[s].fd, PERF_EVENT_IOC_ID, &v);
		break;
	}
	nr_ok += v == 0;
}

static void op_mmap(void)
{
	int s = any_slot();
	size_t len;
	void *p;

	if (s < 0)
		return;
	if (ev[s].map && chance(50)) {
		unmap_slot(s);
		return;
	}
	unmap_slot(s);
	len = (1 + (1UL << rn(4))) * getpagesize();
	if (chance(10))
		len = getpagesize();	/* the user page only */
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, ev[s].fd, 0);
	if (p == MAP_FAILED)
		return;
	ev[s].map = p;
	ev[s].map_len = len;
	nr_ok++;
}

/* Walk a ring buffer's records and consume them, as a reader does. */
static void op_read_ring(void)
{
	int s = any_slot();
	unsigned int n = 0;
	struct apmu_ring r;

	if (s < 0 || !ev[s].map || ev[s].map_len <= (size_t)getpagesize())
		return;
	apmu_ring_begin(&r, ev[s].map, ev[s].map_len - getpagesize());
	while (n++ < 4096 && apmu_ring_next(&r))
		;
	apmu_ring_end(&r);
	nr_ok++;
}

static void op_read(void)
{
	uint64_t buf[64];
	int s = any_slot();

	if (s >= 0 && read(ev[s].fd, buf, sizeof(buf)) > 0)
		nr_ok++;
}

/* user work, with an occasional syscall: what the events count and sample */
static void work(unsigned long n)
{
	spin(n + 1);	/* spin(0) would run 2^64 times */
	if (chance(20))
		getppid();
}

static void reap(int block)
{
	unsigned int i;

	for (i = 0; i < FUZZ_MAX_CHILDREN; i++) {
		if (children[i] <= 0)
			continue;
		if (block)
			kill(children[i], SIGKILL);
		if (waitpid(children[i], NULL, block ? 0 : WNOHANG) == children[i])
			children[i] = 0;
	}
}

/* a child inherits the inheritable events, runs a little and exits */
static void op_fork(void)
{
	unsigned long loops = 1000 + rn(2000000);
	unsigned int i = rn(FUZZ_MAX_CHILDREN);
	int forks = rn(3);
	pid_t pid;

	reap(0);
	if (children[i] > 0)
		return;
	pid = fork();
	if (pid < 0)
		return;
	if (!pid) {
		while (forks-- > 0)
			if (fork() == 0)
				break;
		spin(loops);
		if (chance(30))
			prctl(PR_TASK_PERF_EVENTS_DISABLE);
		spin(loops / 2);
		_exit(0);
	}
	children[i] = pid;
	nr_ok++;
}

static void op_affinity(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (chance(30)) {
		int c;

		for (c = 0; c < ncpus; c++)
			CPU_SET(c, &set);
	} else {
		CPU_SET(rn(ncpus), &set);
	}
	nr_ok += !sched_setaffinity(0, sizeof(set), &set);
}

/*
 * kernel.perf_cpu_time_max_percent and kernel.perf_event_max_sample_rate. By default the
 * CPU-time limit stays on (1, 25, 50) and the rate at most 1000 (4 overflows per event and
 * tick at HZ=250): on the lock-debugging test kernel under QEMU a sample costs tens of us,
 * and at the default 100000 (400 per tick) tiny periods kept a CPU busy in perf's
 * interrupt paths with the in-tree driver too (seen, with hardware and hrtimer events).
 * Tiny periods then throttle at every tick, which is what the driver's stop/start paths
 * should see. -U also turns the limit off (0, 100); -R also writes rates up to INT_MAX
 * (perf warns: "can hang your system").
 */
static const char * const rates[] = { "1000", "500", "250", "100000", "1000000",
				      "2147483647" };

static void op_sysctl(void)
{
	static const char * const pct[] = { "25", "50", "1", "0", "100" };

	if (chance(50))
		nr_ok += !apmu_write_file(SYSCTL_CPU_PCT, pct[rn(unthrottled ? 5 : 3)]);
	else
		/* refused (EINVAL) while the CPU-time limit is off (0 or 100) */
		nr_ok += !apmu_write_file(SYSCTL_RATE, rates[rn(huge_rates ? 6 : 3)]);
}

static void op_hotplug(void)
{
	if (!hotplug || ncpus < 2)
		return;
	nr_ok += !apmu_set_online(1, 0);
	work(rn(100000));
	nr_ok += !apmu_set_online(1, 1);
}

static void op_prctl(void)
{
	nr_ok += !prctl(chance(50) ? PR_TASK_PERF_EVENTS_ENABLE : PR_TASK_PERF_EVENTS_DISABLE);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long seed = 1, iterations = 20000, i;
	double secs = 20, t0, last;
	char name[64] = "", old_pct[16] = "25", old_rate[16] = "100000";
	const char *want = NULL;
	int opt;

	while ((opt = getopt(argc, argv, "s:n:t:p:oRUT")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			iterations = strtoul(optarg, NULL, 0);
			break;
		case 't':
			secs = atof(optarg);
			break;
		case 'p':
			want = optarg;
			break;
		case 'o':
			hotplug = 1;
			break;
		case 'R':
			huge_rates = 1;
			break;
		case 'U':
			unthrottled = 1;
			break;
		case 'T':
			signals = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-s SEED] [-n ITER] [-t SEC] [-p PMU] [-o] [-R] [-U] [-T]\n",
				argv[0]);
			return KSFT_FAIL;
		}
	}

	ksft_print_header();
	ksft_set_plan(1);
	pmu_type = find_core_pmu(want, name, sizeof(name));
	if (pmu_type < 0)
		ksft_exit_skip("no core PMU%s%s in " APMU_SYSFS_PMUS "\n", want ? " " : "",
			       want ? want : "");
	if (getuid())
		ksft_exit_skip("the sysctls need root\n");
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus < 1)
		ncpus = 1;
	apmu_read_file(SYSCTL_CPU_PCT, old_pct, sizeof(old_pct));
	apmu_read_file(SYSCTL_RATE, old_rate, sizeof(old_rate));
	/* the limit on first: the rate is refused while it is off */
	apmu_write_file(SYSCTL_CPU_PCT, "25");
	apmu_write_file(SYSCTL_RATE, rates[0]);
	signal(SIGIO, on_signal);
	signal(SIGTRAP, on_signal);
	signal(SIGPIPE, SIG_IGN);
	rng_state = seed;
	ksft_print_msg("seed %lu, %lu iterations or %.0f s, PMU %s (type %d), %d CPUs%s\n",
		       seed, iterations, secs, name, pmu_type, ncpus,
		       hotplug ? ", CPU hotplug" : "");
	fflush(stdout);

	t0 = now();
	last = t0;
	for (i = 0; i < iterations; i++) {
		unsigned int r = rn(100);
		double t = now();

		if (t - t0 > secs)
			break;
		if (t - last >= 1) {
			ksft_print_msg("%.0f s: %lu ops, %lu succeeded, %lu events opened, %d signals\n",
				       t - t0, nr_ops, nr_ok, nr_opened, (int)nr_signals);
			fflush(stdout);
			last = t;
		}
		nr_ops++;
		if (r < 30)
			op_open();
		else if (r < 42)
			op_close();
		else if (r < 56)
			op_ioctl();
		else if (r < 62)
			op_mmap();
		else if (r < 68)
			op_read_ring();
		else if (r < 74)
			op_read();
		else if (r < 79)
			op_fork();
		else if (r < 84)
			op_affinity();
		else if (r < 87)
			op_sysctl();
		else if (r < 91)
			op_prctl();
		else if (r < 92)
			op_hotplug();
		work(rn(20000));
	}

	for (i = 0; i < FUZZ_MAX_FDS; i++) {
		if (ev[i].fd > 0) {
			unmap_slot(i);
			close(ev[i].fd);
		}
	}
	reap(1);
	if (hotplug && ncpus > 1)
		apmu_set_online(1, 1);
	/* 25 first: the sample rate is refused while the CPU-time limit is off */
	apmu_write_file(SYSCTL_CPU_PCT, "25");
	apmu_write_file(SYSCTL_RATE, old_rate);
	apmu_write_file(SYSCTL_CPU_PCT, old_pct);
	ksft_print_msg("seed %lu: %lu ops in %.1f s, %lu succeeded, %lu events opened, %d signals\n",
		       seed, nr_ops, now() - t0, nr_ok, nr_opened, (int)nr_signals);
	ksft_test_result_pass("fuzz seed %lu\n", seed);
	ksft_finished();
}
