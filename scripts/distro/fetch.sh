#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/distro/fetch.sh SERIES: fetch Debian's current arm64 kernel of SERIES and its
# build tree, and print the directory that holds them. The series:
#
#   6.1    Debian 12's default kernel (metapackage linux-image-arm64)
#   6.12   Debian 12's 6.12 kernel (linux-image-6.12-arm64)
#   7.2    the unstable suite's kernel (sid's linux-image-arm64), through the private apt
#          configuration of scripts/lib.sh (apmu_apt sid: download only, the host's
#          sources stay as they are)
#
# The directory:
#
#   release        the kernel release (uname -r), e.g. 6.1.0-57-arm64
#   Image          the kernel image (/boot/vmlinuz-*, or /usr/lib/modules/*/vmlinuz in 7.2's
#                  linux-binary-* package: an uncompressed, signed EFI-stub Image)
#   root/          linux-headers-<release> (arm64), its -common package and the HOST's
#                  (amd64) linux-kbuild package unpacked together, as dpkg would install
#                  them: /usr/src/linux-headers-<release> is a KDIR for cross builds
#   config         the kernel's configuration (/boot/config-*, or 7.2's linux-base-*
#                  package's /usr/lib/modules/*/config)
#   compiler       the compiler the headers name (.kernelvariables: gcc-12, gcc-16)
#   depends        the Depends of the arm64 headers package and of its linux-kbuild: what
#                  a board's `apt-get install linux-headers-$(uname -r)` pulls in
#   host           what was changed in root/ so that this host builds against it (below);
#                  empty for Debian 12's own kernels
#
# Debian's arm64 headers package holds no binaries: its scripts/ and tools/ are symlinks
# into linux-kbuild-<series>, which is built for each architecture from the same source.
# The amd64 linux-kbuild therefore gives fixdep, modpost, genksyms and sign-file that run
# here, while .config, Module.symvers (the CRCs of modversions) and the generated headers
# come from the arm64 package: a cross build gets the distribution kernel's vermagic and
# symbol CRCs. The only change to the unpacked files for 6.1 and 6.12: the headers'
# Makefile names the -common tree (and 7.2's, its own directory) by absolute path, which is
# pointed into root/.
#
# A kernel from a newer suite is made with newer tools than Debian 12 has; 7.2's are
# (recorded in DIR/host, shown in the distro-<series>:build section):
#  - its amd64 linux-kbuild programs need glibc 2.38 (Debian 12 has 2.36): fixdep and
#    modpost are taken from the linux-source-7.2 tree of the same version that
#    scripts/prepare-7.2.sh prepares (its scripts/ are built by make), resolve_btfids (the
#    module BTF) and sign-file are built from that source here. Host programs read and
#    write files; none of them changes what the module records of the kernel (vermagic
#    comes from the headers' generated files, CRCs from Module.symvers: the lane checks
#    both against the Image);
#  - its headers ask for gcc-16 (CC in .kernelvariables) and their .config holds gcc 16's
#    answers to Kconfig's compiler probes (CONFIG_CC_HAS_COUNTED_BY, ..._ASSUME,
#    ..._MIN_FUNCTION_ALIGNMENT, ...: each adds an option or an attribute gcc 12 rejects)
#    and pahole 1.32's version (which picks pahole options 1.24 lacks). The host's cross
#    gcc is named in .kernelvariables instead, and Kconfig is run over Debian's .config
#    with it (make olddefconfig, in a scratch directory of the source): the symbols it
#    computes from the toolchain (CONFIG_CC_*, GCC_*, AS_*, LD_*, PAHOLE_*,
#    TOOLS_SUPPORT_*) that differ are rewritten in .config, include/config/auto.conf and
#    include/generated/autoconf.h. Every other symbol stays Debian's: those are the
#    kernel's ABI (struct layouts, exported symbols), the probes only choose options,
#    attributes and inline-asm forms. On a board, the headers package pulls in gcc-16
#    and a linux-kbuild that runs there: nothing of this applies.
#
# The current package is the one the metapackage depends on. Nothing is installed;
# everything is cached in $APMU_CACHE/distro/<release>_<version>/ (the .debs are removed
# once unpacked, and so is an older release of the series), so a warm run downloads
# nothing. When the download fails (package lists older than the mirror), the lists are
# refreshed, the packages worked out again and the download retried once. Series do not
# share a file while they fetch (each has its own download directory), so two lanes may
# fetch at once.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

series=${1:?usage: scripts/distro/fetch.sh 6.1|6.12|7.2}
suite=""
case "$series" in
6.1) meta=linux-image-arm64 ;;
6.12) meta=linux-image-6.12-arm64 ;;
7.2) meta=linux-image-arm64 suite=sid ;;
*) apmu_die "distro: unknown series $series (6.1, 6.12 or 7.2)" ;;
esac
# Bump when what the host-tool and toolchain steps produce changes (cached dirs redo them)
HOST_RECIPE=1

# The host's apt for Debian 12's series, the private configuration for another suite's
debs=$APMU_CACHE/distro/debs-$series
if [ -n "$suite" ]; then
	apmu_apt "$suite"
else
	apt_opts=()
fi
acache() { apt-cache "${apt_opts[@]}" "$@"; }
refresh() {
	if [ -n "$suite" ]; then
		apmu_apt_update
	else
		# two lanes refreshing at once take turns (apt-get fails on its own lock)
		mkdir -p "$APMU_CACHE/distro"
		(flock 9 && apt-get update -q >/dev/null 2>&1) 9>"$APMU_CACHE/distro/.update.lock" ||
			true
	fi
}
# pkgdep DEPENDS PREFIX: the first package of a Depends line whose name starts with PREFIX
pkgdep() { tr ',|' '\n' <<<"$1" | sed -n "s/^ *\($2[^ ]*\).*/\1/p" | head -n 1; }

# apt-cache answers from the local package lists: refresh them once if they lack the
# metapackage (a fresh machine whose lists predate 'dpkg --add-architecture arm64', or
# sid's private lists fetched for amd64 only).
resolve() {
	img=$(pkgdep "$(acache show --no-all-versions "$meta:arm64" 2>/dev/null |
		sed -n 's/^Depends: //p' | head -n 1)" linux-image-)
	[ -n "$img" ]
}
# work_out: the current image of the series and everything named after it
work_out() {
	local imgdeps p
	if ! resolve; then
		apmu_log "distro: $meta:arm64 unknown, refreshing the package lists"
		refresh
		resolve || apmu_die "distro: no $meta:arm64 in the package lists (scripts/deps.sh)"
	fi
	rel=${img#linux-image-}
	hdr=linux-headers-$rel
	# one apt-cache call for both records (each call reads all the lists: seconds)
	info=$(acache show --no-all-versions "$img:arm64" "$hdr:arm64")
	ver=$(sed -n 's/^Version: //p' <<<"$info" | head -n 1)
	imgdeps=$(sed -n "/^Package: $img\$/,/^\$/s/^Depends: //p" <<<"$info" | head -n 1)
	deps=$(sed -n "/^Package: $hdr\$/,/^\$/s/^Depends: //p" <<<"$info" | head -n 1)
	common=$(tr ',' '\n' <<<"$deps" | sed -n 's/^ *\(linux-headers-[^ ]*-common\) .*/\1/p' | head -n 1)
	kbuild=$(pkgdep "$deps" linux-kbuild-)
	[ -n "$ver" ] && [ -n "$common" ] && [ -n "$kbuild" ] ||
		apmu_die "distro: cannot work out the packages of $img ($hdr: $deps)"
	# 7.2 splits the image: linux-image-<rel> depends on linux-binary-<rel> (vmlinuz) and
	# linux-base-<rel> (config, System.map); 6.1 and 6.12 hold both in linux-image-<rel>.
	parts=()
	for p in "linux-binary-$rel" "linux-base-$rel"; do
		[ -z "$(pkgdep "$imgdeps" "$p")" ] || parts+=("$p")
	done
	dir=$APMU_CACHE/distro/${rel}_$ver
	pkgs=("$img:arm64=$ver" "$hdr:arm64=$ver" "$common=$ver" "$kbuild:amd64=$ver")
	for p in "${parts[@]}"; do
		pkgs+=("$p:arm64=$ver")
	done
}
# What the board's `apt-get install linux-headers-$(uname -r)` pulls in: the Depends of
# the arm64 headers package and of the arm64 linux-kbuild it names, kept in DIR/depends
# for scripts/distro/check.sh to check what the README claims.
write_depends() {
	local kdeps
	kdeps=$(acache show --no-all-versions "$kbuild:arm64" 2>/dev/null |
		sed -n 's/^Depends: //p' | head -n 1 || true)
	printf '%s: %s\n%s: %s\n' "$hdr" "$deps" "$kbuild" "$kdeps" >"$dir/depends"
}
# The compiler the headers name: CC = $(CROSS_COMPILE)gcc-N in .kernelvariables
write_compiler() {
	sed -n 's/^CC = .*(CROSS_COMPILE)\(gcc-[0-9]*\) *$/\1/p' \
		"$dir/root/usr/src/$hdr/.kernelvariables" | head -n 1 >"$dir/compiler"
	[ -s "$dir/compiler" ] || apmu_die "distro: no compiler in $hdr's .kernelvariables"
}
# cached: the series' current release is unpacked already (a warm run downloads nothing).
# .apmu-done is empty for a tree used as Debian made it, "host N" when the host steps
# below (recipe N) adapted it; an older recipe's tree is fetched again.
cached() {
	[ -f "$dir/.apmu-done" ] || return 1
	case "$(cat "$dir/.apmu-done")" in
	""|"host $HOST_RECIPE") ;;
	*) return 1 ;;
	esac
	[ -s "$dir/depends" ] || write_depends
	# trees unpacked before these files existed: Debian's as they were (.apmu-done empty)
	[ -s "$dir/compiler" ] || write_compiler
	[ -f "$dir/host" ] || : >"$dir/host"
	apmu_log "distro: $rel ($ver) cached in $dir"
	echo "$dir"
}

# newer_glibc ELF...: the programs among ELF... that need a newer glibc than this host's
newer_glibc() {
	local have need f
	have=$(getconf GNU_LIBC_VERSION | awk '{ print $2 }')
	for f; do
		need=$(objdump -T "$f" 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' |
			sort -V | tail -n 1)
		[ -z "$need" ] || [ "$(printf '%s\n%s\n' "$have" "$need" | sort -V | tail -n 1)" = "$have" ] ||
			echo "$f"
	done
}

# host_tools KB: replace the amd64 linux-kbuild programs a module build runs (in KB, the
# unpacked /usr/lib/linux-kbuild-*) by ones built from the same version's source.
host_tools() {
	local kb=$1 tree f scratch
	[ "$series" = 7.2 ] ||
		apmu_die "distro: $kbuild's programs do not run here and no source tree for $series"
	tree=$(APMU_ARCH=arm64 "$APMU_TOP/scripts/prepare-7.2.sh")
	src=$(readlink -f "$tree/source")
	[ "$(basename "$src")" = "linux-$ver" ] ||
		apmu_die "distro: $rel is $ver, the prepared linux-source-7.2 is ${src##*/linux-}"
	for f in scripts/basic/fixdep scripts/mod/modpost; do
		[ -x "$tree/$f" ] || apmu_die "distro: $tree/$f missing (scripts/prepare-7.2.sh)"
		cp "$tree/$f" "$kb/$f"
		echo "host: $f from linux-source-7.2 $ver (the prepared tree: $tree)"
	done
	# Debian's modpost is a front end choosing one of these by the module's ELF class
	rm -f "$kb"/scripts/mod/modpost.real-*
	if grep -q '^CONFIG_MODVERSIONS=y' "$dir/config"; then
		[ -x "$tree/scripts/genksyms/genksyms" ] ||
			apmu_die "distro: $rel has CONFIG_MODVERSIONS and $tree no genksyms"
		cp "$tree/scripts/genksyms/genksyms" "$kb/scripts/genksyms/genksyms"
		echo "host: scripts/genksyms/genksyms from linux-source-7.2 $ver"
	fi
	scratch=$(mktemp -d "$dir/tools.XXXXXX")
	mkdir -p "$scratch/btfids"
	make -s -C "$src/tools/bpf/resolve_btfids" O="$scratch/btfids" srctree="$src" \
		-j"$(nproc)" >"$scratch/btfids.log" 2>&1 ||
		{ tail -n 20 "$scratch/btfids.log" >&2; apmu_die "distro: building resolve_btfids failed"; }
	cp "$scratch/btfids/resolve_btfids" "$kb/tools/bpf/resolve_btfids/resolve_btfids"
	echo "host: tools/bpf/resolve_btfids from linux-source-7.2 $ver"
	# the kernel's recipe (scripts/Makefile: libcrypto, the UAPI module_signature.h)
	# shellcheck disable=SC2046 # compiler options, split on purpose
	gcc -O2 -I"$src/tools/include/uapi" -o "$kb/scripts/sign-file" "$src/scripts/sign-file.c" \
		$(pkg-config --cflags --libs libcrypto 2>/dev/null || echo -lcrypto)
	echo "host: scripts/sign-file from linux-source-7.2 $ver"
	rm -rf "$scratch"
	# shellcheck disable=SC2046 # paths without blanks (the package's)
	for f in $(newer_glibc $(find "$kb" -type f -perm -u+x)); do
		echo "host: ${f#"$kb"/} needs a newer glibc, left as Debian's (a module build does not run it)"
	done
}

# host_toolchain KDIR CC: Kconfig's compiler probes of Debian's .config answered by this
# host's toolchain (CC), written where Kbuild and the C preprocessor read them.
host_toolchain() {
	local kdir=$1 cc=$2 scratch syms s d h a
	scratch=$(mktemp -d "$dir/kconfig.XXXXXX")
	cp "$kdir/.config" "$scratch/.config"
	make -s -C "$src" O="$scratch" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CC="$cc" \
		olddefconfig >"$scratch/kconfig.log" 2>&1 ||
		{ tail -n 20 "$scratch/kconfig.log" >&2; apmu_die "distro: make olddefconfig failed"; }
	syms=$(cat "$kdir/.config" "$scratch/.config" |
		sed -En 's/^(# )?(CONFIG_(CC|GCC|AS|LD|PAHOLE|TOOLS_SUPPORT)_[A-Z0-9_]*)[= ].*/\2/p' |
		sort -u)
	for s in $syms; do
		d=$(sed -n "s/^$s=//p" "$kdir/.config")
		h=$(sed -n "s/^$s=//p" "$scratch/.config")
		[ "$d" != "$h" ] || continue
		echo "host: $s: ${d:-unset} -> ${h:-unset}"
		sed -i -e "/^$s=/d" -e "/^# $s is not set\$/d" "$kdir/.config" \
			"$kdir/include/config/auto.conf"
		sed -i -e "/^#define $s /d" -e "/^#define ${s}_MODULE /d" \
			"$kdir/include/generated/autoconf.h"
		if [ -n "$h" ]; then
			# auto.conf holds strings unquoted, autoconf.h as C strings (as .config)
			a=$h
			case "$a" in \"*) a=${a#\"}; a=${a%\"}; a=${a//\\\"/\"}; a=${a//\\\\/\\} ;; esac
			echo "$s=$h" >>"$kdir/.config"
			echo "$s=$a" >>"$kdir/include/config/auto.conf"
			case "$h" in
			y) echo "#define $s 1" ;;
			m) echo "#define ${s}_MODULE 1" ;;
			*) echo "#define $s $h" ;;
			esac >>"$kdir/include/generated/autoconf.h"
		elif [ "$d" = y ] || [ "$d" = m ]; then
			echo "# $s is not set" >>"$kdir/.config"
		fi
	done
	rm -rf "$scratch"
}

work_out
cached && exit 0

mkdir -p "$debs"
chown _apt "$debs" 2>/dev/null || true
download() {
	apmu_log "distro: downloading ${pkgs[*]}"
	if [ -n "$suite" ]; then
		apmu_apt_download -d "$debs" "${pkgs[@]}"
	else
		(cd "$debs" && apt-get download -q "${pkgs[@]}" >"$debs/download.log" 2>&1)
	fi
}
if ! download; then
	# Stale package lists name a version the mirror no longer has: refresh them, work the
	# packages out again (the series may have a newer release now) and retry once.
	apmu_log "distro: apt-get download failed: refreshing the package lists, retrying once"
	sed 's/^/  /' "$debs/download.log" | tail -n 5 >&2
	refresh
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
# The image and the config: only those two files of the image packages (the modules,
# and 7.2's device trees, are not needed)
want=("./boot/vmlinuz-$rel" "./boot/config-$rel" "./usr/lib/modules/$rel/vmlinuz"
	"./usr/lib/modules/$rel/config")
mkdir -p "$dir/image"
for p in "$img" "${parts[@]}"; do
	f=$(deb "$p" arm64)
	mapfile -t members < <(dpkg-deb --fsys-tarfile "$f" | tar -t | grep -xF "${want[@]/#/-e}" || true)
	[ ${#members[@]} -eq 0 ] || dpkg-deb --fsys-tarfile "$f" | tar -x -C "$dir/image" "${members[@]}"
done
for f in boot/vmlinuz-$rel usr/lib/modules/$rel/vmlinuz; do
	[ ! -f "$dir/image/$f" ] || mv "$dir/image/$f" "$dir/Image"
done
for f in boot/config-$rel usr/lib/modules/$rel/config; do
	[ ! -f "$dir/image/$f" ] || mv "$dir/image/$f" "$dir/config"
done
rm -rf "$dir/image"
[ -f "$dir/Image" ] && [ -f "$dir/config" ] ||
	apmu_die "distro: no vmlinuz or config for $rel in ${img} ${parts[*]}"

kdir=$dir/root/usr/src/$hdr
sed -i -e "s#^include /usr/src/#include $dir/root/usr/src/#" \
	-e "s#^KBUILD_OUTPUT=/usr/src/#KBUILD_OUTPUT=$dir/root/usr/src/#" "$kdir/Makefile"
for f in .config Module.symvers scripts/basic/fixdep scripts/mod/modpost; do
	[ -e "$kdir/$f" ] || apmu_die "distro: $kdir/$f missing after unpacking"
done
file -L "$kdir/scripts/mod/modpost" | grep -q x86-64 ||
	apmu_die "distro: $kdir/scripts/mod/modpost is not a host binary"
echo "$rel" >"$dir/release"
write_compiler
write_depends

# This host's adaptations (see the top): none for Debian 12's own kernels
: >"$dir/host"
done_tag=""
kb=$dir/root/usr/lib/$kbuild
src=""
if [ -n "$(newer_glibc "$kb/scripts/basic/fixdep" "$kb"/scripts/mod/modpost*)" ]; then
	apmu_log "distro: $kbuild's programs need a newer glibc: building them from the source"
	host_tools "$kb" >>"$dir/host"
	done_tag="host $HOST_RECIPE"
fi
gcc=$(cat "$dir/compiler")
if ! command -v "aarch64-linux-gnu-$gcc" >/dev/null; then
	hcc=aarch64-linux-gnu-gcc-$(aarch64-linux-gnu-gcc -dumpversion | cut -d. -f1)
	[ -n "$src" ] || apmu_die "distro: no aarch64-linux-gnu-$gcc here and no source for $series"
	apmu_log "distro: the headers name $gcc, this host has $hcc: its answers to Kconfig's probes"
	sed -i "s/^\(CC = .*(CROSS_COMPILE)\)$gcc *\$/\1gcc-${hcc##*-}/" "$kdir/.kernelvariables"
	echo "host: .kernelvariables: CC names $hcc, not aarch64-linux-gnu-$gcc" >>"$dir/host"
	host_toolchain "$kdir" "$hcc" >>"$dir/host"
	done_tag="host $HOST_RECIPE"
fi
echo "$done_tag" >"$dir/.apmu-done"
# The unpacked tree is the cache: drop the .debs, and older releases of this series.
rm -f "$(deb "$img" arm64)" "$(deb "$hdr" arm64)" "$(deb "$common" all)" "$(deb "$kbuild" amd64)"
for p in "${parts[@]}"; do
	rm -f "$(deb "$p" arm64)"
done
for old in "$APMU_CACHE/distro/$series".*_*; do
	[ "$old" = "$dir" ] || [ ! -d "$old" ] || rm -rf "$old"
done
apmu_log "distro: $rel ($ver) in $dir"
echo "$dir"
