# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the VM booted with the in-tree armv8_pmuv3 driver active (vm-run --no-apmu):
# apmu must load, say in one line that the in-tree driver owns the PMU, register no core
# PMU and leave the in-tree PMU counting.

. /apmu/vmlib.sh
section intree
echo "TAP version 13"
echo "1..5"
tap 1 "in-tree armv8_pmuv3 PMU is registered" test -d /sys/bus/event_source/devices/armv8_pmuv3
perf stat -e cycles -x, -o /tmp/before.txt -- ./apmu_workload 100000
tap 2 "apmu loads next to the in-tree driver" insmod ./apmu.ko
tap 3 "one dmesg line says the in-tree driver owns the PMU" \
	sh -c 'test "$(dmesg | grep -c "apmu: .* is driven by armv8-pmu; core PMU not registered")" = 1'
tap 4 "apmu registered no core PMU" sh -c '! ls -d /sys/bus/event_source/devices/apmu_* 2>/dev/null'
perf stat -e cycles -x, -o /tmp/after.txt -- ./apmu_workload 100000
tap 5 "in-tree PMU still counts cycles, apmu unloads" \
	sh -c 'grep -q "^[0-9][0-9]*,,cycles" /tmp/after.txt && rmmod apmu'
cat /tmp/before.txt /tmp/after.txt | sed 's/^/# /'
section_end intree 0
exit 0
