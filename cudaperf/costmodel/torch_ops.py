"""What a torch operator costs on the H200, as the time model prices a candidate's torch side (the
operators a rewrite, a fallback or a wrapper runs; `trace` records them with their bytes, FLOPs and
shapes): GPU time terms (`op_terms`) and host time (`op_host`, `host_only`).  The rates are measured
(benchmarks/torch_ops_h200.py profiled CUDA-L1's references and torch rewrites on the H200) or fitted
on CUDA-L1's tuning half, as each constant says.  Numbers only: below `candidates` and `trace`."""

from __future__ import annotations

import math

from .terms import ARCH

# torch operators outside the extension: H200 rates measured on the styles tasks (tests/data/h200/styles:
# cuBLAS fp32 GEMMs 30-46 TFLOP/s, copies from strided views 3.5x slower than contiguous ones); the host
# time per call, a cuDNN convolution's longer (`host_s` 18 us, `conv_host_s` 40 us: fitted on the CUDA-L1
# tuning half's references that run under 0.2 ms, where the host sets the pace; the H200 machine's host,
# Python and torch 2.11); GEMMs and convolutions on tensor cores in TF32 or half precision (`precision`,
# from the dtypes, torch.backends' TF32 flags and CUDA autocast) at the rates in `PRECISION`, as multiples
# of those (a half-precision GEMM 780 TFLOP/s, the anchor measured through PyTorch on the H200, a TF32
# one half that, the tensor cores' ratio); convolutions cuDNN autotunes (torch.backends.cudnn.benchmark)
# `autotuned_conv` times faster; a view or metadata operator called from Python and an nn.Module call
# launch nothing but cost host time (`view_host_s`, `module_host_s`: `host_only`); a cuDNN recurrent
# layer's steps (per layer and direction, trace._fused_rnn) run one after another, `rnn_step_s` of GPU
# time each and, outside a CUDA graph, `rnn_step_host_s` of host time (its kernels are launched step by
# step): fitted on CUDA-L1's tuning-half LSTM and GRU tasks (14 to 18 us a step eager, 2.2 to 3.9 us
# graphed).
# A convolution runs as an implicit GEMM (trace._implicit_gemm: m output positions, n output channels,
# reduction length k, per group) whose tiles fill only as far as its dimensions reach: `conv_flops` in
# TF32 times m / (m + 1000), n / (n + 128) and k / (k + 192) (`conv_half_fill`); a transposed one,
# cuDNN's backward-data kernels, `transposed_conv` times slower.  Fitted (least squares of the log
# error) on the CUDA-L1 tuning half's profiled convolutions over 20 us, 211 of them, 1.5 to 270 TFLOP/s:
# their squared log error 1.23 -> 0.24 against one rate per kind; the held-out half's 241, not fitted
# on, 1.68 -> 0.29.  A depthwise one (a group per channel) runs torch's own kernel, each output reading
# its window through the cache: its bytes' DRAM time plus `depthwise_conv` DRAM times of its output's
# bytes.  At stride 1 (output as large as input) that is 5x its DRAM time, the rate fitted before on
# the tuning half's stride-1 ones; a strided one writes less and reads each input once (the tuning
# half's 52 profiled depthwise kernels: squared log error 0.35 -> 0.23, L1_046's 3-D one 755 -> 285 us
# against 342 measured).  torch's pooling kernels move their bytes at about half the DRAM rate (`pooling`: the
# median over the tuning half's 17 profiled pooling operators over 10 us, 1.91; the held-out half's 37
# gave 2.49, not fitted on).  Host calls measured on the H200 (tests/data/h200/host_calls, each scaled as
# `host_s` is to the bare extension call's 8.8 us there): a kernel launched with CuPy costs what an
# extension call does (8.2 us), each tensor handed to CuPy 10.1 (`cp.asarray`) or 23.8 us
# (`cp.from_dlpack`), and wrapping a call in an `autograd.Function` 9.6 us more (`function_host_s`).  A
# second run (host_calls_run2.jsonl, scaled by its own extension call's 9.07 us) timed the context
# managers solutions enter on every call, around nothing: `torch.backends.cudnn.flags(...)` 14.4 us,
# `torch.cuda.amp.autocast()` 10.1, `torch.cuda.stream(s)` 15.9, `torch.no_grad()` 2.8 (the grad modes;
# `inference_mode` 3.2, `enable_grad` 1.5).  A third (host_calls_run3.jsonl, its extension call 8.44 us)
# timed a CUDA graph's replay of one captured kernel: 4.73 us, against 10.3 for an eager operator
# (`graph_replay_host_s`; the graph's own kernels cost the host nothing more, `candidates.estimate`).
# A convolution with cuDNN turned off (`torch.backends.cudnn.flags(...)` leaves it off unless given
# enabled=True) runs torch's own CUDA fallback: per batch element an im2col (vol2col) and a cuBLAS GEMM,
# and for a 3-D one a kernel per output channel more; a transposed one a GEMM, a col2im and its bias
# (`native_conv_kernels`, the counts torch.profiler gave on the H200).  Its time is the GEMMs' FLOPs at
# cuBLAS's rate for their precision plus `native_conv_kernel_s` per kernel, the loop's cost each (the
# median over tests/data/h200/native_conv, a grid of 48 shapes chosen without looking at any task's:
# 10.5 us; the model's median error there 1.13x, at most 2.1x, against 5 to 270x what cuDNN takes).
TORCH = {"gemm_flops": 40e12, "conv_flops": 250e12, "conv_half_fill": (1000.0, 128.0, 192.0),
         "transposed_conv": 3.0, "depthwise_conv": 8.0, "strided_copy": 3.5,
         "host_s": 18e-6, "conv_host_s": 4e-5, "autotuned_conv": 1.5, "view_host_s": 1.5e-6, "module_host_s": 2e-6,
         "rnn_step_s": 2.7e-6, "rnn_step_host_s": 15e-6, "spatial_softmax": 4.0, "pooling": 1.9,
         "cupy_asarray_host_s": 21e-6, "cupy_dlpack_host_s": 49e-6, "function_host_s": 20e-6,
         "cudnn_flags_host_s": 28.6e-6, "autocast_host_s": 20e-6, "stream_host_s": 31.6e-6, "grad_mode_host_s": 5.6e-6,
         "native_conv_kernel_s": 10.45e-6, "graph_replay_host_s": 10.1e-6}
PRECISION = {"gemm": {"fp32": 1.0, "tf32": 9.75, "half": 19.5, "fp64": 1.0},
             "conv": {"fp32": 0.2, "tf32": 1.0, "half": 2.0, "fp64": 0.2}}
# Operators torch runs as several kernels (profiled on the H200, torch 2.11: benchmarks/torch_ops_h200.py);
# each kernel is a launch on the GPU and on the host.  One kernel otherwise.
TORCH_LAUNCHES = {"logsumexp": 9, "native_group_norm": 3, "smooth_l1_loss": 3, "masked_fill": 2,
                  "constant_pad_nd": 2, "diag_embed": 2}
# Normalisations and softmaxes torch runs with one block per row (trace._rows): the threads of that block,
# the bytes each loads at once, and the share of the operator's bytes the row kernel moves (group norm's
# moments kernel reads the input; an elementwise kernel writes the output at DRAM rate).  A block's rate is
# what its loads in flight sustain (Little's law over `ARCH["latency_s"]`), and it lives at least
# `ROW_BLOCK_TRIPS` memory latencies (load, block reduction, normalise, store): a few long rows leave the
# GPU idle, millions of short ones queue in waves.  Softmax rows of up to 1024 elements go a warp each,
# many to a block: no row bound.  A softmax over a dimension other than the last (`spatial`) reads its
# input strided, three passes: `spatial_softmax` times its DRAM time.
ROW_KERNELS = {"native_layer_norm": (128, 16, 1.0), "native_group_norm": (512, 4, 0.5),
               "_softmax": (1024, 16, 1.0), "_log_softmax": (1024, 16, 1.0), "_safe_softmax": (1024, 16, 1.0)}
ROW_BLOCK_TRIPS = 5
_POOLS = ("avg_pool1d", "avg_pool2d", "avg_pool3d", "max_pool1d", "max_pool2d", "max_pool3d",
          "max_pool2d_with_indices", "max_pool3d_with_indices")
_CONVS = ("convolution", "_convolution", "cudnn_convolution", "conv2d", "conv1d", "conv3d", "conv_transpose1d",
          "conv_transpose2d", "conv_transpose3d")


def op_terms(op: dict) -> dict[str, float]:
    """Time terms of one torch operator: its bytes at DRAM rate (strided copies, spatial softmaxes,
    pooling and depthwise convolutions slower), its FLOPs at cuBLAS / cuDNN rates for its precision (and
    a convolution's shape, `conv_seconds`), its serial steps (a recurrent layer's) or its waves of row
    blocks (`row_seconds`), a launch per kernel."""
    dram = op["bytes"] / ARCH["dram_bps"] * (TORCH["strided_copy"] if op["strided"] and op["op"] in (
        "clone", "copy", "_to_copy") else 1.0)
    if op.get("spatial"):
        dram *= TORCH["spatial_softmax"]
    if op["op"] in _POOLS:
        dram *= TORCH["pooling"]
    # cuDNN off (a depthwise convolution runs torch's own kernel either way): its GEMMs at cuBLAS's rate,
    # one after another in torch's loop over the batch
    native = 0.0 if op.get("gemm") and _depthwise(op) else op.get("native_kernels", 0) * TORCH["native_conv_kernel_s"]
    if op.get("gemm") and not native:    # a convolution with FLOPs: its implicit GEMM's shape
        flops = conv_seconds(op)
        if _depthwise(op):
            dram, flops = dram + TORCH["depthwise_conv"] * _output_bytes(op) / ARCH["dram_bps"], 0.0
    else:
        flops = op["flops"] / (TORCH["gemm_flops"] * PRECISION["gemm"][op.get("precision", "fp32")])
    if native:
        native += flops
    latency = max(op.get("steps", 0) * TORCH["rnn_step_s"], row_seconds(op), native)
    return {"dram": dram, "flops": flops, "latency": latency,
            "total": max(dram, flops, latency) + TORCH_LAUNCHES.get(op["op"], 1) * ARCH["launch_s"]}


def native_conv_kernels(batch: int, dims: int, transposed: bool, out_channels: int) -> int:
    """Kernels torch's own CUDA convolution launches (cuDNN off), as the H200's profiler counted them."""
    per_sample = 3 if transposed else (2 if dims < 3 else out_channels + 2)
    return batch * per_sample


def conv_seconds(op: dict) -> float:
    """A cuDNN convolution's FLOPs at the rate its implicit GEMM's shape fills the tensor cores to."""
    rate = TORCH["conv_flops"] * PRECISION["conv"][op.get("precision", "tf32")]
    for size, half in zip(op["gemm"][:3], TORCH["conv_half_fill"]):
        rate *= size / (size + half)
    if op.get("autotuned"):
        rate *= TORCH["autotuned_conv"]
    return op["flops"] / rate * (TORCH["transposed_conv"] if op.get("transposed") else 1.0)


def _depthwise(op: dict) -> bool:
    """A group per input channel and one output channel per group: torch's own kernel, not cuDNN's."""
    _, n, _, groups = op["gemm"]
    return groups > 1 and n == 1


def _output_bytes(op: dict) -> float:
    """A convolution's output: its implicit GEMM's m x n per group, in its precision's element size."""
    m, n, _, groups = op["gemm"]
    return m * n * groups * {"half": 2, "fp64": 8}.get(op.get("precision", "fp32"), 4)


def row_seconds(op: dict) -> float:
    """The time a one-block-per-row operator needs for its waves of row blocks (`ROW_KERNELS`); 0 for others."""
    shape = ROW_KERNELS.get(op["op"])
    if shape is None or not op.get("rows") or ("softmax" in op["op"] and op["row"] <= 1024):
        return 0.0
    threads, load, share = shape
    if op["op"] == "native_group_norm" and op["row"] < 512:
        threads = 32                            # a warp per (sample, group) when the group is small
    resident = min(32, 2048 // threads)
    waves = math.ceil(op["rows"] / (ARCH["sm_count"] * resident))
    row_bytes = share * op["bytes"] / op["rows"]
    return waves * max(ROW_BLOCK_TRIPS * ARCH["latency_s"], row_bytes * ARCH["latency_s"] / (threads * load))


# operators whose host time is not `host_s` per kernel: their price in TORCH
HOST_PRICE = {**dict.fromkeys(_CONVS, "conv_host_s"), "graph_replay": "graph_replay_host_s"}


def op_host(op: dict) -> float:
    """The host time of calling one torch operator (a recurrent layer's: each of its steps)."""
    name = op["op"]
    call = TORCH[HOST_PRICE[name]] if name in HOST_PRICE else TORCH["host_s"] * TORCH_LAUNCHES.get(name, 1)
    return call + op.get("steps", 0) * TORCH["rnn_step_host_s"]


# the calls that launch nothing but cost host time, each with its price in TORCH (trace._no_host_calls
# counts them; the context managers' entries: trace._host_entries)
HOST_ONLY = {"views": "view_host_s", "modules": "module_host_s", "functions": "function_host_s",
             "cupy_asarray": "cupy_asarray_host_s", "cupy_dlpack": "cupy_dlpack_host_s",
             "cudnn_flags": "cudnn_flags_host_s", "autocasts": "autocast_host_s", "streams": "stream_host_s",
             "grad_modes": "grad_mode_host_s"}


def host_only(calls: dict | None) -> float:
    """The host time of the calls that launch nothing (`views`, `modules`, `autograd.Function` wrappings,
    tensors handed to CuPy, context managers entered: trace's `_no_host_calls`)."""
    calls = calls or {}
    return sum(calls.get(kind, 0) * TORCH[price] for kind, price in HOST_ONLY.items())
