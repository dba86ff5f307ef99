#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: install what is missing, build the test kernel (cached), apmu.ko and the
# tests, run the static checks, boot the VM, run kselftests + KUnit + lifecycle tests, and
# end with 'N passed, N failed, N skipped'. Non-zero exit on any failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t0=$(date +%s)
bash "$APMU_TOP/scripts/deps.sh"
kdir=$("$APMU_TOP/scripts/build.sh")
src=$(readlink -f "$kdir/source")
"$APMU_TOP/scripts/arm64-root.sh" >/dev/null

out=$APMU_TOP/build
mkdir -p "$out"
hostlog=$out/host.log
console=$out/console.log

# The 32-bit Arm lane's kernel, then the ARMv5 XScale lane's, build in the background,
# niced, while the arm64 VMs run (QEMU with -icount keeps one core busy); the lanes'
# scripts wait for them through the build locks. The job's status is the arm kernel's.
( st=0
  APMU_ARCH=arm nice -n 10 "$APMU_TOP/scripts/build-kernel.sh" >/dev/null \
	2>"$out/arm-kernel.log" || st=$?
  nice -n 10 "$APMU_TOP/scripts/build-xscale.sh" >/dev/null 2>"$out/xscale-kernel.log" || true
  exit $st ) &
armk=$!
# The KASAN kernel likewise (its lane boots after the Debian kernels' lane).
APMU_FLAVOUR=kasan nice -n 10 "$APMU_TOP/scripts/build-kernel.sh" >/dev/null \
	2>"$out/kasan-kernel.log" &
kasank=$!

# Static checks on the host, as a TAP section of their own.
{
	echo "APMU-SECTION-BEGIN static"
	echo "TAP version 13"
	echo "1..4"
	if bash "$APMU_TOP/scripts/checkpatch.sh" >"$out/checkpatch.log" 2>&1; then
		echo "ok 1 checkpatch --strict and kernel-doc clean"
	else
		echo "not ok 1 checkpatch --strict and kernel-doc clean"
		sed 's/^/# /' "$out/checkpatch.log" | head -n 40
	fi
	if bash "$APMU_TOP/scripts/sparse.sh" >"$out/sparse.log" 2>&1; then
		echo "ok 2 sparse clean"
	else
		echo "not ok 2 sparse clean"
		sed 's/^/# /' "$out/sparse.log" | head -n 40
	fi
	# The kernel options the tests need, read from where kernel CI reads them: the
	# kselftests' `config` and the KUnit suites' `.kunitconfig`. Each must be in the test
	# kernel's fragment (which keys the cached kernel) and in the kernel built from it.
	n=3
	for f in selftests/apmu/config drivers/perf/apmu/tests/.kunitconfig; do
		lacks=$(grep -h '^CONFIG_' "$APMU_TOP/$f" | while read -r opt; do
			grep -qxF "$opt" "$APMU_TOP/scripts/kconfig/apmu-test.config" &&
				grep -qxF "$opt" "$kdir/.config" || echo "$opt"
		done)
		if [ -z "$lacks" ] && grep -q '^CONFIG_' "$APMU_TOP/$f"; then
			echo "ok $n the test kernel has every option of $f"
		else
			echo "not ok $n the test kernel has every option of $f"
			echo "${lacks:-no CONFIG_ line in $f}" | sed 's/^/# missing: /'
		fi
		n=$((n + 1))
	done
	echo "APMU-SECTION-END static rc=0"
} >"$hostlog"

# Linux 7.2: every module built against linux-source-7.2 (W=1, warnings as errors), in the
# background, niced, while the VMs run: section build:7.2 (scripts/build-7.2.sh; its tree
# is prepared once and cached, a warm run rebuilds only what changed).
nice -n 10 bash "$APMU_TOP/scripts/build-7.2.sh" >"$out/build-7.2.log" 2>"$out/build-7.2.err" &
b72=$!

apmu_log "vm: booting the test VM (log: $console)"
vmrc=0
# A console silent for 10 minutes is a stalled VM (no test step is that quiet): seen once on
# QEMU 7.2 -icount, both vCPUs idle for good mid-test. vm-run then appends the vCPUs'
# registers to the log and exits 126; the stalled log is kept, and the VM boots once more.
rm -f "$out/console-stalled.log"
APMU_BUILT=1 "$APMU_TOP/scripts/vm-run" --quiet --log "$console" --timeout 1800 --stall 600 \
	"$APMU_TOP/scripts/vm/check-in-vm.sh" || vmrc=$?
if [ $vmrc -eq 126 ]; then
	mv "$console" "$out/console-stalled.log"
	apmu_log "vm: the test VM stalled (console silent for 600 s, in $(tr -d '\r' \
		<"$out/console-stalled.log" | sed -n 's/^APMU-SECTION-BEGIN //p' | tail -n 1));" \
		"log and vCPU registers in $out/console-stalled.log; booting it once more"
	vmrc=0
	APMU_BUILT=1 "$APMU_TOP/scripts/vm-run" --quiet --log "$console" --timeout 1800 \
		--stall 600 "$APMU_TOP/scripts/vm/check-in-vm.sh" || vmrc=$?
fi
[ $vmrc -eq 124 ] && echo "the VM did not finish in time" >&2
[ $vmrc -eq 126 ] && echo "the test VM stalled twice (see $console)" >&2
if [ -f "$out/console-stalled.log" ] && ! apmu_stall_splats "$out/console-stalled.log" >&2; then
	echo "the stalled test VM printed a kernel splat before it went silent (above)" >&2
	vmrc=1
fi

# Second boot: the in-tree driver owns the PMU; apmu must stand aside.
console2=$out/console-intree.log
apmu_log "vm: booting with the in-tree driver active (log: $console2)"
APMU_BUILT=1 "$APMU_TOP/scripts/vm-run" --quiet --no-apmu --log "$console2" --timeout 600 \
	"$APMU_TOP/scripts/vm/intree-in-vm.sh" || vmrc=$?

# Third boot: a heterogeneous device tree (two PMU nodes with per-CPU SPIs), plus a
# disabled PC-sample frame that apmu must not touch (hetero test 8).
console3=$out/console-hetero.log
apmu_log "vm: booting with two PMU nodes (log: $console3)"
APMU_BUILT=1 "$APMU_TOP/scripts/vm-run" --quiet --hetero \
	--dtb-extra "$APMU_TOP/scripts/vm/pcs-disabled.dts" --log "$console3" --timeout 600 \
	"$APMU_TOP/scripts/vm/hetero-in-vm.sh" || vmrc=$?

# apmu_fuzz, a perf_event fuzzer (scripts/vm/fuzz-in-vm.sh): the same fixed seeds on apmu,
# then on the in-tree driver, each in a boot of its own. A console silent for 60 s is a
# hung kernel (the fuzzer prints every second): the boot stops, its section is then
# missing, and it is not retried.
for fz in apmu intree; do
	apmu_log "vm: apmu_fuzz on the $fz driver (log: $out/console-fuzz-$fz.log)"
	fzopt=()
	[ $fz = apmu ] || fzopt=(--no-apmu)
	APMU_BUILT=1 "$APMU_TOP/scripts/vm-run" --quiet "${fzopt[@]}" --stall 60 --timeout 600 \
		--log "$out/console-fuzz-$fz.log" "$APMU_TOP/scripts/vm/fuzz-in-vm.sh" || vmrc=$?
	touch "$out/console-fuzz-$fz.log"	# absent if vm-run died early: the section is then missing
done

# Debian's own arm64 kernels, 6.1 and 6.12: build, then a boot of each, and 6.1 once more
# with two PMU nodes (build/distro.log)
apmu_log "distro: Debian's 6.1 and 6.12 kernels (log: $out/distro.log)"
APMU_BUILT=1 bash "$APMU_TOP/scripts/distro/check.sh" || vmrc=$?
mapfile -t distro < <(apmu_distro_sections $APMU_DISTRO_SERIES)

# The KASAN lane: the test kernel with KASAN, apmu's modules built for it, the sections
# that add and remove units and events (scripts/vm/kasan-in-vm.sh); a KASAN report is a
# splat and fails the run
console4=$out/console-kasan.log
if wait $kasank && APMU_FLAVOUR=kasan "$APMU_TOP/scripts/build.sh" >/dev/null \
	2>>"$out/kasan-kernel.log"; then
	apmu_log "vm: booting the KASAN kernel (log: $console4)"
	APMU_BUILT=1 "$APMU_TOP/scripts/vm-run" --quiet --kernel kasan --log "$console4" \
		--timeout 1200 --stall 600 "$APMU_TOP/scripts/vm/kasan-in-vm.sh" || vmrc=$?
else
	apmu_log "kasan: the kernel or module build failed ($out/kasan-kernel.log)"
	: >"$console4"	# its sections are then missing
fi

# The 32-bit Arm lane: its kernel, apmu.ko for it, a boot with apmu and one with the
# in-tree driver (build/arm.log)
wait $armk || apmu_log "arm: the background kernel build failed ($out/arm-kernel.log)"
rm -f "$out/arm.log"
apmu_log "arm: the 32-bit Arm lane (log: $out/arm.log)"
APMU_BUILT=1 bash "$APMU_TOP/scripts/arm-check.sh" || vmrc=$?
touch "$out/arm.log"	# absent if the lane died early: its sections are then missing

# The ARMv5 XScale lane: apmu.ko for a PXA27x kernel (W=1, -Werror) and a boot of QEMU's
# spitz with it (build/xscale.log; its own kernel, cached like the others)
apmu_log "xscale: the ARMv5 XScale lane (log: $out/xscale.log)"
rm -f "$out/xscale.log"
bash "$APMU_TOP/scripts/xscale-check.sh" || vmrc=$?
touch "$out/xscale.log"	# absent if the lane died early: its sections are then missing

wait $b72 || apmu_log "7.2: scripts/build-7.2.sh failed ($out/build-7.2.err)"

# The KUnit suites' KTAP once more, through the kernel's own parser (kunit.py parse): the
# section as the VM printed it, less the kernel's console messages that interleave with it.
ktap=$out/kunit.ktap
tr -d '\r' <"$console" |
	sed -n '/^APMU-SECTION-BEGIN kunit:apmu_kunit$/,/^APMU-SECTION-END kunit:apmu_kunit /p' |
	sed '1d; $d' >"$ktap"
{
	echo "APMU-SECTION-BEGIN kunit:ktap"
	echo "TAP version 13"
	echo "1..1"
	# (no __pycache__ written into the shared kernel source)
	if PYTHONDONTWRITEBYTECODE=1 python3 "$src/tools/testing/kunit/kunit.py" parse "$ktap" \
		>"$out/kunit-parse.log" 2>&1 &&
		grep -q 'Testing complete\. Ran [1-9][0-9]* tests: passed: [1-9]' "$out/kunit-parse.log" &&
		! grep -q '\[ERROR\]' "$out/kunit-parse.log"; then
		echo "ok 1 kunit.py parse: apmu_kunit's KTAP is well formed and passes"
		grep 'Testing complete' "$out/kunit-parse.log" | sed 's/^/# /'
	else
		echo "not ok 1 kunit.py parse: apmu_kunit's KTAP is well formed and passes"
		sed 's/^/# /' "$out/kunit-parse.log" | grep -v PASSED | tail -n 30
	fi
	echo "APMU-SECTION-END kunit:ktap rc=0"
} >"$out/kunit-parse.tap"

cat "$hostlog" "$out/build-7.2.log" "$console" "$console2" "$console3" \
	"$out/console-fuzz-apmu.log" "$out/console-fuzz-intree.log" "$out/distro.log" "$console4" \
	"$out/arm.log" "$out/xscale.log" "$out/kunit-parse.tap" >"$out/all.log"
rc=0
python3 "$APMU_TOP/scripts/tap-summary.py" "$out/all.log" \
	static build:7.2 kselftest:collection kselftest:apmu_pmu kselftest:apmu_rdpmc kselftest:apmu_sampling \
	bench:quick perf \
	sampling kunit:apmu_kunit kunit:ktap lifecycle kselftest:apmu_pmu:32bit \
	kselftest:apmu_rdpmc:32bit kselftest:apmu_sampling:32bit kselftest:apmu_pmu:nosample \
	kselftest:apmu_pmu:noirq kselftest:apmu_amu \
	kselftest:apmu_pcs intree hetero kselftest:apmu_hetero kselftest:apmu_hetero:32bit \
	fuzz intree:fuzz \
	"${distro[@]}" kasan:active kasan:kunit:apmu_kunit kasan:lifecycle kasan:kselftest:apmu_amu \
	kasan:kselftest:apmu_pcs arm:build arm:apmu arm:kunit arm:kselftest:apmu_pmu \
	arm:kselftest:apmu_rdpmc \
	arm:kselftest:apmu_sampling arm:kselftest:apmu_pmu:noirq arm:intree xscale:build xscale:boot \
	xscale:intree || rc=$?
apmu_log "check took $(( $(date +%s) - t0 ))s"
if [ $rc -ne 0 ] || [ $vmrc -ne 0 ]; then
	echo "FAILED: console logs kept in $out (console*.log)" >&2
	exit 1
fi
