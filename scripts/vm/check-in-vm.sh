# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM (busybox sh, cwd /apmu, apmu.ko already loaded by vm-run).
# Each suite's TAP/KTAP goes between APMU-SECTION markers; scripts/tap-summary.py reads
# them from the console log and counts.

. /apmu/vmlib.sh
pmu=$(cd /sys/bus/event_source/devices && ls -d apmu_* 2>/dev/null | head -n 1)

# 1. kselftests, 64-bit counters (the apmu32 fixture needs the 32-bit pass below)
section "kselftest:apmu_pmu"
./apmu_pmu -F apmu32
section_end "kselftest:apmu_pmu" $?

# 2. Debian's perf on apmu: user instructions of a known loop, exactly
section "perf"
echo "TAP version 13"
echo "1..4"
# QEMU counts an interrupt handler that interrupted EL0 as EL0 instructions: a timer
# tick inside the window adds to a user count. Ticks only add, so the smallest of
# three runs is the exact count (see apmu_pmu.c).
ustat() { # ustat EVENT ITERATIONS: the smallest count perf stat reports in 3 runs
	best=""
	for i in 1 2 3; do
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

# 3. KUnit suites: loading the module runs them; debugfs keeps their KTAP results
section "kunit:apmu_kunit"
if insmod ./apmu_kunit.ko; then
	echo "KTAP version 1"
	n=0
	for d in /sys/kernel/debug/kunit/apmu_*; do
		[ -f "$d/results" ] && n=$((n + 1))
	done
	echo "1..$n"
	for d in /sys/kernel/debug/kunit/apmu_*; do
		[ -f "$d/results" ] && sed -n '/^KTAP version/d; /^1\.\.1$/d; p' "$d/results"
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

# 5. kselftests again on 32-bit event counters extended through the overflow interrupt
section "kselftest:apmu_pmu:32bit"
if insmod ./apmu.ko long_counters=0 test_counter_start=0xffff0000; then
	./apmu_pmu
	rc=$?
	rmmod apmu || rc=1
else
	echo "1..1"
	echo "not ok 1 insmod apmu.ko long_counters=0"
	rc=1
fi
section_end "kselftest:apmu_pmu:32bit" $rc

section "dmesg"
dmesg
section_end dmesg 0
exit 0
