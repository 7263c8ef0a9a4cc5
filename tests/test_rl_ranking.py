"""The pairwise ranker (issue 8): the prefer() API, the packaged model, the held-out-family figures
published in docs/ranking.md reproduced from the committed data, `cudaperf rank`, the pairs export."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cudaperf.analysis import Options, analyze_file
from cudaperf.cli import main
from cudaperf.rl.dataset import load, pairs
from cudaperf.rl.ranking import Ranker, describe

ROOT = Path(__file__).resolve().parents[1]
TRANSPOSE = ROOT / "examples" / "transpose.cu"


@pytest.fixture(scope="module")
def transposes() -> dict[str, dict]:
    report = analyze_file(TRANSPOSE, Options(grid=(128, 128, 1), block=(32, 8, 1), args={"n": 4096}))
    return {k.to_json()["name"]: k.to_json() for k in report.kernels}


def test_prefer_is_a_probability_and_antisymmetric(transposes):
    ranker = Ranker.default()
    a, b = transposes["transpose_padded"], transposes["transpose_naive"]
    p = ranker.prefer(a, b)
    assert 0.0 < p < 1.0
    assert p + ranker.prefer(b, a) == pytest.approx(1.0)
    assert ranker.prefer(a, a) == pytest.approx(0.5)


def test_default_model_orders_the_transposes(transposes):
    """Padded tile (no bank conflicts) > conflicting tile > strided writes, as measured on the H200."""
    ranker = Ranker.default()
    names = ["transpose_naive", "transpose_shared", "transpose_padded"]
    order = ranker.order([transposes[n] for n in names])
    assert [names[i] for i in order] == ["transpose_padded", "transpose_shared", "transpose_naive"]
    assert ranker.prefer(transposes["transpose_padded"], transposes["transpose_naive"]) > 0.8


def test_describe_reads_launch_totals(transposes):
    d = describe(transposes["transpose_naive"])
    assert d["threads"] == 128 * 128 * 256 and d["block_threads"] == 256
    assert d["gld_requests"] == pytest.approx(4 * 128 * 128 * 8)    # 4 loads per thread, 8 warps per block
    assert d["gst_sectors"] == pytest.approx(32 * d["gst_requests"])  # writes strided by n: a sector per lane


def test_inference_needs_numpy_only():
    code = ("import sys; from cudaperf.rl.ranking import Ranker; Ranker.default(); import cudaperf.rl.dataset.load; "
            "print(sorted(m for m in ('sklearn', 'torch', 'datasets', 'scipy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.strip() == "[]"


def _published() -> dict[str, list[str]]:
    """The held-out-family table's rows: 8 cells, a count second, in its own section of the docs."""
    text = (ROOT / "docs" / "ranking.md").read_text()
    text = text[text.index("## How well it ranks, on task families it never saw"):]
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 8 and re.fullmatch(r"\d+", cells[1] or "x"):
            rows[cells[0]] = cells[1:]
    return rows


@pytest.mark.slow
def test_held_out_figures_reproduce_from_the_committed_data():
    pytest.importorskip("scipy")
    from cudaperf.rl import rank_train

    table = rank_train.held_out(load.samples())
    published = _published()
    assert set(published) == set(table)
    for fam, row in table.items():
        assert rank_train.markdown({fam: row}).splitlines()[2].split("|")[2:-1] == \
            [f" {c} " for c in published[fam]], fam
    assert table["all (pooled)"]["accuracy_1.25"] >= 0.85


def test_packaged_model_is_the_one_the_data_trains():
    pytest.importorskip("scipy")
    from cudaperf.rl import rank_train

    trained = rank_train.fit(rank_train.all_samples())     # the kernel dataset and the model-style candidates
    default = Ranker.default()
    assert trained.names == default.names
    np.testing.assert_allclose(trained.weights, default.weights, rtol=1e-4, atol=1e-6)


def test_shrinkage_pulls_every_weight_but_the_totals_toward_zero():
    """`SHRINK` on the real training pairs: the total's weight is not shrunk (it grows, taking over what
    the other terms gave up), every other weight is no larger in size, and together they shrink."""
    pytest.importorskip("scipy")
    from cudaperf.rl import rank_train

    items = rank_train.all_samples()
    names, x = rank_train.matrix(items)
    shrunk, plain = rank_train.fit(items, names, x), rank_train.fit(items, names, x, shrink=0.0)
    total = names.index(rank_train.TOTAL)
    others = [i for i in range(len(names)) if i != total]
    assert abs(shrunk.weights[total]) > abs(plain.weights[total])
    assert all(abs(shrunk.weights[i]) <= abs(plain.weights[i]) + 1e-9 for i in others)
    assert np.abs(shrunk.weights[others]).sum() < 0.7 * np.abs(plain.weights[others]).sum()
    assert shrunk.model["trained_on"]["shrink"] == rank_train.SHRINK > 0 == plain.model["trained_on"]["shrink"]


def test_rank_cli_orders_kernels(capsys):
    assert main(["rank", str(TRANSPOSE), "--grid", "128,128", "--block", "32,8", "--arg", "n=4096",
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "cudaperf.rank/1"
    assert doc["kernels"][0]["kernel"].endswith(":transpose_padded")
    assert doc["kernels"][-1]["p_faster_than_next"] is None
    assert main(["rank", str(TRANSPOSE)]) == 0
    assert "1. " in capsys.readouterr().out
    assert main(["rank"]) == 2


def test_rank_cli_says_what_it_does_not_model(tmp_path, capsys):
    """Another --arch does not reprice kernels (the rates are the H200's), and --reference has no use
    for launch options: both said on stderr, not silently ignored."""
    assert main(["rank", str(TRANSPOSE)]) == 0
    assert "warning" not in capsys.readouterr().err
    assert main(["rank", str(TRANSPOSE), "--arch", "sm_89"]) == 0
    assert "--arch sm_89: kernel times are priced at the H200's measured rates" in capsys.readouterr().err
    assert main(["rank", "--reference", str(tmp_path / "nope.py"), str(TRANSPOSE), "--grid", "4", "-D", "N=2",
                 "--arch", "sm_80"]) == 2
    err = capsys.readouterr().err
    assert "rank --reference ignores --grid, -D:" in err and "--arch sm_80" in err and "nope.py: no such file" in err


@pytest.mark.slow
def test_rank_cli_retrains(tmp_path, capsys):
    pytest.importorskip("scipy")
    model = tmp_path / "model.json"
    assert main(["rank", "--train", str(load.DEFAULT), "-o", str(model)]) == 0
    assert "all (pooled)" in capsys.readouterr().out
    assert Ranker.load(model).names == Ranker.default().names
    assert main(["rank", str(TRANSPOSE), "--model", str(model)]) == 0


def test_contrastive_pairs(tmp_path):
    path = tmp_path / "pairs.jsonl"
    count = pairs.write(path, min_ratio=1.25)
    assert count > 10000
    first = json.loads(path.read_text().splitlines()[0])
    assert {"prompt", "chosen", "rejected"} <= set(first) and first["ratio"] >= 1.25
    assert first["chosen"] != first["rejected"] and "cudaperf:launch" in first["chosen"]
