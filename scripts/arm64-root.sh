#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Unpack Debian's arm64 busybox-static and linux-perf (with the shared libraries perf links)
# into a root directory for the VM's initramfs, plus coreutils' GNU timeout: the kernel's
# kselftest runner (run_kselftest.sh) calls `timeout --foreground`, which busybox's
# timeout refuses (every program would be "not ok ... exit=1", with no timeout applied).
# The packages are downloaded with apt and unpacked with dpkg-deb; nothing is installed
# on the host. Prints the root's path.
#
#   scripts/arm64-root.sh          Debian 12's packages (the host's apt), perf 6.1
#   scripts/arm64-root.sh sid      Debian unstable's (a private apt configuration), perf
#                                  7.2: apt resolves the packages' dependencies against an
#                                  empty dpkg status (a system with nothing on it),
#                                  and every library package among them is unpacked
#                                  (perl and python themselves are not: perf only links
#                                  libperl and libpython), with bash and the GNU tools
#                                  perf test's shell tests call (busybox's mktemp,
#                                  readlink and realpath fail them on any driver) in
#                                  /usr/libexec/gnu, where only a script that asks for
#                                  them looks (PATH=/usr/libexec/gnu:$PATH): the other VM
#                                  scripts keep busybox's
set -euo pipefail
. "$(dirname "$0")/lib.sh"
suite=${1:-bookworm}
case "$suite" in
bookworm | sid) ;;
*) apmu_die "arm64-root.sh: suite $suite: bookworm or sid" ;;
esac

pkgs=(
	busybox-static linux-perf coreutils
	libc6 libgcc-s1 libstdc++6 zlib1g liblzma5 libzstd1 libbz2-1.0 libcap2 libcrypt1
	libelf1 libdw1 libnuma1 libslang2 libunwind8 libbabeltrace1 libglib2.0-0 libpcre2-8-0
	libuuid1 libopencsd1 libperl5.36 libpython3.11 libexpat1 libffi8 libmount1 libselinux1
	libblkid1
)
# sid: keyed by linux-perf's version in the private lists (a root is made from fresh lists:
# below); bookworm: by the package list. Both also by this script.
sid_key() {
	ver=$(apmu_apt_version linux-perf:arm64) ||
		apmu_die "arm64 root: no linux-perf in Debian's unstable suite"
	key=sid-$( { echo "$ver"; cat "$0"; } | sha256sum | cut -c1-12)
	root=$APMU_CACHE/arm64-root-$key
}
if [ "$suite" = sid ]; then
	apmu_apt sid
	[ -n "$(ls "$apt_dir"/state/lists/*arm64_Packages* 2>/dev/null)" ] || apmu_apt_update
	sid_key
else
	key=$( { printf '%s\n' "${pkgs[@]}"; cat "$0"; } | sha256sum | cut -c1-12)
	root=$APMU_CACHE/arm64-root-$key
fi
# lanes starting at once wait for the one that makes the root
mkdir -p "$APMU_CACHE"
exec 8>"$APMU_CACHE/arm64-root-$suite.lock"
flock 8
if [ -f "$root/.apmu-done" ]; then
	echo "$root"
	exit 0
fi
# A new sid root: from fresh lists (older ones may name versions the mirror has dropped),
# in place of the old roots
if [ "$suite" = sid ]; then
	apmu_apt_update
	sid_key
	if [ -f "$root/.apmu-done" ]; then
		echo "$root"
		exit 0
	fi
	for d in "$APMU_CACHE"/arm64-root-sid-*; do
		[ "$d" = "$root" ] || rm -rf "$d"
	done
fi

# sid: the dependency closure of busybox-static, linux-perf, bash and the GNU tools on an
# empty system, downloaded by apt-get install --download-only into a directory of its own
gnu="coreutils grep sed gawk diffutils findutils procps util-linux"
if [ "$suite" = sid ]; then
	debs=$APMU_CACHE/debs-sid
	rm -rf "$debs"
	mkdir -p "$debs/partial"
	chown -R _apt "$debs" 2>/dev/null || true
	: >"$debs/status"
	apmu_log "arm64 root: downloading linux-perf $ver and its dependencies (Debian unstable, arm64)"
	sid_download() {
		apt-get "${apt_opts[@]}" -o Dir::State::status="$debs/status" \
			-o APT::Architecture=arm64 -o APT::Architectures::=arm64 \
			-o Dir::Cache::archives="$debs" --no-install-recommends -y --download-only \
			install busybox-static "linux-perf=$ver" bash $gnu >"$debs/download.log" 2>&1
	}
	sid_download || apmu_die "arm64 root: apt-get failed ($debs/download.log)"
	pkgs=(busybox-static linux-perf zlib1g bash $gnu)
	for deb in "$debs"/lib*_arm64.deb; do
		p=${deb##*/}
		p=${p%%_*}
		case "$p" in
		*-stdlib | *-minimal | *-perl | *-common | *-modules-db) ;;
		*) pkgs+=("$p") ;;
		esac
	done
else
	debs=$APMU_CACHE/debs
	mkdir -p "$debs"
	apmu_log "arm64 root: downloading ${#pkgs[@]} Debian arm64 packages"
	# apt's _apt user cannot write the cache: let it, rather than downloading unsandboxed.
	chown _apt "$debs" 2>/dev/null || true
	download() { (cd "$debs" && apt-get download -q "${pkgs[@]/%/:arm64}" >"$debs/download.log" 2>&1); }
	# Stale package lists name versions the mirror no longer has: refresh them once and retry.
	if ! download; then
		apmu_log "arm64 root: download failed, refreshing the package lists"
		apt-get update -q >/dev/null 2>&1 || true
		download || apmu_die "apt-get download failed ($debs/download.log; is the arm64 architecture added? scripts/deps.sh)"
	fi
fi
rm -rf "$root"
mkdir -p "$root"
for p in "${pkgs[@]}"; do
	deb=$(ls -t "$debs/${p}_"*_arm64.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || apmu_die "no .deb for $p"
	if [ "$p" = coreutils ]; then
		# timeout only: the rest of the VM's tools stay busybox's
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$root" ./usr/bin/timeout
	fi
	if [ "$suite" = sid ] && [[ " $gnu " == *" $p "* ]]; then
		# the GNU tools aside (see above): their programs in /usr/libexec/gnu
		rm -rf "$root.gnu"
		dpkg-deb -x "$deb" "$root.gnu"
		mkdir -p "$root/usr/libexec/gnu"
		for d in bin sbin usr/bin usr/sbin; do
			[ -d "$root.gnu/$d" ] && cp -a "$root.gnu/$d/." "$root/usr/libexec/gnu/"
		done
		[ ! -d "$root.gnu/usr/lib" ] || cp -a "$root.gnu/usr/lib/." "$root/usr/lib/"
		rm -rf "$root.gnu"
		# (the link dpkg's alternatives would make)
		[ "$p" != gawk ] || ln -sfn gawk "$root/usr/libexec/gnu/awk"
		continue
	fi
	[ "$p" != coreutils ] || continue
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
	"$root/usr/include" "$root/usr/lib/aarch64-linux-gnu/gconv" \
	"$root/usr/lib/aarch64-linux-gnu/perl" "$root/usr/lib/aarch64-linux-gnu/gio"

# Every DT_NEEDED of perf and timeout must resolve inside the root, or they would die in
# the VM.
libdirs=("$root/usr/lib/aarch64-linux-gnu" "$root/usr/lib")
missing=0
declare -A seen=()
queue=("$root/usr/bin/perf" "$root/usr/bin/timeout")
if [ "$suite" = sid ]; then
	queue+=("$root/usr/bin/bash")
	for f in "$root"/usr/libexec/gnu/*; do
		[ "$(head -c 4 "$f")" != $'\x7fELF' ] || queue+=("$f")
	done
fi
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
			echo "arm64 root: ${f##*/} needs $so, not in the package list" >&2
			missing=1
		else
			queue+=("$hit")
		fi
	done
done
[ $missing -eq 0 ] || apmu_die "add the packages providing the libraries above to $0"
touch "$root/.apmu-done"
apmu_log "arm64 root: $(du -sh "$root" | cut -f1) in $root"
echo "$root"
