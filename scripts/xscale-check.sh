#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The ARMv5 XScale lane of make check (alone: make xscale-check). Writes build/xscale.log
# with two TAP sections:
#   xscale:build  apmu.ko for the PXA27x kernel (scripts/build-xscale.sh, cached) with W=1
#                 and warnings as errors, its vermagic, its contents (core + XScale, no
#                 PMUv3/AMU/PCS), the test-only apmu_xscale_dev.ko and the static armel
#                 xscale-perf program;
#   xscale:boot   QEMU -M spitz (scripts/vm/xscale-run.sh) with both modules and the
#                 program: scripts/vm/xscale-check-in-vm.sh;
#   xscale:intree a second boot with the in-tree driver left registered: apmu stands
#                 aside (scripts/vm/xscale-intree-in-vm.sh).
# The module is built in a staged copy of the sources (build/xscale/src), so the work
# tree's arm64 objects stay as they are. Exit status: non-zero on any failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# lib.sh set ARCH/CROSS_COMPILE for APMU_ARCH; this lane's are armel's
ARCH=arm
CROSS_COMPILE=arm-linux-gnueabi-
export ARCH CROSS_COMPILE

out=$APMU_TOP/build/xscale
log=$APMU_TOP/build/xscale.log
mkdir -p "$out"
kdir=$("$APMU_TOP/scripts/build-xscale.sh")
rel=$(cat "$kdir/include/config/kernel.release")
bdir=$out/src
ko=$bdir/apmu.ko
dev=$bdir/apmu_xscale_dev.ko
prog=$out/xscale-perf
rm -rf "$bdir"
mkdir -p "$bdir"
(cd "$APMU_TOP" && cp -a Makefile Kbuild drivers include "$bdir/")
find "$bdir" \( -name '*.o' -o -name '*.ko' -o -name '.*.cmd' -o -name '*.mod*' \) -delete

# Every defined symbol of apmu.ko that belongs to a backend or unit other than XScale's
foreign_syms() {
	"${CROSS_COMPILE}nm" --defined-only "$ko" |
		grep -E ' apmu_(pmuv3|amu|pcs)_' || true
}

rc=0
{
	ktap_begin xscale:build
	apmu_log "xscale: make -C $kdir M=$bdir W=1 KCFLAGS=-Werror (armel)"
	if make -s -j2 -C "$kdir" M="$bdir" W=1 KCFLAGS=-Werror modules \
		>"$out/build.log" 2>&1 && [ -f "$ko" ] && [ -f "$dev" ]; then
		ktap_pass "apmu.ko and apmu_xscale_dev.ko build for $rel with W=1 KCFLAGS=-Werror"
	else
		ktap_fail "apmu.ko and apmu_xscale_dev.ko build for $rel with W=1 KCFLAGS=-Werror"
		sed 's/^/# /' "$out/build.log" | tail -n 30
	fi
	vm=$(modinfo -F vermagic "$ko" 2>/dev/null || true)
	echo "# vermagic: $vm"
	case "$vm " in
	"$rel "*" ARMv5 "*) ktap_pass "vermagic is the XScale kernel's ($rel, ARMv5)" ;;
	*) ktap_fail "vermagic is the XScale kernel's ($rel, ARMv5)" ;;
	esac
	foreign=$(foreign_syms 2>&1)
	# nm's output taken whole first: `nm | grep -q` under pipefail fails when grep's early
	# exit makes nm's next write a SIGPIPE (seen once the backend table came first)
	syms=$("${CROSS_COMPILE}nm" --defined-only "$ko" 2>/dev/null || true)
	if [ -f "$ko" ] && grep -q ' apmu_xscale_ops$' <<<"$syms" && [ -z "$foreign" ]; then
		ktap_pass "apmu.ko holds the core and the XScale backend, no PMUv3/AMU/PCS code"
	else
		ktap_fail "apmu.ko holds the core and the XScale backend, no PMUv3/AMU/PCS code"
		echo "${foreign:-no apmu_xscale_ops in apmu.ko}" | sed 's/^/# /'
	fi
	aliases=$(modinfo -F alias "$ko" 2>/dev/null || true)
	echo "$aliases" | sed 's/^/# alias: /'
	if [ "$aliases" = platform:xscale-pmu ]; then
		ktap_pass "apmu.ko binds the xscale-pmu platform device only (no DT alias)"
	else
		ktap_fail "apmu.ko binds the xscale-pmu platform device only (no DT alias)"
	fi
	if "${CROSS_COMPILE}gcc" -static -O2 -Wall -Wextra -Werror -o "$prog" \
		"$APMU_TOP/scripts/vm/xscale-perf.c" >"$out/perf-build.log" 2>&1; then
		ktap_pass "xscale-perf builds static for armel (-Werror)"
	else
		ktap_fail "xscale-perf builds static for armel (-Werror)"
		sed 's/^/# /' "$out/perf-build.log" | tail -n 20
	fi
	ktap_end
} >"$out/build.tap"
grep -q '^not ok' "$out/build.tap" && rc=1

console=$out/console.log
console2=$out/console-intree.log
if [ -f "$ko" ] && [ -f "$dev" ] && [ -f "$prog" ]; then
	apmu_log "xscale: booting QEMU spitz with apmu (log: $console)"
	"$APMU_TOP/scripts/vm/xscale-run.sh" --quiet --log "$console" --timeout 600 \
		--append initcall_blacklist=xscale_pmu_driver_init \
		"$APMU_TOP/scripts/vm/xscale-check-in-vm.sh" "$ko" "$dev" "$prog" || rc=1
	apmu_log "xscale: booting QEMU spitz with the in-tree driver (log: $console2)"
	"$APMU_TOP/scripts/vm/xscale-run.sh" --quiet --log "$console2" --timeout 600 \
		"$APMU_TOP/scripts/vm/xscale-intree-in-vm.sh" "$ko" "$dev" || rc=1
else
	for s in boot intree; do
		ktap_begin "xscale:$s"
		ktap_fail "boot skipped: the build failed"
		ktap_end 1
	done >"$console"
	: >"$console2"
	rc=1
fi
cat "$out/build.tap" "$console" "$console2" >"$log"
exit $rc
