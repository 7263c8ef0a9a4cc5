"""The task dataset (issue 8): the recipe's counts and formats, the C references, nvcc on a sample,
the CPU emulator, the measuring pipeline's dry run, and the committed H200 measurements."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from cudaperf.rewards.execution import formats, harness, spec
from cudaperf.rewards.execution.compile import compile_c
from cudaperf.rl.dataset import compilecheck, emulate, features, generate, load

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tasks():
    return list(generate.all_tasks())


def one_per_family(tasks, kind):
    seen, picked = set(), []
    for t in tasks:
        if t.kind == kind and t.family not in seen:
            seen.add(t.family)
            picked.append(t)
    return picked


def test_counts(tasks):
    assert len(tasks) >= 1000
    assert len({t.task_id for t in tasks}) == len(tasks)
    assert len({t.family for t in tasks}) == 12
    kinds = Counter(t.kind for t in tasks)
    assert kinds["c2cuda"] >= 400 and kinds["torch2cuda"] >= 500
    for t in tasks:
        assert len(t.configs) >= 3 and len(t.implementations) >= 3, t.task_id
        assert len({i.impl_id for i in t.implementations}) == len(t.implementations)
        assert all(i.tags for i in t.implementations)


def test_every_source_is_the_engines_format(tasks):
    """Each implementation is one extern "C" kernel with a launch spec the engine parses; each task
    loads as the engine's task of its kind."""
    for t in tasks:
        kind = "c" if t.kind == "c2cuda" else "torch"
        task = formats.task_from_source(t.reference, kind, t.harness)
        if kind == "c":
            assert len(task.harness.configs) == len(t.configs)
        for impl in t.implementations:
            candidate = formats.candidate_from_source(impl.source, "cuda")
            assert candidate.spec is not None, (t.task_id, impl.impl_id, candidate.spec_error)
            assert candidate.spec.kernels == [impl.kernel]
            assert emulate.parameters(impl.source)[0] == impl.kernel


def test_records_load_with_hf_datasets(tmp_path):
    datasets = pytest.importorskip("datasets")
    path = tmp_path / "tasks.jsonl"
    assert generate.write_tasks(path, ["pooling", "gather"]) == 34
    ds = datasets.load_dataset("json", data_files=str(path), split="train", cache_dir=str(tmp_path / "cache"))
    assert ds.num_rows == 34
    row = ds[ds.num_rows - 1]
    assert row["schema"] == "cudaperf.dataset/1" and row["family"] == "pooling" and row["kind"] == "torch2cuda"
    assert len(row["configs"]) == 3 and json.loads(row["configs"][2]["sizes"])["channels"] == 64
    assert {"impl_id", "tags", "source", "kernel", "note"} <= set(row["implementations"][0])
    measured = load.hf_dataset()
    assert measured.num_rows == 12213 and "time_ms" in measured.column_names


def test_c_references_run_through_cc(tasks):
    for t in one_per_family(tasks, "c2cuda"):
        h = harness.parse_harness(t.harness)
        library = compile_c(t.reference)
        assert library.ok, library.log
        values = harness.make_inputs(h, dict(t.check_sizes), seed=3)
        after = harness.call_reference(library.path, h, values)
        for out in h.outputs:
            got = after[out.name]
            assert np.all(np.isfinite(got)), t.task_id
            assert np.any(got != values[out.name]) or out.init[0] == "zeros", t.task_id  # the function wrote it


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")
@pytest.mark.slow
def test_a_sample_compiles_with_nvcc(tasks):
    sample = one_per_family(tasks, "torch2cuda") + one_per_family(tasks, "c2cuda")
    sources = [i.source for t in sample for i in t.implementations]
    assert len(sources) > 80
    assert compilecheck.failures(sources, batch=len(sources)) == {}


@pytest.mark.slow
def test_compile_check_isolates_a_broken_source(tasks):
    if shutil.which("nvcc") is None:
        pytest.skip("needs nvcc")
    good = [i.source for i in tasks[0].implementations]
    broken = good[1].replace("out[i] = st(", "out[i] = undefined_name + st(", 1)
    assert compilecheck.failures([good[0], broken, good[2]], batch=3).keys() == {1}


@pytest.mark.torch
def test_emulator_passes_real_tasks_and_catches_a_wrong_kernel(tasks, tmp_path):
    pytest.importorskip("torch")  # the torch task's reference runs on CPU tensors
    by_id = {t.task_id: t for t in tasks}
    for task_id in ("softmax/log_softmax-medium/f16/torch", "scan/cumsum_reverse-narrow/f64/c"):
        results = emulate.check_task(by_id[task_id], tmp_path)
        assert [r.ok for r in results] == [True] * 4, results
    task = by_id["reduction/max-rows-narrow/f32/c"]
    impl = task.implementations[2]    # warp_row: drop the last butterfly step
    wrong = replace(impl, source=impl.source.replace("o = 16; o > 0;", "o = 16; o > 1;"))
    assert wrong.source != impl.source
    results = emulate.check_task(replace(task, implementations=(task.implementations[0], wrong)), tmp_path)
    assert results[0].ok and not results[1].ok and "outside tolerance" in results[1].message


@pytest.mark.slow
@pytest.mark.torch
def test_measure_dry_run(tmp_path):
    """The GPU pipeline end to end without a GPU: emulator, CPU tensors, the check configuration."""
    pytest.importorskip("torch")
    env = {**os.environ, "CUDAPERF_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "cudaperf.rl.dataset.measure", "--dry-run", "--families", "pooling",
                           "--limit", "2", "--jobs", "1", "--seed", "5", "--out", str(tmp_path)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    records = [json.loads(line) for line in (tmp_path / "records.jsonl").read_text().splitlines()]
    assert len(records) == 6 and {r["status"] for r in records} == {"correct"}
    assert all(r["verified"] and r["time_ms"] > 0 for r in records)
    assert json.loads((tmp_path / "summary.json").read_text())["tasks"] == 2


def test_launch_of_a_configuration(tasks):
    by_id = {t.task_id: t for t in tasks}
    t = by_id["transpose/transpose-batched/f16/torch"]
    got = features.launch(t, t.implementations[2], t.configs[1]["sizes"])   # (32, 1024, 512)
    assert got == {"grid": (16, 32, 32), "block": (32, 8, 1), "dynamic_smem": 0, "args": {"rows": 1024, "cols": 512}}
    t = by_id["gather/scatter_add1d/f32/torch"]
    assert features.launch(t, t.implementations[0], t.configs[0]["sizes"])["args"] == {"N": 1 << 20}


def test_committed_measurements_cover_the_recipe(tasks):
    rows = list(load.read_jsonl(load.DEFAULT / load.MEASUREMENTS))
    defined = {(t.task_id, i.impl_id, c["config_id"]) for t in tasks for i in t.implementations for c in t.configs}
    assert {(r["task_id"], r["impl_id"], r["config_id"]) for r in rows} == defined
    assert {r["device"] for r in rows} == {"NVIDIA H200 (sm_90, driver 580.159.04)"}
    device = json.loads((load.DEFAULT / load.DEVICE).read_text())
    assert device["name"] == "NVIDIA H200" and device["compute_capability"] == "9.0"
    verified = [r for r in rows if r["verified"]]
    assert len(verified) == 12200
    assert all(r["time_ms"] > 0 and r["trials"] >= 3 and r["time_min_ms"] <= r["time_ms"] <= r["time_max_ms"]
               for r in verified)
    per_group = defaultdict(int)
    for r in verified:
        per_group[(r["task_id"], r["config_id"])] += 1
    # 3,024 groups; the three float16 cumsum tasks lose their large configuration (the half range overflows)
    assert len(per_group) == sum(n >= 3 for n in per_group.values()) == 3021


def test_features_join_every_verified_measurement():
    items = load.samples()
    assert len(items) == 12200
    assert len(load.groups(items)) == 3021
    assert all(s.inputs["threads"] > 0 and s.inputs["dram_bytes"] >= 0 for s in items)


def test_spec_expressions_never_leave_a_size_unbound(tasks):
    for t in tasks:
        if t.kind != "torch2cuda":
            continue
        launch_spec = spec.parse_spec(spec.embedded_spec(t.implementations[0].source))
        names = set(launch_spec.inputs) | set(launch_spec.init)
        launch_spec.check_names(names)
