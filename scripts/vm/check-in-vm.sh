# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM (busybox sh, cwd /apmu, apmu.ko already loaded by vm-run).
# Each suite's TAP/KTAP goes between APMU-SECTION markers; scripts/tap-summary.py reads
# them from the console log and counts.

section() { echo "APMU-SECTION-BEGIN $1"; }
section_end() { echo "APMU-SECTION-END $1 rc=$2"; }

# 1. kselftests
for t in apmu_pmu; do
	section "kselftest:$t"
	./$t
	section_end "kselftest:$t" $?
done

# 2. KUnit suites: loading the module runs them; debugfs keeps their KTAP results
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

# 3. Module lifecycle, as TAP
section "lifecycle"
echo "TAP version 13"
echo "1..5"
tap() { # tap N description command...
	n=$1 d=$2
	shift 2
	if "$@" >/tmp/tap.out 2>&1; then
		echo "ok $n $d"
	else
		echo "not ok $n $d"
		sed 's/^/# /' /tmp/tap.out
	fi
}
pmu_dir() { ls -d /sys/bus/event_source/devices/apmu_* 2>/dev/null | head -n 1; }
tap 1 "apmu PMU registered with type and cpus" \
	sh -c 'd=$(ls -d /sys/bus/event_source/devices/apmu_* | head -n 1) && test -s $d/type && test -s $d/cpus'

# An open event pins the module: rmmod must refuse, and counting goes on.
perf stat -e cycles -o /tmp/held.txt -- sleep 3 &
held=$!
sleep 1
tap 2 "rmmod refused while an event is open" sh -c '! rmmod apmu'
wait $held
tap 3 "event held across the refused rmmod still counted" \
	sh -c 'grep -E "[0-9,]+ +cycles" /tmp/held.txt && ! grep -q "not counted\|not supported" /tmp/held.txt'
tap 4 "rmmod apmu when idle, PMU gone from sysfs" sh -c 'rmmod apmu && test -z "$(ls -d /sys/bus/event_source/devices/apmu_* 2>/dev/null)"'
tap 5 "reload and unload again" sh -c 'insmod ./apmu.ko && test -n "$(ls -d /sys/bus/event_source/devices/apmu_* 2>/dev/null)" && rmmod apmu'
section_end lifecycle 0

section "dmesg"
dmesg
section_end dmesg 0
exit 0
