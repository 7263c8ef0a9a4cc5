"""KernelBench candidates' `load_inline` builds: faster, cached, and done ahead in parallel.

- Faster: a `.cu` that includes the whole `<torch/extension.h>` is first tried with `<torch/types.h>`
  (what load_inline itself prepends to CUDA sources), which nvcc parses about 2.5x faster; if that
  does not compile, the source is built as written.  Same code, same kernels, fewer headers.
- Shared: the C++ side includes a precompiled <torch/extension.h> (`pch`), built once per machine.
- Cached: every build lives in a directory named by a hash of its arguments, the torch version and
  the architecture list, published by renaming a fresh directory into place (`built.json`, or a
  small `failed` file for compile errors), so a candidate seen before costs one file read and a
  killed build leaves nothing a later one trips over.
- Ahead: `extract_builds` reads the `load_inline(...)` arguments from the candidate's syntax tree
  (string literals and names bound to them; nothing is executed) and `Builders` compiles them in
  bounded, confined child processes without a GPU, started ahead, many at once on the CPU cores.
  Builders never import what they built (a static initialiser would run in them); the worker
  installs `cached_load_inline` in place of torch's, which imports the published build
  (`load_built`), so the candidate's own call finds it done and nothing is compiled in the worker.
"""

from __future__ import annotations

import ast
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ...analysis.process import become_subreaper, communicate_capped, kill_tree, subreaper_preexec
from . import pch
from .pysource import parse as parse_python

PARAMETERS = ("name", "cpp_sources", "cuda_sources", "sycl_sources", "functions", "extra_cflags",
              "extra_cuda_cflags", "extra_sycl_cflags", "extra_ldflags", "extra_include_paths", "build_directory",
              "verbose", "with_cuda", "with_sycl", "is_python_module", "with_pytorch_error_handling",
              "keep_intermediates", "use_pch", "no_implicit_headers")
_IGNORED = {"build_directory", "verbose", "keep_intermediates", "use_pch"}
_EXTENSION_H = re.compile(r"#\s*include\s*[<\"]torch/extension\.h[>\"]")
_NEEDS_FULL = re.compile(r"PYBIND11|\bpy::|torch::nn\b|torch::autograd|torch::jit|torch::optim")


class BuildError(RuntimeError):
    """The candidate's extension did not compile: its message is the compiler output."""


def normalise(args: tuple, kwargs: dict) -> dict[str, Any]:
    """load_inline's arguments as one JSON-able mapping, without those that do not change the build."""
    bound = dict(zip(PARAMETERS, args))
    bound.update(kwargs)
    return {k: v for k, v in bound.items() if k not in _IGNORED and v is not None}


def build_key(spec: dict, arch_list: str) -> str:
    import torch

    text = json.dumps(spec, sort_keys=True) + "\0" + arch_list + "\0" + torch.__version__
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _variants(spec: dict) -> list[tuple[str, dict]]:
    cuda = spec.get("cuda_sources")
    sources = [cuda] if isinstance(cuda, str) else list(cuda or [])
    if sources and any(_EXTENSION_H.search(s) for s in sources) and not any(_NEEDS_FULL.search(s) for s in sources):
        fast = [_EXTENSION_H.sub("#include <torch/types.h>", s) for s in sources]
        return [("fast", {**spec, "cuda_sources": fast}), ("plain", spec)]
    return [("plain", spec)]


def _precompiled_header(root: Path) -> None:
    """Route torch's C++ compiles through `pch` (a precompiled <torch/extension.h>)."""
    script = pch.command(root / "pch")
    if os.environ.get("CXX") != script:
        os.environ["CUDAPERF_REAL_CXX"] = os.environ.get("CXX", "c++")
        os.environ["CXX"] = script


class LockTimeout(TimeoutError):
    """Another build of the same extension held its lock past this build's deadline."""


@contextmanager
def _locked(path: Path, deadline: float | None) -> Iterator[None]:
    """An exclusive flock on `path`, polled without blocking until `deadline` (time.monotonic)."""
    with open(path, "a") as lock:
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if deadline is not None and time.monotonic() >= deadline:
                    raise LockTimeout(f"{path} stayed locked by another build past the deadline") from None
                time.sleep(0.05)
        yield


def _published(directory: Path) -> dict | None:
    """A published build's record (`built.json`), BuildError for a published compile failure, None
    when nothing (or only the partial directory of an older layout) is there.  Reads no lock."""
    try:
        return json.loads((directory / "built.json").read_text())
    except FileNotFoundError:
        pass
    failed = directory / "failed"
    try:
        if failed.stat().st_size <= FAILED_CAP:
            raise BuildError(failed.read_text(errors="replace"))
    except FileNotFoundError:
        pass
    return None


def _cap(text: str, size: int) -> str:
    return text if len(text) <= size else text[:size // 2] + "\n...\n" + text[-size // 2:]


@contextmanager
def _build_only() -> Iterator[dict]:
    """torch's load_inline made to build and never import: the import is recorded (name, directory,
    whether a Python module) instead of done, and ninja's output is read with a cap."""
    from torch.utils import cpp_extension

    recorded: dict = {}

    def record(module_name: str, path: str, is_python_module: bool) -> None:
        recorded.update(name=module_name, path=path, is_python_module=bool(is_python_module))

    saved = cpp_extension._import_module_from_library, cpp_extension._run_ninja_build
    cpp_extension._import_module_from_library, cpp_extension._run_ninja_build = record, _run_ninja_capped
    try:
        yield recorded
    finally:
        cpp_extension._import_module_from_library, cpp_extension._run_ninja_build = saved


def _run_ninja_capped(build_directory: str, verbose: bool, error_prefix: str) -> None:
    """torch's _run_ninja_build, keeping at most OUTPUT_CAP bytes of the compilers' output."""
    from torch.utils import cpp_extension

    command = ["ninja", "-v"]
    workers = cpp_extension._get_num_workers(verbose)
    if workers is not None:
        command += ["-j", str(workers)]
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            cwd=build_directory)
    done = communicate_capped(proc, None, cap=OUTPUT_CAP)
    if done.returncode != 0:
        raise RuntimeError(f"{error_prefix}: {done.stdout}")


def build(spec: dict, root: Path, real_load_inline, deadline: float | None = None) -> dict:
    """Build the extension (never import it) and publish it: the build happens in a fresh directory
    beside the final one, renamed into place with `built.json` (module name, directory) on success
    or a small `failed` file on compile errors; a build that is killed publishes nothing.  The
    per-extension lock is polled until `deadline`; a published build is read without it."""
    _precompiled_header(root)
    key = build_key(spec, os.environ.get("TORCH_CUDA_ARCH_LIST", ""))
    final = root / key
    found = _published(final)
    if found is not None:
        return found
    root.mkdir(parents=True, exist_ok=True)
    with _locked(root / f".{key}.lock", deadline):
        found = _published(final)
        if found is not None:
            return found
        for stale in [*root.glob(f".{key}.tmp*"), *([final] if final.exists() else [])]:
            shutil.rmtree(stale, ignore_errors=True)   # left by a killed build, or an older layout
        fresh = Path(tempfile.mkdtemp(prefix=f".{key}.tmp", dir=root))
        try:
            info, failure = _build_variants(spec, fresh, real_load_inline)
            if info is not None:
                (fresh / "built.json").write_text(json.dumps(info))
            elif "Error building extension" in str(failure):   # compile errors are cached like successes
                (fresh / "failed").write_text(_cap(str(failure), FAILED_CAP - 1024))
            else:
                raise BuildError(_cap(str(failure), OUTPUT_CAP)) from failure
            os.rename(fresh, final)
        finally:
            shutil.rmtree(fresh, ignore_errors=True)
    found = _published(final)
    if found is None:
        raise BuildError(f"{final} was not published")
    return found


def _build_variants(spec: dict, directory: Path, real_load_inline) -> tuple[dict | None, BaseException | None]:
    """(what `built.json` records, None) for the first variant that builds, else (None, its error)."""
    failure: BaseException | None = None
    with _build_only() as recorded:
        for label, args in _variants(spec):
            build_dir = directory / label
            build_dir.mkdir()
            recorded.clear()
            try:
                real_load_inline(**args, build_directory=str(build_dir), verbose=False)
            except (RuntimeError, OSError) as exc:
                if _compiled_without_cuda_torch(build_dir):
                    return {"variant": label, "linked": False}, None
                failure = exc
                continue
            for other in directory.iterdir():
                if other != build_dir:
                    shutil.rmtree(other, ignore_errors=True)
            library = Path(recorded["path"]).relative_to(directory)
            return {"variant": label, "linked": True, "name": recorded["name"], "directory": str(library),
                    "is_python_module": recorded["is_python_module"]}, None
    return None, failure


def load_built(spec: dict, root: Path) -> Any:
    """Import an extension built ahead (`build`), read-only: no lock, no write, no compiler.
    BuildError with the compiler output when it failed to compile, or "not built ahead"."""
    directory = root / build_key(spec, os.environ.get("TORCH_CUDA_ARCH_LIST", ""))
    info = _published(directory)
    if info is None:
        raise BuildError(f"not built ahead: extension {spec.get('name')!r} has no published build in {directory}")
    if not info.get("linked", True):
        return None
    from torch.utils import cpp_extension

    return cpp_extension._import_module_from_library(info["name"], str(directory / info["directory"]),
                                                     info["is_python_module"])


def _compiled_without_cuda_torch(build_dir: Path) -> bool:
    """A CPU-only torch cannot link a CUDA extension (no libtorch_cuda); when every object file of the
    build was made, the candidate's sources compiled, which is all a machine without a GPU can learn."""
    import torch

    if torch.version.cuda is not None or not (build_dir / "build.ninja").is_file():
        return False
    rules = (build_dir / "build.ninja").read_text().splitlines()
    objects = [ln.split()[1].rstrip(":") for ln in rules if ln.startswith("build ") and ".o:" in ln]
    return bool(objects) and all((build_dir / o).is_file() for o in objects)


def _cuda_home_for_cpu_torch() -> None:
    """A CPU-only torch leaves CUDA_HOME unset, so load_inline refuses CUDA sources; point it at the
    toolkit (CUDA_HOME, CUDA_PATH, /usr/local/cuda, or nvcc's parent) to compile them anyway."""
    import shutil

    import torch
    from torch.utils import cpp_extension

    if torch.version.cuda is not None or cpp_extension.CUDA_HOME is not None:
        return
    nvcc = shutil.which("nvcc")
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or \
        ("/usr/local/cuda" if Path("/usr/local/cuda/bin/nvcc").is_file() else None) or \
        (str(Path(nvcc).resolve().parents[1]) if nvcc else None)
    cpp_extension.CUDA_HOME = home


def cached_load_inline(root: Path, real_load_inline):
    """A drop-in for torch.utils.cpp_extension.load_inline that imports the build done ahead
    (`load_built`; `real_load_inline` is never called: the worker builds nothing)."""
    def load_inline(*args, **kwargs):
        return load_built(normalise(args, kwargs), root)
    return load_inline


def literal(node: ast.AST, env: dict[str, Any]) -> Any:
    """The value of an expression made of literals and names bound to literals; ValueError otherwise."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        raise ValueError(node.id)
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return "".join(v.value for v in node.values)
    if isinstance(node, ast.List | ast.Tuple):
        return [literal(e, env) for e in node.elts]
    if isinstance(node, ast.Dict):
        return {literal(k, env): literal(v, env) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return literal(node.left, env) + literal(node.right, env)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join" \
            and isinstance(node.func.value, ast.Constant) and len(node.args) == 1:
        return node.func.value.value.join(literal(node.args[0], env))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "replace" \
            and len(node.args) == 2 and not node.keywords:
        text, old, new = (literal(n, env) for n in (node.func.value, *node.args))
        if isinstance(text, str) and isinstance(old, str) and isinstance(new, str):
            return text.replace(old, new)
    raise ValueError(type(node).__name__)


def module_literals(tree: ast.Module) -> dict[str, Any]:
    """Names bound at module level to literals (in order, so later bindings may use earlier ones)."""
    env: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                env[node.targets[0].id] = literal(node.value, env)
            except ValueError:
                env.pop(node.targets[0].id, None)
    return env


def builder_calls(tree: ast.Module) -> list[ast.Call]:
    """Every load_inline(...) call in the module."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call) and (
        getattr(node.func, "attr", None) == "load_inline" or getattr(node.func, "id", None) == "load_inline")]


def extract_builds(source: str) -> list[dict] | None:
    """Arguments of every load_inline call whose arguments are literals (or names bound to literals at
    module level); None when some call cannot be read that way (the worker asks the engine to build it)."""
    try:
        tree = parse_python(source)
    except SyntaxError:
        return None
    env = module_literals(tree)
    builds = []
    for node in builder_calls(tree):
        try:
            args = [literal(a, env) for a in node.args]
            kwargs = {k.arg: literal(k.value, env) for k in node.keywords if k.arg}
        except ValueError:
            return None
        builds.append(normalise(tuple(args), kwargs))
    return builds


BUILD_FILE_SIZE = (512 << 20, 2 << 30)   # RLIMIT_FSIZE of builders: soft (every file), hard (the PCH)
OUTPUT_CAP = 64 << 10                     # bytes of a builder's stdout and of its stderr kept
FAILED_CAP = 16 << 10                     # bytes of a cached compile failure
LOCK_TIMED_OUT = 3                        # a builder's exit status when the lock outlasted its deadline
_PASSED = ("PYTHONPATH", "CUDA_HOME", "CUDA_PATH", "LD_LIBRARY_PATH", "LANG", "LC_ALL")
_READABLE = ("/usr", "/etc", "/lib", "/lib64", "/bin", "/sbin", "/opt", "/usr/local/cuda")


def builder_process(root: Path, variables: dict[str, str]) -> dict[str, Any]:
    """Popen keywords of a builder, the one place where builds are confined: a subreaper (its whole
    tree dies at the deadline, `kill_tree`) that may write only under `root` (sandbox: Landlock,
    seccomp, no_new_privs), files capped by BUILD_FILE_SIZE, a scrubbed environment with the few
    variables a build needs (`variables` on top: arch list, jobs), no GPU, CXX the PCH wrapper."""
    from . import sandbox

    root.mkdir(parents=True, exist_ok=True)
    (root / ".tmp").mkdir(exist_ok=True)
    path = os.environ.get("PATH", "/usr/bin:/bin")
    if str(Path(sys.executable).parent) not in path.split(os.pathsep):   # ninja beside the interpreter
        path = f"{Path(sys.executable).parent}{os.pathsep}{path}"
    keep = {**{k: os.environ[k] for k in _PASSED if k in os.environ}, "PATH": path, "CUDA_VISIBLE_DEVICES": "",
            "TMPDIR": str(root / ".tmp"), "PYTHONDONTWRITEBYTECODE": "1", "CXX": pch.command(root / "pch"),
            "CUDAPERF_REAL_CXX": os.environ.get("CXX", "c++"), **variables}
    tools = [shutil.which(t, path=path) for t in ("ninja", "nvcc", "c++")]
    readable = tuple(dict.fromkeys(Path(p) for p in (*_READABLE, *(os.path.dirname(os.path.realpath(t))
                                                                  for t in tools if t)) if os.path.isdir(p)))
    policy = sandbox.Policy(private=root, readable=readable, processes=True)
    return {"env": sandbox.scrubbed_env(root, keep),
            "preexec_fn": subreaper_preexec(BUILD_FILE_SIZE, sandbox.preexec(policy))}


class Builders:
    """Build processes started ahead, with no GPU visible: each imports torch and the extension
    machinery (seconds) and then waits for one spec on stdin, so a build starts compiling at once.
    One build per process (a candidate's flags and sources leave nothing behind), each in its own
    session and confined (`builder_process`), bounded by a timeout, killed with every process it
    started (`kill_tree`) on timeout or `close()`; at most OUTPUT_CAP bytes of its output are kept."""

    def __init__(self, root: Path, arch_list: str, jobs: int = 2, ready: int = 2):
        self.root, self.ready = root, ready
        self.popen = builder_process(root, {"TORCH_CUDA_ARCH_LIST": arch_list, "MAX_JOBS": str(jobs)})
        self._idle: list[subprocess.Popen] = []
        self._lock = threading.Lock()
        self._closed = False

    def _spawn(self) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", __name__, str(self.root)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                                **self.popen)

    def warm(self) -> None:
        """Start builders up to `ready` (they import torch while nothing needs them yet)."""
        with self._lock:
            while not self._closed and len(self._idle) < self.ready:
                self._idle.append(self._spawn())

    def build(self, spec: dict, timeout: float) -> tuple[bool, str, float]:
        """Build one extension: (ok, compiler output, seconds)."""
        with self._lock:
            proc = self._idle.pop(0) if self._idle else self._spawn()
        self.warm()
        start = time.perf_counter()
        request = json.dumps({"spec": spec, "timeout": timeout}).encode()
        done = communicate_capped(proc, timeout, request, cap=OUTPUT_CAP)
        seconds = time.perf_counter() - start
        if done.returncode is None or done.returncode == LOCK_TIMED_OUT:
            why = "" if done.returncode is None else " (waiting for another build of the same extension)"
            return False, f"build took longer than {timeout:.0f} s{why}", seconds
        text = done.stdout + done.stderr   # the first error comes early, gcc's notes on inclusions after it
        return done.returncode == 0, _cap(text, 16000), seconds

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for proc in idle:
            kill_tree(proc.pid)
            proc.wait()
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()


def main() -> int:
    """A builder: import torch, then build (never import) the spec that arrives on stdin; before
    exiting, kill whatever the build left running (this process is their subreaper)."""
    from torch.utils import cpp_extension

    become_subreaper()
    text = sys.stdin.read()
    if not text.strip():
        return 0   # closed before a spec came
    request = json.loads(text)
    deadline = None if request.get("timeout") is None else time.monotonic() + request["timeout"]
    _cuda_home_for_cpu_torch()
    try:
        info = build(request["spec"], Path(sys.argv[1]), cpp_extension.load_inline, deadline)
        print(f"cudaperf: built the {info['variant']} variant" if info.get("linked", True) else
              f"cudaperf: compiled the {info['variant']} variant (not linked: this torch has no CUDA libraries)")
    except BuildError as exc:
        print(exc, file=sys.stderr)
        return 1
    except LockTimeout as exc:
        print(exc, file=sys.stderr)
        return LOCK_TIMED_OUT
    finally:
        kill_tree(os.getpid(), include_root=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
