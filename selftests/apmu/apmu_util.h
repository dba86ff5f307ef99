/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by apmu's kselftests: find the PMU in sysfs, open events, run a loop of
 * known length, read module parameters and interrupt counts.
 */
#ifndef __APMU_SELFTEST_UTIL_H
#define __APMU_SELFTEST_UTIL_H

#include <dirent.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define APMU_SYSFS_PMUS "/sys/bus/event_source/devices"

struct apmu_pmu_info {
	char name[64];
	int type;
};

static inline int apmu_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu,
				 int group_fd, unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* Read a file into @buf without the trailing newline. 0 on success. */
static inline int apmu_read_file(const char *path, char *buf, size_t len)
{
	FILE *f;
	size_t n;

	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return 0;
}

/* Read a PMU sysfs file, e.g. "caps/counters". 0 on success. */
static inline int apmu_read_pmu_file(const struct apmu_pmu_info *pmu, const char *file,
				     char *buf, size_t len)
{
	char path[512];

	snprintf(path, sizeof(path), APMU_SYSFS_PMUS "/%s/%s", pmu->name, file);
	return apmu_read_file(path, buf, len);
}

/* The first apmu core PMU (apmu_* with a cpus file). 0 on success. */
static inline int apmu_find_pmu(struct apmu_pmu_info *pmu)
{
	struct dirent *d;
	char buf[32];
	DIR *dir;
	int ret = -1;

	dir = opendir(APMU_SYSFS_PMUS);
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (strncmp(d->d_name, "apmu_", 5) || strlen(d->d_name) >= sizeof(pmu->name))
			continue;
		strcpy(pmu->name, d->d_name);
		if (apmu_read_pmu_file(pmu, "cpus", buf, sizeof(buf)) ||
		    apmu_read_pmu_file(pmu, "type", buf, sizeof(buf)))
			continue;
		pmu->type = atoi(buf);
		ret = 0;
		break;
	}
	closedir(dir);
	return ret;
}

/* Exactly 2 instructions per iteration (subs, b.ne), whatever the compiler does around. */
static void __attribute__((noinline, unused)) spin(unsigned long n)
{
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	b.ne	1b\n" : "+r" (n) : : "cc");
}

/* User-space instructions retired around spin(n), counted by @fd. */
static inline uint64_t count_spin_once(int fd, unsigned long n)
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
static inline uint64_t count_spin(int fd, unsigned long n)
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

/* Read /sys/module/apmu/parameters/@name. 0 on success. */
static inline int apmu_read_param(const char *name, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/apmu/parameters/%s", name);
	return apmu_read_file(path, buf, len);
}

/* The sum of the "apmu" lines of /proc/interrupts over all CPUs. */
static inline unsigned long long apmu_irqs(void)
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

/* caps/counters: the number of event counters, PMCR_EL0.N; 0 if unreadable. */
static inline unsigned int apmu_pmu_counters(const struct apmu_pmu_info *pmu)
{
	char buf[16];

	if (apmu_read_pmu_file(pmu, "caps/counters", buf, sizeof(buf)))
		return 0;
	return strtoul(buf, NULL, 0);
}

/*
 * The counters an INST_RETIRED event can take: the event counters, plus PMICNTR_EL0 where
 * caps/instruction_counter says apmu uses it.
 */
static inline unsigned int apmu_inst_counters(const struct apmu_pmu_info *pmu)
{
	char buf[8] = "0";

	apmu_read_pmu_file(pmu, "caps/instruction_counter", buf, sizeof(buf));
	return apmu_pmu_counters(pmu) + atoi(buf);
}

#endif /* __APMU_SELFTEST_UTIL_H */
