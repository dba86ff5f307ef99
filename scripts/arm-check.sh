#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/arm-check.sh: the 32-bit Arm lane of make check. Builds (or reuses) the lane's
# ARMv7 LPAE kernel (APMU_ARCH=arm scripts/build-kernel.sh, cached like the arm64 one),
# apmu.ko for it the way apmu.rst tells a 32-bit board owner to (make KDIR=... ARCH=arm
# CROSS_COMPILE=arm-linux-gnueabihf-, with W=1 and warnings as errors, in build/arm/src: a
# copy of the sources, so the arm64 objects in the work tree stay untouched), sparse over
# it, the static armhf loops of scripts/vm/arm-loop.S and the armhf root, then boots
# `scripts/vm-run --arch arm` with that apmu.ko and runs scripts/vm/arm-apmu-in-vm.sh, and
# boots it once more with the in-tree driver (--no-apmu) for scripts/vm/arm-intree-in-vm.sh,
# the counts apmu's must equal.
#
# QEMU 7.2's 32-bit boots sometimes hang for good in stop_machine() (apmu.rst, "32-bit Arm
# lane"). A boot whose script has not started after $boot_timeout seconds is stopped and
# booted once more, with a TAP diagnostic in arm:build saying so (its console is kept in
# build/console-arm-hung.log or console-arm-intree-hung.log, outside the counted logs); so
# is one whose console then went silent for $stall seconds, unless the hung console holds
# a kernel splat (that fails the lane). A second hang fails the lane.
#
# The VM with apmu also runs apmu_kunit.ko's KUnit suites (arm:kunit) and the kselftests,
# built static for armhf with the kernel's lib.mk into build/arm/kselftest_install
# (arm:kselftest:apmu_pmu, arm:kselftest:apmu_rdpmc, arm:kselftest:apmu_sampling), and
# apmu_pmu's 32-bit wrap tests again without the overflow interrupt (the test-only
# apmu_knobs.ko overflow_irq=0: arm:kselftest:apmu_pmu:noirq).
#
# Writes build/arm.log: the host's TAP section arm:build, then the VM consoles (sections
# arm:apmu, arm:kunit, arm:kselftest:* and arm:intree); make check counts it with the
# others (make arm-check: that lane alone). Run by hand, it installs what is missing
# first. Exit status: 0 when the builds passed and both VMs finished their scripts.
#
#   scripts/arm-check.sh [--qemu VER]
#
# --qemu 7.2|10: the QEMU both VMs boot (scripts/vm-run --qemu; default $APMU_QEMU, else
# 7.2); arm:build names it in a TAP diagnostic.
set -euo pipefail
APMU_ARCH=arm
. "$(dirname "$0")/lib.sh"

while [ $# -gt 0 ]; do
	case "$1" in
	--qemu) APMU_QEMU=$2; shift ;;
	*) apmu_die "arm-check.sh: unknown argument $1 (--qemu 7.2|10)" ;;
	esac
	shift
done
export APMU_QEMU=${APMU_QEMU:-7.2}

if [ -z "${APMU_BUILT:-}" ]; then
	bash "$APMU_TOP/scripts/deps.sh"
fi
out=$APMU_TOP/build
adir=$out/arm
bdir=$adir/src
ko=$bdir/apmu.ko
log=$out/arm.log
console=$out/console-arm.log
console_intree=$out/console-arm-intree.log
# a whole run of an empty script, from packing the initramfs to power-off, takes about 30 s
boot_timeout=120
# a silent console for this long is a hung VM (its quietest stretch: the wrap tests, about
# a minute)
stall=300
loops=(1000 101000 100000000 2200000000)
mkdir -p "$adir"
rm -f "$out"/console-arm*.log
: >"$log"
rc=0

is_arm() { readelf -h "$1" 2>/dev/null | grep -q 'Machine:.*ARM$'; }

# The host's checks, as TAP results (section arm:build, written once the VM has run).
host() {
	local t0 cached kdir rel sp vm n t
	ktap_reset
	t0=$(date +%s)
	cached=""
	[ ! -f "$(apmu_kdir)/.apmu-done" ] || cached=", cached"
	if ! kdir=$("$APMU_TOP/scripts/build-kernel.sh"); then
		ktap_fail "the lane's kernel builds (scripts/kconfig/apmu-test-arm.config)"
		tail -n 20 "$(apmu_kdir)/build.log" 2>/dev/null | sed 's/^/# /'
		for t in module sparse vermagic loops root kselftests; do ktap_fail "$t: no kernel"; done
		return 1
	fi
	ktap_pass "the lane's kernel builds (scripts/kconfig/apmu-test-arm.config)"
	echo "# $kdir ($(( $(date +%s) - t0 )) s$cached)"
	rel=$(cat "$kdir/include/config/kernel.release")

	apmu_stage_src "$bdir"
	apmu_log "arm: make KDIR=$kdir ARCH=arm (cross, W=1, warnings are errors)"
	rm -f "$adir/build.log"
	if make -s -j"$(nproc)" -C "$bdir" KDIR="$kdir" ARCH=arm \
		CROSS_COMPILE=arm-linux-gnueabihf- W=1 KCFLAGS=-Werror \
		>"$adir/build.log" 2>&1 && is_arm "$ko" && is_arm "$bdir/apmu_kunit.ko" &&
		is_arm "$bdir/apmu_knobs.ko"; then
		ktap_pass "make KDIR=<arm kernel> ARCH=arm W=1 KCFLAGS=-Werror builds apmu.ko, apmu_kunit.ko and apmu_knobs.ko"
	else
		ktap_fail "make KDIR=<arm kernel> ARCH=arm W=1 KCFLAGS=-Werror builds apmu.ko, apmu_kunit.ko and apmu_knobs.ko"
		sed 's/^/# /' "$adir/build.log" | tail -n 30
	fi
	# sparse over every object, as scripts/sparse.sh does for arm64 (AArch32 code too)
	sp=$(make -s -C "$kdir" M="$bdir" ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- C=2 \
		CHECK=sparse modules 2>&1 >/dev/null | grep -E 'warning|error' || true)
	if [ -z "$sp" ] && [ -f "$ko" ]; then
		ktap_pass "sparse clean (C=2, ARCH=arm)"
	else
		ktap_fail "sparse clean (C=2, ARCH=arm)"
		echo "${sp:-no apmu.ko}" | sed 's/^/# /' | head -n 40
	fi
	# apmu-stat for a 32-bit user space on an arm64 kernel (CNTFRQ through CP15)
	if make -s -C "$APMU_TOP/tools/apmu-stat" CROSS_COMPILE=arm-linux-gnueabihf- \
		CFLAGS=-Werror O="$adir/apmu-stat" >"$adir/apmu-stat.log" 2>&1 &&
		is_arm "$adir/apmu-stat/apmu-stat"; then
		ktap_pass "apmu-stat builds for 32-bit Arm (armhf, warnings are errors)"
	else
		ktap_fail "apmu-stat builds for 32-bit Arm (armhf, warnings are errors)"
		sed 's/^/# /' "$adir/apmu-stat.log" | tail -n 20
	fi
	vm=$(modinfo -F vermagic "$ko" 2>/dev/null || true)
	echo "# vermagic: $vm"
	if [ "${vm%% *}" = "$rel" ]; then
		ktap_pass "vermagic names $rel"
	else
		ktap_fail "vermagic names $rel"
	fi

	rm -f "$adir"/arm-loop*
	for n in "${loops[@]}"; do
		arm-linux-gnueabihf-gcc -static -nostdlib -DN="$n" -o "$adir/arm-loop$n" \
			"$APMU_TOP/scripts/vm/arm-loop.S" 2>&1 | sed 's/^/# /'
	done
	n=0
	for f in "${loops[@]/#/$adir/arm-loop}"; do is_arm "$f" && n=$((n + 1)); done
	if [ $n = ${#loops[@]} ]; then
		ktap_pass "the static armhf loops of arm-loop.S build (N = ${loops[*]})"
	else
		ktap_fail "the static armhf loops of arm-loop.S build (N = ${loops[*]})"
	fi

	if "$APMU_TOP/scripts/armhf-root.sh" >"$adir/root" 2>"$adir/root.log"; then
		ktap_pass "Debian's armhf busybox and perf root (scripts/armhf-root.sh)"
	else
		ktap_fail "Debian's armhf busybox and perf root (scripts/armhf-root.sh)"
		sed 's/^/# /' "$adir/root.log" | tail -n 20
		ktap_fail "the kselftests: no armhf root, not built"
		return 1
	fi

	# apmu's kselftests static for armhf, the kernel's way as for arm64 (scripts/lib.sh,
	# apmu_ksft_install), into their own install directory: arm64's stays
	if apmu_ksft_install "$kdir" "$adir/ksft-tree" "$adir/kselftest_install" \
		"$adir/kselftest.log" && is_arm "$adir/kselftest_install/apmu/apmu_pmu" &&
		is_arm "$adir/kselftest_install/apmu/apmu_rdpmc" &&
		is_arm "$adir/kselftest_install/apmu/apmu_sampling"; then
		ktap_pass "the kselftests build static for armhf (lib.mk, kselftest installer)"
	else
		ktap_fail "the kselftests build static for armhf (lib.mk, kselftest installer)"
		sed 's/^/# /' "$adir/kselftest.log" | tail -n 30
		rm -rf "$adir/kselftest_install"
	fi
	[ -f "$ko" ] && [ $n = ${#loops[@]} ]
}

# vm CONSOLE VM-RUN-OPTIONS... SCRIPT [FILE...]: a boot of the lane's VM, and one more
# when the first hung before SCRIPT started or went silent for $stall seconds after
# (the stop_machine() hang of QEMU 7.2 on 32-bit Arm: every kernel text patch there, a
# kprobe's or a static key's, runs under stop_machine()), unless the hung boot printed a
# kernel splat; notes what happened for arm:build, naming the script by $script
vm() {
	local console=$1 hung t0 b r why
	shift
	hung=${console%.log}-hung.log
	t0=$(date +%s)
	for b in 1 2; do
		r=0
		APMU_BUILT=1 "$APMU_TOP/scripts/vm-run" --arch arm --quiet \
			--boot-timeout $boot_timeout --stall $stall --log "$console" \
			--timeout 900 "$@" || r=$?
		case $r in
		125) why="the script had not started after ${boot_timeout} s" ;;
		126) why="its console was silent for ${stall} s (vCPU registers at the end of the log)" ;;
		*) break ;;
		esac
		if [ $b = 1 ]; then
			mv "$console" "$hung"
			# the retry must not hide a warning printed before the hang (the
			# hung console is outside the counted logs)
			if ! apmu_stall_splats "$hung" >&2; then
				note+=("$script: boot 1 hung: $why, after a kernel splat (console kept in build/${hung##*/}): the lane fails")
				apmu_log "vm: ${note[-1]}"
				break
			fi
			note+=("$script: boot 1 hung: $why (the stop_machine() hang of QEMU 7.2 on 32-bit Arm; console kept in build/${hung##*/}): booted again, once")
			apmu_log "vm: ${note[-1]}"
		else
			note+=("$script: boot 2 hung too ($why): the lane fails")
		fi
	done
	note+=("$script: the VM took $(( $(date +%s) - t0 )) s; vm-run exit status $r")
	[ $r = 0 ]
}

# which QEMU the VMs boot (fetched here, before they need it, when it is QEMU 10)
qemu=$("$APMU_TOP/scripts/qemu.sh" "$APMU_QEMU" arm) || rc=1
note=("vm-run --qemu $APMU_QEMU: $("${qemu:-false}" --version 2>/dev/null | head -n 1)")
host >"$adir/build.tap" || rc=1
if [ $rc = 0 ]; then
	apmu_log "vm: booting the 32-bit Arm VM with apmu (log: $console)"
	script=arm-apmu-in-vm.sh
	ksft=()
	[ ! -d "$adir/kselftest_install" ] || ksft=("$adir/kselftest_install")
	vm "$console" --module "$ko" "$APMU_TOP/scripts/vm/$script" \
		"${loops[@]/#/$adir/arm-loop}" "$bdir/apmu_kunit.ko" "$bdir/apmu_knobs.ko" \
		"${ksft[@]}" || rc=1
	# the in-tree driver on the same kernel: the counts apmu's must equal
	apmu_log "vm: booting it with the in-tree driver (log: $console_intree)"
	script=arm-intree-in-vm.sh
	vm "$console_intree" --no-apmu "$APMU_TOP/scripts/vm/$script" \
		"$adir/arm-loop1000" "$adir/arm-loop101000" || rc=1
fi
{
	ktap_begin arm:build
	ktap_include "$adir/build.tap"
	[ ${#note[@]} = 0 ] || printf '# %s\n' "${note[@]}"
	ktap_end
	[ ! -f "$console" ] || cat "$console"
	[ ! -f "$console_intree" ] || cat "$console_intree"
} >>"$log"

exit $rc
