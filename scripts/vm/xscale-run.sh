#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# xscale-run.sh: boot the ARMv5 XScale lane kernel (scripts/build-xscale.sh) on QEMU's
# PXA27x "spitz" board (Sharp SL-C3000: PXA270 c5, 64 MiB, FFUART console) and run a shell
# script inside it.
#
#   scripts/vm/xscale-run.sh [options] SCRIPT [FILE...]
#
# The initramfs holds Debian's armel busybox-static (armv5te, soft-float EABI), SCRIPT as
# /apmu/run.sh, scripts/vm/lib.sh as /apmu/vmlib.sh and each FILE (e.g. apmu.ko) in /apmu.
# The in-tree armv5_xscale2 perf driver is built in but has no device to bind to (see
# the command line below); nothing is loaded for SCRIPT, which runs under busybox sh in /apmu. Its exit status is this script's;
# 124 means the VM did not finish in time.
#
# Options:
#   --machine M    another QEMU PXA27x board with a legacy board file in the kernel:
#                  spitz (default), borzoi, terrier
#   --log FILE     keep the whole console log in FILE (default: a temporary file)
#   --timeout SEC  wall-clock bound for the VM (default 300)
#   --quiet        print nothing; the log and the exit status tell
#   --append ARGS  extra kernel command line
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

machine=spitz log="" timeout=300 quiet=0 append=""
while [ $# -gt 0 ]; do
	case "$1" in
	--machine) machine=$2; shift ;;
	--log) log=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--quiet) quiet=1 ;;
	--append) append=$2; shift ;;
	-h|--help) sed -n '3,25p' "$0"; exit 0 ;;
	-*) apmu_die "xscale-run: unknown option $1" ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 1 ] || apmu_die "usage: scripts/vm/xscale-run.sh [options] SCRIPT [FILE...]"
script=$1
shift
[ -f "$script" ] || apmu_die "xscale-run: no script $script"
command -v qemu-system-arm >/dev/null || apmu_die "qemu-system-arm missing (apt-get install qemu-system-arm)"

kdir=$("$APMU_TOP/scripts/build-xscale.sh")

# Debian's armel busybox (Debian armel targets ARMv5TE, which XScale implements); armhf's
# is ARMv7 and does not run here. Needs "dpkg --add-architecture armel; apt-get update".
debs=$APMU_CACHE/debs
bb=$(ls "$debs"/busybox-static_*_armel.deb 2>/dev/null | tail -n 1 || true)
if [ -z "$bb" ]; then
	mkdir -p "$debs"
	(cd "$debs" && apt-get download -q busybox-static:armel >/dev/null) ||
		apmu_die "cannot download busybox-static:armel (dpkg --add-architecture armel; apt-get update)"
	bb=$(ls "$debs"/busybox-static_*_armel.deb | tail -n 1)
fi

work=$(mktemp -d /tmp/apmu-xscale.XXXXXX)
qpid=""
cleanup() { [ -z "$qpid" ] || kill "$qpid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
stage=$work/root
mkdir -p "$stage"
dpkg-deb -x "$bb" "$work/bb"
mkdir -p "$stage"/{bin,usr/bin,usr/sbin,proc,sys,dev,tmp,apmu}
cp "$work/bb/bin/busybox" "$stage/bin/busybox"
ln -sfn usr/sbin "$stage/sbin"
mknod -m 600 "$stage/dev/console" c 5 1
mknod -m 666 "$stage/dev/null" c 1 3
cp "$script" "$stage/apmu/run.sh"
cp "$APMU_TOP/scripts/vm/lib.sh" "$stage/apmu/vmlib.sh"
cp "$APMU_TOP/scripts/ktap.sh" "$stage/apmu/ktap.sh"
for f in "$@"; do
	cp -a "$f" "$stage/apmu/"
done

cat >"$stage/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /usr/bin
export PATH=/usr/sbin:/usr/bin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
echo 0 > /proc/sys/kernel/perf_event_paranoid 2>/dev/null
cd /apmu
echo "APMU-VM: booted $(uname -r) on $(uname -m)"
sh /apmu/run.sh
rc=$?
printf '\nAPMU-VM-EXIT rc=%s\n' "$rc"
# No poweroff: with pxa27x_init skipped, pxa_restart() hits BUG() (no watchdog); the
# runner stops QEMU once it has seen the line above.
while :; do sleep 60; done
INIT
chmod +x "$stage/init"
(cd "$stage" && find . | cpio -o -H newc --quiet) | gzip -1 >"$work/initramfs.cpio.gz"

# initcall_blacklist=pxa27x_init: on linux-source 6.12 the legacy PXA27x boot oopses before
# the console is up: pxa27x_init() and software_node_init() are both postcore initcalls,
# arch/ links first, so software_node_register() runs before the swnode kset exists (NULL
# dereference in software_node_to_swnode). Skipping it keeps the board's UARTs, timer and
# interrupt controller (set up by the board file and machine_desc) but drops the devices
# it would register: GPIO, DMA, RTC, watchdog, power management and "xscale-pmu", the
# platform device the in-tree armv5_xscale2 driver binds to. A test that wants that
# driver registers the device itself (name "xscale-pmu", IRQ 28 = PXA_IRQ(12)).
cmdline="console=ttyS0,115200 loglevel=5 panic=-1 rdinit=/init initcall_blacklist=pxa27x_init $append"
log=${log:-$work/console.log}
: >"$log"

# -kernel takes the zImage; QEMU passes ATAGS and the board's machine number, which the
# kernel's legacy spitz board file (arch/arm/mach-pxa/spitz.c) matches.
timeout --foreground -k 5 "$timeout" qemu-system-arm \
	-M "$machine" -display none -monitor none -serial stdio -no-reboot \
	-kernel "$kdir/arch/arm/boot/zImage" -initrd "$work/initramfs.cpio.gz" \
	-append "$cmdline" </dev/null >"$log" 2>&1 &
qpid=$!
if [ $quiet = 0 ]; then
	tail -n +1 -f --pid=$qpid "$log" | tr -d '\r' &
fi
# The PXA boards have no power-off device QEMU acts on: stop QEMU once the marker is out.
while kill -0 "$qpid" 2>/dev/null; do
	if grep -q '^APMU-VM-EXIT rc=' <(tr -d '\r' <"$log"); then
		sleep 1
		kill "$qpid" 2>/dev/null || true
		break
	fi
	sleep 0.5
done
wait "$qpid" 2>/dev/null || true
qpid=""
wait || true

rc=$(tr -d '\r' <"$log" | sed -n 's/^APMU-VM-EXIT rc=\([0-9]*\)$/\1/p' | tail -n 1)
if [ -z "$rc" ]; then
	[ $quiet = 1 ] || echo "xscale-run: the VM did not finish (timeout ${timeout}s)" >&2
	exit 124
fi
exit "$rc"
