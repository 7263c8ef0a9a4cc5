"""Tasks and candidates, and which of the three formats a pair is.

- kernelbench: reference module (`Model`, `get_inputs`, `get_init_inputs`), Python candidate with
  `ModelNew` (its kernels usually built with `load_inline`).
- native: the same reference module, a CUDA candidate (`extern "C"` kernels) plus a launch spec.
- c: a C reference function plus a harness spec, a CUDA candidate plus a launch spec.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from .harness import Harness, embedded_harness, parse_harness
from .spec import LaunchSpec, SpecError, embedded_spec, load_spec_text, parse_spec

SPEC_SUFFIXES = (".launch.json", ".launch.yaml", ".launch.yml")
HARNESS_SUFFIXES = (".harness.json", ".harness.yaml", ".harness.yml")


class FormatError(ValueError):
    """The task (reference side) is unusable: a usage error, not the candidate's fault."""


@dataclass(frozen=True)
class Task:
    kind: str                       # torch | c
    source: str
    path: str | None = None
    harness: Harness | None = None
    harness_data: dict | None = None   # the harness as written, sent to the worker

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.source.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Candidate:
    kind: str                       # python | cuda
    source: str
    path: str | None = None
    spec: LaunchSpec | None = None
    spec_error: str | None = None   # a broken spec is the candidate's fault: the gate rejects it

    @property
    def digest(self) -> str:
        extra = repr(self.spec.raw) if self.spec else ""
        return hashlib.sha256((self.source + "\0" + extra).encode()).hexdigest()[:16]

    @property
    def label(self) -> str:
        return self.path or f"<{self.kind} candidate {self.digest}>"


def task_format(task: Task, candidate: Candidate) -> str:
    if task.kind == "c":
        if candidate.kind != "cuda":
            raise FormatError("a C reference takes a CUDA candidate (.cu with a launch spec)")
        return "c"
    return "kernelbench" if candidate.kind == "python" else "native"


def _sidecar(path: Path, suffixes: tuple[str, ...]) -> Path | None:
    stem = path.name.rsplit(".", 1)[0]
    return next((path.with_name(stem + s) for s in suffixes if path.with_name(stem + s).is_file()), None)


def _read(path: str | Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise FormatError(f"{path}: {exc.strerror or exc}") from None


def task_from_source(source: str, kind: str, harness: dict | None = None, path: str | None = None) -> Task:
    """A task from text: `kind` torch (KernelBench reference module) or c (C source + harness)."""
    if kind == "torch":
        for name in ("class Model", "def get_inputs", "def get_init_inputs"):
            if name not in source:
                raise FormatError(f"{path or 'reference'}: a KernelBench reference defines {name.split()[1]}")
        return Task("torch", source, path)
    if kind != "c":
        raise FormatError(f"task kind must be torch or c, got {kind!r}")
    try:
        data = harness if harness is not None else embedded_harness(source)
        if data is None:
            raise FormatError(f"{path or 'C reference'}: no harness spec (--harness, a .harness.json beside "
                              f"it, or a /* cudaperf:harness {{...}} */ block)")
        return Task("c", source, path, parse_harness(data), data)
    except SpecError as exc:
        raise FormatError(f"{path or 'C reference'}: harness: {exc}") from None


def load_task(path: str | Path, harness_path: str | Path | None = None) -> Task:
    path = Path(path)
    source = _read(path)
    if path.suffix == ".c":
        harness_file = Path(harness_path) if harness_path else _sidecar(path, HARNESS_SUFFIXES)
        try:
            data = load_spec_text(_read(harness_file), harness_file.suffix) if harness_file else None
        except SpecError as exc:
            raise FormatError(f"{harness_file}: {exc}") from None
        return task_from_source(source, "c", data, str(path))
    return task_from_source(source, "torch", path=str(path))


def candidate_from_source(source: str, kind: str | None = None, spec: dict | None = None,
                          path: str | None = None) -> Candidate:
    """`kind` python or cuda (guessed from `class ModelNew` when None).  A CUDA candidate's spec comes
    from `spec` or from a `/* cudaperf:launch {...} */` block in the source."""
    kind = kind or ("python" if "class ModelNew" in source or "import torch" in source else "cuda")
    if kind == "python":
        return Candidate("python", source, path)
    try:
        data = spec if spec is not None else embedded_spec(source)
        if data is None:
            return Candidate("cuda", source, path, None, "no launch spec (--launch, a .launch.json beside the "
                                                          "candidate, or a /* cudaperf:launch {...} */ block)")
        return Candidate("cuda", source, path, parse_spec(data))
    except SpecError as exc:
        return Candidate("cuda", source, path, None, str(exc))


def load_candidate(path: str | Path, spec_path: str | Path | None = None) -> Candidate:
    path = Path(path)
    source = _read(path)
    kind = "python" if path.suffix == ".py" else "cuda" if path.suffix in (".cu", ".cuh") else None
    spec = None
    spec_file = Path(spec_path) if spec_path else (_sidecar(path, SPEC_SUFFIXES) if kind != "python" else None)
    if spec_file is not None:
        try:
            spec = load_spec_text(_read(spec_file), spec_file.suffix)
        except SpecError as exc:
            return Candidate("cuda", source, str(path), None, f"{spec_file.name}: {exc}")
    return candidate_from_source(source, kind, spec, str(path))


def candidate_files(paths: list[str | Path]) -> list[Path]:
    """Files named, and the candidates (.py, .cu) inside directories named, sorted; launch specs and
    harnesses are not candidates."""
    found: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found.extend(sorted(f for f in p.iterdir() if f.suffix in (".py", ".cu") and f.is_file()))
        else:
            found.append(p)
    return found
