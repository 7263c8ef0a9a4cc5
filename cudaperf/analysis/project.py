"""A directory is one program: kernels defined in one file are launched from another.

HeCBench and cuda-samples keep kernels in `kernels.cuh` or `foo_kernel.cu` and launch them from
`main.cu`/`foo.cpp`; a header's kernel analysed alone would get the default launch.  The files
beside the analysed one and in the directory above it (a project's `src/` or `include/`) that
are compiled with it (one translation unit through local `#include`s, or through the header
declaring its kernels) are searched for `<<<...>>>` launches of its kernels, and resolved with
their own host code.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache, lru_cache
from pathlib import Path

from . import parse
from .host import HostResolver
from .launch import HostLaunch, HostLaunches
from .lower import Lowerer
from .scope import FileScope, collect
from .source import (
    Macro,
    SourceError,
    SourceFile,
    local_includes,
    macros_above,
    mend_macro_uses,
    mend_split_conditionals,
    mend_type_arguments,
    read,
    resolved,
)

SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".hh", ".cpp", ".cc", ".cxx", ".inl")
HEADER_SUFFIXES = (".h", ".cuh", ".hpp", ".hh", ".inl")
MAX_PROJECT_FILES = 64  # per directory searched, so a flat tree of thousands of files stays cheap
MAX_HOST_FILE_BYTES = 1024 * 1024


def scoped(source: SourceFile) -> tuple[parse.Tree, FileScope]:
    """Parse a file and gather its namespace scope (array sizes, of struct members too, evaluated by
    a lowerer of the scope gathered so far: `float pos[3]`, `int keys[ORDER + 1]`)."""
    mend_macro_uses(source)
    tree = parse.parse(source.data)
    # valid code the grammar misreads, mended only in files where it did (the scans cost a parse's worth)
    if tree.root_node.has_error and (mend_type_arguments(source) | mend_split_conditionals(source)):
        tree = parse.parse(source.data)
    scope = FileScope(source, tree.root_node)
    lowerer = Lowerer(scope)
    _macro_types(scope)
    collect(source, tree.root_node, lambda node: lowerer.const_int(node) if node is not None else None, scope)
    if source.facts is not None:  # the clang frontend's types and constants (clangfront.py)
        source.facts.apply_scope(scope)
    return tree, scope


_TYPE_WORDS = re.compile(r"(?:(?:const|unsigned|signed|long|short|struct)\s+)*[A-Za-z_][\w:]*")


def _macro_types(scope: FileScope) -> None:
    """A type named by an object-like macro (`-DT=float`, `#define real double`): the type it names."""
    for name, macro in scope.source.macros.items():
        if macro.params is None and name not in scope.types.user and _TYPE_WORDS.fullmatch(macro.body.strip()):
            found = scope.types.lookup(macro.body)
            if found is not None:
                scope.types.user[name] = found


@lru_cache(maxsize=32)
def file_launches(path: Path, args: tuple[tuple[str, float], ...], defines: tuple[tuple[str, str], ...],
                  unit: Path | None = None) -> HostLaunches | None:
    """The launches in one file, resolved with that file's constants and macros and those of the
    translation unit `unit` it is compiled in (a wrapper header that uses the block size a
    sibling header defines), each when first asked for; kept for the files of a project analysed
    one after another (a file's tree and scope are kept with them)."""
    try:
        if path.stat().st_size > MAX_HOST_FILE_BYTES or b"<<<" not in path.read_bytes():
            return None
        source = read(path, dict(defines))
        if unit is not None and unit != path:
            for name, macro in read(unit, dict(defines)).macros.items():
                source.macros.setdefault(name, macro)
    except (OSError, SourceError):
        return None
    tree, scope = scoped(source)
    add_included(scope, str(path if unit is None else unit), dict(defines))
    return HostLaunches(tree.root_node, HostResolver(scope, dict(args)), str(path))


@cache
def _header_scope(path: Path, defines: tuple[tuple[str, str], ...]) -> FileScope | None:
    try:
        if path.stat().st_size > MAX_HOST_FILE_BYTES:
            return None
        return scoped(read(path, dict(defines)))[1]
    except (OSError, SourceError):
        return None


def add_included(scope: FileScope, path: str, defines: dict[str, str]) -> None:
    """Types, integer constants and device arrays of the local headers `path` includes, where the
    file does not define them itself (`#include "params.h"` holding `const int BLOCK = 256;` or a
    `__constant__` table).  Device functions stay out: their accesses would be reported at the
    header's lines under the including file's name."""
    here = Path(path)
    if not here.is_file():
        return
    for header in local_includes(here):
        other = _header_scope(header, tuple(sorted(defines.items())))
        if other is None:
            continue
        for name, ctype in other.types.user.items():
            scope.types.user.setdefault(name, ctype)
        for table, theirs in ((scope.constants, other.constants), (scope.arrays, other.arrays)):
            for name, value in theirs.items():
                table.setdefault(name, value)


def add_unit_types(scope: FileScope, path: str, defines: dict[str, str]) -> None:
    """Types of the translation units that include `path` (a kernel header such as
    `kernels.hpp` that uses `Particle` from a header `main.cu` includes before it), where
    neither the file nor its own headers define them."""
    here = resolved(Path(path))
    if not here.is_file():
        return
    key = tuple(sorted(defines.items()))
    for other in including_files(here):
        theirs = _header_scope(other, key)
        for name, ctype in (theirs.types.user.items() if theirs is not None else ()):
            scope.types.user.setdefault(name, ctype)


def add_unit_macros(source: SourceFile) -> None:
    """Macros the translation unit including `source` has defined where it includes it (a kernel
    header whose shared-memory accesses go through `apron_pixel`, defined in the `image.h` main.cu
    includes first), where neither the file nor its own headers define them: analysed alone, the
    header's macro calls would look like calls of unknown functions."""
    for name, macro in _unit_macros(resolved(Path(source.path))).items():
        source.macros.setdefault(name, replace(macro, line=0))


@cache
def _unit_macros(here: Path) -> dict[str, Macro]:
    if not here.is_file():
        return {}
    for unit in neighbours(here):
        above = macros_above(unit, here)
        if above is not None:
            return above
    return {}


def including_files(here: Path) -> list[Path]:
    """The other files of the translation units that include `here`: each such unit (`main.cu`
    including `kernels.h`) and the local headers it includes, nearest first."""
    units = [unit for unit in neighbours(here) if here in included_headers(unit)]
    return list(dict.fromkeys(f for unit in units for f in (unit, *included_headers(unit)) if f != here))


def neighbours(path: Path) -> list[Path]:
    """Source files of the same program: beside `path` and in the directory above, nearest first."""
    out: list[Path] = []
    for directory in (path.parent, path.parent.parent):
        out += [p for p in _sources_in(directory) if p != path and p not in out]
    return out


@cache
def _sources_in(directory: Path) -> tuple[Path, ...]:
    """The first MAX_PROJECT_FILES source files of a directory, sorted (listed once per process:
    every file of a project asks for its neighbours)."""
    try:
        return tuple(sorted(p for p in directory.iterdir() if p.suffix in SOURCE_SUFFIXES and p.is_file())
                     [:MAX_PROJECT_FILES])
    except OSError:
        return ()


def project_launches(path: str, kernels: set[str], args: dict, defines: dict[str, str]) -> list[HostLaunch]:
    """Launches of `kernels` in the other files of `path`'s program: files compiled in one
    translation unit with it (a neighbour, with the local headers it includes, that holds `path`
    or a header declaring `path`'s kernels: `kernel.h` for `kernel.cu`, or a header `path`
    includes that declares one of them, as `cdpQuicksort.h` does for a kernel another kernel
    launches)."""
    here = resolved(Path(path))
    if not here.is_file() or not kernels:
        return []
    seen_as = {here} | ({here.with_suffix(s) for s in HEADER_SUFFIXES} if here.suffix not in HEADER_SUFFIXES
                        else set()) | {h for h in included_headers(here) if _declares(h, frozenset(kernels))}
    candidates: dict[Path, Path] = {}  # a file holding launches -> the unit it is compiled in
    for unit in neighbours(here):
        files = [unit, *included_headers(unit)]
        if seen_as & set(files):  # a flat folder of unrelated programs shares kernel names: only units that see it
            for f in files:
                if f != here and (f not in candidates or candidates[f] in files):
                    candidates[f] = unit  # the outermost unit: a .cpp included by main.cu sees main.cu's macros
    numbers = tuple(sorted((k, float(v)) for k, v in args.items() if isinstance(v, (int, float))))
    found: list[HostLaunch] = []
    for other, unit in candidates.items():
        launches = file_launches(other, numbers, tuple(sorted(defines.items())), unit)
        found += launches.of(kernels) if launches is not None else []
    return found


@cache
def included_headers(path: Path) -> frozenset[Path]:
    """The local headers a file includes, directly or through others (cached per path)."""
    return frozenset(local_includes(path))


@cache
def _declares(header: Path, kernels: frozenset[str]) -> bool:
    """Does the header declare (or define) one of `kernels` as a `__global__` function?"""
    try:
        data = header.read_bytes() if header.stat().st_size <= MAX_HOST_FILE_BYTES else b""
    except OSError:
        return False
    names = b"|".join(re.escape(k.encode()) for k in kernels)
    return re.search(rb"__global__[^;{}]*?\b(?:" + names + rb")\s*\(", data) is not None
