# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM (busybox sh, cwd /apmu, apmu.ko already loaded by vm-run).
# Each suite's TAP/KTAP goes between APMU-SECTION markers; scripts/tap-summary.py reads
# them from the console log and counts. The kselftests run through the kernel's
# run_kselftest.sh, as kernel CI runs them (ksft in vmlib.sh); the KUnit suites run the
# kernel's way for a test module: loading it runs them, debugfs keeps their KTAP.

. /apmu/vmlib.sh
pmu=$(cd /sys/bus/event_source/devices && ls -d apmu_* 2>/dev/null | head -n 1)

# 1. kselftests, 64-bit counters (apmu32, rdpmc32, nosample and noirq need the module
# reloaded, below)
section "kselftest:apmu_pmu"
ksft apmu_pmu -F apmu32 -F nosample -F noirq
section_end "kselftest:apmu_pmu" $?
section "kselftest:apmu_rdpmc"
ksft apmu_rdpmc -F rdpmc32
section_end "kselftest:apmu_rdpmc" $?
section "kselftest:apmu_sampling"
ksft apmu_sampling
section_end "kselftest:apmu_sampling" $?

# 1b. make bench's program, once in its quick mode, so it cannot rot: it must run and exit
# 0 (every event opened, on the counters the whole time, samples delivered). Its figures
# are printed, not judged: this kernel has lock debugging and the rounds are few (make
# bench measures on the bench kernel). perf may lower the sample rate limit after the
# slow handlers of a debug kernel: put it back for the sections after this one.
section "bench:quick"
echo "TAP version 13"
echo "1..1"
bench_rate=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
if ./apmu_bench -q >/tmp/bench.out 2>&1; then
	echo "ok 1 apmu_bench -q runs (figures not judged: make bench measures)"
else
	echo "not ok 1 apmu_bench -q runs (figures not judged: make bench measures)"
fi
sed 's/^/# /' /tmp/bench.out
echo "$bench_rate" > /proc/sys/kernel/perf_event_max_sample_rate
section_end "bench:quick" 0

# 2. Debian's perf on apmu: user instructions of a known loop, exactly
section "perf"
echo "TAP version 13"
echo "1..4"
# QEMU counts an interrupt handler that interrupted EL0 as EL0 instructions: a timer
# tick inside the window adds to a user count. Ticks only add, so the smallest of
# five runs is the exact count (see apmu_util.h).
ustat() { # ustat EVENT ITERATIONS: the smallest count perf stat reports in 5 runs
	best=""
	for i in 1 2 3 4 5; do
		perf stat -x, -e "$1" -o /tmp/ps.txt -- ./apmu_workload "$2" >/dev/null 2>&1 || return 1
		v=$(sed -n 's/^\([0-9][0-9]*\),.*/\1/p' /tmp/ps.txt | head -n 1)
		[ -n "$v" ] || return 1
		if [ -z "$best" ] || [ "$v" -lt "$best" ]; then best=$v; fi
	done
	echo "$best"
}
# Iteration counts with the same number of digits, so the workload's printf costs the same.
check_exact() { # EVENT: 200000 more iterations are exactly 400000 more user instructions
	a=$(ustat "$1" 100000) && b=$(ustat "$1" 300000) && echo "$1: $a, $b" &&
		[ $((b - a)) -eq 400000 ]
}
tap 1 "perf stat -e instructions:u counts the loop exactly" check_exact instructions:u
tap 2 "perf stat -e $pmu/inst_retired/u counts the loop exactly" check_exact "$pmu/inst_retired/u"
tap 3 "perf stat -e cycles,instructions,branches runs; branches unsupported like in-tree" \
	sh -c 'perf stat -x, -e cycles,instructions,branches -o /tmp/ps3.txt -- ./apmu_workload 1000 &&
		cat /tmp/ps3.txt && grep -q "^[0-9][0-9]*,,cycles" /tmp/ps3.txt &&
		grep -q "^[0-9][0-9]*,,instructions" /tmp/ps3.txt &&
		grep -q "not supported.*,branches" /tmp/ps3.txt'
tap 4 "perf list shows apmu's events" sh -c "perf list pmu | grep -q '$pmu/inst_retired/'"
section_end perf 0

# 3. KUnit suites (the options they need: drivers/perf/apmu/tests/.kunitconfig): loading
# the module runs them; debugfs keeps each suite's KTAP. Joined here into one KTAP document,
# suites numbered 1..n, which scripts/check.sh also hands to the kernel's kunit.py parse.
section "kunit:apmu_kunit"
if insmod ./apmu_kunit.ko; then
	echo "KTAP version 1"
	n=0
	for d in /sys/kernel/debug/kunit/apmu_*; do
		[ -f "$d/results" ] && n=$((n + 1))
	done
	echo "1..$n"
	i=0
	for d in /sys/kernel/debug/kunit/apmu_*; do
		[ -f "$d/results" ] || continue
		i=$((i + 1))
		sed -n "/^KTAP version/d; /^1\.\.1\$/d; s/^ok 1 /ok $i /; s/^not ok 1 /not ok $i /; p" \
			"$d/results"
	done
	rmmod apmu_kunit
	section_end "kunit:apmu_kunit" 0
else
	section_end "kunit:apmu_kunit" 1
fi

# 4. Module lifecycle, as TAP
section "lifecycle"
echo "TAP version 13"
echo "1..5"
tap 1 "apmu PMU registered with type and cpus" \
	sh -c "test -s /sys/bus/event_source/devices/$pmu/type && test -s /sys/bus/event_source/devices/$pmu/cpus"
# An open event pins the module: rmmod must refuse, and counting goes on.
perf stat -e cycles -o /tmp/held.txt -- sleep 3 &
held=$!
sleep 1
tap 2 "rmmod refused while an event is open" sh -c '! rmmod apmu'
wait $held
tap 3 "event held across the refused rmmod still counted" \
	sh -c 'grep -E "[0-9,]+ +cycles" /tmp/held.txt && ! grep -q "not counted\|not supported" /tmp/held.txt'
tap 4 "rmmod apmu when idle, PMU gone from sysfs" \
	sh -c 'rmmod apmu && test -z "$(ls -d /sys/bus/event_source/devices/apmu_* 2>/dev/null)"'
tap 5 "reload and unload again" \
	sh -c 'insmod ./apmu.ko && test -n "$(ls -d /sys/bus/event_source/devices/apmu_* 2>/dev/null)" && rmmod apmu'
section_end lifecycle 0

# 5. kselftests again on 32-bit event counters extended through the overflow interrupt,
# with the wrap tests (apmu32, rdpmc32): several 2^31-event overflows each, by real work
if insmod ./apmu.ko long_counters=0; then
	section "kselftest:apmu_pmu:32bit"
	ksft apmu_pmu -F nosample -F noirq
	section_end "kselftest:apmu_pmu:32bit" $?
	for t in apmu_rdpmc apmu_sampling; do
		section "kselftest:$t:32bit"
		ksft $t
		section_end "kselftest:$t:32bit" $?
	done
	rmmod apmu
else
	section "kselftest:apmu_pmu:32bit"
	echo "1..1"
	echo "not ok 1 insmod apmu.ko long_counters=0"
	section_end "kselftest:apmu_pmu:32bit" 1
fi

# 6. The counting-only fallback, forced: sampling refused, counting exact, one notice
section "kselftest:apmu_pmu:nosample"
if insmod ./apmu.ko sampling=0; then
	ksft apmu_pmu -f nosample
	rc=$?
	n=$(dmesg | grep -c "apmu: sampling=0: counting only")
	[ "$n" = 1 ] || { echo "# the fallback notice appeared $n times"; rc=1; }
	rmmod apmu || rc=1
else
	echo "1..1"
	echo "not ok 1 insmod apmu.ko sampling=0"
	rc=1
fi
section_end "kselftest:apmu_pmu:nosample" $rc

# 6a. A PMU without an overflow interrupt, forced (QEMU's node has one, PPI 7): 32-bit
# event counters (long_counters=0) kept exact across several 2^32 wraps by apmu's per-CPU
# fold timer (apmu32), sampling refused with EOPNOTSUPP (nosample, noirq), no apmu line
# in /proc/interrupts (noirq), and the notice said once.
section "kselftest:apmu_pmu:noirq"
if insmod ./apmu.ko long_counters=0 overflow_irq=0; then
	ksft apmu_pmu -f apmu32 -f nosample -f noirq
	rc=$?
	n=$(dmesg | grep -c "no overflow interrupt: counting only")
	[ "$n" = 1 ] || { echo "# the no-interrupt notice appeared $n times"; rc=1; }
	if grep apmu /proc/interrupts; then
		echo "# an apmu interrupt is requested"
		rc=1
	fi
	rmmod apmu || rc=1
else
	echo "1..1"
	echo "not ok 1 insmod apmu.ko long_counters=0 overflow_irq=0"
	rc=1
fi
section_end "kselftest:apmu_pmu:noirq" $rc

# 6b. The AMU unit end to end over the register model (QEMU has no AMU): the real
# cpuN/amu files and apmu_amu PMU, reached through apmu_amu_test.ko
section "kselftest:apmu_amu"
# the plain VM first (no AMU, no model), then everything else over the model
step="insmod apmu.ko"
if insmod ./apmu.ko && step="apmu_amu -t no_amu_without_model (plain VM)" &&
   ksft apmu_amu -t no_amu_without_model && step="insmod apmu_amu_test.ko" &&
   insmod ./apmu_amu_test.ko; then
	ksft apmu_amu -T no_amu_without_model
	rc=$?
	rmmod apmu_amu_test || rc=1
	rmmod apmu || rc=1
else
	echo "1..1"
	echo "not ok 1 $step failed"
	rc=1
	# later sections insmod apmu.ko themselves
	if grep -q '^apmu ' /proc/modules; then rmmod apmu || true; fi
fi
section_end "kselftest:apmu_amu" $rc

# 6c. PC sampling (FEAT_PCSRv8p9). First the plain VM, which has no external PMU frames:
# apmu loads with bogus pcs= frames - System RAM, the PL011 (another driver's region), the
# flash (not a PMU), an address no device tree node describes (reading it would abort),
# the fw_cfg page (described only in part) - refuses each with one message, and shows no
# pcsample/. Then apmu_pcs_test.ko puts units over the frame model on CPUs 0 and 1: the
# real sysfs files (values, errnos, permissions as root and as nobody) and
# `perf record -e apmu_pcs// -C 1` + `perf report` showing the model's PCs.
section "kselftest:apmu_pcs"
rc=0
# perf may lower the sample rate limit while sampling: leave it as found for section 7
pcs_rate=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
if insmod ./apmu.ko pcs=1:0x40000000,1:0x9000000,0:0x0,1:0x9100000,1:0x9020000; then
	ksft apmu_pcs -t plain_vm_bogus_frames_refused || rc=1
	if insmod ./apmu_pcs_test.ko; then
		ksft apmu_pcs -T plain_vm_bogus_frames_refused || rc=1
		rmmod apmu_pcs_test || rc=1
	else
		echo "1..1"
		echo "not ok 1 insmod apmu_pcs_test.ko"
		rc=1
	fi
	rmmod apmu || rc=1
else
	echo "1..1"
	echo "not ok 1 insmod apmu.ko pcs=..."
	rc=1
fi
echo "$pcs_rate" > /proc/sys/kernel/perf_event_max_sample_rate
section_end "kselftest:apmu_pcs" $rc

# 7. perf record on apmu: profiles, callchains, throttling, long runs. Last, because
# perf lowers kernel.perf_event_max_sample_rate after slow handlers (lockdep makes ours
# slow under QEMU); the rate is put back before the checks that need it.
insmod ./apmu.ko
section "sampling"
echo "TAP version 13"
echo "1..8"
hot_pct() { # hot_pct PERF_RECORD_ARGS...: percentage of samples in hot_loop
	perf record -o /tmp/rec.data "$@" -- ./apmu_workload 30000000 >/dev/null 2>&1 || return 1
	perf report -i /tmp/rec.data --stdio --sort sym 2>/dev/null | tee /tmp/rep.txt |
		sed -n 's/^ *\([0-9][0-9]*\)\.[0-9]*%.*hot_loop$/\1/p' | head -n 1
}
hot90() { # hot90 PERF_RECORD_ARGS...: hot_loop has at least 90% of the samples
	p=$(hot_pct "$@")
	grep -v '^#' /tmp/rep.txt | grep -v '^$' | head -n 4
	[ -n "$p" ] && [ "$p" -ge 90 ]
}
tap 1 "perf record -e cycles: hot_loop >= 90%" hot90 -e cycles
tap 2 "perf record -e $pmu/cpu_cycles/: hot_loop >= 90%" hot90 -e "$pmu/cpu_cycles/"
tap 3 "perf record -F 4000 -e cycles: hot_loop >= 90%" hot90 -F 4000 -e cycles
callchain() {
	perf record -g -e cycles -o /tmp/cg.data -- ./apmu_workload 30000000 >/dev/null 2>&1 &&
		perf report -i /tmp/cg.data --stdio --no-children --sort sym 2>/dev/null >/tmp/cg.txt &&
		head -n 30 /tmp/cg.txt &&
		grep -A8 '%.*hot_loop$' /tmp/cg.txt | grep -q 'main'
}
tap 4 "perf record -g: hot_loop on top, called from main" callchain
evcnt() { # event counters sample too (QEMU raises their overflow late)
	perf record -e "$pmu/inst_retired/" -c 1000000 -o /tmp/ev.data -- ./apmu_workload 30000000 \
		>/dev/null 2>&1 &&
		n=$(perf report -i /tmp/ev.data --stats 2>/dev/null | sed -n 's/.*SAMPLE events: *\([0-9]*\).*/\1/p' | head -n 1) &&
		echo "samples: $n" && [ "$n" -ge 1 ]
}
tap 5 "perf record on an event counter delivers samples" evcnt
irqs() { grep apmu /proc/interrupts | awk '{ s = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) s += $i; print s }' | head -n 1; }
rate=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
restore_rate() { echo "$rate" > /proc/sys/kernel/perf_event_max_sample_rate; }
stress() { # 5000-cycle periods on both CPUs: perf must throttle, and stop cleanly
	timeout 300 perf record -a -c 5000 -e cycles -o /tmp/st.data -- sh -c \
		'taskset 1 ./apmu_workload 20000000 & taskset 2 ./apmu_workload 20000000 & wait' \
		>/dev/null 2>&1 || return 1
	perf report -i /tmp/st.data --stats 2>/dev/null | grep -E 'THROTTLE|SAMPLE' | tee /tmp/st.txt
	a=$(irqs); sleep 1; b=$(irqs)
	echo "apmu interrupts $a, a second later $b"
	grep -q ' THROTTLE events: *[1-9]' /tmp/st.txt && [ "$a" = "$b" ] &&
		timeout 10 sh -c 'echo responsive'
}
tap 6 "period stress on both CPUs: throttles, no storm, system responsive" stress
long() { # 30 s of sampling on both CPUs
	timeout 120 perf record -a -F 4000 -e cycles -o /tmp/long.data -- sleep 30 >/dev/null 2>&1 &&
		perf report -i /tmp/long.data --stdio --sort cpu 2>/dev/null | grep -v '^#' | grep -v '^$' |
		tee /tmp/long.txt && [ "$(grep -c '%' /tmp/long.txt)" = 2 ]
}
tap 7 "30 s of sampling on both CPUs, samples from each" long
# The stress left perf's running handler-time average high, which would throttle the next
# run: lift the CPU-time limit for this check only (tap 6 tested it), then restore.
# (The rate can only be written while the limit is on.)
pct=$(cat /proc/sys/kernel/perf_cpu_time_max_percent)
restore_rate
echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent
tap 8 "sampling after the stress still matches the period" \
	./apmu_sampling -t fixed_period_on_cycle_counter
echo "$pct" > /proc/sys/kernel/perf_cpu_time_max_percent
restore_rate
section_end sampling 0
rmmod apmu

section "dmesg"
dmesg
section_end dmesg 0
exit 0
