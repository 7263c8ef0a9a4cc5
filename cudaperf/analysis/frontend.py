"""Which frontend reads a file, with which flags.

- `tree-sitter` (the default): the text as written, macros read from the file and the local headers
  it includes; no compiler needed, a few milliseconds a file.
- `clang`: tree-sitter's tree plus what libclang resolved (clangfront.py): the real preprocessor with
  the file's own -I/-D, typedefs, struct layouts, evaluated constants.  Needs libclang
  (`pip install 'cudaperf[clang]'`); about a tenth of a second to seconds a file.
- `auto`: clang where it can tell tree-sitter something (a compile database lists the file, or the
  file includes headers) and libclang is installed and the file is not huge; tree-sitter otherwise.

Both frontends take -I/-D/-std from the compile database (compdb.py) when one is given or found.
"""

from __future__ import annotations

import re
from pathlib import Path

from . import clangfront, compdb
from .source import Diagnostic, SourceError, SourceFile, read

FRONTENDS = ("tree-sitter", "clang", "auto")
_INCLUDE = re.compile(rb"^[ \t]*#[ \t]*include\b", re.MULTILINE)


def with_database(options, path: str | Path):
    """(options with the compile database's flags for `path` merged in, the flags or None)."""
    try:
        return compdb.apply(options, path)
    except compdb.DatabaseError as exc:
        raise SourceError(str(exc)) from None


def wants_clang(options, path: str | Path, flags) -> bool:
    frontend = getattr(options, "frontend", "tree-sitter")
    if frontend == "clang":
        return True
    if frontend != "auto" or not clangfront.available():
        return False
    try:
        p = Path(path)
        if p.suffix == ".py" or p.stat().st_size > clangfront.MAX_CLANG_BYTES:
            return False
        return flags is not None or _INCLUDE.search(p.read_bytes()) is not None
    except OSError:
        return False


def read_file(path: str | Path, options, flags=None) -> SourceFile:
    """The file read by the frontend `options.frontend` chooses (see the module's docstring)."""
    source = read(path, options.defines, tuple(Path(d) for d in (*options.include_dirs, *options.system_include_dirs)))
    if wants_clang(options, path, flags) and not str(path).endswith(".py"):
        kernels = source.data.count(b"__global__")
        notes = clangfront.attach(source, path, options, kernels, flags is not None)
        source.diagnostics += notes
    return source


__all__ = ["FRONTENDS", "Diagnostic", "read_file", "wants_clang", "with_database"]
