#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/prepare-7.2.sh [--cached]: the Linux 7.2 test kernel, built and cached: the tree
# out-of-tree modules build against (scripts/build-7.2.sh, section build:7.2) and the Image
# scripts/vm-run --kernel 7.2 boots. Prints its directory (the KDIR, an O= build directory
# of the source). --cached: only print it, status 1 when it is not built yet (waits for a
# build in progress).
#
# Debian's unstable suite (sid) has linux-source-7.2; Debian 12 does not, and the host's
# apt sources stay as they are: a private apt configuration under $APMU_CACHE/apt-sid (its
# own sources.list naming sid on the mirror the host uses, its own state and cache
# directories, amd64 only) downloads the package, nothing is installed. The source is
# unpacked into $APMU_CACHE/src/linux-<version> (as build-kernel.sh does 6.12's), then
# configured in $APMU_CACHE/kernel-7.2-<key> the way the test kernel is (allnoconfig +
# scripts/kconfig/apmu-test.config, every line of which must survive) and built as
# scripts/build-kernel.sh builds 6.12's: Image and modules (so Module.symvers, against
# which modpost resolves apmu's symbols), then the UAPI headers into usr/. The key covers
# this recipe, the package version and the fragment. Debian's prebuilt 7.2 headers are no
# help here: their host tools (linux-kbuild-7.2) need glibc 2.38, Debian 12 has 2.36.
#
# A warm run reads the version from the private package lists and reuses the prepared
# tree: no network. The lists are fetched once, and refreshed (then the download retried)
# only when the download fails because sid has moved on. Cold: about COLDMIN minutes on 2
# cores (11 MB of lists, a 164 MB package, unpacking, the kernel build).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ "$APMU_ARCH" = arm64 ] || apmu_die "prepare-7.2: arm64 only (APMU_ARCH=$APMU_ARCH)"
cached=0
case "${1:-}" in
'') ;;
--cached) cached=1 ;;
*) apmu_die "usage: scripts/prepare-7.2.sh [--cached]" ;;
esac
PREP_RECIPE=2
pkg=linux-source-7.2
frag=$APMU_TOP/scripts/kconfig/apmu-test.config
mkdir -p "$APMU_CACHE/src"
exec 9>"$APMU_CACHE/.kernel-7.2.lock"
flock 9

# The private apt configuration (scripts/lib.sh, apmu_apt): suite sid, download only.
apmu_apt sid
version() { ver=$(apmu_apt_version "$pkg"); }
key() {
	{ echo "recipe $PREP_RECIPE"; echo "$pkg $ver"; cat "$frag"; } | sha256sum | cut -c1-12
}
version || { apmu_apt_update; version; } || apmu_die "7.2: no $pkg in sid's package lists"
out=$APMU_CACHE/kernel-7.2-$(key)
if [ -f "$out/.apmu-done" ]; then
	apmu_log "7.2: reusing the prepared tree $out ($pkg $ver)"
	echo "$out"
	exit 0
fi
[ $cached = 0 ] || { apmu_log "7.2: the kernel is not built ($out)"; exit 1; }

src=$APMU_CACHE/src/linux-$ver
if [ ! -f "$src/Makefile" ]; then
	download() { apmu_apt_download "$pkg=$ver"; }
	apmu_log "7.2: downloading $pkg $ver"
	if ! download; then
		# sid has moved on since the lists were fetched: refresh, work it out again
		apmu_apt_update
		version || apmu_die "7.2: no $pkg in sid's package lists"
		out=$APMU_CACHE/kernel-7.2-$(key)
		src=$APMU_CACHE/src/linux-$ver
		download || { tail -n 5 "$apt_dir/download.log" >&2
			apmu_die "7.2: apt-get download $pkg failed ($apt_dir/download.log)"; }
	fi
	apmu_log "7.2: unpacking $pkg $ver into $src"
	tmp=$(mktemp -d "$APMU_CACHE/src/unpack.XXXXXX")
	dpkg-deb --fsys-tarfile "$apt_dir/debs/${pkg}_${ver//:/%3a}_all.deb" |
		tar -x -C "$tmp" ./usr/src/$pkg.tar.xz
	tar -xJf "$tmp/usr/src/$pkg.tar.xz" -C "$tmp"
	rm -rf "$src"
	mv "$tmp/$pkg" "$src"
	rm -rf "$tmp" "$apt_dir"/debs/*.deb
fi

rm -rf "$out"
mkdir -p "$out"
apmu_log "7.2: configuring (allnoconfig + $(basename "$frag")) in $out"
make -s -C "$src" O="$out" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
	KCONFIG_ALLCONFIG="$frag" allnoconfig >/dev/null
# Every line of the fragment must hold, as for the test kernel
apmu_fragment_holds "$frag" "$out/.config" ||
	apmu_die "7.2: the config fragment does not apply to $pkg $ver"

apmu_log "7.2: building Image and modules ($(nproc) jobs; ~15 min cold)"
make -s -C "$src" O="$out" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- -j"$(nproc)" \
	Image modules >"$out/build.log" 2>&1 ||
	{ tail -n 30 "$out/build.log" >&2; apmu_die "7.2: kernel build failed ($out/build.log)"; }
[ -s "$out/Module.symvers" ] || apmu_die "7.2: the kernel build wrote no Module.symvers"
make -s -C "$src" O="$out" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- -j"$(nproc)" \
	INSTALL_HDR_PATH="$out/usr" headers_install >/dev/null
touch "$out/.apmu-done"
# older prepared trees and sources of 7.2: the cache keeps the current one
for old in "$APMU_CACHE"/kernel-7.2-*; do
	[ "$old" = "$out" ] || [ ! -d "$old" ] || rm -rf "$old"
done
for old in "$APMU_CACHE"/src/linux-7.2.*; do
	[ "$old" = "$src" ] || [ ! -d "$old" ] || rm -rf "$old"
done
apmu_log "7.2: prepared $out"
echo "$out"
