#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Count the TAP/KTAP results of an apmu test VM console log.

Sections sit between 'APMU-SECTION-BEGIN name' and 'APMU-SECTION-END name rc=N'. Every
plan ('1..N') must be followed by N results at its indentation; results of nested suites
('# Subtest: name' ... 'ok 1 name') are counted once, as their cases. The log fails on any
failed test, missing or short plan, missing section, unfinished VM, or kernel splat.
Prints one line per section and ends with 'N passed, N failed, N skipped'.
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
RESULT = re.compile(r"^(\s*)(not ok|ok)\s+(\d+)\s*-?\s*(.*)$")
PLAN = re.compile(r"^(\s*)1\.\.(\d+)\s*$")
SUBTEST = re.compile(r"^\s*#\s*Subtest:\s*(\S+)")


def parse_section(name, lines):
    """Return (passed, failed, skipped, problems)."""
    passed = failed = skipped = 0
    problems = []
    suites = set()
    plans = []  # [indent, expected, seen]
    for line in lines:
        m = SUBTEST.match(line)
        if m:
            suites.add(m.group(1))
            continue
        m = PLAN.match(line)
        if m:
            plans.append([len(m.group(1)), int(m.group(2)), 0])
            continue
        m = RESULT.match(line)
        if not m:
            continue
        indent, status, desc = len(m.group(1)), m.group(2), m.group(4)
        # the innermost open plan at this indentation owns the result
        owner = next((p for p in reversed(plans) if p[0] == indent), None)
        if owner is None:
            problems.append(f"result without a plan: {line.strip()}")
        else:
            owner[2] += 1
            if owner[2] == owner[1]:
                plans.remove(owner)
        title = desc.split("#")[0].strip()
        if title in suites:
            # a suite's summary line: its cases were counted one by one
            if status == "not ok":
                problems.append(f"suite {title} reported failure")
            continue
        if re.search(r"#\s*SKIP", desc, re.I):
            skipped += 1
        elif status == "ok":
            passed += 1
        else:
            failed += 1
            problems.append(f"failed: {desc.strip()}")
    for p in plans:
        problems.append(f"short plan at indent {p[0]}: {p[2]} of {p[1]} results")
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
    for name in order:
        if name == "dmesg":
            continue
        p, f, s, problems = parse_section(name, sections[name])
        if name not in ends:
            problems.append("section did not finish")
        tp, tf, ts = tp + p, tf + f, ts + s
        print(f"{name}: {p} passed, {f} failed, {s} skipped")
        for pr in problems:
            print(f"  {name}: {pr}")
            if not pr.startswith("failed:"):
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
    if bad:
        # a splat, an unfinished VM or a broken plan is a failure of the run: count it
        print("problems: " + "; ".join(bad))
        tf += len(bad)
    print(f"{tp} passed, {tf} failed, {ts} skipped")
    return 1 if (tf or bad) else 0


if __name__ == "__main__":
    sys.exit(main())
