"""NVRTC through ctypes: CUDA source -> cubin in tens of milliseconds, no GPU needed.

Run as `python -m cudaperf.rewards.execution.nvrtc SOURCE OUT ARCH [OPTION...]` by compile.py, in
its own process group with a time limit: a pathological candidate can hang or crash the compiler,
never the caller.  Exit 0 compiled, 1 compile error (log on stderr), 3 NVRTC not found, 4 NVRTC itself failed."""

from __future__ import annotations

import ctypes
import glob
import os
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path


@cache
def library() -> str | None:
    """libnvrtc from $CUDAPERF_NVRTC, the CUDA toolkit, the nvidia-cuda-nvrtc wheel or the loader path."""
    candidates = [os.environ.get("CUDAPERF_NVRTC", "")]
    roots = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"]
    for root in filter(None, roots):
        candidates += sorted(glob.glob(f"{root}/lib64/libnvrtc.so*")) + sorted(glob.glob(
            f"{root}/targets/*/lib/libnvrtc.so*"))
    for entry in sys.path:
        candidates += sorted(glob.glob(f"{entry}/nvidia/**/libnvrtc.so*", recursive=True), reverse=True)
    for path in candidates:
        if path and Path(path).is_file() and "builtins" not in path and ".alt." not in path:
            return path
    import ctypes.util

    return ctypes.util.find_library("nvrtc")


@cache
def include_dirs() -> list[str]:
    """CUDA headers for `#include <cuda_fp16.h>` and friends: the toolkit's, else the wheel's."""
    import shutil

    roots = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"]
    if shutil.which("nvcc"):
        roots.append(str(Path(shutil.which("nvcc")).resolve().parent.parent))
    found = [f"{r}/include" for r in filter(None, roots) if Path(f"{r}/include/cuda_fp16.h").is_file()]
    lib = library()
    if lib and (Path(lib).parent.parent / "include" / "cuda_fp16.h").is_file():
        found.append(str(Path(lib).parent.parent / "include"))
    return list(dict.fromkeys(found))[:1]


@cache
def _load() -> ctypes.CDLL | None:
    """libnvrtc, with its builtins library loaded first from the same folder (NVRTC looks for it on the
    loader path only, which a wheel's folder is not)."""
    path = library()
    if path is None:
        return None
    try:
        for builtins in sorted(Path(path).parent.glob("libnvrtc-builtins.so*")):
            if ".alt." not in builtins.name:
                ctypes.CDLL(str(builtins), mode=ctypes.RTLD_GLOBAL)
                break
        return ctypes.CDLL(path)
    except OSError:
        return None


def version() -> str | None:
    lib = _load()
    if lib is None:
        return None
    major, minor = ctypes.c_int(), ctypes.c_int()
    lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
    return f"{major.value}.{minor.value}"


def compile_cubin(source: str, arch: str, options: list[str]) -> tuple[bytes | None, str]:
    """(cubin, log); cubin is None when the source does not compile."""
    cubin, _, log = compile_program(source, arch, options)
    return cubin, log


def compile_program(source: str, arch: str, options: list[str], names: Sequence[str] = (),
                    include: Sequence[str] = ()) -> tuple[bytes | None, dict[str, str], str]:
    """(cubin, lowered names, log) with a name expression per entry of `names` (`k<float, 256>`: NVRTC
    instantiates the template and tells the mangled name to look up in the cubin); the include path is
    `include_dirs()`, then `include`."""
    lib = _load()
    if lib is None:
        return None, {}, "NVRTC not found"
    program = ctypes.c_void_p()
    _ok(lib.nvrtcCreateProgram(ctypes.byref(program), source.encode(), b"candidate.cu", 0, None, None), lib)
    try:
        for name in names:
            _ok(lib.nvrtcAddNameExpression(program, name.encode()), lib)
        args = [f"--gpu-architecture={arch}", *options, *(f"-I{d}" for d in [*include_dirs(), *include])]
        array = (ctypes.c_char_p * len(args))(*[a.encode() for a in args])
        status = lib.nvrtcCompileProgram(program, len(args), array)
        size = ctypes.c_size_t()
        lib.nvrtcGetProgramLogSize(program, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetProgramLog(program, log)
        text = log.value.decode(errors="replace")
        if status != 0:
            return None, {}, text
        lowered = {}
        for name in names:
            out = ctypes.c_char_p()
            _ok(lib.nvrtcGetLoweredName(program, name.encode(), ctypes.byref(out)), lib)
            lowered[name] = out.value.decode()
        lib.nvrtcGetCUBINSize(program, ctypes.byref(size))
        cubin = ctypes.create_string_buffer(size.value)
        _ok(lib.nvrtcGetCUBIN(program, cubin), lib)
        return cubin.raw, lowered, text
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(program))


def _ok(status: int, lib: ctypes.CDLL) -> None:
    if status != 0:
        lib.nvrtcGetErrorString.restype = ctypes.c_char_p
        raise RuntimeError(lib.nvrtcGetErrorString(status).decode())


def main(argv: list[str]) -> int:
    source, out, arch, *options = argv
    if _load() is None:
        print("NVRTC not found", file=sys.stderr)
        return 3
    try:
        cubin, log = compile_cubin(Path(source).read_text(), arch, options)
    except RuntimeError as exc:
        print(f"NVRTC failed: {exc}", file=sys.stderr)
        return 4
    sys.stderr.write(log)
    if cubin is None:
        return 1
    Path(out).write_bytes(cubin)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
