"""Tracing candidates on a machine without a GPU, in the shapes models write (issue 27, items 1 and 2):
`.cuda()`, `.to('cuda')`, `device='cuda'`, the `torch.cuda` queries, streams, events, graphs and
`torch.backends` flags traced on the meta device; sizes followed through locals, `.contiguous()`
and size queries by the wrapper interpreter; what cannot be known listed in `unknown`, and a candidate
that cannot be traced guessed or placed, never simply last.  The candidates are in tests/rank_shapes
(a 4096 x 393,216 softmax: 6.4 GB per tensor)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cudaperf.costmodel.wrapper import bind, wrappers

SHAPES = Path(__file__).resolve().parent / "rank_shapes"
REFERENCE = SHAPES / "softmax_reference.py"
NAMES = ("contiguous_local", "cuda_everywhere", "range_for_sizes", "thread_per_row")
# two more forwards on contiguous_local's extension: a CUDA graph captured on the first call and
# replayed after; a host-side probe that cannot run on meta tensors
FORWARDS = {"graph_replay": """class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.graph = None

    def forward(self, x):
        if self.graph is None:
            self.static_x = x.clone()
            self.graph = torch.cuda.CUDAGraph()
            torch.cuda.synchronize()
            with torch.cuda.graph(self.graph):
                self.static_y = ext.softmax_cuda(self.static_x)
        self.static_x.copy_(x)
        self.graph.replay()
        return self.static_y
""", "graph_after_warmup": """class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.calls, self.graph = 0, None

    def forward(self, x):
        self.calls += 1
        if self.graph is not None:
            self.static_x.copy_(x)
            self.graph.replay()
            return self.static_y
        if self.calls >= 3:
            self.static_x = x.clone()
            self.graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(self.graph):
                self.static_y = ext.softmax_cuda(self.static_x)
        return torch.softmax(x, dim=1)
""", "jit_graph_in_init": """class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.traced, self.graph = None, None
        self.static_x = torch.zeros(4096, 393216, device="cuda")     # the task's shape
        try:
            self.traced = torch.jit.optimize_for_inference(torch.jit.trace(self, self.static_x))
            self.graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(self.graph):
                self.static_y = self.traced(self.static_x)
            if not torch.allclose(self.static_y, self.traced(self.static_x)):
                self.graph = None
        except Exception:
            self.traced = self.graph = None

    def forward(self, x):
        if self.graph is not None:
            self.static_x.copy_(x)
            self.graph.replay()
            return self.static_y
        return ext.softmax_cuda(x)
""", "device_type": """class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()

    def forward(self, x):
        if x.device.type != "cuda" or str(x.device) != "cuda:0":
            return torch.softmax(x, dim=1)
        return ext.softmax_cuda(x.to(x.device))
""", "numpy_probe": """class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()

    def forward(self, x):
        rows = int(x.shape[0])
        assert x.cpu().numpy().shape[0] == rows
        return ext.softmax_cuda(x)
"""}


def with_forward(forward: str) -> str:
    base = (SHAPES / "contiguous_local.py").read_text()
    return base[:base.index("class ModelNew")] + forward


@pytest.fixture(scope="module")
def rows():
    pytest.importorskip("torch")
    from cudaperf.rl.ranking import Ranker

    codes = [(SHAPES / f"{n}.py").read_text() for n in NAMES] + [with_forward(f) for f in FORWARDS.values()]
    labels = [*NAMES, *FORWARDS]
    return {r["label"]: r for r in Ranker.default().rank_candidates(REFERENCE, codes, labels=labels)}


@pytest.mark.torch
def test_every_cuda_call_models_write_traces_without_a_driver(rows):
    """`.cuda()` in get_inputs and __init__, `.to('cuda:0')`, `device='cuda'`, `self.cuda()`,
    `torch.cuda.is_available/get_device_properties/Stream/Event/current_stream/synchronize/stream`,
    `torch.backends` flags: traced, with the stated device (an H200: 132 SMs, so 4 x 132 blocks)."""
    r = rows["cuda_everywhere"]
    assert r["reason"] is None and r["note"] is None and not r["guess"]
    (launch,) = r["launches"]
    assert launch["launch"] == "traced" and launch["grid"] == [4 * 132, 1, 1]
    assert r["sizes_inferred"]["scale"] == {"rows": 4096, "n": 393216}


@pytest.mark.torch
def test_sizes_are_followed_through_contiguous_locals(rows):
    """`auto x = input.contiguous(); int n = x.size(1);`: the 6.4 GB softmax is read at its size (at
    least three reads and a write of 6.4 GB at 4 TB/s: over 6 ms), with nothing unknown."""
    r = rows["contiguous_local"]
    assert r["unknown"] == [] and not r["guess"]
    assert r["sizes_inferred"]["softmax_cuda"] == {"n": 393216}
    assert r["seconds"] > 4 * 4096 * 393216 * 4 / 4.0e12


@pytest.mark.torch
def test_a_warm_call_is_what_counts(rows):
    """A CUDA graph captured on the first call and replayed after: the warm call's copy, the replay and the
    replayed kernel are counted, not the first call's clone."""
    r = rows["graph_replay"]
    assert r["torch_ops"] == ["copy", "graph_replay"] and [k["kernel"] for k in r["launches"]] == ["softmax_kernel"]


@pytest.mark.torch
def test_a_graph_captured_after_warm_up_calls_is_what_counts(rows):
    """A graph captured once three calls have run eagerly (CUDA-L1's L3_009 counts its warm-up calls): the
    calls are repeated until three in a row record the same, so the replay is priced, not torch's softmax."""
    r = rows["graph_after_warmup"]
    assert r["torch_ops"] == ["copy", "graph_replay"] and [k["kernel"] for k in r["launches"]] == ["softmax_kernel"]


@pytest.mark.torch
def test_a_jit_traced_path_captured_in_a_graph_while_the_model_is_built(rows):
    """`torch.jit.trace` of the model's own eager path, a graph captured of the traced function in `__init__`
    and checked with `torch.allclose` (CUDA-L1's L3_004): on meta tensors torch's tracing fails and the
    solution falls back to its eager path; the stand-in records the traced call, the graph keeps what is
    recorded while the model is built, and the check passes, so the replay is what is priced."""
    r = rows["jit_graph_in_init"]
    assert r["torch_ops"] == ["copy", "graph_replay"] and [k["kernel"] for k in r["launches"]] == ["softmax_kernel"]


@pytest.mark.torch
def test_a_tensor_is_where_the_candidate_put_it(rows):
    """`x.device.type == 'cuda'` and `str(x.device)` read the GPU (CUDA-L1's L3_022 builds and captures a
    graph on every call only there); a device passed on keeps the tensor on meta."""
    r = rows["device_type"]
    assert r["reason"] is None and [k["kernel"] for k in r["launches"]] == ["softmax_kernel"]
    assert "softmax" not in r["torch_ops"]


@pytest.mark.torch
def test_unknown_sizes_are_listed_and_the_estimate_is_a_guess(rows):
    """A range-for over `x.sizes()` is outside the interpreter's subset: the wrapper is read by patterns,
    the size it multiplies up is unknown, and so is every launch value depending on it."""
    r = rows["range_for_sizes"]
    assert r["guess"] and r["reason"] is None
    assert any("n = 1 (changed later)" in u for u in r["unknown"])
    assert any("exp_kernel: grid" in u for u in r["unknown"])
    assert [k["launch"] for k in r["launches"]] == ["assumed", "inferred"]


@pytest.mark.torch
def test_an_untraceable_candidate_is_guessed_not_last(rows):
    """`x.cpu().numpy()` cannot run on meta tensors: its exported function is called with the reference's
    inputs, the estimate is marked a guess with the reason, and it is placed by it (above the thread per row)."""
    r = rows["numpy_probe"]
    assert r["guess"] and "not traced" in r["note"] and "numpy" in r["note"]
    assert r["score"] is not None and r["rank"] < rows["thread_per_row"]["rank"]
    assert r["seconds"] == pytest.approx(rows["contiguous_local"]["seconds"])


@pytest.mark.torch
def test_a_candidate_with_kernels_that_cannot_be_followed_is_placed_at_the_middle():
    pytest.importorskip("torch")
    from cudaperf.rl.ranking import Ranker

    good = (SHAPES / "contiguous_local.py").read_text()
    slow = (SHAPES / "thread_per_row.py").read_text()
    hidden = good.replace("ext = load_inline(", "import missing_module  # noqa\next = load_inline(")
    rows = Ranker.default().rank_candidates(REFERENCE, [slow, hidden, good, "x = 1\n"],
                                            labels=["slow", "hidden", "good", "empty"])
    order = [r["label"] for r in rows]
    assert order == ["good", "hidden", "slow", "empty"]
    placed = rows[1]
    assert placed["placed"] == "median" and placed["score"] is None and "missing_module" in placed["reason"]


def test_wrapper_reading_marks_what_it_cannot_know():
    text = """
__global__ void k(const float* x, float* y, long n, int cols) {}
std::vector<torch::Tensor> f(torch::Tensor input, int64_t stream) {
    auto x = input.contiguous();
    long n = 1;
    for (auto d : x.sizes()) n *= d;
    const dim3 block(256);
    const dim3 grid(x.size(0));
    auto y = torch::empty_like(x);
    auto stats = torch::empty({x.size(0), 2}, x.options());
    k<<<grid, block, 0, (cudaStream_t)stream>>>(x.data_ptr<float>(), y.data_ptr<float>(), n, x.size(1));
    return {y, stats};
}
"""
    bound = bind(text, wrappers(text)["f"], [[64, 128], 0])
    assert bound.outputs == [[64, 128], [64, 2]]                 # a std::vector return: both shapes
    assert bound.unknown == ["n = 1 (changed later)", "k: argument n"]   # grid, block and cols are known


SHIM_PROBES = """
import torch
from cudaperf.costmodel.cudashim import install, on_meta_mode
install()
probes = {
    "generator": lambda: torch.Generator(device="cuda"),
    "autocast": lambda: torch.autocast(device_type="cuda", dtype=torch.float16).__enter__(),
    "tensor": lambda: torch.tensor([1.0], device="cuda"),
    "arange": lambda: torch.arange(10, device=torch.device("cuda", 0)),
    "new_empty": lambda: torch.randn(3).new_empty((4,), device="cuda"),
    "legacy": lambda: torch.cuda.FloatTensor(3),
    "type": lambda: torch.randn(3).type(torch.cuda.HalfTensor),
    "to_kw": lambda: torch.randn(3).to(device="cuda", dtype=torch.float16),
    "module_to": lambda: torch.nn.Linear(3, 4).to("cuda").weight,
    "module_cuda": lambda: torch.nn.Linear(3, 4).cuda().weight,
    "zeros_like": lambda: torch.zeros_like(torch.randn(3), device="cuda"),
    "sm_count": lambda: torch.cuda.get_device_properties(0).multi_processor_count,
    "event": lambda: torch.cuda.Event(enable_timing=True).elapsed_time(torch.cuda.Event()),
    "annotation": lambda: (torch.Generator | None) is not None,
    "device": lambda: torch.empty(2, device="cuda").device,
    "follows": lambda: torch.zeros(2, device=torch.empty(1, device="cuda").device),
}
with on_meta_mode():
    for name, probe in probes.items():
        value = probe()
        where = "meta" if isinstance(value, torch.Tensor) and value.is_meta else value
        print(name, where)
"""


@pytest.mark.torch
def test_the_cuda_stand_ins_in_a_child(tmp_path):
    """The shim patches torch for good, so it is exercised in a child process: each probe answers."""
    pytest.importorskip("torch")
    import os
    import subprocess
    import sys

    env = {**os.environ, "CUDA_VISIBLE_DEVICES": "", "PYTHONPATH": str(SHAPES.parents[1])}
    out = subprocess.run([sys.executable, "-c", SHIM_PROBES], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    answers = dict(line.split(" ", 1) for line in out.stdout.splitlines())
    assert answers["sm_count"] == "132" and answers["event"] == "0.0" and answers["annotation"] == "True"
    assert answers["device"] == "cuda:0"
    for name in ("tensor", "arange", "new_empty", "legacy", "type", "to_kw", "module_to", "module_cuda",
                 "zeros_like", "follows"):
        assert answers[name] == "meta", name


SCALARS_IN_INIT = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.rates = [x.item() for x in torch.linspace(0, 0.1, 4)]     # Swin's stochastic depth rule

    def forward(self, x):
        return torch.relu(x) * (1 - self.rates[1])


def get_inputs():
    return [torch.randn(64, 4096)]


def get_init_inputs():
    return []
'''


@pytest.mark.torch
def test_a_reference_reading_scalars_while_it_is_built_is_traced():
    """`.item()` of a meta tensor while the reference is built answers as it does for candidates (CUDA-L1's
    L3_029 and L3_030, Swin transformers, had no reference estimate: their tasks' pairs came out wrong)."""
    pytest.importorskip("torch")
    from cudaperf.costmodel import trace

    assert [o["op"] for o in trace.run(SCALARS_IN_INIT, [])["reference_ops"]] == ["relu", "mul"]


VALUE_SIZED_INPUTS = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, crow, col, val):
        return val * 2


def get_inputs():
    counts = torch.randint(0, 9, (1000,))
    crow = torch.zeros(1001, dtype=torch.int64)
    crow[1:] = torch.cumsum(counts, 0)
    nnz = int(crow[-1])                      # a size read from the inputs' own values
    return [crow, torch.randint(0, 50, (nnz,)), torch.randn(nnz)]


def get_init_inputs():
    return []
'''


@pytest.mark.torch
def test_inputs_whose_sizes_rest_on_their_values_are_made_on_the_cpu():
    """A CSR task's `get_inputs` reads nnz from the row pointer it built: a meta tensor has no value, so the
    inputs are made for real on the CPU and traced by their shapes (tests/kb_fresh14's spmm_csr had no
    estimate for any candidate)."""
    pytest.importorskip("torch")
    from cudaperf.costmodel import trace

    traced = trace.run(VALUE_SIZED_INPUTS, [])
    crow, col, val = traced["inputs"]
    assert crow["shape"] == [1001] and col["shape"] == val["shape"]
    assert 0 <= col["shape"][0] <= 8000
    assert [o["op"] for o in traced["reference_ops"]] == ["mul"]
    assert trace.run(VALUE_SIZED_INPUTS, [])["inputs"] == traced["inputs"]  # seeded: the same estimate every run


RELU_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(4096, 4096)]


def get_init_inputs():
    return []
'''
PERSISTENT_RELU = '''import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
__global__ void relu_persistent(const float* __restrict__ x, float* __restrict__ y, long long n) {
    __shared__ float stage[2048];
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride) {
        stage[threadIdx.x] = x[i];
        y[i] = fmaxf(stage[threadIdx.x], 0.f);
    }
}
torch::Tensor relu(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int dev = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, relu_persistent, 256, 0);
    relu_persistent<<<sms * per_sm, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
    return y;
}
"""
ext = load_inline(name="relu_persistent", cpp_sources="torch::Tensor relu(torch::Tensor x);", cuda_sources=cuda,
                  functions=["relu"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu(x)
'''


@pytest.mark.torch
def test_a_grid_sized_by_an_occupancy_query_is_traced_not_guessed():
    """kb_fresh5's persistent kernels: `cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ...)` is
    answered by the analyzer's occupancy on the stated GPU (an H200: 132 SMs of 2,048 threads, so 8
    blocks of 256; the 8 KB of shared memory per block would allow 25), so the grid is SMs x 8 and the
    estimate no guess (before, the wrapper was read by patterns and its grid assumed)."""
    pytest.importorskip("torch")
    from cudaperf.costmodel import trace
    from cudaperf.costmodel.candidates import estimate_traced

    traced = trace.run(RELU_REFERENCE, [PERSISTENT_RELU])["candidates"][0]
    (call,) = traced["calls"]
    assert "interpreter" not in call, call.get("interpreter")
    (launch,) = call["launches"]
    assert launch["grid"] == [132 * 8, 1, 1] and launch["block"] == [256, 1, 1]
    assert not estimate_traced("persistent", traced).guess
