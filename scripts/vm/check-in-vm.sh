# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM (busybox sh, cwd /apmu, apmu.ko already loaded by vm-run).
# Each suite's TAP/KTAP goes between APMU-SECTION markers; scripts/tap-summary.py reads
# them from the console log and counts. The kselftests run through the kernel's
# run_kselftest.sh, as kernel CI runs them (ksft in vmlib.sh); the KUnit suites run the
# kernel's way for a test module: loading it runs them, debugfs keeps their KTAP.

. /apmu/vmlib.sh

# The sections both lanes run are functions of vmlib.sh (scripts/vm/lib.sh), called here
# with no section-name prefix and by distro-in-vm.sh with "distro-<series>:".

# 0. KernelCI's form first, on the freshly loaded module: run_kselftest.sh -c apmu, the
# whole collection with its default arguments (ok or SKIP only)
sec_ksft_collection ""

# 1. kselftests, 64-bit counters (apmu32, rdpmc32, nosample and noirq need the module
# reloaded, below)
sec_ksft_64bit ""

# 1b. make bench's program, once in its quick mode (this kernel has lock debugging: the
# figures are printed, not judged)
sec_bench_quick ""

# 2. Debian's perf on apmu: user instructions of a known loop, exactly
sec_perf ""

# 3. KUnit suites (the options they need: drivers/perf/apmu/tests/.kunitconfig): loading
# the module runs them; debugfs keeps each suite's KTAP. Joined here into one KTAP document,
# suites numbered 1..n, which scripts/check.sh also hands to the kernel's kunit.py parse.
section "kunit:apmu_kunit"
if insmod ./apmu_kunit.ko; then
	echo "KTAP version 1"
	n=0
	for d in /sys/kernel/debug/kunit/apmu_*; do
		[ -f "$d/results" ] && n=$((n + 1))
	done
	echo "1..$n"
	i=0
	for d in /sys/kernel/debug/kunit/apmu_*; do
		[ -f "$d/results" ] || continue
		i=$((i + 1))
		sed -n "/^KTAP version/d; /^1\.\.1\$/d; s/^ok 1 /ok $i /; s/^not ok 1 /not ok $i /; p" \
			"$d/results"
	done
	rmmod apmu_kunit
	section_end "kunit:apmu_kunit" 0
else
	section_end "kunit:apmu_kunit" 1
fi

# 4. Module lifecycle, as TAP (apmu.ko unloaded afterwards)
sec_lifecycle ""

# 5. kselftests again on 32-bit event counters; 6. the counting-only fallback, forced;
# 6a. no overflow interrupt, forced (the fold timer); 6b. the AMU unit (plain VM, then the
# register model); 6c. PC sampling (bogus frames refused, then the frame model)
sec_ksft_32bit ""
sec_nosample ""
sec_noirq ""
sec_amu ""
sec_pcs ""

# 7. perf record on apmu: profiles, callchains, throttling, long runs. Last, because
# perf lowers kernel.perf_event_max_sample_rate after slow handlers (lockdep makes ours
# slow under QEMU).
sec_sampling ""

section "dmesg"
dmesg
section_end dmesg 0
exit 0
