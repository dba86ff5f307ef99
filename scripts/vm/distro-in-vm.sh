# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the VM booted on one of Debian 12's own arm64 kernels (scripts/distro/check.sh:
# vm-run --kernel <Debian Image> --module <apmu.ko built against its headers>), apmu.ko
# already loaded by vm-run. The same tests as on the test kernel, in sections named
# distro-<series>:<suite>; each section prints the kernel release first. What Debian's
# config does not allow is a SKIP with the reason.

. /apmu/vmlib.sh
rel=$(uname -r)
series=distro-$(echo "$rel" | cut -d. -f1,2)
pmu=$(cd /sys/bus/event_source/devices && ls -d apmu_* 2>/dev/null | head -n 1)

begin() { # begin SUITE: open the section and name the kernel
	section "$series:$1"
	echo "# kernel: $rel"
}

# 1. The module as Debian's kernel took it: loaded, tainted (unsigned, out of tree), not refused
begin lifecycle
echo "TAP version 13"
echo "1..7"
tap 1 "uname -r is a Debian kernel ($rel)" sh -c 'uname -v; uname -v | grep -q Debian'
taint() { # unsigned modules taint (E, 8192) and out-of-tree ones too (O, 4096)
	t=$(cat /proc/sys/kernel/tainted)
	echo "tainted=$t"
	dmesg | grep -E 'apmu: (module verification failed|loading out-of-tree)'
	[ $((t & 8192)) -ne 0 ] && [ $((t & 4096)) -ne 0 ] && grep -q '^apmu ' /proc/modules
}
tap 2 "unsigned apmu.ko loaded: kernel tainted E and O, not refused" taint
tap 3 "apmu PMU registered with type and cpus" \
	sh -c "test -n '$pmu' && test -s /sys/bus/event_source/devices/$pmu/type &&
		test -s /sys/bus/event_source/devices/$pmu/cpus"
perf stat -e cycles -o /tmp/held.txt -- sleep 3 &
held=$!
sleep 1
tap 4 "rmmod refused while an event is open" sh -c '! rmmod apmu'
wait $held
tap 5 "event held across the refused rmmod still counted" \
	sh -c 'grep -E "[0-9,]+ +cycles" /tmp/held.txt && ! grep -q "not counted\|not supported" /tmp/held.txt'
tap 6 "rmmod apmu when idle, PMU gone from sysfs" \
	sh -c 'rmmod apmu && test -z "$(ls -d /sys/bus/event_source/devices/apmu_* 2>/dev/null)"'
tap 7 "reload" sh -c 'insmod ./apmu.ko && test -n "$(ls -d /sys/bus/event_source/devices/apmu_* 2>/dev/null)"'
section_end "$series:lifecycle" 0

# 2. kselftests, 64-bit counters
begin kselftest:apmu_pmu
ksft apmu_pmu -F apmu32 -F nosample -F noirq
section_end "$series:kselftest:apmu_pmu" $?
begin kselftest:apmu_rdpmc
ksft apmu_rdpmc -F rdpmc32
section_end "$series:kselftest:apmu_rdpmc" $?
begin kselftest:apmu_sampling
ksft apmu_sampling
section_end "$series:kselftest:apmu_sampling" $?

# 3. Debian's perf: user instructions of a known loop, exactly (see check-in-vm.sh)
begin perf
echo "TAP version 13"
echo "1..4"
ustat() { # ustat EVENT ITERATIONS: the smallest count perf stat reports in 5 runs
	best=""
	for i in 1 2 3 4 5; do
		perf stat -x, -e "$1" -o /tmp/ps.txt -- ./apmu_workload "$2" >/dev/null 2>&1 || return 1
		v=$(sed -n 's/^\([0-9][0-9]*\),.*/\1/p' /tmp/ps.txt | head -n 1)
		[ -n "$v" ] || return 1
		if [ -z "$best" ] || [ "$v" -lt "$best" ]; then best=$v; fi
	done
	echo "$best"
}
check_exact() { # EVENT: 200000 more iterations are exactly 400000 more user instructions
	a=$(ustat "$1" 100000) && b=$(ustat "$1" 300000) && echo "$1: $a, $b" &&
		[ $((b - a)) -eq 400000 ]
}
tap 1 "perf stat -e instructions:u counts the loop exactly" check_exact instructions:u
tap 2 "perf stat -e $pmu/inst_retired/u counts the loop exactly" check_exact "$pmu/inst_retired/u"
tap 3 "perf stat -e cycles,instructions counts" \
	sh -c 'perf stat -x, -e cycles,instructions -o /tmp/ps3.txt -- ./apmu_workload 1000 &&
		cat /tmp/ps3.txt && grep -q "^[0-9][0-9]*,,cycles" /tmp/ps3.txt &&
		grep -q "^[0-9][0-9]*,,instructions" /tmp/ps3.txt'
tap 4 "perf list shows apmu's events" sh -c "perf list pmu | grep -q '$pmu/inst_retired/'"
section_end "$series:perf" 0

# 4. KUnit: the suites are a module that needs CONFIG_KUNIT
begin kunit:apmu_kunit
echo "TAP version 13"
echo "1..1"
if [ -d /sys/kernel/debug/kunit ]; then
	echo "not ok 1 this kernel has KUnit: run apmu_kunit.ko here too"
else
	echo "ok 1 apmu_kunit # SKIP CONFIG_KUNIT is not set in Debian's kernel config: the KUnit suites run on the test kernel only"
fi
section_end "$series:kunit:apmu_kunit" 0

# 5. kselftests again on 32-bit event counters, then the counting-only fallback
rmmod apmu
if insmod ./apmu.ko long_counters=0; then
	begin kselftest:apmu_pmu:32bit
	ksft apmu_pmu -F nosample -F noirq
	section_end "$series:kselftest:apmu_pmu:32bit" $?
	for t in apmu_rdpmc apmu_sampling; do
		begin "kselftest:$t:32bit"
		ksft $t
		section_end "$series:kselftest:$t:32bit" $?
	done
	rmmod apmu
else
	begin kselftest:apmu_pmu:32bit
	echo "1..1"
	echo "not ok 1 insmod apmu.ko long_counters=0"
	section_end "$series:kselftest:apmu_pmu:32bit" 1
fi
begin kselftest:apmu_pmu:nosample
if insmod ./apmu.ko sampling=0; then
	ksft apmu_pmu -f nosample
	rc=$?
	rmmod apmu || rc=1
else
	echo "1..1"
	echo "not ok 1 insmod apmu.ko sampling=0"
	rc=1
fi
section_end "$series:kselftest:apmu_pmu:nosample" $rc

# 6. perf record on apmu
insmod ./apmu.ko
begin sampling
echo "TAP version 13"
echo "1..3"
hot90() { # hot90 PERF_RECORD_ARGS...: hot_loop has at least 90% of the samples
	perf record -o /tmp/rec.data "$@" -- ./apmu_workload 30000000 >/dev/null 2>&1 || return 1
	p=$(perf report -i /tmp/rec.data --stdio --sort sym 2>/dev/null | tee /tmp/rep.txt |
		sed -n 's/^ *\([0-9][0-9]*\)\.[0-9]*%.*hot_loop$/\1/p' | head -n 1)
	grep -v '^#' /tmp/rep.txt | grep -v '^$' | head -n 4
	[ -n "$p" ] && [ "$p" -ge 90 ]
}
tap 1 "perf record -e cycles: hot_loop >= 90%" hot90 -e cycles
tap 2 "perf record -e $pmu/cpu_cycles/: hot_loop >= 90%" hot90 -e "$pmu/cpu_cycles/"
callchain() {
	perf record -g -e cycles -o /tmp/cg.data -- ./apmu_workload 30000000 >/dev/null 2>&1 &&
		perf report -i /tmp/cg.data --stdio --no-children --sort sym 2>/dev/null >/tmp/cg.txt &&
		head -n 30 /tmp/cg.txt &&
		grep -A8 '%.*hot_loop$' /tmp/cg.txt | grep -q 'main'
}
tap 3 "perf record -g: hot_loop on top, called from main" callchain
section_end "$series:sampling" 0
rmmod apmu

# 7. The README's board steps after the build, literally: the DKMS-installed module
# (dkms install on the host, its tree copied in as /apmu/lib), modprobe, the perf commands
begin readme
echo "TAP version 13"
echo "1..4"
modload() {
	mkdir -p /lib/modules && cp -a /apmu/lib/modules/"$rel" /lib/modules/ &&
		depmod "$rel" && modprobe apmu && grep '^apmu ' /proc/modules &&
		find /lib/modules/"$rel" -name 'apmu.ko*'
}
if [ -d /apmu/lib/modules/"$rel" ]; then
	tap 1 "modprobe apmu (installed by dkms install)" modload
else
	echo "not ok 1 modprobe apmu: no DKMS-installed module tree for $rel"
fi
tap 2 "perf list $pmu/" sh -c "perf list $pmu/ 2>&1 | tee /tmp/pl.txt | head -n 5; grep -q inst_retired /tmp/pl.txt"
stat_counts() { # stat_counts EVENTS NAME...: perf stat -e EVENTS counts each NAME
	perf stat -e "$1" -- ./apmu_workload 100000 >/tmp/readme.txt 2>&1 || return 1
	cat /tmp/readme.txt
	shift
	for e in "$@"; do
		grep -qE "^ *[0-9][0-9,.]* +$e( |\$)" /tmp/readme.txt || return 1
	done
}
tap 3 "perf stat -e cycles,instructions -- ./apmu_workload 100000" \
	stat_counts cycles,instructions cycles instructions
tap 4 "perf stat -e $pmu/inst_retired/u -- ./apmu_workload 100000" \
	stat_counts "$pmu/inst_retired/u" "$pmu/inst_retired/u"
section_end "$series:readme" 0
rmmod apmu

section dmesg
dmesg
section_end dmesg 0
exit 0
