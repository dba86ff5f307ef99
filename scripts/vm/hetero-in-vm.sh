# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the VM booted with scripts/vm-run --hetero: two PMU nodes, cortex-a53 on
# cpu0 and cortex-a57 on cpu1, each with a per-CPU SPI and interrupt-affinity. On the
# test kernel (scripts/check.sh) the sections are hetero, kselftest:apmu_hetero and
# kselftest:apmu_hetero:32bit; on the 7.2 test kernel (vm-run --kernel 7.2 --append
# APMU_PFX=7.2:, an environment variable of init) and on a Debian kernel
# (scripts/distro/check.sh gives the file section-prefix, e.g. "distro-6.1:") they carry
# that prefix and print the kernel release.

. /apmu/vmlib.sh
pfx=${APMU_PFX:-$(cat /apmu/section-prefix 2>/dev/null || true)}
tsec "$pfx" hetero
dev=/sys/bus/event_source/devices
a53=apmu_armv8_cortex_a53
a57=apmu_armv8_cortex_a57
count() { # count CPUMASK EVENT: user instructions of the workload pinned to CPUMASK
	taskset "$1" perf stat -x, -e "$2" -o /tmp/h.txt -- ./apmu_workload 100000 >/dev/null &&
		cat /tmp/h.txt >&2 && sed -n 's/^\([0-9][0-9]*\),.*/\1/p' /tmp/h.txt | head -n 1
}
ktap_test "one PMU per microarchitecture, each with its own cpus" \
	sh -c "test \"\$(cat $dev/$a53/cpus)\" = 0 && test \"\$(cat $dev/$a57/cpus)\" = 1"
ktap_test "one overflow SPI per CPU, each pinned to its CPU" \
	sh -c 'test "$(grep -c apmu /proc/interrupts)" = 2 &&
		for i in $(grep apmu /proc/interrupts | cut -d: -f1); do
			cat /proc/irq/$i/smp_affinity_list; done | tr "\n" " " | grep -qx "0 1 "'
only_on() { # only_on CPUMASK PMU OTHER_PMU: counts on PMU, nothing on OTHER_PMU
	c=$(count "$1" "$2/inst_retired/u") && test "$c" -gt 200000 &&
		c=$(count "$1" "$3/inst_retired/u") && test -z "$c" &&
		grep -q "^<not counted>,,$3/" /tmp/h.txt
}
ktap_test "a task on cpu0 counts on the cortex-a53 PMU only" only_on 1 $a53 $a57
ktap_test "a task on cpu1 counts on the cortex-a57 PMU only" only_on 2 $a57 $a53
ktap_test "a CPU-wide event on a CPU outside the PMU's cpus is refused" \
	sh -c "! perf stat -C 1 -e $a53/cycles/ -o /tmp/x.txt -- sleep 0.1 ||
		grep -q 'not supported' /tmp/x.txt"
irq57=$(grep apmu /proc/interrupts | cut -d: -f1 | tr -d ' ' | tail -n 1)
ktap_test "cpu1 offline and back: its SPI is pinned to cpu1 again" \
	sh -c "echo 0 > /sys/devices/system/cpu/cpu1/online &&
		echo 1 > /sys/devices/system/cpu/cpu1/online &&
		test \"\$(cat /proc/irq/$irq57/smp_affinity_list)\" = 1"
ktap_test "cpu1 counts again after coming back" only_on 2 $a57 $a53
# PC-sampling frames the board disables (scripts/vm/pcs-disabled.dts, merged in with
# vm-run --dtb-extra by scripts/check.sh) at addresses nothing answers: a read there is an
# external abort. apmu_pcs.ko loaded at boot without probing them: an arm,pc-sample-pmu
# node and one arm,coresight-cpu-debug node per CPU, all disabled; a pcs= frame inside
# their reg is not "described" (refused before any read). Enabled
# arm,coresight-cpu-debug nodes are not probed without debug_dt=1 (one line says so);
# with it, two malformed ones are refused before any access, each with its reason.
# apmu_pcs.ko plain again afterwards.
pcs_disabled_node() {
	grep -q '^apmu ' /proc/modules || { echo "apmu.ko did not load"; return 1; }
	if ls -d /sys/devices/system/cpu/cpu*/pcsample 2>/dev/null; then return 1; fi
	rmmod apmu_pcs && insmod ./apmu_pcs.ko pcs=1:0x9100000 || return 1
	dmesg | grep 'apmu_pcs: cpu1 frame 0x0*9100000' | tail -n 1
	dmesg | grep 'apmu_pcs: cpu1 frame 0x0*9100000 (pcs= parameter)' | tail -n 1 |
		grep -q 'outside every region the device tree describes' || return 1
	rmmod apmu_pcs && insmod ./apmu_pcs.ko
}
pcs_disabled_debug_nodes() {
	grep -q '^apmu_pcs ' /proc/modules || { echo "apmu_pcs.ko did not load"; return 1; }
	if ls -d /sys/devices/system/cpu/cpu*/pcsample 2>/dev/null; then return 1; fi
	# loaded at boot without debug_dt: no debug node probed, one line says why
	dmesg | grep -q 'apmu_pcs: arm,coresight-cpu-debug frames not probed: load with debug_dt=1' ||
		return 1
	! dmesg | grep 'apmu_pcs: ' | grep -q 'debug@911' || return 1
	rmmod apmu_pcs && insmod ./apmu_pcs.ko debug_dt=1 || return 1
	dmesg | grep 'apmu_pcs: ' | tail -n 8
	# nothing said about the disabled nodes: they are not looked at
	! dmesg | grep 'apmu_pcs: ' | grep -q -e '911[01]000' -e 'debug@911[01]000' || return 1
	dmesg | grep -q 'apmu_pcs: /debug@9112000: cpu does not name a CPU: refused' &&
	dmesg | grep -q 'apmu_pcs: /debug@9113000: debug frame smaller than 4 KiB: refused' ||
		return 1
	# a pcs= debug frame inside a disabled node's reg is not "described": refused after
	# the PMU frame (inside the enabled debug@9112000, which nothing claims) is mapped,
	# before either is read
	rmmod apmu_pcs && insmod ./apmu_pcs.ko debug_dt=1 pcs=1:0x9112000:0x9111000 || return 1
	dmesg | grep 'apmu_pcs: cpu1 frame' | tail -n 1
	dmesg | grep 'apmu_pcs: cpu1 frame 0x0*9112000 (pcs= parameter)' | tail -n 1 |
		grep -q 'outside every region the device tree describes' || return 1
	rmmod apmu_pcs && insmod ./apmu_pcs.ko
}
if [ -d /proc/device-tree/pc-sample@9100000 ]; then
	ktap_test "a disabled arm,pc-sample-pmu node is not probed, nor described for pcs=" \
		pcs_disabled_node
else
	ktap_skip "a disabled arm,pc-sample-pmu node" \
		"no such node (vm-run --dtb-extra scripts/vm/pcs-disabled.dts)"
fi
if [ -d /proc/device-tree/debug@9111000 ]; then
	ktap_test "arm,coresight-cpu-debug nodes: none probed without debug_dt=1; with it, disabled ones not probed, malformed ones refused before any access" \
		pcs_disabled_debug_nodes
else
	ktap_skip "disabled arm,coresight-cpu-debug nodes" \
		"no such node (vm-run --dtb-extra scripts/vm/pcs-disabled.dts)"
fi
tsec_end

# kselftests: a task on both clusters, pinned events, an unprivileged foreign event
sec "$pfx" kselftest:apmu_hetero
ksft apmu_hetero
sec_end "$pfx" kselftest:apmu_hetero $?

# again on 32-bit event counters (the cores of such systems mostly have no other kind)
sec "$pfx" kselftest:apmu_hetero:32bit
if apmu_unload && apmu_load long_counters=0; then
	ksft apmu_hetero
	rc=$?
	apmu_unload || rc=1
else
	ktap_fail "reload apmu.ko long_counters=0"
	rc=1
fi
sec_end "$pfx" kselftest:apmu_hetero:32bit $rc
exit 0
