# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM (busybox sh, cwd /apmu, apmu.ko already loaded by vm-run).
# Each suite's TAP/KTAP goes between APMU-SECTION markers; scripts/tap-summary.py reads
# them from the console log and counts. The kselftests run through the kernel's
# run_kselftest.sh, as kernel CI runs them (ksft in vmlib.sh); the KUnit suites run the
# kernel's way for a test module: loading it runs them, debugfs keeps their KTAP.

. /apmu/vmlib.sh

# The sections both lanes run are functions of vmlib.sh (scripts/vm/lib.sh), called here
# with the section-name prefix APMU_PFX ("" on the 6.12 test kernel; "7.2:" on the 7.2
# one: vm-run --kernel 7.2 --append APMU_PFX=7.2:, a kernel command-line word that the
# kernel hands to init as an environment variable) and by distro-in-vm.sh with
# "distro-<series>:".
pfx=${APMU_PFX:-}

# KASAN: the 6.12 test kernel has it (scripts/kconfig/apmu-kasan.config), and every section
# below runs under it; a "BUG: KASAN" report anywhere in the console fails make check
# (scripts/tap-summary.py). This section only appears where the kernel said at boot that
# the sanitizer runs, and scripts/lanes.txt asks the test lane for it: a test kernel
# built without KASAN fails make check as a missing section.
if dmesg | grep -q "KernelAddressSanitizer initialized"; then
	tsec "$pfx" kasan
	ktap_test "this kernel runs the address sanitizer (KernelAddressSanitizer initialized)" \
		sh -c 'dmesg | grep -q "KernelAddressSanitizer initialized"'
	tsec_end
fi

# 0./1. KernelCI's form first, on the freshly loaded module: run_kselftest.sh -c apmu, the
# whole collection with its default arguments (ok or SKIP only): the kselftests on 64-bit
# counters (apmu32, rdpmc32, nosample and noirq need the module reloaded, below)
sec_ksft_collection "$pfx"

# 1b. make bench's program, once in its quick mode (this kernel has lock debugging: the
# figures are printed, not judged)
sec_bench_quick "$pfx"

# 2. Debian's perf on apmu: user instructions of a known loop, exactly
sec_perf "$pfx"

# 3. KUnit suites (sec_kunit): loading apmu_kunit.ko runs them, one KTAP document that
# scripts/check.sh also hands to the kernel's kunit.py parse
sec_kunit "$pfx"

# 4.-7. (sec_after_kunit) module lifecycle; the kselftests again on 32-bit event counters;
# the counting-only fallback, forced; no overflow interrupt, forced (the fold timer); the
# AMU unit (plain VM, then the register model); PC sampling (bogus frames refused, then
# the frame model); perf record on apmu (profiles, callchains, throttling, long runs)
sec_after_kunit "$pfx"

ktap_section "${pfx}dmesg"
dmesg
ktap_section_end
exit 0
