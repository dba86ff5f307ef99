#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn QEMU virt's device tree (as dts text on stdin) into a heterogeneous one.

QEMU describes one PMU node with a PPI. Real big.LITTLE boards describe one PMU node per
microarchitecture, often with one SPI per CPU tied to it by "interrupt-affinity". This
rewrites the pmu node into two: arm,cortex-a53-pmu on cpu0 and arm,cortex-a57-pmu on cpu1,
each with its own SPI (100 and 101, unused on virt: they never fire, so this exercises
discovery, CPU masks, IRQ wiring and hotplug, not overflow delivery).
"""
import re
import sys

dts = sys.stdin.read()
phandles = {}
for m in re.finditer(r"cpu@(\d+)\s*\{(.*?)\};", dts, re.S):
    ph = re.search(r"phandle = <(0x[0-9a-f]+)>;", m.group(2))
    if ph:
        phandles[int(m.group(1))] = ph.group(1)
if 0 not in phandles or 1 not in phandles:
    sys.exit("hetero-dtb: cpu@0/cpu@1 phandles not found")

nodes = ""
for name, cpu, spi in (("cortex-a53", 0, 100), ("cortex-a57", 1, 101)):
    nodes += (f"\tpmu-{name} {{\n"
              f"\t\tcompatible = \"arm,{name}-pmu\";\n"
              f"\t\tinterrupts = <0x00 {spi:#x} 0x04>;\n"
              f"\t\tinterrupt-affinity = <{phandles[cpu]}>;\n"
              f"\t}};\n\n")
new, n = re.subn(r"\tpmu \{.*?\};\n\n?", nodes, dts, count=1, flags=re.S)
if n != 1:
    sys.exit("hetero-dtb: no pmu node found")
sys.stdout.write(new)
