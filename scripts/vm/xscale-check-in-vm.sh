# SPDX-License-Identifier: GPL-2.0
# Runs inside the XScale VM (scripts/vm/xscale-run.sh; busybox sh, cwd /apmu).
#
#   scripts/vm/xscale-run.sh --append initcall_blacklist=xscale_pmu_driver_init \
#       scripts/vm/xscale-check-in-vm.sh [apmu.ko apmu_xscale_dev.ko xscale-perf]
#
# Section xscale:boot (TAP): the CPU is QEMU's PXA270 (XScale2, ARMv5TE); with the three
# files: apmu_xscale_dev.ko registers the "xscale-pmu" device (pxa27x_init, which would,
# is skipped), apmu binds it and registers apmu_armv5_xscale2 with cpus, format/ and
# events/; xscale-perf counts with CCNT and two event counters (never PMN3: QEMU UNDEFs
# it), CCNT advancing between two reads while the group runs (PMNC.E set), and gets the
# documented errnos; rmmod of both; no kernel splat. What QEMU's CP14
# stub gives (CCNT in ns, PMN0-2 reading 0) is printed as diagnostics, not judged.
. /apmu/vmlib.sh

pmu=/sys/bus/event_source/devices/apmu_armv5_xscale2
cpu_is_xscale() { grep -q '^model name.*XScale-PXA270' /proc/cpuinfo && grep -q '^CPU architecture: 5TE' /proc/cpuinfo; }
intree_off() { ! ls /sys/bus/event_source/devices/ | grep -q '^armv5_xscale'; }
dev_load() { insmod /apmu/apmu_xscale_dev.ko && ls -d /sys/bus/platform/devices/xscale-pmu; }
bound() { [ "$(basename "$(readlink /sys/bus/platform/devices/xscale-pmu/driver)")" = apmu ]; }
probe_line() { dmesg | grep 'apmu_armv5_xscale2: XScale2, 4 event counters + CCNT, CPUs 0'; }
pmu_sysfs() {
	[ -s $pmu/type ] && [ "$(cat $pmu/cpus)" = 0 ] &&
		[ "$(cat $pmu/format/event)" = config:0-7 ] &&
		[ "$(cat $pmu/events/ccnt)" = event=0xfe ] &&
		[ "$(cat $pmu/events/instruction)" = event=0x07 ] &&
		[ "$(ls $pmu/events | wc -l)" = 21 ] || { ls -R $pmu; return 1; }
}
no_sysctl() { [ ! -e /proc/sys/kernel/perf_user_access ]; }
perf_count() { ./xscale-perf count "$(cat $pmu/type)" >/tmp/counts; _r=$?; cat /tmp/counts; return $_r; }
perf_generic() { ./xscale-perf generic >>/tmp/counts; _r=$?; cat /tmp/counts; return $_r; }
# EINVAL 22, ENOENT 2, EOPNOTSUPP 95
refuse() { ./xscale-perf refuse "$@"; }
unload_gone() { apmu_unload && [ ! -e $pmu ]; }
dev_unload() { rmmod apmu_xscale_dev; }
no_splat() { ! dmesg | grep -E 'WARNING:|BUG:|Oops|Internal error|Unable to handle|sleeping function called|Call trace'; }

ktap_begin xscale:boot
sed -n 's/^\(model name\|CPU part\|CPU revision\|Hardware\)/# &/p' /proc/cpuinfo
ktap_test "cpu: XScale PXA270, ARMv5TE" cpu_is_xscale
if [ -f /apmu/apmu.ko ]; then
	type=""
	ktap_test "in-tree armv5_xscale2 not registered (initcall_blacklist)" intree_off
	ktap_test "apmu_xscale_dev registers xscale-pmu (IRQ 28)" dev_load
	ktap_test "insmod apmu" apmu_load
	ktap_test "apmu is bound to xscale-pmu" bound
	ktap_test "dmesg: apmu_armv5_xscale2: XScale2, 4 event counters + CCNT" probe_line
	ktap_test "sysfs: type, cpus 0, format/event config:0-7, 21 events/ (ccnt event=0xfe)" pmu_sysfs
	ktap_test "no kernel.perf_user_access from apmu (XScale has no user reads)" no_sysctl
	ktap_test "CCNT + instruction + dcache_miss in one group: CCNT advances while it runs" perf_count
	ktap_test "PERF_TYPE_HARDWARE cycles reaches apmu: CCNT advances while it runs" perf_generic
	# QEMU's stub: CCNT reads ns with PMNC.E set and 0 without, PMN0-2 read 0 (so what an
	# event adds up while stopped is 2^32 minus the half-range start 2^31)
	sed 's/^/# counts: /' /tmp/counts 2>/dev/null
	[ -s $pmu/type ] && type=$(cat $pmu/type)
	ktap_test "raw event 0xff (the idle select): EINVAL" refuse 22 "${type:-0}" 0xff
	ktap_test "raw event beyond config[7:0]: EINVAL" refuse 22 "${type:-0}" 0x107
	ktap_test "exclude_kernel: EINVAL (XScale counts every mode)" refuse 22 "${type:-0}" 0x07 exclude_kernel
	ktap_test "a fifth event counter in a group: EINVAL" refuse 22 "${type:-0}" 0x07 group5
	ktap_test "cache-misses (no XScale mapping): ENOENT" refuse 2 0 3
	ktap_test "sampling without perf_event_overflow (no kprobes): EOPNOTSUPP" refuse 95 "${type:-0}" 0xfe sample
	ktap_test "rmmod apmu unloads" unload_gone
	ktap_test "rmmod apmu_xscale_dev" dev_unload
	dmesg | grep -i 'apmu\|xscale' | sed 's/^/# /'
fi
ktap_test "no kernel splat" no_splat
ktap_end "$((_ktap_failed > 0))"
exit $rc
