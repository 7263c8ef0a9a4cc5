"""Device side of the fast path: NVRTC compiles the split device source with one name expression per
kernel instantiation the wrapper launches (`k`, `k<float, 256>`), which makes NVRTC instantiate
templates and tells the mangled (lowered) name to look up in the cubin; no `extern "C"` edit of the
candidate's text is needed.  Compiles run as a bounded child process (`python -m ...fastpath.device`),
like compile.py's, and are cached the same way; the worker-side `load` binds a plan's launches to
`driver.Module` on torch's current stream.

A device source NVRTC rejects is a fallback, not a compile error: the full build may still accept
it (host headers NVRTC lacks), and its verdict is the one that counts.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .plan import Translation


@dataclass(frozen=True)
class DeviceBuild:
    ok: bool
    cubin: str | None                 # path
    lowered: dict[str, str]           # name expression -> mangled name in the cubin
    log: str
    seconds: float
    cached: bool = False

    @property
    def first_error(self) -> str:
        lines = [ln.strip() for ln in self.log.splitlines() if ln.strip()]
        return next((ln for ln in lines if "error" in ln.lower()), lines[0] if lines else "NVRTC failed")


def compile_device(translation: Translation, arch: str, timeout: float = 60.0, cache: bool = True) -> DeviceBuild:
    """The translation's device source -> cubin and lowered names, in a bounded child process; cached
    under the exec cache by source, options, names, architecture and NVRTC's identity."""
    from ....analysis.process import run_bounded
    from .. import nvrtc
    from ..compile import exec_cache

    if nvrtc.library() is None:
        return DeviceBuild(False, None, {}, "NVRTC not found", 0.0)
    request = {"source": translation.device_source, "arch": arch, "options": translation.nvrtc_options,
               "names": translation.device_names()}
    key = hashlib.sha256(json.dumps({**request, "nvrtc": f"{nvrtc.version()} {nvrtc.library()}"},
                                    sort_keys=True).encode()).hexdigest()
    directory = exec_cache() / "fastpath"
    cubin, meta = directory / f"{key}.cubin", directory / f"{key}.json"
    if cache and meta.is_file():
        data = json.loads(meta.read_text())
        if not data["ok"] or cubin.is_file():
            return DeviceBuild(data["ok"], str(cubin) if data["ok"] else None, data["lowered"], data["log"],
                               data["seconds"], True)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cudaperf-fast-") as tmp:
        (Path(tmp) / "request.json").write_text(json.dumps(request))
        done = run_bounded([sys.executable, "-m", __name__, str(Path(tmp) / "request.json"), str(Path(tmp) / "out")],
                           timeout, cwd=tmp)
        seconds = time.perf_counter() - start
        if done.returncode is None:
            return DeviceBuild(False, None, {}, f"NVRTC took longer than {timeout:.0f} s", seconds)
        answer_path = Path(tmp) / "out.json"
        if done.returncode != 0 or not answer_path.is_file():
            return DeviceBuild(False, None, {}, (done.stderr or "")[-4000:] or f"NVRTC failed ({done.returncode})",
                               seconds)
        answer = json.loads(answer_path.read_text())
        build = DeviceBuild(answer["ok"], None, answer["lowered"], answer["log"][-8000:], seconds)
        if cache:
            directory.mkdir(parents=True, exist_ok=True)
            if build.ok:
                shutil.move(str(Path(tmp) / "out.cubin"), cubin)
            tmp_meta = meta.with_suffix(f".{os.getpid()}.tmp")
            tmp_meta.write_text(json.dumps({"ok": build.ok, "lowered": build.lowered, "log": build.log,
                                            "seconds": seconds}))
            os.replace(tmp_meta, meta)
            return DeviceBuild(build.ok, str(cubin) if build.ok else None, build.lowered, build.log, seconds)
        if build.ok:
            kept = Path(tempfile.mkdtemp(prefix="cudaperf-fast-cubin-")) / "device.cubin"
            shutil.move(str(Path(tmp) / "out.cubin"), kept)
            return DeviceBuild(True, str(kept), build.lowered, build.log, seconds)
        return build


class DriverLauncher:
    """The interpreter's launcher on a GPU: a cubin loaded in torch's context, launches on torch's
    current stream (or the legacy default stream for `<<<g, b>>>` without one), argument sizes
    checked against the cubin's parameter list once per kernel."""

    def __init__(self, cubin: str, lowered: dict[str, str]):
        from .. import driver

        self.driver = driver
        self.module = driver.Module(Path(cubin).read_bytes())
        self.lowered = lowered
        self.launched: list[str] = []
        self._checked: set[str] = set()

    def launch(self, kernel: str, grid: tuple[int, int, int], block: tuple[int, int, int], smem: int, stream: str,
               args: list[tuple[str, Any]]) -> None:
        self.bind(kernel, grid, block, smem, stream, args, ())(())

    def bind(self, kernel: str, grid: tuple[int, int, int], block: tuple[int, int, int], smem: int, stream: str,
             args: list[tuple[str, Any]], patched: tuple[int, ...]) -> Callable[[Sequence[int]], None]:
        """A launch packed once (replay.py calls it again with new pointers at `patched`); the stream is
        looked up at each launch, as the C++'s getCurrentCUDAStream() is."""

        from .interp import LaunchFailure, Unsupported

        name = self.lowered[kernel]
        if name not in self._checked:
            sizes = self.module.parameter_sizes(name)
            widths = {"p": 8, "i": 4, "I": 4, "f": 4, "q": 8, "Q": 8, "d": 8, "b": 1}
            given = [len(value) if code == "s" else widths[code] for code, value in args]   # "s": a struct's bytes
            if sizes is not None and sizes != given:
                raise Unsupported(f"kernel {kernel} takes parameters of {sizes} bytes, the plan passes {given}")
            self._checked.add(name)
        bound = self.module.bind(name, grid, block, smem, list(args), patched)
        current = stream == "current"
        error, launched = self.driver.CudaError, self.launched
        stream_of, device_now = _current_raw_stream()

        def launch(addresses: Sequence[int]) -> None:
            try:
                bound(stream_of(device_now()) if current else 0, addresses)
            except error as exc:
                if exc.code in (1, 9, 701):   # invalid value / configuration, out of resources: not sticky
                    raise LaunchFailure(exc.code) from None
                raise
            launched.append(kernel)
        return launch

    def occupancy(self, kernel: str, threads: int, smem: int) -> int:
        return self.module.max_active_blocks(self.lowered[kernel], threads, smem)

    def symbol_size(self, symbol: str) -> int:
        return self.module.variable(self.lowered[f"&{symbol}"])[1]

    def copy_to_symbol(self, source: Any, start: int, count: int, symbol: str, offset: int, stream: str) -> Any:
        """cudaMemcpyToSymbolAsync device to device, on the stream the C++ names (`current`: torch's)."""
        address, _ = self.module.variable(self.lowered[f"&{symbol}"])
        stream_of, device_now = _current_raw_stream()
        self.module.copy(address + offset, int(source.data_ptr()) + start, count,
                         stream_of(device_now()) if stream == "current" else 0)
        return source

    def synchronize(self) -> None:
        import torch

        torch.cuda.synchronize()


def _current_raw_stream() -> tuple[Callable[[int], int], Callable[[], int]]:
    """(stream of a device, the current device) as the C++'s getCurrentCUDAStream() reads them:
    torch's raw-stream lookup costs well under a microsecond, `torch.cuda.current_stream()` about five
    (it builds a Stream object), which every replayed launch would add to the candidate's time."""
    import torch

    try:
        return torch._C._cuda_getCurrentRawStream, torch._C._cuda_getDevice
    except AttributeError:   # a torch built without CUDA
        return (lambda _device: torch.cuda.current_stream().cuda_stream), (lambda: 0)


def load(translation: Translation, build: DeviceBuild, device: str = "cuda") -> Any:
    """What the worker's load_inline returns on the fast path: a module whose exported functions run
    the plans, launching the cubin's kernels through the driver."""
    from .interp import Interpreter
    from .module import FastModule

    if not build.ok or build.cubin is None:
        raise RuntimeError(f"no device build: {build.first_error}")
    return FastModule(Interpreter(translation, DriverLauncher(build.cubin, build.lowered), device))


def main(argv: list[str]) -> int:
    from .. import nvrtc

    request = json.loads(Path(argv[0]).read_text())
    cccl = [str(Path(d, "cccl")) for d in nvrtc.include_dirs() if Path(d, "cccl").is_dir()]   # cuda/std/...
    try:
        cubin, lowered, log = nvrtc.compile_program(request["source"], request["arch"],
                                                    ["--std=c++17", *request["options"]], request["names"], cccl)
    except RuntimeError as exc:
        print(f"NVRTC failed: {exc}", file=sys.stderr)
        return 4
    if cubin is not None:
        Path(argv[1] + ".cubin").write_bytes(cubin)
    Path(argv[1] + ".json").write_text(json.dumps({"ok": cubin is not None, "lowered": lowered, "log": log}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


# ---------------------------------------------------------------- the two calls an engine needs

def spec_key(spec: dict) -> str:
    """Identity of one load_inline call's arguments (torch_ext.normalise), to match the worker's call to
    what the engine prepared."""
    return hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode()).hexdigest()[:24]


def prepare(spec: dict, arch: str, timeout: float = 60.0) -> tuple[dict | None, str]:
    """Engine side, on the CPU, outside the sandbox (it starts a compiler): translate one load_inline
    call and compile its device code.  (record, log line) on the fast path, the record JSON-able for
    the job; (None, "fallback: REASON") when the full build must run."""
    from .plan import translate_or_reason

    translation, reason = translate_or_reason(spec)
    if translation is None:
        return None, f"fallback: {reason}"
    build = compile_device(translation, arch, timeout)
    if not build.ok:
        return None, f"fallback: nvrtc: {build.first_error[:200]}"
    return {"key": spec_key(spec), "cubin": build.cubin, "lowered": build.lowered, "seconds": round(build.seconds, 3),
            "cached": build.cached}, f"fast path: NVRTC {build.seconds:.2f} s{' (cached)' if build.cached else ''}"


def load_prepared(spec: dict, record: dict, device: str = "cuda") -> Any:
    """Worker side, inside the sandbox: what the candidate's load_inline(**spec) returns on the fast
    path.  The plan is translated again from the arguments the candidate really passed (milliseconds,
    no process started); a call whose arguments differ from the prepared ones raises KeyError, so the
    caller uses the full build for it."""
    from .plan import translate

    if spec_key(spec) != record.get("key"):
        raise KeyError("load_inline arguments differ from the ones prepared for the fast path")
    translation = translate(spec)
    build = DeviceBuild(True, record["cubin"], dict(record["lowered"]), "", float(record.get("seconds", 0.0)))
    return load(translation, build, device)
