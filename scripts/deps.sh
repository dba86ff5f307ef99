#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages the apmu harness needs, only when missing.
# Idempotent and quick when everything is present. Needs root and Debian 12.
set -euo pipefail

host_pkgs=(
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross
	gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
	gcc-arm-linux-gnueabi libc6-dev-armel-cross
	qemu-system-arm
	linux-source-6.12
	make bc bison flex libssl-dev libelf-dev cpio kmod xz-utils rsync
	python3 perl sparse file device-tree-compiler binutils
	pahole dkms
)

missing=()
for p in "${host_pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
# arm64 packages (busybox, perf and its libraries) are only downloaded and unpacked into
# the VM's initramfs, never installed on the host: dpkg only needs to know the architecture.
# The 32-bit lane (scripts/vm-run --arch arm) does the same with armhf packages, and the
# ARMv5 XScale lane (scripts/vm/xscale-run.sh) with armel's busybox-static.
need_arch=0
for a in arm64 armhf armel; do
	dpkg --print-foreign-architectures | grep -qx $a || need_arch=1
done
[ ${#missing[@]} -eq 0 ] && [ $need_arch -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]:-} (run as root to install)" >&2
	exit 1
fi
echo "deps: installing ${missing[*]:-} (arm64/armhf/armel arch: $need_arch)"
if [ $need_arch -eq 1 ]; then
	for a in arm64 armhf armel; do
		dpkg --add-architecture $a
	done
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
[ ${#missing[@]} -eq 0 ] ||
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
