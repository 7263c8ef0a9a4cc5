"""Pinned public CUDA corpora for the benchmarks: fetched into a cache, checksummed, never committed.

    python benchmarks/corpora.py                       # fetch (when missing), verify, print the directories
    python benchmarks/corpora.py --cache DIR           # another cache (default $CUDAPERF_CORPORA or
                                                       #   ~/.cache/cudaperf/corpora)
    python benchmarks/corpora.py --from HeCBench=GIT   # fetch from a local mirror or another URL
    python benchmarks/corpora.py --pin                 # print the checksums of what is there (to re-pin)

Each corpus is one commit of a public repository.  Only its source files are checked out (the suffixes
below, under the pinned paths; data files, images and archives are left out), and the checksum covers
exactly those: SHA-256 over the sorted lines `path NUL sha256(content)`, so a changed, added or removed
source fails the check.  Benchmarks take the printed directories as arguments
(`benchmarks/bench_lint_corpus.py $(python benchmarks/corpora.py)`); `benchmarks/bench_analyze.py
--fetch` calls `directories()` itself.  The stand-in corpus these replace (benchmarks/corpus, generated
code) was retired in issue 31; tests use tests/recall_fixtures and need no network.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

# the suffixes cudaperf reads (cudaperf/analysis/project.py SOURCE_SUFFIXES), frozen here: the checksum
# must not move when the analyzer learns a new suffix
SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".hh", ".cpp", ".cc", ".cxx", ".inl")


@dataclass(frozen=True)
class Pin:
    url: str
    commit: str
    roots: tuple[str, ...]  # sparse-checkout prefixes ("" = anywhere): root + "*" + suffix for each of SUFFIXES
    files: int  # source files checked out
    sha256: str  # over the sorted `path NUL sha256(content)` lines of those files
    measured: str  # the directories the benchmarks measure, a glob relative to the checkout


PINS = {
    "HeCBench": Pin("https://github.com/zjin-lcf/HeCBench", "f27000a5188f8ac79bd43fc95a1b3f890c18823d",
                    ("/src/*-cuda/**/",), 2310,
                    "9071ca2fdb51137fbcba546d0216a0460635bfed75a6ec7814cfb5157a2c6744", "src/*-cuda"),
    "cuda-samples": Pin("https://github.com/NVIDIA/cuda-samples", "c94ff366aed18c797b8a85dfaac7817b0228b420",
                        ("",), 733,
                        "7c9ee8ddef2a60673d2e2b36cf2f09f1634fa173ac9de2a632fb3f459bfca21c", "."),
}


def default_cache() -> Path:
    if os.environ.get("CUDAPERF_CORPORA"):
        return Path(os.environ["CUDAPERF_CORPORA"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cudaperf" / "corpora"


def checksum(directory: Path) -> tuple[int, str]:
    """The source files under `directory` (.git left out) and their SHA-256 (see the module's text)."""
    lines = []
    for root, dirs, names in os.walk(directory):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in names:
            path = Path(root) / name
            if name.endswith(SUFFIXES) and path.is_file():
                rel = path.relative_to(directory).as_posix()
                lines.append(f"{rel}\0{hashlib.sha256(path.read_bytes()).hexdigest()}\n")
    return len(lines), hashlib.sha256("".join(sorted(lines)).encode()).hexdigest()


def _git(*args: str, cwd: Path) -> None:
    """Run git; a failure (no network, a mirror without the pinned commit) ends the run with git's own
    message and what to try, not a traceback."""
    done = subprocess.run(["git", *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode:
        said = done.stderr.strip().splitlines()
        raise SystemExit(f"git {args[0]} failed ({said[-1] if said else f'exit {done.returncode}'}); "
                         "with no network, pass --from NAME=GIT_MIRROR")


def fetch(name: str, cache: Path, source: str | None = None) -> Path:
    """The checkout of corpus `name` in `cache`, fetched first when missing (one commit, depth 1, blobs
    of the source files only).  `source`: a local mirror (a git directory) or another URL to fetch from."""
    pin = PINS[name]
    into = cache / f"{name}-{pin.commit[:12]}"
    if into.exists():
        return into
    cache.mkdir(parents=True, exist_ok=True)
    part = cache / f".{into.name}.part"
    shutil.rmtree(part, ignore_errors=True)
    part.mkdir()
    url = source or pin.url
    if Path(url).exists():  # a local mirror: let git's upload-pack serve a filtered, by-commit fetch
        url = Path(url).resolve().as_uri()
    _git("init", "-q", cwd=part)
    _git("remote", "add", "origin", url, cwd=part)
    if url.startswith("file:"):
        _git("config", "remote.origin.uploadpack",
             "git -c uploadpack.allowFilter=true -c uploadpack.allowAnySHA1InWant=true upload-pack", cwd=part)
    _git("config", "core.sparseCheckout", "true", cwd=part)
    patterns = [f"{root}*{suffix}" for root in pin.roots for suffix in SUFFIXES]
    (part / ".git" / "info").mkdir(parents=True, exist_ok=True)
    (part / ".git" / "info" / "sparse-checkout").write_text("\n".join(patterns) + "\n")
    _git("fetch", "-q", "--depth", "1", "--filter=blob:none", "origin", pin.commit, cwd=part)
    _git("checkout", "-q", "--detach", pin.commit, cwd=part)
    part.rename(into)
    return into


def verify(name: str, checkout: Path) -> None:
    """Fail unless `checkout` is the pinned commit with exactly the pinned source files."""
    pin = PINS[name]
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=checkout, capture_output=True, text=True).stdout.strip()
    files, digest = checksum(checkout)
    if head != pin.commit or (files, digest) != (pin.files, pin.sha256):
        raise SystemExit(f"{checkout}: expected {name} at {pin.commit[:12]} with {pin.files} source files "
                         f"(sha256 {pin.sha256[:16]}...), found {head[:12] or 'no commit'} with {files} "
                         f"(sha256 {digest[:16]}...); remove it to fetch again")


def directories(cache: Path | None = None, sources: dict[str, str] | None = None) -> list[Path]:
    """Every pinned corpus fetched (when missing) and verified; the directories the benchmarks measure:
    HeCBench's `src/*-cuda` programs, then cuda-samples."""
    cache, sources = cache or default_cache(), sources or {}
    out = []
    for name, pin in PINS.items():
        checkout = fetch(name, cache, sources.get(name))
        verify(name, checkout)
        out += sorted(checkout.glob(pin.measured)) if pin.measured != "." else [checkout]
    return out


def labels() -> list[str]:
    """The pinned corpora as benchmark results name them: `HeCBench src/*-cuda @ f27000a5188f`."""
    return [f"{name}{'' if pin.measured == '.' else ' ' + pin.measured} @ {pin.commit[:12]}"
            for name, pin in PINS.items()]


def parse_sources(items: list[str]) -> dict[str, str]:
    sources = dict(item.split("=", 1) for item in items)
    unknown = set(sources) - set(PINS)
    if unknown:
        raise SystemExit(f"unknown corpus {sorted(unknown)}; pinned: {sorted(PINS)}")
    return sources


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=None, help="where checkouts live (never in this repository)")
    parser.add_argument("--from", dest="sources", action="append", default=[], metavar="NAME=GIT",
                        help="fetch corpus NAME from this git directory or URL instead of its public URL")
    parser.add_argument("--pin", action="store_true", help="print the file counts and checksums of the checkouts")
    ns = parser.parse_args(argv)
    cache, sources = ns.cache or default_cache(), parse_sources(ns.sources)
    if ns.pin:
        for name in PINS:
            files, digest = checksum(fetch(name, cache, sources.get(name)))
            print(f"{name}: files={files} sha256={digest}")
        return
    print("\n".join(map(str, directories(cache, sources))))


if __name__ == "__main__":
    sys.exit(main())
