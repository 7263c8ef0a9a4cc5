"""Shared helpers: analyse a CUDA snippet under an explicit launch and return the kernel JSON."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from cudaperf.analysis.analyzer import Options, analyze_file, analyze_source
from cudaperf.analysis.report import document

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus"


def kernel_report(code: str, kernel: str | None = None, grid=(1024, 1, 1), block=(256, 1, 1), smem=0,
                  resources: str = "estimate", **args) -> dict:
    """Memory tests need no compiler: resources default to the estimate."""
    options = Options(kernel=kernel, grid=tuple(grid), block=tuple(block), dynamic_smem=smem,
                      args={k: v for k, v in args.items()}, resources=resources)
    doc = document([analyze_source(code, "test.cu", options)], "sm_90")
    kernels = doc["files"][0]["kernels"]
    assert kernels, f"no kernel analysed; diagnostics: {doc['files'][0]['diagnostics']}"
    return kernels[0]


def accesses(report: dict, array: str | None = None, kind: str | None = None) -> list[dict]:
    return [a for a in report["memory"]["accesses"]
            if (array is None or a["array"] == array) and (kind is None or a["kind"] == kind)]


def clang_or_skip() -> None:
    """Skip the calling test where the libclang frontend cannot run (the `clang` extra, or a library
    that does not load)."""
    pytest.importorskip("clang.cindex")
    from cudaperf.analysis import clangfront
    if not clangfront.available():
        pytest.skip("libclang does not load")


@pytest.fixture
def libclang() -> None:
    """`pytestmark = pytest.mark.usefixtures("libclang")`: a module of clang-only tests."""
    clang_or_skip()


def analyze_with_clang(path):
    return analyze_file(path, Options(frontend="clang", resources="estimate"))


def diagnostic_text(report) -> str:
    return "\n".join(d.message for d in report.diagnostics)


@pytest.fixture(scope="session")
def manifest() -> list[dict]:
    return json.loads((CORPUS / "manifest.json").read_text())


def descendant_pids(pid: int | None = None) -> set[int]:
    """Every process below `pid` (this one by default): workers forked by the engine's zygote are its
    grandchildren."""
    import os

    found, todo = set(), [pid or os.getpid()]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children") as f:
                    kids = {int(p) for p in f.read().split()}
            except OSError:
                continue
            todo.extend(kids - found)
            found |= kids
    return found


def child_pids() -> set[int]:
    """This process's children (zombies included): compared before and after, it shows leaked workers."""
    import os

    found = set()
    for task in os.listdir(f"/proc/{os.getpid()}/task"):
        with open(f"/proc/{os.getpid()}/task/{task}/children") as f:
            found |= {int(p) for p in f.read().split()}
    return found


def says(doc: str, *phrases: str) -> None:
    """Published figures held by a test: each phrase, built from the figures the test just computed,
    must appear word for word in the doc (line breaks and runs of spaces folded)."""
    text = re.sub(r"\s+", " ", (ROOT / doc).read_text())
    missing = [p for p in phrases if p not in text]
    assert not missing, f"{doc} does not say: {missing}"


def load_script(path: Path) -> ModuleType:
    """A benchmark or helper script outside the package, imported by path as a module of its own
    (registered in sys.modules, where dataclasses look their module up, under a name no test module has)."""
    spec = importlib.util.spec_from_file_location(f"loaded_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def declarations(cuda: str, functions) -> str:
    """`cpp_sources` declaring each of `functions` from its definition in `cuda`, as a working load_inline
    call must (torch binds `functions=` in the C++ file)."""
    found = []
    for name in functions:
        m = re.search(rf"^([^\n;{{}}]*\b{re.escape(name)}\s*\([^{{;]*\))\s*\{{", cuda, re.M)
        if m:
            found.append(m.group(1).strip() + ";")
    return "\n".join(found)
