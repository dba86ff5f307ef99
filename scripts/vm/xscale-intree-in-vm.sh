# SPDX-License-Identifier: GPL-2.0
# Runs inside the XScale VM (scripts/vm/xscale-run.sh; busybox sh, cwd /apmu), booted
# WITHOUT initcall_blacklist=xscale_pmu_driver_init, so the in-tree driver is registered:
#
#   scripts/vm/xscale-run.sh scripts/vm/xscale-intree-in-vm.sh apmu.ko apmu_xscale_dev.ko
#
# Section xscale:intree (TAP): the in-tree armv5_xscale2 driver binds the "xscale-pmu"
# device that apmu_xscale_dev.ko registers; apmu then loads, registers no PMU, touches no
# CP14 register and says so in one dmesg line with the way out; rmmod; no splat.
. /apmu/vmlib.sh

intree_bound() {
	[ "$(basename "$(readlink /sys/bus/platform/devices/xscale-pmu/driver)")" = xscale-pmu ] &&
		[ -d /sys/bus/event_source/devices/armv5_xscale2 ]
}
apmu_aside() {
	apmu_load || return 1
	! ls /sys/bus/event_source/devices/ | grep -q '^apmu_' &&
		dmesg | grep 'apmu: xscale-pmu is driven by xscale-pmu; core PMU not registered (boot with initcall_blacklist=xscale_pmu_driver_init to use apmu)'
}
no_splat() { ! dmesg | grep -E 'WARNING:|BUG:|Oops|Internal error|Unable to handle|sleeping function called|Call trace'; }

ktap_begin xscale:intree
ktap_test "apmu_xscale_dev registers xscale-pmu (IRQ 28)" insmod /apmu/apmu_xscale_dev.ko
ktap_test "the in-tree driver binds it: armv5_xscale2" intree_bound
ktap_test "apmu loads, registers no PMU and says why in one line" apmu_aside
ktap_test "rmmod apmu" apmu_unload
ktap_test "no kernel splat" no_splat
dmesg | grep -i 'apmu\|xscale\|hw perfevents' | sed 's/^/# /'
ktap_end "$((_ktap_failed > 0))"
exit $rc
