// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of apmu-stat's arithmetic, CPU-list parsing and errata table, and the
 * agreement of its Avg_MHz with the kernel's cpuinfo_avg_freq arithmetic over the same
 * window (arch/arm64/kernel/topology.c, Linux 7.2: amu_scale_freq_tick() and
 * arch_freq_get_on_cpu(), reproduced below in integers as the kernel computes them).
 * TAP output; exit status 1 on any failure. Run by `make -C tools/apmu-stat test`.
 */
#define APMU_STAT_NO_MAIN
#include <stdarg.h>
#include "apmu-stat.c"

#include <math.h>

static int t_n, t_failed;

static void ok(bool cond, const char *fmtstr, ...)
{
	va_list ap;

	t_n++;
	if (!cond)
		t_failed++;
	printf("%sok %d ", cond ? "" : "not ", t_n);
	va_start(ap, fmtstr);
	vprintf(fmtstr, ap);
	va_end(ap);
	printf("\n");
}

static struct row mkrow(uint64_t core, uint64_t cnst, uint64_t inst, uint64_t stall,
			unsigned int have)
{
	struct row r = { .state = ROW_OK, .have = have,
			 .d = { core, cnst, inst, stall } };

	return r;
}

#define ALL_CNT ((1u << NR_CNT) - 1)

static void test_compute(void)
{
	struct row r, rows[3], sum;

	r = mkrow(32000, 1000, 48000, 8000, ALL_CNT);
	row_compute(&r, 62500000);
	ok(r.state == ROW_OK && r.mhz_ok && r.mhz == 2000.0,
	   "Avg_MHz 32000/1000 * 62.5 MHz = 2000 (%f)", r.mhz);
	ok(r.ipc_ok && r.ipc == 1.5, "IPC 48000/32000 = 1.50 (%f)", r.ipc);
	ok(r.stall_ok && r.stall == 25.0, "Stall%% 8000/32000 = 25.00 (%f)", r.stall);

	r = mkrow(0, 1000, 0, 0, ALL_CNT);
	row_compute(&r, 62500000);
	ok(r.state == ROW_IDLE && !r.mhz_ok && !r.ipc_ok, "core cycles did not advance: idle");

	r = mkrow(1000, 0, 10, 1, ALL_CNT & ~(1u << C_CONST));
	row_compute(&r, 62500000);
	ok(!r.mhz_ok && r.ipc_ok && r.stall_ok,
	   "no const_cycles: no Avg_MHz, IPC and Stall%% still");

	r = mkrow(1000, 10, 10, 1, ALL_CNT);
	row_compute(&r, 0);
	ok(!r.mhz_ok && r.ipc_ok, "CNTFRQ_EL0 0: no Avg_MHz (never guessed)");

	r = mkrow(1000, 0, 10, 1, ALL_CNT);
	row_compute(&r, 62500000);
	ok(r.state == ROW_OK && !r.mhz_ok, "const cycles did not advance: no Avg_MHz, no division");

	r = mkrow(5, 5, 5, 5, ALL_CNT);
	r.state = ROW_RESET;
	row_compute(&r, 62500000);
	ok(r.state == ROW_RESET && !r.mhz_ok && !r.ipc_ok, "reset: no values");

	rows[0] = mkrow(32000, 1000, 48000, 8000, ALL_CNT);
	rows[1] = mkrow(28000, 1000, 7000, 2800, ALL_CNT);
	rows[2] = mkrow(0, 0, 0, 0, ALL_CNT);
	rows[2].state = ROW_IDLE;
	row_sum(&sum, rows, 3, 62500000);
	ok(sum.state == ROW_OK && sum.mhz == 1875.0,
	   "summary Avg_MHz: cycle sums, 60000/2000 * 62.5 = 1875 (%f)", sum.mhz);
	ok(fabs(sum.ipc - 55000.0 / 60000) < 0.000000000001 && sum.stall == 18.0,
	   "summary IPC 55000/60000, Stall%% 10800/60000 = 18.00 (%f, %f)", sum.ipc, sum.stall);
	rows[0].state = ROW_IDLE;
	rows[1].state = ROW_IDLE;
	row_sum(&sum, rows, 3, 62500000);
	ok(sum.state == ROW_IDLE, "summary of idle CPUs: idle");
	rows[0].state = ROW_RESET;
	row_sum(&sum, rows, 1, 62500000);
	ok(sum.state == ROW_RESET, "summary of reset CPUs: reset");
	row_sum(&sum, rows, 3, 62500000);
	ok(sum.state == ROW_IDLE, "summary of reset and idle CPUs: idle");
	rows[0] = mkrow(32000, 1000, 48000, 8000, ALL_CNT & ~(1u << C_CONST));
	rows[1] = mkrow(28000, 1000, 7000, 2800, ALL_CNT);
	row_sum(&sum, rows, 2, 62500000);
	ok(!sum.mhz_ok && sum.ipc_ok,
	   "summary: no Avg_MHz when a CPU that ran has no const_cycles");
}

static void test_cpulist(void)
{
	static const char * const bad[] = { "", "3-1", "1,", "a", "1-", "-1", "4096", "0-4096",
					    "1 2", "1;2" };
	bool set[MAX_CPUS];
	size_t i;
	int n, c;

	memset(set, 0, sizeof(set));
	ok(!parse_cpulist("0-3,5,7-8\n", set) && set[0] && set[3] && !set[4] && set[5] &&
	   !set[6] && set[8] && !set[9], "cpulist 0-3,5,7-8 (as sysfs prints it)");
	memset(set, 0, sizeof(set));
	ok(!parse_cpulist("4095", set) && set[4095], "cpulist 4095");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(set, 0, sizeof(set));
		ok(parse_cpulist(bad[i], set) == -1, "cpulist '%s' refused", bad[i]);
	}
	memset(set, 0, sizeof(set));
	parse_cpulist("1", set);
	for (n = 0, c = 0; c < MAX_CPUS; c++)
		n += set[c];
	ok(n == 1, "cpulist 1 is one CPU");
}

static void test_errata(void)
{
	static const struct { uint64_t midr; bool broken; const char *what; } t[] = {
		{ 0x410fd460, true, "Cortex-A510 r0p0" },
		{ 0x411fd461, true, "Cortex-A510 r1p1" },
		{ 0x411fd462, false, "Cortex-A510 r1p2" },
		{ 0x412fd460, false, "Cortex-A510 r2p0" },
		{ 0x410fd870, true, "Cortex-A725 r0p0" },
		{ 0x410fd872, true, "Cortex-A725 r0p2" },
		{ 0x410fd873, false, "Cortex-A725 r0p3" },
		{ 0x411fd870, false, "Cortex-A725 r1p0" },
		{ 0x420fd460, false, "another implementer, part 0xd46" },
		{ 0x412fd050, false, "Cortex-A55 r2p0" },
		{ 0x414fd0c1, false, "Neoverse N1 r4p1" },
		{ 0x000f0510, false, "QEMU -cpu max" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		ok(!!const_erratum(t[i].midr) == t[i].broken, "MIDR 0x%08llx (%s): %s",
		   (unsigned long long)t[i].midr, t[i].what,
		   t[i].broken ? "const counter unusable" : "const counter used");
	ok(!!strstr(const_erratum(0x410fd460), "2457168"), "the A510 erratum is 2457168");
	ok(!!strstr(const_erratum(0x410fd870), "3821522"), "the A725 erratum is 3821522");
}

/*
 * The kernel's cpuinfo_avg_freq, in kHz, for one tick window with @dcore/@dconst AMU
 * deltas, on a CPU whose arch_scale_freq_ref() (cpufreq's maximum) is @max_khz, with
 * the system counter at @ref_hz (arch_timer_get_rate()): freq_inv_set_max_ratio(),
 * amu_scale_freq_tick() and arch_freq_get_on_cpu() of arch/arm64/kernel/topology.c.
 */
static uint64_t kernel_avg_khz(uint64_t dcore, uint64_t dconst, uint64_t ref_hz,
			       uint64_t max_khz)
{
	uint64_t ratio = (ref_hz << 20) / (max_khz * 1000);	/* SCHED_CAPACITY_SCALE^2 */
	uint64_t scale = ((dcore * ratio) >> 10) / dconst;

	if (scale > 1024)
		scale = 1024;
	return (scale * max_khz) >> 10;
}

static void test_kernel_agreement(void)
{
	static const uint64_t refs[] = { 19200000, 24000000, 25000000, 50000000, 62500000,
					 100000000, 1000000000 };
	static const uint64_t maxs[] = { 1800000, 2400000, 3200000, 4000000 };
	static const unsigned int ticks_hz[] = { 100, 250, 1000 };
	double worst = 0, step_worst = 0, d, ours;
	size_t i, j, k;
	unsigned int mhz;
	int checked = 0;

	/*
	 * The kernel truncates to steps of 1/1024 of cpufreq's maximum (SCHED_CAPACITY_SCALE):
	 * it is at most one step below apmu-stat, so within 1 % for a CPU at a tenth of its
	 * maximum or more (cpufreq minima are higher on real SoCs)
	 */
	for (i = 0; i < ARRAY_SIZE(refs); i++)
		for (j = 0; j < ARRAY_SIZE(maxs); j++)
			for (k = 0; k < ARRAY_SIZE(ticks_hz); k++)
				for (mhz = 100; mhz <= maxs[j] / 1000; mhz += 50) {
					uint64_t dconst = refs[i] / ticks_hz[k];
					uint64_t dcore = (uint64_t)mhz * 1000000 / ticks_hz[k];
					struct row r = mkrow(dcore, dconst, 0, 0, ALL_CNT);
					uint64_t kk;

					kk = kernel_avg_khz(dcore, dconst, refs[i], maxs[j]);

					row_compute(&r, refs[i]);
					ours = r.mhz * 1000;
					d = (ours - kk) / (maxs[j] / 1024.0);
					if (d > step_worst || d < -0.000000001)
						step_worst = d < 0 ? 99 : d;
					checked++;
					if (mhz * 10000 < maxs[j])
						continue;
					d = fabs(ours - kk) / ours;
					if (d > worst)
						worst = d;
				}
	ok(step_worst <= 1.001,
	   "the kernel's cpuinfo_avg_freq arithmetic is at most one step (max/1024) below Avg_MHz over the same window (%d cases, worst %.3f steps)",
	   checked, step_worst);
	ok(worst <= 0.01,
	   "Avg_MHz within 1%% of it from a tenth of the maximum frequency up (worst %.3f%%)",
	   worst * 100);
	ok(kernel_avg_khz(4000000, 1000000, 1000000000, 3200000) == 3200000,
	   "the kernel caps cpuinfo_avg_freq at cpufreq's maximum (4 GHz shown as 3200000 kHz); apmu-stat does not");
}

int main(void)
{
	printf("TAP version 13\n");
	test_compute();
	test_cpulist();
	test_errata();
	test_kernel_agreement();
	printf("1..%d\n", t_n);
	return t_failed ? 1 : 0;
}
