#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build everything the VM runs: the test kernel (cached), apmu.ko and apmu_kunit.ko with
# W=1 and warnings as errors, and the kselftests (static aarch64, installed by the kernel's
# kselftest installer into build/kselftest_install). Prints the KDIR.
# APMU_FLAVOUR=bench: the same for the bench kernel, whose modules are built from a copy
# of the sources in build/bench (apmu_module_dir), so the tree's own *.ko stay the test
# kernel's.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$("$APMU_TOP/scripts/build-kernel.sh")
src=$(readlink -f "$kdir/source")
mdir=$(apmu_module_dir)
if [ "$mdir" != "$APMU_TOP" ]; then
	mkdir -p "$mdir"
	rsync -a --delete --exclude='*.o' --exclude='.*.cmd' "$APMU_TOP/drivers" \
		"$APMU_TOP/include" "$mdir/"
	cp "$APMU_TOP/Kbuild" "$mdir/"
fi

apmu_log "module: make -C $kdir M=$mdir W=1 (warnings are errors)"
make -s -C "$kdir" M="$mdir" W=1 KCFLAGS=-Werror modules >&2
for ko in apmu.ko apmu_kunit.ko; do
	[ -f "$mdir/$ko" ] || apmu_die "module build produced no $ko"
done

# The kselftests the kernel's way (as KernelCI and LKFT build them): selftests/apmu placed
# at tools/testing/selftests/apmu of the kernel tree, built by its lib.mk and installed by
# its installer, which writes run_kselftest.sh and kselftest-list.txt. The kernel source
# is a shared cache and stays untouched: build/ksft-tree is a shadow of it made of
# symlinks (top-level entries of the source, the test kernel's installed UAPI headers as
# usr/, and apmu/ as per-file symlinks, so `include ../lib.mk` finds the shadow's lib.mk).
tree=$APMU_TOP/build/ksft-tree
sdir=$tree/tools/testing/selftests
mkdir -p "$sdir/apmu"
for e in "$src"/*; do
	[ "${e##*/}" = tools ] || ln -sfn "$e" "$tree/"
done
ln -sfn "$kdir/usr" "$tree/usr"
for e in "$src"/tools/*; do
	[ "${e##*/}" = testing ] || ln -sfn "$e" "$tree/tools/"
done
for e in "$src"/tools/testing/selftests/*; do
	ln -sfn "$e" "$sdir/"
done
find "$sdir/apmu" -maxdepth 1 -type l -delete
for f in "$APMU_TOP"/selftests/apmu/{Makefile,config,settings,*.c,*.h}; do
	ln -s "$f" "$sdir/apmu/"
done
install=$APMU_TOP/build/kselftest_install
apmu_log "selftests: make -C tools/testing/selftests TARGETS=apmu install (static aarch64)"
rm -rf "$install"
make -s -C "$sdir" TARGETS=apmu ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
	USERCFLAGS=-Werror INSTALL_PATH="$install" install >"$APMU_TOP/build/kselftest.log" 2>&1 ||
	{ cat "$APMU_TOP/build/kselftest.log" >&2; apmu_die "kselftest build failed"; }
grep -qx apmu:apmu_pmu "$install/kselftest-list.txt" ||
	apmu_die "kselftest install wrote no apmu:apmu_pmu to $install/kselftest-list.txt"
echo "$kdir"
