"""A precompiled `<torch/extension.h>` for the C++ file of every load_inline build.

torch writes a `main.cpp` per extension (`#include <torch/extension.h>`, the candidate's declarations,
the pybind11 bindings) and g++ spends most of its 15 s parsing that one header.  Builds in this
package run with CXX set to `command(root)`, a script that runs this file:

- a compile (`-c`) of a source whose first line includes `<torch/extension.h>` gets `-I OVERLAY`
  in front, where `OVERLAY/torch/extension.h` includes the real header and
  `OVERLAY/torch/extension.h.gch` is that header precompiled with the same command line (less the
  extension's name, dependency-file and output options), so gcc accepts it and the compile takes
  about a third of the time;
- every other command (the link, torch's compiler probes) runs unchanged.

The overlay is keyed by the command line, the compiler and the torch headers' version, so a torch
upgrade never meets a stale PCH.  At most `KEEP` overlays (about 0.8 GB each) are kept; the least
recently used one goes.  Any failure here falls back to the plain compile: the PCH only saves time.
So does a lock held for longer than `WAIT` (another compile precompiling the same header): no
compile waits on another's for long.  The PCH is written under a temporary name and renamed, so a
precompile that is killed leaves no PCH behind (its partial file goes with the next precompile).

Standard library only: this file runs as a script once per compile.
"""

from __future__ import annotations

import fcntl
import hashlib
import itertools
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

KEEP = 4
WAIT = 2.0   # seconds a compile waits for an overlay's lock before it compiles without the PCH
HEADER = "torch/extension.h"
_FIRST_LINE = re.compile(r"\s*#\s*include\s*<torch/extension\.h>")
_DROP_WITH_VALUE = {"-o", "-MF", "-MT", "-MQ"}
_DROP = re.compile(r"-c$|-MM?D$|-DTORCH_EXTENSION_NAME=")


def command(root: Path) -> str:
    """A CXX for torch's build: an executable script that runs this file with this interpreter."""
    root.mkdir(parents=True, exist_ok=True)
    script = root / "c++"
    text = f'#!/bin/sh\nexec "{sys.executable}" "{Path(__file__).resolve()}" "{root}" "$@"\n'
    if not script.is_file() or script.read_text() != text:
        temporary = root / f".c++.{os.getpid()}"
        temporary.write_text(text)
        temporary.chmod(0o755)
        temporary.replace(script)
    return str(script)


def _source(args: list[str]) -> str | None:
    """The C++ source a `-c` compile reads, when it starts by including torch/extension.h."""
    if "-c" not in args:
        return None
    for arg in args:
        if arg.endswith((".cpp", ".cc", ".cxx")) and os.path.isfile(arg):
            with open(arg, errors="replace") as f:
                if _FIRST_LINE.match(f.readline()):
                    return arg
    return None


def header_flags(args: list[str], source: str) -> list[str]:
    """The compile's options that the PCH must share: all but the source, outputs and the name."""
    kept, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg in _DROP_WITH_VALUE:
            skip = True
        elif arg != source and not _DROP.match(arg):
            kept.append(arg)
    return kept


def _real_header(flags: list[str]) -> Path | None:
    for flag, value in itertools.pairwise(flags):
        if flag in ("-isystem", "-I") and (Path(value) / HEADER).is_file():
            return Path(value) / HEADER
    for flag in flags:
        if flag.startswith("-I") and (Path(flag[2:]) / HEADER).is_file():
            return Path(flag[2:]) / HEADER
    return None


def _key(compiler: str, flags: list[str], header: Path) -> str:
    path = shutil.which(compiler) or compiler
    facts = [os.path.realpath(path), str(os.stat(path).st_mtime_ns), str(header.stat().st_mtime_ns)]
    version = header.parent / "version.h"
    if version.is_file():
        facts.append(version.read_text(errors="replace"))
    return hashlib.sha256("\0".join(facts + flags).encode()).hexdigest()[:20]


def _evict(root: Path, keep: Path) -> None:
    """Drop least recently used overlays beyond KEEP - 1, skipping any a compile holds."""
    overlays = sorted((d for d in root.iterdir() if d.is_dir() and d != keep), key=lambda d: d.stat().st_mtime)
    for old in overlays[:max(0, len(overlays) - (KEEP - 1))]:
        with open(old / ".lock", "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue
            shutil.rmtree(old, ignore_errors=True)


def _flock(lock, mode: int, wait: float = WAIT) -> bool:
    """Take an flock, polling for at most `wait` seconds; False when it stayed held."""
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(lock, mode | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)


def _write(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.write_text(text)
    temporary.replace(path)


def _file_size_to_hard_limit() -> None:
    """A builder caps the files it writes below a PCH's size (RLIMIT_FSIZE soft limit); the
    precompile, which runs torch's header and nothing of the candidate's, may go to the hard one."""
    import resource

    hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
    resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))


def _run_tail(command: list[str], keep: int = 4000) -> tuple[int, str]:
    """Run a command; its exit status and the last `keep` bytes of its stderr (the rest is dropped)."""
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=_file_size_to_hard_limit)
    tail = b""
    while chunk := proc.stderr.read(1 << 16):
        tail = (tail + chunk)[-keep:]
    proc.stderr.close()
    return proc.wait(), tail.decode(errors="replace")


def overlay(root: Path, compiler: str, flags: list[str]) -> Path | None:
    """The overlay directory holding a PCH built with `flags`, building it if needed; None if the
    header cannot be precompiled, or another compile is precompiling it right now (the compile then
    goes ahead without it rather than wait).  The PCH is written to a temporary name and renamed."""
    header = _real_header(flags)
    if header is None:
        return None
    directory = root / _key(compiler, flags, header)
    gch = directory / HEADER.replace(".h", ".h.gch")
    if gch.is_file():
        os.utime(directory)
        return directory
    (directory / "torch").mkdir(parents=True, exist_ok=True)
    with open(directory / ".lock", "a") as lock:
        if not _flock(lock, fcntl.LOCK_EX) or (directory / "failed").is_file():
            return None
        if not gch.is_file():
            _evict(root, directory)
            for stale in gch.parent.glob(f"{gch.stem}.part*"):   # a killed precompile's
                stale.unlink(missing_ok=True)
            _write(directory / HEADER, f'#include "{header}"\n')
            partial = gch.with_suffix(f".part{os.getpid()}")
            code, errors = _run_tail([compiler, "-x", "c++-header", str(directory / HEADER), "-o", str(partial),
                                      *flags])
            if code != 0:
                if code > 0:   # a compiler killed by a signal is no verdict on the flags
                    _write(directory / "failed", errors)
                partial.unlink(missing_ok=True)
                return None
            partial.replace(gch)
    return directory


def main(argv: list[str]) -> int:
    root, args = Path(argv[0]), argv[1:]
    compiler = os.environ.get("CUDAPERF_REAL_CXX", "c++")
    source = _source(args)
    if source is not None:
        try:
            directory = overlay(root, compiler, header_flags(args, source))
            if directory is not None:
                with open(directory / ".lock", "a") as lock:   # shared: not evicted while this compile reads
                    if _flock(lock, fcntl.LOCK_SH) and (directory / HEADER.replace(".h", ".h.gch")).is_file():
                        return subprocess.run([compiler, f"-I{directory}", *args]).returncode
        except OSError:
            pass
    os.execvp(compiler, [compiler, *args])
    return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
