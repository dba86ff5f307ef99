#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: the kernel cost of perf operations, in instructions (QEMU -icount makes them
# repeatable), on apmu and on the in-tree armv8_pmuv3 driver, same kernel, same binary.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

bash "$APMU_TOP/scripts/deps.sh"
"$APMU_TOP/scripts/build.sh" >/dev/null
work=$(mktemp -d /tmp/apmu-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo './apmu_bench' >"$work/bench.sh"
for mode in apmu in-tree; do
	opt=()
	[ $mode = in-tree ] && opt=(--no-apmu)
	APMU_BUILT=1 "$APMU_TOP/scripts/vm-run" --quiet --log "$work/$mode.log" "${opt[@]}" \
		"$work/bench.sh" || apmu_die "bench on $mode failed (log $work/$mode.log)"
	echo "== $mode"
	tr -d '\r' <"$work/$mode.log" | sed -n '/^kernel instructions/,/ping-pong/p'
done
