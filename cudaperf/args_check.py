"""`--arg NAME=VALUE` checked against the sources before anything is analysed: a name no file uses is
a typo (the value would be dropped without a word), and a value that is not a number must name a type
for a template type parameter (`--arg T=float`).

A name counts as used when it is a word of one of the files, or of a file beside one of them (host code
in main.cu may hold the launcher variable `--arg size=...` stands for)."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from .analysis.analyzer import CUDA_SUFFIXES, SOURCE_SUFFIXES

_WORD = re.compile(rb"[A-Za-z_]\w*")
_TYPE_PARAMETER = r"(?:typename|class)\s+(?:\.\.\.\s*)?{name}\b"
MAX_BYTES = 4 << 20  # a file larger than this is not read for its words


def _words(paths: list[Path]) -> tuple[set[str], str]:
    words: set[str] = set()
    texts = []
    for path in paths:
        try:
            if path.stat().st_size > MAX_BYTES:
                continue
            data = path.read_bytes()
        except OSError:
            continue
        words.update(w.decode() for w in _WORD.findall(data))
        texts.append(data.decode(errors="replace"))
    return words, "\n".join(texts)


def _neighbours(files: list[str]) -> list[Path]:
    found = {Path(f) for f in files}
    for directory in {Path(f).parent for f in files}:
        try:
            found.update(p for p in directory.iterdir() if p.suffix in (*SOURCE_SUFFIXES, *CUDA_SUFFIXES))
        except OSError:
            continue
    return sorted(found)


def check_args(args: dict[str, float | str], files: list[str]) -> None:
    """Raise ValueError naming the first `--arg` that names nothing, or gives a non-number to a name that
    is no template type parameter."""
    if not args or not files:
        return
    words, text = _words(_neighbours(files))
    for name, value in args.items():
        if name not in words:
            close = difflib.get_close_matches(name, sorted(words), n=1, cutoff=0.75)
            hint = f"; did you mean {close[0]}?" if close else ""
            raise ValueError(f"--arg {name}={value:g}: no parameter or variable named {name} in the sources{hint}"
                             if isinstance(value, float) else
                             f"--arg {name}={value}: no parameter or variable named {name} in the sources{hint}")
        if isinstance(value, str) and not re.search(_TYPE_PARAMETER.format(name=re.escape(name)), text):
            raise ValueError(f"--arg {name}={value}: not a number, and {name} is no template type parameter "
                             "(a scalar argument or value parameter takes a number)")
