# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the VM booted on the KASAN kernel (scripts/kconfig/apmu-kasan.config; busybox
# sh, cwd /apmu, apmu.ko loaded by vm-run). The sections whose code allocates, publishes and
# frees per-CPU units and events, through every load and unload path: the KUnit suites, the
# module lifecycle, the AMU and PC-sampling units over their register models (units added
# and removed, CPU PM notifier cycles, perf events on them). A use-after-free or an
# out-of-bounds access there is a "BUG: KASAN" splat in the console, which fails make check.
# Section names carry the prefix "kasan:".

. /apmu/vmlib.sh

pfx=kasan:
# The lane means something only if KASAN runs: the kernel says so once at boot
tsec "$pfx" active
ktap_test "this kernel runs the address sanitizer (KernelAddressSanitizer initialized)" \
	sh -c 'dmesg | grep -q "KernelAddressSanitizer initialized"'
tsec_end

sec_kunit "$pfx"
sec_lifecycle "$pfx"
sec_amu "$pfx"
sec_pcs "$pfx"
exit 0
