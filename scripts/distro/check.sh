#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/distro/check.sh [SERIES...]: the Debian-kernel lane of make check (default: every
# series of $APMU_DISTRO_SERIES, scripts/lib.sh: 6.1, 6.12 and 7.2). For each series: fetch
# Debian's current arm64 kernel and headers (scripts/distro/fetch.sh: Debian 12's 6.1 and
# 6.12, the unstable suite's 7.2), build apmu.ko against them the way the README tells a
# board owner to (make KDIR=..., here cross: ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-,
# with W=1 and warnings as errors), check its vermagic and symbol CRCs against the kernel
# image and the headers' Module.symvers and the DKMS build, then
# boot the Debian Image in the test VM and run scripts/vm/distro-in-vm.sh (with the
# DKMS-installed module tree as /apmu/lib, for the README's `modprobe apmu`). 6.1
# ($APMU_DISTRO_HETERO, scripts/lib.sh) boots once more with the heterogeneous device tree
# of the test kernel's hetero boot (vm-run --hetero: scripts/hetero-dtb.py) and runs
# scripts/vm/hetero-in-vm.sh: two PMUs are what reaches compat.h's pre-6.2 path
# (filter_match, PERF_PMU_CAP_HETEROGENEOUS_CPUS).
#
# Writes build/distro-<series>.log when given one series (a lane of its own: series may
# run at once, each in its own build/distro-<series>/ and console-distro-<series>*.log),
# build/distro.log otherwise: the host's TAP sections (distro-<series>:build) followed by
# the VM console logs; make check counts it with the others (APMU_BUILT=1: it has built
# the test kernel's module, the selftests and the VM root; 7.2 also needs the linux-source-7.2
# tree of scripts/prepare-7.2.sh, which fetch.sh runs, for its host programs). make check
# runs each series as a lane (scripts/lanes.txt: distro-<series>; make distro-check runs
# those lanes alone) and counts their sections; run by hand, it builds what it needs
# first. Exit status: 0 when every VM finished its script and the builds passed.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

# shellcheck disable=SC2086 # a list of words
[ $# -gt 0 ] || set -- $APMU_DISTRO_SERIES
if [ -z "${APMU_BUILT:-}" ]; then
	# run by hand: what make check's arm64 build does before this lane
	bash "$APMU_TOP/scripts/deps.sh"
	"$APMU_TOP/scripts/build.sh" >/dev/null
	"$APMU_TOP/scripts/arm64-root.sh" >/dev/null
fi
out=$APMU_TOP/build
mkdir -p "$out"
if [ $# -eq 1 ]; then
	log=$out/distro-$1.log
else
	log=$out/distro.log
fi
: >"$log"
rc=0

# Every CRC apmu.ko records for an imported symbol must be the kernel's (Module.symvers).
# A kernel without CONFIG_MODVERSIONS (Debian's 7.2) checks no CRC: then apmu.ko must
# record none (no __versions section) and the kernel's loader compares vermagic whole.
crcs_match() { # crcs_match KO SYMVERS CONFIG
	local n bad
	if ! grep -q '^CONFIG_MODVERSIONS=y' "$3"; then
		echo "# the kernel has no CONFIG_MODVERSIONS: no CRC to match, and apmu.ko records none"
		if aarch64-linux-gnu-readelf -S "$1" | grep -q '__versions'; then
			echo "# apmu.ko has a __versions section"
			return 1
		fi
		return 0
	fi
	n=$(modprobe --dump-modversions "$1" | wc -l)
	bad=$(comm -23 <(modprobe --dump-modversions "$1" | awk '{ print $1, $2 }' | sort) \
		<(awk '{ print $1, $2 }' "$2" | sort))
	echo "# $n imported symbols with CRCs"
	[ -z "$bad" ] || echo "$bad" | sed 's/^/# not the kernel'"'"'s: /'
	[ "$n" -gt 0 ] && [ -z "$bad" ]
}

# What the README says `apt-get install linux-headers-$(uname -r)` pulls in, from the
# arm64 packages' Depends (scripts/distro/fetch.sh: DIR/depends): the kernel's compiler
# (the one .kernelvariables names: gcc-12 for 6.1 and 6.12, gcc-16 for 7.2, through
# gcc-16-for-host), and linux-kbuild; and pahole where the headers hold vmlinux (BTF for
# modules).
depends_ok() { # depends_ok DIR KDIR
	local hdeps kdeps gcc
	gcc=$(cat "$1/compiler")
	hdeps=$(sed -n 1p "$1/depends" | sed 's/^[^:]*: //' | tr ',|' '\n')
	kdeps=$(sed -n 2p "$1/depends" | sed 's/^[^:]*: //' | tr ',|' '\n')
	sed 's/^/# Depends of /' "$1/depends"
	grep -qE "^ *$gcc(-for-host)?( |\$)" <<<"$hdeps" && grep -qE '^ *linux-kbuild-' <<<"$hdeps" ||
		return 1
	if [ -e "$2/vmlinux" ]; then
		echo "# the headers hold vmlinux (BTF for modules): the build needs pahole"
		grep -qE '^ *pahole( |$)' <<<"$kdeps"
	else
		echo "# the headers hold no vmlinux: no BTF for modules, no pahole needed"
	fi
}

# Host part of one series: fetch, build, check; DKMS in the background (its own build
# overlaps the next series' build and the previous VM: QEMU with -icount uses one core).
# Writes $out/<name>/build.tap (TAP lines 1-4) and starts $out/<name>/dkms.rc.
host_build() { # host_build SERIES
	local name=distro-$1 dir rel kdir bdir ko vm kvm lacks gcc t3
	dir=$("$APMU_TOP/scripts/distro/fetch.sh" "$1")
	rel=$(cat "$dir/release")
	kdir=$dir/root/usr/src/linux-headers-$rel
	bdir=$out/$name/src
	ko=$bdir/apmu.ko
	gcc=$(cat "$dir/compiler")
	echo "$dir" >"$out/$name.dir"
	{
		ktap_reset
		# what fetch.sh changed in the unpacked packages for this host (7.2: host
		# programs from the source, gcc 12's answers to Kconfig's compiler probes)
		sed 's/^host: /# host: /' "$dir/host"
		apmu_stage_src "$bdir"
		apmu_log "distro: $rel: make KDIR=$kdir (cross, W=1, warnings are errors)"
		if make -s -j"$(nproc)" -C "$bdir" KDIR="$kdir" ARCH=arm64 \
			CROSS_COMPILE=aarch64-linux-gnu- W=1 KCFLAGS=-Werror \
			>"$out/$name/build.log" 2>&1 && [ -f "$ko" ]; then
			ktap_pass "make KDIR=<linux-headers-$rel> W=1 KCFLAGS=-Werror builds apmu.ko"
		else
			ktap_fail "make KDIR=<linux-headers-$rel> W=1 KCFLAGS=-Werror builds apmu.ko"
			sed 's/^/# /' "$out/$name/build.log" | tail -n 30
		fi
		# The kernel's own vermagic is a string of its (uncompressed) Image
		vm=$(modinfo -F vermagic "$ko" 2>/dev/null || true)
		kvm=$(strings -n 8 "$dir/Image" | awk -v r="$rel " '!f && index($0, r) == 1 { print; f = 1 }')
		echo "# vermagic: $vm"
		echo "# the Image's: $kvm"
		if [ -n "$vm" ] && [ "$vm" = "$kvm" ]; then
			ktap_pass "vermagic is the kernel's ($rel)"
		else
			ktap_fail "vermagic is the kernel's ($rel)"
		fi
		t3="modversions: every symbol CRC is the kernel's"
		grep -q '^CONFIG_MODVERSIONS=y' "$dir/config" ||
			t3="modversions: none in apmu.ko, as in the kernel (no CONFIG_MODVERSIONS)"
		if [ -f "$ko" ] && crcs_match "$ko" "$kdir/Module.symvers" "$dir/config"; then
			ktap_pass "$t3"
		else
			ktap_fail "$t3"
		fi
		if depends_ok "$dir" "$kdir"; then
			ktap_pass "linux-headers-$rel pulls in $gcc and linux-kbuild (and pahole if BTF)"
		else
			ktap_fail "linux-headers-$rel pulls in $gcc and linux-kbuild (and pahole if BTF)"
		fi
		# Diagnostics, not tests: what the test kernel's fragment asks for that Debian's
		# config does not give
		lacks=$(grep '^CONFIG_' "$APMU_TOP/scripts/kconfig/apmu-test.config" |
			grep -v '^CONFIG_LOCALVERSION=' | { grep -vxF -f "$dir/config" || true; } |
			sed 's/=.*//' | tr '\n' ' ')
		echo "# Debian's config lacks (of the test kernel's fragment): ${lacks:-nothing}"
		# and of what the tests name for kernel CI (the KUnit sections SKIP for these)
		for f in selftests/apmu/config drivers/perf/apmu/tests/.kunitconfig; do
			lacks=$(grep '^CONFIG_' "$APMU_TOP/$f" | { grep -vxF -f "$dir/config" || true; } |
				sed 's/=.*//' | tr '\n' ' ')
			echo "# Debian's config lacks (of $f): ${lacks:-nothing}"
		done
	} >"$out/$name/build.tap"
	rm -f "$out/$name/dkms.rc"
	( r=0
	  bash "$APMU_TOP/scripts/distro/dkms-check.sh" "$dir" "$out/$name/dkms" \
		>"$out/$name/dkms.log" 2>&1 || r=$?
	  echo $r >"$out/$name/dkms.rc" ) &
	echo $! >"$out/$name/dkms.pid"
}

# distro_boot CONSOLE VM-RUN-ARGS...: one boot (vm-run --quiet --log CONSOLE --stall 600
# VM-RUN-ARGS...), its log appended to $log. A console silent for 10 minutes is a stalled
# VM (QEMU 7.2 -icount, seen once on the test kernel: scripts/check.sh): the stalled log
# is kept as CONSOLE-stalled and the VM boots once more; a second stall fails.
distro_boot() {
	local console=$1 r=0
	shift
	rm -f "${console%.log}-stalled.log"
	APMU_BUILT=1 "$APMU_TOP/scripts/vm-run" --quiet --log "$console" --stall 600 "$@" || r=$?
	if [ $r -eq 126 ]; then
		mv "$console" "${console%.log}-stalled.log"
		apmu_log "vm: stalled (console silent for 600 s, in $(tr -d '\r' \
			<"${console%.log}-stalled.log" | sed -n 's/^APMU-SECTION-BEGIN //p' |
			tail -n 1)); log and vCPU registers in ${console%.log}-stalled.log;" \
			"booting it once more"
		r=0
		APMU_BUILT=1 "$APMU_TOP/scripts/vm-run" --quiet --log "$console" --stall 600 \
			"$@" || r=$?
	fi
	cat "$console" >>"$log"
	[ $r -eq 0 ] || rc=1
	if [ -f "${console%.log}-stalled.log" ] &&
	   ! apmu_stall_splats "${console%.log}-stalled.log" >&2; then
		apmu_log "vm: the stalled boot printed a kernel splat before it went silent (above)"
		rc=1
	fi
}

# VM part of one series, after its DKMS job: the build section, then the boot.
vm_test() { # vm_test SERIES
	local name=distro-$1 dir rel ko console
	dir=$(cat "$out/$name.dir")
	rel=$(cat "$dir/release")
	ko=$out/$name/src/apmu.ko
	wait "$(cat "$out/$name/dkms.pid")" 2>/dev/null || true
	{
		ktap_section "$name:build"
		echo "# kernel: $rel ($(basename "$dir"))"
		echo "TAP version 13"
		ktap_include "$out/$name/build.tap"
		if [ "$(cat "$out/$name/dkms.rc" 2>/dev/null)" = 0 ]; then
			ktap_pass "dkms add and install (dkms.conf) for $rel"
			sed 's/^/# /' "$out/$name/dkms.log" | tail -n 3
		else
			ktap_fail "dkms add and install (dkms.conf) for $rel"
			sed 's/^/# /' "$out/$name/dkms.log" | tail -n 30
		fi
		ktap_section_end
	} >>"$log"
	if [ ! -f "$ko" ]; then
		rc=1
		return
	fi

	# Debian sets CONFIG_RANDOMIZE_KSTACK_OFFSET_DEFAULT: every syscall then draws a random
	# kernel stack offset, whose get_random_u16() costs a few instructions more now and
	# then (seen: 1507 or 1516 kernel instructions for the same syscalls). The exact-count
	# kselftests need a deterministic kernel path, as on the test kernel: turn it off.
	# APMU_DISTRO=full|smoke tells distro-in-vm.sh which set to run ($APMU_DISTRO_FULL)
	console=$out/console-$name.log
	set=smoke
	case " $APMU_DISTRO_FULL " in *" $1 "*) set=full ;; esac
	apmu_log "vm: booting Debian's $rel, the $set sections (log: $console)"
	distro_boot "$console" --kernel "$dir/Image" --module "$ko" \
		--append "randomize_kstack_offset=off APMU_DISTRO=$set" --timeout 1800 \
		"$APMU_TOP/scripts/vm/distro-in-vm.sh" \
		$([ -d "$out/$name/dkms/lib" ] && echo "$out/$name/dkms/lib")

	# Two PMU nodes, as the test kernel's third boot (scripts/check.sh), on this kernel
	case " $APMU_DISTRO_HETERO " in
	*" $1 "*)
		echo "$name:" >"$out/$name/section-prefix"
		console=$out/console-$name-hetero.log
		apmu_log "vm: booting Debian's $rel with two PMU nodes (log: $console)"
		distro_boot "$console" --hetero --kernel "$dir/Image" --module "$ko" \
			--append randomize_kstack_offset=off --timeout 600 \
			"$APMU_TOP/scripts/vm/hetero-in-vm.sh" "$out/$name/section-prefix"
		;;
	esac
}

prev=""
for series in "$@"; do
	mkdir -p "$out/distro-$series"
	host_build "$series"
	[ -z "$prev" ] || vm_test "$prev"
	prev=$series
done
vm_test "$prev"
exit $rc
