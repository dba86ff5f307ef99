/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by apmu's kselftests: read and write sysfs and sysctl files, find a PMU
 * in sysfs, open events, run a loop of known length, walk a ring buffer, read module
 * parameters and interrupt counts.
 */
#ifndef __APMU_SELFTEST_UTIL_H
#define __APMU_SELFTEST_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <grp.h>
#include <sched.h>
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

/*
 * Read the file at @path into @buf, without the trailing newlines: 0, or -errno of the
 * open() or read() (a sysfs show() that fails returns its errno here).
 */
static inline int apmu_read_file(const char *path, char *buf, size_t len)
{
	ssize_t n = 0, r;
	int fd, err;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	while ((size_t)n < len - 1) {
		r = read(fd, buf + n, len - 1 - n);
		if (r < 0) {
			err = -errno;
			close(fd);
			return err;
		}
		if (!r)
			break;
		n += r;
	}
	close(fd);
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

/*
 * The first PMU in sysfs whose name matches @glob (fnmatch()) and that has a cpus file (a
 * core PMU); with @cpus, only one whose cpus file reads exactly that. 0 on success.
 */
static inline int apmu_find_pmu_glob(struct apmu_pmu_info *pmu, const char *glob,
				     const char *cpus)
{
	struct dirent *d;
	char buf[64];
	DIR *dir;
	int ret = -1;

	dir = opendir(APMU_SYSFS_PMUS);
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (fnmatch(glob, d->d_name, 0) || strlen(d->d_name) >= sizeof(pmu->name))
			continue;
		snprintf(pmu->name, sizeof(pmu->name), "%s", d->d_name);
		if (apmu_read_pmu_file(pmu, "cpus", buf, sizeof(buf)) ||
		    (cpus && strcmp(buf, cpus)) ||
		    apmu_read_pmu_file(pmu, "type", buf, sizeof(buf)))
			continue;
		pmu->type = atoi(buf);
		ret = 0;
		break;
	}
	closedir(dir);
	return ret;
}

/* The first apmu core PMU (apmu_* with a cpus file). 0 on success. */
static inline int apmu_find_pmu(struct apmu_pmu_info *pmu)
{
	return apmu_find_pmu_glob(pmu, "apmu_*", NULL);
}

/* The perf type of the PMU @name (its sysfs type file), or -1 */
static inline int apmu_pmu_type(const char *name)
{
	char path[256], buf[32];

	snprintf(path, sizeof(path), APMU_SYSFS_PMUS "/%s/type", name);
	if (apmu_read_file(path, buf, sizeof(buf)))
		return -1;
	return atoi(buf);
}

/*
 * Exactly 2 instructions per iteration (subs, b.ne; on 32-bit Arm subs, bne, in A32 or
 * T32 alike), whatever the compiler does around, so the counts are the same on both.
 */
static void __attribute__((noinline, unused)) spin(unsigned long n)
{
#ifdef __aarch64__
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	b.ne	1b\n" : "+r" (n) : : "cc");
#elif defined(__arm__)
	asm volatile("1:	subs	%0, %0, #1\n"
		     "	bne	1b\n" : "+r" (n) : : "cc");
#else
#error "apmu's kselftests are for arm64 and 32-bit Arm"
#endif
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

/*
 * Is the test-only apmu_knobs.ko loaded with @name=0 (sampling=0, overflow_irq=0), which
 * puts apmu.ko in that counting-only state? 0 when it is not loaded.
 */
static inline int apmu_knob_off(const char *name)
{
	char path[128], buf[8];

	snprintf(path, sizeof(path), "/sys/module/apmu_knobs/parameters/%s", name);
	return !apmu_read_file(path, buf, sizeof(buf)) && buf[0] == 'N';
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

/* Write @val to the file at @path: 0, or -errno of the open() or write() */
static inline int apmu_write_file(const char *path, const char *val)
{
	int fd, ret = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Pin the calling task to @cpu alone. 0 on success. */
static inline int apmu_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Set /sys/devices/system/cpu/cpu@cpu/online: 0, or -errno */
static inline int apmu_set_online(int cpu, int on)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return apmu_write_file(path, on ? "1" : "0");
}

/* kernel.perf_event_paranoid: the old value, or -100 if it cannot be read */
static inline int apmu_get_paranoid(void)
{
	char buf[16];

	if (apmu_read_file("/proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf)))
		return -100;
	return atoi(buf);
}

static inline int apmu_set_paranoid(int v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", v);
	return apmu_write_file("/proc/sys/kernel/perf_event_paranoid", buf);
}

/* kernel.perf_user_access: EL0 counter reads for tasks with rdpmc events (0 or 1) */
#define APMU_USER_ACCESS	"/proc/sys/kernel/perf_user_access"
static inline int apmu_set_user_access(int v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", v);
	return apmu_write_file(APMU_USER_ACCESS, buf);
}

/*
 * Become an unprivileged user (uid/gid 1000, no supplementary groups, no capabilities
 * left: setuid() from root to a non-zero uid drops them all). 0 on success.
 */
#define APMU_UNPRIV_UID	1000
static inline int apmu_drop_privileges(void)
{
	if (setgroups(0, NULL) || setgid(APMU_UNPRIV_UID) || setuid(APMU_UNPRIV_UID))
		return -1;
	return geteuid() == APMU_UNPRIV_UID ? 0 : -1;
}

/*
 * arm64 kernel addresses have the top bits set (TTBR1); user ones are below 2^52. On
 * 32-bit Arm (3G/1G split, modules just below PAGE_OFFSET) the kernel's are from
 * 0xbf000000 on, user ones below TASK_SIZE, 0xbf000000.
 */
static inline int apmu_is_kernel_addr(uint64_t addr)
{
#ifdef __aarch64__
	return addr >= 0xffff000000000000ULL;
#else
	return addr >= 0xbf000000ULL && addr <= 0xffffffffULL;
#endif
}

/* A PERF_RECORD_SAMPLE of sample_type IP | TID | TIME | CPU | PERIOD */
struct apmu_sample_rec {
	struct perf_event_header hdr;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu, res;
	uint64_t period;
};

/*
 * A reader of a perf ring buffer, as perf's: @ring is the mapping (the
 * perf_event_mmap_page, then @size bytes of data), read from data_tail to the data_head
 * seen at apmu_ring_begin(). A record that wraps around the end of the data is handed
 * out as a copy in @rec; one too large for that, or of an impossible size, ends the walk.
 */
struct apmu_ring {
	struct perf_event_mmap_page *pc;
	char *data;
	uint64_t size, head, tail;
	union {
		struct perf_event_header h;
		char b[512];
	} rec;
};

static inline void apmu_ring_begin(struct apmu_ring *r, void *ring, size_t size)
{
	r->pc = ring;
	r->data = (char *)ring + getpagesize();
	r->size = size;
	r->head = __atomic_load_n(&r->pc->data_head, __ATOMIC_ACQUIRE);
	r->tail = r->pc->data_tail;
}

/* The next record, or NULL after the last */
static inline const struct perf_event_header *apmu_ring_next(struct apmu_ring *r)
{
	size_t off = r->tail % r->size, first;
	struct perf_event_header *h;

	/* records are 8-byte aligned: a header never wraps */
	if (r->tail + sizeof(*h) > r->head)
		return NULL;
	h = (void *)(r->data + off);
	if (h->size < sizeof(*h) || r->tail + h->size > r->head)
		return NULL;
	if (off + h->size > r->size) {
		if (h->size > sizeof(r->rec))
			return NULL;
		first = r->size - off;
		memcpy(r->rec.b, h, first);
		memcpy(r->rec.b + first, r->data, h->size - first);
		h = &r->rec.h;
	}
	r->tail += h->size;
	return h;
}

/* Hand the records read back to the kernel (data_tail), as a reader that consumes them */
static inline void apmu_ring_end(struct apmu_ring *r)
{
	__atomic_store_n(&r->pc->data_tail, r->head, __ATOMIC_RELEASE);
}

/*
 * Run the calling task alone on @cpu with nothing to preempt it, like a nohz_full CPU
 * running one task: pinned there, SCHED_FIFO (kernel threads other than the stopper are
 * SCHED_OTHER) with the RT throttle off, every other task that may leave @cpu moved
 * off it (as nohz_full's housekeeping does), unbound workqueues kept off it and
 * vm.stat_interval long. The last three matter on Linux 6.12: its deadline server runs
 * SCHED_OTHER work despite an RT task, and rcu_preempt, per-CPU vmstat work
 * (mm_percpu_wq) and unbound kworkers came every second or two (seen with sched_switch
 * tracing). The changes are given 1.5 s to take effect, as work already queued runs once
 * more.
 * A task event's counter is then never restarted by a context switch.
 * apmu_alone_end() puts everything back.
 */
#define APMU_RT_RUNTIME	"/proc/sys/kernel/sched_rt_runtime_us"
#define APMU_STAT_INTVL	"/proc/sys/vm/stat_interval"
#define APMU_WQ_CPUMASK	"/sys/devices/virtual/workqueue/cpumask"

#define APMU_ALONE_MAX	512

struct apmu_alone {
	char rt_runtime[32], stat_interval[32], wq_cpumask[64];
	int nr_moved;
	pid_t moved[APMU_ALONE_MAX];	/* tasks moved off the CPU, to put back */
	cpu_set_t moved_mask[APMU_ALONE_MAX];
};

/* Move every task but this one that may run elsewhere off @cpu */
static inline void apmu_alone_move_others(struct apmu_alone *a, int cpu)
{
	DIR *dir = opendir("/proc");
	struct dirent *d;
	cpu_set_t set;
	pid_t pid;

	a->nr_moved = 0;
	if (!dir)
		return;
	while ((d = readdir(dir)) && a->nr_moved < APMU_ALONE_MAX) {
		pid = atoi(d->d_name);
		if (pid <= 0 || pid == getpid() ||
		    sched_getaffinity(pid, sizeof(set), &set) || !CPU_ISSET(cpu, &set))
			continue;
		a->moved_mask[a->nr_moved] = set;
		CPU_CLR(cpu, &set);
		if (CPU_COUNT(&set) && !sched_setaffinity(pid, sizeof(set), &set))
			a->moved[a->nr_moved++] = pid;
	}
	closedir(dir);
}

static inline int apmu_alone_begin(struct apmu_alone *a, int cpu)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (apmu_read_file(APMU_STAT_INTVL, a->stat_interval, sizeof(a->stat_interval)))
		a->stat_interval[0] = '\0';
	else if (apmu_write_file(APMU_STAT_INTVL, "3600"))
		return -1;
	if (apmu_read_file(APMU_WQ_CPUMASK, a->wq_cpumask, sizeof(a->wq_cpumask)))
		a->wq_cpumask[0] = '\0';
	else if (cpu && apmu_write_file(APMU_WQ_CPUMASK, "1"))	/* cpu0 only */
		return -1;
	if (apmu_read_file(APMU_RT_RUNTIME, a->rt_runtime, sizeof(a->rt_runtime)) ||
	    apmu_write_file(APMU_RT_RUNTIME, "-1") || apmu_pin(cpu))
		return -1;
	apmu_alone_move_others(a, cpu);
	usleep(1500000);
	return sched_setscheduler(0, SCHED_FIFO, &sp);
}

/* 0 when everything was put back */
static inline int apmu_alone_end(struct apmu_alone *a)
{
	struct sched_param sp = { .sched_priority = 0 };
	int ret;

	ret = sched_setscheduler(0, SCHED_OTHER, &sp);
	/* a task may have exited meanwhile: not an error */
	while (a->nr_moved--)
		sched_setaffinity(a->moved[a->nr_moved], sizeof(cpu_set_t),
				  &a->moved_mask[a->nr_moved]);
	ret |= apmu_write_file(APMU_RT_RUNTIME, a->rt_runtime);
	if (a->stat_interval[0])
		ret |= apmu_write_file(APMU_STAT_INTVL, a->stat_interval);
	if (a->wq_cpumask[0])
		ret |= apmu_write_file(APMU_WQ_CPUMASK, a->wq_cpumask);
	return ret;
}

#endif /* __APMU_SELFTEST_UTIL_H */
