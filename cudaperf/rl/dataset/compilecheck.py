"""Compile implementations with `nvcc -cubin` on a CPU machine, many per compiler call: each source
goes into a namespace of its own (its macros undefined before it, `extern "C"` dropped, headers
hoisted), so one nvcc start-up is paid per batch instead of per kernel.  A failing batch is split
until the failing sources are isolated."""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ...analysis.resources import nvcc

_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)", re.M)
_INCLUDE = re.compile(r"^\s*#\s*include\s*<[^>]+>\s*$", re.M)
HEADERS = "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"


def combined(sources: Sequence[str]) -> str:
    parts = [HEADERS]
    for i, source in enumerate(sources):
        undef = "".join(f"#undef {name}\n" for name in sorted(set(_DEFINE.findall(source))))
        body = _INCLUDE.sub("", source).replace('extern "C" ', "")
        parts.append(f"{undef}namespace unit{i} {{\n{body}\n}}\n")
    return "".join(parts)


def _compile(text: str, arch: str, timeout: float) -> tuple[bool, str]:
    with tempfile.TemporaryDirectory(prefix="cudaperf-check-") as tmp:
        unit = Path(tmp) / "batch.cu"
        unit.write_text(text)
        done = subprocess.run([nvcc() or "nvcc", f"-arch={arch}", "-cubin", "-o", str(Path(tmp) / "batch.cubin"),
                               str(unit)], capture_output=True, text=True, timeout=timeout)
        return done.returncode == 0, done.stderr


def failures(sources: Sequence[str], arch: str = "sm_90", batch: int = 64, jobs: int = 1,
             timeout: float = 600.0) -> dict[int, str]:
    """Index -> compiler messages for every source that does not compile."""
    def check(indices: list[int]) -> dict[int, str]:
        ok, log = _compile(combined([sources[i] for i in indices]), arch, timeout)
        if ok:
            return {}
        if len(indices) == 1:
            return {indices[0]: log}
        half = len(indices) // 2
        return {**check(indices[:half]), **check(indices[half:])}

    chunks = [list(range(i, min(i + batch, len(sources)))) for i in range(0, len(sources), batch)]
    found: dict[int, str] = {}
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(check, chunks):
            found.update(result)
    return found
