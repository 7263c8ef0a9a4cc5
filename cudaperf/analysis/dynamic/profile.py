"""``cudaperf profile``: one kernel compiled, launched, timed and profiled on the GPU, returned as a
``cudaperf.profile/1`` document.

The kernel's parameters and the launch's scalar arguments (given or inferred) come from the static
analyzer, so a run and its static estimate see the same kernel and launch.  Planning needs no GPU;
``profile`` then needs CuPy and a device, and ``ncu`` unless counters are skipped.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from ..analyzer import Options, analyze_file
from .buffers import BufferError, BufferRequest, scalar_dtype, specs
from .counters import measurements
from .device import identify
from .document import document, kernel_entry
from .gpu import arguments, attributes, compile_kernel, cupy, launch, time_kernel
from .nsight import collect


class ProfileError(RuntimeError):
    """The kernel did not compile or run, or ncu failed (one line)."""


@dataclass(frozen=True)
class Settings:
    warmup: int = 3
    repeats: int = 20
    ncu: bool = True
    timeout: float = 300.0  # seconds for the ncu subprocess


def plan(path: str | Path, options: Options, requests: dict[str, BufferRequest]) -> dict:
    """Everything a run needs (source, name expression, launch, typed arguments), as JSON data."""
    if not options.kernel or options.grid is None or options.block is None:
        raise BufferError("profile needs --kernel, --grid and --block")
    report = analyze_file(path, replace(options, resources="estimate"))
    if not report.kernels:
        raise BufferError(f"kernel {options.kernel} not found in {path}")
    kernel, launch_ = report.kernels[0].kernel, report.kernels[0].launch
    pointers = {p.name: p.type for p in kernel.params if p.pointer}
    buffers = {s.name: s for s in specs(pointers, requests, launch_.args,
                                        launch_.threads_per_block * launch_.blocks)}
    params = []
    for p in kernel.params:
        if p.pointer:
            params.append({"kind": "buffer", "name": p.name, **buffers[p.name].to_json()})
            continue
        dtype = scalar_dtype(p.type)
        if dtype is None:
            raise BufferError(f"parameter {p.name} of type {p.type.name} cannot be passed by value here")
        if p.name not in launch_.args:
            raise BufferError(f"scalar argument {p.name} has no value: give --arg {p.name}=VALUE")
        params.append({"kind": "scalar", "name": p.name, "dtype": dtype, "value": launch_.args[p.name]})
    return {"source": str(Path(path).resolve()), "name_expression": options.kernel, "defines": options.defines,
            "grid": list(launch_.grid), "block": list(launch_.block), "smem": launch_.dynamic_smem or 0,
            "params": params}


def _one_line(exc: Exception) -> str:
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"


def run(plan_: dict, settings: Settings) -> dict:
    """Compile, check one launch, time, identify the device and profile under ncu."""
    cp = cupy()
    try:
        kernel = compile_kernel(cp, plan_)
        args = arguments(cp, plan_)
        launch(kernel, plan_, args)
        cp.cuda.Device().synchronize()
        timing = time_kernel(cp, kernel, plan_, args, settings.warmup, settings.repeats)
    except Exception as exc:  # compile errors, launch failures, illegal addresses: the user's kernel
        raise ProfileError(_one_line(exc)) from None
    device_id = cp.cuda.Device().id
    device = identify(device_id, cp.cuda.runtime.getDeviceProperties(device_id))
    del args
    cp.get_default_memory_pool().free_all_blocks()
    row = None
    if settings.ncu:
        with tempfile.TemporaryDirectory(prefix="cudaperf-profile-") as tmp:
            plan_path = Path(tmp) / "plan.json"
            plan_path.write_text(json.dumps(plan_))
            row = collect(plan_path, settings.timeout)
    entry = kernel_entry(row) if row is not None else {
        "name": plan_["name_expression"], "signature": plan_["name_expression"], "measured": measurements({}),
        "counters": {}}
    entry.update(
        name=plan_["name_expression"], file=plan_["source"], attributes=attributes(kernel),
        launch={"grid": plan_["grid"], "block": plan_["block"], "dynamic_smem": plan_["smem"],
                "args": {p["name"]: p["value"] for p in plan_["params"] if p["kind"] == "scalar"},
                "buffers": {p["name"]: {k: p[k] for k in ("dtype", "count", "init")}
                            for p in plan_["params"] if p["kind"] == "buffer"}})
    entry["measured"]["time"].update(timing)
    return document(device, [entry])


def profile(path: str | Path, options: Options, requests: dict[str, BufferRequest],
            settings: Settings | None = None) -> dict:
    doc = run(plan(path, options, requests), settings or Settings())
    doc["kernels"][0]["file"] = str(path)  # as given, not the absolute path the run needed
    return doc
