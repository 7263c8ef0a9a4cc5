"""What every subcommand shares: exit codes, the errors the CLI turns into one line, the types of
launch options, and the analysis options built from them and the project's settings."""

from __future__ import annotations

import argparse
import os

from . import config
from .analysis import arch as arch_table
from .analysis.analyzer import Options
from .analysis.arch import UnknownArch

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_NO_GPU = 0, 1, 2, 3


class UsageError(Exception):
    pass


class NoGpu(Exception):
    """profile/crosscheck: no GPU, GPU package or ncu (exit 3)."""


class RunFailed(Exception):
    """profile/crosscheck: the kernel did not compile or run, or ncu failed (exit 1)."""


def dims(text: str) -> tuple[int, int, int]:
    try:
        values = [int(v, 0) for v in text.replace("x", ",").split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X[,Y[,Z]] integers, got {text!r}") from None
    if not 1 <= len(values) <= 3:
        raise argparse.ArgumentTypeError(f"expected 1 to 3 dimensions, got {text!r}")
    return tuple(values + [1] * (3 - len(values)))  # type: ignore[return-value]


def assignment(text: str) -> tuple[str, float | str]:
    """NAME=NUMBER for scalar arguments and value template parameters, NAME=TYPE for type parameters."""
    name, sep, value = text.partition("=")
    value = value.strip()
    if not sep or not name.strip() or not value:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    for parse_number in (lambda v: float(int(v, 0)), float):
        try:
            return name.strip(), parse_number(value)
        except ValueError:
            continue
    if value.replace("_", "").replace(" ", "").replace(":", "").isalnum():
        return name.strip(), value
    raise argparse.ArgumentTypeError(f"value of {name} must be a number or a type name, got {value!r}")


def define(text: str) -> tuple[str, str]:
    name, _, value = text.partition("=")
    if not name.isidentifier():
        raise argparse.ArgumentTypeError(f"-D expects NAME[=VALUE], got {text!r}")
    return name, value or "1"


def nonnegative(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a byte count, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("shared memory size must be >= 0")
    return value


class Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2, like ruff
        self.exit(EXIT_USAGE, f"cudaperf: error: {message}\n")


def launch_options(p: argparse.ArgumentParser) -> list[argparse.Action]:
    """The options that say how a kernel is read and launched; their actions (a command that has no
    use for some of them names those it was given)."""
    return [
        p.add_argument("--kernel", metavar="NAME", help="only this kernel"),
        p.add_argument("--grid", type=dims, metavar="X[,Y[,Z]]", help="grid dimensions (blocks)"),
        p.add_argument("--block", type=dims, metavar="X[,Y[,Z]]", help="block dimensions (threads)"),
        p.add_argument("--smem", type=nonnegative, metavar="BYTES", help="dynamic shared memory per block"),
        p.add_argument("--arg", type=assignment, action="append", default=[], metavar="NAME=VALUE",
                       help="value of a scalar kernel argument or template parameter (repeatable)"),
        p.add_argument("-D", dest="defines", type=define, action="append", default=[], metavar="NAME[=VALUE]",
                       help="define a macro, as for the compiler (repeatable)"),
        p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                       help="add DIR to the include path, as for the compiler (repeatable)"),
        p.add_argument("-isystem", dest="system_include_dirs", action="append", default=[], metavar="DIR",
                       help="add DIR to the system include path (repeatable)"),
        p.add_argument("--std", choices=("c++11", "c++14", "c++17", "c++20"), default="c++17",
                       help="C++ standard for the compiler (default c++17)"),
        p.add_argument("--arch", metavar="sm_XX", help="target architecture (default sm_90, or tool.cudaperf.arch)"),
        p.add_argument("--resources", choices=("auto", "ptxas", "estimate"),
                       help="how registers and static shared memory are obtained (default auto; lint: estimate)"),
        p.add_argument("--frontend", choices=("tree-sitter", "clang", "auto"),
                       help="how sources are read: tree-sitter (default, fast), clang (libclang's preprocessor, types "
                            "and constants; pip install 'cudaperf[clang]'), auto (clang where a compile database or "
                            "headers make it worth it; or tool.cudaperf.frontend)"),
        p.add_argument("-p", dest="build_dir", metavar="BUILD_DIR",
                       help="read each file's -I/-D/-std from BUILD_DIR/compile_commands.json (as clang-tidy -p)"),
        p.add_argument("--compile-commands", metavar="FILE",
                       help="the compile database (compile_commands.json) to read flags from; without it or -p, the "
                            "nearest compile_commands.json above each file (or in a build/ beside it) is used"),
    ]


def strict_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--strict", action="store_true",
                   help="a file holding syntax the analysis would skip is an error (exit 2) naming the line")


def jobs(text: str) -> int:
    """-j N: N >= 0 (0: one per CPU core)."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of processes, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (one per CPU core) or more, got {value}")
    return value


def processes(value: int) -> int:
    return value if value > 0 else (os.cpu_count() or 1)


def os_error(exc: OSError) -> str:
    """`nope.json: no such file or directory`, not `[Errno 2] No such file or directory: 'nope.json'`."""
    what = (exc.strerror or str(exc)).lower() if exc.strerror else str(exc)
    return f"{exc.filename}: {what}" if exc.filename else what


def options_for(ns: argparse.Namespace, table: dict, default_resources: str = "auto", where: str = "") -> Options:
    """Analysis options from the command line, then the settings `table` (`where`: the file it came
    from, for messages), then the defaults."""
    arch = ns.arch or table.get("arch", "sm_90")
    resources = ns.resources or table.get("resources", default_resources)
    if resources not in ("auto", "ptxas", "estimate"):
        raise UsageError(f"{where}tool.cudaperf.resources must be auto, ptxas or estimate, got {resources!r}")
    if not arch.startswith("sm_") or not arch[3:].rstrip("a").isdigit():
        raise UsageError(f"{where if not ns.arch else ''}--arch must look like sm_90, got {arch!r}")
    try:
        target = arch_table.get(arch)
    except UnknownArch as exc:
        raise UsageError(f"{where if not ns.arch else ''}{exc}") from None
    if ns.smem is not None and ns.smem > target.shared_memory_per_block_optin:
        raise UsageError(f"--smem {ns.smem}: {target.name} allows at most {target.shared_memory_per_block_optin} "
                         "bytes of shared memory per block")
    for directory in ns.include_dirs + ns.system_include_dirs:
        if not os.path.isdir(directory):
            raise UsageError(f"include directory {directory}: no such directory")
    frontend, database = _frontend(ns, table, where)
    return Options(kernel=ns.kernel, grid=ns.grid, block=ns.block, dynamic_smem=ns.smem, args=dict(ns.arg),
                   defines=dict(ns.defines), arch=arch, resources=resources,
                   include_dirs=tuple(ns.include_dirs), system_include_dirs=tuple(ns.system_include_dirs), std=ns.std,
                   strict=getattr(ns, "strict", False), frontend=frontend, compile_commands=database)


def _frontend(ns: argparse.Namespace, table: dict, where: str) -> tuple[str, str]:
    """The frontend (--frontend, tool.cudaperf.frontend, tree-sitter) and the compile database (-p,
    --compile-commands, else "auto": the nearest one above each file).  --frontend clang without
    libclang is a one-line usage error."""
    frontend = getattr(ns, "frontend", None) or table.get("frontend", "tree-sitter")
    if frontend not in ("tree-sitter", "clang", "auto"):
        raise UsageError(f"{where}tool.cudaperf.frontend must be tree-sitter, clang or auto, got {frontend!r}")
    if frontend == "clang":
        from .analysis import clangfront
        try:
            clangfront.check()
        except clangfront.ClangUnavailable as exc:
            raise UsageError(str(exc)) from None
    build_dir, database = getattr(ns, "build_dir", None), getattr(ns, "compile_commands", None)
    if build_dir and database:
        raise UsageError("-p and --compile-commands name the same thing; give one")
    if build_dir:
        database = os.path.join(build_dir, "compile_commands.json")
        if not os.path.isdir(build_dir):
            raise UsageError(f"-p {build_dir}: no such directory")
    if database:
        from .analysis import compdb
        try:
            compdb.load(database)
        except compdb.DatabaseError as exc:
            raise UsageError(str(exc)) from None
        return frontend, os.path.abspath(database)
    return frontend, "auto"


def options_from(ns: argparse.Namespace, default_resources: str = "auto") -> Options:
    """Options under the settings nearest the working directory (every command but lint)."""
    try:
        found = config.Finder().for_path(os.getcwd())
    except config.ConfigError as exc:
        raise UsageError(str(exc)) from None
    options = options_for(ns, found.table, default_resources, f"{found.path}: " if found.path else "")
    ns.arch, ns.resources, ns.config = options.arch, options.resources, found.table
    return options
