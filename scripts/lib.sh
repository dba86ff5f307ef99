# SPDX-License-Identifier: GPL-2.0
# Shared settings for the apmu harness scripts. Sourced, not run.

APMU_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Everything built for tests lives outside the work tree, so a fresh clone reuses it.
APMU_CACHE=${APMU_CACHE:-/var/cache/apmu}
ARCH=arm64
CROSS_COMPILE=aarch64-linux-gnu-
export ARCH CROSS_COMPILE

apmu_log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
apmu_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The kernel source version and the key of the cached kernel build: the fragment, the
# source package version and the build recipe's version all invalidate the cache.
# Bump APMU_KERNEL_RECIPE when scripts/build-kernel.sh changes what it produces.
APMU_KERNEL_RECIPE=1
apmu_kernel_version() { dpkg-query -W -f='${Version}' linux-source-6.12; }
apmu_kernel_key() {
	{ echo "recipe $APMU_KERNEL_RECIPE"; apmu_kernel_version
	  cat "$APMU_TOP/scripts/kconfig/apmu-test.config"; } | sha256sum | cut -c1-12
}
apmu_kdir() { echo "$APMU_CACHE/kernel-$(apmu_kernel_key)"; }
