#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""of-table-sync.py KERNEL_SRC: apmu's PMUv3 device tree table against the kernel's.

Reads the in-tree driver's table (drivers/perf/arm_pmuv3.c: armv8_pmu_of_device_ids[],
each .data a <name>_pmu_init made by PMUV3_INIT_SIMPLE(name) or PMUV3_INIT_MAP_EVENT(name,
map_event)) and apmu's (drivers/perf/apmu/pmuv3/models.c: APMU_PMUV3_MODEL(compatible,
name, cache map)). Passes when both have the same compatibles, each with the same PMU name
(apmu's is "apmu_" + in-tree's), and a per-core cache map exactly where in-tree has its own
map_event (the a53/a57/a73/thunder/vulcan maps, by the same name). Prints each difference;
exit status 1 when there is one.
"""
import os
import re
import sys


def intree(src):
    text = open(os.path.join(src, "drivers/perf/arm_pmuv3.c")).read()
    maps = dict(re.findall(r"PMUV3_INIT_MAP_EVENT\((\w+),\s*armv8_(\w+)_map_event\)", text))
    names = set(re.findall(r"PMUV3_INIT_SIMPLE\((\w+)\)", text)) | set(maps)
    table = text[text.index("armv8_pmu_of_device_ids[]"):]
    table = table[:table.index("};")]
    out = {}
    for compat, init in re.findall(r'\.compatible\s*=\s*"([^"]+)",\s*\.data\s*=\s*(\w+)_pmu_init',
                                   table):
        if init not in names:
            sys.exit("of-table-sync: %s: no PMUV3_INIT_* for %s" % (compat, init))
        out[compat] = (init, maps.get(init))
    return out


def apmu(top):
    text = open(os.path.join(top, "drivers/perf/apmu/pmuv3/models.c")).read()
    out = {}
    for compat, name, cmap in re.findall(
            r'APMU_PMUV3_MODEL\("([^"]+)",\s*"(\w+)",\s*(\w+)\)', text):
        m = re.fullmatch(r"apmu_(\w+)_cache_map", cmap)
        out[compat] = (name, m.group(1) if m else None)
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    theirs, ours = intree(sys.argv[1]), apmu(top)
    bad = 0
    for compat in sorted(set(theirs) | set(ours)):
        if compat not in ours:
            print("# missing in apmu: %s (%s)" % (compat, theirs[compat][0]))
        elif compat not in theirs:
            print("# not in the kernel: %s" % compat)
        elif ours[compat] != theirs[compat]:
            print("# %s: apmu %s, the kernel %s" % (compat, ours[compat], theirs[compat]))
        else:
            continue
        bad += 1
    print("# %d compatibles in the kernel's table, %d in apmu's, %d differences"
          % (len(theirs), len(ours), bad))
    return 1 if bad or not theirs else 0


if __name__ == "__main__":
    sys.exit(main())
