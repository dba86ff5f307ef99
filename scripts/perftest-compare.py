#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Set apmu's `perf test` results beside the in-tree driver's.

  scripts/perftest-compare.py APMU_LOG INTREE_LOG

Each log is a VM lane's console output holding scripts/vm/perftest-in-vm.sh's lines
"# perftest <number> <Ok|Ok-retry|FAILED|Skip> <name>" (same kernel, same perf, same boot
options; only the driver differs). Prints one verdict a line, "PASS <what>" or
"FAIL <what>", with "# " lines of detail, for scripts/check.sh to number as TAP:

- the runs are apmu's and the in-tree driver's, with the same perf, and hold the same
  tests (a run cut short, or another perf, is not compared);
- apmu's Ok count (Ok on retry included) is at least the in-tree driver's;
- no test fails on apmu that passes or skips on the in-tree driver, and none skips on
  apmu that passes on the in-tree driver.

Every test whose verdict differs is listed, either way, with what it said of a skip on
its last retry ("# perftest-why <number> <line>", scripts/vm/perftest-in-vm.sh), where it
was retried (a failed test, or a skip retry_skip names there): for another skip, run it
with `perf test -vv <number>` in the VM to see why.
"""
import re
import sys

LINE = re.compile(r"^# perftest (\d+(?:\.\d+)*) (Ok|Ok-retry|FAILED|Skip) (.*?)\s*$")
WHY = re.compile(r"^# perftest-why (\d+) (.*?)\s*$")
HEAD = re.compile(r"^# (perf version \S+), driver (\S+);")


def results(path):
    """Return ({number: (verdict, name)}, perf version, driver, {number: [why]})."""
    res, version, driver, why = {}, None, None, {}
    with open(path, errors="replace") as f:
        for line in f:
            line = line.replace("\r", "")
            m = LINE.match(line)
            if m:
                res[m.group(1)] = (m.group(2), m.group(3))
            m = HEAD.match(line)
            if m:
                version, driver = m.group(1), m.group(2)
            m = WHY.match(line)
            if m:
                why.setdefault(m.group(1), []).append(m.group(2))
    return res, version, driver, why


def is_ok(verdict):
    return verdict.startswith("Ok")


def key(num):
    return [int(x) for x in num.split(".")]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    apmu, aver, adrv, awhy = results(sys.argv[1])
    intree, iver, idrv, iwhy = results(sys.argv[2])
    runs = adrv == "apmu" and idrv == "intree" and aver is not None and aver == iver
    print(("PASS" if runs else "FAIL") +
          f" the runs are apmu's and the in-tree driver's, same perf ({aver}: {adrv}; "
          f"{iver}: {idrv})")
    same = runs and bool(apmu) and apmu.keys() == intree.keys() and all(
        apmu[k][1] == intree[k][1] for k in apmu)
    print(("PASS" if same else "FAIL") +
          f" both runs hold the same {len(apmu)} perf tests (in-tree run: {len(intree)})")
    if not same:
        for k in sorted(apmu.keys() ^ intree.keys(), key=key):
            side = "apmu" if k in apmu else "in-tree"
            print(f"# only the {side} run has test {k}")
        return
    counts = {}
    for name, res in (("apmu", apmu), ("in-tree", intree)):
        verdicts = [v for v, _ in res.values()]
        counts[name] = sum(is_ok(v) for v in verdicts)
        print(f"# {name}: {counts[name]} Ok ({verdicts.count('Ok-retry')} on retry), "
              f"{verdicts.count('FAILED')} FAILED, {verdicts.count('Skip')} Skip")
    ok = counts["apmu"] >= counts["in-tree"]
    print(("PASS" if ok else "FAIL") +
          f" apmu's Ok count {counts['apmu']} >= the in-tree driver's {counts['in-tree']}")
    worse = []
    for k in sorted(apmu, key=key):
        a, i = apmu[k][0], intree[k][0]
        if a != i:
            print(f"# test {k} {apmu[k][1]}: apmu {a}, in-tree {i}")
            top = k.split(".")[0]
            for side, why in (("apmu", awhy), ("in-tree", iwhy)):
                for line in why.get(top, []):
                    print(f"#   {side}: {line}")
        if (not is_ok(a) and is_ok(i)) or (a == "FAILED" and i == "Skip"):
            worse.append(k)
    print(("PASS" if not worse else "FAIL") +
          " no perf test fails or skips on apmu that passes on the in-tree driver, and"
          " none fails on apmu that skips there" +
          (f" (does: {', '.join(worse)})" if worse else ""))


if __name__ == "__main__":
    main()
