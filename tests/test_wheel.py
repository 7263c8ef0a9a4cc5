"""Issue 30, item 8: the installed wheel works.  Every package of the source tree is in pyproject's list,
the data the code reads ships with it, and (slow) a wheel built from the repository, installed apart
from the checkout and run from an empty directory, passes every command's smoke test (.ci/smoke.py),
`cudaperf rank --train` included.  CI's wheel job does the same in a fresh venv."""

from __future__ import annotations

import fnmatch
import os
import shutil
import subprocess
import sys
import tomllib

import pytest
from conftest import ROOT

SETTINGS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def _package_dir(package: str):
    mapped = SETTINGS.get("package-dir", {})
    return ROOT / mapped[package] if package in mapped else ROOT / package.replace(".", "/")


def test_every_package_of_the_tree_is_listed():
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "cudaperf").rglob("__init__.py")}
    listed = set(SETTINGS["packages"])
    assert found - listed == set(), "missing from pyproject's packages"
    assert all(_package_dir(p).is_dir() for p in listed)


def test_every_data_file_the_package_holds_or_reads_ships():
    def shipped(package: str, path) -> bool:
        relative = path.relative_to(_package_dir(package)).as_posix()
        return any(fnmatch.fnmatch(relative, pattern) for pattern in SETTINGS["package-data"].get(package, []))

    data = [p for p in (ROOT / "cudaperf").rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")
            and "__pycache__" not in p.parts]
    for path in data:
        owner = ".".join(path.relative_to(ROOT).parts[:-1])
        while owner not in SETTINGS["packages"]:
            owner = owner.rsplit(".", 1)[0]
        assert shipped(owner, path), f"{path.relative_to(ROOT)} is not package data"
    from cudaperf.rl.dataset import load, styles_data

    assert load.measured() == ROOT / "tests" / "data" / "h200"  # a checkout reads the committed files
    for directory in (load.DEFAULT, styles_data.STYLES):
        files = [p for p in directory.iterdir() if p.is_file()]
        assert files and all(shipped("cudaperf.rl.measured", p) for p in files)


@pytest.mark.slow
def test_the_wheel_installed_apart_passes_every_smoke_test(tmp_path):
    source = tmp_path / "src"  # a copy: building leaves build/ and egg-info behind
    for name in ("pyproject.toml", "README.md", "cudaperf", "grammars", "tests/data/h200/dataset",
                 "tests/data/h200/styles"):
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        copy(ROOT / name, source / name, **({"ignore": shutil.ignore_patterns("__pycache__")}
                                            if (ROOT / name).is_dir() else {}))
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path / "dist"),
                    str(source)], check=True, capture_output=True, timeout=300)
    (wheel,) = (tmp_path / "dist").glob("cudaperf-*.whl")
    site = tmp_path / "site"
    subprocess.run([*pip, "install", "--no-deps", "-q", "--target", str(site), str(wheel)], check=True,
                   capture_output=True, timeout=300)
    command = tmp_path / "bin" / "cudaperf"  # the installed package on this interpreter's dependencies
    command.parent.mkdir()
    command.write_text(f'#!/bin/sh\nPYTHONPATH={site} exec {sys.executable} -m cudaperf "$@"\n')
    command.chmod(0o755)
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, str(ROOT / ".ci" / "smoke.py"), "--cudaperf", str(command)], cwd=empty,
                          capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "rank --train" in proc.stdout and " passed (" in proc.stdout
    assert list(empty.iterdir()) == []
