#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sparse over every object of the module (C=2: check all, not only rebuilt files).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$(apmu_kdir)
out=$(make -s -C "$kdir" M="$APMU_TOP" C=2 CHECK=sparse modules 2>&1 >/dev/null |
	grep -E 'warning|error' || true)
if [ -n "$out" ]; then
	echo "$out"
	exit 1
fi
exit 0
