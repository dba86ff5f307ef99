# SPDX-License-Identifier: GPL-2.0
# Runs inside the XScale VM (scripts/vm/xscale-run.sh; busybox sh, cwd /apmu).
#
#   scripts/vm/xscale-run.sh scripts/vm/xscale-check-in-vm.sh [apmu.ko]
#
# TAP: the CPU is QEMU's PXA270 (XScale, ARMv5TE); the kernel boots without a splat; and,
# when /apmu/apmu.ko is given: insmod, a PMU in event_source or one clear dmesg line, rmmod.
. /apmu/vmlib.sh

cpu_is_xscale() { grep -q '^model name.*XScale-PXA270' /proc/cpuinfo && grep -q '^CPU architecture: 5TE' /proc/cpuinfo; }
apmu_load() { insmod /apmu/apmu.ko; }
apmu_visible() { ls /sys/bus/event_source/devices/ | grep -q '^apmu_' || dmesg | grep -q '^apmu'; }
apmu_unload() { rmmod apmu; }
no_splat() { ! dmesg | grep -E 'WARNING:|BUG:|Oops|Internal error|sleeping function called'; }

n=0
t() { n=$((n + 1)); tap "$n" "$@" | tee -a /tmp/tap.log; }
: >/tmp/tap.log
echo "TAP version 13"
if [ -f /apmu/apmu.ko ]; then echo "1..5"; else echo "1..2"; fi
sed -n 's/^\(model name\|CPU part\|CPU revision\|Hardware\)/# &/p' /proc/cpuinfo
t "cpu: XScale PXA270, ARMv5TE" cpu_is_xscale
if [ -f /apmu/apmu.ko ]; then
	t "apmu: insmod" apmu_load
	t "apmu: a PMU or a dmesg line" apmu_visible
	dmesg | grep apmu | sed 's/^/# /'
	t "apmu: rmmod" apmu_unload
fi
t "no kernel splat" no_splat
! grep -q '^not ok' /tmp/tap.log
