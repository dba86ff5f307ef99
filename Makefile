# SPDX-License-Identifier: GPL-2.0
#
# apmu: loadable perf PMU driver for the Arm Performance Monitors.
#
#   make                 build apmu.ko for the running kernel (KDIR=... for another) and
#                        tools/apmu-stat/apmu-stat (AMU frequency, IPC, stalls per CPU)
#   make modules_install install it under /lib/modules/<version>/
#   make tools_install   install apmu-stat in $(PREFIX)/bin (default /usr/local/bin)
#   make check           the test suite: test kernel, module, kselftests, KUnit, in QEMU;
#                        LANES="test hetero ..." runs only those lanes (scripts/lanes.txt)
#   make distro-check    only its lane on Debian's own 6.1, 6.12 and 7.2 arm64 kernels
#   make xscale-check    only its ARMv5 XScale lane (PXA27x kernel, QEMU spitz)
#   make arm-check       only its 32-bit Arm lane (qemu-system-arm, AArch32 PMUv3)
#   make demo            boot the VM with Debian's perf and show apmu working
#   make bench           kernel cost of perf operations, apmu vs the in-tree driver
#   make vm-run SCRIPT=x run a script inside the test VM (see scripts/vm-run);
#                        VMRUN_OPTS="--arch arm --no-apmu" for the 32-bit Arm lane
#   make checkpatch      scripts/checkpatch.pl --strict over the sources

KDIR ?= /lib/modules/$(shell uname -r)/build
# On an x86 host, `make check` builds for the arm64 test kernel; natively nothing is needed.
ifneq ($(shell uname -m),aarch64)
ifneq ($(filter check demo bench,$(MAKECMDGOALS)),)
CROSS_ARGS := ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
endif
endif

.PHONY: all modules modules_install tools tools_install clean check distro-check arm-check \
	xscale-check demo bench vm-run checkpatch

all: modules tools

# make check builds with W=1 and warnings as errors (scripts/build.sh); a user's build
# against a distribution kernel does not fail on that kernel's own header warnings.
modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(CROSS_ARGS) modules

modules_install:
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(CROSS_ARGS) modules_install

# apmu-stat: a C program with no dependency beyond libc (CROSS_COMPILE=... to cross-build)
tools:
	$(MAKE) -C tools/apmu-stat

tools_install:
	$(MAKE) -C tools/apmu-stat install

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	$(MAKE) -C tools/apmu-stat clean
	rm -rf build/ksft-tree build/kselftest_install build/xscale build/xscale.log

check:
	LANES="$(LANES)" bash scripts/check.sh

distro-check:
	LANES="distro-6.1 distro-6.12 distro-7.2" bash scripts/check.sh

arm-check:
	LANES=arm bash scripts/check.sh

xscale-check:
	LANES=xscale bash scripts/check.sh

demo:
	bash scripts/demo.sh

bench:
	bash scripts/bench.sh

vm-run:
	bash scripts/vm-run $(VMRUN_OPTS) $(SCRIPT)

checkpatch:
	bash scripts/checkpatch.sh
