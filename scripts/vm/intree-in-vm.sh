# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the VM booted with the in-tree armv8_pmuv3 driver active (vm-run --no-apmu):
# apmu must load, say in one line that the in-tree driver owns the PMU, register no core
# PMU and leave the in-tree PMU counting; its AMU unit says in one line that there is no AMU.

. /apmu/vmlib.sh
# the section-name prefix: "" on the 6.12 test kernel, APMU_PFX (vm-run --append
# APMU_PFX=7.2:) on another
pfx=${APMU_PFX:-}
ktap_begin "${pfx}intree"
ktap_test "in-tree armv8_pmuv3 PMU is registered" test -d /sys/bus/event_source/devices/armv8_pmuv3
perf stat -e cycles -x, -o /tmp/before.txt -- ./apmu_workload 100000
ktap_test "apmu and its unit modules load next to the in-tree driver" apmu_load
ktap_test "one dmesg line says the in-tree driver owns the PMU" \
	sh -c 'test "$(dmesg | grep -c "apmu: .* is driven by armv8-pmu; core PMU not registered")" = 1'
ktap_test "apmu registered no core PMU" sh -c '! ls -d /sys/bus/event_source/devices/apmu_* 2>/dev/null'
# The AMU unit does not depend on owning the PMU. QEMU has no AMU: nothing to show, said once.
ktap_test "no cpuN/amu and no apmu_amu PMU (QEMU has no AMU)" \
	sh -c '! ls -d /sys/devices/system/cpu/cpu*/amu /sys/bus/event_source/devices/apmu_amu 2>/dev/null'
ktap_test "one dmesg line says the CPUs have no AMU" \
	sh -c 'test "$(dmesg | grep -c "apmu: amu: CPUs .* have no AMU")" = 1'
ktap_test "AMU unit over the model works next to the in-tree driver" \
	sh -c 'insmod ./apmu_amu_test.ko && test -r /sys/devices/system/cpu/cpu0/amu/core_cycles &&
		test -d /sys/bus/event_source/devices/apmu_amu && rmmod apmu_amu_test'
perf stat -e cycles -x, -o /tmp/after.txt -- ./apmu_workload 100000
intree_counts_unload() { grep -q "^[0-9][0-9]*,,cycles" /tmp/after.txt && apmu_unload; }
ktap_test "in-tree PMU still counts cycles, apmu unloads" intree_counts_unload
cat /tmp/before.txt /tmp/after.txt | sed 's/^/# /'
ktap_end
exit 0
