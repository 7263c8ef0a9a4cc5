"""Generated bug/clean twins of the classes issue 26 lists (tests/sync_twins): graph codes with a
barrier removed or an atomic replaced by a plain update, and small kernels of a verifier's
test-suite style.  Written while tuning the race and barrier analyses, so these are regression
checks, not a held-out measurement (benchmarks/score_sync_twins.py prints the table)."""

from __future__ import annotations

import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from score_sync_twins import score

# buggy twins flagged, per class, at least (of how many); no clean twin may be flagged
FLOORS = {"barrier": (68, 68), "atomic": (98, 106), "write-write": (9, 9), "unknown-offset": (6, 6),
          "divergent-barrier": (8, 8), "shared-accumulator": (8, 8)}


def test_twins_are_found_and_clean_twins_left_alone():
    results = score()
    for category, (floor, total) in FLOORS.items():
        buggy = [r for r in results if r["category"] == category and r["buggy"]]
        assert len(buggy) == total
        assert sum(r["flagged"] for r in buggy) >= floor, \
            [r["name"] for r in buggy if not r["flagged"]]
    assert [r["name"] for r in results if not r["buggy"] and r["flagged"]] == []
