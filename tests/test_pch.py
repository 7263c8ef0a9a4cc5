"""The precompiled-header compiler wrapper for load_inline builds, with the real g++ on a small header."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cudaperf.rewards.execution import pch

pytestmark = pytest.mark.skipif(shutil.which("c++") is None, reason="needs a C++ compiler")

HEADER = "#pragma once\n#include <map>\n#include <string>\ninline int answer() { return 42; }\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "inc" / "torch").mkdir(parents=True)
    (tmp_path / "inc" / "torch" / "extension.h").write_text(HEADER)
    (tmp_path / "main.cpp").write_text("#include <torch/extension.h>\nint f() { return answer(); }\n")
    (tmp_path / "other.cpp").write_text("int g() { return 1; }\n")
    return tmp_path


def _compile(project: Path, source: str, *extra: str) -> subprocess.CompletedProcess:
    cxx = pch.command(project / "pch")
    args = [cxx, "-MMD", "-MF", f"{source}.d", "-DTORCH_EXTENSION_NAME=ext_" + source.split(".")[0],
            "-isystem", str(project / "inc"), "-fPIC", "-H", *extra, "-c", str(project / source),
            "-o", str(project / f"{source}.o")]
    return subprocess.run(args, capture_output=True, text=True, cwd=project)


def test_second_compile_uses_the_precompiled_header(project: Path) -> None:
    first = _compile(project, "main.cpp")
    assert first.returncode == 0, first.stderr
    again = _compile(project, "main.cpp")
    assert again.returncode == 0, again.stderr
    assert (project / "main.cpp.o").is_file()
    # gcc's -H marks a precompiled header it used with "!"
    assert any(line.startswith("! ") and line.endswith("extension.h.gch") for line in again.stderr.splitlines())


def test_other_sources_and_links_pass_through(project: Path) -> None:
    done = _compile(project, "other.cpp")
    assert done.returncode == 0, done.stderr
    assert not any(p.is_dir() for p in (project / "pch").iterdir())   # only the script, no overlay
    link = subprocess.run([pch.command(project / "pch"), str(project / "other.cpp.o"), "-shared",
                           "-o", str(project / "libother.so")], capture_output=True, text=True)
    assert link.returncode == 0 and (project / "libother.so").is_file()


def test_compile_errors_reach_the_caller(project: Path) -> None:
    (project / "main.cpp").write_text("#include <torch/extension.h>\nint f() { return missing(); }\n")
    done = _compile(project, "main.cpp")
    assert done.returncode != 0 and "missing" in done.stderr


def test_flags_shared_with_the_header_leave_out_name_outputs_and_source() -> None:
    args = ["-MMD", "-MF", "m.o.d", "-DTORCH_EXTENSION_NAME=e", "-DKEEP=1", "-isystem", "/x", "-O3",
            "-c", "/b/main.cpp", "-o", "main.o"]
    assert pch.header_flags(args, "/b/main.cpp") == ["-DKEEP=1", "-isystem", "/x", "-O3"]


@pytest.mark.slow
def test_overlays_are_capped_least_recent_first(project: Path) -> None:
    for i in range(pch.KEEP + 2):
        assert _compile(project, "main.cpp", f"-DVARIANT={i}").returncode == 0
    overlays = [p for p in (project / "pch").iterdir() if p.is_dir()]
    assert len(overlays) == pch.KEEP
    newest = max(overlays, key=lambda p: p.stat().st_mtime)
    assert (newest / "torch" / "extension.h.gch").is_file()


@pytest.mark.slow
def test_builders_build_real_extensions_ahead_and_leave_nothing_running(tmp_path: Path, monkeypatch) -> None:
    """torch's real load_inline in a builder started ahead (C++ only, so the CPU build of torch does):
    the build works and is importable from the cache, a compile error comes back with gcc's message,
    and closing kills the idle builder."""
    pytest.importorskip("torch")
    pytest.importorskip("pyseccomp")
    from cudaperf.rewards.execution import torch_ext

    builders = torch_ext.Builders(tmp_path, "9.0", jobs=2, ready=1)
    builders.warm()
    good = torch_ext.normalise((), {"name": "cp_add_one", "cpp_sources": "int add_one(int x) { return x + 1; }",
                                    "functions": ["add_one"]})
    bad = torch_ext.normalise((), {"name": "cp_broken", "cpp_sources": "int add_one(int x) { return y; }",
                                   "functions": ["add_one"]})
    try:
        ok, output, _ = builders.build(good, 600)
        assert ok, output
        assert "built the plain variant" in output
        monkeypatch.setenv("TORCH_CUDA_ARCH_LIST", "9.0")
        assert torch_ext.load_built(good, tmp_path).add_one(41) == 42
        ok, output, _ = builders.build(bad, 600)
        assert not ok and "return y;" in output and "was not declared" in output
    finally:
        builders.close()
    assert not builders._idle
