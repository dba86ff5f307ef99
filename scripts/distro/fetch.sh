#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/distro/fetch.sh SERIES: fetch Debian 12's current arm64 kernel of SERIES (6.1 or
# 6.12) and its build tree, and print the directory that holds them:
#
#   release        the kernel release (uname -r), e.g. 6.1.0-57-arm64
#   Image          the kernel image (/boot/vmlinuz-*: an uncompressed, signed EFI-stub Image)
#   root/          linux-headers-<release> (arm64), its -common package and the HOST's
#                  (amd64) linux-kbuild package unpacked together, as dpkg would install
#                  them: /usr/src/linux-headers-<release> is a KDIR for cross builds
#   config         the kernel's configuration (/boot/config-*)
#   depends        the Depends of the arm64 headers package and of its linux-kbuild: what
#                  a board's `apt-get install linux-headers-$(uname -r)` pulls in
#
# Debian's arm64 headers package holds no binaries: its scripts/ and tools/ are symlinks
# into linux-kbuild-<series>, which is built for each architecture from the same source.
# The amd64 linux-kbuild therefore gives fixdep, modpost, genksyms and sign-file that run
# here, while .config, Module.symvers (the CRCs of modversions) and the generated headers
# come from the arm64 package: a cross build gets the distribution kernel's vermagic and
# symbol CRCs. The only change to the unpacked files: the headers' Makefile includes the
# -common tree by absolute path, which is pointed into root/.
#
# The current package is the one the metapackage depends on: linux-image-arm64 (6.1) or
# linux-image-6.12-arm64. Nothing is installed; everything is cached in
# $APMU_CACHE/distro/<release>_<version>/ (the .debs are removed once unpacked, and so is
# an older release of the series), so a warm run downloads nothing. When the download
# fails (package lists older than the mirror), the lists are refreshed, the packages
# worked out again and the download retried once.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

series=${1:?usage: scripts/distro/fetch.sh 6.1|6.12}
case "$series" in
6.1) meta=linux-image-arm64 ;;
6.12) meta=linux-image-6.12-arm64 ;;
*) apmu_die "distro: unknown series $series (6.1 or 6.12)" ;;
esac

# apt-cache answers from the local package lists: refresh them once if they lack the
# metapackage (a fresh machine whose lists predate 'dpkg --add-architecture arm64').
resolve() {
	img=$(apt-cache show --no-all-versions "$meta:arm64" 2>/dev/null |
		sed -n 's/^Depends: \(linux-image-[^ ,]*\).*/\1/p' | head -n 1)
	[ -n "$img" ]
}
# work_out: the current image of the series and everything named after it
work_out() {
	if ! resolve; then
		apmu_log "distro: $meta:arm64 unknown, refreshing the package lists"
		apt-get update -q >/dev/null 2>&1 || true
		resolve || apmu_die "distro: no $meta:arm64 in the package lists (scripts/deps.sh)"
	fi
	rel=${img#linux-image-}
	hdr=linux-headers-$rel
	# one apt-cache call for both records (each call reads all the lists: seconds)
	info=$(apt-cache show --no-all-versions "$img:arm64" "$hdr:arm64")
	ver=$(sed -n 's/^Version: //p' <<<"$info" | head -n 1)
	deps=$(sed -n "/^Package: $hdr\$/,/^\$/s/^Depends: //p" <<<"$info" | head -n 1)
	common=$(tr ',' '\n' <<<"$deps" | sed -n 's/^ *\(linux-headers-[^ ]*-common\) .*/\1/p' | head -n 1)
	kbuild=$(tr ',' '\n' <<<"$deps" | sed -n 's/^ *\(linux-kbuild-[^ ]*\).*/\1/p' | head -n 1)
	[ -n "$ver" ] && [ -n "$common" ] && [ -n "$kbuild" ] ||
		apmu_die "distro: cannot work out the packages of $img ($hdr: $deps)"
	dir=$APMU_CACHE/distro/${rel}_$ver
	pkgs=("$img:arm64=$ver" "$hdr:arm64=$ver" "$common=$ver" "$kbuild:amd64=$ver")
}
# What the board's `apt-get install linux-headers-$(uname -r)` pulls in: the Depends of
# the arm64 headers package and of the arm64 linux-kbuild it names, kept in DIR/depends
# for scripts/distro/check.sh to check what the README claims.
write_depends() {
	local kdeps
	kdeps=$(apt-cache show --no-all-versions "$kbuild:arm64" 2>/dev/null |
		sed -n 's/^Depends: //p' | head -n 1 || true)
	printf '%s: %s\n%s: %s\n' "$hdr" "$deps" "$kbuild" "$kdeps" >"$dir/depends"
}
# cached: the series' current release is unpacked already (a warm run downloads nothing)
cached() {
	[ -f "$dir/.apmu-done" ] || return 1
	[ -s "$dir/depends" ] || write_depends
	apmu_log "distro: $rel ($ver) cached in $dir"
	echo "$dir"
}

work_out
cached && exit 0

debs=$APMU_CACHE/distro/debs
mkdir -p "$debs"
chown _apt "$debs" 2>/dev/null || true
download() {
	apmu_log "distro: downloading ${pkgs[*]}"
	(cd "$debs" && apt-get download -q "${pkgs[@]}" >"$debs/download.log" 2>&1)
}
if ! download; then
	# Stale package lists name a version the mirror no longer has: refresh them, work the
	# packages out again (the series may have a newer release now) and retry once.
	apmu_log "distro: apt-get download failed: refreshing the package lists, retrying once"
	sed 's/^/  /' "$debs/download.log" | tail -n 5 >&2
	apt-get update -q >/dev/null 2>&1 || true
	work_out
	cached && exit 0
	download || apmu_die "distro: apt-get download failed ($debs/download.log)"
fi

rm -rf "$dir"
mkdir -p "$dir/root"
deb() { # deb PACKAGE ARCH: the downloaded .deb of PACKAGE at $ver
	local f
	f=$(ls "$debs/${1}_${ver//:/%3a}_$2.deb" 2>/dev/null | head -n 1)
	[ -n "$f" ] || apmu_die "distro: no .deb for $1 $ver ($2)"
	echo "$f"
}
dpkg-deb -x "$(deb "$hdr" arm64)" "$dir/root"
dpkg-deb -x "$(deb "$common" all)" "$dir/root"
dpkg-deb -x "$(deb "$kbuild" amd64)" "$dir/root"
dpkg-deb --fsys-tarfile "$(deb "$img" arm64)" | tar -x -C "$dir" ./boot/
mv "$dir/boot/vmlinuz-$rel" "$dir/Image"
mv "$dir/boot/config-$rel" "$dir/config"
rm -rf "$dir/boot"

kdir=$dir/root/usr/src/$hdr
sed -i "s#^include /usr/src/#include $dir/root/usr/src/#" "$kdir/Makefile"
for f in .config Module.symvers scripts/basic/fixdep scripts/mod/modpost; do
	[ -e "$kdir/$f" ] || apmu_die "distro: $kdir/$f missing after unpacking"
done
file -L "$kdir/scripts/mod/modpost" | grep -q x86-64 ||
	apmu_die "distro: $kdir/scripts/mod/modpost is not a host binary"
echo "$rel" >"$dir/release"
write_depends
touch "$dir/.apmu-done"
# The unpacked tree is the cache: drop the .debs, and older releases of this series.
rm -f "$(deb "$img" arm64)" "$(deb "$hdr" arm64)" "$(deb "$common" all)" "$(deb "$kbuild" amd64)"
for old in "$APMU_CACHE/distro/$series".*_*; do
	[ "$old" = "$dir" ] || [ ! -d "$old" ] || rm -rf "$old"
done
apmu_log "distro: $rel ($ver) in $dir"
echo "$dir"
