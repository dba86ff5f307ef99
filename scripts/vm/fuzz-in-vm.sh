# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM, booted twice by scripts/check.sh: with apmu loaded (section
# "fuzz") and with the in-tree armv8_pmuv3 driver (vm-run --no-apmu, section
# "intree:fuzz"). apmu_fuzz (selftests/apmu/apmu_fuzz.c, after perf_event_tests'
# perf_fuzzer) runs the same fixed seeds, time-bounded, on whichever core PMU is there:
# apmu must survive what the in-tree driver survives. A hung kernel shows as a silent
# console (check.sh boots with --stall and does not retry), a splat in the console fails
# the run as everywhere. The sample rate stays at most 1000 and signals off (apmu_fuzz's
# defaults): beyond them (-R, -T) the in-tree driver hangs this lock-debugging kernel too
# (apmu_fuzz.c says how).

. /apmu/vmlib.sh

FUZZ_SEEDS="1 2"
FUZZ_SECS=12
# perf's CPU-time limit switched off and on too, as in the hang of issue 18 item 5
FUZZ_ARGS=-U

if pmu=$(apmu_pmu_name) && [ -n "$pmu" ]; then
	name=fuzz
else
	name=intree:fuzz
	pmu=$(cd /sys/bus/event_source/devices && ls -d armv8_pmuv3* 2>/dev/null | head -n 1)
fi
ktap_begin "$name"
rate_save
for s in $FUZZ_SEEDS; do
	# the progress lines reach the console as they come: silence means a hung kernel
	{ ./apmu_fuzz -p "$pmu" -s "$s" -t $FUZZ_SECS -n 1000000 $FUZZ_ARGS; echo $? >/tmp/fuzz.rc; } |
		sed 's/^/# /'
	if [ "$(cat /tmp/fuzz.rc)" = 0 ]; then
		ktap_pass "apmu_fuzz -s $s -t $FUZZ_SECS $FUZZ_ARGS on $pmu"
	else
		ktap_fail "apmu_fuzz -s $s -t $FUZZ_SECS $FUZZ_ARGS on $pmu"
	fi
done
rate_restore
ktap_end
exit 0
