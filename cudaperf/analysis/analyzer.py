"""Source -> reports: the analyzer's one entry point for files, strings and directories."""

from __future__ import annotations

import functools
import os
import queue
import re
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import arch as arch_table
from . import frontend, islands, parse, passes
from . import graph as access_graph
from .annotations import HEAD_BYTES, launch_annotation
from .budget import KERNEL_BUDGET_S, BudgetExceeded, kernel_budget
from .extents import compressed_rows, pointer_fills, row_spans
from .host import HostResolver
from .indices import index_fills
from .ir import Kernel
from .launch import (
    DEFAULT_BLOCKS,
    DEFAULT_GRIDS,
    HostLaunch,
    HostLaunches,
    Launch,
    LaunchError,
    argument_range,
    block_width_hint,
    common_periods,
    common_quotients,
    complete_block,
    dimensionality,
    infer_arguments,
    template_bindings,
    validate,
)
from .lower import Lowerer, LoweringError, Scalar, UnhandledSyntax
from .parse import Node, text
from .project import SOURCE_SUFFIXES, add_included, add_unit_macros, add_unit_types, project_launches, scoped
from .report import FileReport, KernelReport
from .resources import CompileFlags, Resources, compile_resources, estimate, normalise_template_args
from .sampling import Sampler
from .scope import explicit_instances, kernel_name, template_params
from .source import MAX_FILE_BYTES, Diagnostic, SourceError, SourceFile, load, statement_macros

CUDA_SUFFIXES = (".cu", ".cuh")
_DEVICE_LAUNCH = re.compile(rb"<<<|\bcudaMalloc\w*\s*\(|\bcudaLaunch\w*\s*\(|\bmalloc\s*\(")
INTERNAL_ERROR = "internal error"
AUTO_COMPILE_BYTES = 1024 * 1024  # --resources auto leaves larger files to the estimate
_TEMPLATE_DECL = re.compile(rb"\btemplate\s*<([^<>]*(?:<[^<>]*>[^<>]*)*)>")
_TEMPLATE_PARAM = re.compile(rb"(?:class|typename|int|unsigned|bool|size_t|auto)\s+(?:int\s+)?(\w+)\s*"
                             rb"(?:=[^,]*)?(?:,|$)")


@dataclass
class Options:
    """What the user fixed on the command line (or API); everything else is inferred or defaulted."""

    kernel: str | None = None  # a name, optionally with template arguments: "tile<32, 8>"
    grid: tuple[int, int, int] | None = None
    block: tuple[int, int, int] | None = None
    dynamic_smem: int | None = None
    args: dict[str, float | str] = field(default_factory=dict)  # str: a type for a template parameter
    extents: dict[str, int] = field(default_factory=dict)  # bytes each pointer argument reaches (a traced launch)
    defines: dict[str, str] = field(default_factory=dict)
    arch: str = "sm_90"
    resources: str = "auto"
    include_dirs: tuple[str, ...] = ()  # -I, for the compiler and the macro reader
    system_include_dirs: tuple[str, ...] = ()  # -isystem
    std: str = "c++17"
    frontend: str = "tree-sitter"  # "tree-sitter" | "clang" | "auto" (frontend.py)
    compile_commands: str | None = None  # a compile_commands.json (or its directory), "auto" to search, None

    # the analyses whose results are wanted (passes.names(); None: all).  A report leaves out what was not
    # run: no accesses, branches or sync hazards, no FLOPs or DRAM bytes (lint and rewards ask for less)
    analyses: frozenset[str] | None = None
    launch_from: str = "cli"  # who gave grid/block: the user, or the file's launch annotation
    budget: float | None = KERNEL_BUDGET_S  # CPU seconds per kernel; None: unbounded
    strict: bool = False  # raise UnhandledSyntax on constructs the lowering would skip (for test corpora)

    def compile_flags(self) -> CompileFlags:
        return CompileFlags(self.include_dirs, self.system_include_dirs, self.std)


def _holds_kernels(path: Path) -> bool:
    try:
        return path.stat().st_size <= MAX_FILE_BYTES and b"__global__" in path.read_bytes()
    except OSError:
        return False


def find_sources(paths: Iterable[str | Path], skip: Callable[[Path], bool] | None = None) -> Iterator[Path]:
    """Files as given; directories searched recursively (sorted, hidden dirs skipped) for .cu/.cuh
    files, and C++ sources and headers (.h, .hpp, .cpp ...) that define kernels.  `skip` leaves out
    directories and files found in them (lint's `exclude`)."""
    for p in map(Path, paths):
        if p.is_dir():
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not (skip and skip(Path(root) / d)))
                for f in sorted(files):
                    path = Path(root) / f
                    if skip is not None and skip(path):
                        continue
                    if f.endswith(CUDA_SUFFIXES) or (path.suffix in SOURCE_SUFFIXES and _holds_kernels(path)):
                        yield path
        else:
            yield p


class FileAnalysis:
    """One translation unit: parse once, then lower and analyse each kernel under its launch."""

    def __init__(self, source: SourceFile, options: Options):
        self.source = source
        self.options = options
        add_unit_macros(source)
        self.tree, self.scope = scoped(source)
        self.host_launches: HostLaunches | None = None
        self.program_launches: list[HostLaunch] | None = None  # of the kernels this file does not launch
        self._islands: list = []  # keeps re-parsed trees alive while their nodes are in use
        self._read_islands: list[tuple[int, int]] = []  # regions of islands whose kernels parsed without error
        self.lost_bodies: list[Diagnostic] = []
        self.lowering_warnings: list[Diagnostic] = []
        self._ptxas: dict[tuple[str, ...], dict | str] = {}
        self._template_names: set[str] | None = None
        self._explicit: dict[str, list[str]] | None = None

    def launches(self, name: str) -> list[HostLaunch]:
        """Launches of kernel `name` in this file, or in the other files of its program (project.py)
        when this file defines it but does not launch it; resolved when first asked for."""
        if self.host_launches is None:
            self.host_launches = HostLaunches(self.tree.root_node, HostResolver(self.scope, self.options.args))
        found = self.host_launches.of({name})
        if found:
            return found
        if self.program_launches is None:
            launched = {site.kernel for site in self.host_launches.sites}
            unlaunched = {kernel_name(k, self.source.macros) for k in self.scope.kernels} - launched
            self.program_launches = project_launches(self.source.path, unlaunched, self.options.args,
                                                     self.options.defines)
        return [h for h in self.program_launches if h.kernel == name]

    def host_launch(self, name: str) -> HostLaunch | None:
        """The launch the kernel is analysed under: the first whose block size is known (all of it,
        else in part), else the first."""
        found = self.launches(name)
        found = [h for h in found if h.reachable] or found  # not one the host's own values rule out
        return next((h for h in found if h.block is not None and None not in h.block),
                    next((h for h in found if h.block is not None), found[0] if found else None))

    def report(self) -> FileReport:
        diagnostics = list(self.source.diagnostics)
        definitions = self._kernel_nodes()
        errors = [node for node in parse.error_nodes(self.tree.root_node, limit=_ERRORS_WALKED)
                  if not self._valid_cuda(node)]
        for node in errors[:_ERRORS_REPORTED]:
            line, column = parse.position(node)
            what = f"missing {node.type}" if node.is_missing else "syntax error"
            diagnostics.append(Diagnostic(line, column, "warning",
                                          f"{what}; analysis of the enclosing code is partial", "syntax"))
        kernels = []
        if definitions:  # what the included headers and the including units define (a file of host code skips it)
            add_included(self.scope, self.source.path, self.options.defines)
            add_unit_types(self.scope, self.source.path, self.options.defines)
        diagnostics += self.lost_bodies
        defined = [kernel_name(definition, self.source.macros) for definition in definitions]
        for definition, name in zip(definitions, defined):
            if self.options.kernel and name != self.options.kernel.split("<", 1)[0].strip():
                continue
            line, column = parse.position(definition)
            try:
                with kernel_budget(self.options.budget):
                    kernels.append(self.kernel(definition))
                if kernels[-1].incomplete:
                    diagnostics.append(Diagnostic(line, column, "note", f"kernel {name}: analysis stopped at the "
                                                  f"{self.options.budget:g} s budget during {kernels[-1].incomplete}; "
                                                  "later analyses skipped, findings may be missing"))
            except (LaunchError, UnhandledSyntax):
                raise
            except BudgetExceeded:
                diagnostics.append(Diagnostic(line, column, "note", f"kernel {name}: not analysed, lowering ran "
                                              f"past the {self.options.budget:g} s budget"))
            except (LoweringError, RecursionError) as exc:
                diagnostics.append(Diagnostic(line, column, "error", f"kernel {name}: {exc or 'too deeply nested'}"))
            except Exception as exc:  # a bug must cost one kernel, not the file (and never a traceback)
                diagnostics.append(Diagnostic(line, column, "error", f"{INTERNAL_ERROR} analysing kernel {name}: "
                                              f"{type(exc).__name__}: {exc}"))
        diagnostics += list(dict.fromkeys(self.lowering_warnings))
        return FileReport(self.source.path, diagnostics, kernels, list(dict.fromkeys(defined)))

    def _valid_cuda(self, error: Node) -> bool:
        """Is this error the grammar's, on code nvcc compiles as written?"""
        if any(start <= error.start_byte < end for start, end in self._read_islands):
            return True  # a kernel a macro hid (`GLOBAL void k`, `LAUNCH_BOUNDS(256)`), read whole from its island
        return error.is_missing and (
            _followed_by_pragma(error)  # `for (...)` + `#pragma unroll` + `for`: split by the grammar (see lower)
            or _heads_a_block(error, self.source.macros)  # `KERNEL_LOOP(i, B * N) { ... }`: a loop macro, expanded
            or _ends_a_statement_macro(error, self._statement_macros))  # `CHECK(cudaMalloc(&p, n))`, no `;`

    @functools.cached_property
    def _statement_macros(self) -> set[str]:
        return statement_macros(self.source.macros)

    def _kernel_nodes(self) -> list[Node]:
        """Kernels the query found, plus any a syntax error or a macro hid from it."""
        kernels = list(self.scope.kernels)
        # a signature accounts for its `__global__`; one inside a body means error recovery merged
        # definitions (kernels do not nest), so that one still starts an island
        covered = [(k.start_byte, (k.child_by_field_name("body") or k).start_byte + 1) for k in kernels]
        for island in islands.find(self.source, self.tree.root_node, covered):
            found = self._island_kernels(island)
            if not found:
                found = self._island_kernels(island.without_body())
                if found:
                    line, column = parse.position(found[0])
                    self.lost_bodies.append(Diagnostic(line, column, "warning",
                                                       "kernel body could not be parsed; reported without accesses",
                                                       "syntax"))
            kernels += found
        return sorted(kernels, key=lambda n: n.start_byte)

    def _island_kernels(self, island: islands.Island) -> list[Node]:
        tree = island.parse(self.source.data)
        self._islands.append(tree)
        found = [m["kernel"][0] for m in parse.matches("functions", tree.root_node) if "kernel" in m]
        if found and island.closed and not tree.root_node.has_error:
            self._read_islands.append((island.start, island.end))
        return found

    def kernel(self, definition: Node) -> KernelReport:
        name = kernel_name(definition, self.source.macros)
        names, kinds, defaults = template_params(definition)
        host = self.host_launch(name)
        given = [defaults.get(n, "") for n in names]
        if host and host.template_args:
            given = host.template_args
            if name in self._instances() and set(given) & self._template_parameter_names():
                given = self._instances()[name]  # `k<T>` in a host template: the instance compiled
        elif name in self._instances():
            given = self._instances()[name]
        if self.options.kernel and "<" in self.options.kernel:
            given = _split_template_args(self.options.kernel)
        constants = self.scope.constants  # `k<blockSize>` with `constexpr int blockSize = 16;` at file scope
        given = [text(constants[g]) if g in constants else g for g in given]
        bound = template_bindings(names, kinds, given, self.scope.types.lookup)
        for n, kind in zip(names, kinds):  # --arg may set template parameters too
            value = self.options.args.get(n)
            if value is None:
                continue
            if kind == "type":
                ctype = self.scope.types.lookup(str(value))
                if ctype is not None:
                    bound[n] = ctype
            elif isinstance(value, (int, float)):
                bound[n] = _const(value)
        template_args = {k: (Scalar(v) if not hasattr(v, "size") else v) for k, v in bound.items()}
        lowerer = Lowerer(self.scope, template_args)
        lowerer.strict = self.options.strict
        kernel = lowerer.lower_kernel(definition)
        if _DEVICE_LAUNCH.search(getattr(definition, "text", None) or b""):  # dynamic parallelism, device malloc
            kernel.notes.append("device launches")
        self.lowering_warnings += [Diagnostic(line, column, "warning", f"kernel {name}: {message}")
                                   for line, column, message in lowerer.warnings]
        launch = self._launch(kernel, host)
        spelled = [_spell(self.options.args.get(n, g)) for n, g in zip(names, given)]
        concrete = names and all(spelled) and not set(spelled) & self._template_parameter_names()
        instance = f"{_qualified(definition, name)}<{', '.join(spelled)}>" if concrete else None
        return analyse(kernel, launch, self._resources(kernel, instance), self.options.arch, self.options.analyses)

    def _resources(self, kernel: Kernel, instance: str | None) -> Resources:
        """ptxas's figures when asked (or, in auto mode, when nvcc is there and the file compiles
        standalone); otherwise the estimate, with the reason."""
        a = arch_table.get(self.options.arch)
        if self.options.resources == "estimate":
            return estimate(kernel, a)
        if self.options.resources == "auto" and len(self.source.raw) > AUTO_COMPILE_BYTES:
            return estimate(kernel, a, note=f"not compiled: larger than {AUTO_COMPILE_BYTES // 1024} KiB")
        compiled = self._compiled(())
        key = kernel.name if instance is None else kernel.name + "<" + normalise_template_args(
            instance.split("<", 1)[1][:-1]) + ">"
        if not isinstance(compiled, str) and key not in compiled and instance is not None:
            compiled = self._compiled((instance,))
        if isinstance(compiled, str):
            return estimate(kernel, a, note=f"ptxas unavailable: {compiled}")
        found = compiled.get(key) or next((r for k, r in compiled.items() if k.split("<", 1)[0] == kernel.name), None)
        return found or estimate(kernel, a, note="ptxas did not report this kernel")

    def _instances(self) -> dict[str, list[str]]:
        if self._explicit is None:  # explicit instantiations, else those clang saw launched (clangfront)
            self._explicit = {**getattr(self.source.facts, "instances", {}), **explicit_instances(self.tree.root_node)}
        return self._explicit

    def _template_parameter_names(self) -> set[str]:
        """Names the file's templates declare: a launch `k<T>` inside a host template is no instance."""
        if self._template_names is None:
            self._template_names = {m.group(1).decode() for decl in _TEMPLATE_DECL.finditer(self.source.data)
                                    for m in _TEMPLATE_PARAM.finditer(decl.group(1))}
        return self._template_names

    def _compiled(self, instances: tuple[str, ...]):
        if instances not in self._ptxas:
            self._ptxas[instances] = compile_resources(self.source.raw, self.source.path, self.options.arch,
                                                       self.options.defines, list(instances),
                                                       self.options.compile_flags())
        return self._ptxas[instances]

    def _launch(self, kernel: Kernel, host: HostLaunch | None) -> Launch:
        o = self.options
        dims = dimensionality(kernel)
        source = o.launch_from if (o.grid or o.block) else "default"
        block = o.block
        grid = o.grid
        partial = False
        if host is not None:
            if block is None and host.block is not None:
                block, source = complete_block(host.block, dims), "inferred" if source == "default" else source
                partial = None in host.block
            if grid is None and host.grid is not None:
                grid, source = host.grid, "inferred" if source == "default" else source
        guessed = tuple(part for part, value in (("grid", grid), ("block", None if partial else block))
                        if value is None)  # a block known in part is still a guess
        if block is None:
            hint = block_width_hint(kernel) if dims == 1 else None  # `blockIdx.x * ThreadsPerBlock + threadIdx.x`
            block = (kernel.launch_bounds[0], 1, 1) if kernel.launch_bounds and dims == 1 else \
                (hint, 1, 1) if hint else DEFAULT_BLOCKS[dims]
        if grid is None:
            grid = DEFAULT_GRIDS[dims]
        validate(grid, block)
        smem = o.dynamic_smem if o.dynamic_smem is not None else \
            (host.dynamic_smem if host is not None and host.dynamic_smem is not None else 0)
        site = f"{Path(host.path or self.source.path).name}:{host.line}" if host is not None else ""
        launch = Launch(tuple(grid), tuple(block), smem, source, guessed=guessed, host_site=site,
                        known_block=tuple(host.block) if partial else (),
                        extents={p.name: int(o.extents[p.name]) for p in kernel.params
                                 if p.pointer and p.name in o.extents})
        scalars = [p for p in kernel.params]
        for param in scalars:
            if param.name in o.args and isinstance(o.args[param.name], (int, float)):
                launch.args[param.name] = float(o.args[param.name])
                launch.arg_sources[param.name] = "cli"
        if host is not None:
            every = self.launches(host.kernel)
            for position, (param, value) in enumerate(zip(kernel.params, host.args)):
                shape = host.shapes[position] if position < len(host.shapes) else None
                if not param.pointer and value is None and shape is not None and param.name not in launch.args:
                    launch.args[param.name] = float(getattr(launch, shape)[0])  # `k<<<nb, t>>>(x, nb)`: the
                    launch.arg_sources[param.name] = "inferred"  # argument is the launch's own (maybe guessed) size
                if not param.pointer and value is not None and param.name not in launch.args:
                    launch.args[param.name] = float(value)
                    launch.arg_sources[param.name] = "inferred"
                    launch.fixed += (param.name,) * (len(every) == 1)
                    launch.varied += (param.name,) * (position < len(host.varied) and host.varied[position])
                allowed = argument_range(every, position)
                if not param.pointer and value is None and param.name not in launch.args and allowed:
                    launch.ranges[param.name] = allowed
            for param, period in zip(kernel.params, common_periods(every)):
                if not param.pointer and period > 1 and param.name not in launch.args:
                    launch.multiples[param.name] = period
            for param, quotient in zip(kernel.params, common_quotients(every)):
                if not param.pointer and quotient is not None and param.name not in launch.args:
                    launch.quotients[param.name] = quotient
        infer_arguments(kernel, launch)
        launch.index_fills = index_fills(self.tree.root_node, self.source.path, self.launches(kernel.name), kernel)
        return launch


def _split_template_args(spelled: str) -> list[str]:
    inner = spelled.split("<", 1)[1].rsplit(">", 1)[0]
    out, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(inner[start:i].strip())
            start = i + 1
    out.append(inner[start:].strip())
    return [a for a in out if a]


def _followed_by_pragma(node: Node) -> bool:
    while node.next_sibling is None and node.parent is not None:
        node = node.parent
    return node.next_sibling is not None and node.next_sibling.type == "preproc_call"


def _heads_a_block(node: Node, macros) -> bool:
    """The `;` missing after a call to a function-like macro that a block follows (a loop macro whose
    arguments the grammar could not read as a declaration)."""
    statement = node.parent
    call = parse.call_heading_block(statement, statement.next_named_sibling if statement is not None else None)
    macro = macros.get(text(call.child_by_field_name("function"))) if call is not None else None
    return macro is not None and macro.params is not None


_ERRORS_WALKED, _ERRORS_REPORTED = 200, 20  # a bounded walk, so that a huge broken file stays fast


def _ends_a_statement_macro(node: Node, statements: set[str]) -> bool:
    """The `;` missing after a call to a statement macro (`source.statement_macros`): the file rightly
    leaves the `;` out, and the tree is the one it would give."""
    statement = node.parent
    if node.type != ";" or statement is None or statement.type != "expression_statement" or \
            statement.named_child_count != 1:
        return False
    call = statement.named_children[0]
    callee = call.child_by_field_name("function") if call.type == "call_expression" else None
    return callee is not None and callee.type == "identifier" and text(callee) in statements


def _spell(value) -> str:
    """A template argument as C++ source: 4.0 -> `4`, a type name as written."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _qualified(definition: Node, name: str) -> str:
    """`ns::inner::name` for a definition inside named namespaces (instantiation needs it)."""
    scopes, node = [], definition.parent
    while node is not None:
        if node.type == "namespace_definition" and node.child_by_field_name("name") is not None:
            scopes.append(text(node.child_by_field_name("name")))
        node = node.parent
    return "::".join([*reversed(scopes), name])


def _const(value: float):
    from .symbolic import Const
    return Const(float(value), float(value).is_integer())


def analyse(kernel: Kernel, launch: Launch, resources: Resources | None = None, arch: str = "sm_90",
            analyses: Iterable[str] | None = None) -> KernelReport:
    """The passes of one lowered kernel under one launch (`analyses`: those asked for, see
    `passes.wanted`; resources, occupancy and the kernel's shape always).  Past the kernel's time
    budget (budget.kernel_budget) the pass running stops, later ones are skipped, and the report
    says which (`KernelReport.incomplete`)."""
    target = arch_table.get(arch)
    report = KernelReport(kernel, launch, [], [], access_graph.build(kernel), arch=target,
                          resources=resources or estimate(kernel, target))
    running = passes.wanted(analyses)
    rows = compressed_rows(report.graph, launch.extents)
    sampler = Sampler(launch, row_spans=row_spans(rows), fills=pointer_fills(report.graph, rows))
    ctx = passes.Context(report, sampler, running)
    for p in passes.ordered():
        if not (p.always or p.name in running):
            continue
        try:
            result = p.run(ctx)
        except BudgetExceeded:
            report.incomplete = p.phase or p.name
            break
        if result is not None:
            report.results[p.name] = result
    report.exact = not ctx.sampler.unknown_trips
    return report


_STACK_BYTES = 256 * 1024 * 1024
_RECURSION_LIMIT = 60_000
_local = threading.local()


class _DeepThread:
    """A long-lived thread with a large stack for each thread that asks for analyses: deeply nested code
    (hundreds of levels of blocks or parentheses) recurses deeply in the tree walks, and must not crash the
    interpreter.  A thread made per file cost about a millisecond of CPU, and the page faults of its fresh
    stack system time, on every file of a corpus run.  One per calling thread, so callers on several threads
    (ptxas compiles under `--resources auto`) still overlap; it ends with its caller (the thread-local is
    dropped, `__del__` queues the stop), and is dropped when its caller gives up waiting (an interrupt), so the
    next call does not queue behind the abandoned analysis.  A forked child makes its own; before forking
    workers, `release_thread` ends the caller's."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        if sys.getrecursionlimit() < _RECURSION_LIMIT:
            sys.setrecursionlimit(_RECURSION_LIMIT)
        previous = threading.stack_size(_STACK_BYTES)
        try:
            self.thread = threading.Thread(target=_serve, args=(self.jobs,), name="cudaperf-analysis", daemon=True)
            self.thread.start()
        finally:
            threading.stack_size(previous)

    def __del__(self) -> None:
        self.jobs.put(None)

    @staticmethod
    def run(fn, *args):
        if getattr(_local, "deep", False):
            return fn(*args)
        worker = getattr(_local, "worker", None)
        if worker is None or worker.pid != os.getpid():
            worker = _local.worker = _DeepThread()
        outcome: dict = {}
        done = threading.Event()
        worker.jobs.put((fn, args, outcome, done))
        try:
            done.wait()
        except BaseException:
            _local.worker = None  # it finishes the abandoned analysis, then stops
            raise
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]


def release_thread() -> None:
    """End the calling thread's analysis thread, if it has one, and wait for it: a process that forks
    workers (`analyze -j`, `lint -j` after analyses in the same process) must not hold it, since forking a
    multi-threaded process can deadlock the child (Python 3.12 and later warn).  The next analysis starts
    another."""
    worker = getattr(_local, "worker", None)
    _local.worker = None
    if worker is not None and worker.pid == os.getpid():
        worker.jobs.put(None)
        worker.thread.join()


def _serve(jobs: queue.SimpleQueue) -> None:
    _local.deep = True
    while (job := jobs.get()) is not None:
        fn, args, outcome, done = job
        try:
            outcome["value"] = fn(*args)
        except BaseException as exc:  # re-raised in the caller's thread
            outcome["error"] = exc
        finally:
            done.set()


def _annotated(options: Options, head: bytes) -> tuple[Options, list[Diagnostic]]:
    """The options with what the file's launch annotation gives and the user left open."""
    found = launch_annotation(head)
    if found is None:
        return options, []
    defines = {**found.defines, **options.defines}
    if found.problem:
        return replace(options, defines=defines), [Diagnostic(1, 1, "warning", f"launch annotation ignored: "
                                                              f"{found.problem}")]
    given = options.grid or options.block
    return replace(options, grid=options.grid or found.grid, block=options.block or found.block, defines=defines,
                   launch_from=options.launch_from if given else "annotation"), []


def _analysis(source: Callable[[Options], SourceFile], head: bytes, options: Options | None) -> FileReport:
    options, notes = _annotated(options or Options(), head)

    def run() -> FileReport:
        unit = source(options)
        unit.diagnostics += notes
        return FileAnalysis(unit, options).report()
    return _DeepThread.run(run)


def analyze_source(data: bytes | str, path: str = "<string>", options: Options | None = None) -> FileReport:
    """Analyse CUDA source text; raises SourceError (one-line message) only for unusable input."""
    raw = data.encode() if isinstance(data, str) else data
    return _analysis(lambda o: load(raw, path, o.defines), raw[:HEAD_BYTES], options)


def analyze_file(path: str | Path, options: Options | None = None) -> FileReport:
    """Analyse one file; raises SourceError (one-line message) for unreadable or unusable input."""
    try:
        with open(path, "rb") as f:
            head = f.read(HEAD_BYTES)
    except OSError:
        head = b""  # read() says why
    options, flags = frontend.with_database(options or Options(), path)  # the build's -I/-D/-std for this file
    return _analysis(lambda o: frontend.read_file(path, o, flags), head, options)


__all__ = ["LaunchError", "Options", "SourceError", "UnhandledSyntax", "analyze_file", "analyze_source",
           "find_sources"]
