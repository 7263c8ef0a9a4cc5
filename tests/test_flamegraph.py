"""benchmarks/flamegraph.py: py-spy's collapsed stacks merged by function, recursion folded, waiting
left out, small frames pruned (docs/flamegraph.svg is drawn with it)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import flamegraph

STACKS = """\
main (cli.py:3);analyse (analyzer.py:10);expr (lower.py:5);expr (lower.py:9);evaluate (symbolic.py:2) 6
main (cli.py:3);analyse (analyzer.py:10);expr (lower.py:5) 2
main (cli.py:3);analyse (analyzer.py:12);races (races.py:7) 1
main (cli.py:3);Thread.join (threading.py:1);Thread._wait_for_tstate_lock (threading.py:2) 50
main (cli.py:3);tiny (cli.py:9) 1
"""


def test_stacks_merge_by_function_fold_recursion_and_drop_waiting(tmp_path):
    raw = tmp_path / "prof.txt"
    raw.write_text(STACKS)
    stacks = flamegraph.read_stacks(raw, None)
    assert stacks == {("main (cli.py)", "analyse (analyzer.py)", "expr (lower.py)", "evaluate (symbolic.py)"): 6,
                      ("main (cli.py)", "analyse (analyzer.py)", "expr (lower.py)"): 2,
                      ("main (cli.py)", "analyse (analyzer.py)", "races (races.py)"): 1,
                      ("main (cli.py)", "tiny (cli.py)"): 1}
    top = flamegraph.tree(stacks)
    assert top["count"] == 10
    assert dict(flamegraph.widest(top, 3)) == {"main (cli.py)": 10, "analyse (analyzer.py)": 9, "expr (lower.py)": 8}
    assert flamegraph.read_stacks(raw, "analyse") == {
        ("analyse (analyzer.py)", "expr (lower.py)", "evaluate (symbolic.py)"): 6,
        ("analyse (analyzer.py)", "expr (lower.py)"): 2, ("analyse (analyzer.py)", "races (races.py)"): 1}


def test_frames_under_the_minimum_share_are_not_drawn(tmp_path):
    raw, out = tmp_path / "prof.txt", tmp_path / "graph.svg"
    raw.write_text(STACKS)
    assert flamegraph.main([str(raw), str(out), "--min", "15"]) == 0
    drawn = out.read_text()
    assert drawn.startswith("<svg") and "evaluate (symbolic.py): 60.0%" in drawn
    assert "races (races.py)" not in drawn and "tiny (cli.py)" not in drawn   # 10% each
