#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The 32-bit lane's root: Debian's armhf busybox-static and linux-perf (with the shared
# libraries perf links), plus coreutils' GNU timeout (the kselftest runner calls `timeout
# --foreground`, which busybox's lacks), unpacked into a directory for the VM's initramfs, as
# scripts/arm64-root.sh does for arm64, from the same Debian release. The packages are
# downloaded with apt and unpacked with dpkg-deb; nothing is installed on the host.
# Prints the root's path; the cache key is the package list, their versions and this script.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

arch=armhf
triplet=arm-linux-gnueabihf
pkgs=(
	busybox-static linux-perf coreutils
	libc6 libgcc-s1 libstdc++6 zlib1g liblzma5 libzstd1 libbz2-1.0 libcap2 libcrypt1
	libelf1 libdw1 libnuma1 libslang2 libunwind8 libbabeltrace1 libglib2.0-0 libpcre2-8-0
	libuuid1 libopencsd1 libperl5.36 libpython3.11 libexpat1 libffi8 libmount1 libselinux1
	libblkid1 libaudit1 libcap-ng0
)
# Keyed by the candidate versions too, so a point release's new perf makes a new root.
vers=$(apt-cache policy "${pkgs[@]/%/:$arch}" 2>/dev/null | sed -n 's/^ *Candidate: //p')
key=$( { printf '%s\n' "${pkgs[@]}" $vers; cat "$0"; } | sha256sum | cut -c1-12)
root=$APMU_CACHE/$arch-root-$key
if [ -f "$root/.apmu-done" ]; then
	echo "$root"
	exit 0
fi

debs=$APMU_CACHE/debs
mkdir -p "$debs"
exec 9>"$APMU_CACHE/.$arch-root.lock"
flock 9
if [ -f "$root/.apmu-done" ]; then
	echo "$root"
	exit 0
fi
apmu_log "$arch root: downloading ${#pkgs[@]} Debian $arch packages"
# apt's _apt user cannot write the cache: let it, rather than downloading unsandboxed.
chown _apt "$debs" 2>/dev/null || true
download() {
	(cd "$debs" && apt-get download -q "${pkgs[@]/%/:$arch}" >"$debs/download-$arch.log" 2>&1)
}
# Stale package lists name versions the mirror no longer has: refresh them once and retry.
if ! download; then
	apmu_log "$arch root: download failed, refreshing the package lists"
	apt-get update -q >/dev/null 2>&1 || true
	download || apmu_die "apt-get download failed ($debs/download-$arch.log;" \
		"is the $arch architecture added? scripts/deps.sh)"
fi

rm -rf "$root"
mkdir -p "$root"
for p in "${pkgs[@]}"; do
	deb=$(ls -t "$debs/${p}_"*_"$arch".deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || apmu_die "no .deb for $p:$arch"
	if [ "$p" = coreutils ]; then
		# timeout only: the rest of the VM's tools stay busybox's
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$root" ./usr/bin/timeout
		continue
	fi
	dpkg-deb -x "$deb" "$root"
done
# Debian 12 is merged-/usr: the packages' /lib files belong in /usr/lib.
for d in bin sbin lib; do
	if [ -d "$root/$d" ] && [ ! -L "$root/$d" ]; then
		mkdir -p "$root/usr/$d"
		cp -a "$root/$d/." "$root/usr/$d/"
		rm -rf "${root:?}/$d"
	fi
	ln -sfn "usr/$d" "$root/$d"
done
# perf runs no perl/python scripts and needs no iconv modules in the VM: keep it small.
rm -rf "$root/usr/share/doc" "$root/usr/share/man" "$root/usr/share/locale" \
	"$root/usr/include" "$root/usr/lib/$triplet/gconv" \
	"$root/usr/lib/$triplet/perl" "$root/usr/lib/$triplet/gio"

# Every DT_NEEDED of perf must resolve inside the root, or perf would die in the VM.
libdirs=("$root/usr/lib/$triplet" "$root/usr/lib")
missing=0
declare -A seen=()
queue=("$root/usr/bin/perf")
while [ ${#queue[@]} -gt 0 ]; do
	f=${queue[0]}
	queue=("${queue[@]:1}")
	for so in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		[ -n "${seen[$so]:-}" ] && continue
		seen[$so]=1
		hit=""
		for d in "${libdirs[@]}"; do
			[ -e "$d/$so" ] && { hit=$(readlink -f "$d/$so"); break; }
		done
		if [ -z "$hit" ]; then
			echo "$arch root: perf needs $so, not in the package list" >&2
			missing=1
		else
			queue+=("$hit")
		fi
	done
done
[ $missing -eq 0 ] || apmu_die "add the packages providing the libraries above to $0"
# The armhf dynamic loader is /lib/ld-linux-armhf.so.3: it must be there too.
[ -e "$root/usr/lib/ld-linux-armhf.so.3" ] || apmu_die "$arch root: no /lib/ld-linux-armhf.so.3"
touch "$root/.apmu-done"
apmu_log "$arch root: $(du -sh "$root" | cut -f1) in $root"
echo "$root"
