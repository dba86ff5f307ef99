#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make demo: build what is needed, boot the VM with Debian's perf, show apmu working.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

bash "$APMU_TOP/scripts/deps.sh"
"$APMU_TOP/scripts/build.sh" >/dev/null
apmu_log "demo: booting the VM (QEMU virt, -cpu max, 2 CPUs, -icount shift=0,sleep=off)"
APMU_BUILT=1 "$APMU_TOP/scripts/vm-run" "$APMU_TOP/scripts/vm/demo-in-vm.sh" 2>&1 |
	sed -n '/^APMU-VM: booted/,$p' | grep -v '^APMU-VM-EXIT'
