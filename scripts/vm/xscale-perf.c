// SPDX-License-Identifier: GPL-2.0
/*
 * xscale-perf: perf_event_open() on apmu's XScale PMU, for the XScale lane's VM (busybox
 * has no perf). Built static for armel (ARMv5TE) by scripts/xscale-check.sh:
 *
 *   xscale-perf count TYPE      CCNT (0xfe) leading two event counters (instruction 0x07,
 *                               dcache_miss 0x0b): succeeds when each group read returns
 *                               the three and CCNT advances between two reads while the
 *                               group runs (so PMNC.E was set).
 *   xscale-perf generic         PERF_TYPE_HARDWARE cycles (no PMU type): the same for
 *                               CCNT alone.
 *   xscale-perf refuse ERRNO TYPE CONFIG [exclude_kernel|sample|group5]
 *                               the open fails with ERRNO (a number); group5: the fifth
 *                               event counter of a group, which never runs (disabled).
 *
 * Never more than two event counters run at once: QEMU's PXA27x has no PMN3 (the
 * instruction UNDEFs, which oopses the guest), and apmu takes PMN0 first.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

static int perf_open(struct perf_event_attr *attr, int group)
{
	return syscall(__NR_perf_event_open, attr, 0, -1, group, 0);
}

static void attr_init(struct perf_event_attr *attr, unsigned int type, uint64_t config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
}

static volatile unsigned long sink;

static void work(void)
{
	unsigned long i;

	for (i = 0; i < 2000000; i++)
		sink += i;
}

/* One read of a group of @n: the values in @val; 0 or -1 */
static int read_group(int fd, uint64_t *val, int n)
{
	uint64_t buf[1 + 3];
	ssize_t len = read(fd, buf, sizeof(buf[0]) * (1 + n));

	if (len != (ssize_t)sizeof(buf[0]) * (1 + n) || buf[0] != (uint64_t)n) {
		printf("group read: %zd bytes, %llu values\n", len,
		       len > 0 ? (unsigned long long)buf[0] : 0ULL);
		return -1;
	}
	memcpy(val, buf + 1, sizeof(buf[0]) * n);
	return 0;
}

/*
 * Two reads while the group runs, a loop apart, then one after disabling it. A read of a
 * running event reads its counter with PMNC.E set: CCNT advances between the two (on QEMU
 * by the nanoseconds of its virtual clock), which it does only if apmu set PMNC.E.
 */
static int count(unsigned int type)
{
	static const uint64_t cfg[] = { 0xfe, 0x07, 0x0b };
	static const char * const name[] = { "ccnt", "instruction", "dcache_miss" };
	struct perf_event_attr attr;
	uint64_t v1[3], v2[3], v3[3];
	int fd[3], i;

	for (i = 0; i < 3; i++) {
		attr_init(&attr, type, cfg[i]);
		attr.disabled = i == 0;
		attr.read_format = PERF_FORMAT_GROUP;
		fd[i] = perf_open(&attr, i ? fd[0] : -1);
		if (fd[i] < 0) {
			printf("open %s (config %#llx): %s\n", name[i],
			       (unsigned long long)cfg[i], strerror(errno));
			return 1;
		}
	}
	ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	work();
	if (read_group(fd[0], v1, 3))
		return 1;
	work();
	if (read_group(fd[0], v2, 3))
		return 1;
	ioctl(fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	if (read_group(fd[0], v3, 3))
		return 1;
	for (i = 0; i < 3; i++)
		printf("%s: %llu running, +%llu a loop later, %llu when disabled\n", name[i],
		       (unsigned long long)v1[i], (unsigned long long)(v2[i] - v1[i]),
		       (unsigned long long)v3[i]);
	for (i = 0; i < 3; i++)
		close(fd[i]);
	return v2[0] > v1[0] && v3[0] >= v2[0] ? 0 : 1;
}

static int generic(void)
{
	struct perf_event_attr attr;
	uint64_t val[2] = { 0, 0 };
	int fd, i;

	attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	attr.disabled = 1;
	fd = perf_open(&attr, -1);
	if (fd < 0) {
		printf("open cycles: %s\n", strerror(errno));
		return 1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 2; i++) {
		work();
		if (read(fd, &val[i], sizeof(val[i])) != sizeof(val[i])) {
			printf("read: %s\n", strerror(errno));
			return 1;
		}
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	printf("cycles: %llu running, +%llu a loop later\n", (unsigned long long)val[0],
	       (unsigned long long)(val[1] - val[0]));
	close(fd);
	return val[1] > val[0] ? 0 : 1;
}

static int refuse(int want, unsigned int type, uint64_t config, const char *how)
{
	struct perf_event_attr attr;
	int fd, lead = -1, sib[3], nsib = 0, i, ret = 1;

	attr_init(&attr, type, config);
	if (!strcmp(how, "exclude_kernel"))
		attr.exclude_kernel = 1;
	else if (!strcmp(how, "sample"))
		attr.sample_period = 100000;
	if (!strcmp(how, "group5")) {
		/* four event counters, never enabled, so never on the PMU (no PMN3 access) */
		attr.disabled = 1;
		lead = perf_open(&attr, -1);
		for (i = 0; lead >= 0 && i < 3; i++) {
			attr.disabled = 0;
			sib[nsib] = perf_open(&attr, lead);
			if (sib[nsib] < 0)
				break;
			nsib++;
		}
		if (lead < 0 || nsib != 3) {
			printf("the first four of the group: %s\n", strerror(errno));
			goto out;
		}
		attr.disabled = 0;
	}
	fd = perf_open(&attr, lead);
	if (fd >= 0) {
		printf("opened; expected %s\n", strerror(want));
		close(fd);
	} else if (errno != want) {
		printf("%s; expected %s\n", strerror(errno), strerror(want));
	} else {
		printf("%s, as expected\n", strerror(errno));
		ret = 0;
	}
out:
	for (i = 0; i < nsib; i++)
		close(sib[i]);
	if (lead >= 0)
		close(lead);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "count"))
		return count(strtoul(argv[2], NULL, 0));
	if (argc == 2 && !strcmp(argv[1], "generic"))
		return generic();
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "refuse"))
		return refuse(atoi(argv[2]), strtoul(argv[3], NULL, 0),
			      strtoull(argv[4], NULL, 0), argc == 6 ? argv[5] : "");
	fprintf(stderr,
		"usage: xscale-perf count TYPE | generic | refuse ERRNO TYPE CONFIG [how]\n");
	return 2;
}
