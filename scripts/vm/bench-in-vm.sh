# SPDX-License-Identifier: GPL-2.0
#
# make bench, inside the bench VM (scripts/bench.sh: vm-run --kernel bench --smp 1). With
# apmu.ko loaded (the default boot): apmu_bench on apmu, then again with
# long_counters=0 (32-bit event counters, as the in-tree driver uses them); with the
# in-tree driver (vm-run --no-apmu): apmu_bench on it. Each "path NAME N" line of
# apmu_bench comes out as "BENCH DRIVER NAME N" for scripts/bench.sh.

. /apmu/vmlib.sh

bench() { # bench DRIVER
	if ! ./apmu_bench >/tmp/bench.out 2>&1; then
		cat /tmp/bench.out
		echo "BENCH-FAILED $1"
		return 1
	fi
	sed -n "s/^path /BENCH $1 /p" /tmp/bench.out
	sed -n "s/^# /BENCH-NOTE $1 /p" /tmp/bench.out
}

echo "BENCH-NOTE kernel $(uname -r), $(nproc) CPU"
if grep -q '^apmu ' /proc/modules; then
	dmesg | grep -m 1 'apmu.*PMUv3' | sed 's/^/BENCH-NOTE apmu /'
	bench apmu || exit 1
	apmu_unload && apmu_load long_counters=0 || exit 1
	dmesg | grep 'apmu.*PMUv3' | tail -n 1 | sed 's/^/BENCH-NOTE apmu32 /'
	bench apmu32 || exit 1
	apmu_unload
else
	dmesg | grep -m 1 'hw perfevents' | sed 's/^/BENCH-NOTE intree /'
	bench intree || exit 1
fi
exit 0
