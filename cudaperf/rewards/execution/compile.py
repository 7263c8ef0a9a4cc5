"""Compile stage, on the CPU: CUDA candidates -> cubin (NVRTC, else nvcc), C references -> shared
libraries (the system `cc`).  Every compile is a bounded child process, results (failures too) are
cached on disk by a hash of source, flags, architecture and compiler identity.  Compiles are child
processes, so a batch runs many at once from threads (api.Evaluator.evaluate_many)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from ...analysis.process import run_bounded
from ...analysis.resources import cache_dir, nvcc

NVRTC_OPTIONS = ["--std=c++17"]
C_FLAGS = ["-O2", "-shared", "-fPIC", "-std=c11"]


@dataclass(frozen=True)
class Compiled:
    ok: bool
    path: str | None       # the cubin or shared library
    log: str               # compiler messages (errors when not ok)
    backend: str           # nvrtc | nvcc | cc
    seconds: float
    cached: bool = False
    cacheable: bool = True   # False for failures of the environment (timeouts, a broken compiler)

    @property
    def first_error(self) -> str:
        lines = [ln.strip() for ln in self.log.splitlines() if ln.strip()]
        return next((ln for ln in lines if "error" in ln.lower()), lines[0] if lines else "compilation failed")


def exec_cache() -> Path:
    """$CUDAPERF_CACHE_DIR/exec (default ~/.cache/cudaperf/exec), beside the analyzer's ptxas cache."""
    return cache_dir().parent / "exec"


@cache
def _identity(tool: str) -> str:
    """Version text of a compiler, part of every cache key."""
    if tool == "nvrtc":
        from . import nvrtc

        return f"nvrtc {nvrtc.version()} {nvrtc.library()}"
    path = nvcc() if tool == "nvcc" else shutil.which(tool)
    if path is None:
        return ""
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return path
    return path + " " + out.strip().splitlines()[-1] if out.strip() else path


def available_backend() -> str | None:
    from . import nvrtc

    if nvrtc.library() is not None and nvrtc.version() is not None:
        return "nvrtc"
    return "nvcc" if nvcc() else None


def _cached(kind: str, key_parts: list[str], suffix: str, build: Callable[[Path], Compiled]) -> Compiled:
    key = hashlib.sha256("\0".join(key_parts).encode()).hexdigest()
    directory = exec_cache() / kind
    artifact, meta = directory / f"{key}{suffix}", directory / f"{key}.json"
    if meta.is_file():
        data = json.loads(meta.read_text())
        if not data["ok"] or artifact.is_file():
            return Compiled(**{**data, "path": str(artifact) if data["ok"] else None, "cached": True})
    directory.mkdir(parents=True, exist_ok=True)
    result = build(artifact)
    if not result.cacheable:
        return result
    tmp = meta.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps({**asdict(result), "path": None, "cached": False}))
    os.replace(tmp, meta)
    return result


def compile_cuda(source: str, arch: str = "sm_90", backend: str | None = None, timeout: float = 60.0,
                 options: list[str] | None = None) -> Compiled:
    """A cubin for `arch` (real architecture, e.g. sm_90) with every kernel of `source`."""
    backend = backend or available_backend()
    if backend is None:
        return Compiled(False, None, "no CUDA compiler: neither NVRTC nor nvcc was found", "none", 0.0)
    options = list(NVRTC_OPTIONS if options is None else options)

    def build(artifact: Path) -> Compiled:
        start = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="cudaperf-cc-") as tmp:
            unit, out = Path(tmp) / "candidate.cu", Path(tmp) / "candidate.cubin"
            unit.write_text(source)
            if backend == "nvrtc":
                command = [sys.executable, "-m", "cudaperf.rewards.execution.nvrtc", str(unit), str(out), arch,
                           *options]
            else:
                command = [nvcc(), "-cubin", f"-arch={arch}", *options, "-o", str(out), str(unit)]
            done = run_bounded(command, timeout, cwd=tmp)
            seconds = time.perf_counter() - start
            if done.returncode is None:
                return Compiled(False, None, f"{backend} took longer than {timeout:.0f} s", backend, seconds,
                                cacheable=False)
            log = (done.stderr + done.stdout).replace(str(unit), "candidate.cu")
            if done.returncode != 0 or not out.is_file():
                compile_error = done.returncode in (1, 2) and "error" in log
                return Compiled(False, None, log or f"{backend} failed ({done.returncode})", backend, seconds,
                                cacheable=compile_error)
            shutil.move(out, artifact)
        return Compiled(True, str(artifact), log, backend, seconds)

    return _cached("cubin", [source, arch, backend, " ".join(options), _identity(backend)], ".cubin", build)


def compile_c(source: str, timeout: float = 60.0, flags: list[str] | None = None) -> Compiled:
    """A shared library of a C reference, built with the system C compiler."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return Compiled(False, None, "no C compiler (cc) found", "cc", 0.0)
    flags = list(C_FLAGS if flags is None else flags)

    def build(artifact: Path) -> Compiled:
        start = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="cudaperf-c-") as tmp:
            unit, out = Path(tmp) / "reference.c", Path(tmp) / "reference.so"
            unit.write_text(source)
            done = run_bounded([compiler, *flags, "-o", str(out), str(unit), "-lm"], timeout, cwd=tmp)
            seconds = time.perf_counter() - start
            if done.returncode is None:
                return Compiled(False, None, f"cc took longer than {timeout:.0f} s", "cc", seconds, cacheable=False)
            if done.returncode != 0:
                return Compiled(False, None, done.stderr.replace(str(unit), "reference.c"), "cc", seconds)
            shutil.move(out, artifact)
        return Compiled(True, str(artifact), done.stderr, "cc", seconds)

    return _cached("c", [source, " ".join(flags), _identity(compiler)], ".so", build)
