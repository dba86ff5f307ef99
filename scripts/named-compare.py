#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Set what perf offers on a named core through apmu beside the in-tree driver.

  scripts/named-compare.py APMU_LOG INTREE_LOG

Each log is a VM lane's console output holding scripts/vm/named-in-vm.sh's section
PFXnamed:DRIVER (same kernel, perf, QEMU core; only the driver differs): its header
"# perf version V, driver D, PMU P, MIDR M", its lines "# event NAME VERDICT" (every event
perf lists on the core PMU: supported, <not supported>, or error: TEXT) and "# metric WHAT:
LINE" (the shape of `perf stat -M WHAT` and of the default `perf stat`). Prints one verdict
a line, "PASS <what>" or "FAIL <what>", with "# " lines of detail, for scripts/check.sh to
number as TAP:

- the runs are apmu's and the in-tree driver's, same perf, same core (MIDR);
- perf lists the same events on both PMUs, and no event is worse on apmu: none that the
  in-tree driver counts is refused or fails on apmu, none that it refuses with <not
  supported> fails with an error on apmu;
- every metric (group) gives output of the same shape on both, or a better one on apmu:
  the same events and metric names, and no event <not supported> or <not counted> on apmu
  that the in-tree driver counts, no error on apmu where the in-tree driver has none.

Every difference is listed, either way. A difference with a known reason outside apmu
may be allowed in ALLOWED below, with that reason.
"""
import re
import sys

HEAD = re.compile(r"^# (perf version \S+), driver (\S+), PMU (\S*), MIDR (\S*)")
EVENT = re.compile(r"^# event (\S+) (.*?)\s*$")
METRIC = re.compile(r"^# metric (.*?): (.*?)\s*$")

# ("event", NAME) or ("metric", WHAT): why its difference is not apmu's. None today.
ALLOWED = {}


def metric_allowed(a, i):
    """Why apmu's metric lines A may differ from the in-tree driver's I, or None.

    perf's common lpm_cycles metrics (cycles by privilege level) count cpu-cycles:G,
    guest-only counting: apmu refuses it with EOPNOTSUPP by design, since it cannot
    count a guest without counting the host (apmu.rst, "Filtering"; the in-tree driver
    has KVM switch its filters at each guest entry and exit, and on this VM counts 0).
    The other events of that metric's group are then <not counted> on apmu. Allowed
    when that is the whole difference: the same events and metric names, the :G
    event <not supported> on apmu, only <not counted> besides it."""
    if not any(x.startswith("<not supported> ") and x.split(" ")[2].endswith(":G")
               for x in a):
        return None
    def key(x):  # "STATUS EVENT | METRIC" -> "EVENT | METRIC"
        ev, _, met = x.partition("|")
        return ev.split()[-1] + " | " + met.strip()
    if sorted(map(key, a)) != sorted(map(key, i)):
        return None
    if any(not (x.startswith("<not ") or x.startswith("- ")) for x in a if x not in i):
        return None
    return ("guest-only counting (cpu-cycles:G) refused by design (apmu.rst, Filtering);"
            " its group's other events <not counted>")

RANK = {"counted": 2, "-": 2, "<not counted>": 1, "<not supported>": 0}


def parse(path):
    head, events, metrics = None, {}, {}
    with open(path, errors="replace") as f:
        for line in f:
            line = line.replace("\r", "").rstrip("\n")
            m = HEAD.match(line)
            if m and head is None:
                head = m.groups()
                continue
            m = EVENT.match(line)
            if m:
                events[m.group(1)] = m.group(2)
                continue
            m = METRIC.match(line)
            if m:
                metrics.setdefault(m.group(1), []).append(m.group(2))
    return head, events, metrics


def event_rank(v):
    if v == "supported":
        return 2
    if v == "<not supported>":
        return 1
    return 0  # an error, or not listed


def metric_lines(lines):
    """{"EVENT | METRIC": sorted statuses}, or None for an error."""
    if any(x.startswith("error:") for x in lines):
        return None
    out = {}
    for x in lines:
        status, _, rest = x.partition(" ")
        if x.startswith("<not "):
            status, rest = x.split("> ", 1)[0] + ">", x.split("> ", 1)[1]
        out.setdefault(rest, []).append(RANK.get(status, 2))
    return {k: sorted(v) for k, v in out.items()}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    ahead, aev, amet = parse(sys.argv[1])
    ihead, iev, imet = parse(sys.argv[2])
    runs = (ahead is not None and ihead is not None and ahead[1] == "apmu" and
            ihead[1] == "intree" and ahead[0] == ihead[0] and ahead[3] == ihead[3])
    print(("PASS" if runs else "FAIL") +
          f" the runs are apmu's and the in-tree driver's, same perf and core ({ahead}; {ihead})")
    if not runs:
        return

    # events
    worse, better = [], []
    for name in sorted(aev.keys() | iev.keys()):
        a, i = aev.get(name, "not listed"), iev.get(name, "not listed")
        if a == i:
            continue
        allowed = ALLOWED.get(("event", name))
        print(f"# event {name}: apmu {a}, in-tree {i}" + (f" (allowed: {allowed})" if allowed else ""))
        if event_rank(a) < event_rank(i) and not allowed:
            worse.append(name)
        elif event_rank(a) > event_rank(i):
            better.append(name)
    for name, res in (("apmu", aev), ("in-tree", iev)):
        vs = list(res.values())
        print(f"# {name}: {len(vs)} events listed, {vs.count('supported')} supported, "
              f"{vs.count('<not supported>')} <not supported>, "
              f"{sum(v.startswith('error') for v in vs)} errors")
    print(("PASS" if aev.keys() == iev.keys() and aev else "FAIL") +
          f" perf lists the same {len(aev)} events on both PMUs (in-tree: {len(iev)})")
    print(("PASS" if not worse else "FAIL") +
          " no event opens on the in-tree driver and not on apmu, none fails on apmu that"
          " the in-tree driver reports <not supported>" +
          (f" (does: {', '.join(worse)})" if worse else ""))

    # metrics
    worse, same = [], 0
    for what in sorted(amet.keys() | imet.keys()):
        a, i = amet.get(what), imet.get(what)
        if a is not None and i is not None and sorted(a) == sorted(i):
            same += 1
            continue
        allowed = ALLOWED.get(("metric", what))
        if not allowed and a is not None and i is not None:
            allowed = metric_allowed(a, i)
        print(f"# metric {what}: the output differs" + (f" (allowed: {allowed})" if allowed else ""))
        for side, lines in (("apmu", a), ("in-tree", i)):
            for x in lines or ["(not run)"]:
                print(f"#   {side}: {x}")
        if allowed:
            continue
        if a is None or i is None:
            worse.append(what)
            continue
        am, im = metric_lines(a), metric_lines(i)
        if im is None:
            continue  # an error on the in-tree driver: apmu cannot be worse
        if am is None or am.keys() != im.keys() or any(
                x < y for k in im for x, y in zip(am[k], im[k])):
            worse.append(what)
    print(f"# metrics: {same} of {len(amet.keys() | imet.keys())} with the same output")
    print(("PASS" if amet and not worse else "FAIL") +
          f" every metric and metric group ({len(amet)}) gives the in-tree driver's output"
          " shape on apmu, or a better one" + (f" (does not: {', '.join(worse)})" if worse else ""))


if __name__ == "__main__":
    main()
