"""The lint findings two versions give over the same files, compared: what a speed change altered.

    cudaperf lint DIRS --resources estimate --format json --exit-zero --extend-select CP5 > before.json
    (the other version)                                                                    > after.json
    python benchmarks/findings_diff.py before.json after.json

Findings and notes are compared as multisets of their fields (key order ignored), so a report
that only reorders them compares equal.  Prints the counts, then each finding or note only one
side has, by file and line; exits 1 when they differ.  docs/performance.md explains every change
a speed change brought.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter


def _items(doc: dict, key: str) -> Counter:
    return Counter(json.dumps(item, sort_keys=True) for item in doc.get(key, []))


def _line(item: str) -> str:
    f = json.loads(item)
    where = f"{f['path'].split('/corpora/')[-1]}:{f['line']}:{f.get('column', '')}"
    return f"{where} {f.get('code', '')} {f.get('kernel', '')}: {f['message']}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    ns = parser.parse_args()
    with open(ns.before) as a, open(ns.after) as b:
        before, after = json.load(a), json.load(b)
    differ = False
    for key in ("findings", "notes"):
        old, new = _items(before, key), _items(after, key)
        lost, found = old - new, new - old
        print(f"{key}: {sum(old.values())} before, {sum(new.values())} after; {sum(lost.values())} only before, "
              f"{sum(found.values())} only after")
        changed = sorted([(_line(i), "-") for i in lost.elements()] + [(_line(i), "+") for i in found.elements()])
        for text, side in changed:
            print(f"  {side} {text}")
        differ = differ or bool(changed)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
