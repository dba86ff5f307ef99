# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the VM on one of QEMU's named cores (vm-run --cpu cortex-a72 / neoverse-n1,
# with their real MIDRs, so that perf picks the core's own JSON events and metrics), with
# perf 7.2 (vm-run --perf 7.2), on whichever driver is loaded: apmu, or the in-tree one
# (vm-run --no-apmu). Sections, named after APMU_PFX ("a72:", "n1:"):
#
#   PFXkselftest:apmu_pmu, _rdpmc, _sampling (apmu, a72 only): the kselftests on the core's
#       own PMU: 32-bit event counters natively (no PMUv3p5 on either core: the wrap
#       tests run without long_counters=0)
#   PFXnamed:DRIVER (apmu or intree): what perf offers for the core, each with a verdict
#       line that scripts/named-compare.py sets beside the other driver's:
#       "# event NAME VERDICT" for every event perf lists on the core PMU (its JSON
#       events and the legacy ones; NAME without the PMU's name): supported (perf stat
#       counted it, or opened it and printed <not counted>), <not supported>, or
#       "error: TEXT";
#       "# metric WHAT: LINE" for each line of `perf stat -M WHAT` (every metric group)
#       and of the default `perf stat` (WHAT "default"): the event (PMU
#       name stripped), counted / <not supported> / <not counted>, the metric's name and
#       unit; not the values (QEMU's are not meaningful). An error is one line, "error:
#       TEXT";
#   PFXperftest:DRIVER: perf's own tests of a core PMU, by name (perf numbers them anew
#       in each version), as "# perftest N VERDICT NAME" (scripts/vm/perftest-in-vm.sh's
#       format, for scripts/perftest-compare.py); a failed test runs once more.
#
# The sections' own results say only that each part ran; the host compares the drivers.

. /apmu/vmlib.sh
pfx=${APMU_PFX:-}
export PAGER=cat
# what perf's tests expect of a system (as perftest-in-vm.sh)
mount -t tracefs nodev /sys/kernel/tracing
export PATH=/usr/libexec/gnu:$PATH
echo 1 >/proc/sys/kernel/perf_user_access

# the core PMU: the one with a cpus file (apmu_armv8_cortex_a72, armv8_cortex_a72, ...)
pmu=$(cd /sys/bus/event_source/devices && for d in *; do
	[ -f "$d/cpus" ] && [ -d "$d/format" ] && echo "$d"; done | head -n 1)
case "$pmu" in
apmu_*) drv=apmu ;;
*) drv=intree ;;
esac
pdir=/sys/bus/event_source/devices/$pmu
midr=$(cat /sys/devices/system/cpu/cpu0/regs/identification/midr_el1 2>/dev/null)
# about 30 ms of the VM's clock (-icount shift=0: 1 ns an instruction); a metric group
# multiplexes, perf rotating its events every 4 ms: 100 ms, so that each gets the counters
work="./apmu_workload 5000000"
longwork="./apmu_workload 15000000"

# ---------------------------------------------------------------------------------------
# The kselftests, apmu only. The core's PMU has no FEAT_PMUv3p5: apmu counts on 32-bit
# event counters extended through the overflow interrupt, as with long_counters=0 on
# -cpu max, so the apmu32 and rdpmc32 fixtures run (their wrap tests cross 2^32 by real
# work); nosample and noirq need apmu_knobs.ko (sec_nosample, sec_noirq).
# They run on cortex-a72 only (APMU_PFX a72:): neoverse-n1's 32-bit event counters are
# the same kind, and a cold make check has no minute to spare for them.
if [ $drv = apmu ] && [ "$pfx" != n1: ]; then
	sec "$pfx" kselftest:apmu_pmu
	ksft_pm apmu_pmu -F nosample -F noirq
	sec_end "$pfx" kselftest:apmu_pmu $?
	sec "$pfx" kselftest:apmu_rdpmc
	ksft apmu_rdpmc
	sec_end "$pfx" kselftest:apmu_rdpmc $?
	sec "$pfx" kselftest:apmu_sampling
	rate_save
	ksft apmu_sampling
	_rc=$?
	rate_restore
	sec_end "$pfx" kselftest:apmu_sampling $_rc
fi

# ---------------------------------------------------------------------------------------
# norm: perf's messages and event names without the PMU's name, which differs by
# driver (apmu_armv8_cortex_a72 / armv8_cortex_a72), on one line
norm() {
	sed "s|$pmu/\([^/]*\)/|\1|g; s|$pmu|PMU|g" | tr '\n' ' ' | tr -s ' ' | sed 's/^ //; s/ $//'
}

# events: every event perf lists on the core PMU (perf list -j: its "Unit" is the PMU)
events() {
	perf list -j 2>/dev/null | awk -v pmu="$pmu" '
		/^\{/ { u = ""; n = "" }
		/^\t"Unit": / { u = $0; sub(/^\t"Unit": "/, "", u); sub(/",?$/, "", u) }
		/^\t"EventName": / { n = $0; sub(/^\t"EventName": "/, "", n); sub(/",?$/, "", n) }
		/^\}/ { if (u == pmu && n != "") print n }' | sort -u
}

# verdicts FILE: perf stat -x, output -> "NAME|VERDICT" (NAME as perf printed it)
verdicts() {
	awk -F, '/^#/ || NF < 3 { next }
		{ v = ($1 ~ /^<not supported>/) ? "<not supported>" : "supported"; print $3 "|" v }' "$1"
}

# one event alone: its verdict, or perf's error text
event_alone() {
	if perf stat -x, -o /tmp/ev1.txt -e "$pmu/$1/" -- $work >/dev/null 2>/tmp/ev1.err; then
		v=$(verdicts /tmp/ev1.txt | head -n 1 | cut -d'|' -f2)
		echo "${v:-error: no count printed}"
	else
		echo "error: $(grep -v '^$' /tmp/ev1.err | head -n 3 | norm)"
	fi
}

sec_events() {
	events >/tmp/events.list
	nev=$(wc -l </tmp/events.list)
	: >/tmp/events.out
	# in batches of 6, the counters both cores have besides the cycle counter (no
	# multiplexing): one perf stat per batch; a batch perf refuses as a whole is redone
	# one event at a time, for each event's own verdict
	split -l 6 /tmp/events.list /tmp/evbatch.
	for b in /tmp/evbatch.*; do
		list=$(sed "s|.*|$pmu/&/|" "$b" | tr '\n' ',' | sed 's/,$//')
		perf stat -x, -o /tmp/evb.txt -e "$list" -- $work >/dev/null 2>/tmp/evb.err
		verdicts /tmp/evb.txt >/tmp/evb.res
		while read -r ev; do
			v=$(grep -F "$pmu/$ev/|" /tmp/evb.res | head -n 1 | cut -d'|' -f2)
			[ -n "$v" ] || v=$(event_alone "$ev")
			echo "# event $ev $v"
		done <"$b" >>/tmp/events.out
	done
	rm -f /tmp/evbatch.*
	cat /tmp/events.out
	nsup=$(grep -c ' supported$' /tmp/events.out)
	echo "# events: $nev listed on $pmu, $nsup counted"
	ktap_test "perf lists the core's events on $pmu, and each has a verdict" \
		sh -c "test $nev -gt 20 && test \$(wc -l </tmp/events.out) = $nev"
}

# metric WHAT WORKLOAD [ARGS...]: perf stat -x, ARGS -- WORKLOAD, its lines in shape
# (sorted: the order of a metric's events is perf's, the same on both drivers, but not
# worth failing on)
metric() {
	what=$1 w=$2
	shift 2
	if perf stat -x, -o /tmp/m.txt "$@" -- $w >/dev/null 2>/tmp/m.err; then
		awk -F, '/^#/ || NF < 7 { next }
			{ v = ($1 ~ /^</) ? $1 : "counted"; if ($1 == "") v = "-"
			  print v " " $3 " | " $7 }' /tmp/m.txt | norm_lines | sort |
			sed "s/^/# metric $what: /"
	else
		echo "# metric $what: error: $(grep -v '^$' /tmp/m.err | head -n 3 | norm)"
	fi
}
norm_lines() { sed "s|$pmu/\([^/]*\)/|\1|g; s|$pmu|PMU|g; s/  */ /g; s/ *$//"; }

sec_metrics() {
	metric default "$longwork"
	# by group: each of perf's metrics for these cores is in one (the core's own groups,
	# Default*, lpm_cycles), and a perf stat costs about 0.1 s of the VM's clock, most of
	# it perf parsing its metric tables; perf's own test runs each metric alone
	# ("perf all metrics test", below)
	for g in $(perf list --raw-dump metricgroup 2>/dev/null); do
		metric "group $g" "$longwork" -M "$g"
	done
}

tsec "$pfx" "named:$drv"
echo "# $(perf version), driver $drv, PMU $pmu, MIDR $midr"
for f in "$pdir"/caps/*; do
	[ -f "$f" ] && echo "# caps/${f##*/}: $(cat "$f")"
done
echo "# events/: $(ls "$pdir/events" | tr '\n' ' ')"
ktap_test "a named core (MIDR $midr: implementer Arm, not -cpu max's 0)" \
	sh -c "case '$midr' in 0x00000000410*|0x00000000414*) true ;; *) false ;; esac"
t0=$(cut -d. -f1 /proc/uptime)
sec_events
t1=$(cut -d. -f1 /proc/uptime)
sec_metrics | tee /tmp/metrics.out
t2=$(cut -d. -f1 /proc/uptime)
nm=$(grep -c '^# metric ' /tmp/metrics.out)
echo "# events: $((t1 - t0)) s, metrics: $((t2 - t1)) s (VM clock)"
ktap_test "perf stat ran the default set and every metric group ($nm lines)" \
	grep -q '^# metric default: counted' /tmp/metrics.out
tsec_end

# ---------------------------------------------------------------------------------------
# perf's own tests of a core PMU, by name. "perf stat tests" and "PMU JSON event tests"
# (perf's tests 121 and 10 in 7.2) do not depend on the core: they run, on both drivers,
# in the 7.2-perftest lanes (make check's time: a fifth of this boot). Nor does "perf all
# PMU test" here: it runs perf stat on each event perf lists, one at a time, which
# sec_events above does for the core's events in batches of six (with each verdict
# compared, where perf's test only greps), at a quarter of the cost (4-5 s of the VM's
# clock against 15-19 s, about 70 s of a host core per boot, four boots in a cold run);
# it runs whole, on both drivers, in the 7.2-perftest lanes
names='perf all metrics test
perf all metricgroups test
perf list tests
perf stat events uniquifying
Check Arm64 callgraphs are complete in fp mode'
nums=$(perf test list 2>/dev/null | sed -n 's/^ *\([0-9][0-9]*\): \(.*[^ ]\) *$/\1|\2/p' |
	while IFS='|' read -r n name; do
		echo "$names" | grep -qxF "$name" && echo "$n"
	done | tr '\n' ' ')
results() {
	sed -n 's/^ *\([0-9][0-9.]*\): \(.*[^ ]\) *: \(Ok\|FAILED!\|Skip.*\)$/\1|\3|\2/p' "$1"
}
tsec "$pfx" "perftest:$drv"
echo "# $(perf version), driver $drv; tests $nums"
t0=$(cut -d. -f1 /proc/uptime)
: >/tmp/perftest.out
for t in $nums; do
	t1=$(cut -d. -f1 /proc/uptime)
	perf test "$t" >>/tmp/perftest.out 2>&1
	echo "# perf test $t: $(($(cut -d. -f1 /proc/uptime) - t1)) s"
done
results /tmp/perftest.out >/tmp/perftest.res
# a failed (or plainly skipped) test once more: Ok then is Ok-retry (unlike
# perftest-in-vm.sh, every plain Skip: these are a few tests, a retry costs seconds);
# not the ones that fail or skip on both drivers in every run, for a reason outside them:
# perf list tests: no python (lib/setup_python.sh)
# Check Arm64 callgraphs...: Debian's perf is stripped (no leafloop symbol)
no_retry='perf list tests
Check Arm64 callgraphs are complete in fp mode'
for p in $(awk -F'|' '$2 == "FAILED!" || $2 == "Skip" { print $1 "|" $3 }' /tmp/perftest.res |
	while IFS='|' read -r t name; do
		echo "$no_retry" | grep -qxF "$name" || echo "$t"
	done | sed 's/\..*//' | uniq); do
	perf test "$p" >/tmp/retry.out 2>&1
	results /tmp/retry.out >/tmp/retry.res
	awk -F'|' 'BEGIN { OFS = "|" }
		FILENAME == ARGV[1] { if ($2 == "Ok") ok[$1 ""] = 1; next }
		($2 == "FAILED!" || $2 == "Skip") && ($1 "") in ok { $2 = "Ok-retry" } { print }' \
		/tmp/retry.res /tmp/perftest.res >/tmp/perftest.new &&
		mv /tmp/perftest.new /tmp/perftest.res
done
echo "# perf test: $(($(cut -d. -f1 /proc/uptime) - t0)) s (VM clock)"
awk -F'|' '{ v = $2; sub(/^Skip.*/, "Skip", v); sub(/^FAILED!$/, "FAILED", v)
	printf "# perftest %s %s %s\n", $1, v, $3 }' /tmp/perftest.res
n=$(grep -c . /tmp/perftest.res)
ktap_test "perf test ran the $(echo "$names" | wc -l) tests by name ($n results)" \
	sh -c "test $(echo "$nums" | wc -w) = $(echo "$names" | wc -l) &&
		test $n -ge $(echo "$names" | wc -l)"
tsec_end
exit 0
