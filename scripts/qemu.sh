#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/qemu.sh [QEMU [ARCH]]: print the path of the qemu-system-aarch64 (ARCH arm64, the
# default) or qemu-system-arm (ARCH arm) that the harness boots for QEMU (default
# $APMU_QEMU, else 7.2):
#
#   7.2  Debian 12's QEMU (qemu-system-arm 1:7.2+dfsg, installed by scripts/deps.sh)
#   10   bookworm-backports' QEMU 10 (qemu-system-arm 1:10.0.x~bpo12), never installed:
#        downloaded through the private apt configuration (scripts/lib.sh, apmu_apt) and
#        unpacked with dpkg-deb -x into $APMU_CACHE/qemu-<version>/. A warm run reads the
#        version from the private package lists and touches no network.
#
# Only the qemu-system-arm package is unpacked: the binaries link against libraries
# Debian 12 has (checked here against the package's Depends and with ldd), and a -kernel
# boot of -M virt with -nic none -display none reads no firmware, ROM or keymap
# (qemu-system-data, qemu-system-common's helpers are not needed).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

qemu=${1:-${APMU_QEMU:-7.2}}
arch=${2:-arm64}
case "$arch" in
arm64) bin=qemu-system-aarch64 ;;
arm) bin=qemu-system-arm ;;
*) apmu_die "qemu.sh: ARCH $arch: arm64 or arm" ;;
esac
case "$qemu" in
7.2)
	command -v "$bin" >/dev/null || apmu_die "qemu.sh: no $bin (scripts/deps.sh installs it)"
	command -v "$bin"
	exit 0 ;;
10) ;;
*) apmu_die "qemu.sh: QEMU $qemu: 7.2 (Debian 12) or 10 (bookworm-backports)" ;;
esac

pkg=qemu-system-arm
mkdir -p "$APMU_CACHE"
exec 9>"$APMU_CACHE/.qemu.lock"
flock 9
apmu_apt bookworm-backports
# (with no lists yet, the candidate is the host's installed 7.2: not taken)
version() {
	ver=$(apmu_apt_version "$pkg") || return 1
	case "$ver" in 10.*|*:10.*) ;; *) return 1 ;; esac
}
version || { apmu_apt_update; version; } ||
	apmu_die "qemu.sh: no $pkg 10.x in bookworm-backports' package lists (${ver:-none})"
dir() { out=$APMU_CACHE/qemu-${ver#*:}; }
dir
if [ ! -f "$out/.apmu-done" ]; then
	apmu_log "qemu: downloading $pkg $ver (bookworm-backports)"
	if ! apmu_apt_download "$pkg=$ver"; then
		# the suite has moved on since the lists were fetched: refresh, work it out again
		apmu_apt_update
		version || apmu_die "qemu.sh: no $pkg 10.x in bookworm-backports' package lists"
		dir
		apmu_apt_download "$pkg=$ver" ||
			apmu_die "qemu.sh: apt-get download $pkg=$ver failed ($apt_dir/download.log)"
	fi
	# Every dependency but QEMU's own packages must be installed, in a version the
	# package accepts (Debian 12 has them all: scripts/deps.sh's qemu-system-arm pulls them)
	deb=$(ls "$apt_dir"/debs/"${pkg}"_*.deb)
	dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/^ *//; s/ *$//' | while read -r dep; do
		name=${dep%% *}
		case "$name" in qemu-*) continue ;; esac
		have=$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null |
			sed -n 's/^install ok installed //p')
		[ -n "$have" ] || apmu_die "qemu.sh: $pkg $ver needs $dep: not installed"
		case "$dep" in
		*'('*')')
			op=${dep#*(}; op=${op%)}
			dpkg --compare-versions "$have" "${op%% *}" "${op#* }" ||
				apmu_die "qemu.sh: $pkg $ver needs $dep; installed: $have" ;;
		esac
	done
	rm -rf "$out.tmp"
	mkdir -p "$out.tmp"
	dpkg-deb -x "$deb" "$out.tmp"
	for b in qemu-system-aarch64 qemu-system-arm; do
		! ldd "$out.tmp/usr/bin/$b" | grep 'not found' ||
			apmu_die "qemu.sh: $b of $pkg $ver lacks the libraries above"
		"$out.tmp/usr/bin/$b" --version | grep -q '^QEMU emulator version 10\.' ||
			apmu_die "qemu.sh: $out.tmp/usr/bin/$b is not QEMU 10"
	done
	echo "$pkg $ver" >"$out.tmp/.apmu-done"
	rm -rf "$out"
	mv "$out.tmp" "$out"
	apmu_log "qemu: $pkg $ver unpacked in $out"
fi
echo "$out/usr/bin/$bin"
