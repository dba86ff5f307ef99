#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/distro/dkms-check.sh DIR [KEEP]: the README's `dkms add` and `dkms install` of
# apmu (dkms.conf: apmu.ko, apmu_amu.ko, apmu_pcs.ko) for the Debian kernel fetched into DIR (scripts/distro/fetch.sh), in a
# private DKMS, source and install tree, so nothing of the host's DKMS state changes.
# With KEEP, the installed tree is copied to KEEP/lib/modules/<release>/ (for the VM).
# The build is cross (ARCH/CROSS_COMPILE in the environment, -a aarch64, the headers
# given with --kernelsourcedir); on a board DKMS finds them in /lib/modules/<release>/build.
# DKMS signs nothing here: it finds no sign-file for a kernel not installed on the host.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

dir=${1:?usage: scripts/distro/dkms-check.sh DIR [KEEP]}
keep=${2:-}
command -v dkms >/dev/null || apmu_die "dkms is not installed (scripts/deps.sh)"
rel=$(cat "$dir/release")
kdir=$dir/root/usr/src/linux-headers-$rel
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$APMU_TOP/dkms.conf")

tree=$(mktemp -d /tmp/apmu-dkms.XXXXXX)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/src/apmu-$ver" "$tree/dkms" "$tree/modules/$rel/kernel"
(cd "$APMU_TOP" && cp -a dkms.conf Makefile Kbuild drivers include "$tree/src/apmu-$ver/")
find "$tree/src" \( -name '*.o' -o -name '*.ko' -o -name '.*.cmd' -o -name '*.mod*' \) -delete
trees=(--sourcetree "$tree/src" --dkmstree "$tree/dkms" --installtree "$tree/modules")

export ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
dkms add -m apmu -v "$ver" "${trees[@]}"
# `dkms install` builds first (MAKE[0] in dkms.conf)
dkms install -m apmu -v "$ver" -k "$rel" -a aarch64 --kernelsourcedir "$kdir" --no-depmod \
	"${trees[@]}" || { cat "$tree/dkms/apmu/$ver/build/make.log" 2>/dev/null; exit 1; }
dkms status -m apmu "${trees[@]}"
ko=$(find "$tree/modules/$rel" -name 'apmu.ko*' | head -n 1)
[ -n "$ko" ] || apmu_die "dkms install put no apmu.ko under $tree/modules/$rel"
case "$ko" in *.xz) xz -dc "$ko" >"$tree/apmu.ko" ;; *) cp "$ko" "$tree/apmu.ko" ;; esac
vm=$(modinfo -F vermagic "$tree/apmu.ko")
echo "installed ${ko#"$tree"/modules/}, vermagic $vm"
[ "${vm%% *}" = "$rel" ] || exit 1
# and the unit modules, which apmu.ko's softdep makes `modprobe apmu` load (dkms.conf)
for m in apmu_amu apmu_pcs; do
	ko=$(find "$tree/modules/$rel" -name "$m.ko*" | head -n 1)
	[ -n "$ko" ] || apmu_die "dkms install put no $m.ko under $tree/modules/$rel"
	echo "installed ${ko#"$tree"/modules/}"
done
if [ -n "$keep" ]; then
	rm -rf "$keep"
	mkdir -p "$keep/lib/modules"
	cp -a "$tree/modules/$rel" "$keep/lib/modules/"
fi
