# SPDX-License-Identifier: GPL-2.0
#
# The 32-bit Arm lane with the in-tree driver (make check's arm:intree section, run by
# scripts/arm-check.sh). By hand:
#
#   for n in 1000 101000; do arm-linux-gnueabihf-gcc -static -nostdlib -DN=$n \
#       -o /tmp/arm-loop$n scripts/vm/arm-loop.S; done
#   scripts/vm-run --arch arm --no-apmu scripts/vm/arm-intree-in-vm.sh /tmp/arm-loop1000 \
#       /tmp/arm-loop101000
#
# Never schedules the cycle counter: QEMU 7.2 and 10.0 have no 64-bit AArch32 PMCCNTR accessor, and the
# in-tree driver's MCRR to it is UNDEFINED (an oops). So no cycles, no plain perf stat and
# no perf record (its feature probe opens cycles:u).

. /apmu/vmlib.sh
ktap_begin arm:intree
ktap_test "in-tree armv8_pmuv3 PMU is registered" test -d /sys/bus/event_source/devices/armv8_pmuv3
ktap_test "the PMU has its interrupt (PPI 7, INTID 23)" sh -c 'grep -q "GIC[^ ]*  *23 .*arm-pmu" /proc/interrupts'
# exact counts: the smallest of three runs (a timer tick taken at EL0 only ever adds)
count() {
	min=""
	for i in 1 2 3; do
		c=$(perf stat -x, -e "$1" "./$2" 2>&1 | sed -n 's/^\([0-9][0-9]*\),.*/\1/p')
		[ -n "$c" ] || return 1
		if [ -z "$min" ] || [ "$c" -lt "$min" ]; then min=$c; fi
	done
	echo "$min"
}
exact() { c=$(count "$1" "arm-loop$2") && echo "$1 arm-loop$2: $c" && test "$c" = "$3"; }
ktap_test "instructions:u of a 1000-iteration loop is exactly 2004" exact instructions:u 1000 2004
ktap_test "instructions:u of a 101000-iteration loop is exactly 202004" \
	exact instructions:u 101000 202004
ktap_test "armv8_pmuv3/inst_retired/u gives the same 2004" \
	exact armv8_pmuv3/inst_retired/u 1000 2004
ktap_end
exit 0
