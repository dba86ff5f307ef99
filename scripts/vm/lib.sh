# SPDX-License-Identifier: GPL-2.0
# Helpers for scripts run inside the test VM; vm-run installs this as /apmu/vmlib.sh.

# TAP sections, numbered for us (scripts/ktap.sh, installed as /apmu/ktap.sh)
. /apmu/ktap.sh

# ksft PROGRAM [ARGS...]: run one apmu kselftest program the way kernel CI does, through
# the kernel's installed runner: run_kselftest.sh -t apmu:PROGRAM, which applies the
# `settings` timeout and prints the program's TAP nested under its own ("# " lines). ARGS
# (kselftest_harness selections such as -F apmu32) reach the program through the runner's
# KSELFTEST_<PROGRAM>_ARGS. run_kselftest.sh exits 0 whatever the results: the status
# returned here is 1 when the runner reported the program "not ok".
ksft() {
	_ksft_p=$1
	shift
	(cd /apmu/kselftest_install &&
		env "KSELFTEST_$(echo "$_ksft_p" | tr a-z A-Z)_ARGS=$*" \
			./run_kselftest.sh -t "apmu:$_ksft_p") | tee /tmp/ksft.out
	grep -q '^ok ' /tmp/ksft.out && ! grep -q '^not ok ' /tmp/ksft.out
}

# ---------------------------------------------------------------------------------------
# The test sections both lanes run: scripts/vm/check-in-vm.sh on the test kernel and
# scripts/vm/distro-in-vm.sh on Debian's own kernels call these same functions, so the
# lanes cannot drift apart. Each takes the section-name prefix first: "" on the test
# kernel (sections "perf", "sampling", ...), "distro-<series>:" on a Debian kernel
# ("distro-6.1:perf", ...), where every section names the kernel release first. What a
# kernel cannot run is a SKIP with the reason, decided here in one place. Like the rest of
# these busybox sh scripts, the functions keep their state in plain global variables
# (rc, n, p, pmu, ...): a caller keeps its own in other names (the prefix in "pfx").

# apmu_pmu_name: the first apmu PMU in sysfs (apmu_armv8_pmuv3 in the VM)
apmu_pmu_name() { (cd /sys/bus/event_source/devices && ls -d apmu_* 2>/dev/null | head -n 1); }

# Loading apmu as `modprobe apmu` does: apmu.ko, then the unit modules (its softdep),
# apmu_amu.ko and apmu_pcs.ko, where they were built (arm64: the 32-bit Arm and XScale
# lanes have none). apmu_pcs.ko imports apmu.ko's sample delivery, so it loads after
# apmu.ko and unloads before it.
# apmu_load [PARAM...]: apmu.ko with PARAMs (long_counters=0, ...), then the units
apmu_load() { insmod /apmu/apmu.ko "$@" && apmu_load_units; }
# apmu_load_units [PCS_PARAM...]: apmu_amu.ko, then apmu_pcs.ko with PCS_PARAMs (pcs=...)
apmu_load_units() {
	[ ! -f /apmu/apmu_amu.ko ] || insmod /apmu/apmu_amu.ko || return 1
	[ ! -f /apmu/apmu_pcs.ko ] || insmod /apmu/apmu_pcs.ko "$@"
}
# apmu_unload_units: rmmod the unit modules that are loaded; apmu_unload: then apmu.ko
apmu_unload_units() {
	_unit_rc=0
	for _unit in apmu_pcs apmu_amu; do
		if grep -q "^$_unit " /proc/modules; then rmmod $_unit || _unit_rc=1; fi
	done
	return $_unit_rc
}
apmu_unload() { apmu_unload_units && rmmod apmu; }
# apmu_loaded MODULE: MODULE is loaded
apmu_loaded() { grep -q "^$1 " /proc/modules; }

# sec PREFIX NAME / sec_end PREFIX NAME RC: a section (ktap_section: the kselftest runner
# or KUnit prints its results), with the kernel release when there is a prefix;
# tsec PREFIX NAME: one whose results are printed here (ktap_begin); tsec_end [RC]
sec() {
	ktap_section "$1$2"
	[ -z "$1" ] || echo "# kernel: $(uname -r)"
}
sec_end() { ktap_section_end "$3"; }
tsec() {
	ktap_begin "$1$2"
	[ -z "$1" ] || echo "# kernel: $(uname -r)"
}
tsec_end() { ktap_end "$@"; }

# the sample rate limit, which perf lowers after slow overflow handlers (lock debugging
# under QEMU makes them slow): sections that sample put it back as they found it
rate_save() { _saved_rate=$(cat /proc/sys/kernel/perf_event_max_sample_rate); }
rate_restore() { echo "$_saved_rate" > /proc/sys/kernel/perf_event_max_sample_rate; }

# KernelCI's form, once: the whole collection with its default arguments, as
# `run_kselftest.sh -c apmu` after `modprobe apmu` (plain parameters). Every program
# must be ok or SKIP (what needs other parameters, a model or two PMUs skips with the
# reason). apmu.ko loaded on entry and on return.
sec_ksft_collection() {
	sec "$1" kselftest:collection
	rate_save
	(cd /apmu/kselftest_install && ./run_kselftest.sh -c apmu) | tee /tmp/ksft.out
	_rc=0
	grep -q '^ok ' /tmp/ksft.out && ! grep -q '^not ok ' /tmp/ksft.out || _rc=1
	rate_restore
	sec_end "$1" kselftest:collection $_rc
}

# The kselftests on 64-bit counters (apmu32, rdpmc32, nosample and noirq need other
# module parameters: sec_ksft_32bit, sec_nosample, sec_noirq). apmu.ko loaded.
# ksft_pm PROGRAM [ARGS...]: ksft with the test-only CPU PM trigger loaded
# (tests/cpu_pm_trigger.c, /sys/kernel/debug/apmu_cpu_pm/cycle) where it was built (the
# test kernel; a Debian kernel's run has only apmu.ko): apmu_pmu's cpu_pm_* tests skip
# without it. Fails when the module loaded but did not unload.
ksft_pm() {
	_pm=0
	[ -f ./apmu_cpu_pm_test.ko ] && insmod ./apmu_cpu_pm_test.ko && _pm=1
	ksft "$@"
	_pm_rc=$?
	[ $_pm = 0 ] || rmmod apmu_cpu_pm_test || _pm_rc=1
	return $_pm_rc
}

sec_ksft_64bit() {
	sec "$1" kselftest:apmu_pmu
	ksft_pm apmu_pmu -F apmu32 -F nosample -F noirq
	sec_end "$1" kselftest:apmu_pmu $?
	sec "$1" kselftest:apmu_rdpmc
	ksft apmu_rdpmc -F rdpmc32
	sec_end "$1" kselftest:apmu_rdpmc $?
	sec "$1" kselftest:apmu_sampling
	ksft apmu_sampling
	sec_end "$1" kselftest:apmu_sampling $?
}

# make bench's program, once in its quick mode, so it cannot rot: it must run and exit 0
# (every event opened, on the counters the whole time, samples delivered). Its figures
# are printed, not judged (few rounds; make bench measures, on the bench kernel).
# apmu.ko loaded.
sec_bench_quick() {
	tsec "$1" bench:quick
	rate_save
	if ./apmu_bench -q >/tmp/bench.out 2>&1; then
		ktap_pass "apmu_bench -q runs (figures not judged: make bench measures)"
	else
		ktap_fail "apmu_bench -q runs (figures not judged: make bench measures)"
	fi
	sed 's/^/# /' /tmp/bench.out
	rate_restore
	tsec_end
}

# Debian's perf on apmu: user instructions of a known loop, exactly. apmu.ko loaded.
# QEMU counts an interrupt handler that interrupted EL0 as EL0 instructions: a timer tick
# inside the window adds to a user count. Ticks only add, so the smallest of five runs
# is the exact count (see apmu_util.h).
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
# Iteration counts with the same number of digits, so the workload's printf costs the same.
check_exact() { # EVENT: 200000 more iterations are exactly 400000 more user instructions
	a=$(ustat "$1" 100000) && b=$(ustat "$1" 300000) && echo "$1: $a, $b" &&
		[ $((b - a)) -eq 400000 ]
}
sec_perf() {
	pmu=$(apmu_pmu_name)
	tsec "$1" perf
	ktap_test "perf stat -e instructions:u counts the loop exactly" check_exact instructions:u
	ktap_test "perf stat -e $pmu/inst_retired/u counts the loop exactly" \
		check_exact "$pmu/inst_retired/u"
	ktap_test "perf stat -e cycles,instructions,branches runs; branches unsupported like in-tree" \
		sh -c 'perf stat -x, -e cycles,instructions,branches -o /tmp/ps3.txt -- ./apmu_workload 1000 &&
			cat /tmp/ps3.txt && grep -q "^[0-9][0-9]*,,cycles" /tmp/ps3.txt &&
			grep -q "^[0-9][0-9]*,,instructions" /tmp/ps3.txt &&
			grep -q "not supported.*,branches" /tmp/ps3.txt'
	ktap_test "perf list shows apmu's events" sh -c "perf list pmu | grep -q '$pmu/inst_retired/'"
	tsec_end
}

# The KUnit suites (the options they need: drivers/perf/apmu/tests/.kunitconfig): loading
# apmu_kunit.ko runs them; debugfs keeps each suite's KTAP. Joined here into one KTAP
# document, suites numbered 1..n, which scripts/check.sh also hands to the kernel's
# kunit.py parse. apmu.ko and its units loaded on entry and on return (the suites of the
# units use apmu_amu.ko's and apmu_pcs.ko's symbols).
# kunit_ktap [N0]: the KTAP of every apmu_* suite debugfs keeps, joined into one document
# (the suites renumbered 1..n, as kunit.py parse wants them). Where debugfs keeps only
# the suites' summaries (Linux 7.2 keeps no case lines there, measured), the kernel log
# from line N0 on (the lines before insmod) instead: its KTAP lines, without the
# timestamps and the driver's own messages (KTAP lines are indented or start with
# "KTAP", "1..", "ok", "not ok" or "#").
kunit_ktap() {
	if [ -n "${1:-}" ] && ! cat /sys/kernel/debug/kunit/apmu_*/results 2>/dev/null |
	   grep -qE '^        (not )?ok [0-9]'; then
		dmesg | tail -n +"$(($1 + 1))" | sed 's/^\[[ 0-9.]*\] //' |
			grep -E '^( |KTAP|1\.\.|ok |not ok |#)'
		return
	fi
	echo "KTAP version 1"
	n=0
	for d in /sys/kernel/debug/kunit/apmu_*; do
		[ -f "$d/results" ] && n=$((n + 1))
	done
	echo "1..$n"
	i=0
	for d in /sys/kernel/debug/kunit/apmu_*; do
		[ -f "$d/results" ] || continue
		i=$((i + 1))
		sed -n "/^KTAP version/d; /^1\.\.1\$/d; s/^ok 1 /ok $i /; s/^not ok 1 /not ok $i /; p" \
			"$d/results"
	done
}
sec_kunit() {
	sec "$1" kunit:apmu_kunit
	_n0=$(dmesg | wc -l)
	if insmod ./apmu_kunit.ko; then
		kunit_ktap "$_n0"
		rmmod apmu_kunit
		sec_end "$1" kunit:apmu_kunit 0
	else
		sec_end "$1" kunit:apmu_kunit 1
	fi
}

# Module lifecycle. apmu.ko and its units loaded on entry, everything unloaded on return.
# The unit modules (arm64): apmu_pcs holds apmu.ko (it imports its sample delivery,
# namespace APMU), apmu_amu holds nothing; each loads and unloads on its own, and an open
# event pins the module of its PMU.
lc_held_by_pcs() {
	cat /sys/module/apmu/refcnt; ls /sys/module/apmu/holders
	! rmmod apmu && apmu_loaded apmu && test -e /sys/module/apmu/holders/apmu_pcs
}
lc_units_unload() { apmu_unload_units && apmu_loaded apmu && ! apmu_loaded apmu_amu && ! apmu_loaded apmu_pcs; }
lc_amu_alone() { insmod ./apmu_amu.ko && ! apmu_loaded apmu && rmmod apmu_amu; }
lc_pcs_needs_apmu() { # modprobe pulls apmu in for it (depends=apmu); insmod alone refuses
	tr '\0' '\n' <./apmu_pcs.ko | grep -x -e 'depends=apmu' -e 'import_ns=APMU' | sort |
		tr '\n' ' ' | grep -qx 'depends=apmu import_ns=APMU ' || return 1
	! insmod ./apmu_pcs.ko && ! apmu_loaded apmu_pcs &&
		dmesg | tail -n 5 | grep 'apmu_pcs: Unknown symbol apmu_'
}
lc_pcs_alone() {
	insmod ./apmu.ko && insmod ./apmu_pcs.ko && ! apmu_loaded apmu_amu &&
		rmmod apmu_pcs && rmmod apmu
}
# lc_event_pins UNIT FAKE EVENT PERF_ARGS...: with the test-only FAKE unit module over a
# register model (the VM has neither an AMU nor PC-sample frames), a perf event open on
# UNIT's PMU: rmmod of UNIT and of FAKE refused, both still loaded and the event counted
lc_event_pins() {
	_u=$1 _f=$2 _e=$3
	shift 3
	insmod ./$_u.ko && insmod ./$_f.ko || return 1
	perf "$@" -e "$_e" -o /tmp/pin.data -- sleep 3 >/dev/null 2>&1 &
	_pin=$!
	sleep 1
	_pin_rc=0
	! rmmod $_u && ! rmmod $_f && apmu_loaded $_u && apmu_loaded $_f || _pin_rc=1
	wait $_pin || _pin_rc=1
	rmmod $_f && rmmod $_u || _pin_rc=1
	return $_pin_rc
}
lc_reload() {
	apmu_load && test -n "$(ls -d /sys/bus/event_source/devices/apmu_* 2>/dev/null)" &&
		apmu_unload && ! grep '^apmu' /proc/modules
}
lc_pcs_event_pins() {
	insmod ./apmu.ko || return 1
	lc_event_pins apmu_pcs apmu_pcs_test apmu_pcs// record -C 1
	_pcs_rc=$?
	rmmod apmu || _pcs_rc=1
	return $_pcs_rc
}
sec_lifecycle() {
	pmu=$(apmu_pmu_name)
	tsec "$1" lifecycle
	ktap_test "apmu PMU registered with type and cpus" \
		sh -c "test -n '$pmu' && test -s /sys/bus/event_source/devices/$pmu/type &&
			test -s /sys/bus/event_source/devices/$pmu/cpus"
	_units=0
	[ -f ./apmu_amu.ko ] && [ -f ./apmu_pcs.ko ] && _units=1
	if [ $_units = 1 ]; then
		ktap_test "rmmod apmu refused while apmu_pcs (its holder) is loaded" lc_held_by_pcs
		ktap_test "the unit modules unload, apmu stays" lc_units_unload
	fi
	# An open event pins the module: rmmod must refuse, and counting goes on.
	perf stat -e cycles -o /tmp/held.txt -- sleep 3 &
	held=$!
	sleep 1
	ktap_test "rmmod refused while an event is open" sh -c '! rmmod apmu'
	wait $held
	ktap_test "event held across the refused rmmod still counted" \
		sh -c 'grep -E "[0-9,]+ +cycles" /tmp/held.txt && ! grep -q "not counted\|not supported" /tmp/held.txt'
	ktap_test "rmmod apmu when idle, PMU gone from sysfs" \
		sh -c 'rmmod apmu && test -z "$(ls -d /sys/bus/event_source/devices/apmu_* 2>/dev/null)"'
	if [ $_units = 1 ]; then
		ktap_test "apmu_amu loads and unloads alone (it needs nothing of apmu.ko)" lc_amu_alone
		ktap_test "apmu_pcs depends on apmu (import_ns=APMU): refused without it" \
			lc_pcs_needs_apmu
		ktap_test "apmu_pcs loads and unloads over apmu alone (no apmu_amu)" lc_pcs_alone
		if [ -f ./apmu_amu_test.ko ] && [ -f ./apmu_pcs_test.ko ]; then
			ktap_test "an open apmu_amu event: rmmod apmu_amu (and its fake unit) refused" \
				lc_event_pins apmu_amu apmu_amu_test apmu_amu/core_cycles/ stat -a
			rate_save
			ktap_test "an open apmu_pcs event: rmmod apmu_pcs (and its fake unit) refused" \
				lc_pcs_event_pins
			rate_restore
		fi
	fi
	ktap_test "reload and unload again" lc_reload
	tsec_end
}

# The kselftests again on 32-bit event counters extended through the overflow interrupt,
# with the wrap tests (apmu32, rdpmc32): several 2^31-event overflows each, by real work.
# apmu.ko unloaded on entry and on return.
sec_ksft_32bit() {
	if apmu_load long_counters=0; then
		sec "$1" kselftest:apmu_pmu:32bit
		ksft_pm apmu_pmu -F nosample -F noirq
		sec_end "$1" kselftest:apmu_pmu:32bit $?
		for t in apmu_rdpmc apmu_sampling; do
			sec "$1" "kselftest:$t:32bit"
			ksft $t
			sec_end "$1" "kselftest:$t:32bit" $?
		done
		apmu_unload
	else
		sec "$1" kselftest:apmu_pmu:32bit
		ktap_fail "insmod apmu.ko long_counters=0"
		sec_end "$1" kselftest:apmu_pmu:32bit 1
	fi
}

# The counting-only fallback, forced: sampling refused, counting exact, one notice.
# apmu.ko unloaded on entry and on return.
sec_nosample() {
	sec "$1" kselftest:apmu_pmu:nosample
	if apmu_load sampling=0; then
		ksft apmu_pmu -f nosample
		rc=$?
		n=$(dmesg | grep -c "apmu: sampling=0: counting only")
		[ "$n" = 1 ] || { echo "# the fallback notice appeared $n times"; rc=1; }
		apmu_unload || rc=1
	else
		ktap_fail "insmod apmu.ko sampling=0"
		rc=1
	fi
	sec_end "$1" kselftest:apmu_pmu:nosample $rc
}

# A PMU without an overflow interrupt, forced (QEMU's node has one, PPI 7): 32-bit event
# counters (long_counters=0) kept exact across several 2^32 wraps by apmu's per-CPU fold
# timer (apmu32), sampling refused with EOPNOTSUPP (nosample, noirq), no apmu line in
# /proc/interrupts (noirq), and the notice said once. apmu.ko unloaded on entry and on
# return.
sec_noirq() {
	sec "$1" kselftest:apmu_pmu:noirq
	if apmu_load long_counters=0 overflow_irq=0; then
		ksft apmu_pmu -f apmu32 -f nosample -f noirq
		rc=$?
		n=$(dmesg | grep -c "no overflow interrupt: counting only")
		[ "$n" = 1 ] || { echo "# the no-interrupt notice appeared $n times"; rc=1; }
		if grep apmu /proc/interrupts; then
			echo "# an apmu interrupt is requested"
			rc=1
		fi
		apmu_unload || rc=1
	else
		ktap_fail "insmod apmu.ko long_counters=0 overflow_irq=0"
		rc=1
	fi
	sec_end "$1" kselftest:apmu_pmu:noirq $rc
}

# model_skip MODULE SUITE: the test-only module over a register model is missing. It is
# built with the KUnit suites (Kbuild: it uses symbols the units export only there),
# so only for a kernel with CONFIG_KUNIT: there its absence is a failure, elsewhere a
# SKIP with that reason. One result; returns 1 on failure.
model_skip() {
	if [ -d /sys/kernel/debug/kunit ]; then
		ktap_fail "$2 over the register model: this kernel has KUnit, but no $1"
		return 1
	fi
	ktap_skip "$2 over the register model" "$1 is built only for a kernel with CONFIG_KUNIT (it uses symbols the units export only there), which this kernel's config lacks: the model half runs on the test kernel"
}

# The AMU unit end to end. The plain VM first (QEMU has no AMU: no amu/, no apmu_amu PMU;
# and what perf shows, kept), then everything else over the register model, through
# apmu_amu_test.ko: the real cpuN/amu files and the apmu_amu PMU of apmu_amu.ko. apmu.ko
# unloaded on entry and on return.
sec_amu() {
	sec "$1" kselftest:apmu_amu
	step="insmod apmu.ko and its units"
	# perf_view_unchanged, without the model, keeps perf's view as the baseline that the
	# same test compares with once apmu_amu_test.ko is loaded
	if apmu_load && step="apmu_amu -t no_amu_without_model (plain VM)" &&
	   ksft apmu_amu -t no_amu_without_model -t perf_view_unchanged; then
		rc=0
		if [ -f ./apmu_amu_test.ko ]; then
			if insmod ./apmu_amu_test.ko; then
				ksft apmu_amu -T no_amu_without_model || rc=1
				rmmod apmu_amu_test || rc=1
			else
				ktap_fail "insmod apmu_amu_test.ko"
				rc=1
			fi
		else
			model_skip apmu_amu_test.ko apmu_amu || rc=1
		fi
		apmu_unload || rc=1
	else
		ktap_fail "$step failed"
		rc=1
		# later sections load apmu themselves
		apmu_unload_units
		if apmu_loaded apmu; then rmmod apmu || true; fi
	fi
	sec_end "$1" kselftest:apmu_amu $rc
}

# PC sampling (FEAT_PCSRv8p9). First the plain VM, which has no external PMU frames: apmu_pcs
# loads with bogus pcs= frames - System RAM, the PL011 (another driver's region), the
# flash (not a PMU), an address no device tree node describes (reading it would abort),
# the fw_cfg page (described only in part) - refuses each with one message, and shows no
# pcsample/. Then apmu_pcs_test.ko puts units over the frame model on CPUs 0 and 1: the
# real sysfs files (values, errnos, permissions as root and as nobody) and
# `perf record -e apmu_pcs// -C 1` + `perf report` showing the model's PCs.
# apmu.ko unloaded on entry and on return.
sec_pcs() {
	sec "$1" kselftest:apmu_pcs
	rc=0
	rate_save
	if insmod ./apmu.ko &&
	   apmu_load_units pcs=1:0x40000000,1:0x9000000,0:0x0,1:0x9100000,1:0x9020000; then
		ksft apmu_pcs -t plain_vm_bogus_frames_refused || rc=1
		if [ ! -f ./apmu_pcs_test.ko ]; then
			model_skip apmu_pcs_test.ko apmu_pcs || rc=1
		elif insmod ./apmu_pcs_test.ko; then
			ksft apmu_pcs -T plain_vm_bogus_frames_refused || rc=1
			rmmod apmu_pcs_test || rc=1
		else
			ktap_fail "insmod apmu_pcs_test.ko"
			rc=1
		fi
		apmu_unload || rc=1
	else
		ktap_fail "insmod apmu.ko, apmu_amu.ko and apmu_pcs.ko pcs=..."
		rc=1
		apmu_unload_units
		if apmu_loaded apmu; then rmmod apmu || true; fi
	fi
	rate_restore
	sec_end "$1" kselftest:apmu_pcs $rc
}

# perf record on apmu: profiles, callchains, throttling, long runs. Last of the sections
# that sample, because perf lowers kernel.perf_event_max_sample_rate after slow handlers;
# the rate is put back before the checks that need it. apmu.ko unloaded on entry and on
# return.
hot_pct() { # hot_pct PERF_RECORD_ARGS...: percentage of samples in hot_loop
	perf record -o /tmp/rec.data "$@" -- ./apmu_workload 30000000 >/dev/null 2>&1 || return 1
	perf report -i /tmp/rec.data --stdio --sort sym 2>/dev/null | tee /tmp/rep.txt |
		sed -n 's/^ *\([0-9][0-9]*\)\.[0-9]*%.*hot_loop$/\1/p' | head -n 1
}
hot90() { # hot90 PERF_RECORD_ARGS...: hot_loop has at least 90% of the samples
	p=$(hot_pct "$@")
	grep -v '^#' /tmp/rep.txt | grep -v '^$' | head -n 4
	[ -n "$p" ] && [ "$p" -ge 90 ]
}
# (--no-inline: perf 7.2 looks for inlined callers with binutils' addr2line, which the VM
# has not, and dies of SIGPIPE writing to it; perf 6.1 does not look by default)
callchain() {
	perf record -g -e cycles -o /tmp/cg.data -- ./apmu_workload 30000000 >/dev/null 2>&1 &&
		perf report -i /tmp/cg.data --stdio --no-children --no-inline --sort sym 2>/dev/null \
			>/tmp/cg.txt &&
		head -n 30 /tmp/cg.txt &&
		grep -A8 '%.*hot_loop$' /tmp/cg.txt | grep -q 'main'
}
evcnt() { # event counters sample too (QEMU raises their overflow late)
	perf record -e "$pmu/inst_retired/" -c 1000000 -o /tmp/ev.data -- ./apmu_workload 30000000 \
		>/dev/null 2>&1 &&
		n=$(perf report -i /tmp/ev.data --stats 2>/dev/null | sed -n 's/.*SAMPLE events: *\([0-9]*\).*/\1/p' | head -n 1) &&
		echo "samples: $n" && [ "$n" -ge 1 ]
}
irqs() { grep apmu /proc/interrupts | awk '{ s = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) s += $i; print s }' | head -n 1; }
stress() { # 5000-cycle periods on both CPUs: perf must throttle, and stop cleanly
	timeout 300 perf record -a -c 5000 -e cycles -o /tmp/st.data -- sh -c \
		'taskset 1 ./apmu_workload 20000000 & taskset 2 ./apmu_workload 20000000 & wait' \
		>/dev/null 2>&1 || return 1
	perf report -i /tmp/st.data --stats 2>/dev/null | grep -E 'THROTTLE|SAMPLE' | tee /tmp/st.txt
	a=$(irqs); sleep 1; b=$(irqs)
	echo "apmu interrupts $a, a second later $b"
	grep -q ' THROTTLE events: *[1-9]' /tmp/st.txt && [ -n "$a" ] && [ "$a" = "$b" ] &&
		timeout 10 sh -c 'echo responsive'
}
long() { # 30 s of sampling on both CPUs
	timeout 120 perf record -a -F 4000 -e cycles -o /tmp/long.data -- sleep 30 >/dev/null 2>&1 &&
		perf report -i /tmp/long.data --stdio --sort cpu 2>/dev/null | grep -v '^#' | grep -v '^$' |
		tee /tmp/long.txt && [ "$(grep -c '%' /tmp/long.txt)" = 2 ]
}
sec_sampling() {
	apmu_load
	pmu=$(apmu_pmu_name)
	tsec "$1" sampling
	rate_save
	ktap_test "perf record -e cycles: hot_loop >= 90%" hot90 -e cycles
	ktap_test "perf record -e $pmu/cpu_cycles/: hot_loop >= 90%" hot90 -e "$pmu/cpu_cycles/"
	ktap_test "perf record -F 4000 -e cycles: hot_loop >= 90%" hot90 -F 4000 -e cycles
	ktap_test "perf record -g: hot_loop on top, called from main" callchain
	ktap_test "perf record on an event counter delivers samples" evcnt
	ktap_test "period stress on both CPUs: throttles, no storm, system responsive" stress
	ktap_test "30 s of sampling on both CPUs, samples from each" long
	# The stress left perf's running handler-time average high, which would throttle the
	# next run: lift the CPU-time limit for this check only (ktap_test tested it), then
	# restore. (The rate can only be written while the limit is on.)
	pct=$(cat /proc/sys/kernel/perf_cpu_time_max_percent)
	rate_restore
	echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent
	ktap_test "sampling after the stress still matches the period" \
		./apmu_sampling -t fixed_period_on_cycle_counter
	echo "$pct" > /proc/sys/kernel/perf_cpu_time_max_percent
	rate_restore
	tsec_end
	apmu_unload
}

# The sections after KUnit, in the order both lanes run them (apmu.ko loaded on entry,
# unloaded on return). perf record (sec_sampling) last, because perf lowers
# kernel.perf_event_max_sample_rate after slow handlers (lockdep makes ours slow under
# QEMU).
sec_after_kunit() {
	sec_lifecycle "$1"
	sec_ksft_32bit "$1"
	sec_nosample "$1"
	sec_noirq "$1"
	sec_amu "$1"
	sec_pcs "$1"
	sec_sampling "$1"
}
