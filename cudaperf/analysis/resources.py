"""Per-kernel resources: registers, spills, stack, static shared memory and barriers.

`ptxas` is the truth: the translation unit is compiled with ``nvcc -cubin -Xptxas -v`` for the
chosen architecture and ptxas's report is read per kernel.  Results are cached on disk by a hash
of the source, the flags, the architecture and the compiler version, so a file is compiled once
however often it is analysed.  Template kernels the file never instantiates are instantiated for
the template arguments being analysed.  Without nvcc (or when the file does not compile on its
own) the resources are *estimated* from the IR; the report says which (`resources.source`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from .arch import Arch
from .ir import Access, Barrier, Kernel, Loop, statements
from .occupancy import occupancy
from .process import run_bounded

COMPILE_TIMEOUT_S = 60
_ENTRY = re.compile(r"Compiling entry function '([^']+)' for '(sm_\w+)'")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_PROPERTIES = re.compile(r"Function properties for (\S+)")
_USED = re.compile(r"Used (\d+) registers(?:, used (\d+) barriers)?(?:, (\d+) bytes smem)?")


@dataclass(frozen=True)
class Resources:
    registers_per_thread: int
    static_smem: int
    barriers: int
    spill_stores: int | None
    spill_loads: int | None
    stack_bytes: int | None
    source: str  # ptxas | estimate
    note: str | None = None

    def to_json(self) -> dict:
        return asdict(self)


def cache_dir() -> Path:
    base = os.environ.get("CUDAPERF_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "cudaperf")
    return Path(base) / "ptxas"


def nvcc() -> str | None:
    found = shutil.which("nvcc")
    if found:
        return found
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and (Path(root) / "bin" / "nvcc").is_file():
            return str(Path(root) / "bin" / "nvcc")
    return None


def _demangle(names: list[str]) -> dict[str, str]:
    tool = shutil.which("cu++filt") or shutil.which("c++filt")
    if tool is None or not names:
        return {n: n for n in names}
    out = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True, timeout=30).stdout
    return dict(zip(names, out.splitlines())) if out.count("\n") >= len(names) - 1 else {n: n for n in names}


def kernel_key(demangled: str) -> str:
    """`void ns::k<4, float>(float const*, float*)` -> `k<4,float>`; `c_kernel` -> `c_kernel`."""
    text = demangled.replace("(anonymous namespace)", "anonymous")
    depth, end = 0, len(text)
    for i, ch in enumerate(text):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            end = i
            break
    head, depth, start = text[:end].strip(), 0, 0
    for i, ch in enumerate(head):  # the name starts after the last top-level space (return type)
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == " " and depth == 0:
            start = i + 1
    name, _, args = head[start:].partition("<")
    return name.rsplit("::", 1)[-1] + ("<" + normalise_template_args(args[:-1]) + ">" if args else "")


def normalise_template_args(args: str) -> str:
    """`(int)4, float`, `4u,float` and `4, float` compare equal."""
    args = re.sub(r"\((?:unsigned |signed )?(?:int|long|short|char|bool)\)", "", args)
    args = re.sub(r"\b(\d+)[uUlL]+\b", r"\1", args)
    return args.replace(" ", "")


def parse_ptxas(log: str) -> dict[str, Resources]:
    """ptxas -v output -> resources per kernel key (see kernel_key)."""
    entries: list[tuple[str, dict]] = []
    properties_of = None  # the function a "Function properties for" block describes
    for line in log.splitlines():
        m = _ENTRY.search(line)
        if m:
            entries.append((m.group(1), {}))
            continue
        if (m := _PROPERTIES.search(line)) is not None:
            properties_of = m.group(1)
            continue
        if not entries:
            continue
        current = entries[-1][1]
        if (m := _FRAME.search(line)) is not None:
            if properties_of != entries[-1][0]:
                continue  # a non-inlined device function's frame and spills are its own, not the kernel's
            current.update(stack=int(m.group(1)), spill_stores=int(m.group(2)), spill_loads=int(m.group(3)))
        elif (m := _USED.search(line)) is not None:
            current.update(registers=int(m.group(1)), barriers=int(m.group(2) or 0), smem=int(m.group(3) or 0))
    names = _demangle([mangled for mangled, _ in entries])
    return {kernel_key(names[mangled]): Resources(
        registers_per_thread=v.get("registers", 0), static_smem=v.get("smem", 0), barriers=v.get("barriers", 0),
        spill_stores=v.get("spill_stores"), spill_loads=v.get("spill_loads"), stack_bytes=v.get("stack"),
        source="ptxas") for mangled, v in entries}


@dataclass(frozen=True)
class CompileFlags:
    """What the compiler needs besides the source and -D: -I, -isystem and the language standard."""
    include_dirs: tuple[str, ...] = ()
    system_include_dirs: tuple[str, ...] = ()
    std: str = "c++17"

    def nvcc_args(self) -> list[str]:
        return [f"-std={self.std}", *(f"-I{Path(d).resolve()}" for d in self.include_dirs),
                *(a for d in self.system_include_dirs for a in ("-isystem", str(Path(d).resolve())))]


_MISSING_HEADER = re.compile(r"fatal error: (\S+): No such file or directory|cannot open source file \"([^\"]+)\"")
_INCLUDED = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', re.MULTILINE)
_missing_headers: dict[tuple[str, ...], set[str]] = {}  # per set of flags: headers an earlier compile lacked


def _known_missing(source: bytes, directory: Path, flags: list[str]) -> str | None:
    """A header an earlier compile with the same flags could not find, which this file includes
    too and does not have beside it: the compile would fail the same way, so skip it."""
    missing = _missing_headers.get(tuple(flags), set())
    for m in _INCLUDED.finditer(source):
        name = m.group(1).decode(errors="replace").strip()
        if name in missing and not (directory / name).is_file():
            return name
    return None


def _missing_reason(header: str) -> str:
    return f"header {header} not found (pass its directory with -I DIR or -isystem DIR)"


def compile_resources(source: bytes, path: str, arch: str, defines: dict[str, str],
                      instantiate: list[str] = (), flags: CompileFlags | None = None) -> dict[str, Resources] | str:
    """Resources of every kernel ptxas compiles, or a one-line reason it could not.  Failures are
    cached like successes, and a header one compile missed fails the next file fast."""
    compiler = nvcc()
    if compiler is None:
        return "nvcc not found"
    flags = flags or CompileFlags()
    extra = "".join(f"\nstatic void* __cudaperf_instance_{i} = (void*)&{name};" for i, name in enumerate(instantiate))
    nvcc_flags = [f"-arch={arch}", "-cubin", "-Xptxas", "-v", "--extended-lambda", *flags.nvcc_args(),
                  *(f"-D{k}={v}" if v else f"-D{k}" for k, v in sorted(defines.items()))]
    key = hashlib.sha256(b"\0".join([source, extra.encode(), " ".join(nvcc_flags).encode(),
                                     compiler.encode(), str(COMPILE_TIMEOUT_S).encode()])).hexdigest()
    cached = cache_dir() / f"{key}.json"
    if cached.is_file():
        data = json.loads(cached.read_text())
        return data if isinstance(data, str) else {k: Resources(**v) for k, v in data.items()}
    directory = Path(path).resolve().parent if Path(path).is_file() else Path.cwd()
    header = _known_missing(source, directory, nvcc_flags)
    if header is not None:
        return _missing_reason(header)
    with tempfile.TemporaryDirectory(prefix="cudaperf-") as tmp:
        unit = Path(tmp) / "unit.cu"
        unit.write_bytes(source + extra.encode())
        proc = run_bounded([compiler, *nvcc_flags, "-I", str(directory), "-o", os.devnull, str(unit)],
                           COMPILE_TIMEOUT_S, cwd=tmp)
    if proc.returncode is None:  # cached too: the next run should not wait again
        result: dict[str, Resources] | str = f"nvcc took longer than {COMPILE_TIMEOUT_S} s"
    elif proc.returncode != 0:
        first = next((line for line in proc.stderr.splitlines() if "error" in line), "compilation failed")
        missing = _MISSING_HEADER.search(first)
        if missing:
            header = missing.group(1) or missing.group(2)
            _missing_headers.setdefault(tuple(nvcc_flags), set()).add(header)
            result = _missing_reason(header)
        else:
            result = f"does not compile standalone: {first.split('error', 1)[-1].strip(': ')}"
    else:
        result = parse_ptxas(proc.stdout + proc.stderr)
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(result if isinstance(result, str) else {k: v.to_json() for k, v in result.items()}))
    return result


def static_shared_bytes(kernel: Kernel) -> int:
    return sum(s.type.size for s in kernel.shared if not s.dynamic)


def estimate(kernel: Kernel, a: Arch, note: str | None = None) -> Resources:
    """Without ptxas: static shared memory and barriers are exact from the IR; registers are a
    rough model (a base, 64-bit pointers, live loop state, memory traffic), capped by
    __launch_bounds__ the way ptxas caps them."""
    stmts = [s for s, _ in statements(kernel)]
    loops = [s for s in stmts if isinstance(s, Loop)]
    accesses = sum(isinstance(s, Access) for s in stmts)
    pointers = sum(p.pointer for p in kernel.params)
    registers = 16 + 2 * pointers + (len(kernel.params) - pointers) + 2 * len(loops) \
        + 4 * sum(loop.unroll is not None for loop in loops) + min(64, accesses)
    registers = min(a.max_registers_per_thread, -(-registers // 8) * 8)
    if kernel.launch_bounds:
        threads = kernel.launch_bounds[0]
        min_blocks = kernel.launch_bounds[1] if len(kernel.launch_bounds) > 1 else 1
        while registers > 16 and occupancy(a.name, threads, registers).limits["registers"] < max(1, min_blocks):
            registers -= 8
    barriers = 1 if any(isinstance(s, Barrier) and s.scope == "block" for s in stmts) else 0
    return Resources(registers, static_shared_bytes(kernel), barriers, None, None, None, "estimate", note)
