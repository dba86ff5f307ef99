# SPDX-License-Identifier: GPL-2.0
#
# make demo, inside the VM: apmu loaded by vm-run; Debian's arm64 perf on the PATH.

pmu=$(cd /sys/bus/event_source/devices && ls -d apmu_* 2>/dev/null | head -n 1)
banner() { printf '\n===== %s =====\n' "$*"; }

banner "apmu in the kernel log"
dmesg | grep -i apmu
if [ -z "$pmu" ]; then
	echo "apmu registered no PMU on this machine: see the log above"
	exit 1
fi

banner "the PMU in sysfs: /sys/bus/event_source/devices/$pmu"
echo "type:   $(cat /sys/bus/event_source/devices/$pmu/type)"
echo "cpus:   $(cat /sys/bus/event_source/devices/$pmu/cpus)"
for f in /sys/bus/event_source/devices/$pmu/format/*; do
	echo "format: $(basename $f) = $(cat $f)"
done

banner "perf list $pmu/"
perf list pmu 2>/dev/null | grep -F "$pmu/" | head -n 40

banner "perf stat -e cycles,instructions -- ./apmu_workload 1000000 (2000000 loop instructions)"
perf stat -e cycles,instructions -- ./apmu_workload 1000000 2>&1

banner "perf stat -e $pmu/inst_retired/u,$pmu/cpu_cycles/ (apmu's own raw events)"
perf stat -e "$pmu/inst_retired/u,$pmu/cpu_cycles/" -- ./apmu_workload 1000000 2>&1

banner "perf stat -a -e cycles -- sleep 1 (both CPUs)"
perf stat -a -e cycles -- sleep 1 2>&1

banner "perf record -e cycles -g -- ./apmu_workload 30000000; perf report"
perf record -e cycles -g -o /tmp/perf.data -- ./apmu_workload 30000000 2>&1 | tail -n 1
perf report -i /tmp/perf.data --stdio --no-children --sort sym 2>/dev/null |
	grep -v '^$' | grep -v -e '^#$' -e 'tips.txt' | sed -n '1,30p'

banner "perf record -F 4000 -e $pmu/cpu_cycles/ (apmu's own event), top symbols"
perf record -F 4000 -e "$pmu/cpu_cycles/" -o /tmp/perf2.data -- ./apmu_workload 30000000 2>&1 |
	tail -n 1
perf report -i /tmp/perf2.data --stdio --sort sym 2>/dev/null | grep -v '^#' | grep -v '^$' |
	head -n 5

banner "Activity Monitors (AMU) and PC sampling"
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	[ -d "$c/amu" ] && echo "$(basename $c): AMU at $c/amu"
	[ -d "$c/pcsample" ] && echo "$(basename $c): PC sampling at $c/pcsample"
done
ls -d /sys/devices/system/cpu/cpu*/amu >/dev/null 2>&1 ||
	echo "this CPU has no AMU (QEMU does not emulate FEAT_AMUv1): no amu/ directories"
ls -d /sys/devices/system/cpu/cpu*/pcsample >/dev/null 2>&1 ||
	echo "this CPU has no PC sample-based profiling (no external PMU frame): no pcsample/ directories"
exit 0
