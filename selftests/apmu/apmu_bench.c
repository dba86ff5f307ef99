// SPDX-License-Identifier: GPL-2.0
/*
 * apmu_bench: the kernel cost of perf operations on the CPU PMU, in instructions.
 *
 * Under QEMU -icount every instruction is one nanosecond and counts are repeatable, so
 * cost is measured as kernel instructions retired (a PERF_TYPE_HARDWARE instructions
 * event with exclude_user), per operation, minimum over several rounds. The same binary
 * runs on apmu and on the in-tree driver (scripts/vm-run --no-apmu), which is the
 * comparison `make bench` prints. Not a test: it asserts nothing.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ROUNDS	5
#define OPS	1000

static int open_ev(uint64_t config, int exclude_user, int group, int disabled)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = config,
		.exclude_user = exclude_user,
		.disabled = disabled,
	};

	return syscall(__NR_perf_event_open, &attr, 0, -1, group, 0);
}

static uint64_t meter_read(int m)
{
	uint64_t v = 0;

	if (read(m, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

static int pipes[2][2];

static void *pong(void *arg)
{
	char c;
	int i;

	for (i = 0; i < ROUNDS * OPS + 1; i++) {
		if (read(pipes[0][0], &c, 1) != 1 || write(pipes[1][1], &c, 1) != 1)
			break;
	}
	return arg;
}

int main(void)
{
	uint64_t best_read = UINT64_MAX, best_toggle = UINT64_MAX, best_switch = UINT64_MAX;
	uint64_t best_base = UINT64_MAX, v, a, b;
	int meter, target, r, i;
	pthread_t thr;
	cpu_set_t set;
	char c = 'x';

	/* everything on one CPU, so a switch is a real context switch */
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);

	meter = open_ev(PERF_COUNT_HW_INSTRUCTIONS, 1, -1, 0);
	target = open_ev(PERF_COUNT_HW_CPU_CYCLES, 0, -1, 0);
	if (meter < 0 || target < 0) {
		perror("perf_event_open");
		return 1;
	}

	for (r = 0; r < ROUNDS; r++) {
		/* baseline: a syscall that does nothing perf-related */
		a = meter_read(meter);
		for (i = 0; i < OPS; i++)
			syscall(__NR_getppid);
		b = meter_read(meter);
		if (b - a < best_base)
			best_base = b - a;

		a = meter_read(meter);
		for (i = 0; i < OPS; i++)
			v = meter_read(target);
		b = meter_read(meter);
		if (b - a < best_read)
			best_read = b - a;

		/* disable + enable: pmu->del() then pmu->add()/start() */
		a = meter_read(meter);
		for (i = 0; i < OPS; i++) {
			ioctl(target, PERF_EVENT_IOC_DISABLE, 0);
			ioctl(target, PERF_EVENT_IOC_ENABLE, 0);
		}
		b = meter_read(meter);
		if (b - a < best_toggle)
			best_toggle = b - a;
	}

	/* context switches between two threads with task events (inherited by the thread) */
	if (pipe(pipes[0]) || pipe(pipes[1]) || pthread_create(&thr, NULL, pong, NULL))
		return 1;
	for (r = 0; r < ROUNDS; r++) {
		a = meter_read(meter);
		for (i = 0; i < OPS; i++) {
			if (write(pipes[0][1], &c, 1) != 1 || read(pipes[1][0], &c, 1) != 1)
				return 1;
		}
		b = meter_read(meter);
		if (b - a < best_switch)
			best_switch = b - a;
	}
	if (write(pipes[0][1], &c, 1) == 1)
		pthread_join(thr, NULL);

	printf("kernel instructions per operation (min of %d x %d):\n", ROUNDS, OPS);
	printf("  getppid() baseline          %8.0f\n", (double)best_base / OPS);
	printf("  read() of a cycles event    %8.0f\n", (double)best_read / OPS);
	printf("  ioctl DISABLE + ENABLE      %8.0f\n", (double)best_toggle / OPS);
	printf("  pipe ping-pong (2 switches) %8.0f\n", (double)best_switch / OPS);
	(void)v;
	return 0;
}
