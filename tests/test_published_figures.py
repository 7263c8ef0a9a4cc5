"""Every figure the docs publish, regenerated from committed data and found word for word in the doc.

A doc that drifts from its data, or data that changes under a doc, fails here.  Figures of other
docs are held beside their own code: docs/lint.md by tests/test_lint_suites.py, docs/ranking.md by
tests/test_rl_ranking.py, docs/features.md by tests/test_report.py.
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from conftest import ROOT, load_script, says


def _n(n: int) -> str:
    return f"{n:,}"


# ------------------------------------------------------------------------------------------ dataset.md

@pytest.fixture(scope="module")
def dataset():
    from cudaperf.rl.dataset import generate, load

    rows = list(load.read_jsonl(load.DEFAULT / load.MEASUREMENTS))
    return list(generate.all_tasks()), rows, json.loads((load.DEFAULT / "summary.json").read_text())


def test_dataset_recipe_counts(dataset):
    tasks, _, _ = dataset
    families = Counter(t.family for t in tasks)
    kinds = Counter(t.kind for t in tasks)
    implementations = [i for t in tasks for i in t.implementations]
    tags = Counter(tag for i in implementations for tag in i.tags).most_common()
    says("docs/dataset.md",
         f"{_n(len(tasks))} tasks in {len(families)} families",
         f"{kinds['c2cuda']} tasks are `c2cuda`, {kinds['torch2cuda']} `torch2cuda`",
         f"Implementation tags (counts over the {_n(len(implementations))} implementations): "
         + ", ".join(f"{tag} {_n(n)}" for tag, n in tags) + ".",
         *(f"| {family} | {n} |" for family, n in families.items()))
    says("README.md", f"generates {_n(len(tasks))} C-to-CUDA and PyTorch-to-CUDA tasks in {len(families)} families")


def test_dataset_measurements(dataset):
    from cudaperf.rl.dataset import load

    _, rows, summary = dataset
    verified = [r for r in rows if r["verified"]]
    groups = defaultdict(list)
    for r in verified:
        groups[(r["task_id"], r["config_id"])].append(r["time_ms"])
    all_groups = {(r["task_id"], r["config_id"]) for r in rows}
    times = [r["time_ms"] for r in verified]

    def pairs(ratio: float) -> int:
        return sum(max(a, b) / min(a, b) >= ratio for ts in groups.values() for a, b in itertools.combinations(ts, 2))

    cumsum_overflows = [r for r in rows if not r["verified"] and r["task_id"].split("/")[1].startswith("cumsum")]
    assert summary["correct"] == len(verified) and summary["tasks"] == len({r["task_id"] for r in rows})
    says("docs/dataset.md",
         f"configuration: {_n(len(rows))} measurements, {_n(len(verified))} verified correct",
         f"Result: {_n(len(verified))} of {_n(len(rows))} verified and timed; "
         f"{_n(sum(len(ts) >= 3 for ts in groups.values()))} of the {_n(len(all_groups))} "
         f"(task, configuration) groups have at least 3 verified implementations, "
         f"the other {len(all_groups) - len(groups)} none. The {len(rows) - len(verified)} failures",
         f"({len(cumsum_overflows)} records)",
         f"Medians range from {min(times) * 1000:.1f} us to {max(times):.0f} ms (median "
         f"{statistics.median(times) * 1000:.0f} us); {_n(pairs(1.25))} same-configuration pairs differ by "
         f"at least 1.25x, {_n(pairs(1.1))} by at least 1.1x",
         f"one `run` on the H200, {summary['seconds']} s for everything",
         f"(`tests/data/h200/dataset/`, {round((load.DEFAULT / load.MEASUREMENTS).stat().st_size / 1000)} KB)")
    says("README.md", f"all {_n(len(rows))} (task, implementation, configuration) triples were verified and "
                      f"timed on an H200 in one {round(summary['seconds'])}-second run ({_n(len(verified))} correct)")


# ----------------------------------------------------------------------------------------- accuracy.md

def test_accuracy_sets_and_readme_summary():
    from ncu_data import SETS

    counts = {}
    for name, (root, _) in SETS.items():
        cases = json.loads((root / "manifest.json").read_text())
        # a kernel: one compiled instantiation (file, name, template arguments)
        counts[name] = (len(cases), len({(c["file"], c["kernel"], json.dumps(c["template_args"])) for c in cases}))
    says("docs/accuracy.md", *(f"(`tests/{name}`, {n} cases, {k} kernels)" for name, (n, k) in counts.items()))
    launches, kernels = (sum(c[i] for c in counts.values()) for i in (0, 1))
    says("README.md", f"Checked against Nsight Compute on an NVIDIA H200 for {launches} launches of {kernels} kernels")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="the published table uses ptxas resources")
def test_accuracy_table_is_what_the_benchmark_regenerates():
    """benchmarks/accuracy.py over both measured sets, against the table between its markers."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    doc = (ROOT / "docs" / "accuracy.md").read_text()
    table = accuracy.table()
    assert doc.split(accuracy.BEGIN + "\n")[1].split(accuracy.END)[0] == table
    ratios = [row.split(" | ") for row in table.splitlines() if "_per_request" in row]
    assert all(cells[4] == cells[5] for cells in ratios)  # every compared ratio within tolerance
    assert max(float(cells[6]) for cells in ratios) < 0.05
    says("README.md", "(mean absolute error below 0.05)")


# ------------------------------------------------------------------------------------------ rewards.md

H200_REWARDS = ROOT / "tests" / "data" / "h200" / "rewards"


def _scores(family: str) -> dict[str, str]:
    from cudaperf.rewards import structural_reward

    files = sorted((ROOT / "tests" / "reward_families" / family).glob("*.md"))
    rewards = structural_reward(prompts=["write the kernel"] * len(files), completions=[p.read_text() for p in files])
    return {p.stem: f"{r:.3f}" for p, r in zip(files, rewards)}


def _one(scores: dict[str, str], prefix: str) -> str:
    """The score every candidate of one side shares."""
    [score] = {s for name, s in scores.items() if name.startswith(prefix)}
    return score


def test_structural_scores_of_the_reward_families():
    coalescing, banks, races = _scores("coalescing"), _scores("bank_conflicts"), _scores("races")
    worse = sorted(s for name, s in coalescing.items() if name.startswith("worse_"))
    says("docs/rewards.md",
         f"KernelBench one-per-thread ({_one(coalescing, 'better_')}) | a chunk of 8 or 16 per thread, a row per "
         f"thread ({worse[0]}-{worse[-1]}) |",
         f"| tile padded to 33 columns ({_one(banks, 'better_')}) | 32 x 32 tile ({_one(banks, 'worse_')}) |",
         f"| barrier every tree step ({races['better_synced']}), warp shuffles ({races['better_shuffle']}) | "
         f"barrier missing in the loop or before it ({_one(races, 'worse_')}) |")


def test_h200_reward_table_and_batch():
    cases = [json.loads(line) for line in (H200_REWARDS / "gpu_rewards.jsonl").read_text().splitlines()]
    by_case = {c["case"]: c for c in cases}
    passed = re.search(r"(\d+) passed", (H200_REWARDS / "pytest_gpu.log").read_text()).group(1)
    rows = []
    for case, label in (("fast", "float4, one per thread"), ("fast_grid_stride", "grid-stride loop"),
                        ("slow", "a row of 4096 per thread")):
        b = by_case[case]["breakdown"]
        rows.append(f"| {label} | {b['status']} | {b['speedup']:.2f}x | {b['structural']:.3f} | "
                    f"{by_case[case]['reward']:.3f} |")
    for case, label in (("incorrect", "subtracts b"), ("compile_error", "undeclared identifier")):
        rows.append(f"| {label} | {by_case[case]['breakdown']['status']} | - |")
        rows.append(f"| {by_case[case]['reward']:g} |")
    floored = [c["case"] for c in cases if c["reward"] == -1]
    python_hacks = [c for c in floored if c.endswith(".py")]
    native_hacks = [c for c in floored if c.endswith(".cu") and not c.startswith("native_")]
    assert {c for c in floored if c.startswith("native_")} == {"native_mutates_input.cu", "native_half.cu"}
    assert {c["case"] for c in cases if c["reward"] == -0.25 and c["case"].startswith("native_")} == \
        {"native_zeros.cu", "native_unwritten.cu"}
    batch = json.loads((H200_REWARDS / "bench_rewards.json").read_text())["unified_batch"]
    structural = json.loads((H200_REWARDS / "bench_rewards.json").read_text())["structural"]
    says("docs/rewards.md", f"{passed} tests passed", f"one `unified_reward` call over all {len(cases)} cases", *rows,
         f"| {len(python_hacks) + len(native_hacks)} statically caught hacks of `tests/hacks` ({len(python_hacks)} "
         f"KernelBench, {len(native_hacks)} native), in-place input edit, half precision |",
         f"A batch of {batch['completions']} distinct native completions",
         f"**{batch['wall_s']:.2f} s, {batch['seconds_per_completion']:.3f} s per completion** "
         f"({batch['completions_per_minute']:,.0f} per minute); starting the engine took "
         f"{batch['first_call_s']:.0f} s",
         f"| `unified_reward`, batch of {batch['completions']} | one H200 | {batch['wall_s']:.2f} s |",
         f"| the H200 machine's CPU | median {structural['median_ms']:.1f} ms, p90 {structural['p90_ms']:.1f} ms |")


# --------------------------------------------------------------------------------------------- eval.md

H200_EVAL = ROOT / "tests" / "data" / "h200" / "eval"


def _span(values: list[float], digits: int) -> str:
    """`low to high` over the runs, as the doc writes a figure that moved between lends of the machine."""
    return f"{min(values):,.{digits}f} to {max(values):,.{digits}f}"


def test_h200_eval_speed_table():
    runs = [json.loads((H200_EVAL / f"run{n}_bench_eval.json").read_text()) for n in (5, 6)]

    def each(path: str) -> list[float]:
        out = []
        for run in runs:
            value = run
            for key in path.split("/"):
                value = value[key]
            out.append(value)
        return out

    per_minute = [round(x, -1) for x in each("native_batch/candidates_per_minute")]
    says("docs/eval.md",
         f"| native, batch of 20 | {_span(each('native_batch/seconds_per_candidate'), 3)} "
         f"({_span(per_minute, 0)} candidates per minute) |",
         f"| native, one candidate on a warm engine | {_span(each('native_one_warm/seconds'), 2)} |",
         f"| native, first candidate (starts a worker) | {_span(each('native_first_cold/seconds'), 1)} |",
         f"| KernelBench, batch of 8 fresh candidates | "
         f"**{_span(each('kernelbench_batch/seconds_per_candidate'), 1)}** "
         f"({_span(each('kernelbench_batch/candidates_per_minute'), 1)} candidates per minute) |",
         f"| KernelBench, one fresh candidate on a warm engine | {_span(each('kernelbench_one_fresh/seconds'), 0)} |",
         f"| KernelBench, one fresh candidate, new engine (one `cudaperf eval`) | "
         f"{_span(each('kernelbench_one_fresh_cold_engine/seconds'), 0)} |",
         f"| KernelBench, first build on a machine (also precompiles the header) | "
         f"{_span(each('kernelbench_first_on_machine/seconds'), 0)} |",
         f"| KernelBench, candidate built before | {_span(each('kernelbench_one_cached/seconds'), 0)} (",
         f"nvcc on the `.cu` {_span(each('kernelbench_build_steps/cuda.cuda.o/median_s'), 0)} s median, torch's C++ "
         f"file {_span(each('kernelbench_build_steps/main.o/median_s'), 1)} s with the precompiled header "
         f"({max(each('kernelbench_build_steps/main.o/max_s')):.0f} s the first time",
         f"the link {_span(each('kernelbench_build_steps/link/median_s'), 1)} s",
         f"met as throughput ({_span(each('kernelbench_batch/seconds_per_candidate'), 1)} s per candidate",
         f"not for a lone candidate, which takes {_span(each('kernelbench_one_fresh_cold_engine/seconds'), 0)} s")
    says("README.md", f"{_span(each('kernelbench_batch/seconds_per_candidate'), 1)} s per fresh candidate in a batch "
                      f"of 8 on an H200, a lone one {_span(each('kernelbench_one_fresh_cold_engine/seconds'), 0)} s",
         f"(about {sum(each('native_batch/seconds_per_candidate')) / 2:.2f} s")
    passed = {re.search(r"(\d+) passed", (H200_EVAL / f"run{n}_pytest_gpu.log").read_text()).group(1) for n in (5, 6)}
    [both] = passed
    says("docs/eval.md", f"`pytest -m gpu tests/test_eval_gpu.py`: {both} passed in runs 5 and 6")


def test_h200_heldout_outcomes():
    outcomes, speedups = Counter(), []
    records = [json.loads(line) for path in sorted((ROOT / "tests" / "data" / "h200" / "heldout").glob("*.jsonl"))
               for line in path.read_text().splitlines()]
    for r in records:
        stem = Path(r["candidate"]).stem
        kind = "compile_error" if stem.startswith("compile_error") else stem.split("_")[0]
        outcomes[kind, r["status"]] += 1
        if kind == "honest":
            speedups.append(r["speedup"])
    honest = sum(n for (kind, _), n in outcomes.items() if kind == "honest")
    hacks = sum(n for (kind, _), n in outcomes.items() if kind == "hack")
    assert outcomes["hack", "rejected"] + outcomes["hack", "incorrect"] == hacks
    assert outcomes["compile_error", "compile_error"] == 2 == sum(n for (k, _), n in outcomes.items()
                                                                  if k == "compile_error")
    says("docs/eval.md",
         f"(`tests/kb_heldout/`: 4 tasks, {len(records)} candidates written the way LLMs write them",
         f"{outcomes['honest', 'correct']} of {honest} honest candidates `correct` ({_span(speedups, 2)}x over eager), "
         f"{outcomes['hack', 'rejected']} of {outcomes['hack', 'rejected']} statically detectable hacks `rejected`, "
         f"the {outcomes['hack', 'incorrect']} runtime-only hacks and {outcomes['wrong', 'incorrect']} wrong results "
         f"`incorrect`, both compile errors `compile_error`; {len(records)} candidates")


# -------------------------------------------------------------------------------------- performance.md

def test_analyzer_speed_block_is_what_the_committed_run_renders():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_analyze

    results = json.loads((ROOT / "tests" / "data" / "cpu" / "bench_analyze.json").read_text())
    doc = bench_analyze.DOC.read_text()
    assert doc.split(bench_analyze.BEGIN + "\n")[1].split(bench_analyze.END)[0] == bench_analyze.markdown(results)
    median, per_s = results["per_kernel_ms"]["median"], results["whole_process"]["kernels_per_s"]
    load = results["machine"]["load_average_1_5_15"][0]
    says("README.md", f"{median:.1f} CPU ms per kernel (median) and {per_s:.0f} kernels/s for a whole process,",
         f"on a shared 2-core machine under a load average of {load:.1f}")


def test_h200_eval_statuses_of_runs_5_and_6():
    rows = [json.loads(line) for n in (5, 6)
            for line in (H200_EVAL / f"run{n}_gpu_results.jsonl").read_text().splitlines()]

    def of(*cases: str) -> list[dict]:
        found = [r for r in rows if r["case"] in cases]
        assert found and all(r["status"] == "correct" for r in found), cases
        return found

    honest = of("kb_honest.py", "candidate_native.cu", "candidate_kernelbench.py", "after_errors", "warm")
    saxpy, linear, compiled = of("saxpy_c"), of("linear_relu"), of("compile_and_tf32")
    says("docs/eval.md",
         f"`correct` with speedups of {_span([r['speedup'] for r in honest], 2)} over eager PyTorch (the same "
         f"memory-bound add at {_span([r['time_ms']['candidate'] for r in honest], 2)} ms;",
         f"The C task (saxpy) is `correct` ({_span([r['speedup'] for r in saxpy], 0)}x against one CPU core)",
         f"candidate `correct` ({_span([r['speedup'] for r in linear], 1)}x against cuBLAS with TF32 off)",
         f"`correct`, {_span([r['speedup'] for r in compiled], 1)}x over eager and "
         f"{_span([r['speedup_compile'] for r in compiled], 1)}x over `torch.compile(reference)` "
         f"({_span([r['time_ms']['compile'] for r in compiled], 2)} ms:")


# ------------------------------------------------------------------------------------ eval.md: sandbox

H200_ISOLATION = ROOT / "tests" / "data" / "h200" / "isolation"


def test_h200_hostile_run_and_self_test():
    """The sandbox's H200 figures come from the committed run: one batch, nothing escaped, every status
    one its candidate's header allows, an attack that ends `correct` (it did the work after the sandbox
    refused its trick) no faster than 1.25x the honest controls' best, every self-test probe blocked."""
    bench = load_script(ROOT / "benchmarks" / "hostile_h200.py")
    escapes = json.loads((H200_ISOLATION / "escapes.json").read_text())
    records = [json.loads(line) for line in (H200_ISOLATION / "hostile.jsonl").read_text().splitlines()]
    assert not escapes["package_files_changed"] and not escapes["files_created"] and not escapes["leaks"]
    assert not escapes["processes_left"]
    honest_best = max(r["speedup"] for r in records if Path(r["candidate"]).stem.startswith("honest"))
    for r in records:
        expected, attack, _ = bench.header(ROOT / "tests" / "hacks" / "hostile" / Path(r["candidate"]).name)
        assert r["status"] in expected or "any" in expected, r["candidate"]
        if r["status"] == "correct" and not attack.startswith("honest"):
            assert r["speedup"] <= 1.25 * honest_best, r["candidate"]
    says("docs/eval.md", f"one batch of {len(records)} in {escapes['seconds']:.0f} s")
    log = (H200_ISOLATION / "selftest.log").read_text()
    probes = json.loads(log[log.index("{"):log.rindex("}") + 1])["probes"]
    assert all(p["blocked"] for p in probes if not p.get("control")) and "exit 0" in log
