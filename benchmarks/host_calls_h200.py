"""What the host pays for the ways model-written solutions call their kernels, timed on the GPU machine:
a `load_inline` extension call, the same call wrapped in a `torch.autograd.Function`, a CuPy launch
(`cp.RawKernel`) and the tensors handed to CuPy, beside a torch operator; and the context managers
solutions enter on every call (`torch.backends.cudnn.flags`, autocast, `no_grad`, a stream), entered and
left around nothing; a CUDA graph's replay (of one and of ten captured kernels, beside ten eager ones)
and the `copy_` into a static input that precedes it.  The time model prices these
host calls from it (`costmodel.torch_ops.TORCH`).

Each figure is wall time per call over `CALLS` calls of an empty kernel (the GPU never holds the host
back), after `WARMUP` calls, the median of `ROUNDS` rounds, under `torch.no_grad()` as a timing runs.

    python3 benchmarks/host_calls_h200.py OUT.jsonl

One JSON line per case: `case`, `us` per call, `calls`, `rounds`.
"""

from __future__ import annotations

import json
import statistics
import sys
import time

CALLS, WARMUP, ROUNDS = 2000, 200, 5
EMPTY = r'extern "C" __global__ void empty(const float* a, const float* b, float* c, float* d, int n) {}'


def _per_call_us(fn, sync) -> float:
    for _ in range(WARMUP):
        fn()
    sync()
    rounds = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(CALLS):
            fn()
        sync()
        rounds.append((time.perf_counter() - start) / CALLS * 1e6)
    return statistics.median(rounds)


def _entered(make):
    """A call that enters and leaves the context manager `make()` returns, around nothing."""
    def call():
        with make():
            pass
    return call


def _captured(torch, body):
    """A CUDA graph of what `body()` launches, captured after a warm-up on a side stream."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        body()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        body()
    return graph


def main(out: str) -> int:
    import cupy as cp
    import numpy as np
    import torch
    from torch.utils.cpp_extension import load_inline

    x = [torch.ones(1 << 20, device="cuda") for _ in range(4)]
    kernel = cp.RawKernel(EMPTY, "empty")
    n = np.int32(1 << 20)
    ptrs = [t.data_ptr() for t in x]
    ext = load_inline("cudaperf_empty", cpp_sources="void empty(torch::Tensor a, torch::Tensor b, torch::Tensor c, "
                      "torch::Tensor d);\ntorch::Tensor same(torch::Tensor a, torch::Tensor b, torch::Tensor c, "
                      "torch::Tensor d);", cuda_sources=EMPTY + """
#include <torch/extension.h>
void empty(torch::Tensor a, torch::Tensor b, torch::Tensor c, torch::Tensor d) {
    empty<<<1, 32>>>(a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), d.data_ptr<float>(), a.numel());
}
torch::Tensor same(torch::Tensor a, torch::Tensor b, torch::Tensor c, torch::Tensor d) {
    empty(a, b, c, d);
    return a;
}""", functions=["empty", "same"])

    class Wrapped(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b, c, d):
            ctx.save_for_backward(a, b)
            return ext.same(a, b, c, d)

        @staticmethod
        def backward(ctx, grad):
            return grad, None, None, None

    params = [torch.nn.Parameter(t.clone()) for t in x]
    side = torch.cuda.Stream()
    graphs = {n: _captured(torch, lambda n=n: [x[1].add_(0.0) for _ in range(n)]) for n in (1, 10)}
    cases = {
        "cupy launch, 4 pointers as ints": lambda: kernel((1,), (32,), (*ptrs, n)),
        "cupy launch, 4 tensors by cp.asarray": lambda: kernel((1,), (32,), (*[cp.asarray(t) for t in x], n)),
        "cupy launch, 4 data_ptr() calls": lambda: kernel((1,), (32,), (*[t.data_ptr() for t in x], n)),
        "cp.asarray of one tensor": lambda: cp.asarray(x[0]),
        "cp.from_dlpack of one tensor": lambda: cp.from_dlpack(x[0]),
        "load_inline extension call, 4 tensors": lambda: ext.empty(*x),
        "load_inline extension call returning a tensor": lambda: ext.same(*x),
        "that call through an autograd.Function": lambda: Wrapped.apply(*x),
        "that call through an autograd.Function, on parameters": lambda: Wrapped.apply(*params),
        "torch operator (add_ of a scalar)": lambda: x[0].add_(0.0),
        "with torch.backends.cudnn.flags(enabled, benchmark, deterministic)": _entered(
            lambda: torch.backends.cudnn.flags(enabled=True, benchmark=True, deterministic=False)),
        "with torch.backends.cudnn.flags(benchmark)": _entered(lambda: torch.backends.cudnn.flags(benchmark=True)),
        "with torch.cuda.amp.autocast()": _entered(lambda: torch.cuda.amp.autocast()),
        "with torch.autocast('cuda')": _entered(lambda: torch.autocast("cuda")),
        "with torch.autocast('cuda', dtype=torch.float16)": _entered(lambda: torch.autocast("cuda", torch.float16)),
        "with torch.no_grad()": _entered(torch.no_grad),
        "with torch.enable_grad()": _entered(torch.enable_grad),
        "with torch.inference_mode()": _entered(torch.inference_mode),
        "with torch.cuda.stream(side stream)": _entered(lambda: torch.cuda.stream(side)),
        "with torch.cuda.device(0)": _entered(lambda: torch.cuda.device(0)),
        "CUDA graph replay, 1 captured kernel": graphs[1].replay,
        "CUDA graph replay, 10 captured kernels": graphs[10].replay,
        "10 torch operators (add_ of a scalar)": lambda: [x[1].add_(0.0) for _ in range(10)],
        "copy_ of a 4 MB tensor into a static one": lambda: x[2].copy_(x[3]),
    }
    with open(out, "w") as f, torch.no_grad():
        for case, fn in cases.items():
            try:
                row = {"case": case, "us": round(_per_call_us(fn, torch.cuda.synchronize), 3), "calls": CALLS,
                       "rounds": ROUNDS}
            except Exception as exc:        # one case failing keeps the others
                row = {"case": case, "error": f"{type(exc).__name__}: {exc}"[:300]}
            print(json.dumps(row), flush=True)
            f.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
