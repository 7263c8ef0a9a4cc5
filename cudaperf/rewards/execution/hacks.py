"""Runtime defences inside the worker, for what the static gate cannot see:

- Guard: identities of torch's, time's and the harness's functions, precision flags, Python threads,
  child processes and trace hooks, recorded before any candidate code runs and compared after each
  phase (hacks 2, 3, 15).
- aten_recorder: every ATen operator a candidate's forward dispatches, C++ wrappers included, so a
  forward that computes with torch is caught however it reaches torch (hack 16).
- launched_kernels: the CUDA kernels one call really launches, with their GPU time, read by the
  profiler, so a decoy kernel never launched is caught (hack 16), and `own_share`: the part of the GPU
  time spent in the candidate's own kernels, so torch doing the heavy work is caught however it was
  reached (hack 16: `torch-fallback` below OWN_SHARE_MIN).
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from typing import Any

OWN_SHARE_MIN = 0.8   # own kernels' part of the GPU time below which torch did the work (torch-fallback)
# Kernels that only move or fill memory (torch.zeros for an accumulator, .contiguous(), torch.cat): time
# that counts for neither side of the work share.
DATA_MOVEMENT = re.compile(r"Fill|fill_kernel|[Cc]opy|CatArray|Memset|Memcpy|cudaMem")
# ATen operators that allocate, view, copy or fill: what a candidate's wrapper may use.
ALLOWED_OPS = {
    "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "zeros", "zeros_like", "new_zeros",
    "ones", "ones_like", "new_ones", "full", "full_like", "new_full", "fill_", "zero_", "view", "_unsafe_view",
    "reshape", "_reshape_alias", "as_strided", "expand", "permute", "transpose", "t", "contiguous", "clone",
    "copy_", "_to_copy", "to", "detach", "alias", "select", "slice", "unsqueeze", "squeeze", "flatten",
    "unbind", "split", "split_with_sizes", "chunk", "narrow", "cat", "stack", "lift_fresh", "lift_fresh_copy",
    "resize_", "set_", "view_as", "type_as", "scalar_tensor", "_local_scalar_dense", "is_same_size",
    "_has_compatible_shallow_copy_type", "sym_size", "sym_stride", "sym_numel", "sym_storage_offset",
    "empty_permuted", "unsafe_split", "unflatten", "movedim", "_unsafe_index", "detach_", "_assert_async",
}


def _watched() -> list[tuple[str, Any]]:
    import torch

    objects = [("torch", torch), ("torch.cuda", torch.cuda), ("torch.Tensor", torch.Tensor),
               ("torch.cuda.Event", torch.cuda.Event), ("torch.cuda.Stream", torch.cuda.Stream),
               ("torch._C", torch._C), ("torch.nn.functional", torch.nn.functional),
               ("torch.nn.Module", torch.nn.Module), ("torch.backends", torch.backends), ("time", time),
               ("threading", threading), ("os", os)]
    objects += [(name, module) for name, module in sys.modules.items()
                if name.startswith("cudaperf.rewards") and module is not None]
    return objects


def _matmul_precision() -> str:
    import torch

    try:
        return torch.get_float32_matmul_precision()
    except RuntimeError:   # torch refuses to answer once the legacy and new TF32 switches disagree
        return "mixed legacy and new settings"


def _precision() -> dict[str, Any]:
    import torch

    return {"cuda.matmul.allow_tf32": torch.backends.cuda.matmul.allow_tf32,
            "cudnn.allow_tf32": torch.backends.cudnn.allow_tf32,
            "float32_matmul_precision": _matmul_precision(),
            "fp16_reduced_precision": torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction,
            "bf16_reduced_precision": torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction,
            "default_dtype": str(torch.get_default_dtype())}


def pin_precision(allow_tf32: bool) -> None:
    """Both sides at the task's precision: TF32 off unless the task allows it (hack 15)."""
    import torch

    torch.backends.cuda.matmul.allow_tf32 = allow_tf32
    torch.backends.cudnn.allow_tf32 = allow_tf32
    torch.set_float32_matmul_precision("high" if allow_tf32 else "highest")


def _children() -> int:
    try:
        tasks = os.listdir(f"/proc/{os.getpid()}/task")
    except OSError:
        return 0
    count = 0
    for task in tasks:
        try:
            with open(f"/proc/{os.getpid()}/task/{task}/children") as f:
                count += len(f.read().split())
        except OSError:
            continue
    return count


class Guard:
    """Snapshot of what candidate code must not change; `violations()` lists what did.  Only callables
    are watched: module-level flags such as torch.cuda._initialized change legitimately."""

    def __init__(self) -> None:
        self.resnapshot()

    def pin_precision(self, allow_tf32: bool) -> None:
        """Set the task's precision on both sides; it is also what the candidate must leave in place."""
        pin_precision(allow_tf32)
        self.precision = _precision()

    def resnapshot(self) -> None:
        """Take the current state as the baseline: at start, and after the harness itself changed it
        (torch.compile rebinds functions and starts compile workers), right after a check passed."""
        self.objects = _watched()   # listed once: every harness module is imported before candidate code runs
        self.identities = {(name, attr): id(value) for name, obj in self.objects
                           for attr, value in list(vars(obj).items()) if callable(value)}
        self.precision = _precision()
        self.threads, self.children = threading.active_count(), _children()

    def violations(self) -> list[tuple[str, str]]:
        """(rule, message) for each change since the snapshot."""
        found = []
        current = {name: vars(obj) for name, obj in self.objects}
        swapped = [name for name, obj in self.objects
                   if name.startswith("cudaperf.") and sys.modules.get(name) is not obj]
        if swapped:
            found.append(("monkey-patch", f"module {swapped[0]} was replaced"))
        for (name, attr), ident in self.identities.items():
            namespace = current.get(name)
            if namespace is not None and (attr not in namespace or id(namespace[attr]) != ident):
                found.append(("monkey-patch", f"{name}.{attr} was replaced or deleted"))
                break
        if (precision := _precision()) != self.precision:
            changed = [k for k in precision if precision[k] != self.precision[k]]
            found.append(("precision-flags", f"precision settings changed: {', '.join(changed)}"))
        if threading.active_count() > self.threads:
            found.append(("threads", f"{threading.active_count() - self.threads} Python thread(s) left running"))
        if _children() > self.children:
            found.append(("threads", f"{_children() - self.children} child process(es) left running"))
        if sys.gettrace() is not None or sys.getprofile() is not None:
            found.append(("monkey-patch", "a trace or profile hook was installed"))
        return found


def aten_recorder():
    """A TorchDispatchMode that records the names of the ATen operators dispatched inside it."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class Recorder(TorchDispatchMode):
        def __init__(self) -> None:
            super().__init__()
            self.ops: set[str] = set()

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.ops.add(func.overloadpacket.__name__)
            return func(*args, **(kwargs or {}))

        @property
        def compute_ops(self) -> list[str]:
            return sorted(op for op in self.ops if op not in ALLOWED_OPS)

    return Recorder()


def launched_kernels(call) -> list[tuple[str, float]] | None:
    """(name, GPU microseconds) of each CUDA kernel `call()` launches (profiler), memcpy and memset
    left out; None when the profiler is unavailable."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    try:
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            call()
            torch.cuda.synchronize()
    except (RuntimeError, AssertionError):
        return None
    return [(e.name, _microseconds(e)) for e in prof.events()
            if str(getattr(e, "device_type", "")).endswith("CUDA")
            and not e.name.startswith(("Memcpy", "Memset", "cudaMem"))]


def _microseconds(event: Any) -> float:
    """A kernel event's duration; 0 where this torch's profiler records none (no share is then computed)."""
    try:
        return float(event.time_range.elapsed_us())
    except (AttributeError, TypeError, ValueError):
        return 0.0


def is_own(kernel: str, own: list[str]) -> bool:
    """`kernel` (a demangled name: `void ns::scale<256>(float*, int)`) is one the candidate defines."""
    return any(re.search(rf"(?<![\w]){re.escape(name)}\s*[<(]", kernel) or kernel == name for name in own)


def own_share(kernels: list[tuple[str, float]], own: list[str],
              floor_us: float = 0.0) -> tuple[float | None, list[tuple[str, float]]]:
    """(the candidate's own kernels' part of the GPU time, the other kernels with their part, largest
    first); memory fills and copies count for neither side.  None when no computing kernel ran.

    A kernel of torch's counts only for its time beyond `floor_us`, what a kernel that does nothing
    takes on this GPU: a tail of small reductions (a mean over 128 partial sums) is launch-bound and
    does no work worth the name, while torch doing the body on data of the task's size counts nearly
    whole.  Without it a candidate whose own kernels are fast sat just under the threshold because of
    a fixed few microseconds, and its twins with slower kernels passed."""
    kernels = [(n, t if is_own(n, own) else max(0.0, t - floor_us)) for n, t in kernels]
    computing = [(n, t) for n, t in kernels if not DATA_MOVEMENT.search(n) or is_own(n, own)]
    total = sum(t for _, t in computing)
    if total <= 0:
        return None, []
    others: dict[str, float] = {}
    for n, t in computing:
        if not is_own(n, own):
            others[n] = others.get(n, 0.0) + t / total
    return 1.0 - sum(others.values()), sorted(others.items(), key=lambda kv: -kv[1])
