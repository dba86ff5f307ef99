# SPDX-License-Identifier: GPL-2.0
#
# The 32-bit Arm lane with apmu (make check's arm:apmu section, run by scripts/arm-check.sh):
# the AArch32 PMUv3 backend on QEMU's AArch32 "max" CPU, counts against the in-tree
# driver's (arm-intree-in-vm.sh). By hand:
#
#   make -C KDIR_ARM M=$PWD ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- W=1 modules
#   for n in 1000 101000 100000000 2200000000; do arm-linux-gnueabihf-gcc -static \
#       -nostdlib -DN=$n -o /tmp/arm-loop$n scripts/vm/arm-loop.S; done
#   scripts/vm-run --arch arm --module apmu.ko scripts/vm/arm-apmu-in-vm.sh \
#       /tmp/arm-loop1000 /tmp/arm-loop101000 /tmp/arm-loop100000000 /tmp/arm-loop2200000000 \
#       apmu_kunit.ko apmu_knobs.ko build/arm/kselftest_install
#
# Then, in the same VM, the KUnit suites (arm:kunit) and, when the armhf kselftest install
# directory is given, the kselftests (arm:kselftest:*); scripts/arm-check.sh builds both.
#
# The cycle counter is used here (apmu reads and writes PMCCNTR with the 32-bit MRC/MCR,
# which QEMU 7.2 implements). perf record needs the kernel's kuser helpers (Debian's armhf
# perf reads its ring buffer with them; CONFIG_KUSER_HELPERS is in the lane's fragment).
# The counts past 2^32 take 4.4e9 guest instructions each (about 10 s).

. /apmu/vmlib.sh
ktap_begin arm:apmu
P=apmu_armv8_pmuv3
D=/sys/bus/event_source/devices/$P
ktap_test "apmu.ko is loaded and registered $P" sh -c "grep -q '^apmu ' /proc/modules && test -d $D"
ktap_test "format/, events/ and caps/ exist" sh -c \
	"test -f $D/format/event && test -f $D/events/inst_retired && test -f $D/caps/counters"
echo "# dmesg: $(dmesg | grep -m1 "$P:")"
for f in "$D"/caps/* "$D"/format/*; do echo "# ${f#"$D"/}: $(cat "$f")"; done
echo "# events: $(ls "$D"/events | tr '\n' ' ')"
# the threshold format/ fields are listed anyway, as in-tree: threshold= fails at open
ktap_test "AArch32: 32-bit counters (caps/long_counters 0), no PMICNTR, no thresholds" sh -c \
	"test \$(cat $D/caps/long_counters) = 0 && test \$(cat $D/caps/instruction_counter) = 0 &&
	 test \$(cat $D/caps/threshold_max) = 0x00000000 && test -e $D/format/threshold"
ktap_test "the PMU interrupt is apmu's (PPI 7, INTID 23)" sh -c \
	'grep -q "GIC[^ ]*  *23 .*apmu" /proc/interrupts'

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
ktap_testv "instructions:u of a 1000-iteration loop is exactly 2004" exact instructions:u 1000 2004
ktap_testv "instructions:u of a 101000-iteration loop is exactly 202004" \
	exact instructions:u 101000 202004
ktap_testv "$P/inst_retired/u gives the same 2004" exact "$P/inst_retired/u" 1000 2004
ktap_testv "$P/inst_retired/u, 101000 iterations: 202004" exact "$P/inst_retired/u" 101000 202004
ktap_testv "cycles:u (PMCCNTR, 32-bit MRC/MCR) of the 1000 loop: icount makes it 2004 too" \
	exact cycles:u 1000 2004
ktap_test "perf stat -e cycles (user and kernel) counts, no oops" sh -c \
	'perf stat -x, -e cycles ./arm-loop1000 2>&1 | tee /dev/stderr | grep -q "^[1-9][0-9]*,"'
ktap_test "plain perf stat (default events, cycles among them) works" sh -c \
	'perf stat ./arm-loop1000 2>&1 | tee /dev/stderr | grep -q "instructions"'
ktap_test "rdpmc is refused (no EL0 reads from AArch32)" sh -c \
	"perf stat -e $P/inst_retired,rdpmc=1/u ./arm-loop1000 2>&1 | grep -q 'not supported'"
irqs() { grep 'apmu' /proc/interrupts | awk '{ print $2 + $3 }'; }
# Sampling: every sample comes from apmu's overflow interrupt (at least as many interrupts
# as samples), and perf report puts arm-loop's hot_loop on top (2e8 instructions). QEMU
# sees an event counter's overflow only at the next exception, here the timer tick (HZ
# 100): about 20 samples where 200 are due, and one of them may land in the kernel.
rec() { # rec MIN_SAMPLES MIN_HOT_LOOP_PERCENT PERF_RECORD_ARGS...
	min=$1 pct=$2
	shift 2
	i0=$(irqs)
	perf record -o /tmp/rec.data "$@" -- ./arm-loop100000000 >/tmp/rec.out 2>&1 ||
		{ cat /tmp/rec.out; return 1; }
	i1=$(irqs)
	n=$(perf report -i /tmp/rec.data --stats 2>/dev/null |
	    sed -n 's/.*SAMPLE events: *\([0-9]*\).*/\1/p' | head -n 1)
	perf report -i /tmp/rec.data --stdio --sort sym 2>/dev/null | grep -v '^#' |
		grep -v '^$' | head -n 4 | tee /tmp/rep.txt
	p=$(sed -n 's/^ *\([0-9][0-9]*\)\.[0-9]*%.*hot_loop$/\1/p' /tmp/rep.txt | head -n 1)
	echo "samples: ${n:-none}, apmu interrupts: $((i1 - i0)), hot_loop: ${p:-0}%"
	test "${n:-0}" -ge "$min" && test $((i1 - i0)) -ge "$n" && test "${p:-0}" -ge "$pct"
}
ktap_testv "perf record -e cycles: the cycle counter's interrupt, hot_loop >= 90% of >= 100" \
	rec 100 90 -e cycles
ktap_testv "perf record -e $P/inst_retired/ -c 1000000: an event counter's, hot_loop >= 80% of >= 10" \
	rec 10 80 -e "$P/inst_retired/" -c 1000000
# 4400000004 > 2^32. CPU-wide, so no context switch folds the 32-bit counters (armed at
# 2^31): the overflow interrupt must, twice. Ticks taken at EL0 add a few hundred each.
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
ktap_testv "instructions:u past 2^32 (N=2200000000): 4400000004 plus tick noise" \
	big instructions:u
ktap_testv "cycles:u past 2^32 on the 32-bit PMCCNTR" big cycles:u
ktap_test "rmmod apmu" apmu_unload
echo "# dmesg tail:"; dmesg | tail -n 5 | sed 's/^/# /'
ktap_end

# The KUnit suites of apmu_kunit.ko built for arm (build/arm/src), loaded after apmu.ko as
# on arm64 (check-in-vm.sh's kunit:apmu_kunit): loading runs them, debugfs keeps each
# suite's KTAP, joined here into one KTAP document, suites numbered 1..n.
ktap_section arm:kunit
if apmu_load && insmod ./apmu_kunit.ko; then
	kunit_ktap
	rc=0
	rmmod apmu_kunit || rc=1
	apmu_unload || rc=1
	ktap_section_end $rc
else
	ktap_fail "insmod apmu.ko and apmu_kunit.ko"
	ktap_section_end 1
fi

if [ -d ./kselftest_install ]; then
	apmu_load
	for t in apmu_pmu apmu_rdpmc apmu_sampling; do
		ktap_section "arm:kselftest:$t"
		ksft $t
		ktap_section_end $?
	done
	apmu_unload
	# Without the overflow interrupt (the test-only apmu_knobs.ko probes the PMU again
	# without it): the 32-bit counters (all of them here, PMCCNTR included) are folded by
	# the per-CPU timer; the wrap tests must stay exact.
	ktap_section "arm:kselftest:apmu_pmu:noirq"
	if apmu_load && insmod ./apmu_knobs.ko overflow_irq=0; then
		ksft apmu_pmu -f apmu32 -f noirq
		rc=$?
		rmmod apmu_knobs || rc=1
		apmu_unload || rc=1
	else
		ktap_fail "insmod apmu.ko, then apmu_knobs.ko overflow_irq=0"
		rc=1
	fi
	ktap_section_end $rc
fi
exit 0
