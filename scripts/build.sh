#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build everything the VM runs: the test kernel (cached), apmu.ko, its unit modules and
# apmu_kunit.ko with W=1 and warnings as errors, apmu-stat, and the kselftests (static
# aarch64, installed by the kernel's kselftest installer into build/kselftest_install).
# Prints the KDIR.
# APMU_FLAVOUR=bench: the same for the bench kernel, whose modules are built from a copy
# of the sources in build/bench (apmu_module_dir), so the tree's own *.ko stay the test
# kernel's.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$("$APMU_TOP/scripts/build-kernel.sh")
mdir=$(apmu_module_dir)
if [ "$mdir" != "$APMU_TOP" ]; then
	mkdir -p "$mdir"
	rsync -a --delete --exclude='*.o' --exclude='.*.cmd' "$APMU_TOP/drivers" \
		"$APMU_TOP/include" "$mdir/"
	cp "$APMU_TOP/Kbuild" "$mdir/"
fi

apmu_log "module: make -C $kdir M=$mdir W=1 (warnings are errors)"
make -s -C "$kdir" M="$mdir" W=1 KCFLAGS=-Werror modules >&2
for ko in apmu.ko apmu_amu.ko apmu_pcs.ko apmu_kunit.ko; do
	[ -f "$mdir/$ko" ] || apmu_die "module build produced no $ko"
done

# apmu-stat (tools/apmu-stat), static, for the VM: build/tools/apmu-stat, which vm-run
# installs as /apmu/apmu-stat
apmu_log "apmu-stat: make -C tools/apmu-stat (static $ARCH, warnings are errors)"
make -s -C "$APMU_TOP/tools/apmu-stat" CROSS_COMPILE="$CROSS_COMPILE" CFLAGS=-Werror \
	LDFLAGS=-static O="$APMU_TOP/build/tools" >&2

# The kselftests (scripts/lib.sh, apmu_ksft_install), static aarch64. The flavours share
# one source and its UAPI: the bench build installs them only when there are none (make
# bench alone).
if [ "$APMU_FLAVOUR" != test ] && [ -f "$APMU_TOP/build/kselftest_install/kselftest-list.txt" ]; then
	echo "$kdir"
	exit 0
fi
install=$APMU_TOP/build/kselftest_install
apmu_log "selftests: make -C tools/testing/selftests TARGETS=apmu install (static aarch64)"
apmu_ksft_install "$kdir" "$APMU_TOP/build/ksft-tree" "$install" "$APMU_TOP/build/kselftest.log" ||
	{ cat "$APMU_TOP/build/kselftest.log" >&2
	  apmu_die "kselftest build failed, or no apmu:apmu_pmu in $install/kselftest-list.txt"; }
echo "$kdir"
