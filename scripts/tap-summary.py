#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Count the TAP/KTAP results of an apmu test VM console log.

Sections sit between 'APMU-SECTION-BEGIN name' and 'APMU-SECTION-END name rc=N'. Every
plan ('1..N') must be followed by N results at its nesting level. Two kinds of nesting:
KTAP indents a suite's cases ('    # Subtest: name' ... '    ok 1 case' ... 'ok 1 name');
the kernel's kselftest runner (run_kselftest.sh) prefixes a program's own TAP with '# '
('# 1..18', '# ok 1 apmu.case', then 'ok 1 selftests: apmu: apmu_pmu'). A result line
right after deeper results is its children's summary: the children are counted, one by
one, and the summary is not; a failed summary fails the section even when none of its
children did (a crash, a TIMEOUT, a non-zero exit). The log fails on any failed test,
missing or short plan, missing section, section ending with an rc other than 0,
unfinished VM, or kernel splat. Prints one line per section, the failed tests once more
(what a CI showing only the output's tail needs), and ends with 'N passed, N failed, N
skipped'.
"""
import re
import sys

SPLATS = [
    r"WARNING:", r"BUG:", r"Oops", r"Internal error:", r"Kernel panic",
    r"Unable to handle kernel", r"Call trace:", r"sleeping function called from invalid context",
    r"possible circular locking", r"possible recursive locking", r"inconsistent lock state",
    r"lockdep is turned off", r"DEBUG_LOCKS_WARN_ON", r"KASAN", r"UBSAN", r"detected stalls", r"blocked for more than",
    r"general protection",
]
# The nesting prefix: KTAP's indentation and the kselftest runner's '# ', in any mix.
NEST = r"^((?:[ \t]*# )*[ \t]*)"
RESULT = re.compile(NEST + r"(not ok|ok)\s+(\d+)\s*-?\s*(.*)$")
PLAN = re.compile(NEST + r"1\.\.(\d+)\s*$")
SUBTEST = re.compile(r"^\s*#\s*Subtest:\s*(\S+)")


def parse_section(name, lines):
    """Return (passed, failed, skipped, problems)."""
    passed = failed = skipped = 0
    problems = []
    suites = set()
    plans = []  # [nesting prefix, expected, seen]
    unplanned = {}  # per nesting prefix: results seen with no plan open (yet)
    # per nesting prefix: [deeper results seen, one of them failed] since its last result
    # (the top level from the start: its plan may come last)
    below = {"": [False, False]}

    def deeper(key):
        # note a line at nesting `key` in every enclosing level that has a plan
        for k, v in below.items():
            if len(key) > len(k) and key.startswith(k):
                v[0] = True
                yield v

    for line in lines:
        m = SUBTEST.match(line)
        if m:
            suites.add(m.group(1))
            continue
        m = PLAN.match(line)
        if m:
            key = m.group(1)
            if unplanned.get(key):
                # a trailing plan (TAP 13 allows the plan last: apmu's ktap helpers print
                # it when the section ends): it must count the results before it
                if unplanned[key] != int(m.group(2)):
                    problems.append(f"trailing plan 1..{m.group(2)} at nesting {key!r} "
                                    f"after {unplanned[key]} results")
                unplanned[key] = 0
                continue
            plans.append([key, int(m.group(2)), 0])
            below.setdefault(key, [False, False])
            list(deeper(key))
            continue
        m = RESULT.match(line)
        if not m:
            continue
        key, status, desc = m.group(1), m.group(2), m.group(4)
        # the innermost open plan at this nesting level owns the result
        owner = next((p for p in reversed(plans) if p[0] == key), None)
        if owner is None:
            unplanned[key] = unplanned.get(key, 0) + 1
        else:
            owner[2] += 1
            if owner[2] == owner[1]:
                plans.remove(owner)
        skip = re.search(r"#\s*SKIP", desc, re.I)
        for v in deeper(key):
            if status == "not ok" and not skip:
                v[1] = True
        kids, kid_failed = below.get(key, [False, False])
        below[key] = [False, False]
        title = desc.split("#")[0].strip()
        if kids or title in suites:
            # a summary line (a KUnit suite, a kselftest program): its cases were counted
            # one by one; its own failure must still fail the section
            if title in suites:
                # KTAP lets a subtest leave out its plan when it cannot know the number
                # in advance, as KUnit's parameterised cases do before 6.13: the results
                # just below this summary were its subtest's
                for k in unplanned:
                    if len(k) > len(key) and k.startswith(key):
                        unplanned[k] = 0
            if status == "not ok":
                if kid_failed:
                    problems.append(f"failed: {desc.strip()} (its failed cases above)")
                else:
                    failed += 1
                    problems.append(f"failed: {desc.strip()} (no failed case counted)")
            continue
        if skip:
            skipped += 1
        elif status == "ok":
            passed += 1
        else:
            failed += 1
            problems.append(f"failed: {desc.strip()}")
    for p in plans:
        problems.append(f"short plan at nesting {p[0]!r}: {p[2]} of {p[1]} results")
    for key, n in unplanned.items():
        if n:
            problems.append(f"{n} results without a plan at nesting {key!r}")
    if not lines or not any(PLAN.match(x) for x in lines):
        problems.append("no TAP plan")
    return passed, failed, skipped, problems


def main():
    if len(sys.argv) < 2:
        print("usage: tap-summary.py CONSOLE_LOG [REQUIRED_SECTION...]", file=sys.stderr)
        return 2
    text = open(sys.argv[1], errors="replace").read().replace("\r", "")
    required = sys.argv[2:]
    lines = text.split("\n")
    sections, order, cur = {}, [], None
    ends = {}
    for line in lines:
        if line.startswith("APMU-SECTION-BEGIN "):
            cur = line.split(" ", 1)[1].strip()
            sections[cur] = []
            order.append(cur)
            continue
        if line.startswith("APMU-SECTION-END "):
            parts = line.split()
            ends[parts[1]] = parts[2] if len(parts) > 2 else "rc=?"
            cur = None
            continue
        if cur is not None:
            sections[cur].append(line)

    tp = tf = ts = 0
    bad = []
    failures = []
    for name in order:
        if name == "dmesg" or name.endswith(":dmesg"):
            # a lane's kernel log, for reading: the splat scan covers it
            continue
        p, f, s, problems = parse_section(name, sections[name])
        if name not in ends:
            problems.append("section did not finish")
        elif ends[name] != "rc=0":
            # the script's own verdict (a kselftest program reported "not ok" by the
            # runner, an rmmod that failed, a check that printed only a diagnostic)
            problems.append(f"section ended with {ends[name]}")
        tp, tf, ts = tp + p, tf + f, ts + s
        print(f"{name}: {p} passed, {f} failed, {s} skipped")
        for pr in problems:
            print(f"  {name}: {pr}")
            if pr.startswith("failed:"):
                # (a kselftest program's summary line is not counted: its cases are)
                if not pr.endswith("(its failed cases above)"):
                    failures.append(f"{name}: {pr}")
            else:
                bad.append(f"{name}: {pr}")
    for name in required:
        if name not in sections:
            bad.append(f"{name}: missing from the log")
            print(f"{name}: missing from the log")

    splat = []
    for i, line in enumerate(lines):
        if any(re.search(pat, line) for pat in SPLATS):
            splat.append(f"console line {i + 1}: {line.strip()}")
    if splat:
        print("kernel splat in the console:")
        for s in splat[:20]:
            print("  " + s)
        bad.append("kernel splat")
    boots = len(re.findall(r"^APMU-VM: booted", text, re.M))
    clean = len(re.findall(r"^APMU-VM-EXIT rc=0$", text, re.M))
    if boots == 0 or clean != boots:
        bad.append(f"{boots - clean} of {boots} VM boots did not finish their script with rc=0")
        print(f"VM: {clean} of {boots} boots finished their script with rc=0")
    if failures:
        # again next to the count: a CI that shows only the output's tail names them
        print(f"failed tests ({len(failures)}):")
        for fl in failures[:15]:
            print("  " + fl)
        if len(failures) > 15:
            print(f"  ... and {len(failures) - 15} more, above")
    if bad:
        # a splat, an unfinished VM or a broken plan is a failure of the run: count it
        print("problems: " + "; ".join(bad))
        tf += len(bad)
    print(f"{tp} passed, {tf} failed, {ts} skipped")
    return 1 if (tf or bad) else 0


if __name__ == "__main__":
    sys.exit(main())
