#!/usr/bin/env python3
"""Executions each fuzz target has run on the fuzzed code as it is at HEAD.

    python3 Fuzz/campaign-totals.py           # print the table
    python3 Fuzz/campaign-totals.py --write   # and put it in Fuzz/CAMPAIGNS.md

A campaign resumes from the kept corpus, so campaigns on the same code add
up: a line of the ledger (Fuzz/CAMPAIGNS.md) counts toward a target's total
when it is clean, its commit had no uncommitted changes, and none of the
target's fuzzed paths differ between its commit and HEAD. A target's
fuzzed paths are, conservatively, whole modules:

- the root and fuzz manifests, the target's entry (and terminal-text's
  property folder, which links its property file);
- Fuzz/FuzzProperties, less the property files only other targets use;
- Sources/M for every module its property files import, with every module
  those depend on (from `swift package dump-package`).

A change anywhere in such a module starts the target's count again, even
where the target never reaches it.
"""

import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEDGER = os.path.join(ROOT, "Fuzz", "CAMPAIGNS.md")
PROPERTIES = "Fuzz/FuzzProperties"
BEGIN, END = "<!-- totals: written by Fuzz/campaign-totals.py -->", "<!-- /totals -->"
GOAL = 10_000_000

# The property files each target's entry calls; a file no target names here
# (the corpus reader, the random generator, the timing check) counts for all.
PROPERTY_FILES = {
    "sse": ["SSEProperties.swift"],
    "json": ["JSONProperties.swift", "SnapshotSample.swift"],
    "typed": ["TypedProperties.swift", "SnapshotSample.swift"],
    "accumulator": ["AccumulatorProperties.swift"],
    "replay": ["ReplayProperties.swift"],
    "aws-eventstream": ["AWSEventStreamProperties.swift", "AWSEventStreamCodec.swift"],
    "transport-frames": ["TransportFrameProperties.swift"],
    "terminal-text": ["TerminalTextProperties.swift"],
}


def git(*args):
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def module_dependencies():
    """Each root target's name → (its source folder, the targets it depends on)."""
    dump = json.loads(subprocess.run(
        ["swift", "package", "dump-package"], cwd=ROOT, check=True, capture_output=True, text=True).stdout)
    modules = {}
    for target in dump["targets"]:
        names = []
        for dependency in target["dependencies"]:
            for value in dependency.values():
                if value and isinstance(value[0], str):
                    names.append(value[0])
        modules[target["name"]] = (target.get("path") or f"Sources/{target['name']}", names)
    return modules


def fuzzed_paths(target, modules):
    owned = {name for files in PROPERTY_FILES.values() for name in files}
    mine = set(PROPERTY_FILES[target])
    paths = ["Package.swift", "Fuzz/Package.swift", f"Fuzz/{target}/Entry"]
    if target == "terminal-text":
        paths.append("Fuzz/terminal-text/Property")
    for name in sorted(os.listdir(os.path.join(ROOT, PROPERTIES))):
        if name in mine or name not in owned:
            paths.append(f"{PROPERTIES}/{name}")
    imported = set()
    for name in mine:
        with open(os.path.join(ROOT, PROPERTIES, name)) as source:
            imported |= set(re.findall(r"^(?:@\w+(?:\([^)]*\))?\s+)*import\s+(\w+)", source.read(), re.MULTILINE))
    if target == "terminal-text":
        imported.add("CommandLineDisplay")
    pending = [name for name in imported if name in modules]
    seen = set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        pending += [dependency for dependency in modules[name][1] if dependency in modules]
    paths += sorted(modules[name][0] for name in seen)
    return paths


def campaigns():
    """The ledger's rows as (commit, target, executions, result)."""
    rows = []
    with open(LEDGER) as ledger:
        for line in ledger:
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if len(cells) == 9 and re.fullmatch(r"\d{4}-\d{2}-\d{2}", cells[0]) and cells[4].isdigit():
                rows.append((cells[1], cells[2], int(cells[4]), cells[8]))
    return rows


def unchanged_since(commit, paths):
    if "+" in commit:
        return False
    try:
        git("cat-file", "-e", f"{commit}^{{commit}}")
    except subprocess.CalledProcessError:
        return False
    return subprocess.run(["git", "diff", "--quiet", commit, "HEAD", "--", *paths], cwd=ROOT).returncode == 0


def table():
    modules = module_dependencies()
    head = git("rev-parse", "--short=10", "HEAD").strip()
    rows = campaigns()
    lines = [
        f"Executions on the fuzzed code as at {head}, summed over the clean campaigns",
        "whose fuzzed paths are the same there (`python3 Fuzz/campaign-totals.py`):",
        "",
        "| target | executions | campaigns | goal |",
        "|---|---|---|---|",
    ]
    for target in PROPERTY_FILES:
        paths = fuzzed_paths(target, modules)
        counted = [(commit, runs) for commit, name, runs, result in rows
                   if name == target and result.startswith("clean") and unchanged_since(commit, paths)]
        total = sum(runs for _, runs in counted)
        status = "met" if total >= GOAL else f"{GOAL - total:,} to go"
        lines.append(f"| {target} | {total:,} | {len(counted)} | 10^7: {status} |")
    return "\n".join(lines)


def main():
    text = table()
    print(text)
    if "--write" in sys.argv[1:]:
        with open(LEDGER) as ledger:
            content = ledger.read()
        block = f"{BEGIN}\n{text}\n{END}"
        if BEGIN in content and END in content:
            before, rest = content.split(BEGIN, 1)
            content = before + block + rest.split(END, 1)[1]
        else:
            marker = "\n| date |"
            index = content.find(marker)
            if index < 0:
                sys.exit("CAMPAIGNS.md has no ledger table")
            content = content[:index] + "\n" + block + "\n" + content[index:]
        with open(LEDGER, "w") as ledger:
            ledger.write(content)


if __name__ == "__main__":
    main()
