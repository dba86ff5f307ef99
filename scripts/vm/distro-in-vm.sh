# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the VM booted on one of Debian 12's own arm64 kernels (scripts/distro/check.sh:
# vm-run --kernel <Debian Image> --module <apmu.ko built against its headers>), apmu.ko
# already loaded by vm-run. The tests of the test kernel (scripts/vm/check-in-vm.sh), all
# of them or the smoke set (APMU_DISTRO, below), through the same functions of vmlib.sh
# (scripts/vm/lib.sh), in sections named
# distro-<series>:<suite>; each section prints the kernel release first. What Debian's
# config does not allow is a SKIP with the reason: the KUnit suites, and the halves of
# apmu_amu and apmu_pcs over the register models (their test-only modules are built with
# the KUnit suites).

. /apmu/vmlib.sh
rel=$(uname -r)
pfx=distro-$(echo "$rel" | cut -d. -f1,2):

# 0. The module as Debian's kernel took it: loaded, tainted (unsigned, out of tree), not refused
tsec "$pfx" load
ktap_test "uname -r is a Debian kernel ($rel)" sh -c 'uname -v; uname -v | grep -q Debian'
taint() { # unsigned modules taint (E, 8192) and out-of-tree ones too (O, 4096)
	t=$(cat /proc/sys/kernel/tainted)
	echo "tainted=$t"
	dmesg | grep -E 'apmu: (module verification failed|loading out-of-tree)'
	[ $((t & 8192)) -ne 0 ] && [ $((t & 4096)) -ne 0 ] && grep -q '^apmu ' /proc/modules
}
ktap_test "unsigned apmu.ko loaded: kernel tainted E and O, not refused" taint
tsec_end

# 1. The sections of the test kernel, in its order: all of them where no test kernel has
# the same source (APMU_DISTRO=full, scripts/distro/check.sh), else the ones Debian's
# configuration can change most directly (smoke: the kselftests' KernelCI run, perf's exact
# counts, the module's lifecycle)
sec_ksft_collection "$pfx"
[ "${APMU_DISTRO:-full}" != full ] || sec_bench_quick "$pfx"
sec_perf "$pfx"

if [ "${APMU_DISTRO:-full}" = full ]; then
	# KUnit: the suites are a module that needs CONFIG_KUNIT
	tsec "$pfx" kunit:apmu_kunit
	if [ -d /sys/kernel/debug/kunit ]; then
		ktap_fail "this kernel has KUnit: run apmu_kunit.ko here too"
	else
		ktap_skip apmu_kunit "CONFIG_KUNIT is not set in Debian's kernel config: the KUnit suites run on the test kernel only"
	fi
	tsec_end

	sec_after_kunit "$pfx"
else
	# (leaves apmu unloaded, as sec_after_kunit does: the readme section loads the
	# DKMS-installed module)
	sec_lifecycle "$pfx"
fi

# 2. The README's board steps after the build, literally: the DKMS-installed module
# (dkms install on the host, its tree copied in as /apmu/lib), modprobe, then the perf
# commands exactly as the README prints them, with apmu_workload as ./your-program
readme_pmu=apmu_armv8_pmuv3
tsec "$pfx" readme
modload() {
	# not loaded yet, or modprobe would only find the modules vm-run put in /apmu
	if grep -q '^apmu' /proc/modules; then
		echo "apmu is still loaded: modprobe would not load the DKMS-installed module"
		return 1
	fi
	mkdir -p /lib/modules && cp -a /apmu/lib/modules/"$rel" /lib/modules/ &&
		depmod "$rel" && modprobe apmu && grep '^apmu ' /proc/modules &&
		find /lib/modules/"$rel" -name 'apmu*.ko*'
}
# kmod's modprobe loads the units after apmu.ko (its softdep); the VM's busybox modprobe
# applies no softdep: the softdep is checked in the installed module, the units loaded
# by name (apmu_pcs through modules.dep's dependency on apmu)
softdep() {
	tr '\0' '\n' <"$(find /lib/modules/"$rel" -name apmu.ko | head -n 1)" |
		grep -x 'softdep=post: apmu_amu apmu_pcs'
}
units() {
	modprobe apmu_pcs && modprobe apmu_amu && grep '^apmu' /proc/modules &&
		grep -q '^apmu_amu ' /proc/modules && grep -q '^apmu_pcs ' /proc/modules
}
if [ -d /apmu/lib/modules/"$rel" ]; then
	ktap_test "modprobe apmu (installed by dkms install)" modload
	ktap_test "the installed apmu.ko's softdep names apmu_amu and apmu_pcs" softdep
	ktap_test "modprobe apmu_pcs, apmu_amu (installed by dkms install) load" units
else
	ktap_fail "modprobe apmu: no DKMS-installed module tree for $rel"
fi
ktap_test "the PMU the README names, $readme_pmu, is the one apmu registered here" \
	sh -c "ls -d /sys/bus/event_source/devices/apmu_*; test \"\$(ls -d /sys/bus/event_source/devices/apmu_*)\" = /sys/bus/event_source/devices/$readme_pmu"
ktap_test "perf list $readme_pmu/" \
	sh -c "perf list $readme_pmu/ 2>&1 | tee /tmp/pl.txt | head -n 5; grep -q inst_retired /tmp/pl.txt"
stat_counts() { # stat_counts EVENTS NAME...: perf stat -e EVENTS counts each NAME
	perf stat -e "$1" -- ./apmu_workload 100000 >/tmp/readme.txt 2>&1 || return 1
	cat /tmp/readme.txt
	shift
	for e in "$@"; do
		grep -qE "^ *[0-9][0-9,.]* +$e( |\$)" /tmp/readme.txt || return 1
	done
}
ktap_test "perf stat -e cycles,instructions -- ./apmu_workload 100000" \
	stat_counts cycles,instructions cycles instructions
ktap_test "perf stat -e $readme_pmu/inst_retired/u -- ./apmu_workload 100000" \
	stat_counts "$readme_pmu/inst_retired/u" "$readme_pmu/inst_retired/u"
modunload() { modprobe -r apmu_pcs apmu_amu apmu && ! grep '^apmu' /proc/modules; }
ktap_test "modprobe -r apmu_pcs apmu_amu apmu unloads all three" modunload
tsec_end
apmu_unload 2>/dev/null

ktap_section "${pfx}dmesg"
dmesg
ktap_section_end
exit 0
