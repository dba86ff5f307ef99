#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (or reuse) the 32-bit ARMv5 XScale (PXA27x) lane kernel from Debian's
# linux-source-6.12 with scripts/kconfig/apmu-xscale.config, cross-compiled with Debian's
# gcc-arm-linux-gnueabi (armel). Prints the build directory (the KDIR for
# "make ARCH=arm CROSS_COMPILE=arm-linux-gnueabi- -C KDIR M=..."); the bootable image is
# KDIR/arch/arm/boot/zImage. Cached in $APMU_CACHE/kernel-xscale-<key>, where the key
# hashes this recipe's version, the linux-source version and the fragment.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ARCH=arm
CROSS_COMPILE=arm-linux-gnueabi-
export ARCH CROSS_COMPILE

# Bump when this script changes what it produces.
APMU_XSCALE_RECIPE=1
frag=$APMU_TOP/scripts/kconfig/apmu-xscale.config
ver=$(apmu_kernel_version) || apmu_die "linux-source-6.12 is not installed (scripts/deps.sh)"
key=$({ echo "xscale recipe $APMU_XSCALE_RECIPE"; echo "$ver"; cat "$frag"; } |
	sha256sum | cut -c1-12)
src=$APMU_CACHE/src/linux-$ver
out=$APMU_CACHE/kernel-xscale-$key

if [ "${1:-}" = "--kdir" ]; then	# just the path, nothing built
	echo "$out"
	exit 0
fi

command -v "${CROSS_COMPILE}gcc" >/dev/null ||
	apmu_die "${CROSS_COMPILE}gcc missing: apt-get install gcc-arm-linux-gnueabi"
mkdir -p "$APMU_CACHE/src"

# Serialise with other XScale builds; the arm64 kernel has its own lock.
exec 9>"$APMU_CACHE/.kernel-xscale.lock"
flock 9

if [ -f "$out/.apmu-done" ]; then
	apmu_log "xscale kernel: reusing cached build $out"
	echo "$out"
	exit 0
fi

# The source tree is shared with the arm64 lane (same package version); unpack under its lock.
if [ ! -f "$src/Makefile" ]; then
	exec 8>"$APMU_CACHE/.kernel.lock"
	flock 8
	if [ ! -f "$src/Makefile" ]; then
		apmu_log "xscale kernel: unpacking linux-source $ver"
		tmp=$(mktemp -d "$APMU_CACHE/src/unpack.XXXXXX")
		tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$tmp"
		rm -rf "$src"
		mv "$tmp/linux-source-6.12" "$src"
		rmdir "$tmp"
	fi
	flock -u 8
fi

rm -rf "$out"
mkdir -p "$out"
apmu_log "xscale kernel: configuring (allnoconfig + $(basename "$frag")) in $out"
make -s -C "$src" O="$out" KCONFIG_ALLCONFIG="$frag" allnoconfig >/dev/null

bad=0
while IFS= read -r line; do
	case "$line" in ''|'#'*) continue ;; esac
	grep -qxF -- "$line" "$out/.config" || { echo "kconfig: not honoured: $line" >&2; bad=1; }
done <"$frag"
[ $bad -eq 0 ] || apmu_die "the XScale fragment does not apply to linux-source $ver"

apmu_log "xscale kernel: building zImage and modules ($(nproc) jobs; cold: ~10 CPU-minutes, 16 min wall on a shared 2-core machine)"
make -s -C "$src" O="$out" -j"$(nproc)" zImage modules >"$out/build.log" 2>&1 ||
	{ tail -n 30 "$out/build.log" >&2; apmu_die "xscale kernel build failed ($out/build.log)"; }
touch "$out/.apmu-done"
apmu_log "xscale kernel: built $out"
echo "$out"
