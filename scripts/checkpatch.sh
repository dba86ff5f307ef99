#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict --no-tree and kernel-doc -Wall over every kernel C source and
# header of the module, and over apmu-stat (tools/, kernel tools style).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=$APMU_CACHE/src/linux-$(apmu_kernel_version)
[ -x "$src/scripts/checkpatch.pl" ] || apmu_die "no checkpatch.pl: run scripts/build-kernel.sh"
cd "$APMU_TOP"
mapfile -t files < <(find drivers include tools -name '*.[ch]' | sort)
# compat.h is the one place that compares kernel versions, by design
out=$(perl "$src/scripts/checkpatch.pl" --strict --no-tree --terse --show-types \
	--ignore FILE_PATH_CHANGES -f "${files[@]}" | grep -E 'ERROR|WARNING|CHECK' |
	grep -v '^drivers/perf/apmu/compat.h:[0-9]*: WARNING:\(LINUX_VERSION_CODE\|CONSTANT_COMPARISON\):' ||
	true)
# kernel-doc comments must be complete and well-formed too
out+=$(perl "$src/scripts/kernel-doc" -none -Wall "${files[@]}" 2>&1)
if [ -n "$out" ]; then
	echo "$out"
	exit 1
fi
echo "checkpatch and kernel-doc: ${#files[@]} files clean"
