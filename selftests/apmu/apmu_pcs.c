// SPDX-License-Identifier: GPL-2.0
/*
 * apmu PC sampling: /sys/devices/system/cpu/cpuN/pcsample/ and the apmu_pcs PMU, on the
 * units apmu_pcs_test.ko puts over the frame model (cpu0: IMP=0, no FEAT_PMUv3_SS;
 * cpu1: IMP=1 with FEAT_PMUv3_SS). The model's power and lock state is set through
 * /sys/kernel/debug/apmu_pcs_test/cpuN/. Skips when the test module is not loaded.
 * The debug_* tests need the units on external debug frames (FEAT_PCSRv8:
 * `insmod apmu_pcs_test.ko debug=1`, pcsample/kind "debug") and skip otherwise; the
 * others need PMU frames.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "apmu_util.h"

#define PCS "/sys/devices/system/cpu/cpu%d/pcsample/%s"
#define MODEL "/sys/kernel/debug/apmu_pcs_test/cpu%d/%s"

static int pcs_path(char *buf, size_t len, const char *fmt, int cpu, const char *file)
{
	return snprintf(buf, len, fmt, cpu, file);
}

/* Read a file: 0, or -errno of the open or read */
static int rd(const char *fmt, int cpu, const char *file, char *buf, size_t len)
{
	char path[256];

	pcs_path(path, sizeof(path), fmt, cpu, file);
	return apmu_read_file(path, buf, len);
}

/* Write a string: 0, or -errno of the open or write */
static int wr(const char *fmt, int cpu, const char *file, const char *val)
{
	char path[256];

	pcs_path(path, sizeof(path), fmt, cpu, file);
	return apmu_write_file(path, val);
}

static unsigned long model_counter(int cpu, const char *name)
{
	char buf[64];

	if (rd(MODEL, cpu, name, buf, sizeof(buf)))
		return ~0UL;
	return strtoul(buf, NULL, 0);
}

static bool have_units(void)
{
	return !access("/sys/kernel/debug/apmu_pcs_test", F_OK) &&
	       !access("/sys/devices/system/cpu/cpu1/pcsample", F_OK);
}

/* The units are external debug frames (apmu_pcs_test.ko debug=1) */
static bool debug_kind(void)
{
	char buf[16];

	return !rd(PCS, 1, "kind", buf, sizeof(buf)) && !strcmp(buf, "debug");
}

#define NEED_UNITS() do {						\
	if (!have_units())						\
		SKIP(return, "apmu_pcs_test.ko not loaded");		\
	if (debug_kind())						\
		SKIP(return, "the units are debug frames (debug=1)");	\
} while (0)

#define NEED_DEBUG_UNITS() do {						\
	if (!have_units() || !debug_kind())				\
		SKIP(return, "apmu_pcs_test.ko debug=1 not loaded");	\
} while (0)

/* The kernel address of a symbol, from /proc/kallsyms */
static unsigned long ksym(const char *name)
{
	char line[256], sym[128], type;
	unsigned long addr;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %127s", &addr, &type, sym) == 3 && !strcmp(sym, name)) {
			fclose(f);
			return addr;
		}
	}
	fclose(f);
	return 0;
}

TEST(files_and_modes)
{
	static const struct { const char *f; mode_t mode; } files[] = {
		{ "implemented", 0400 }, { "enable", 0600 }, { "sample", 0400 },
		{ "kind", 0400 },
	};
	char path[256];
	struct stat st;
	int cpu, i;

	NEED_UNITS();
	for (cpu = 0; cpu < 2; cpu++) {
		for (i = 0; i < 4; i++) {
			pcs_path(path, sizeof(path), PCS, cpu, files[i].f);
			ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s", path);
			EXPECT_EQ(files[i].mode, st.st_mode & 0777) TH_LOG("%s", path);
			EXPECT_EQ(0, st.st_uid);
		}
	}
	/* sample_on_snapshot exists only with FEAT_PMUv3_SS: cpu1, not cpu0 */
	pcs_path(path, sizeof(path), PCS, 1, "sample_on_snapshot");
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0600, st.st_mode & 0777);
	pcs_path(path, sizeof(path), PCS, 0, "sample_on_snapshot");
	EXPECT_EQ(-1, stat(path, &st));
	EXPECT_EQ(ENOENT, errno);
}

/* Root-only: a sample shows another context's PC */
TEST(unprivileged_denied)
{
	static const char * const files[] = { "implemented", "enable", "sample" };
	int status, i;
	pid_t pid;

	NEED_UNITS();
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char buf[256];
		int bad = 0;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		for (i = 0; i < 3; i++)
			if (rd(PCS, 1, files[i], buf, sizeof(buf)) != -EACCES)
				bad |= 1 << i;
		if (wr(PCS, 1, "enable", "1") != -EACCES)
			bad |= 8;
		if (wr(PCS, 1, "sample_on_snapshot", "1") != -EACCES)
			bad |= 16;
		_exit(bad ? 1 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST(implemented_values)
{
	char buf[64];

	NEED_UNITS();
	ASSERT_EQ(0, rd(PCS, 0, "implemented", buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);
	ASSERT_EQ(0, rd(PCS, 1, "implemented", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
	ASSERT_EQ(0, rd(PCS, 1, "kind", buf, sizeof(buf)));
	EXPECT_STREQ("pmu", buf);
}

/* IMP == 0: EN is RAZ/WI; writing it is EOPNOTSUPP whatever the value, and writes nothing */
TEST(enable_without_imp)
{
	unsigned long writes;
	char buf[64];

	NEED_UNITS();
	writes = model_counter(0, "writes");
	EXPECT_EQ(-EOPNOTSUPP, wr(PCS, 0, "enable", "1"));
	EXPECT_EQ(-EOPNOTSUPP, wr(PCS, 0, "enable", "0"));
	ASSERT_EQ(0, rd(PCS, 0, "enable", buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);
	EXPECT_EQ(writes, model_counter(0, "writes"));
	/* with IMP == 0 sampling cannot be suspended: samples are valid */
	ASSERT_EQ(0, rd(PCS, 0, "sample", buf, sizeof(buf)));
	EXPECT_EQ(0, strncmp(buf, "pc=0x", 5)) TH_LOG("%s", buf);
}

TEST(enable_with_imp)
{
	char buf[256];

	NEED_UNITS();
	ASSERT_EQ(0, wr(PCS, 1, "enable", "0"));
	ASSERT_EQ(0, rd(PCS, 1, "enable", buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);
	/* suspended: the architected "no valid sample" */
	ASSERT_EQ(0, rd(PCS, 1, "sample", buf, sizeof(buf)));
	EXPECT_STREQ("no valid sample", buf);
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
	ASSERT_EQ(0, rd(PCS, 1, "enable", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
	ASSERT_EQ(0, rd(PCS, 1, "sample", buf, sizeof(buf)));
	EXPECT_EQ(0, strncmp(buf, "pc=0x", 5)) TH_LOG("%s", buf);
	EXPECT_EQ(-EINVAL, wr(PCS, 1, "enable", "maybe"));
	/* root's enable=0 stands: no perf event may override it (EBUSY at add) */
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
}

TEST(sample_on_snapshot)
{
	char buf[64];

	NEED_UNITS();
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
	ASSERT_EQ(0, wr(PCS, 1, "sample_on_snapshot", "1"));
	ASSERT_EQ(0, rd(PCS, 1, "sample_on_snapshot", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
	/* SS does not disturb EN */
	ASSERT_EQ(0, rd(PCS, 1, "enable", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
	ASSERT_EQ(0, wr(PCS, 1, "sample_on_snapshot", "0"));
	ASSERT_EQ(0, rd(PCS, 1, "sample_on_snapshot", buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);
	EXPECT_EQ(-EINVAL, wr(PCS, 1, "sample_on_snapshot", "2"));
}

/*
 * Read CPU @cpu's sample file, which must show an EL1 non-secure PC of context 1 outside
 * any VM (the model's defaults). Returns the PC, 0 after a failed expectation.
 */
static unsigned long el1_sample(struct __test_metadata *_metadata, int cpu)
{
	unsigned int el, cid, vmid;
	char buf[256], sec[32];
	unsigned long pc;
	int ret;

	ret = rd(PCS, cpu, "sample", buf, sizeof(buf));
	EXPECT_EQ(0, ret) TH_LOG("cpu%d/pcsample/sample", cpu);
	if (ret)
		return 0;
	ret = sscanf(buf, "pc=0x%lx el=%u security=%31s contextidr_el1=0x%x vmid=0x%x",
		     &pc, &el, sec, &cid, &vmid);
	EXPECT_EQ(5, ret) TH_LOG("%s", buf);
	EXPECT_EQ(1, el);
	EXPECT_STREQ("non-secure", sec);
	EXPECT_EQ(1, cid);
	EXPECT_EQ(0, vmid);
	return ret == 5 ? pc : 0;
}

/* The model samples msleep() three times in four, msleep_interruptible() once */
TEST(sample_decoded)
{
	unsigned long hot = ksym("msleep"), cold = ksym("msleep_interruptible"), pc;
	int i, nhot = 0, ncold = 0;

	NEED_UNITS();
	ASSERT_NE(0, hot);
	ASSERT_NE(0, cold);
	for (i = 0; i < 8; i++) {
		pc = el1_sample(_metadata, 0);
		nhot += pc == hot;
		ncold += pc == cold;
	}
	EXPECT_EQ(6, nhot);
	EXPECT_EQ(2, ncold);
}

/* Powered down, OS lock, double lock: an errno, and the frame is not touched */
static void locked(struct __test_metadata *_metadata, const char *knob, int err)
{
	unsigned long reads, writes;
	char buf[256];

	ASSERT_EQ(0, wr(MODEL, 1, knob, knob[0] == 'p' ? "0" : "1"));
	reads = model_counter(1, "reads");
	writes = model_counter(1, "writes");
	EXPECT_EQ(err, rd(PCS, 1, "sample", buf, sizeof(buf)));
	EXPECT_EQ(err, rd(PCS, 1, "enable", buf, sizeof(buf)));
	EXPECT_EQ(err, wr(PCS, 1, "enable", "1"));
	EXPECT_EQ(err, wr(PCS, 1, "sample_on_snapshot", "1"));
	/* implemented is known from the probe: it needs no access */
	EXPECT_EQ(0, rd(PCS, 1, "implemented", buf, sizeof(buf)));
	EXPECT_EQ(reads, model_counter(1, "reads"));
	EXPECT_EQ(writes, model_counter(1, "writes"));
	ASSERT_EQ(0, wr(MODEL, 1, knob, knob[0] == 'p' ? "1" : "0"));
	EXPECT_EQ(0, rd(PCS, 1, "enable", buf, sizeof(buf)));
}

TEST(powered_down_eagain)
{
	NEED_UNITS();
	locked(_metadata, "powered", -EAGAIN);
}

TEST(os_lock_ebusy)
{
	NEED_UNITS();
	locked(_metadata, "oslock", -EBUSY);
}

TEST(double_lock_eio)
{
	NEED_UNITS();
	locked(_metadata, "dlock", -EIO);
}

/* CPU hotplug: an offline CPU's frame is not touched; back online, it is usable again */
TEST(offline_cpu_eagain)
{
	const char *online = "/sys/devices/system/cpu/cpu1/online";
	unsigned long reads;
	char buf[256];
	int fd;

	NEED_UNITS();
	fd = open(online, O_WRONLY);
	if (fd < 0)
		SKIP(return, "cpu1 cannot be taken offline");
	ASSERT_EQ(1, write(fd, "0", 1));
	reads = model_counter(1, "reads");
	EXPECT_EQ(-EAGAIN, rd(PCS, 1, "sample", buf, sizeof(buf)));
	EXPECT_EQ(-EAGAIN, wr(PCS, 1, "enable", "1"));
	EXPECT_EQ(reads, model_counter(1, "reads"));
	ASSERT_EQ(1, write(fd, "1", 1));
	close(fd);
	EXPECT_EQ(0, rd(PCS, 1, "enable", buf, sizeof(buf)));
}

/*
 * PMPCSCTL.EN and SS reset when the core powers up again. root's enable=1 stands across a
 * hotplug cycle (the test module powers the model down once the CPU is dead and up, a
 * Warm reset, before it boots) and across a CPU PM power-down (cpuN/pm_cycle runs
 * cpu_pm_enter(), a power cycle and cpu_pm_exit() on the CPU; only with CONFIG_CPU_PM,
 * which the test kernel lacks - KUnit's power_cycle_* cases cover it there): samples
 * stay valid.
 */
TEST(enable_survives_power_cycles)
{
	const char *online = "/sys/devices/system/cpu/cpu1/online";
	char buf[256];
	int fd, ret;

	NEED_UNITS();
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
	ret = wr(MODEL, 1, "pm_cycle", "1");
	if (ret == -EOPNOTSUPP) {
		TH_LOG("no CONFIG_CPU_PM: the CPU PM cycle is left to KUnit");
	} else {
		ASSERT_EQ(0, ret);
		ASSERT_EQ(0, rd(PCS, 1, "enable", buf, sizeof(buf)));
		EXPECT_STREQ("1", buf);
		ASSERT_EQ(0, rd(PCS, 1, "sample", buf, sizeof(buf)));
		EXPECT_EQ(0, strncmp(buf, "pc=0x", 5)) TH_LOG("after a CPU PM cycle: %s", buf);
		/* and SS, which resets the same way */
		ASSERT_EQ(0, wr(PCS, 1, "sample_on_snapshot", "1"));
		ASSERT_EQ(0, wr(MODEL, 1, "pm_cycle", "1"));
		ASSERT_EQ(0, rd(PCS, 1, "sample_on_snapshot", buf, sizeof(buf)));
		EXPECT_STREQ("1", buf);
		ASSERT_EQ(0, wr(PCS, 1, "sample_on_snapshot", "0"));
	}

	fd = open(online, O_WRONLY);
	if (fd < 0)
		SKIP(return, "cpu1 cannot be taken offline");
	ASSERT_EQ(1, write(fd, "0", 1));
	ASSERT_EQ(1, write(fd, "1", 1));
	close(fd);
	ASSERT_EQ(0, rd(PCS, 1, "enable", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
	ASSERT_EQ(0, rd(PCS, 1, "sample", buf, sizeof(buf)));
	EXPECT_EQ(0, strncmp(buf, "pc=0x", 5)) TH_LOG("after a hotplug cycle: %s", buf);
}

/*
 * The reader goes offline: sampling moves to another CPU, never to the sampled one; on a
 * two-CPU system it pauses, and resumes when the reader is back.
 */
TEST(reader_cpu_offline)
{
	const char *online = "/sys/devices/system/cpu/cpu0/online";
	unsigned long s0, s1, s2, s3;
	int fd, status;
	pid_t pid;

	NEED_UNITS();
	if (system("perf --version >/dev/null 2>&1"))
		SKIP(return, "no perf");
	fd = open(online, O_WRONLY);
	if (fd < 0)
		SKIP(return, "cpu0 cannot be taken offline");
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		execlp("perf", "perf", "record", "-q", "-e", "apmu_pcs//", "-C", "1", "-o",
		       "/tmp/pcs-reader.data", "--", "sleep", "3", NULL);
		_exit(127);
	}
	sleep(1);
	ASSERT_EQ(1, write(fd, "0", 1));
	s0 = model_counter(1, "samples");
	usleep(500000);
	s1 = model_counter(1, "samples");
	ASSERT_EQ(1, write(fd, "1", 1));
	close(fd);
	usleep(300000);
	s2 = model_counter(1, "samples");
	usleep(300000);
	s3 = model_counter(1, "samples");
	TH_LOG("samples: %lu, %lu with cpu0 offline; %lu, %lu with it back", s0, s1, s2, s3);
	if (sysconf(_SC_NPROCESSORS_CONF) == 2)
		EXPECT_EQ(s0, s1);	/* cpu1 never samples itself */
	EXPECT_LT(s2, s3);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
}

static int pcs_type(void)
{
	return apmu_pmu_type("apmu_pcs");
}

static int pcs_open(int type, int cpu, pid_t pid, void (*tweak)(struct perf_event_attr *))
{
	struct perf_event_attr attr = {
		.type = type,
		.size = sizeof(attr),
		.sample_period = 1000000,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD,
		.disabled = 1,
	};
	int fd;

	if (tweak)
		tweak(&attr);
	fd = apmu_perf_open(&attr, pid, cpu, -1, 0);
	return fd < 0 ? -errno : fd;
}

static void counting(struct perf_event_attr *a) { a->sample_period = 0; }
static void excl_kernel(struct perf_event_attr *a) { a->exclude_kernel = 1; }
static void excl_user(struct perf_event_attr *a) { a->exclude_user = 1; }
static void callchain(struct perf_event_attr *a) { a->sample_type |= PERF_SAMPLE_CALLCHAIN; }
static void config1(struct perf_event_attr *a) { a->config = 1; }
static void config3(struct perf_event_attr *a) { a->config3 = 1; }
static void freq(struct perf_event_attr *a) { a->freq = 1; a->sample_freq = 1000; }
static void sigtrap(struct perf_event_attr *a) { a->sigtrap = 1; a->remove_on_exec = 1; }
static void inherit(struct perf_event_attr *a) { a->inherit = 1; }

static uint64_t sample_type_extra;
static void extra_type(struct perf_event_attr *a) { a->sample_type |= sample_type_extra; }
static void excl_hv(struct perf_event_attr *a) { a->exclude_hv = 1; }

static const uint64_t foreign_types[] = {
	PERF_SAMPLE_CGROUP, PERF_SAMPLE_CODE_PAGE_SIZE, PERF_SAMPLE_DATA_PAGE_SIZE,
	PERF_SAMPLE_WEIGHT, PERF_SAMPLE_WEIGHT_STRUCT, PERF_SAMPLE_RAW, PERF_SAMPLE_READ,
	PERF_SAMPLE_TRANSACTION, PERF_SAMPLE_ADDR,
};

TEST(perf_event_open_errnos)
{
	int type = pcs_type(), fd;
	unsigned int i;

	NEED_UNITS();
	ASSERT_LT(0, type);
	EXPECT_EQ(-EOPNOTSUPP, pcs_open(type, 1, -1, counting));
	EXPECT_EQ(-EOPNOTSUPP, pcs_open(type, -1, 0, NULL));	/* per-task */
	EXPECT_EQ(-EOPNOTSUPP, pcs_open(type, 1, 0, NULL));	/* task on a CPU */
	EXPECT_EQ(-EOPNOTSUPP, pcs_open(type, 1, -1, excl_kernel));
	EXPECT_EQ(-EOPNOTSUPP, pcs_open(type, 1, -1, excl_user));
	EXPECT_EQ(-EOPNOTSUPP, pcs_open(type, 1, -1, callchain));
	EXPECT_EQ(-EINVAL, pcs_open(type, 1, -1, config1));
	EXPECT_EQ(-EINVAL, pcs_open(type, 1, -1, config3));
	EXPECT_EQ(-EINVAL, pcs_open(type, 1, -1, sigtrap));	/* perf core: no task */
	EXPECT_EQ(-EOPNOTSUPP, pcs_open(type, 1, 0, sigtrap));	/* apmu_pcs */
	EXPECT_EQ(-EOPNOTSUPP, pcs_open(type, 1, 0, inherit));	/* per task */
	/* filled at delivery from CPU N's task or registers, or not in a PC sample */
	for (i = 0; i < ARRAY_SIZE(foreign_types); i++) {
		sample_type_extra = foreign_types[i];
		fd = pcs_open(type, 1, -1, extra_type);
		/* perf core refuses CGROUP itself (EINVAL) without CONFIG_CGROUP_PERF */
		if (foreign_types[i] == PERF_SAMPLE_CGROUP && fd == -EINVAL)
			continue;
		EXPECT_EQ(-EOPNOTSUPP, fd)
			TH_LOG("sample_type bit %#llx: %d",
			       (unsigned long long)foreign_types[i], fd);
		if (fd >= 0)
			close(fd);
	}
	/* honoured: no hypervisor sample is ever delivered */
	fd = pcs_open(type, 1, -1, excl_hv);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
	fd = pcs_open(type, 1, -1, inherit);	/* perf record -C sets it: ignored */
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
	fd = pcs_open(type, 1, -1, NULL);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
	fd = pcs_open(type, 1, -1, freq);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
}

static void enabled(struct perf_event_attr *a) { a->disabled = 0; a->sample_period = 10000; }

/*
 * An event sampling CPU 1 across a CPU PM power-down of CPU 1: the reader's samples go
 * on (EN set again at CPU_PM_EXIT), instead of "no valid sample" for ever.
 */
TEST(event_survives_pm_cycle)
{
	int type, fd, i;
	unsigned long s0, s1, w0, w1;
	char buf[64];

	NEED_UNITS();
	type = pcs_type();
	ASSERT_LT(0, type);
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
	fd = pcs_open(type, 1, -1, enabled);
	ASSERT_LE(0, fd);
	if (wr(MODEL, 1, "pm_cycle", "1") == -EOPNOTSUPP) {
		close(fd);
		SKIP(return, "no CONFIG_CPU_PM: left to KUnit (power_cycle_keeps_event_enable)");
	}
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, wr(MODEL, 1, "pm_cycle", "1"));
	ASSERT_EQ(0, rd(PCS, 1, "enable", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
	/* the reader's reads are valid samples: the model counts reads of the context too */
	w0 = model_counter(1, "reads");
	s0 = model_counter(1, "samples");
	usleep(100000);
	s1 = model_counter(1, "samples");
	w1 = model_counter(1, "reads");
	TH_LOG("100 ms after 3 CPU PM cycles: %lu samples, %lu frame reads", s1 - s0, w1 - w0);
	EXPECT_LT(s0, s1);
	/*
	 * A valid sample reads PMPCSR[31:0], [63:32] and two context registers, "no valid
	 * sample" only PMPCSR[31:0]. The samples are counted inside the reads' window
	 * (reads first at the start, last at the end: the reader samples every 10 us,
	 * faster than two debugfs reads), so only a sample in flight at the end may have
	 * its PMPCSR[31:0] read counted without the other three (the 4).
	 */
	EXPECT_GE(w1 - w0 + 4, 4 * (s1 - s0));
	close(fd);
}

/*
 * Unit removal racing with CPU 1's CPU PM notifier (the real cpu_pm_enter()/cpu_pm_exit(),
 * looped by the test module on CPU 1): once apmu_pcs_unit_remove() returns, apmu must not
 * touch the unit (on hardware it is freed and its frame unmapped next). The test module
 * marks the model gone as soon as removal returns and counts any later access; each
 * CPU_PM_EXIT writes PMPCSCTL.EN again (enable=1), after a slow EDPRSR read.
 */
TEST(unit_remove_races_cpu_pm)
{
	int ret;

	NEED_UNITS();
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
	ret = wr(MODEL, 1, "remove_race", "20");
	if (ret == -EOPNOTSUPP || ret == -ENOENT)
		SKIP(return, "no CONFIG_CPU_PM, or a test module without remove_race");
	EXPECT_EQ(0, ret);
	/* the unit is back, its files too */
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
}

/*
 * A unit a perf event samples is not removed (EBUSY), even by a caller that bypasses the
 * module pin that normally keeps it (the test module's remove_race): the event's reader
 * timer would otherwise use a unit that has been re-initialised or freed.
 */
TEST(unit_held_by_event_not_removed)
{
	int type = pcs_type(), fd, ret;

	NEED_UNITS();
	ASSERT_LT(0, type);
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
	fd = pcs_open(type, 1, -1, enabled);
	ASSERT_LE(0, fd);
	ret = wr(MODEL, 1, "remove_race", "1");
	close(fd);
	if (ret == -EOPNOTSUPP || ret == -ENOENT)
		SKIP(return, "no CONFIG_CPU_PM, or a test module without remove_race");
	EXPECT_EQ(-EBUSY, ret);
	/* the event gone, the unit can go (and comes back) */
	EXPECT_EQ(0, wr(MODEL, 1, "remove_race", "1"));
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
}

/*
 * Root's enable=0 and sample_on_snapshot=1 refuse new events at perf_event_open() with
 * EBUSY (add() refusing them would leave the event silently inactive). An event opened
 * before root's enable=0 is added all the same and samples nothing.
 */
TEST(suspended_sampling_refused_at_open)
{
	int type = pcs_type(), fd;

	NEED_UNITS();
	ASSERT_LT(0, type);
	ASSERT_EQ(0, wr(PCS, 1, "enable", "0"));
	fd = pcs_open(type, 1, -1, enabled);
	EXPECT_EQ(-EBUSY, fd);
	if (fd >= 0)
		close(fd);
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
	ASSERT_EQ(0, wr(PCS, 1, "sample_on_snapshot", "1"));
	fd = pcs_open(type, 1, -1, enabled);
	EXPECT_EQ(-EBUSY, fd);
	if (fd >= 0)
		close(fd);
	ASSERT_EQ(0, wr(PCS, 1, "sample_on_snapshot", "0"));
	fd = pcs_open(type, 1, -1, enabled);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
}

/*
 * perf ignores sample on snapshot (every read would return the same snapshot): while an
 * apmu_pcs event samples CPU 1, setting it is EBUSY; EN is counted across events, so
 * the second event's removal leaves it set for the first.
 */
TEST(events_exclude_snapshot_and_count_enable)
{
	int type = pcs_type(), a, b;
	char buf[64];

	NEED_UNITS();
	ASSERT_LT(0, type);
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
	a = pcs_open(type, 1, -1, enabled);
	ASSERT_LE(0, a);
	b = pcs_open(type, 1, -1, enabled);
	ASSERT_LE(0, b);
	EXPECT_EQ(-EBUSY, wr(PCS, 1, "sample_on_snapshot", "1"));
	close(b);
	ASSERT_EQ(0, rd(PCS, 1, "enable", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
	close(a);
	/* root wrote enable=1 before the events: it stays */
	ASSERT_EQ(0, rd(PCS, 1, "enable", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
	ASSERT_EQ(0, wr(PCS, 1, "sample_on_snapshot", "1"));
	ASSERT_EQ(0, wr(PCS, 1, "sample_on_snapshot", "0"));
}

/*
 * Open enabled (add() kicks the reader's timer with an IPI) and close at once, many
 * times: the event is freed while its kick may still be queued or running on the reader,
 * which must neither use freed memory nor leave a timer behind (no_violations and the
 * kernel's own checks afterwards).
 */
TEST(open_close_churn)
{
	int type = pcs_type(), fd, i;

	NEED_UNITS();
	ASSERT_LT(0, type);
	for (i = 0; i < 500; i++) {
		fd = pcs_open(type, 1, -1, enabled);
		ASSERT_LE(0, fd);
		close(fd);
	}
	fd = pcs_open(type, 1, -1, enabled);
	ASSERT_LE(0, fd);
	usleep(20000);
	close(fd);
}

#define PCS_RING_PAGES 16

/* What 50 ms of sampling CPU 1 delivered */
struct pcs_stats {
	long samples;		/* PERF_RECORD_SAMPLE */
	long at_ip;		/* of them, at the IP asked about */
	uint32_t pid, tid;	/* of the first sample */
};

static int sample_stats(int type, void (*tweak)(struct perf_event_attr *), uint64_t ip,
			struct pcs_stats *st)
{
	size_t len = (PCS_RING_PAGES + 1) * getpagesize();
	const struct perf_event_header *h;
	const struct apmu_sample_rec *s;
	struct apmu_ring r;
	void *pc;
	int fd;

	memset(st, 0, sizeof(*st));
	fd = pcs_open(type, 1, -1, tweak);
	if (fd < 0)
		return fd;
	pc = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		close(fd);
		return -1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	usleep(50000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	apmu_ring_begin(&r, pc, PCS_RING_PAGES * getpagesize());
	while ((h = apmu_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		s = (const void *)h;
		if (!st->samples++) {
			st->pid = s->pid;
			st->tid = s->tid;
		}
		st->at_ip += s->ip == ip;
	}
	munmap(pc, len);
	close(fd);
	return 0;
}

/*
 * Sample CPU 1 for 50 ms with the model's context ID set to @cid, and give the PID and
 * TID of the first sample in the ring (disabling the event delivers what the reader
 * took). Returns 0, or -1 when there is no sample.
 */
static int sample_tid(int type, const char *cid, uint32_t *pid, uint32_t *tid)
{
	struct pcs_stats st;

	if (cid && wr(MODEL, 1, "cid1", cid))
		return -1;
	if (sample_stats(type, NULL, 0, &st) || !st.samples)
		return -1;
	*pid = st.pid;
	*tid = st.tid;
	return 0;
}

/* PMPCSR: PCSample [55:0], NSE 59, EL [62:61], NS 63 */
static uint64_t pmpcsr(uint64_t pc, unsigned int el, int ns, int nse)
{
	return (pc & ((1ULL << 56) - 1)) | (uint64_t)nse << 59 | (uint64_t)el << 61 |
	       (uint64_t)ns << 63;
}

static void guest_excluded(struct perf_event_attr *a) { a->exclude_guest = 1; }
static void every_100us(struct perf_event_attr *a) { a->sample_period = 100000; }
static void every_10us(struct perf_event_attr *a) { a->sample_period = 10000; }

/* The kernel runs at EL1 (nVHE): dmesg says where the CPUs started */
static bool kernel_at_el1(void)
{
	return !system("dmesg | grep -q 'CPU(s) started at EL1'");
}

/*
 * Samples of other Security states and of EL3 never reach perf users: the model's
 * sequence has one Non-secure EL1 sample (msleep) and three others at
 * msleep_interruptible - Secure EL3 (firmware), Realm EL1 (a CCA realm), Root EL0 - and
 * only msleep may show up. (PMPCSR returns them wherever the external authentication
 * allows non-invasive debug of those states.)
 */
TEST(foreign_security_states_never_delivered)
{
	uint64_t hot = ksym("msleep"), cold = ksym("msleep_interruptible");
	char old[4][32], val[32], f[8];
	struct pcs_stats st;
	int type = pcs_type(), i;

	NEED_UNITS();
	ASSERT_LT(0, type);
	ASSERT_NE(0, hot);
	ASSERT_NE(0, cold);
	for (i = 0; i < 4; i++) {
		snprintf(f, sizeof(f), "seq%d", i);
		ASSERT_EQ(0, rd(MODEL, 1, f, old[i], sizeof(old[i])));
	}
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
	snprintf(val, sizeof(val), "%#llx", (unsigned long long)pmpcsr(hot, 1, 1, 0));
	ASSERT_EQ(0, wr(MODEL, 1, "seq0", val));
	snprintf(val, sizeof(val), "%#llx", (unsigned long long)pmpcsr(cold, 3, 0, 0));
	ASSERT_EQ(0, wr(MODEL, 1, "seq1", val));
	snprintf(val, sizeof(val), "%#llx", (unsigned long long)pmpcsr(cold, 1, 1, 1));
	ASSERT_EQ(0, wr(MODEL, 1, "seq2", val));
	snprintf(val, sizeof(val), "%#llx", (unsigned long long)pmpcsr(cold, 0, 0, 1));
	ASSERT_EQ(0, wr(MODEL, 1, "seq3", val));
	i = sample_stats(type, every_100us, cold, &st);
	for (int j = 0; j < 4; j++) {
		snprintf(f, sizeof(f), "seq%d", j);
		wr(MODEL, 1, f, old[j]);
	}
	ASSERT_EQ(0, i);
	TH_LOG("%ld samples, %ld of them Secure, Realm or Root", st.samples, st.at_ip);
	EXPECT_LT(0, st.samples);
	EXPECT_EQ(0, st.at_ip);
}

/*
 * Samples apmu drops are reported: CPU 1 idle (it delivers at its rare ticks), sampled
 * every 10 us for 200 ms, fills the 4096-entry ring (load permitting); what it could not
 * hold, and the rest of a batch perf throttled, come as PERF_RECORD_LOST_SAMPLES (apmu
 * resolves perf_log_lost_samples() on the test kernel).
 */
TEST(lost_samples_reported)
{
	size_t len = (128 + 1) * getpagesize();
	const struct perf_event_header *h;
	unsigned long r0, reads;
	long samples = 0, lost = 0;
	int type = pcs_type(), fd;
	struct apmu_ring r;
	cpu_set_t set;
	void *pc;

	NEED_UNITS();
	ASSERT_LT(0, type);
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	fd = pcs_open(type, 1, -1, every_10us);
	ASSERT_LE(0, fd);
	pc = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_TRUE(pc != MAP_FAILED);
	r0 = model_counter(1, "samples");
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	usleep(200000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	reads = model_counter(1, "samples") - r0;
	apmu_ring_begin(&r, pc, len - getpagesize());
	while ((h = apmu_ring_next(&r))) {
		if (h->type == PERF_RECORD_SAMPLE)
			samples++;
		else if (h->type == PERF_RECORD_LOST_SAMPLES)
			lost += *(const uint64_t *)(h + 1);
	}
	munmap(pc, len);
	close(fd);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	CPU_SET(1, &set);
	sched_setaffinity(0, sizeof(set), &set);
	TH_LOG("%lu reads, %ld samples delivered, %ld reported lost", reads, samples, lost);
	/*
	 * Every valid read is either delivered or reported lost (give or take one in
	 * flight at the removal); how many the reader manages depends on the host's load.
	 */
	EXPECT_GE(samples + lost + 4, (long)reads);
	EXPECT_GE((long)reads + 4, samples + lost);
}

/*
 * A KVM guest's samples on a host kernel at EL1 (nVHE): the VMID is not 0 (KVM runs the
 * host with VMID 0). With exclude_guest (perf's default) none is delivered; without it
 * they are, but the guest's CONTEXTIDR_EL1 (here 1) must not name a host task: no TID.
 */
TEST(guest_samples_nvhe)
{
	struct pcs_stats st;
	int type = pcs_type(), r1, r2;
	struct pcs_stats st0;

	NEED_UNITS();
	ASSERT_LT(0, type);
	if (!kernel_at_el1())
		SKIP(return, "the kernel runs at EL2: VMIDs are not sampled (block 1)");
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
	ASSERT_EQ(0, wr(MODEL, 1, "vmid", "5"));
	r1 = sample_stats(type, guest_excluded, 0, &st);
	r2 = sample_stats(type, NULL, 0, &st0);
	wr(MODEL, 1, "vmid", "0");
	ASSERT_EQ(0, r1);
	ASSERT_EQ(0, r2);
	TH_LOG("VMID 5: %ld samples with exclude_guest, %ld without (first pid %d)",
	       st.samples, st0.samples, (int)st0.pid);
	EXPECT_EQ(0, st.samples);
	EXPECT_LT(0, st0.samples);
	EXPECT_EQ((uint32_t)-1, st0.pid);
	/* the host's own samples (VMID 0) keep their task */
	ASSERT_EQ(0, sample_stats(type, guest_excluded, 0, &st));
	EXPECT_LT(0, st.samples);
	EXPECT_EQ(1, st.pid);
}

/*
 * PID and TID in samples are those of the event's PID namespace, as perf core numbers
 * every sample: an event opened by the init of a new PID namespace sees the task the
 * context ID names (its own, by its global PID, as CONTEXTIDR_EL1 holds it) as 1, and
 * a task outside its namespace (global init) as -1, not by their global numbers.
 */
TEST(sample_tid_in_event_pid_namespace)
{
	int type = pcs_type(), res[2], go[2], status;
	uint32_t out[4] = { 0 };
	pid_t mid;

	NEED_UNITS();
	ASSERT_LT(0, type);
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
	ASSERT_EQ(0, pipe(res));
	mid = fork();
	ASSERT_LE(0, mid);
	if (!mid) {
		char buf[32];
		pid_t g;

		if (unshare(CLONE_NEWPID))
			_exit(errno == EINVAL ? 42 : 10);	/* 42: no CONFIG_PID_NS */
		if (pipe(go))
			_exit(10);
		g = fork();
		if (g < 0)
			_exit(11);
		if (!g) {
			uint32_t v[4] = { 0, 0, 0, 0 };

			/* pid 1 of the new namespace; the context ID is its global PID */
			if (read(go[0], buf, 1) != 1 || getpid() != 1)
				_exit(12);
			if (sample_tid(type, NULL, &v[0], &v[1]))
				_exit(13);
			if (sample_tid(type, "1", &v[2], &v[3]))
				_exit(14);
			_exit(write(res[1], v, sizeof(v)) == sizeof(v) ? 0 : 15);
		}
		snprintf(buf, sizeof(buf), "%d", g);
		if (wr(MODEL, 1, "cid1", buf) || write(go[1], "g", 1) != 1)
			_exit(16);
		if (waitpid(g, &status, 0) != g)
			_exit(17);
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 18);
	}
	ASSERT_EQ(mid, waitpid(mid, &status, 0));
	wr(MODEL, 1, "cid1", "1");
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == 42)
		SKIP(return, "no PID namespaces (CONFIG_PID_NS)");
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(sizeof(out), read(res[0], out, sizeof(out)));
	TH_LOG("own task: pid %d tid %d; global init: pid %d tid %d", (int)out[0], (int)out[1],
	       (int)out[2], (int)out[3]);
	EXPECT_EQ(1, out[0]);
	EXPECT_EQ(1, out[1]);
	EXPECT_EQ((uint32_t)-1, out[2]);
	EXPECT_EQ((uint32_t)-1, out[3]);
	close(res[0]);
	close(res[1]);
}

/*
 * The plain VM: apmu_pcs loaded with bogus pcs= frames and no test module. No pcsample/
 * directory, no apmu_pcs PMU (it comes with the first unit), and each entry refused with one
 * message (System RAM, a region another driver owns, a device that is not a PMU, an
 * address nothing describes - which would abort if read).
 */
TEST(plain_vm_bogus_frames_refused)
{
	char param[512], line[512], path[256];
	int cpu, entries = 1, refused = 0;
	FILE *f;
	char *p;

	if (have_units())
		SKIP(return, "apmu_pcs_test.ko is loaded: not the plain VM");
	for (cpu = 0; cpu < 8; cpu++) {
		pcs_path(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/%s", cpu, "pcsample");
		EXPECT_NE(0, access(path, F_OK)) TH_LOG("%s exists", path);
	}
	EXPECT_EQ(-1, pcs_type());
	ASSERT_EQ(0, apmu_read_file("/sys/module/apmu_pcs/parameters/pcs", param,
				     sizeof(param)));
	if (!strcmp(param, "(null)") || !param[0])
		SKIP(return, "apmu_pcs loaded without pcs=");
	for (p = param; *p; p++)
		entries += *p == ',';
	f = popen("dmesg", "r");
	ASSERT_TRUE(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "apmu_pcs: ") && strstr(line, "pcs=") &&
		    strstr(line, ": refused")) {
			refused++;
			TH_LOG("%s", line);
		}
	}
	pclose(f);
	EXPECT_EQ(entries, refused);
}

/*
 * perf record on the model's CPU 1, sampled from CPU 0; perf report shows its PCs: three
 * samples in four are msleep(), one msleep_interruptible(), of init (CONTEXTIDR_EL1 1)
 */
static void record_report(struct __test_metadata *_metadata)
{
	char line[512];
	int hot = -1, cold = -1, pct;
	FILE *f;

	if (system("perf --version >/dev/null 2>&1"))
		SKIP(return, "no perf");
	ASSERT_EQ(0, system("perf record -q -e apmu_pcs// -C 1 -o /tmp/pcs.data -- sleep 1 "
			    ">/tmp/pcs-record.txt 2>&1"));
	f = popen("perf report -i /tmp/pcs.data --stdio --sort sym,pid 2>/dev/null", "r");
	ASSERT_TRUE(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		TH_LOG("%s", line);
		if (sscanf(line, " %d.%*d%%", &pct) != 1)
			continue;
		if (strstr(line, "[k] msleep_interruptible") && strstr(line, "1:init"))
			cold = pct;
		else if (strstr(line, "[k] msleep ") && strstr(line, "1:init"))
			hot = pct;
	}
	pclose(f);
	EXPECT_GE(hot, 70);
	EXPECT_LE(hot, 80);
	EXPECT_GE(cold, 20);
	EXPECT_LE(cold, 30);
}

TEST(perf_record_report)
{
	NEED_UNITS();
	record_report(_metadata);
}

#define MAX_RATE "/proc/sys/kernel/perf_event_max_sample_rate"
#define TIME_PCT "/proc/sys/kernel/perf_cpu_time_max_percent"

/* CPU 0's and CPU 1's counts on the /proc/interrupts line whose name has @name */
static int irq_counts(const char *name, unsigned long c[2])
{
	char line[1024], *p;
	int ret = -1;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f)) {
		p = strchr(line, ':');
		if (p && strstr(p, name) && sscanf(p + 1, "%lu %lu", &c[0], &c[1]) == 2)
			ret = 0;
	}
	fclose(f);
	return ret;
}

/**
 * struct fixed_run - what one record_fixed_period() saw
 * @samples: samples in perf.data
 * @span: seconds from the first sample to the last
 * @reads: PMPCSR reads of CPU 1's model meanwhile: samples the reader took
 * @elapsed: seconds the perf record run took
 * @tick1: CPU 1's arch_timer interrupts per second just before, spinning unsampled
 * @timer: arch_timer interrupts of CPU 0 and CPU 1 meanwhile
 * @fcall: function-call IPIs of CPU 0 and CPU 1 meanwhile
 * @irqwork: IRQ-work IPIs of CPU 0 and CPU 1 meanwhile
 */
struct fixed_run {
	long samples;
	double span;
	unsigned long reads;
	double elapsed;
	double tick1;
	unsigned long timer[2], fcall[2], irqwork[2];
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * In a forked child: run on @cpu only, and never outlive the test, even one killed by its
 * timeout
 */
static void child_on_cpu(int cpu)
{
	cpu_set_t set;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() == 1)
		_exit(1);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		_exit(1);
}

/*
 * A busy loop on CPU 1 until killed: with a vCPU always running, QEMU -icount advances
 * guest time by instructions, not by the host's clock as while every vCPU idles, so a
 * loaded host cannot make the guest's timers late and skip their periods.
 */
static pid_t spin_on_cpu1(void)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	child_on_cpu(1);
	for (;;)
		;
}

/*
 * A busy loop on CPU 1 while the reader reads CPU 1's model: from its first read after
 * @r0 reads (the event is on) to the first 200 ms without one (the event is off: a
 * throttled event's reader waits 4 ms, for the next tick), or until killed. CPU 1 is busy
 * while perf record samples it and idle while perf starts and ends (the wait for the
 * first read polls from CPU 0): under -icount two busy vCPUs share the guest's clock, so
 * a CPU 1 spinning through perf's start-up and teardown doubled their guest time.
 */
static pid_t spin_on_cpu1_while_sampled(unsigned long r0)
{
	unsigned long r, last = r0;
	double now, moved;
	pid_t pid = fork();

	if (pid)
		return pid;
	child_on_cpu(0);
	/* (~0UL: the model's file unreadable, no reading) */
	do {
		usleep(5000);
		r = model_counter(1, "samples");
	} while (r == r0 || r == ~0UL);
	child_on_cpu(1);
	for (moved = now_s();;) {
		/* 10 ms of spinning between looks at the model's count */
		for (now = now_s() + 0.01; now_s() < now;)
			;
		now = now_s();
		r = model_counter(1, "samples");
		if (r != last) {
			last = r;
			moved = now;
		} else if (now - moved > 0.2) {
			_exit(0);
		}
	}
}

/*
 * perf record -c 200000 (one sample per 200 us) on CPU 1, kept busy as a profiled CPU is
 * (an idle one delivers at its next tick) while it is sampled, with perf's sample limit
 * at @rate per second and its CPU-time limit, which lowers the rate after slow samples,
 * off.
 */
static void record_fixed_period(struct __test_metadata *_metadata, const char *rate,
				struct fixed_run *run)
{
	unsigned long tb[2], t0[2], t1[2], f0[2], f1[2], w0[2], w1[2], r0;
	char old_rate[32], old_pct[32], line[256];
	double t, first = -1, last = 0;
	pid_t spin;
	FILE *f;
	int i;

	memset(run, 0, sizeof(*run));
	ASSERT_EQ(0, apmu_read_file(MAX_RATE, old_rate, sizeof(old_rate)));
	ASSERT_EQ(0, apmu_read_file(TIME_PCT, old_pct, sizeof(old_pct)));
	/* a run killed by its timeout left the limit off: put perf's default back */
	if (!strcmp(old_pct, "0")) {
		snprintf(old_pct, sizeof(old_pct), "25");
		ASSERT_EQ(0, apmu_write_file(TIME_PCT, old_pct));
	}
	/* the rate first: perf refuses a rate while the CPU-time limit is 0 */
	EXPECT_EQ(0, apmu_write_file(MAX_RATE, rate));
	EXPECT_EQ(0, apmu_write_file(TIME_PCT, "0"));
	spin = spin_on_cpu1();
	ASSERT_LT(0, spin);
	usleep(100000);		/* the spinner is on CPU 1 */
	/* CPU 1's tick rate, spinning and not sampled: the baseline */
	ASSERT_EQ(0, irq_counts("arch_timer", tb));
	run->tick1 = now_s();
	usleep(1000000);
	ASSERT_EQ(0, irq_counts("arch_timer", t0));
	run->tick1 = (t0[1] - tb[1]) / (now_s() - run->tick1);
	ASSERT_EQ(0, irq_counts("Function call", f0));
	ASSERT_EQ(0, irq_counts("IRQ work", w0));
	kill(spin, SIGKILL);
	waitpid(spin, NULL, 0);
	r0 = model_counter(1, "samples");
	/* CPU 1 spins while perf samples it */
	spin = spin_on_cpu1_while_sampled(r0);
	ASSERT_LT(0, spin);
	run->elapsed = now_s();
	/* -B: no build-id pass over the samples at the end (perf script needs none) */
	EXPECT_EQ(0, system("perf record -q -B -c 200000 -e apmu_pcs// -C 1 -o /tmp/pcs-c.data "
			    "-- sleep 2 >/tmp/pcs-c-record.txt 2>&1"));
	run->elapsed = now_s() - run->elapsed;
	run->reads = model_counter(1, "samples") - r0;
	ASSERT_EQ(0, irq_counts("arch_timer", t1));
	ASSERT_EQ(0, irq_counts("Function call", f1));
	ASSERT_EQ(0, irq_counts("IRQ work", w1));
	for (i = 0; i < 2; i++) {
		run->timer[i] = t1[i] - t0[i];
		run->fcall[i] = f1[i] - f0[i];
		run->irqwork[i] = w1[i] - w0[i];
	}
	kill(spin, SIGKILL);
	waitpid(spin, NULL, 0);
	EXPECT_EQ(0, apmu_write_file(TIME_PCT, old_pct));
	EXPECT_EQ(0, apmu_write_file(MAX_RATE, old_rate));
	f = popen("perf script -i /tmp/pcs-c.data -F time,ip 2>/dev/null", "r");
	ASSERT_TRUE(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %lf:", &t) != 1)
			continue;
		if (first < 0)
			first = t;
		last = t;
		run->samples++;
	}
	pclose(f);
	run->span = last - first;
	TH_LOG("%ld samples over %.3f s, %lu taken by the reader, run %.3f s", run->samples,
	       run->span, run->reads, run->elapsed);
	TH_LOG("cpu0/cpu1: arch_timer %lu/%lu (cpu1 baseline %.0f/s), function-call IPIs %lu/%lu, IRQ-work IPIs %lu/%lu",
	       run->timer[0], run->timer[1], run->tick1, run->fcall[0], run->fcall[1],
	       run->irqwork[0], run->irqwork[1]);
}

/*
 * A fixed-period event gets every sample the reader takes: perf touches such an event at
 * no tick, so CPU N delivers the ring itself each tick. Over 2 s at 200 us that is far
 * more than the 4096-entry ring holds (if delivered only at the end, most would be
 * dropped). Checked exactly, against the model's count of PMPCSR reads (each one a
 * valid sample): every read but one in flight at the removal (dropped, as one taken
 * after the last delivery is) reaches perf.data.
 *
 * How many periods the reader's timer catches is the hrtimer's business, not apmu's: the
 * test asks only for half. Why that cannot flake: under -icount the guest's clock is its
 * executed instructions while a vCPU runs (CPU 1 spins while sampled, so it never warps to
 * host time), so host load slows the run without costing periods; the reader misses one
 * only when CPU 0 keeps interrupts off for 200 us (200000 instructions) of guest time,
 * and then hrtimer_forward_now() skips what it missed. (The former bound, 95% of the
 * periods, asserted exactly that punctuality.)
 */
/* perf record runs take 10 to 20 s in the VM on a loaded host: more than the default 30 */
FIXTURE(rec) {
	int unused;
};

FIXTURE_SETUP(rec)
{
}

FIXTURE_TEARDOWN(rec)
{
}

TEST_F_TIMEOUT(rec, perf_record_fixed_period_every_sample, 120)
{
	struct fixed_run run;
	double periods;

	NEED_UNITS();
	if (system("perf --version >/dev/null 2>&1"))
		SKIP(return, "no perf");
	record_fixed_period(_metadata, "100000", &run);
	periods = run.span / 200e-6 + 1;
	EXPECT_GE(run.span, 2.0);
	EXPECT_LE(run.samples, (long)run.reads);
	EXPECT_GE(run.samples + 1, (long)run.reads);
	EXPECT_GE(run.samples, (long)(periods * 0.5));
	EXPECT_LE(run.samples, (long)(periods * 1.01) + 1);

	/*
	 * The sampled CPU is not interrupted by the reader: while CPU 1 is sampled every
	 * 200 us, its timer interrupts stay at the rate they had just before, spinning
	 * unsampled (its tick; the reader's timer there would add one per read, over 4000
	 * in the run against a bound of 1.5 times the baseline plus 100), and CPU 0 takes
	 * the reader's. Function-call IPIs to CPU 1 are perf's own and the system's (6 to
	 * 61 seen over a run), not one per read: under 2% of the reads. IRQ-work
	 * self-IPIs on CPU 1 (ring-buffer wakeups of perf record) are logged, not
	 * bounded: they follow how often perf record asks to be woken, not apmu.
	 */
	ASSERT_LT(4000, run.reads);
	EXPECT_LE(run.timer[1], (unsigned long)(run.tick1 * run.elapsed * 1.5) + 100);
	EXPECT_GE(run.timer[0], run.reads / 2);
	EXPECT_LT(run.fcall[1] * 50, run.reads);
}

/*
 * Under perf's sample limit (1000 per second, 4 per tick at HZ=250, below the 5000 asked
 * for) the event is throttled at a tick's fifth sample and unthrottled at the next tick:
 * at most the limit reaches perf.data (samples held back must not bypass it), over the
 * whole run (not stuck at the first throttle, nor a backlog of old samples).
 */
TEST_F_TIMEOUT(rec, perf_record_fixed_period_throttled, 120)
{
	struct fixed_run run;
	double rate;

	NEED_UNITS();
	if (system("perf --version >/dev/null 2>&1"))
		SKIP(return, "no perf");
	record_fixed_period(_metadata, "1000", &run);
	rate = run.span > 0 ? run.samples / run.span : 0;
	TH_LOG("%.0f per second, limit 1000", rate);
	/* throttled at one tick, unthrottled at the next: about half the limit gets through */
	EXPECT_GE(run.span, 2.0);
	EXPECT_GE(rate, 250);
	EXPECT_LE(rate, 1100);
	/*
	 * The reader's own work follows perf's limit too, not the 5000 per second asked
	 * for: once throttled it slows to what perf takes per tick, and its timer stops
	 * while the event is throttled. Its external reads (the model's count) and CPU 0's
	 * timer interrupts (its tick, at CPU 1's baseline rate, plus the reader's
	 * callbacks) stay within 1.5 times the limit over the sampled span.
	 */
	TH_LOG("reader: %.0f reads per second sampled", run.reads / run.span);
	EXPECT_LE(run.reads, (unsigned long)(1500 * run.span) + 200);
	EXPECT_LE(run.timer[0],
		  (unsigned long)(run.tick1 * run.elapsed + 1500 * run.span) + 500);
}

/*
 * The reader's rate is bounded by its own cost, whatever perf's limits: with every sample
 * read made to take 300 us (the model's EDPRSR, a slow external bus) against a 100 us
 * period, and perf's CPU-time limit off (its throttling then never slows the reader), the
 * reader's timer interval is at least 4 times its last callback's cost: at most one read
 * per 1.2 ms, not one every 300 us back to back in hard-IRQ context on the reader CPU.
 */
TEST_F_TIMEOUT(rec, reader_rate_bounded_by_its_cost, 120)
{
	unsigned long before, reads = 0;
	char old_rate[32], old_pct[32];
	double t0, span = 0;
	pid_t rec;
	int i;

	NEED_UNITS();
	if (system("perf --version >/dev/null 2>&1"))
		SKIP(return, "no perf");
	ASSERT_EQ(0, apmu_read_file(MAX_RATE, old_rate, sizeof(old_rate)));
	ASSERT_EQ(0, apmu_read_file(TIME_PCT, old_pct, sizeof(old_pct)));
	if (!strcmp(old_pct, "0"))
		snprintf(old_pct, sizeof(old_pct), "25");
	EXPECT_EQ(0, apmu_write_file(MAX_RATE, "100000"));
	EXPECT_EQ(0, apmu_write_file(TIME_PCT, "0"));
	ASSERT_EQ(0, wr(MODEL, 1, "prsr_delay_us", "300"));
	rec = fork();
	if (!rec) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() == 1)
			_exit(1);
		execlp("sh", "sh", "-c",
		       "perf record -q -c 100000 -e apmu_pcs// -C 1 -o /tmp/pcs-cost.data -- sleep 4 >/dev/null 2>&1",
		       (char *)NULL);
		_exit(127);
	}
	/* the event is on once the reader reads */
	before = model_counter(1, "samples");
	for (i = 0; i < 300 && model_counter(1, "samples") == before; i++)
		usleep(50000);
	if (model_counter(1, "samples") != before) {
		before = model_counter(1, "samples");
		t0 = now_s();
		usleep(1000000);
		reads = model_counter(1, "samples") - before;
		span = now_s() - t0;
	}
	if (rec > 0)
		waitpid(rec, NULL, 0);
	EXPECT_EQ(0, wr(MODEL, 1, "prsr_delay_us", "0"));
	EXPECT_EQ(0, apmu_write_file(TIME_PCT, old_pct));
	EXPECT_EQ(0, apmu_write_file(MAX_RATE, old_rate));
	TH_LOG("%lu reads in %.3f s: %.0f per second (bound 833, period asks 10000)",
	       reads, span, span > 0 ? reads / span : 0);
	ASSERT_GT(span, 0.5);
	EXPECT_LE(reads, (unsigned long)(span / 1.2e-3) + 10);
	/* still sampling, at about the bound */
	EXPECT_GE(reads, (unsigned long)(span / 1.2e-3 / 4));
}

static void period_10ms(struct perf_event_attr *a)
{
	a->disabled = 0;
	a->sample_period = 10000000;
}

static void freq_100(struct perf_event_attr *a)
{
	a->disabled = 0;
	a->freq = 1;
	a->sample_freq = 100;	/* 10 ms */
}

/* The reader's PMPCSR reads of CPU 1's model in @us microseconds */
static unsigned long reads_in(unsigned int us)
{
	unsigned long s0 = model_counter(1, "samples");

	usleep(us);
	return model_counter(1, "samples") - s0;
}

/*
 * PERF_EVENT_IOC_PERIOD takes effect: the reader samples at the new period (taken at
 * perf's start(PERF_EF_RELOAD) and the timer re-armed), for a period (-c) event and for
 * a frequency (-F) event, whose ioctl value is the new frequency; and for a disabled
 * event, at its next enable. 10 ms, then 1 ms: 10 times the reads (asked: 5 times).
 * perf's sample-rate limit is raised meanwhile (earlier tests may have made perf lower
 * it, and a frequency above it is EINVAL).
 */
TEST(ioc_period_honoured)
{
	char old_rate[32], old_pct[32];
	unsigned long before, after;
	int type, fd, i;
	pid_t spin;
	uint64_t v;

	NEED_UNITS();
	type = pcs_type();
	ASSERT_LT(0, type);
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
	ASSERT_EQ(0, apmu_read_file(MAX_RATE, old_rate, sizeof(old_rate)));
	ASSERT_EQ(0, apmu_read_file(TIME_PCT, old_pct, sizeof(old_pct)));
	if (!strcmp(old_pct, "0")) {
		snprintf(old_pct, sizeof(old_pct), "25");
		ASSERT_EQ(0, apmu_write_file(TIME_PCT, old_pct));
	}
	EXPECT_EQ(0, apmu_write_file(MAX_RATE, "100000"));
	EXPECT_EQ(0, apmu_write_file(TIME_PCT, "0"));
	spin = spin_on_cpu1();
	ASSERT_LT(0, spin);
	usleep(100000);		/* the spinner is on CPU 1 */
	for (i = 0; i < 3; i++) {
		fd = pcs_open(type, 1, -1, i == 1 ? freq_100 : period_10ms);
		ASSERT_LE(0, fd);
		if (i == 2)
			ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
		before = reads_in(200000);
		v = i == 1 ? 1000 : 1000000;
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
		if (i == 2)
			ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		usleep(20000);
		after = reads_in(200000);
		TH_LOG("%s: %lu reads in 200 ms at 10 ms, %lu at 1 ms",
		       i == 0 ? "period" : i == 1 ? "frequency" : "disabled period", before,
		       after);
		/* disabled: none (one may have been in flight at the disable) */
		if (i == 2)
			EXPECT_GE(1, before);
		EXPECT_LE(25, after);
		EXPECT_GE(after, 5 * before);
		close(fd);
	}
	kill(spin, SIGKILL);
	waitpid(spin, NULL, 0);
	EXPECT_EQ(0, apmu_write_file(TIME_PCT, old_pct));
	EXPECT_EQ(0, apmu_write_file(MAX_RATE, old_rate));
}

/*
 * What interrupts CPU N: an event open and enabled on CPU 1 while root has suspended
 * sampling (opened before root's enable=0) is on CPU 1 and samples nothing; it must not
 * make perf rotate CPU 1's context from its multiplexing hrtimer every jiffy (what a
 * failing add() does). CPU 1 idle: its timer interrupts stay at their idle rate.
 */
TEST_F_TIMEOUT(rec, suspended_event_does_not_interrupt_cpu1, 60)
{
	unsigned long t0[2], t1[2], t2[2];
	int type = pcs_type(), fd;
	double base, during;

	NEED_UNITS();
	ASSERT_LT(0, type);
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
	fd = pcs_open(type, 1, -1, NULL);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, wr(PCS, 1, "enable", "0"));
	ASSERT_EQ(0, irq_counts("arch_timer", t0));
	usleep(1000000);
	ASSERT_EQ(0, irq_counts("arch_timer", t1));
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	usleep(1000000);
	ASSERT_EQ(0, irq_counts("arch_timer", t2));
	close(fd);
	ASSERT_EQ(0, wr(PCS, 1, "enable", "1"));
	base = t1[1] - t0[1];
	during = t2[1] - t1[1];
	TH_LOG("cpu1 arch_timer: %.0f/s idle, %.0f/s with the suspended event enabled",
	       base, during);
	EXPECT_LE(during, base * 1.5 + 25);
}

/* The debug kind in sysfs: kind, no EN to implement or switch, no sample on snapshot */
TEST(debug_kind_files)
{
	char buf[64], path[256];
	struct stat st;
	int cpu;

	NEED_DEBUG_UNITS();
	for (cpu = 0; cpu < 2; cpu++) {
		ASSERT_EQ(0, rd(PCS, cpu, "kind", buf, sizeof(buf)));
		EXPECT_STREQ("debug", buf);
		ASSERT_EQ(0, rd(PCS, cpu, "implemented", buf, sizeof(buf)));
		EXPECT_STREQ("0", buf);
		ASSERT_EQ(0, rd(PCS, cpu, "enable", buf, sizeof(buf)));
		EXPECT_STREQ("0", buf);
		EXPECT_EQ(-EOPNOTSUPP, wr(PCS, cpu, "enable", "1"));
		EXPECT_EQ(-EOPNOTSUPP, wr(PCS, cpu, "enable", "0"));
		pcs_path(path, sizeof(path), PCS, cpu, "sample_on_snapshot");
		EXPECT_EQ(-1, stat(path, &st));
	}
	EXPECT_EQ(0, model_counter(0, "writes"));
}

/* EDPCSR, EDCIDSR and EDVIDSR decoded in the sample file; EDVIDSR.NS, VMID as set */
TEST(debug_sample_decoded)
{
	unsigned long hot = ksym("msleep"), cold = ksym("msleep_interruptible"), pc;
	char buf[256];
	int i, n = 0;

	NEED_DEBUG_UNITS();
	ASSERT_NE(0, hot);
	for (i = 0; i < 4; i++) {
		pc = el1_sample(_metadata, 1);
		n += pc == hot || pc == cold;
	}
	EXPECT_EQ(4, n);
	/* NS=1, HV=1, VMID 5: a guest's */
	ASSERT_EQ(0, wr(MODEL, 1, "vidsr", "0x90000005"));
	ASSERT_EQ(0, rd(PCS, 1, "sample", buf, sizeof(buf)));
	EXPECT_TRUE(strstr(buf, "security=non-secure") != NULL) TH_LOG("%s", buf);
	EXPECT_TRUE(strstr(buf, "vmid=0x5") != NULL) TH_LOG("%s", buf);
	/* NS=0: Secure */
	ASSERT_EQ(0, wr(MODEL, 1, "vidsr", "0x10000000"));
	ASSERT_EQ(0, rd(PCS, 1, "sample", buf, sizeof(buf)));
	EXPECT_TRUE(strstr(buf, "security=secure") != NULL) TH_LOG("%s", buf);
	ASSERT_EQ(0, wr(MODEL, 1, "vidsr", "0x90000000"));
}

/* perf report over a debug-frame unit shows the model's PCs */
TEST(debug_perf_record_report)
{
	NEED_DEBUG_UNITS();
	record_report(_metadata);
}

/* perf record -c 200000 over a debug-frame unit: every EDPCSRlo read reaches perf.data */
TEST_F_TIMEOUT(rec, debug_perf_record_every_sample, 120)
{
	struct fixed_run run;

	NEED_DEBUG_UNITS();
	if (system("perf --version >/dev/null 2>&1"))
		SKIP(return, "no perf");
	record_fixed_period(_metadata, "100000", &run);
	TH_LOG("debug frame: %ld samples in perf.data, %lu EDPCSRlo reads of the model",
	       run.samples, run.reads);
	EXPECT_GE(run.span, 2.0);
	EXPECT_LE(run.samples, (long)run.reads);
	EXPECT_GE(run.samples + 1, (long)run.reads);
	ASSERT_LT(4000, run.reads);
	EXPECT_LE(run.timer[1], (unsigned long)(run.tick1 * run.elapsed * 1.5) + 100);
}

/* Samples in perf.data of a perf record -c 100000 -C 1 over 0.5 s (-1: perf failed) */
static long record_count(void)
{
	char line[256];
	long n = 0;
	FILE *f;

	if (system("perf record -q -c 100000 -e apmu_pcs// -C 1 -o /tmp/pcs-d.data -- sleep 0.5 "
		   ">/tmp/pcs-d-record.txt 2>&1"))
		return -1;
	f = popen("perf script -i /tmp/pcs-d.data -F ip 2>/dev/null", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n++;
	pclose(f);
	return n;
}

/*
 * The core powered down (EDPRSR.PU == 0): the sample file says EAGAIN, perf record gets
 * no sample, and the frame is not read at all (any read would be an error response)
 */
TEST(debug_powered_down_nothing_sampled)
{
	unsigned long reads;
	char buf[256];
	long n;

	NEED_DEBUG_UNITS();
	if (system("perf --version >/dev/null 2>&1"))
		SKIP(return, "no perf");
	ASSERT_EQ(0, wr(MODEL, 1, "powered", "0"));
	reads = model_counter(1, "reads");
	EXPECT_EQ(-EAGAIN, rd(PCS, 1, "sample", buf, sizeof(buf)));
	n = record_count();
	EXPECT_EQ(reads, model_counter(1, "reads"));
	ASSERT_EQ(0, wr(MODEL, 1, "powered", "1"));
	EXPECT_EQ(0, n);
	EXPECT_LT(0, record_count());
}

/* Secure samples (EDVIDSR.NS == 0) are read but never delivered */
TEST(debug_secure_never_delivered)
{
	unsigned long before;
	long n;

	NEED_DEBUG_UNITS();
	if (system("perf --version >/dev/null 2>&1"))
		SKIP(return, "no perf");
	ASSERT_EQ(0, wr(MODEL, 1, "vidsr", "0x10000000"));
	before = model_counter(1, "samples");
	n = record_count();
	EXPECT_LT(before, model_counter(1, "samples"));
	ASSERT_EQ(0, wr(MODEL, 1, "vidsr", "0x90000000"));
	EXPECT_EQ(0, n);
}

TEST(debug_no_violations)
{
	NEED_DEBUG_UNITS();
	EXPECT_EQ(0, model_counter(0, "violations"));
	EXPECT_EQ(0, model_counter(1, "violations"));
}

TEST(no_violations)
{
	NEED_UNITS();
	EXPECT_EQ(0, model_counter(0, "violations"));
	EXPECT_EQ(0, model_counter(1, "violations"));
}

TEST_HARNESS_MAIN
