#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build everything the VM runs: the test kernel (cached), apmu.ko and apmu_kunit.ko with
# W=1 and warnings as errors, and the kselftests (static aarch64). Prints the KDIR.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$("$APMU_TOP/scripts/build-kernel.sh")
src=$(readlink -f "$kdir/source")

apmu_log "module: make -C $kdir M=$APMU_TOP W=1 (warnings are errors)"
make -s -C "$kdir" M="$APMU_TOP" W=1 KCFLAGS=-Werror modules >&2
for ko in apmu.ko apmu_kunit.ko; do
	[ -f "$APMU_TOP/$ko" ] || apmu_die "module build produced no $ko"
done

apmu_log "selftests: static aarch64 build"
make -s -C "$APMU_TOP/selftests/apmu" KSRC="$src" KHDR="$kdir/usr/include" >&2
echo "$kdir"
