"""Convolutions with cuDNN turned off, timed on the GPU machine: what `torch.backends.cudnn.flags(...)`
without `enabled=True` runs (its `enabled` defaults to False), torch's own CUDA fallback (im2col or
vol2col and a cuBLAS GEMM per batch element, col2im for a transposed one), beside the same convolution
through cuDNN.  The time model prices such a convolution from it (`costmodel.torch_ops`).

A grid of shapes chosen without looking at any task's: 2-D and 3-D, plain and transposed (stride 2),
fp32, TF32 left at torch's defaults.  Each figure is the median of `ROUNDS` rounds of `CALLS` calls after
`WARMUP`, timed with CUDA events; the native path's kernels per call are counted with torch.profiler.

    python3 benchmarks/native_conv_h200.py OUT.jsonl

One JSON line per case: kind, batch, in/out channels, spatial size, kernel, stride, FLOPs, `cudnn_ms`,
`native_ms`, `native_kernels`.
"""

from __future__ import annotations

import itertools
import json
import statistics
import sys

from torch_shapes_h200 import operator  # the layers built as the shapes sweep builds them

CALLS, WARMUP, ROUNDS = 10, 3, 5


def _cases():
    for n, cin, cout, hw in itertools.product((8, 64), (3, 32), (16, 64), (32, 128)):
        yield "conv2d", n, cin, cout, (hw, hw), 3, 1
    for n, cin, cout, dhw in itertools.product((4, 32), (3, 16), (16, 32), (16, 32)):
        yield "conv3d", n, cin, cout, (dhw, dhw, dhw), 3, 1
    for n, cout, hw in itertools.product((8, 64), (16, 64), (16, 64)):
        yield "conv_transpose2d", n, 32, cout, (hw, hw), 3, 2
    for n, cin, dhw in itertools.product((4, 16), (16, 32), (8, 16)):
        yield "conv_transpose3d", n, cin, 16, (dhw, dhw, dhw), 3, 2


def shape(row: dict) -> dict:
    """A row's convolution as benchmarks/torch_shapes_h200.py describes one (fp32, no padding, one group),
    so that its `operator` builds the layer and its input, here on the GPU and in the tests on meta."""
    return {"kind": "conv", "batch": row["batch"], "in": row["in_channels"], "size": row["spatial"],
            "out": row["out_channels"], "filter": row["kernel"], "stride": row["stride"], "padding": 0, "groups": 1,
            "transposed": row["kind"].startswith("conv_transpose"), "dtype": "float32"}


def _median_ms(fn, torch) -> float:
    for _ in range(WARMUP):
        fn()
    torch.cuda.synchronize()
    rounds = []
    for _ in range(ROUNDS):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(CALLS):
            fn()
        end.record()
        torch.cuda.synchronize()
        rounds.append(start.elapsed_time(end) / CALLS)
    return statistics.median(rounds)


def _kernels(fn, torch) -> int | None:
    """Kernels one call launches, by torch.profiler (None where the profiler cannot say)."""
    from torch.profiler import ProfilerActivity, profile

    try:
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            fn()
            torch.cuda.synchronize()
        return sum(1 for e in prof.events() if e.device_type.name == "CUDA")
    except Exception:
        return None


def _time_case(torch, kind: str, n: int, cin: int, cout: int, spatial: tuple, k: int, stride: int) -> dict:
    row = {"kind": kind, "batch": n, "in_channels": cin, "out_channels": cout, "spatial": list(spatial),
           "kernel": k, "stride": stride}
    layer, (x,) = operator(shape(row), "cuda")
    x.normal_()
    transposed = kind.startswith("conv_transpose")
    row["flops"] = 2.0 * (x if transposed else layer(x)).numel() * k ** len(spatial) * (cout if transposed else cin)
    row["cudnn_ms"] = round(_median_ms(lambda: layer(x), torch), 4)

    def native():
        with torch.backends.cudnn.flags(enabled=False):
            return layer(x)

    row["native_ms"] = round(_median_ms(native, torch), 4)
    row["native_kernels"] = _kernels(native, torch)
    return row


def main(out: str) -> int:
    import torch

    with open(out, "w") as f, torch.no_grad():
        for case in _cases():
            try:
                row = _time_case(torch, *case)
            except Exception as exc:        # one case failing keeps the others
                row = {"case": list(case), "error": f"{type(exc).__name__}: {exc}"[:300]}
            print(json.dumps(row), flush=True)
            f.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
