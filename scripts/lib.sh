# SPDX-License-Identifier: GPL-2.0
# Shared settings for the apmu harness scripts. Sourced, not run.

APMU_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# TAP sections, numbered for the caller (the same helpers as in the VMs)
. "$APMU_TOP/scripts/ktap.sh"
# Everything built for tests lives outside the work tree, so a fresh clone reuses it.
APMU_CACHE=${APMU_CACHE:-/var/cache/apmu}
# The test kernel's architecture: arm64 (the default, and everything make check runs) or
# arm (the 32-bit lane: scripts/vm-run --arch arm). Each has its own fragment and cache.
APMU_ARCH=${APMU_ARCH:-arm64}
case "$APMU_ARCH" in
arm64) ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- ;;
arm) ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- ;;
*) printf 'error: APMU_ARCH=%s: arm64 or arm\n' "$APMU_ARCH" >&2; exit 1 ;;
esac
export APMU_ARCH ARCH CROSS_COMPILE
# The kernel flavour: test (the default: lock, atomic and preempt debugging on and, on
# arm64, KASAN: what make check runs) or bench (the same fragment without them, for make
# bench: figures near a production kernel's; arm64 only). Each has its own cache.
APMU_FLAVOUR=${APMU_FLAVOUR:-test}
case "$APMU_FLAVOUR" in
test) ;;
bench) [ "$APMU_ARCH" = arm64 ] ||
	{ printf 'error: APMU_FLAVOUR=%s is for APMU_ARCH=arm64 only\n' "$APMU_FLAVOUR" >&2
	  exit 1; } ;;
*) printf 'error: APMU_FLAVOUR=%s: test or bench\n' "$APMU_FLAVOUR" >&2; exit 1 ;;
esac
export APMU_FLAVOUR

apmu_log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
apmu_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# apmu_fragment_holds FRAGMENT CONFIG: Kconfig silently drops symbols whose dependencies
# are not met, so every line of the fragment must be in the resulting .config. A
# "# CONFIG_X is not set" line holds when X is not y or m (a symbol whose dependencies
# are not met is not written at all). Prints each line not honoured; status 1 if any.
apmu_fragment_holds() {
	local line sym bad=0
	while IFS= read -r line; do
		case "$line" in
		'# CONFIG_'*' is not set')
			sym=${line#\# }
			sym=${sym% is not set}
			grep -q "^$sym=" "$2" || continue ;;
		''|'#'*) continue ;;
		*) grep -qxF -- "$line" "$2" && continue ;;
		esac
		echo "kconfig: not honoured: $line" >&2
		bad=1
	done <"$1"
	return $bad
}

# A private apt configuration for another Debian suite (sid, bookworm-backports, ...):
# its own sources.list naming SUITE on the mirror the host uses (the first deb822 URIs
# line, or the first "deb" line, of the host's sources), its own state and cache under
# $APMU_CACHE/apt-<suite>, the host's dpkg status, amd64 and arm64 lists. Packages are
# only downloaded (apmu_apt_download), never installed: the host's apt sources and
# installed packages stay as they are. apmu_apt SUITE sets apt_dir and the array apt_opts
# for apt-get/apt-cache calls; apmu_apt_update refreshes its lists (once: callers
# refresh again only when a download fails because the suite moved on).
# apmu_apt_mirror: set apt_mirror to the Debian mirror the host's sources name
apmu_apt_mirror() {
	local mirror
	mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
		sed -n 's#^URIs: *\([^ ]*/debian\)/*$#\1#p' | head -n 1)
	[ -n "$mirror" ] || mirror=$(sed -n \
		's#^deb  *\(\[[^]]*\]  *\)\{0,1\}\([^ ]*/debian\)/* .*#\2#p' \
		/etc/apt/sources.list 2>/dev/null | head -n 1)
	apt_mirror=${mirror:-http://deb.debian.org/debian}
}
apmu_apt() { # apmu_apt SUITE
	local src
	apt_dir=$APMU_CACHE/apt-$1
	apmu_apt_mirror
	mkdir -p "$apt_dir"/{state/lists/partial,cache/archives/partial,parts,debs}
	# lanes set up the same suite at once (root-sid, kernel-7.2): a reader must never
	# see the file half written (seen: "no linux-perf in Debian's unstable suite")
	src=$(printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main' \
		"$apt_mirror" "$1")
	if [ "$(cat "$apt_dir/sources.list" 2>/dev/null)" != "$src" ]; then
		echo "$src" >"$apt_dir/sources.list.$$"
		mv -f "$apt_dir/sources.list.$$" "$apt_dir/sources.list"
	fi
	chown -R _apt "$apt_dir/debs" "$apt_dir/state/lists/partial" \
		"$apt_dir/cache/archives/partial" 2>/dev/null || true
	apt_opts=(-q -o Dir::Etc::SourceList="$apt_dir/sources.list"
		-o Dir::Etc::SourceParts="$apt_dir/parts" -o Dir::State="$apt_dir/state"
		-o Dir::Cache="$apt_dir/cache" -o Dir::State::status=/var/lib/dpkg/status
		-o APT::Architectures::=amd64 -o APT::Architectures::=arm64
		-o Acquire::Languages=none)
}
# Lanes running at once may both refresh: they take turns (apt-get would fail on its lock).
apmu_apt_update() {
	apmu_log "apt-get update (private configuration: $apt_mirror $(awk '{print $4}' \
		"$apt_dir/sources.list"))"
	(flock 9 && apt-get "${apt_opts[@]}" update >"$apt_dir/update.log" 2>&1) \
		9>"$apt_dir/update.lock" ||
		{ tail -n 5 "$apt_dir/update.log" >&2; apmu_die "apt-get update failed ($apt_dir)"; }
}
# apmu_apt_version PKG[:ARCH]: the candidate version in the private lists (status 1: none)
apmu_apt_version() {
	apt-cache "${apt_opts[@]}" show --no-all-versions "$1" 2>/dev/null |
		sed -n 's/^Version: //p' | head -n 1 | grep .
}
# apmu_apt_download [-d DIR] PKG[:ARCH]=VER...: into $apt_dir/debs (emptied first), or
# into DIR (a caller's own, so that two lanes downloading at once do not share one; the
# log is DIR/download.log)
apmu_apt_download() {
	local d=$apt_dir/debs l=$apt_dir/download.log
	if [ "$1" = -d ]; then
		d=$2 l=$2/download.log
		shift 2
		mkdir -p "$d"
		chown _apt "$d" 2>/dev/null || true
	fi
	(cd "$d" && rm -f ./*.deb && apt-get "${apt_opts[@]}" download "$@" >"$l" 2>&1)
}

# The kernel source version and the key of the cached kernel build: the fragment, the
# source package version and the build recipe's version all invalidate the cache.
# Bump APMU_KERNEL_RECIPE when scripts/build-kernel.sh changes what it produces.
APMU_KERNEL_RECIPE=1
apmu_kernel_version() { dpkg-query -W -f='${Version}' linux-source-6.12; }
# The arm64 test kernel's fragment is apmu-test.config followed by apmu-kasan.config,
# joined into a file of the cache (the 7.2 test kernel, scripts/prepare-7.2.sh, takes
# apmu-test.config alone: one test fragment to keep, not two).
apmu_kernel_fragment() {
	if [ "$APMU_ARCH" = arm ]; then
		echo "$APMU_TOP/scripts/kconfig/apmu-test-arm.config"
	elif [ "$APMU_FLAVOUR" = bench ]; then
		echo "$APMU_TOP/scripts/kconfig/apmu-bench.config"
	else
		_frag=$APMU_CACHE/apmu-test-kasan-$(cat "$APMU_TOP/scripts/kconfig/apmu-test.config" \
			"$APMU_TOP/scripts/kconfig/apmu-kasan.config" | sha256sum | cut -c1-12).config
		if [ ! -f "$_frag" ]; then
			mkdir -p "$APMU_CACHE"
			_tmp=$(mktemp "$_frag.XXXXXX")
			cat "$APMU_TOP/scripts/kconfig/apmu-test.config" \
				"$APMU_TOP/scripts/kconfig/apmu-kasan.config" >"$_tmp"
			mv "$_tmp" "$_frag"
		fi
		echo "$_frag"
	fi
}
apmu_kernel_key() {
	{ echo "recipe $APMU_KERNEL_RECIPE"; [ "$APMU_ARCH" = arm64 ] || echo "arch $APMU_ARCH"
	  [ "$APMU_FLAVOUR" = test ] || echo "flavour $APMU_FLAVOUR"
	  apmu_kernel_version; cat "$(apmu_kernel_fragment)"; } | sha256sum | cut -c1-12
}
apmu_kdir() {
	if [ "$APMU_ARCH" = arm ]; then
		echo "$APMU_CACHE/kernel-arm-$(apmu_kernel_key)"
	elif [ "$APMU_FLAVOUR" != test ]; then
		echo "$APMU_CACHE/kernel-$APMU_FLAVOUR-$(apmu_kernel_key)"
	else
		echo "$APMU_CACHE/kernel-$(apmu_kernel_key)"
	fi
}
# Where the modules for the kernel flavour are built: the tree itself for the test kernel
# (make, make check), a copy of the sources under build/bench for the bench kernel,
# so the builds never overwrite each other's apmu.ko (scripts/build.sh).
apmu_module_dir() {
	if [ "$APMU_FLAVOUR" != test ]; then
		echo "$APMU_TOP/build/$APMU_FLAVOUR"
	else
		echo "$APMU_TOP"
	fi
}
# The kernel image QEMU boots: arch/arm64/boot/Image or arch/arm/boot/zImage.
apmu_kernel_image() {
	if [ "$APMU_ARCH" = arm ]; then echo zImage; else echo Image; fi
}

# The build tree the README's `make` uses: Makefile, Kbuild and the sources (tools/: make
# builds apmu-stat too), copied so the test kernel's objects in the work tree stay
# untouched (another kernel's, another arch's apmu.ko is built there).
apmu_stage_src() { # apmu_stage_src DIR
	rm -rf "$1"
	mkdir -p "$1"
	(cd "$APMU_TOP" && cp -a Makefile Kbuild drivers include tools "$1/")
	find "$1" \( -name '*.o' -o -name '*.ko' -o -name '.*.cmd' -o -name '*.mod*' \) -delete
	rm -f "$1/tools/apmu-stat/apmu-stat" "$1/tools/apmu-stat/test-apmu-stat"
}

# The kselftests the kernel's way (as KernelCI and LKFT build them): selftests/apmu placed
# at tools/testing/selftests/apmu of the kernel tree, built by its lib.mk and installed by
# its installer, which writes run_kselftest.sh and kselftest-list.txt, for $ARCH with
# $CROSS_COMPILE, linked static (lib.mk's USERLDFLAGS): the VM roots have Debian's libc
# (for perf), but the instruction counts the tests expect were measured on static
# programs, and in a dynamic one the loader's lazy binding can run inside a counted
# window. The kernel source is a shared cache and stays untouched: TREE is a shadow of it
# made of symlinks (top-level entries of the source, KDIR's installed UAPI headers as
# usr/, and apmu/ as per-file symlinks, so `include ../lib.mk` finds the shadow's
# lib.mk). Each architecture has its own TREE (its own UAPI headers) and INSTALL.
apmu_ksft_install() { # apmu_ksft_install KDIR TREE INSTALL LOG
	local kdir=$1 tree=$2 install=$3 log=$4 src sdir e f
	src=$(readlink -f "$kdir/source")
	sdir=$tree/tools/testing/selftests
	mkdir -p "$sdir/apmu"
	for e in "$src"/*; do
		[ "${e##*/}" = tools ] || ln -sfn "$e" "$tree/"
	done
	ln -sfn "$kdir/usr" "$tree/usr"
	for e in "$src"/tools/*; do
		[ "${e##*/}" = testing ] || ln -sfn "$e" "$tree/tools/"
	done
	for e in "$src"/tools/testing/selftests/*; do
		ln -sfn "$e" "$sdir/"
	done
	find "$sdir/apmu" -maxdepth 1 -type l -delete
	for f in "$APMU_TOP"/selftests/apmu/{Makefile,config,settings,*.c,*.h}; do
		ln -s "$f" "$sdir/apmu/"
	done
	rm -rf "$install"
	make -s -C "$sdir" TARGETS=apmu ARCH="$ARCH" CROSS_COMPILE="$CROSS_COMPILE" \
		USERCFLAGS=-Werror USERLDFLAGS=-static INSTALL_PATH="$install" install \
		>"$log" 2>&1 &&
		grep -qx apmu:apmu_pmu "$install/kselftest-list.txt"
}

# The Debian-kernel lane (scripts/distro/check.sh): the series it tests with no argument,
# and the one it also boots with the heterogeneous device tree (6.1: compat.h's pre-6.2
# filter_match and PERF_PMU_CAP_HETEROGENEOUS_CPUS path, which only two PMUs reach).
# make check runs each series as a lane (scripts/lanes.txt names their sections).
APMU_DISTRO_SERIES="6.1 6.12 7.2"
APMU_DISTRO_HETERO="6.1"
# The series whose Debian kernel runs every section of the test kernel: 6.1, which no test
# kernel covers. 6.12 and 7.2 have test kernels of the same source (the test and 7.2
# lanes run every section there, with lock debugging): their Debian kernels run the
# distro-smoke set of scripts/lanes.txt (the build, DKMS, load, the kselftest collection,
# perf's exact counts, the lifecycle and the README's steps). (A boot of Debian's 6.1
# with every section took 312 s of a core; the smoke set on 6.12, 100 s.)
APMU_DISTRO_FULL="6.1"

# apmu_stall_splats LOG: print the kernel splats (tap-summary.py's list) in the log of a VM
# that stalled; status 1 when there is one. A stall retried green must not hide a warning
# the first boot printed before it went silent (a hung-task report, say).
apmu_stall_splats() {
	PYTHONDONTWRITEBYTECODE=1 python3 - "$APMU_TOP/scripts/tap-summary.py" "$1" <<'PY'
import importlib.util
import re
import sys

spec = importlib.util.spec_from_file_location("tap_summary", sys.argv[1])
ts = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ts)
splat = re.compile("|".join(ts.SPLATS))
hits = [line.rstrip() for line in open(sys.argv[2], errors="replace") if splat.search(line)]
for line in hits[:20]:
    print(line)
sys.exit(1 if hits else 0)
PY
}
