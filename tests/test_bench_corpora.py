"""benchmarks/corpora.py: the pinned corpora's fetch ends in one line when git cannot fetch (no network,
a mirror without the pinned commit), never in a traceback, and leaves no half-made checkout behind."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import corpora


def test_a_mirror_without_the_pinned_commit_ends_in_one_line(tmp_path):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=mirror, check=True)
    with pytest.raises(SystemExit) as ended:
        corpora.fetch("HeCBench", tmp_path / "cache", str(mirror))
    said = str(ended.value)
    assert said.startswith("git fetch failed (") and "\n" not in said and "--from NAME=GIT_MIRROR" in said
    assert not any(p.name.startswith("HeCBench-") for p in (tmp_path / "cache").iterdir())
