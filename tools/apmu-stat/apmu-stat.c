// SPDX-License-Identifier: GPL-2.0
/*
 * apmu-stat: what the Activity Monitors (FEAT_AMUv1) say each CPU did, every interval:
 * the frequency it really ran at, what cpufreq set, instructions per cycle and the share
 * of cycles stalled on memory, from the files apmu shows in
 * /sys/devices/system/cpu/cpuN/amu/ (Documentation/ABI/testing/sysfs-devices-system-cpu-amu).
 *
 *	Avg_MHz = d(core_cycles) / d(const_cycles) * CNTFRQ_EL0 / 10^6
 *	IPC     = d(inst_retired) / d(core_cycles)
 *	Stall%  = 100 * d(mem_stall_cycles) / d(core_cycles)
 *
 * AMEVCNTR0<1>_EL0 (const_cycles) counts at the system counter's frequency, which
 * CNTFRQ_EL0 holds (readable at EL0: CNTKCTL_EL1 does not gate it). No AMU counter
 * counts in WFI or WFE, so Avg_MHz is the frequency while the core ran, as the kernel's
 * cpuinfo_avg_freq, and a core whose cycles did not advance is shown as "idle".
 *
 * Exit status: 0 done; 1 usage; 2 no AMU; 3 a counter every column needs (core_cycles)
 * not offered (not enabled by firmware) on a CPU -c names, or on every CPU with an AMU;
 * 4 permission denied (the files are root-only); 5 any other error.
 * Documentation/admin-guide/perf/apmu.rst, "apmu-stat".
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EXIT_USAGE	1
#define EXIT_NO_AMU	2
#define EXIT_NOT_ENABLED 3
#define EXIT_PERM	4
#define EXIT_ERROR	5

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define CPU_DIR		"/sys/devices/system/cpu"
#define MAX_CPUS	4096

enum { C_CORE, C_CONST, C_INST, C_STALL, NR_CNT };

static const char * const cnt_file[NR_CNT] = {
	"core_cycles", "const_cycles", "inst_retired", "mem_stall_cycles",
};

/* MIDR_EL1 fields (Arm ARM D23.2.122) */
#define MIDR_REVISION(m)	((m) & 0xf)
#define MIDR_PARTNUM(m)		(((m) >> 4) & 0xfff)
#define MIDR_VARIANT(m)		(((m) >> 20) & 0xf)
#define MIDR_IMPLEMENTER(m)	(((m) >> 24) & 0xff)
#define MIDR_IMP_ARM		0x41

/*
 * Cores whose constant-frequency counter AMEVCNTR0<1> counts wrongly: the kernel's
 * ARM64_WORKAROUND_BROKEN_AMU_CONSTCNT list (arch/arm64/kernel/cpu_errata.c, 7.2), by
 * MIDR variant/revision range. The kernel then never uses it (no frequency invariance
 * from the AMU, no cpuinfo_avg_freq) and apmu does not offer const_cycles; apmu-stat
 * refuses it too, even where a kernel built without the workaround would show it.
 */
struct amu_erratum {
	unsigned int partnum;
	unsigned int rv_min, rv_max;	/* variant << 4 | revision */
	const char *what;
};

static const struct amu_erratum const_errata[] = {
	{ 0xd46, 0x00, 0x11, "Cortex-A510 r0p0-r1p1 erratum 2457168" },
	{ 0xd87, 0x00, 0x02, "Cortex-A725 r0p0-r0p2 erratum 3821522" },
};

/* the erratum that makes @midr's constant counter unusable, or NULL */
static const char *const_erratum(uint64_t midr)
{
	unsigned int rv = MIDR_VARIANT(midr) << 4 | MIDR_REVISION(midr);
	size_t i;

	if (MIDR_IMPLEMENTER(midr) != MIDR_IMP_ARM)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(const_errata); i++)
		if (MIDR_PARTNUM(midr) == const_errata[i].partnum &&
		    rv >= const_errata[i].rv_min && rv <= const_errata[i].rv_max)
			return const_errata[i].what;
	return NULL;
}

/* CNTFRQ_EL0: the system counter's frequency, at which AMEVCNTR0<1> counts */
#ifdef __aarch64__
#define CNTFRQ_NONE	"reads 0 (firmware did not set the system counter's frequency)"

static uint64_t read_cntfrq(void)
{
	uint64_t f;

	asm volatile("mrs %0, cntfrq_el0" : "=r" (f));
	return f;
}
#elif defined(__arm__)
#define CNTFRQ_NONE	"reads 0 (firmware did not set the system counter's frequency)"

/* CNTFRQ, the AArch32 view of the same register (MRC p15, 0, <Rt>, c14, c0, 0) */
static uint64_t read_cntfrq(void)
{
	uint32_t f;

	asm volatile("mrc p15, 0, %0, c14, c0, 0" : "=r" (f));
	return f;
}
#else
#define CNTFRQ_NONE	"not readable (not an Arm build)"

static uint64_t read_cntfrq(void)
{
	return 0;
}
#endif

enum row_state { ROW_OK, ROW_IDLE, ROW_RESET, ROW_OFFLINE };

static const char * const state_name[] = { "ok", "idle", "reset", "offline" };

/**
 * struct row - one CPU's (or the summary's) derived values for one interval
 * @state: %ROW_OK, or why there are no values: %ROW_IDLE (core cycles did not advance),
 *	%ROW_RESET (a counter went back: an AMU reset, core power-down or hotplug),
 *	%ROW_OFFLINE (the files could not be read)
 * @have: a bit per counter whose delta is in @d
 * @d: counter deltas over the interval
 * @mhz: Avg_MHz, valid when @mhz_ok
 * @ipc: IPC, valid when @ipc_ok
 * @stall: Stall%, valid when @stall_ok
 * @mhz_ok: @mhz is valid
 * @ipc_ok: @ipc is valid
 * @stall_ok: @stall is valid
 */
struct row {
	enum row_state state;
	unsigned int have;
	uint64_t d[NR_CNT];
	double mhz, ipc, stall;
	bool mhz_ok, ipc_ok, stall_ok;
};

/*
 * The derived values of @r from its deltas. The constant counter is used only when it is
 * in @r->have (offered and not erratum-broken) and the frequency it counts at is known.
 */
static void row_compute(struct row *r, uint64_t cntfrq)
{
	r->mhz_ok = false;
	r->ipc_ok = false;
	r->stall_ok = false;
	if (r->state != ROW_OK)
		return;
	if (!(r->have & 1u << C_CORE) || !r->d[C_CORE]) {
		r->state = ROW_IDLE;
		return;
	}
	if ((r->have & 1u << C_CONST) && r->d[C_CONST] && cntfrq) {
		r->mhz = (double)r->d[C_CORE] / (double)r->d[C_CONST] * (double)cntfrq / 1e6;
		r->mhz_ok = true;
	}
	if (r->have & 1u << C_INST) {
		r->ipc = (double)r->d[C_INST] / (double)r->d[C_CORE];
		r->ipc_ok = true;
	}
	if (r->have & 1u << C_STALL) {
		r->stall = 100.0 * (double)r->d[C_STALL] / (double)r->d[C_CORE];
		r->stall_ok = true;
	}
}

/*
 * The summary of @n rows: the counters summed over the CPUs that ran, so each CPU weighs
 * by its cycles (Avg_MHz: by the time it ran). A counter is summed only if every such
 * CPU has it. When none ran: idle if one was idle, else reset or offline as they were.
 */
static void row_sum(struct row *sum, const struct row *rows, int n, uint64_t cntfrq)
{
	enum row_state none = ROW_OFFLINE;
	unsigned int have = (1u << NR_CNT) - 1;
	int i, c, ran = 0;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < n; i++) {
		if (rows[i].state == ROW_IDLE || (rows[i].state == ROW_RESET && none != ROW_IDLE))
			none = rows[i].state;
		if (rows[i].state != ROW_OK)
			continue;
		ran++;
		have &= rows[i].have;
		for (c = 0; c < NR_CNT; c++)
			sum->d[c] += rows[i].d[c];
	}
	sum->have = have;
	sum->state = ran ? ROW_OK : none;
	row_compute(sum, cntfrq);
}

/* "0-3,5,7-8" into @set (MAX_CPUS entries); 0, or -1 on a malformed list */
static int parse_cpulist(const char *s, bool *set)
{
	const char *p = s;
	unsigned long a, b;
	char *end;

	if (!*p)
		return -1;
	for (;;) {
		if (*p < '0' || *p > '9')
			return -1;
		a = strtoul(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				return -1;
			b = strtoul(p, &end, 10);
			p = end;
		}
		if (a > b || b >= MAX_CPUS)
			return -1;
		while (a <= b)
			set[a++] = true;
		if (*p == '\n' && !p[1])
			return 0;
		if (!*p)
			return 0;
		if (*p++ != ',')
			return -1;
	}
}

/* the first line of @path into @buf; 0 or -errno */
static int read_line(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* an unsigned number (decimal, or hexadecimal with 0x) from @path; 0 or -errno */
static int read_u64(const char *path, uint64_t *val)
{
	char buf[64], *end;
	int ret;

	ret = read_line(path, buf, sizeof(buf));
	if (ret)
		return ret;
	errno = 0;
	*val = strtoull(buf, &end, 0);
	if (errno || end == buf || *end)
		return -EINVAL;
	return 0;
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/**
 * struct cpu - one CPU shown
 * @cpu: its number
 * @have: a bit per counter used: its file exists and, for const_cycles, no erratum
 * @erratum: the erratum that makes its constant counter unusable, or NULL
 * @prev_ok: @prev holds the previous sample
 * @prev: the counters at the previous sample
 * @row: this interval's values
 */
struct cpu {
	int cpu;
	unsigned int have;
	const char *erratum;
	bool prev_ok;
	uint64_t prev[NR_CNT];
	struct row row;
};

enum fmt { FMT_TABLE, FMT_CSV, FMT_JSON };

static struct cpu *cpus;
static int nr_cpus;
static uint64_t cntfrq;
static enum fmt fmt = FMT_TABLE;
static const char *prog = "apmu-stat";

static void amu_path(char *buf, size_t size, int cpu, const char *file)
{
	snprintf(buf, size, CPU_DIR "/cpu%d/amu/%s", cpu, file);
}

static int fail_read(int cpu, const char *file, int err)
{
	if (err == -EACCES || err == -EPERM) {
		fprintf(stderr,
			"%s: cpu%d/amu/%s: %s: the AMU files are root-only (mode 0400: AMU counts show what every context does on the CPU); run apmu-stat as root\n",
			prog, cpu, file, strerror(-err));
		return EXIT_PERM;
	}
	fprintf(stderr, "%s: cpu%d/amu/%s: %s\n", prog, cpu, file, strerror(-err));
	return EXIT_ERROR;
}

/*
 * Take one sample of every CPU shown and, with the previous one, its row. A CPU whose
 * files cannot be read (gone offline: its amu/ goes with it, or -ENXIO from a read that
 * raced with the CPU going down) is shown offline; any other read error ends the program.
 * The counters of a CPU are read one file after another, in the same order every
 * interval, so each delta spans an interval of the same length, shifted by the few
 * microseconds between the reads.
 */
static int sample(bool first)
{
	char path[128];
	uint64_t v[NR_CNT];
	int i, c, ret;

	for (i = 0; i < nr_cpus; i++) {
		struct cpu *p = &cpus[i];
		struct row *r = &p->row;

		memset(r, 0, sizeof(*r));
		memset(v, 0, sizeof(v));
		r->state = ROW_OK;
		r->have = p->have;
		for (c = 0; c < NR_CNT; c++) {
			if (!(p->have & 1u << c))
				continue;
			amu_path(path, sizeof(path), p->cpu, cnt_file[c]);
			ret = read_u64(path, &v[c]);
			if (ret == -ENOENT || ret == -ENODEV || ret == -ENXIO) {
				r->state = ROW_OFFLINE;
				break;
			}
			if (ret)
				return fail_read(p->cpu, cnt_file[c], ret);
		}
		if (r->state == ROW_OFFLINE) {
			p->prev_ok = false;
			continue;
		}
		if (!first && !p->prev_ok)
			r->state = ROW_OFFLINE;
		for (c = 0; c < NR_CNT && r->state == ROW_OK; c++) {
			if (!(p->have & 1u << c))
				continue;
			/* 64-bit counters: lower than before means an AMU reset, not a wrap */
			if (v[c] < p->prev[c])
				r->state = ROW_RESET;
			r->d[c] = v[c] - p->prev[c];
		}
		memcpy(p->prev, v, sizeof(v));
		p->prev_ok = true;
		row_compute(r, cntfrq);
	}
	return 0;
}

/* cpufreq's view of @cpu, in MHz, as text: "-" where there is none */
struct freq_text {
	char cur[16], req[16], kern[16];
};

static void khz_text(char *buf, size_t size, const char *path, bool eagain_idle)
{
	uint64_t khz;
	int ret;

	ret = read_u64(path, &khz);
	if (!ret)
		snprintf(buf, size, "%.0f", khz / 1e3);
	else if (ret == -EAGAIN && eagain_idle)
		snprintf(buf, size, "idle");
	else
		snprintf(buf, size, "-");
}

static void freq_text(struct freq_text *f, int cpu)
{
	char path[128];

	snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpufreq/scaling_cur_freq", cpu);
	khz_text(f->cur, sizeof(f->cur), path, false);
	/* a number only under the userspace governor ("<unsupported>" otherwise) */
	snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpufreq/scaling_setspeed", cpu);
	khz_text(f->req, sizeof(f->req), path, false);
	/* the kernel's own AMU estimate (Linux 6.15 and later): EAGAIN when idle */
	snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpufreq/cpuinfo_avg_freq", cpu);
	khz_text(f->kern, sizeof(f->kern), path, true);
}

/* a derived value as text: its number, "idle"/"reset"/"offline", or "-" (or "" in CSV) */
static void val_text(char *buf, size_t size, const struct row *r, bool ok, double v,
		     const char *fmtstr)
{
	if (r->state != ROW_OK)
		snprintf(buf, size, "%s", state_name[r->state]);
	else if (ok)
		snprintf(buf, size, fmtstr, v);
	else
		snprintf(buf, size, "%s", fmt == FMT_TABLE ? "-" : "");
}

static void print_row_table(const char *name, const struct row *r, const struct freq_text *f)
{
	char mhz[16], ipc[16], stall[16];

	val_text(mhz, sizeof(mhz), r, r->mhz_ok, r->mhz, "%.0f");
	val_text(ipc, sizeof(ipc), r, r->ipc_ok, r->ipc, "%.2f");
	val_text(stall, sizeof(stall), r, r->stall_ok, r->stall, "%.2f");
	printf("%3s %8s %8s %8s %8s %7s %7s\n", name, mhz, f->cur, f->req, f->kern, ipc, stall);
}

static const char *csv_freq(const char *s)
{
	return strcmp(s, "-") ? s : "";
}

static void print_row_csv(unsigned long n, const char *name, const struct row *r,
			  const struct freq_text *f)
{
	char mhz[16], ipc[16], stall[16];
	int c;

	val_text(mhz, sizeof(mhz), r, r->mhz_ok, r->mhz, "%.0f");
	val_text(ipc, sizeof(ipc), r, r->ipc_ok, r->ipc, "%.2f");
	val_text(stall, sizeof(stall), r, r->stall_ok, r->stall, "%.2f");
	if (r->state != ROW_OK) {
		mhz[0] = '\0';
		ipc[0] = '\0';
		stall[0] = '\0';
	}
	printf("%lu,%s,%s,%s,%s,%s,%s,%s,%s", n, name, state_name[r->state], mhz,
	       csv_freq(f->cur), csv_freq(f->req), csv_freq(f->kern), ipc, stall);
	for (c = 0; c < NR_CNT; c++) {
		if ((r->have & 1u << c) && (r->state == ROW_OK || r->state == ROW_IDLE))
			printf(",%llu", (unsigned long long)r->d[c]);
		else
			printf(",");
	}
	printf("\n");
}

static void json_num(const char *key, bool ok, double v, const char *fmtstr)
{
	printf(",\"%s\":", key);
	if (ok)
		printf(fmtstr, v);
	else
		printf("null");
}

static void json_freq(const char *key, const char *s)
{
	if (!strcmp(s, "-"))
		printf(",\"%s\":null", key);
	else if (!strcmp(s, "idle"))
		printf(",\"%s\":\"idle\"", key);
	else
		printf(",\"%s\":%s", key, s);
}

static void print_row_json(int cpu, const struct row *r, const struct freq_text *f)
{
	bool ok = r->state == ROW_OK;
	int c;

	if (cpu >= 0)
		printf("{\"cpu\":%d", cpu);
	else
		printf("{\"cpu\":\"all\"");
	printf(",\"state\":\"%s\"", state_name[r->state]);
	json_num("avg_mhz", ok && r->mhz_ok, r->mhz, "%.0f");
	json_freq("cur_mhz", f->cur);
	json_freq("req_mhz", f->req);
	json_freq("kern_mhz", f->kern);
	json_num("ipc", ok && r->ipc_ok, r->ipc, "%.2f");
	json_num("stall_pct", ok && r->stall_ok, r->stall, "%.2f");
	for (c = 0; c < NR_CNT; c++) {
		if ((r->have & 1u << c) && (r->state == ROW_OK || r->state == ROW_IDLE))
			printf(",\"%s\":%llu", cnt_file[c], (unsigned long long)r->d[c]);
		else
			printf(",\"%s\":null", cnt_file[c]);
	}
	printf("}");
}

static void print_interval(unsigned long n, double secs)
{
	static const struct freq_text none = { "-", "-", "-" };
	struct row *rows, sum;
	struct freq_text f;
	char name[16];
	int i;

	rows = calloc(nr_cpus, sizeof(*rows));
	if (!rows) {
		perror(prog);
		exit(EXIT_ERROR);
	}
	for (i = 0; i < nr_cpus; i++)
		rows[i] = cpus[i].row;
	row_sum(&sum, rows, nr_cpus, cntfrq);
	if (fmt == FMT_TABLE) {
		if (n > 1)
			printf("\n");
		printf("%3s %8s %8s %8s %8s %7s %7s\n", "CPU", "Avg_MHz", "Cur_MHz",
		       "Req_MHz", "Kern_MHz", "IPC", "Stall%");
	} else if (fmt == FMT_JSON) {
		printf("{\"interval\":%lu,\"seconds\":%.3f,\"cntfrq_hz\":%llu,\"cpus\":[",
		       n, secs, (unsigned long long)cntfrq);
	}
	for (i = 0; i < nr_cpus; i++) {
		freq_text(&f, cpus[i].cpu);
		snprintf(name, sizeof(name), "%d", cpus[i].cpu);
		if (fmt == FMT_TABLE) {
			print_row_table(name, &rows[i], &f);
		} else if (fmt == FMT_CSV) {
			print_row_csv(n, name, &rows[i], &f);
		} else {
			if (i)
				printf(",");
			print_row_json(cpus[i].cpu, &rows[i], &f);
		}
	}
	if (fmt == FMT_TABLE) {
		print_row_table("all", &sum, &none);
	} else if (fmt == FMT_CSV) {
		print_row_csv(n, "all", &sum, &none);
	} else {
		printf("],\"all\":");
		print_row_json(-1, &sum, &none);
		printf("}\n");
	}
	fflush(stdout);
	free(rows);
}

/*
 * Which CPUs to show (-c, else every online CPU) and which counters each has. Returns 0
 * or an exit status, with the message printed.
 */
static int setup_cpus(const char *list)
{
	static bool want[MAX_CPUS], no_amu[MAX_CPUS];
	bool explicit = list;
	int not_enabled = 0;
	char path[128], buf[4096];
	int cpu, c, ret = 0;
	uint64_t midr;

	if (!list) {
		ret = read_line(CPU_DIR "/online", buf, sizeof(buf));
		if (ret) {
			fprintf(stderr, "%s: " CPU_DIR "/online: %s\n", prog, strerror(-ret));
			return EXIT_ERROR;
		}
		list = buf;
	}
	if (parse_cpulist(list, want)) {
		fprintf(stderr, "%s: bad CPU list '%s' (as 0-3,5)\n", prog, list);
		return EXIT_USAGE;
	}
	cpus = calloc(MAX_CPUS, sizeof(*cpus));
	if (!cpus) {
		perror(prog);
		return EXIT_ERROR;
	}
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		struct cpu *p = &cpus[nr_cpus];

		if (!want[cpu])
			continue;
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d", cpu);
		if (!exists(path)) {
			fprintf(stderr, "%s: cpu%d: no such CPU\n", prog, cpu);
			return EXIT_USAGE;
		}
		amu_path(path, sizeof(path), cpu, "");
		if (!exists(path)) {
			no_amu[cpu] = true;
			continue;
		}
		p->cpu = cpu;
		for (c = 0; c < NR_CNT; c++) {
			amu_path(path, sizeof(path), cpu, cnt_file[c]);
			if (exists(path))
				p->have |= 1u << c;
		}
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/regs/identification/midr_el1", cpu);
		if (!read_u64(path, &midr))
			p->erratum = const_erratum(midr);
		if (p->erratum) {
			p->have &= ~(1u << C_CONST);
			fprintf(stderr,
				"%s: cpu%d: const counter unusable (%s): Avg_MHz not shown\n",
				prog, cpu, p->erratum);
		} else if (!(p->have & 1u << C_CONST)) {
			fprintf(stderr,
				"%s: cpu%d: const_cycles not offered (AMEVCNTR0<1> not enabled by firmware, AMCNTENSET0_EL0.P1 clear): Avg_MHz not shown\n",
				prog, cpu);
		}
		for (c = C_INST; c < NR_CNT; c++)
			if (!(p->have & 1u << c))
				fprintf(stderr,
					"%s: cpu%d: %s not offered (AMEVCNTR0<%d> not enabled by firmware, AMCNTENSET0_EL0.P%d clear): %s not shown\n",
					prog, cpu, cnt_file[c], c, c,
					c == C_INST ? "IPC" : "Stall%");
		if (!(p->have & 1u << C_CORE)) {
			fprintf(stderr,
				"%s: cpu%d: AMU counters not enabled by firmware: no core_cycles (AMEVCNTR0<0>, AMCNTENSET0_EL0.P0 clear), which every column needs%s\n",
				prog, cpu, explicit ? "" : ": not shown");
			/* -c names it: an error; else the other CPUs are shown */
			if (explicit)
				return EXIT_NOT_ENABLED;
			memset(p, 0, sizeof(*p));
			not_enabled++;
			continue;
		}
		nr_cpus++;
	}
	/* -c names it: an error; else a note when other CPUs are shown */
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!no_amu[cpu] || (!explicit && !nr_cpus))
			continue;
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/online", cpu);
		if (read_line(path, buf, sizeof(buf)) || strcmp(buf, "0"))
			fprintf(stderr, "%s: cpu%d: no AMU (no %s/cpu%d/amu)%s\n",
				prog, cpu, CPU_DIR, cpu, explicit ? "" : ": not shown");
		else
			fprintf(stderr, "%s: cpu%d: offline (its amu/ comes back with it)\n",
				prog, cpu);
		if (explicit)
			ret = EXIT_NO_AMU;
	}
	if (!nr_cpus && not_enabled)
		return EXIT_NOT_ENABLED;
	if (!nr_cpus || ret) {
		if (!nr_cpus)
			fprintf(stderr,
				"%s: no AMU: no %s/cpuN/amu on %s (the apmu module shows it where the kernel enabled an AMU: CONFIG_ARM64_AMU_EXTN, ID_AA64PFR0_EL1.AMU; see dmesg for 'apmu: amu:')%s\n",
				prog, CPU_DIR, explicit ? "these CPUs" : "any online CPU",
				exists("/sys/module/apmu") ? "" :
				"; the apmu module is not loaded");
		return EXIT_NO_AMU;
	}
	if (!cntfrq)
		fprintf(stderr, "%s: CNTFRQ_EL0 %s: Avg_MHz not shown\n", prog, CNTFRQ_NONE);
	return 0;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void sleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"Usage: %s [-i SEC] [-n COUNT] [-c CPULIST] [--csv | --json]\n"
		"Per CPU, every interval, from the AMU files apmu shows (cpuN/amu/, root only):\n"
		"  Avg_MHz   frequency while the core ran: d(core_cycles) / d(const_cycles) * CNTFRQ_EL0\n"
		"  Cur_MHz   cpufreq's scaling_cur_freq;  Req_MHz  scaling_setspeed (userspace governor)\n"
		"  Kern_MHz  the kernel's cpuinfo_avg_freq (its own AMU estimate, last tick)\n"
		"  IPC       d(inst_retired) / d(core_cycles)\n"
		"  Stall%%    100 * d(mem_stall_cycles) / d(core_cycles)\n"
		"  'idle': core cycles did not advance; 'reset': a counter went back (power-down)\n"
		"Options:\n"
		"  -i, --interval SEC  seconds between samples (default 5; fractions allowed)\n"
		"  -n, --count COUNT   stop after COUNT intervals (default: run until interrupted)\n"
		"  -c, --cpu CPULIST   these CPUs only (as 0-3,5; default: every online CPU)\n"
		"      --csv           one CSV line per CPU and interval, with the counter deltas\n"
		"      --json          one JSON object per interval, with the counter deltas\n"
		"  -h, --help          this text\n"
		"Exit status: 0 done, 1 usage, 2 no AMU, 3 counters not enabled by firmware,\n"
		"4 permission denied (not root), 5 other error.\n", prog);
}

#ifndef APMU_STAT_NO_MAIN
int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "csv", no_argument, NULL, 'C' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long count = 0, n;
	const char *list = NULL;
	double interval = 5, t0, t;
	char *end;
	int opt, ret, c;

	while ((opt = getopt_long(argc, argv, "i:n:c:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			interval = strtod(optarg, &end);
			if (*end || end == optarg || !(interval >= 0.001 && interval <= 86400)) {
				fprintf(stderr, "%s: -i takes seconds, 0.001 to 86400\n", prog);
				return EXIT_USAGE;
			}
			break;
		case 'n':
			errno = 0;
			count = strtoul(optarg, &end, 10);
			if (*end || end == optarg || errno || !count || optarg[0] == '-') {
				fprintf(stderr, "%s: -n takes a count of intervals, 1 or more\n",
					prog);
				return EXIT_USAGE;
			}
			break;
		case 'c':
			list = optarg;
			break;
		case 'C':
			fmt = FMT_CSV;
			break;
		case 'J':
			fmt = FMT_JSON;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", prog, argv[optind]);
		print_usage(stderr);
		return EXIT_USAGE;
	}

	cntfrq = read_cntfrq();
	ret = setup_cpus(list);
	if (ret)
		return ret;
	if (fmt == FMT_CSV) {
		printf("interval,cpu,state,avg_mhz,cur_mhz,req_mhz,kern_mhz,ipc,stall_pct");
		for (c = 0; c < NR_CNT; c++)
			printf(",%s", cnt_file[c]);
		printf("\n");
	}
	ret = sample(true);
	if (ret)
		return ret;
	t0 = now();
	t = t0;
	for (n = 1; !count || n <= count; n++) {
		double prev = t;

		sleep_until(t0 + n * interval);
		ret = sample(false);
		if (ret)
			return ret;
		t = now();
		print_interval(n, t - prev);
	}
	return 0;
}
#endif
