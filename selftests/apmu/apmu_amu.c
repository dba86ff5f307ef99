// SPDX-License-Identifier: GPL-2.0
/*
 * kselftest for apmu's Activity Monitors unit: /sys/devices/system/cpu/cpuN/amu/ and the
 * apmu_amu perf PMU.
 *
 * With apmu_amu_test.ko loaded (an AMU unit over the register model, default
 * configuration: see drivers/perf/apmu/tests/amu_vmtest.c) the tests check exact values,
 * permissions as root and as an unprivileged user, the write rules, hotplug, and perf.
 * Without it they check what a machine without an AMU shows: no amu/ directory, no PMU.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "apmu_util.h"

#define CPU_DIR		"/sys/devices/system/cpu"
#define MODEL_PARAMS	"/sys/module/apmu_amu_test/parameters"
#define MODEL_DEBUGFS	"/sys/kernel/debug/apmu_amu_test"
/* what perf shows without apmu_amu_test.ko, kept by perf_view_unchanged for the run with it */
#define PERF_VIEW_BASELINE	"/tmp/apmu_amu_perf_view.baseline"
#define AMU_PMU		APMU_SYSFS_PMUS "/apmu_amu"

static bool model_loaded(void)
{
	return access(MODEL_PARAMS, F_OK) == 0;
}

static int amu_path(char *path, size_t len, int cpu, const char *file)
{
	return snprintf(path, len, CPU_DIR "/cpu%d/amu/%s", cpu, file);
}

/* cpuN/amu/@file as a string; 0 or -errno */
static int amu_read(int cpu, const char *file, char *buf, size_t len)
{
	char path[256];

	amu_path(path, sizeof(path), cpu, file);
	return apmu_read_file(path, buf, len);
}

static uint64_t amu_u64(int cpu, const char *file)
{
	char buf[64];

	if (amu_read(cpu, file, buf, sizeof(buf)))
		return UINT64_MAX;
	return strtoull(buf, NULL, 0);
}

/* write @val to cpuN/amu/@file; 0 or -errno (of open or write) */
static int amu_write(int cpu, const char *file, const char *val)
{
	char path[256];

	amu_path(path, sizeof(path), cpu, file);
	return apmu_write_file(path, val);
}

static bool amu_dir(int cpu)
{
	char path[128];

	snprintf(path, sizeof(path), CPU_DIR "/cpu%d/amu", cpu);
	return access(path, F_OK) == 0;
}

static int amu_mode(int cpu, const char *file)
{
	char path[256];
	struct stat st;

	amu_path(path, sizeof(path), cpu, file);
	if (stat(path, &st))
		return -1;
	return st.st_mode & 07777;
}

static int amu_pmu_type(void)
{
	return apmu_pmu_type("apmu_amu");
}

/* A CPU-wide counting event on apmu_amu; the fd, or -errno */
static int amu_open(uint64_t config, int cpu, pid_t pid)
{
	struct perf_event_attr attr = {
		.type = amu_pmu_type(),
		.size = sizeof(attr),
		.config = config,
	};
	int fd = apmu_perf_open(&attr, pid, cpu, -1, 0);

	return fd < 0 ? -errno : fd;
}

static int amu_open_attr(struct perf_event_attr *attr, int cpu)
{
	int fd;

	attr->type = amu_pmu_type();
	attr->size = sizeof(*attr);
	fd = apmu_perf_open(attr, -1, cpu, -1, 0);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return -errno;
}

#define REQUIRE_MODEL()							\
	do {								\
		if (!model_loaded())					\
			SKIP(return, "apmu_amu_test.ko not loaded");	\
	} while (0)

/* Without the model (QEMU has no AMU): no amu/ anywhere, no apmu_amu PMU */
TEST(no_amu_without_model)
{
	int cpu, n = sysconf(_SC_NPROCESSORS_CONF);
	char midr[32] = "?", cpus[64] = "?";

	if (model_loaded())
		SKIP(return, "apmu_amu_test.ko loaded");
	/* apmu registered apmu_amu itself: these CPUs really have an AMU */
	if (access(AMU_PMU, F_OK) == 0) {
		apmu_read_file(CPU_DIR "/cpu0/regs/identification/midr_el1", midr, sizeof(midr));
		apmu_read_file(AMU_PMU "/cpumask", cpus, sizeof(cpus));
		SKIP(return, "real AMU hardware: CPUs %s have an AMU (cpu0 MIDR_EL1 %s)",
		     cpus, midr);
	}
	for (cpu = 0; cpu < n; cpu++)
		EXPECT_FALSE(amu_dir(cpu)) TH_LOG("cpu%d has amu/", cpu);
	EXPECT_NE(0, access(AMU_PMU, F_OK));
}

/* The files each CPU's model implements, with root-only modes */
TEST(files_and_modes)
{
	static const char * const g0[] = {
		"core_cycles", "const_cycles", "inst_retired", "mem_stall_cycles",
	};
	char name[32];
	int i, n;

	REQUIRE_MODEL();
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(0400, amu_mode(0, g0[i])) TH_LOG("cpu0 %s", g0[i]);
		EXPECT_EQ(0400, amu_mode(1, g0[i])) TH_LOG("cpu1 %s", g0[i]);
	}
	/* cpu0: CG1NC = 4, cpu1: CG1NC = 2 */
	for (n = 0; n < 16; n++) {
		int cpu;

		for (cpu = 0; cpu < 2; cpu++) {
			int present = n < (cpu ? 2 : 4);

			snprintf(name, sizeof(name), "aux%d_event", n);
			EXPECT_EQ(present ? 0400 : -1, amu_mode(cpu, name))
				TH_LOG("cpu%d %s", cpu, name);
			snprintf(name, sizeof(name), "aux%d_count", n);
			EXPECT_EQ(present ? 0400 : -1, amu_mode(cpu, name))
				TH_LOG("cpu%d %s", cpu, name);
			snprintf(name, sizeof(name), "aux%d_enable", n);
			EXPECT_EQ(present ? 0600 : -1, amu_mode(cpu, name))
				TH_LOG("cpu%d %s", cpu, name);
		}
	}
}

/* Group 0: 64-bit counts, read on the CPU, moving (the model advances them per read) */
TEST(group0_values)
{
	uint64_t a, b;

	REQUIRE_MODEL();
	a = amu_u64(0, "core_cycles");
	b = amu_u64(0, "core_cycles");
	ASSERT_NE(UINT64_MAX, a);
	EXPECT_GT(a, 1ULL << 32);
	EXPECT_GT(b, a);
	EXPECT_GT(amu_u64(1, "const_cycles"), 1ULL << 32);
	EXPECT_GT(amu_u64(0, "inst_retired"), 1ULL << 35);
	EXPECT_GE(amu_u64(1, "mem_stall_cycles"), 12345);
	EXPECT_LT(amu_u64(1, "mem_stall_cycles"), 1ULL << 32);
}

/* Group 1: each CPU's own event numbers (AMEVTYPER1<n>.evtCount) */
TEST(group1_events)
{
	char buf[32], name[32];
	int n;

	REQUIRE_MODEL();
	for (n = 0; n < 4; n++) {
		snprintf(name, sizeof(name), "aux%d_event", n);
		ASSERT_EQ(0, amu_read(0, name, buf, sizeof(buf)));
		EXPECT_EQ(0x300 + n, strtol(buf, NULL, 16)) TH_LOG("cpu0 %s = %s", name, buf);
		EXPECT_EQ(0, strncmp(buf, "0x", 2));
	}
	for (n = 0; n < 2; n++) {
		snprintf(name, sizeof(name), "aux%d_event", n);
		ASSERT_EQ(0, amu_read(1, name, buf, sizeof(buf)));
		EXPECT_EQ(0x310 + n, strtol(buf, NULL, 16)) TH_LOG("cpu1 %s = %s", name, buf);
	}
}

/* At the highest EL (cpu0): W1S/W1C of bit n only; a disabled counter stands still */
TEST(enable_write_bit_n_only)
{
	char buf[8];

	REQUIRE_MODEL();
	ASSERT_EQ(0, amu_write(0, "aux0_enable", "1"));
	ASSERT_EQ(0, amu_write(0, "aux1_enable", "0"));
	ASSERT_EQ(0, amu_write(0, "aux2_enable", "1"));
	ASSERT_EQ(0, amu_write(0, "aux3_enable", "0"));
	ASSERT_EQ(0, amu_write(0, "aux1_enable", "1\n"));
	amu_read(0, "aux0_enable", buf, sizeof(buf));
	EXPECT_STREQ("1", buf);
	amu_read(0, "aux1_enable", buf, sizeof(buf));
	EXPECT_STREQ("1", buf);
	amu_read(0, "aux2_enable", buf, sizeof(buf));
	EXPECT_STREQ("1", buf);
	amu_read(0, "aux3_enable", buf, sizeof(buf));
	EXPECT_STREQ("0", buf);
	ASSERT_EQ(0, amu_write(0, "aux2_enable", "0"));
	amu_read(0, "aux1_enable", buf, sizeof(buf));
	EXPECT_STREQ("1", buf);
	amu_read(0, "aux2_enable", buf, sizeof(buf));
	EXPECT_STREQ("0", buf);
	/* disabled: the count does not move; enabled: it does */
	EXPECT_EQ(amu_u64(0, "aux2_count"), amu_u64(0, "aux2_count"));
	EXPECT_LT(amu_u64(0, "aux1_count"), amu_u64(0, "aux1_count"));
	ASSERT_EQ(0, amu_write(0, "aux2_enable", "1"));
}

/* Below the highest EL (cpu1: EL3 implemented, kernel at EL2): -EPERM, nothing changes */
TEST(enable_write_eperm_below_highest_el)
{
	char before[8], after[8];

	REQUIRE_MODEL();
	ASSERT_EQ(0, amu_read(1, "aux0_enable", before, sizeof(before)));
	EXPECT_EQ(-EPERM, amu_write(1, "aux0_enable", "0"));
	EXPECT_EQ(-EPERM, amu_write(1, "aux0_enable", "1"));
	EXPECT_EQ(-EPERM, amu_write(1, "aux1_enable", "1"));
	ASSERT_EQ(0, amu_read(1, "aux0_enable", after, sizeof(after)));
	EXPECT_STREQ(before, after);
}

/*
 * Bad values -EINVAL; read-only files -EACCES even for root. Bad for every kernel's
 * kstrtobool(): "enable" is a boolean since it took "e"/"d" (7.2 does, 6.12 does not).
 */
TEST(enable_write_bad)
{
	REQUIRE_MODEL();
	EXPECT_EQ(-EINVAL, amu_write(0, "aux0_enable", "2"));
	EXPECT_EQ(-EINVAL, amu_write(0, "aux0_enable", "maybe"));
	EXPECT_EQ(-EACCES, amu_write(0, "aux0_count", "0"));
	EXPECT_EQ(-EACCES, amu_write(0, "core_cycles", "0"));
	EXPECT_EQ(-ENOENT, amu_write(0, "aux4_enable", "1"));
	EXPECT_EQ(-ENOENT, amu_write(1, "aux2_enable", "1"));
}

/* Root-only: an unprivileged user can neither read nor write */
TEST(unprivileged_denied)
{
	pid_t pid;
	int status;

	REQUIRE_MODEL();
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		char buf[64];

		if (setgid(65534) || setuid(65534))
			_exit(2);
		if (amu_read(0, "core_cycles", buf, sizeof(buf)) != -EACCES)
			_exit(3);
		if (amu_read(0, "aux0_enable", buf, sizeof(buf)) != -EACCES)
			_exit(4);
		if (amu_write(0, "aux0_enable", "0") != -EACCES)
			_exit(5);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * The apmu_amu PMU's sysfs: type, cpumask (no cpus: not a CPU PMU to perf), format/,
 * events/ (amu_inst_retired: not the CPU PMU's inst_retired)
 */
TEST(pmu_sysfs)
{
	char buf[64];

	REQUIRE_MODEL();
	ASSERT_GT(amu_pmu_type(), 0);
	ASSERT_EQ(0, apmu_read_file(AMU_PMU "/cpumask", buf, sizeof(buf)));
	EXPECT_STREQ("0-1", buf);
	EXPECT_NE(0, access(AMU_PMU "/cpus", F_OK));
	EXPECT_NE(0, access(AMU_PMU "/events/inst_retired", F_OK));
	ASSERT_EQ(0, apmu_read_file(AMU_PMU "/events/amu_inst_retired", buf, sizeof(buf)));
	EXPECT_STREQ("group=0,counter=2", buf);
	ASSERT_EQ(0, apmu_read_file(AMU_PMU "/format/counter", buf, sizeof(buf)));
	EXPECT_STREQ("config:0-3", buf);
	ASSERT_EQ(0, apmu_read_file(AMU_PMU "/format/group", buf, sizeof(buf)));
	EXPECT_STREQ("config:8", buf);
	ASSERT_EQ(0, apmu_read_file(AMU_PMU "/events/core_cycles", buf, sizeof(buf)));
	EXPECT_STREQ("group=0,counter=0", buf);
	ASSERT_EQ(0, apmu_read_file(AMU_PMU "/events/mem_stall_cycles", buf, sizeof(buf)));
	EXPECT_STREQ("group=0,counter=3", buf);
	ASSERT_EQ(0, apmu_read_file(AMU_PMU "/events/aux3", buf, sizeof(buf)));
	EXPECT_STREQ("group=1,counter=3", buf);
	EXPECT_NE(0, access(AMU_PMU "/events/aux4", F_OK));
}

/* CPU-wide counting: deltas of the free-running counters */
TEST(pmu_counts_cpu_wide)
{
	uint64_t v0 = 0, v1 = 0, v2 = 0;
	int fd0, fd1, fd2;

	REQUIRE_MODEL();
	ASSERT_EQ(0, amu_write(0, "aux3_enable", "0"));
	fd0 = amu_open(0, 0, -1);			/* core_cycles */
	fd1 = amu_open(0x100 | 0, 0, -1);		/* aux0, enabled */
	fd2 = amu_open(0x100 | 3, 0, -1);		/* aux3, disabled */
	ASSERT_GE(fd0, 0) TH_LOG("open core_cycles: %s", strerror(-fd0));
	ASSERT_GE(fd1, 0);
	ASSERT_GE(fd2, 0);
	usleep(20000);
	ASSERT_EQ(sizeof(v0), read(fd0, &v0, sizeof(v0)));
	ASSERT_EQ(sizeof(v1), read(fd1, &v1, sizeof(v1)));
	ASSERT_EQ(sizeof(v2), read(fd2, &v2, sizeof(v2)));
	EXPECT_GT(v0, 0);
	EXPECT_LT(v0, 1ULL << 32);	/* a delta, not the raw counter */
	EXPECT_GT(v1, 0);
	EXPECT_EQ(0, v2);
	close(fd0);
	close(fd1);
	close(fd2);
}

/* Each refusal with its errno */
TEST(pmu_errnos)
{
	struct perf_event_attr attr;

	REQUIRE_MODEL();
	EXPECT_EQ(-EOPNOTSUPP, amu_open(0, -1, 0));		/* per task */
	EXPECT_EQ(-EINVAL, amu_open(0x10, 0, -1));		/* unknown config bits */
	EXPECT_EQ(-EINVAL, amu_open(0x100 | 2, 1, -1));		/* cpu1: CG1NC = 2 */
	EXPECT_EQ(-EINVAL, amu_open(4, 0, -1));			/* group 0 has 4 */
	memset(&attr, 0, sizeof(attr));
	attr.config1 = 1;
	EXPECT_EQ(-EINVAL, amu_open_attr(&attr, 0));
	memset(&attr, 0, sizeof(attr));
	attr.config3 = 1;	/* the model half runs on the test kernel, 6.12: config3 exists */
	EXPECT_EQ(-EINVAL, amu_open_attr(&attr, 0));
	memset(&attr, 0, sizeof(attr));
	attr.sample_period = 100000;
	EXPECT_EQ(-EOPNOTSUPP, amu_open_attr(&attr, 0));
	memset(&attr, 0, sizeof(attr));
	attr.exclude_kernel = 1;
	EXPECT_EQ(-EOPNOTSUPP, amu_open_attr(&attr, 0));
	memset(&attr, 0, sizeof(attr));
	attr.exclude_user = 1;
	EXPECT_EQ(-EOPNOTSUPP, amu_open_attr(&attr, 0));
	memset(&attr, 0, sizeof(attr));
	attr.exclude_hv = 1;
	EXPECT_EQ(-EOPNOTSUPP, amu_open_attr(&attr, 0));
	memset(&attr, 0, sizeof(attr));
	attr.exclude_idle = 1;
	EXPECT_EQ(-EOPNOTSUPP, amu_open_attr(&attr, 0));
	memset(&attr, 0, sizeof(attr));
	attr.exclude_guest = 1;
	EXPECT_EQ(-EINVAL, amu_open_attr(&attr, 0));
}

/* Debian's perf: perf stat -a over apmu_amu events by name, and without -a */
TEST(perf_stat_tool)
{
	char line[256];
	int core = 0, aux = 0;
	FILE *f;

	REQUIRE_MODEL();
	if (system("perf --version >/dev/null 2>&1"))
		SKIP(return, "no perf tool");
	ASSERT_EQ(0, system("perf stat -a -x, -o /tmp/amu_stat.txt "
			    "-e apmu_amu/core_cycles/,apmu_amu/aux0/ -- sleep 0.05"));
	f = fopen("/tmp/amu_stat.txt", "r");
	ASSERT_TRUE(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			TH_LOG("%s", line);
		if (strstr(line, ",apmu_amu/core_cycles/") && atoll(line) > 0)
			core = 1;
		if (strstr(line, ",apmu_amu/aux0/") && atoll(line) > 0)
			aux = 1;
	}
	fclose(f);
	EXPECT_TRUE(core);
	EXPECT_TRUE(aux);
	/*
	 * Without -a: perf takes a PMU with a cpumask (uncore) as CPU-wide, and counts on
	 * its CPUs while the command runs (the kernel refuses per-task AMU events:
	 * pmu_errnos)
	 */
	ASSERT_EQ(0, system("perf stat -x, -o /tmp/amu_task.txt "
			    "-e apmu_amu/core_cycles/ -- sleep 0.01"));
	f = fopen("/tmp/amu_task.txt", "r");
	ASSERT_TRUE(f != NULL);
	core = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			TH_LOG("%s", line);
		if (strstr(line, ",apmu_amu/core_cycles/") && atoll(line) > 0)
			core = 1;
	}
	fclose(f);
	EXPECT_TRUE(core);
}

/* perf stat -a with cpu1 offline: the PMU's cpumask follows, so perf opens on cpu0 only */
TEST(perf_stat_cpu_offline)
{
	char line[256], cpus[64];
	int core = 0, ret;
	FILE *f;

	REQUIRE_MODEL();
	if (system("perf --version >/dev/null 2>&1"))
		SKIP(return, "no perf tool");
	if (access(CPU_DIR "/cpu1/online", W_OK))
		SKIP(return, "cpu1 cannot be offlined");
	ASSERT_EQ(0, apmu_read_file(AMU_PMU "/cpumask", cpus, sizeof(cpus)));
	EXPECT_STREQ("0-1", cpus);
	ASSERT_EQ(0, apmu_set_online(1, 0));
	ASSERT_EQ(0, apmu_read_file(AMU_PMU "/cpumask", cpus, sizeof(cpus)));
	EXPECT_STREQ("0", cpus);
	ret = system("perf stat -a -x, -o /tmp/amu_off.txt "
		     "-e apmu_amu/core_cycles/ -- sleep 0.1");
	f = fopen("/tmp/amu_off.txt", "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			TH_LOG("%s", line);
		if (strstr(line, ",apmu_amu/core_cycles/") && atoll(line) > 0)
			core = 1;
	}
	if (f)
		fclose(f);
	EXPECT_EQ(0, apmu_set_online(1, 1));
	EXPECT_EQ(0, ret);
	EXPECT_TRUE(core) TH_LOG("perf stat -a did not count with cpu1 offline");
	ASSERT_EQ(0, apmu_read_file(AMU_PMU "/cpumask", cpus, sizeof(cpus)));
	EXPECT_STREQ("0-1", cpus);
}

/* Hotplug: cpuN/amu goes and comes with the CPU; a CPU without an AMU has none */
TEST(hotplug_and_absent_cpu)
{
	REQUIRE_MODEL();
	if (access(CPU_DIR "/cpu1/online", W_OK))
		SKIP(return, "cpu1 cannot be offlined");
	ASSERT_TRUE(amu_dir(1));
	ASSERT_EQ(0, apmu_set_online(1, 0));
	EXPECT_FALSE(amu_dir(1));
	/* cpu1 loses its AMU (ID_AA64PFR0_EL1.AMU = 0) while offline */
	ASSERT_EQ(0, apmu_write_file(MODEL_PARAMS "/amu", "1,0"));
	ASSERT_EQ(0, apmu_set_online(1, 1));
	EXPECT_FALSE(amu_dir(1));
	EXPECT_TRUE(amu_dir(0));
	EXPECT_EQ(-ENODEV, amu_open(0, 1, -1));
	/* and gets it back */
	ASSERT_EQ(0, apmu_set_online(1, 0));
	ASSERT_EQ(0, apmu_write_file(MODEL_PARAMS "/amu", "1,1"));
	ASSERT_EQ(0, apmu_set_online(1, 1));
	EXPECT_TRUE(amu_dir(1));
	EXPECT_EQ(0400, amu_mode(1, "core_cycles"));
	EXPECT_EQ(-1, amu_mode(1, "aux2_event"));
}

/* The model saw no access the architecture or apmu's rules forbid */
/* debugfs of the test module: CPU N's pm_cycle or advance; 0 or -errno */
static int model_cpu_write(int cpu, const char *file, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), MODEL_DEBUGFS "/cpu%d/%s", cpu, file);
	return apmu_write_file(path, val);
}

static int model_advance(int cpu, uint64_t k)
{
	char val[32];

	snprintf(val, sizeof(val), "%" PRIu64, k);
	return model_cpu_write(cpu, "advance", val);
}

static uint64_t amu_count(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return UINT64_MAX;
	return v;
}

/*
 * Counters that move only when told (step = 0), aux0 and aux1 of cpu0 enabled: the state
 * the power-cycle tests start from. Returns 0, or -errno with the reason in @why.
 */
static int pm_setup(const char **why)
{
	if (access(MODEL_DEBUGFS "/cpu0/pm_cycle", F_OK)) {
		*why = "no " MODEL_DEBUGFS "/cpu0/pm_cycle (debugfs, or an older apmu_amu_test.ko)";
		return -ENOENT;
	}
	if (apmu_write_file(MODEL_PARAMS "/step", "0") || amu_write(0, "aux0_enable", "1") ||
	    amu_write(0, "aux1_enable", "1")) {
		*why = "cannot set the model up";
		return -EIO;
	}
	return 0;
}

/*
 * A power-down idle state of cpu0 through the kernel's real cpu_pm_enter()/cpu_pm_exit()
 * (the test module's pm_cycle), the AMU reset in between: perf counts go on exactly (no
 * count before the reset lost, a counter that climbs past the old value after it taken
 * for what it is), and the group-1 enables apmu may write come back
 */
TEST(pm_cycle_keeps_counts_and_enables)
{
	uint64_t want = 0, v, big = 1ULL << 41;
	const char *why = "";
	char buf[8];
	int fd0, fd1, fd2, i, ret;

	REQUIRE_MODEL();
	if (pm_setup(&why))
		SKIP(return, "%s", why);
	fd0 = amu_open(0, 0, -1);		/* core_cycles */
	fd1 = amu_open(0x100 | 0, 0, -1);	/* aux0 */
	fd2 = amu_open(0x100 | 1, 0, -1);	/* aux1 */
	ASSERT_GE(fd0, 0);
	ASSERT_GE(fd1, 0);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, model_advance(0, 100));
	want += 100;
	ret = model_cpu_write(0, "pm_cycle", "1");
	if (ret == -EOPNOTSUPP) {
		apmu_write_file(MODEL_PARAMS "/step", "1");
		SKIP(return, "kernel without CONFIG_CPU_PM: no CPU PM notifications");
	}
	ASSERT_EQ(0, ret);
	/* the AMU was reset: sysfs shows the raw counter, restarted from 0 */
	EXPECT_EQ(0, amu_u64(0, "core_cycles"));
	ASSERT_EQ(0, amu_read(0, "aux0_enable", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf) TH_LOG("aux0_enable not restored after the power cycle");
	ASSERT_EQ(0, amu_read(0, "aux1_enable", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf) TH_LOG("aux1_enable not restored after the power cycle");
	ASSERT_EQ(0, model_advance(0, 50));
	want += 50;
	EXPECT_EQ(50, amu_u64(0, "core_cycles"));
	EXPECT_EQ(50, amu_u64(0, "aux1_count"));
	/* several power-downs between two reads */
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, model_cpu_write(0, "pm_cycle", "1"));
		ASSERT_EQ(0, model_advance(0, 7 + i));
		want += 7 + i;
	}
	/* then one after which the counter climbs past its value before the reset */
	ASSERT_EQ(0, model_cpu_write(0, "pm_cycle", "1"));
	ASSERT_EQ(0, model_advance(0, big));
	want += big;
	v = amu_count(fd0);
	EXPECT_EQ(want, v) TH_LOG("core_cycles counted %" PRIu64 ", want %" PRIu64, v, want);
	v = amu_count(fd1);
	EXPECT_EQ(want, v) TH_LOG("aux0 counted %" PRIu64 ", want %" PRIu64, v, want);
	v = amu_count(fd2);
	EXPECT_EQ(want, v) TH_LOG("aux1 counted %" PRIu64 ", want %" PRIu64, v, want);
	close(fd0);
	close(fd1);
	close(fd2);
	EXPECT_EQ(0, apmu_write_file(MODEL_PARAMS "/step", "1"));
}

/*
 * Hotplug resets the AMU too (the test module power-cycles a dead CPU): a CPU whose
 * enables apmu may write (cpu1 made EL2-highest while offline) gets them back at online
 */
TEST(hotplug_restores_aux_enable)
{
	char buf[8];

	REQUIRE_MODEL();
	if (access(CPU_DIR "/cpu1/online", W_OK))
		SKIP(return, "cpu1 cannot be offlined");
	ASSERT_EQ(0, apmu_set_online(1, 0));
	ASSERT_EQ(0, apmu_write_file(MODEL_PARAMS "/el3", "0,0"));
	ASSERT_EQ(0, apmu_set_online(1, 1));
	ASSERT_EQ(0, amu_write(1, "aux1_enable", "1"));
	ASSERT_EQ(0, amu_write(1, "aux0_enable", "0"));
	ASSERT_EQ(0, apmu_set_online(1, 0));
	ASSERT_EQ(0, apmu_set_online(1, 1));
	ASSERT_EQ(0, amu_read(1, "aux1_enable", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf) TH_LOG("aux1_enable not restored at online");
	ASSERT_EQ(0, amu_read(1, "aux0_enable", buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);
	/* back to the default: EL3 on cpu1, enables read-only there */
	ASSERT_EQ(0, apmu_set_online(1, 0));
	ASSERT_EQ(0, apmu_write_file(MODEL_PARAMS "/el3", "0,1"));
	ASSERT_EQ(0, apmu_set_online(1, 1));
	EXPECT_EQ(-EPERM, amu_write(1, "aux1_enable", "1"));
}

/* A group-0 counter firmware left disabled (AMCNTENSET0_EL0.P<n> == 0) is not offered */
TEST(group0_disabled_by_firmware_hidden)
{
	REQUIRE_MODEL();
	if (access(CPU_DIR "/cpu1/online", W_OK))
		SKIP(return, "cpu1 cannot be offlined");
	if (access(MODEL_PARAMS "/en0", F_OK))
		SKIP(return, "apmu_amu_test.ko without the en0 parameter");
	ASSERT_EQ(0, apmu_set_online(1, 0));
	ASSERT_EQ(0, apmu_write_file(MODEL_PARAMS "/en0", "15,7"));
	ASSERT_EQ(0, apmu_set_online(1, 1));
	EXPECT_EQ(-1, amu_mode(1, "mem_stall_cycles"));
	EXPECT_EQ(0400, amu_mode(1, "inst_retired"));
	EXPECT_EQ(0400, amu_mode(0, "mem_stall_cycles"));
	EXPECT_EQ(-EINVAL, amu_open(3, 1, -1));
	EXPECT_EQ(0, close(amu_open(3, 0, -1)));
	ASSERT_EQ(0, apmu_set_online(1, 0));
	ASSERT_EQ(0, apmu_write_file(MODEL_PARAMS "/en0", "15,15"));
	ASSERT_EQ(0, apmu_set_online(1, 1));
	EXPECT_EQ(0400, amu_mode(1, "mem_stall_cycles"));
}

/*
 * What perf shows of the CPU PMU: `perf list hw cache`, and `perf stat -v -a` of cycles and
 * inst_retired: the PMUs each event name resolves to ("inst_retired -> pmu/.../", which
 * perf then sums into one line), event names and units (counts and times vary, and the
 * per-CPU lines of -v are left out). Returns a malloc'd string.
 */
static char *perf_view(void)
{
	static const char * const cmds[] = {
		"perf list hw cache 2>&1",
		"perf stat -v -a -x, -e cycles -- sleep 0.01 2>&1 >/dev/null",
		"perf stat -v -a -x, -e inst_retired -- sleep 0.01 2>&1 >/dev/null",
	};
	size_t len = 0, cap = 1 << 16;
	char *out = calloc(1, cap), line[512];
	unsigned int i;

	if (!out)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		FILE *f = popen(cmds[i], "r");

		len += snprintf(out + len, cap - len, "$ %s\n", cmds[i]);
		while (f && fgets(line, sizeof(line), f) && len < cap - 1024) {
			char *p = line, *unit, *ev, *end;

			if (!i || strstr(p, " -> ")) {
				len += snprintf(out + len, cap - len, "%s", p);
				continue;
			}
			/* perf stat -x, results: the unit and the event, not the count */
			if (!isdigit((unsigned char)*p) && *p != '<')
				continue;
			unit = strchr(p, ',');
			ev = unit ? strchr(unit + 1, ',') : NULL;
			end = ev ? strchr(ev + 1, ',') : NULL;
			if (!end)
				continue;
			*end = '\0';
			len += snprintf(out + len, cap - len, "<n>%s\n", unit);
		}
		if (f)
			pclose(f);
	}
	return out;
}

/*
 * apmu_amu is an uncore-style PMU (a cpumask file, no cpus): perf must not take it for a
 * CPU PMU, and none of its event names may be one of the CPU PMU's. Run without the model
 * (after apmu.ko alone: scripts/vm/lib.sh's sec_amu) it keeps perf's view as a baseline;
 * with the model, it compares
 */
TEST(perf_view_unchanged)
{
	char *view, *base;
	FILE *f;
	long n;

	if (system("perf --version >/dev/null 2>&1"))
		SKIP(return, "no perf tool");
	view = perf_view();
	ASSERT_TRUE(view != NULL);
	if (!model_loaded() && access(AMU_PMU, F_OK)) {
		f = fopen(PERF_VIEW_BASELINE, "w");
		ASSERT_TRUE(f != NULL);
		fputs(view, f);
		fclose(f);
		free(view);
		return;
	}
	EXPECT_EQ(0, access(AMU_PMU "/cpumask", F_OK));
	EXPECT_NE(0, access(AMU_PMU "/cpus", F_OK));
	f = fopen(PERF_VIEW_BASELINE, "r");
	if (!f) {
		free(view);
		SKIP(return, "no baseline: run this test once without apmu_amu_test.ko first");
	}
	base = calloc(1, 1 << 16);
	ASSERT_TRUE(base != NULL);
	n = fread(base, 1, (1 << 16) - 1, f);
	fclose(f);
	ASSERT_GE(n, 0);
	EXPECT_STREQ(base, view) TH_LOG("perf's view changed with apmu_amu:\n%s", view);
	free(base);
	free(view);
}

TEST(model_no_violations)
{
	char buf[200];

	REQUIRE_MODEL();
	ASSERT_EQ(0, apmu_read_file(MODEL_PARAMS "/violations", buf, sizeof(buf)));
	if (strcmp(buf, "0")) {
		apmu_read_file(MODEL_PARAMS "/why", buf, sizeof(buf));
		TH_LOG("first violation: %s", buf);
	}
	EXPECT_STREQ("0", buf);
}

TEST_HARNESS_MAIN
