"""The build's own flags: a JSON compilation database (``compile_commands.json``), as clang-tidy reads it.

CMake writes one with ``CMAKE_EXPORT_COMPILE_COMMANDS=ON`` (for CUDA sources the command is nvcc's or
clang's), Bear and compiledb write one for Make.  Each entry names a `file`, the `directory` the command
ran in, and the command (`arguments`, a list, or `command`, one shell string).  Both frontends take
from it what decides how a kernel reads: macro definitions (`-D`, `-U`), include paths (`-I`,
`-isystem`, `-include`), the language standard (`-std`) and the GPU architecture.

A file the database does not list (a header, or a source the build leaves out) takes the flags of the
entry nearest to it, as clangd does: one with the same stem in the same directory, else any in the
same directory, else in the closest directory above.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

NAME = "compile_commands.json"
MAX_DATABASE_BYTES = 256 * 1024 * 1024
_STD = re.compile(r"(?:c|gnu)\+\+(\d\w)")
_ARCH = re.compile(r"(?:sm|compute)_(\d+a?)")


class DatabaseError(Exception):
    """A compile database that cannot be read; the message is one line for the user."""


@dataclass(frozen=True)
class Flags:
    """What one compile command says about the source it compiles."""

    defines: dict[str, str] = field(default_factory=dict)
    undefines: tuple[str, ...] = ()
    include_dirs: tuple[str, ...] = ()
    system_include_dirs: tuple[str, ...] = ()
    forced_includes: tuple[str, ...] = ()
    std: str | None = None  # "c++17"
    arch: str | None = None  # "sm_90"
    file: str = ""  # the entry the flags come from (for messages)

    def clang_args(self) -> list[str]:
        """The flags as clang takes them (for the clang frontend)."""
        args = [f"-D{k}={v}" for k, v in self.defines.items()]
        args += [f"-U{name}" for name in self.undefines]
        args += [f"-I{d}" for d in self.include_dirs]
        args += [a for d in self.system_include_dirs for a in ("-isystem", d)]
        args += [a for f in self.forced_includes for a in ("-include", f)]
        return args


def _absolute(path: str, directory: str) -> str:
    return os.path.normpath(path if os.path.isabs(path) else os.path.join(directory, path))


def _response_file(path: str) -> list[str]:
    """nvcc's `--options-file F` and the `@F` response files CMake writes for long include lists."""
    try:
        return shlex.split(Path(path).read_text(errors="replace"))
    except (OSError, ValueError):
        return []


_VALUE_FLAGS = {"-I": "include", "-isystem": "system", "-D": "define", "-U": "undefine", "-include": "force",
                "--include-path": "include", "--define-macro": "define", "--undefine-macro": "undefine",
                "--system-include": "system", "--pre-include": "force", "-std": "std", "--std": "std",
                "-arch": "arch", "--gpu-architecture": "arch", "--cuda-gpu-arch": "arch", "--offload-arch": "arch",
                "--options-file": "options", "-optf": "options", "-o": "skip", "-x": "skip", "-MF": "skip",
                "-MT": "skip", "-MQ": "skip", "-Xcompiler": "xcompiler", "-ccbin": "skip",
                "--compiler-bindir": "skip"}


def parse_arguments(arguments: list[str], directory: str, file: str = "") -> Flags:
    """Flags from one command's arguments (nvcc's spellings and gcc/clang's; `-DX`, `-D X`, `-D=X`
    and `--define-macro=X` all read)."""
    defines: dict[str, str] = {}
    undefines: list[str] = []
    include, system, force = [], [], []
    std = arch = None
    queue = list(arguments[1:] if arguments else [])
    while queue:
        arg = queue.pop(0)
        if arg.startswith("@") and len(arg) > 1:
            queue[:0] = _response_file(_absolute(arg[1:], directory))
            continue
        kind, value = None, None
        for flag, what in _VALUE_FLAGS.items():
            if arg == flag:
                kind = what
                value = queue.pop(0) if queue else None
                break
            if arg.startswith(flag + "="):
                kind, value = what, arg[len(flag) + 1:]
                break
            if len(flag) == 2 and arg.startswith(flag) and flag in ("-I", "-D", "-U"):
                kind, value = what, arg[2:]
                break
        if kind is None:
            if arg.startswith("--generate-code") or arg.startswith("-gencode"):
                value = arg.split("=", 1)[1] if "=" in arg else (queue.pop(0) if queue else "")
                found = _ARCH.findall(value)
                if found and arch is None:
                    arch = f"sm_{found[-1]}"
            elif arg.startswith("-isystem") and len(arg) > len("-isystem"):
                system.append(_absolute(arg[len("-isystem"):], directory))
            continue
        if value is None:
            continue
        if kind == "include":
            include.extend(_absolute(v, directory) for v in value.split(",") if v)
        elif kind == "system":
            system.extend(_absolute(v, directory) for v in value.split(",") if v)
        elif kind == "force":
            force.append(_absolute(value, directory))
        elif kind == "define":
            for item in value.split(",") if kind == "define" and arg.startswith("--") else [value]:
                name, _, body = item.partition("=")
                if name.isidentifier():
                    defines[name] = body if "=" in item else "1"
                    if name in undefines:
                        undefines.remove(name)
        elif kind == "undefine":
            defines.pop(value, None)
            undefines.append(value)
        elif kind == "std":
            m = _STD.fullmatch(value)
            std = f"c++{m.group(1)}" if m else std
        elif kind == "arch":
            found = _ARCH.findall(value)
            arch = f"sm_{found[-1]}" if found else arch
        elif kind == "options":
            queue[:0] = _response_file(_absolute(value, directory))
        elif kind == "xcompiler":
            queue[:0] = [v for v in value.split(",") if v.startswith(("-D", "-I", "-U"))]
    return Flags(defines, tuple(undefines), tuple(dict.fromkeys(include)), tuple(dict.fromkeys(system)),
                 tuple(force), std, arch, file)


@dataclass
class Database:
    path: str
    entries: dict[str, Flags]  # absolute normalised source path -> its flags (the first entry of a file)

    def flags_for(self, source: str | Path) -> Flags | None:
        """The flags of `source`, or of the entry nearest to it (see the module's docstring)."""
        target = os.path.normpath(os.path.abspath(source))
        found = self.entries.get(target)
        if found is not None:
            return found
        try:
            target = os.path.normpath(os.path.realpath(target))
        except OSError:
            pass
        found = self.entries.get(target)
        if found is not None:
            return found
        directory, stem = os.path.dirname(target), Path(target).stem
        best, best_score = None, None
        for path, flags in self.entries.items():
            here = os.path.dirname(path)
            try:
                common = os.path.commonpath([here, directory])
            except ValueError:
                continue
            distance = directory.count(os.sep) - common.count(os.sep) + here.count(os.sep) - common.count(os.sep)
            score = (distance, 0 if Path(path).stem == stem else 1, path)
            if best_score is None or score < best_score:
                best, best_score = flags, score
        return best


def _entry_arguments(entry: dict) -> list[str]:
    if isinstance(entry.get("arguments"), list):
        return [str(a) for a in entry["arguments"]]
    command = entry.get("command")
    if isinstance(command, str):
        try:
            return shlex.split(command)
        except ValueError:
            return command.split()
    return []


@lru_cache(maxsize=16)
def _load(path: str, stamp: tuple[int, int]) -> Database:
    try:
        if os.path.getsize(path) > MAX_DATABASE_BYTES:
            raise DatabaseError(f"{path}: compile database too large")
        with open(path, encoding="utf-8", errors="replace") as f:
            data = json.load(f)
    except OSError as exc:
        raise DatabaseError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except ValueError as exc:
        raise DatabaseError(f"{path}: not a JSON compile database ({exc})") from None
    if not isinstance(data, list):
        raise DatabaseError(f"{path}: not a JSON compile database (expected a list of entries)")
    entries: dict[str, Flags] = {}
    base = os.path.dirname(os.path.abspath(path))
    for entry in data:
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
            continue
        directory = entry.get("directory") if isinstance(entry.get("directory"), str) else base
        directory = _absolute(directory, base)
        source = _absolute(entry["file"], directory)
        entries.setdefault(source, parse_arguments(_entry_arguments(entry), directory, source))
    return Database(path, entries)


def load(path: str | Path) -> Database:
    """The database at `path` (a `compile_commands.json`, or a build directory holding one), read
    once per process while the file is unchanged."""
    p = Path(path)
    if p.is_dir():
        p = p / NAME
    p = p.resolve()
    try:
        st = p.stat()
    except OSError:
        raise DatabaseError(f"{p}: no such compile database") from None
    return _load(str(p), (st.st_mtime_ns, st.st_size))


@lru_cache(maxsize=4096)
def _discover_from(directory: str) -> str | None:
    here = Path(directory)
    for d in (here, *here.parents):
        for candidate in (d / NAME, d / "build" / NAME):
            if candidate.is_file():
                return str(candidate)
    return None


def discover(source: str | Path) -> Path | None:
    """The nearest `compile_commands.json` in the source's directory or above it (or in a `build/`
    beside one of them, where CMake users keep it), like clang-tidy's search."""
    found = _discover_from(str(Path(source).resolve().parent))
    return Path(found) if found else None


def apply(options, path: str | Path):
    """`options` (analyzer.Options) with the flags the compile database gives `path` merged under
    the ones the user gave: -D on the command line wins over the build's, its -I come first.
    `options.compile_commands` is a database path, "auto" (discovery), or None (no database)."""
    where = getattr(options, "compile_commands", None)
    if not where:
        return options, None
    db_path = discover(path) if where == "auto" else Path(where)
    if db_path is None:
        return options, None
    database = load(db_path)
    flags = database.flags_for(path)
    if flags is None:
        return options, None
    defines = {k: v for k, v in flags.defines.items()}
    defines.update(options.defines)
    changes = dict(defines=defines,
                   include_dirs=tuple(dict.fromkeys((*options.include_dirs, *flags.include_dirs))),
                   system_include_dirs=tuple(dict.fromkeys((*options.system_include_dirs, *flags.system_include_dirs))))
    if flags.std and not getattr(options, "std_given", False):
        changes["std"] = flags.std
    return replace(options, **changes), flags
