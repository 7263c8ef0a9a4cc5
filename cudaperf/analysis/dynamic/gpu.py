"""The CuPy side of a measured run: compile with NVRTC, build the arguments, launch, time.

A *plan* (JSON, made by ``profile.plan``) says everything a run needs, so the same launch can be
repeated in a child process under Nsight Compute::

    python -m cudaperf.analysis.dynamic.gpu PLAN.json     # compile, one launch, nothing else

Buffers are filled on the host and copied (memcpy only), so a profiler sees no kernel but the
measured one.  Timing follows the calibration runs (tests/corpus/measure_h200.py): CUDA events
around each launch after warm-up launches, the L2 flushed before every timed launch by a memset of
twice its size, median of the repeats.  CuPy is imported inside the functions that need it.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from .buffers import BufferSpec, host_array
from .device import GpuUnavailable

NVRTC_OPTIONS = ("-std=c++17", "-lineinfo")
ATTRIBUTES = ("num_regs", "shared_size_bytes", "const_size_bytes", "local_size_bytes", "max_threads_per_block")


def cupy():
    """The CuPy module, once a CUDA device answers; GpuUnavailable (one line) otherwise."""
    try:
        import cupy as cp
    except ImportError:
        raise GpuUnavailable("CuPy is not installed (pip install 'cudaperf[gpu]')") from None
    try:
        count = cp.cuda.runtime.getDeviceCount()
    except Exception as exc:  # CUDARuntimeError without a driver; ImportError of libcuda on some wheels
        raise GpuUnavailable(f"no CUDA device: {str(exc).splitlines()[0]}") from None
    if count == 0:
        raise GpuUnavailable("no CUDA device")
    return cp


def compile_kernel(cp, plan: dict):
    """NVRTC through CuPy; raises the compiler's error (cupy's CompileException) unchanged."""
    defines = tuple(f"-D{k}={v}" for k, v in plan["defines"].items())
    module = cp.RawModule(code=Path(plan["source"]).read_text(), options=NVRTC_OPTIONS + defines,
                          name_expressions=[plan["name_expression"]])
    kernel = module.get_function(plan["name_expression"])
    if plan["smem"] > 48 * 1024:
        kernel.max_dynamic_shared_size_bytes = plan["smem"]
    return kernel


def _scalar(dtype: str, value: float):
    import numpy as np

    if dtype == "bfloat16":
        return np.array([value], dtype=np.float32).view(np.uint32)[0] >> np.uint32(16)
    return np.dtype(dtype).type(value)


def arguments(cp, plan: dict) -> list:
    """Device buffers and typed scalars in parameter order."""
    out = []
    for p in plan["params"]:
        if p["kind"] == "buffer":
            out.append(cp.asarray(host_array(BufferSpec(p["name"], p["dtype"], p["count"], p["init"]))))
        else:
            out.append(_scalar(p["dtype"], p["value"]))
    return out


def attributes(kernel) -> dict:
    """cudaFuncGetAttributes as CuPy exposes it (num_regs, static shared memory, ...)."""
    out = {}
    for name in ATTRIBUTES:
        try:
            out[name] = int(getattr(kernel, name))
        except (AttributeError, TypeError, ValueError):
            out[name] = None
    return out


def launch(kernel, plan: dict, args: list) -> None:
    kernel(tuple(plan["grid"]), tuple(plan["block"]), tuple(args), shared_mem=plan["smem"])


def time_kernel(cp, kernel, plan: dict, args: list, warmup: int, repeats: int) -> dict:
    """CUDA-event times of ``repeats`` launches after ``warmup`` ones, each after an L2 flush."""
    l2 = int(cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["l2CacheSize"])
    flush = cp.empty(2 * l2, dtype=cp.uint8)
    stream = cp.cuda.get_current_stream()
    for _ in range(warmup):
        launch(kernel, plan, args)
    start, end = cp.cuda.Event(), cp.cuda.Event()
    samples = []
    for _ in range(repeats):
        cp.cuda.runtime.memsetAsync(flush.data.ptr, 0, flush.nbytes, stream.ptr)
        start.record(stream)
        launch(kernel, plan, args)
        end.record(stream)
        end.synchronize()
        samples.append(cp.cuda.get_elapsed_time(start, end) * 1000.0)
    return {"median_us": statistics.median(samples), "min_us": min(samples), "mean_us": statistics.fmean(samples),
            "repeats": repeats, "warmup": warmup, "l2_flushed": True}


def launch_once(plan: dict) -> None:
    """What the child under ncu does: compile, build arguments, one launch, wait."""
    cp = cupy()
    kernel = compile_kernel(cp, plan)
    launch(kernel, plan, arguments(cp, plan))
    cp.cuda.Device().synchronize()


if __name__ == "__main__":
    launch_once(json.loads(Path(sys.argv[1]).read_text()))
