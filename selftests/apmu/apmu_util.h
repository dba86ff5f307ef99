/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by apmu's kselftests: find the PMU in sysfs, open events. */
#ifndef __APMU_SELFTEST_UTIL_H
#define __APMU_SELFTEST_UTIL_H

#include <dirent.h>
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

#endif /* __APMU_SELFTEST_UTIL_H */
