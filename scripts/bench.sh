#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: the kernel cost of perf operations, in instructions, on apmu and on the
# in-tree armv8_pmuv3 driver. Both run on the bench kernel (APMU_FLAVOUR=bench: the test
# kernel without lock debugging, scripts/kconfig/apmu-bench.config), booted twice in this
# run: QEMU -smp 1 -icount shift=0, where the guest's clock advances one nanosecond per
# instruction and selftests/apmu/apmu_bench measures with it (not with a PMU counter).
# apmu is measured as loaded by default and with long_counters=0 (32-bit event counters,
# the in-tree driver's kind: the ":32bit" lines). Prints one line per path:
#
#   bench PATH apmu=A intree=B ratio=R
#
# A and B in instructions per operation, R = A / B. Not part of make check's pass/fail
# (figures move with kernels and QEMU); make check runs apmu_bench -q once so it cannot rot.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
export APMU_FLAVOUR=bench

bash "$APMU_TOP/scripts/deps.sh"
apmu_log "bench: building the bench kernel (cached; ~15-25 min cold) and its modules"
"$APMU_TOP/scripts/build.sh" >/dev/null
work=$(mktemp -d /tmp/apmu-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
for mode in apmu intree; do
	opt=()
	[ $mode = intree ] && opt=(--no-apmu)
	apmu_log "bench: booting the bench kernel with $mode (log: $work/$mode.log)"
	APMU_BUILT=1 "$APMU_TOP/scripts/vm-run" --quiet --kernel bench --smp 1 --icount shift=0 \
		--log "$work/$mode.log" "${opt[@]}" "$APMU_TOP/scripts/vm/bench-in-vm.sh" || {
		tr -d '\r' <"$work/$mode.log" | tail -n 30 >&2
		apmu_die "bench on $mode failed"
	}
	tr -d '\r' <"$work/$mode.log" | grep '^BENCH' >>"$work/all"
done
sed -n 's/^BENCH-NOTE /# /p' "$work/all"
awk '
$1 == "BENCH" { v[$2, $3] = $4; if (!($3 in seen)) { seen[$3] = 1; order[n++] = $3 } }
END {
	for (s = 0; s < 2; s++) {
		drv = s ? "apmu32" : "apmu"
		for (i = 0; i < n; i++) {
			p = order[i]
			if (!((drv, p) in v) || !(("intree", p) in v))
				continue
			a = v[drv, p]; b = v["intree", p]
			r = b > 0 ? a / b : 0
			printf("bench %s%s apmu=%.1f intree=%.1f ratio=%.3f\n", p,
			       s ? ":32bit" : "", a, b, r)
		}
	}
}' "$work/all"
