# SPDX-License-Identifier: GPL-2.0
#
# The 32-bit Arm lane with apmu (not part of make check yet): the AArch32 PMUv3 backend
# on QEMU's AArch32 "max" CPU, counts against the in-tree driver's (arm-intree-in-vm.sh).
#
#   make -C KDIR_ARM M=$PWD ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- W=1 modules
#   for n in 1000 101000 2200000000; do arm-linux-gnueabihf-gcc -static \
#       -nostdlib -DN=$n -o /tmp/arm-loop$n scripts/vm/arm-loop.S; done
#   scripts/vm-run --arch arm --module apmu.ko scripts/vm/arm-apmu-in-vm.sh \
#       /tmp/arm-loop1000 /tmp/arm-loop101000 /tmp/arm-loop2200000000
#
# The cycle counter is used here (apmu reads and writes PMCCNTR with the 32-bit MRC/MCR,
# which QEMU 7.2 implements). The counts past 2^32 take 4.4e9 guest instructions each
# (about 10 s). Not here: perf record, as Debian's armhf perf needs the kernel's kuser
# helpers (CONFIG_KUSER_HELPERS, off in the lane's kernel) and segfaults without them.

. /apmu/vmlib.sh
section arm:apmu
echo "TAP version 13"
echo "1..15"
P=apmu_armv8_pmuv3
D=/sys/bus/event_source/devices/$P
tap 1 "apmu.ko is loaded and registered $P" sh -c "grep -q '^apmu ' /proc/modules && test -d $D"
tap 2 "format/, events/ and caps/ exist" sh -c \
	"test -f $D/format/event && test -f $D/events/inst_retired && test -f $D/caps/counters"
echo "# dmesg: $(dmesg | grep -m1 "$P:")"
for f in "$D"/caps/* "$D"/format/*; do echo "# ${f#"$D"/}: $(cat "$f")"; done
echo "# events: $(ls "$D"/events | tr '\n' ' ')"
tap 3 "AArch32: 32-bit counters (caps/long_counters 0), no PMICNTR, no thresholds" sh -c \
	"test \$(cat $D/caps/long_counters) = 0 && test \$(cat $D/caps/instruction_counter) = 0 &&
	 test \$(cat $D/caps/threshold_max) = 0x00000000 && ! test -e $D/format/threshold"
tap 4 "the PMU interrupt is apmu's (PPI 7, INTID 23)" sh -c \
	'grep -q "GIC[^ ]*  *23 .*apmu" /proc/interrupts'

# tap, and the check's own output as diagnostics when it passes too
tapv() {
	tap "$@" | tee /tmp/tapline
	if grep -q '^ok' /tmp/tapline; then sed 's/^/# /' /tmp/tap.out; fi
}

# exact counts: the smallest of three runs (a timer tick taken at EL0 only ever adds)
count() {
	min=""
	for i in 1 2 3; do
		c=$(perf stat -x, -e "$1" "./$2" 2>&1 | sed -n 's/^\([0-9][0-9]*\),.*/\1/p')
		[ -n "$c" ] || { perf stat -x, -e "$1" "./$2"; return 1; }
		if [ -z "$min" ] || [ "$c" -lt "$min" ]; then min=$c; fi
	done
	echo "$min"
}
exact() { c=$(count "$1" "arm-loop$2") && echo "$1 arm-loop$2: $c" && test "$c" = "$3"; }
tapv 5 "instructions:u of a 1000-iteration loop is exactly 2004" exact instructions:u 1000 2004
tapv 6 "instructions:u of a 101000-iteration loop is exactly 202004" \
	exact instructions:u 101000 202004
tapv 7 "$P/inst_retired/u gives the same 2004" exact "$P/inst_retired/u" 1000 2004
tapv 8 "$P/inst_retired/u, 101000 iterations: 202004" exact "$P/inst_retired/u" 101000 202004
tapv 9 "cycles:u (PMCCNTR, 32-bit MRC/MCR) of the 1000 loop: icount makes it 2004 too" \
	exact cycles:u 1000 2004
tap 10 "perf stat -e cycles (user and kernel) counts, no oops" sh -c \
	'perf stat -x, -e cycles ./arm-loop1000 2>&1 | tee /dev/stderr | grep -q "^[1-9][0-9]*,"'
tap 11 "plain perf stat (default events, cycles among them) works" sh -c \
	'perf stat ./arm-loop1000 2>&1 | tee /dev/stderr | grep -q "instructions"'
tap 12 "rdpmc is refused (no EL0 reads from AArch32)" sh -c \
	"perf stat -e $P/inst_retired,rdpmc=1/u ./arm-loop1000 2>&1 | grep -q 'not supported'"
# 4400000004 > 2^32. CPU-wide, so no context switch folds the 32-bit counters (armed at
# 2^31): the overflow interrupt must, twice. Ticks taken at EL0 add a few hundred each.
irqs() { grep 'apmu' /proc/interrupts | awk '{ print $2 + $3 }'; }
big() {
	i0=$(irqs)
	c=$(perf stat -x, -a -e "$1" -- taskset 1 ./arm-loop2200000000 2>&1 |
	    sed -n 's/^\([0-9][0-9]*\),.*/\1/p')
	i1=$(irqs)
	echo "$1 -a arm-loop2200000000: $c (2N+4 = 4400000004, +$((c - 4400000004))), $((i1 - i0)) overflow interrupts"
	# a lost or doubled fold is 2^31 or 2^32 off
	test "$c" -ge 4400000004 && test "$((c - 4400000004))" -lt 10000000 &&
		test "$((i1 - i0))" -ge 2
}
tapv 13 "instructions:u past 2^32 (N=2200000000): 4400000004 plus tick noise" \
	big instructions:u
tapv 14 "cycles:u past 2^32 on the 32-bit PMCCNTR" big cycles:u
tap 15 "rmmod apmu" rmmod apmu
echo "# dmesg tail:"; dmesg | tail -n 5 | sed 's/^/# /'
section_end arm:apmu 0
exit 0
