#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (or reuse) the arm64 test kernel from Debian's linux-source-6.12 with
# scripts/kconfig/apmu-test.config and apmu-kasan.config (scripts/lib.sh,
# apmu_kernel_fragment). Prints the build directory (the KDIR for modules).
# APMU_ARCH=arm builds the 32-bit lane's kernel instead (scripts/kconfig/apmu-test-arm.config,
# zImage, arm-linux-gnueabihf-), cached next to it under its own key; APMU_FLAVOUR=bench
# the arm64 bench kernel (scripts/kconfig/apmu-bench.config: no lock debugging, no KASAN),
# likewise.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ver=$(apmu_kernel_version) || apmu_die "linux-source-6.12 is not installed (scripts/deps.sh)"
src=$APMU_CACHE/src/linux-$ver
out=$(apmu_kdir)
frag=$(apmu_kernel_fragment)
image=$(apmu_kernel_image)
mkdir -p "$APMU_CACHE/src"

# One lock per architecture and flavour, so a cold arm or bench build never holds up the
# (cached) arm64 test one; the source tree they share is unpacked under the latter's lock.
if [ "$APMU_ARCH" != arm64 ]; then
	exec 9>"$APMU_CACHE/.kernel-$APMU_ARCH.lock"
elif [ "$APMU_FLAVOUR" != test ]; then
	exec 9>"$APMU_CACHE/.kernel-$APMU_FLAVOUR.lock"
else
	exec 9>"$APMU_CACHE/.kernel.lock"
fi
flock 9

if [ -f "$out/.apmu-done" ]; then
	apmu_log "kernel: reusing cached build $out"
	echo "$out"
	exit 0
fi

if [ ! -f "$src/Makefile" ] && { [ "$APMU_ARCH" != arm64 ] || [ "$APMU_FLAVOUR" != test ]; }; then
	exec 8>"$APMU_CACHE/.kernel.lock"
	flock 8
fi
if [ ! -f "$src/Makefile" ]; then
	apmu_log "kernel: unpacking linux-source $ver"
	tmp=$(mktemp -d "$APMU_CACHE/src/unpack.XXXXXX")
	tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$tmp"
	rm -rf "$src"
	mv "$tmp/linux-source-6.12" "$src"
	rmdir "$tmp"
fi
exec 8>&-

rm -rf "$out"
mkdir -p "$out"
apmu_log "kernel: configuring (allnoconfig + $(basename "$frag")) in $out"
make -s -C "$src" O="$out" KCONFIG_ALLCONFIG="$frag" allnoconfig >/dev/null

# Kconfig silently drops symbols whose dependencies are not met: insist on every line.
apmu_fragment_holds "$frag" "$out/.config" ||
	apmu_die "the config fragment does not apply to linux-source $ver"

apmu_log "kernel: building $image and modules ($(nproc) jobs; ~10-15 min cold)"
make -s -C "$src" O="$out" -j"$(nproc)" "$image" modules >"$out/build.log" 2>&1 ||
	{ tail -n 30 "$out/build.log" >&2; apmu_die "kernel build failed ($out/build.log)"; }
make -s -C "$src" O="$out" -j"$(nproc)" INSTALL_HDR_PATH="$out/usr" headers_install >/dev/null
touch "$out/.apmu-done"
apmu_log "kernel: built $out"
echo "$out"
