#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/build-7.2.sh: the Linux 7.2 build gate of make check. Builds every module
# (apmu.ko, its units, apmu_kunit.ko and the test-only modules) against the Linux 7.2 test
# kernel (scripts/prepare-7.2.sh: linux-source-7.2, allnoconfig + the test fragment, built and
# cached) with W=1 and warnings as errors, modpost resolving every symbol against the
# kernel's Module.symvers, then runs sparse over them (scripts/sparse-src.sh: a sparse
# that knows 7.2's headers), checks the PMUv3 device tree table against 7.2's
# (scripts/of-table-sync.py: compatibles, PMU names, per-core cache maps), and prints the
# TAP section
# build:7.2 on stdout (make check counts it; progress on stderr). Exit status 0 even when
# a test fails (the summary counts it), non-zero only on a usage error.
#
# The modules are what scripts/vm-run --kernel 7.2 boots with. The sources are copied to
# build/linux-7.2/src (rsync, objects kept; all of it redone for another kernel), so a warm run
# recompiles only what changed; the compile tests of compat_probe.c are redone only when
# their command or inputs change (Kbuild, if_changed).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$APMU_TOP/build/linux-7.2
bdir=$out/src
mkdir -p "$bdir"
mods="apmu.ko apmu_amu.ko apmu_pcs.ko apmu_kunit.ko apmu_knobs.ko apmu_pcs_test.ko apmu_amu_test.ko apmu_cpu_pm_test.ko"

ktap_begin build:7.2
t0=$(date +%s)
if ! kdir=$(APMU_ARCH=arm64 bash "$APMU_TOP/scripts/prepare-7.2.sh" 2>"$out/prepare.log"); then
	ktap_fail "linux-source-7.2 built (allnoconfig + apmu-test.config: Image, modules, headers)"
	sed 's/^/# /' "$out/prepare.log" | tail -n 20
	ktap_skip "modules" "no 7.2 tree"
	ktap_skip "sparse" "no 7.2 tree"
	ktap_end
	exit 0
fi
ktap_pass "linux-source-7.2 built (allnoconfig + apmu-test.config: Image, modules, headers)"
echo "# $kdir"

# objects built against another 7.2 kernel (an older recipe, fragment or package) go
[ "$(cat "$out/kdir" 2>/dev/null)" = "$kdir" ] || { rm -rf "$bdir"; mkdir -p "$bdir"; }
echo "$kdir" >"$out/kdir"

rsync -a --delete --exclude='*.o' --exclude='.*.cmd' "$APMU_TOP/drivers" "$APMU_TOP/include" \
	"$bdir/"
cp "$APMU_TOP/Makefile" "$APMU_TOP/Kbuild" "$bdir/"
rm -f "$bdir"/*.ko
kmake=(make -C "$kdir" M="$bdir" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
apmu_log "7.2: make -C $kdir M=$bdir W=1 KCFLAGS=-Werror"
missing=
if "${kmake[@]}" -s -j"$(nproc)" W=1 KCFLAGS=-Werror modules >"$out/build.log" 2>&1; then
	for ko in $mods; do
		[ -f "$bdir/$ko" ] || missing="$missing $ko"
	done
else
	missing=" (the build failed)"
fi
if [ -z "$missing" ]; then
	ktap_pass "every module builds against 7.2 with W=1, warnings as errors, every symbol resolved"
	echo "# $mods; compile tests: $(grep -c '^#define' "$bdir/apmu_compat_have.h") found," \
		"$(grep -c '^/\* no ' "$bdir/apmu_compat_have.h") absent (apmu_compat_have.h)"
else
	ktap_fail "every module builds against 7.2 with W=1, warnings as errors, every symbol resolved"
	echo "# missing:$missing"
	grep -iE 'error|warning' "$out/build.log" | sed 's/WARNING/warning/; s/ERROR/error/; s/^/# /' | head -n 40
fi

# sparse over every object (C=2 checks all, not only rebuilt files; the same W= and
# KCFLAGS as the build, or the objects would be rebuilt). 7.2's headers use
# __typeof_unqual__, which Debian 12's sparse 0.6.4 lacks (7.2's Kbuild would skip the
# checker with only a make warning): scripts/sparse-src.sh gives one that has it, built
# from Debian unstable's source; without one, a failure, not a skip.
src=$(readlink -f "$kdir/source")
if [ -n "$missing" ]; then
	ktap_skip "sparse" "the build failed"
elif ! checker=$(bash "$APMU_TOP/scripts/sparse-src.sh" "$src" 2>"$out/sparse-src.log"); then
	ktap_fail "sparse clean against 7.2"
	sed 's/^/# /' "$out/sparse-src.log" | tail -n 10
else
	sp=$("${kmake[@]}" -s W=1 KCFLAGS=-Werror C=2 CHECK="$checker" modules 2>&1 >/dev/null |
		grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error)' || true)
	if [ -z "$sp" ]; then
		ktap_pass "sparse clean against 7.2"
		echo "# $checker ($("$checker" --version))"
	else
		ktap_fail "sparse clean against 7.2"
		echo "$sp" | sed 's/^/# /' | head -n 40
	fi
fi
# apmu's PMUv3 compatibles, names and per-core cache maps are the newest kernel's
if python3 "$APMU_TOP/scripts/of-table-sync.py" "$src" >"$out/of-table-sync.log" 2>&1; then
	ktap_pass "the PMUv3 device tree table (pmuv3/models.c) is 7.2's"
else
	ktap_fail "the PMUv3 device tree table (pmuv3/models.c) is 7.2's"
fi
sed 's/^\([^#]\)/# \1/' "$out/of-table-sync.log"
echo "# took $(( $(date +%s) - t0 )) s"
ktap_end
