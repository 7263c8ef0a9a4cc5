"""A launch written at the top of the file, in the header convention of GPUVerify (whose test
suites and users' kernels carry it): `//--blockDim=[64,2] --gridDim=16 -DN=64`.  Kernels files
without host code then say how they are launched; the user's --grid/--block/-D still win."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .launch import LaunchError, validate

HEAD_BYTES = 4096  # the annotation sits in the comment lines that open the file
_DIMS = re.compile(r"--(blockDim|gridDim)=(\[[\d,\s]+\]|\d+)")
_DEFINE = re.compile(r"(?:^|\s)-D([A-Za-z_]\w*)(?:=(\S*))?")


@dataclass(frozen=True)
class LaunchAnnotation:
    grid: tuple[int, int, int] | None = None
    block: tuple[int, int, int] | None = None
    defines: dict[str, str] = field(default_factory=dict)
    problem: str | None = None  # why sizes written there were not taken


def _dims(spelled: str) -> tuple[int, int, int]:
    values = [int(v) for v in spelled.strip("[]").split(",") if v.strip()]
    return tuple(values + [1] * (3 - len(values)))[:3] if 1 <= len(values) <= 3 else (0, 0, 0)


def launch_annotation(raw: bytes) -> LaunchAnnotation | None:
    """The launch the file's opening `//` comment lines give, None when they give none."""
    found: dict[str, tuple[int, int, int]] = {}
    defines: dict[str, str] = {}
    for line in raw[:HEAD_BYTES].decode("utf-8", "replace").splitlines():
        line = line.strip()
        if not line:
            continue
        if not line.startswith("//"):
            break
        dims = _DIMS.findall(line)
        if dims:
            found.update((name, _dims(value)) for name, value in dims)
            defines.update((name, value or "1") for name, value in _DEFINE.findall(line))
    if not found:
        return None
    grid, block = found.get("gridDim"), found.get("blockDim")
    try:
        validate(grid or (1, 1, 1), block or (1, 1, 1))
    except LaunchError as exc:
        return LaunchAnnotation(defines=defines, problem=str(exc))
    return LaunchAnnotation(grid, block, defines)
