"""Ranking whole KernelBench candidates at the task's shapes (issue 15): the wrapper read at one
call's sizes, the meta-device trace, `Ranker.rank_candidates` and `cudaperf rank --reference`
(unreadable candidates last, with reasons), the figures published in docs/ranking.md regenerated
from the committed H200 data, and the GRPO triage's selection."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cudaperf.cli import main
from cudaperf.costmodel.wrapper import bind, evaluate, wrappers
from cudaperf.rewards.triage import select, timed, untimed
from cudaperf.rl.dataset.styles import candidate

ROOT = Path(__file__).resolve().parents[1]

WRAPPER = r'''
#include <torch/extension.h>
#define TILE 16
__global__ void k1(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}
__global__ void k2(float* y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] *= 2.0f; }

torch::Tensor run(torch::Tensor x, int reps) {
    int rows = x.size(0), cols = x.size(-1);
    int n = x.numel();
    auto y = torch::zeros({rows, cols / 2}, x.options());
    const int threads = 256;
    int blocks = (n + threads - 1) / threads;
    k1<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    for (int r = 0; r < reps; ++r) {
        k2<<<blocks, TILE * TILE>>>(y.data_ptr<float>(), n);
    }
    return y;
}
'''

REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)


ROWS = 4096
COLS = 8192


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
'''

_RELU = r'''
#include <torch/extension.h>
__global__ void relu_kernel(const float* x, float* y, int rows, int cols) {{
    int r = {row};
    int c = {col};
    if (r < rows && c < cols) y[r * cols + c] = fmaxf(x[r * cols + c], 0.0f);
}}
torch::Tensor relu_cuda(torch::Tensor x) {{
    auto y = torch::empty_like(x);
    int rows = x.size(0);
    int cols = x.size(1);
    dim3 block(32, 8);
    dim3 grid({grid});
    relu_kernel<<<grid, block>>>(x.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
    return y;
}}
'''
_MODEL = '''class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.relu_cuda(x)
'''
# threadIdx.x along columns (coalesced) or along rows (a sector per lane)
COALESCED = candidate("relu_c", _RELU.format(row="blockIdx.y * blockDim.y + threadIdx.y",
                                             col="blockIdx.x * blockDim.x + threadIdx.x",
                                             grid="(cols + 31) / 32, (rows + 7) / 8"), ["relu_cuda"], _MODEL)
STRIDED = candidate("relu_s", _RELU.format(row="blockIdx.x * blockDim.x + threadIdx.x",
                                           col="blockIdx.y * blockDim.y + threadIdx.y",
                                           grid="(rows + 31) / 32, (cols + 7) / 8"), ["relu_cuda"], _MODEL)
NO_CUDA = "import torch\n\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n        return x.relu()\n"
BROKEN = "class ModelNew(:\n"
# a PYBIND11_MODULE beside functions=: two module definitions, the build fails on any machine; with a
# fallback (what CUDA-L1's solutions write) the torch path is what runs, without one nothing does
_BINDING = 'PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("relu_cuda", &relu_cuda); }\n'
_TWO_MODULES = COALESCED.replace("relu_cuda(x)", "relu_cuda(x) if ext is not None else x.clamp(min=0)").replace(
    '"""\n\ncpp_source', _BINDING + '"""\n\ncpp_source')
NO_BUILD_FALLBACK = _TWO_MODULES.replace("ext = load_inline(", "try:\n    ext = load_inline(").replace(
    "\n)\n\n\nclass", "\n)\nexcept RuntimeError:\n    ext = None\n\n\nclass")


def test_wrapper_is_read_at_the_call_sizes():
    w = wrappers(WRAPPER)["run"]
    bound = bind(WRAPPER, w, [[64, 512], 3])
    assert bound.sizes == {"rows": 64, "cols": 512, "n": 64 * 512, "threads": 256, "blocks": 128}
    assert bound.output == [64, 256]                      # torch::zeros({rows, cols / 2})
    assert bound.filled == 64 * 256                       # zeros: a fill kernel
    assert bound.launches == {"k1": 1, "k2": 3}           # the loop runs `reps` times
    assert "x.size(0)" not in bound.text and "= 64" in bound.text
    assert bind(WRAPPER, w, [[64, 512], None]).launches == {"k1": 1, "k2": 1}   # unknown trip count: once


def test_c_expressions():
    assert evaluate("(n + 255) / 256", {"n": 1000}) == 4            # integer division
    assert evaluate("std::min(4096, (n + 127) / 128)", {"n": 10**7}) == 4096
    assert evaluate("(long)n * 2", {"n": 3}) == 6
    assert evaluate("n > 0 ? n : 1", {"n": 3}) is None             # not evaluated: unknown
    assert evaluate("__import__('os')", {}) is None


@pytest.fixture(scope="module")
def ranked():
    pytest.importorskip("torch")   # the reference's get_inputs runs on torch's meta device
    from cudaperf.rl.ranking import Ranker

    return Ranker.default().rank_candidates(REFERENCE, [STRIDED, NO_CUDA, COALESCED, BROKEN, _TWO_MODULES,
                                                        NO_BUILD_FALLBACK],
                                            labels=["strided", "no_cuda", "coalesced", "broken", "no_build",
                                                    "no_build_fallback"])


def test_rank_candidates_at_the_task_shapes(ranked):
    by = {r["label"]: r for r in ranked}
    assert by["coalesced"]["rank"] < by["strided"]["rank"]
    top = by["coalesced"]
    assert top["sizes_inferred"]["relu_cuda"] == {"rows": 4096, "cols": 8192}
    launch = top["launches"][0]
    assert launch["grid"] == [256, 512, 1] and launch["block"] == [32, 8, 1] and launch["launch"] == "traced"
    assert top["seconds"] < by["strided"]["seconds"] and top["torch_only"] is None


def test_torch_only_candidates_are_ranked_by_their_torch_operators(ranked):
    """A torch rewrite, and a candidate whose extension cannot build and falls back to torch, are estimated
    as the reference is (bytes at DRAM rate, a launch and host time per operator), and say so."""
    by = {r["label"]: r for r in ranked}
    for label, why in (("no_cuda", "no CUDA"), ("no_build_fallback", "cannot build (PYBIND11_MODULE beside")):
        row = by[label]
        assert row["score"] is not None and why in row["torch_only"] and not row["launches"], label
        assert row["torch_ops"] and row["seconds"] == pytest.approx(2 * 4 * 4096 * 8192 / 4.0e12 + 3e-6, rel=1e-3)
    assert by["no_cuda"]["rank"] < by["strided"]["rank"]        # a relu at DRAM rate beats a sector per lane


def test_unreadable_candidates_come_last_with_a_reason(ranked):
    last = {r["label"]: r for r in ranked[-2:]}
    assert set(last) == {"no_build", "broken"}
    assert all(r["score"] is None and r["placed"] is None for r in last.values())
    assert "Error building extension" in last["no_build"]["reason"]
    assert "does not parse" in last["broken"]["reason"]


@pytest.mark.torch
def test_rank_cli_with_a_reference(tmp_path, capsys):
    pytest.importorskip("torch")
    ref = tmp_path / "ref.py"
    ref.write_text(REFERENCE)
    paths = []
    for name, code in (("strided.py", STRIDED), ("coalesced.py", COALESCED), ("plain.py", NO_CUDA)):
        (tmp_path / name).write_text(code)
        paths.append(str(tmp_path / name))
    assert main(["rank", "--reference", str(ref), *paths, str(tmp_path / "missing.py"), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    labels = [Path(c["label"]).name for c in doc["candidates"]]
    assert labels.index("coalesced.py") < labels.index("strided.py") and labels[-1] == "missing.py"
    assert main(["rank", "--reference", str(tmp_path / "nope.py"), paths[0]]) == 2
    (tmp_path / "bad_ref.py").write_text("x = (\n")
    assert main(["rank", "--reference", str(tmp_path / "bad_ref.py"), paths[0]]) == 2
    assert "bad_ref.py" in capsys.readouterr().err


def test_triage_selects_top_k_and_the_uncertain():
    scores = [-1.0, 2.0, None, 1.9, -5.0]
    assert select(scores, 1, uncertain_p=0.4) == {1, 3, 2}       # 3 is within reach of the best; 2 unknown
    assert select(scores, 1, uncertain_p=0.9) == {1, 2}
    assert select(scores, 5) == {0, 1, 2, 3, 4}


def test_triage_leaves_untimed_per_task_group_what_timed_does_not_keep():
    """`untimed` groups a batch by task object: each group of two or more KernelBench candidates loses
    what `timed` does not keep; a lone candidate is always timed."""
    pytest.importorskip("torch")
    from cudaperf.rewards.execution import load_candidate, load_task

    folder = ROOT / "tests" / "kb_llm" / "mse_loss"
    task = load_task(folder / "reference.py")
    group = [load_candidate(p) for p in sorted(folder.glob("honest_*.py"))[:3]]
    keep = timed(task.source, [c.source for c in group], 1, 1.0)
    assert 1 <= len(keep) < len(group)
    alone = load_task(folder / "reference.py")          # another task object: a group of one
    batch = [task] * len(group) + [alone]
    left = untimed(batch, [*group, group[0]], 1, 1.0)
    assert left == set(range(len(group))) - keep and len(group) not in left


@pytest.mark.slow      # 15 leave-one-family-out fits over 12,000 samples: about 30 s
def test_candidate_figures_reproduce_from_the_committed_data():
    pytest.importorskip("scipy")
    from cudaperf.rl import rank_train

    per_family, methods = rank_train.candidate_tables(rank_train.all_samples())
    assert rank_train.candidate_markdown(per_family, methods) in (ROOT / "docs" / "ranking.md").read_text()
    ranker = methods["ranker (held-out family)"]
    structural = methods["structural reward at the task's shapes"]
    assert ranker["accuracy_1.25"] >= 0.85
    # the structural reward at the task's shapes follows where the time goes (issue 27: 0.600 and 75.0%
    # before its speed component; these figures are the ones its speed_weight was chosen on)
    assert structural["spearman"] >= 0.8 and structural["accuracy_1.25"] >= 0.85
    for name in ("more CUDA lines", "fewer launches"):
        assert ranker["accuracy_1.25"] > methods[name]["accuracy_1.25"], name
    # the untrained time estimate now ties the weights on pairs; they still order groups better
    untrained = methods["untrained time estimate"]
    assert ranker["accuracy_1.25"] >= untrained["accuracy_1.25"]
    assert ranker["kendall_tau"] > untrained["kendall_tau"] and ranker["top1"] > untrained["top1"]


def test_rank_place_is_added_to_correct_results_only():
    from cudaperf.rewards.config import RewardBreakdown, RewardConfig
    from cudaperf.rewards.execution.result import ExecResult
    from cudaperf.rewards.scoring import _with_place

    config = RewardConfig(rank_weight=0.5)
    correct = RewardBreakdown(reward=1.0, status="correct", result=ExecResult(status="correct", correct=True))
    placed = _with_place(correct, 0.5, config)
    assert placed.reward == pytest.approx(1.25) and placed.components["rank_place"] == 0.5
    wrong = RewardBreakdown(reward=-0.25, status="incorrect", result=ExecResult(status="incorrect"))
    assert _with_place(wrong, 1.0, config).reward == -0.25
    assert _with_place(correct, None, config).reward == 1.0


@pytest.mark.torch
def test_structural_score_at_the_task_shapes():
    """Scored over the launches the wrapper makes at the reference's shapes: the coalesced mapping
    beats the strided one; an unreadable candidate gets None (the file-level score then applies)."""
    pytest.importorskip("torch")
    from cudaperf.rewards.config import RewardConfig
    from cudaperf.rewards.extract import extract
    from cudaperf.rewards.scoring import Scorer

    task = {"kind": "torch2cuda", "reference": REFERENCE}
    codes = [extract(f"```python\n{c}\n```") for c in (COALESCED, STRIDED, NO_CUDA)]
    coalesced, strided, plain = Scorer(RewardConfig(structural_at_shapes=True))._at_shapes([task] * 3, codes)
    assert coalesced.score > strided.score and coalesced.components["coalescing"] == pytest.approx(1.0)
    assert plain is None


@pytest.mark.torch
def test_a_candidate_whose_launches_cannot_be_followed_is_scored_at_parity_speed():
    """A launch through a function pointer naming the kernel is read by neither the wrapper interpreter nor
    the pattern reader: its file-level score stands beside a parity speed-up, on the scale of its traced
    neighbours (within 1 / (1 + speed_weight) of 0.5), not above them all as the file-level score alone
    would be (an untraceable wrapper earns nothing) nor last."""
    pytest.importorskip("torch")
    from cudaperf.rewards.config import RewardConfig
    from cudaperf.rewards.extract import extract
    from cudaperf.rewards.scoring import UNTRACED, Scorer
    from cudaperf.rewards.structural import score_kernels, score_untraced

    unfollowed = COALESCED.replace("relu_kernel<<<grid, block>>>",
                                   "void (*k)(const float*, float*, int, int) = relu_kernel;\n    k<<<grid, block>>>")
    assert unfollowed != COALESCED
    config = RewardConfig(structural_at_shapes=True)
    scorer = Scorer(config)
    codes = [extract(f"```python\n{c}\n```") for c in (COALESCED, unfollowed)]
    traced, untraced = scorer._at_shapes([{"kind": "torch2cuda", "reference": REFERENCE}] * 2, codes)
    assert untraced is UNTRACED and traced is not UNTRACED
    file_level = score_kernels(scorer._features(codes[1]), config)
    placed = score_untraced(file_level, config)
    assert file_level.score > 0.9 and placed.components["speed"] == 0.5
    assert abs(placed.score - 0.5) <= 1 / (1 + config.speed_weight) < file_level.score - placed.score


@pytest.mark.torch
def test_tracing_runs_candidates_in_a_bounded_child():
    """The trace executes untrusted candidate Python: its address space is capped and a candidate that
    never returns is killed at the time limit, with a one-line reason either way."""
    pytest.importorskip("torch")
    from cudaperf.costmodel import trace

    hog = "buffer = bytearray(10 << 30)\n" + NO_CUDA   # under this machine's memory, over the cap
    record = trace.run(REFERENCE, [hog])["candidates"][0]
    assert record["error"].startswith("MemoryError")
    with pytest.raises(RuntimeError, match="took more than 20 s"):
        trace.run(REFERENCE, ["while True:\n    pass\n"], timeout=20)


_MM_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a, b):
        return a @ b


def get_inputs():
    return [torch.randn(4096, 4096), torch.randn(4096, 4096)]


def get_init_inputs():
    return []
'''
_AUTOCAST = '''import torch
class ModelNew(torch.nn.Module):
    @torch.cuda.amp.autocast()
    def forward(self, a, b):
        return a @ b
'''
_TF32 = '''import torch
torch.backends.cuda.matmul.allow_tf32 = True
class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        with torch.autocast("cuda", enabled=False):
            return a @ b
'''
_GRAPH = '''import torch
class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.graph = None

    def forward(self, a, b):
        if self.graph is None:
            self.a, self.b = a.clone(), b.clone()
            self.graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(self.graph):
                self.out = torch.relu(self.a @ self.b) + 1
        self.a.copy_(a)
        self.b.copy_(b)
        self.graph.replay()
        return self.out
'''


@pytest.mark.torch
def test_torch_gemms_are_priced_at_the_precision_they_run():
    """CUDA autocast (disabled by a CPU build) and torch's TF32 flags decide a GEMM's rate; a flag one
    candidate sets is not the next one's; a CUDA graph's replayed operators cost no host time each."""
    pytest.importorskip("torch")
    from cudaperf.costmodel.candidates import estimate
    from cudaperf.costmodel.torch_ops import PRECISION, TORCH

    fp32 = 2 * 4096.0 ** 3 / TORCH["gemm_flops"]
    amp, tf32, graph = estimate(_MM_REFERENCE, [_AUTOCAST, _TF32, _GRAPH])
    assert amp.reference_seconds == pytest.approx(fp32 + 3e-6, rel=1e-3)
    assert [o.get("precision") for o in amp.torch_ops] == ["half"]
    assert amp.terms["flops"] == pytest.approx(fp32 / PRECISION["gemm"]["half"])
    assert tf32.terms["flops"] == pytest.approx(fp32 / PRECISION["gemm"]["tf32"])
    ops = [(o["op"], o.get("precision"), o.get("graph", False)) for o in graph.torch_ops]
    assert ("mm", "fp32", True) in ops and ("graph_replay", None, False) in ops
    # two copies and the replay (at the replay's own price), and the model's own call
    assert graph.terms["host"] == pytest.approx(2 * TORCH["host_s"] + TORCH["graph_replay_host_s"]
                                                + TORCH["module_host_s"])


_SMALL_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        return self.fc(x.unsqueeze(0)).squeeze(0) + 1


def get_inputs():
    return [torch.randn(4, 8)]
'''

_SMALL_REWRITE = '''import torch
import torch.nn.functional as F


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w, self.b = torch.nn.Parameter(torch.randn(8, 8)), torch.nn.Parameter(torch.randn(8))

    def forward(self, x):
        return torch.addmm(self.b, x, self.w.t()) + 1
'''


@pytest.mark.torch
def test_calls_that_launch_nothing_still_cost_the_host():
    """At a tiny shape the GPU waits on Python: a rewrite that runs the reference's kernels without its
    submodule call and its views is estimated faster by what those calls cost."""
    pytest.importorskip("torch")
    from cudaperf.costmodel.candidates import estimate
    from cudaperf.costmodel.torch_ops import TORCH

    (rewrite,) = estimate(_SMALL_REFERENCE, [_SMALL_REWRITE])
    assert rewrite.reference_seconds - rewrite.seconds >= TORCH["module_host_s"] + 2 * TORCH["view_host_s"] - 1e-12


_WRAPPED_REWRITE = _SMALL_REWRITE.replace("class ModelNew", '''class AddOne(torch.autograd.Function):
    @staticmethod
    def forward(ctx, y):
        return y + 1

    @staticmethod
    def backward(ctx, grad):
        return grad


class ModelNew''').replace("return torch.addmm(self.b, x, self.w.t()) + 1",
                             "return AddOne.apply(torch.addmm(self.b, x, self.w.t()))")


@pytest.mark.torch
def test_an_autograd_function_costs_the_host_its_wrapping():
    """The same operators wrapped in an `autograd.Function`: more host time, by what the H200 measured
    the wrapping to cost, and nothing else."""
    pytest.importorskip("torch")
    from cudaperf.costmodel.candidates import estimate
    from cudaperf.costmodel.torch_ops import TORCH

    plain, wrapped = estimate(_SMALL_REFERENCE, [_SMALL_REWRITE, _WRAPPED_REWRITE])
    assert [op["op"] for op in wrapped.torch_ops] == [op["op"] for op in plain.torch_ops]
    assert wrapped.terms["host"] - plain.terms["host"] == pytest.approx(TORCH["function_host_s"])


def _host_call_us(run: str) -> dict[str, float]:
    """Microseconds per call of each case one run of benchmarks/host_calls_h200.py timed on the H200."""
    rows = map(json.loads, (ROOT / "tests/data/h200/host_calls" / run).read_text().splitlines())
    return {r["case"]: r["us"] for r in rows}


def test_host_call_prices_follow_the_h200_measurements():
    """A CuPy launch costs what an extension call does; a tensor handed to CuPy and an `autograd.Function`
    wrapping cost what the H200 measured (tests/data/h200/host_calls), scaled as `host_s` is to the bare
    extension call."""
    from cudaperf.costmodel.torch_ops import TORCH

    us = _host_call_us("host_calls.jsonl")
    call = us["load_inline extension call, 4 tensors"]
    assert us["cupy launch, 4 pointers as ints"] == pytest.approx(call, rel=0.1)
    scale = TORCH["host_s"] / call
    wrapping = us["that call through an autograd.Function"] - us["load_inline extension call returning a tensor"]
    for price, measured in (("cupy_asarray_host_s", us["cp.asarray of one tensor"]),
                            ("cupy_dlpack_host_s", us["cp.from_dlpack of one tensor"]), ("function_host_s", wrapping)):
        assert TORCH[price] == pytest.approx(measured * scale, rel=0.05), price


def test_context_manager_prices_follow_the_second_h200_run():
    """Entering `cudnn.flags`, autocast, a stream or a grad mode costs what the H200's second run measured
    (host_calls_run2.jsonl), scaled as `host_s` is to that run's own bare extension call."""
    from cudaperf.costmodel.torch_ops import TORCH

    us = _host_call_us("host_calls_run2.jsonl")
    scale = TORCH["host_s"] / us["load_inline extension call, 4 tensors"]
    for price, case in (("cudnn_flags_host_s", "with torch.backends.cudnn.flags(enabled, benchmark, deterministic)"),
                        ("autocast_host_s", "with torch.cuda.amp.autocast()"),
                        ("stream_host_s", "with torch.cuda.stream(side stream)"),
                        ("grad_mode_host_s", "with torch.no_grad()")):
        assert TORCH[price] == pytest.approx(us[case] * scale, rel=0.02), price


def test_a_graph_replay_costs_the_host_what_the_third_h200_run_measured():
    """A CUDA graph's replay costs the host about half an eager operator (host_calls_run3.jsonl), and the
    time model prices the replay, not the operators the graph runs, scaled as `host_s` is to that run's
    bare extension call."""
    from cudaperf.costmodel.torch_ops import TORCH, op_host

    us = _host_call_us("host_calls_run3.jsonl")
    replay = us["CUDA graph replay, 1 captured kernel"]
    assert replay < 0.6 * us["torch operator (add_ of a scalar)"]
    assert TORCH["graph_replay_host_s"] == pytest.approx(
        replay * TORCH["host_s"] / us["load_inline extension call, 4 tensors"], rel=0.02)
    assert op_host({"op": "graph_replay"}) == TORCH["graph_replay_host_s"] < op_host({"op": "add"})


_IN_CONTEXTS = _SMALL_REWRITE.replace("    def forward(self, x):\n        return", '''    @torch.no_grad()
    def forward(self, x):
        with torch.backends.cudnn.flags(enabled=True, benchmark=True), torch.cuda.amp.autocast(dtype=torch.float32):
            with torch.cuda.stream(torch.cuda.Stream()):
                return''')


@pytest.mark.torch
def test_context_managers_entered_per_call_cost_the_host():
    """The same operators under `cudnn.flags`, autocast, a side stream and a `no_grad` decorator (what
    CUDA-L1's cuDNN baselines and many solutions wrap their forward in): more host time by one entry of
    each, and the tracer's own `no_grad` around the call is not the solution's."""
    pytest.importorskip("torch")
    from cudaperf.costmodel.candidates import estimate
    from cudaperf.costmodel.torch_ops import TORCH

    plain, wrapped = estimate(_SMALL_REFERENCE, [_SMALL_REWRITE, _IN_CONTEXTS])
    assert [op["op"] for op in wrapped.torch_ops] == [op["op"] for op in plain.torch_ops]
    entries = sum(TORCH[p] for p in ("cudnn_flags_host_s", "autocast_host_s", "stream_host_s", "grad_mode_host_s"))
    assert wrapped.terms["host"] - plain.terms["host"] == pytest.approx(entries)
    # without contexts: its operators, its module call and its one view (`.t()`), no grad mode of the tracer's
    assert plain.terms["host"] == pytest.approx(TORCH["host_s"] * len(plain.torch_ops) + TORCH["module_host_s"]
                                                + TORCH["view_host_s"])


_CONSTANT = '''import torch


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.out = torch.ones(4, 8)

    def forward(self, x):
        return self.out
'''


@pytest.mark.torch
def test_a_solution_that_runs_nothing_costs_its_host_calls():
    """A forward returning a constant (or a cached or lazy result) launches nothing: it is estimated at
    its Python calls, faster than a reference that runs kernels, and marked as a guess, not placed last."""
    pytest.importorskip("torch")
    from cudaperf.costmodel.candidates import estimate
    from cudaperf.costmodel.torch_ops import TORCH

    (constant,) = estimate(_SMALL_REFERENCE, [_CONSTANT])
    assert constant.seconds == pytest.approx(TORCH["module_host_s"])
    assert constant.seconds < constant.reference_seconds and constant.guess and constant.reason is None



_LSTM_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(8, 16, 2, batch_first=True)

    def forward(self, x):
        return self.lstm(x)[0][:, -1, :]


def get_inputs():
    return [torch.randn(3, 5, 8)]
'''


@pytest.mark.torch
def test_a_recurrent_layer_is_one_cudnn_call_with_serial_steps():
    """nn.LSTM runs as cuDNN runs it, one call over its layers and steps, not as meta's per-step
    decomposition; its steps (5 per layer, 2 layers) run one after another, launched from the host."""
    pytest.importorskip("torch")
    from cudaperf.costmodel import trace
    from cudaperf.costmodel.candidates import reference_terms
    from cudaperf.costmodel.torch_ops import TORCH

    traced = trace.run(_LSTM_REFERENCE, [])
    rnn = [op for op in traced["reference_ops"] if op["op"] == "cudnn_rnn"]
    assert len(rnn) == 1 and len(traced["reference_ops"]) <= 3
    assert rnn[0]["steps"] == 10
    assert rnn[0]["flops"] == 2 * 4 * 16 * (8 + 16) * 3 * 5 + 2 * 4 * 16 * (16 + 16) * 3 * 5
    terms = reference_terms(traced["reference_ops"], traced["reference_host"])
    assert terms["host"] >= 10 * TORCH["rnn_step_host_s"]
    assert terms["latency"] == pytest.approx(10 * TORCH["rnn_step_s"])


def _profiled_row_ops() -> list[tuple[str, str, list, float, bool]]:
    """(task, aten operator, input shapes, measured kernel microseconds, whether torch ran its spatial softmax:
    a dimension other than the last) of every layer norm and softmax the references ran in the committed
    H200 profile (benchmarks/torch_ops_h200.py)."""
    import gzip

    def walk(nodes):
        for n in nodes:
            yield n
            yield from walk(n.get("c", []))

    def kernel_us(n) -> float:
        return sum(k[1] for k in n["k"]) + sum(kernel_us(c) for c in n.get("c", []))

    found = []
    with gzip.open(Path(__file__).parent / "data/h200/cuda_l1/torch_ops.jsonl.gz", "rt") as stream:
        for row in map(json.loads, stream):
            if row["solution"] == "reference" and not row["error"]:
                found += [(row["task"], n["n"][6:], n["s"], kernel_us(n), any("Spatial" in k[0] for k in n["k"]))
                          for n in walk(row["ops"]) if n["n"] in ("aten::native_layer_norm", "aten::_softmax")]
    return found


def _op_costs(run) -> list[dict]:
    """What the tracer records of each aten operator `run()` dispatches (`trace._op_cost`, named as the
    tracer names them): the time model's input for one torch operator."""
    from torch.utils._python_dispatch import TorchDispatchMode

    from cudaperf.costmodel.trace import _op_cost

    ops: list[dict] = []

    class Record(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            ops.append(_op_cost(func.overloadpacket.__name__.rstrip("_"), (args, kwargs or {}), out))
            return out

    with Record():
        run()
    return ops


@pytest.mark.torch
def test_convolutions_with_cudnn_off_are_priced_as_torchs_loop_over_the_batch():
    """`cudnn.flags(benchmark=True)` leaves cuDNN off (its `enabled` defaults to False): torch then loops
    over the batch, an im2col and a GEMM per element.  48 shapes timed both ways on the H200
    (tests/data/h200/native_conv, chosen without looking at any task's), traced on meta tensors and
    priced: the loop within a median 1.13x of its time, at most 2.1x, its kernels counted as the profiler
    counted them (the median within 5%; where cuBLAS split a GEMM in two, 0.66x), and every one priced
    slower than the same convolution through cuDNN."""
    pytest.importorskip("torch")
    import math
    import statistics
    import sys
    from functools import partial

    import torch

    from cudaperf.costmodel.torch_ops import op_terms

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from native_conv_h200 import operator, shape

    rows = [json.loads(line) for line in
            (ROOT / "tests/data/h200/native_conv/native_conv.jsonl").read_text().splitlines()]
    errors, kernels = [], []
    for r in rows:
        layer, inputs = operator(shape(r), "meta")
        call = partial(layer, *inputs)
        with torch.no_grad(), torch.backends.cudnn.flags(benchmark=True):
            (native,) = [o for o in _op_costs(call) if o["flops"]]
        with torch.no_grad():
            (cudnn,) = [o for o in _op_costs(call) if o["flops"]]
        assert op_terms(cudnn)["total"] < op_terms(native)["total"], r
        errors.append(abs(math.log(op_terms(native)["total"] * 1e3 / r["native_ms"])))
        kernels.append(native["native_kernels"] / r["native_kernels"])
    assert len(errors) == 48 and math.exp(statistics.median(errors)) < 1.15 and math.exp(max(errors)) < 2.2
    assert abs(statistics.median(kernels) - 1.0) < 0.05 and min(kernels) > 0.6


@pytest.mark.torch
def test_row_kernels_are_priced_by_their_waves_of_row_blocks():
    """torch gives a layer norm's rows and a long softmax row a block each: 16 rows of 4M elements leave
    the H200 nearly idle (8.3 ms measured, 0.14 ms at DRAM rate) and 16.7M rows of 64 queue in waves
    (25 ms, 2.2 ms at DRAM rate).  Every layer norm and softmax the references ran on the H200 is
    priced within 2x of its measured kernel time (those over 5 us: below, the launch is the estimate)."""
    pytest.importorskip("torch")
    from functools import partial

    import torch
    import torch.nn.functional as F

    from cudaperf.costmodel.torch_ops import op_terms

    ratios = {}
    for task, name, shapes, measured_us, spatial in (r for r in _profiled_row_ops() if r[3] >= 5.0):
        x = torch.empty(shapes[0], device="meta")
        if name == "native_layer_norm":
            ops = _op_costs(partial(F.layer_norm, x, shapes[2] or shapes[3] or x.shape[-1:]))
        else:
            ops = _op_costs(partial(F.softmax, x, dim=1 if spatial else -1))
        (op,) = [o for o in ops if o["op"] == name]
        ratios[task, name, tuple(x.shape)] = op_terms(op)["total"] * 1e6 / measured_us
    assert len(ratios) >= 20
    off = {k: round(r, 2) for k, r in ratios.items() if not 0.5 <= r <= 2.0}
    assert not off
    assert ratios["L1_040", "native_layer_norm", (16, 64, 256, 256)] > 0.7


_SELF_TIMED = '''import time
import torch


class ModelNew(torch.nn.Module):
    """Times its variants on the first call and keeps the fastest, as CUDA-L1's L2_074 and L1_070 do."""
    def __init__(self):
        super().__init__()
        self.best = None

    def fp32(self, a, b):
        return a @ b

    def half(self, a, b):
        with torch.autocast("cuda", dtype=torch.float16):
            return a @ b

    def forward(self, a, b):
        if self.best is None:
            timings = {}
            for name in ("fp32", "half"):
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                getattr(self, name)(a, b)
                end.record()
                torch.cuda.synchronize()
                timings[name] = start.elapsed_time(end)
            began = time.perf_counter()
            self.fp32(a, b)
            wall = time.perf_counter() - began
            self.best = min(timings, key=timings.get) if wall > 1e-4 else "fp32"
        return getattr(self, self.best)(a, b)
'''


@pytest.mark.torch
def test_a_solution_timing_its_variants_keeps_the_one_the_model_prices_fastest():
    """CUDA events and the wall clocks read the estimated GPU time of what ran between them, so a solution
    that times its variants on its first call keeps the one the time model prices fastest (the half
    precision GEMM), not its first (before: every timing read 0 and it kept fp32)."""
    pytest.importorskip("torch")
    from cudaperf.costmodel.candidates import estimate

    (solution,) = estimate(_MM_REFERENCE, [_SELF_TIMED])
    assert [o.get("precision") for o in solution.torch_ops] == ["half"]
    assert solution.seconds < solution.reference_seconds / 5


def _profiled_operators() -> list[dict]:
    """Every torch operator CUDA-L1's references ran on the H200, as the tracer recorded it (`op`), with
    the kernel time the profile measured (`kernel_us`) and the task's half (`split`):
    tests/data/h200/cuda_l1/operators.jsonl.gz, benchmarks/cuda_l1_operators.py."""
    import gzip

    with gzip.open(Path(__file__).parent / "data/h200/cuda_l1/operators.jsonl.gz", "rt") as stream:
        return list(map(json.loads, stream))


def _median_log_error(rows) -> float:
    """The median |log(estimated / measured)| of profiled operators (`_profiled_operators`)."""
    import math
    import statistics

    from cudaperf.costmodel.torch_ops import op_terms

    return statistics.median(abs(math.log(op_terms(r["op"])["total"] * 1e6 / r["kernel_us"])) for r in rows)


def test_torch_s_pooling_kernels_are_priced_at_half_the_dram_rate():
    """torch's pooling kernels move their bytes at about half the DRAM rate on the H200 (the tuning
    half's 17 profiled pooling operators over 10 us: a median of 1.91x their DRAM time; the held-out
    half's 37: 2.49x).  Priced so, with their launch, the tuning half's land within a median factor of
    1.14 of their measured kernel times and the held-out half's 1.22 (at DRAM rate: 1.66 and 2.03)."""
    rows = [r for r in _profiled_operators() if r["kernel_us"] > 10 and "pool" in r["op"]["op"]]
    for half in ("tuning", "held_out"):
        assert len([r for r in rows if r["split"] == half]) >= 15
        assert _median_log_error(r for r in rows if r["split"] == half) < 0.3, half


@pytest.mark.torch
def test_the_tracer_records_a_convolution_s_implicit_gemm():
    """A convolution's FLOPs come with the GEMM cuDNN runs them as, per group (output positions, output
    channels, reduction length, groups): what fills the tensor cores.  A transposed convolution is marked
    (cuDNN's backward-data kernels); a depthwise one has one output channel per group."""
    pytest.importorskip("torch")
    import torch

    def convolutions():
        x = torch.empty(16, 32, 64, 64, device="meta")
        with torch.device("meta"):
            torch.nn.Conv2d(32, 64, 3, groups=4)(x)
            torch.nn.Conv2d(32, 32, 3, padding=1, groups=32)(x)
            torch.nn.ConvTranspose2d(32, 64, 3)(x)

    grouped, depthwise, transposed = [o for o in _op_costs(convolutions) if o["op"] == "convolution"]
    assert grouped["gemm"] == [16 * 62 * 62, 16, 8 * 9, 4] and "transposed" not in grouped
    assert depthwise["gemm"] == [16 * 64 * 64, 1, 9, 32]
    assert transposed["gemm"] == [16 * 64 * 64, 64, 32 * 9, 1] and transposed["transposed"]
    for op in (grouped, depthwise, transposed):
        m, n, k, groups = op["gemm"]
        assert op["flops"] == 2 * m * n * k * groups


def test_convolutions_are_priced_by_how_their_implicit_gemm_fills_the_tensor_cores():
    """Every convolution over 20 us CUDA-L1's references ran on the H200, as the tracer recorded it
    (tests/data/h200/cuda_l1/operators.jsonl.gz, benchmarks/cuda_l1_operators.py), against its
    measured kernel time: they run at 1.5 to 270 TFLOP/s by shape.  One rate per kind (22 TFLOP/s
    forward, 11 transposed) missed the held-out half's by a median factor of 3.2 (|log| 1.15); the
    implicit GEMM's fill, fitted on the tuning half, by 1.33.  A small GEMM is slower per FLOP."""
    from cudaperf.costmodel.torch_ops import op_terms

    rows = [r for r in _profiled_operators() if r["kernel_us"] > 20 and "gemm" in r["op"]]
    for half, bound in (("tuning", 0.3), ("held_out", 0.35)):
        assert len([r for r in rows if r["split"] == half]) > 200
        assert _median_log_error(r for r in rows if r["split"] == half) < bound, half
    small, large = ({"op": "convolution", "flops": 2e9, "bytes": 0.0, "strided": False, "precision": "tf32",
                     "gemm": [m, 64, 576, 1]} for m in (1e3, 1e5))
    assert op_terms(small)["flops"] > 1.9 * op_terms(large)["flops"]


@pytest.mark.torch
def test_torch_s_convolutions_and_gemms_on_shapes_nobody_fitted_on():
    """132 convolutions (ResNet, VGG, MobileNet, ResNeXt, DCGAN, U-Net, 1-D and 3-D layers at batch 1, 8
    and 32, fp32 and fp16) and 48 GEMMs timed on the H200 (benchmarks/torch_shapes_h200.py,
    tests/data/h200/torch_shapes): none was used to fit the convolutions' rates.  Traced on meta tensors
    and priced, those over 20 us land within a median factor of 1.44 (convolutions; one rate per kind:
    3.2) and 1.09 (GEMMs; 1.25 with tensor-core GEMMs at 5x and 10x fp32's rate, before the rates were
    set from the H200's measured half-precision anchor, after this sweep was seen) of their GPU time."""
    pytest.importorskip("torch")
    import math
    import statistics
    import sys
    from functools import partial

    import torch

    from cudaperf.costmodel.torch_ops import op_terms

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from torch_shapes_h200 import operator

    rows = [json.loads(line) for line in
            (Path(__file__).parent / "data/h200/torch_shapes/torch_shapes.jsonl").read_text().splitlines()]
    errors: dict[str, list[float]] = {"conv": [], "gemm": []}
    try:
        for row in (r for r in rows if r.get("ms", 0) > 0.02):
            torch.backends.cuda.matmul.allow_tf32 = row.get("tf32", False)
            fn, inputs = operator(row, "meta")
            seconds = sum(op_terms(o)["total"] for o in _op_costs(partial(fn, *inputs)) if o["flops"])
            errors[row["kind"]].append(abs(math.log(seconds * 1e3 / row["ms"])))
    finally:
        torch.backends.cuda.matmul.allow_tf32 = False
    assert len(errors["conv"]) > 100 and statistics.median(errors["conv"]) < 0.45
    assert len(errors["gemm"]) > 30 and statistics.median(errors["gemm"]) < 0.15


_BINCOUNT_REFERENCE = '''
import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return torch.bincount(x, minlength=64)

def get_inputs():
    return [torch.randint(0, 64, (1 << 20,), dtype=torch.int64)]

def get_init_inputs():
    return []
'''


@pytest.mark.torch
def test_a_reference_meta_tensors_cannot_run_is_priced_as_reading_its_inputs():
    """`bincount` sizes its output by the data, so the reference cannot run on meta tensors; its speed-up
    baseline is then one operator reading its inputs (4-byte elements) and a host call, the same for every
    candidate, not nothing (kb_fresh9's bincount had no speed term: its structural rewards saturated)."""
    pytest.importorskip("torch")
    from cudaperf.costmodel import trace
    from cudaperf.costmodel.candidates import reference_floor
    from cudaperf.costmodel.terms import ARCH
    from cudaperf.costmodel.torch_ops import TORCH

    traced = trace.run(_BINCOUNT_REFERENCE, [])
    assert traced["reference_ops"] is None
    floor = reference_floor(traced["inputs"])
    assert floor["dram"] == pytest.approx(4.0 * (1 << 20) / ARCH["dram_bps"])
    assert floor["host"] == pytest.approx(TORCH["host_s"])
    assert floor["total"] == pytest.approx(max(floor["dram"] + ARCH["launch_s"], floor["host"]))
    assert reference_floor([{"value": 3}]) is None


@pytest.mark.torch
def test_a_traced_launch_sizes_its_compressed_rows_from_its_tensors():
    """kb_fresh12's CSR gather for `index_add_`: each output row sums the source rows a counting sort listed
    for it, `for (j = offsets[r]; j < offsets[r + 1]; ++j)`.  The trace records the bytes each pointer
    argument reaches, so the row loop runs 262,144 entries over 4,096 rows, 64 times, not once."""
    pytest.importorskip("torch")
    from cudaperf.costmodel.candidates import estimate

    task = ROOT / "tests" / "kb_fresh12" / "index_add_rows"
    (est,) = estimate((task / "reference.py").read_text(), [(task / "honest_csr_gather_block.py").read_text()])
    gather = next(k for k in est.launches if k.kernel == "gather_block_kernel")
    src = next(a for a in gather.report["memory"]["accesses"] if a["array"] == "src")
    assert src["executions_per_thread"] == pytest.approx(64.0) and src["sectors_per_request"] == 4.0
    assert any("a row taken as 64 entries" in u for u in est.unknown)


def test_a_loop_on_data_with_no_arithmetic_still_makes_the_estimate_a_guess():
    """A row copy (`for (j = ptr[r] + tid; j < ptr[r + 1]; ...) y[j] = x[j]`) does no FLOP the analyzer's
    reason could name the loop by; its trip count is still unknown, and the estimate says so."""
    from conftest import kernel_report

    from cudaperf.costmodel.candidates import defaulted

    code = """
    __global__ void rows(const int* ptr, const float* x, float* y) {
        int r = blockIdx.x;
        for (int j = ptr[r] + threadIdx.x; j < ptr[r + 1]; j += blockDim.x) y[j] = x[j];
    }"""
    report = kernel_report(code, grid=(64, 1, 1), block=(128, 1, 1))
    assert report["compute"]["reason"] is None and report["estimate_exact"] is False
    assert any("trip count depends on data" in d for d in defaulted(report))
    exact = kernel_report(code.replace("ptr[r] + threadIdx.x; j < ptr[r + 1]", "threadIdx.x; j < 512"),
                          grid=(64, 1, 1), block=(128, 1, 1))
    assert defaulted(exact) == []
