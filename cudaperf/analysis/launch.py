"""Launch configurations: from the command line, inferred from host code, or documented defaults.

A launch fixes grid, block, dynamic shared memory, the values of scalar kernel arguments and
template arguments.  Every value records where it came from (``cli``, ``inferred`` from a
``<<<...>>>`` launch in the same file or from a bounds check in the kernel, or ``default``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from . import parse
from .ctype import CType
from .guards import Range, argument_ranges, unreachable
from .ir import Branch, Kernel, Loop, statements
from .parse import Node, text
from .symbolic import Const, Expr, Op, Sym, evaluate, free_symbols

DEFAULT_BLOCKS = {1: (256, 1, 1), 2: (16, 16, 1), 3: (8, 8, 4)}
DEFAULT_GRIDS = {1: (4096, 1, 1), 2: (64, 64, 1), 3: (16, 16, 16)}
DEFAULT_ARGUMENT = 1024
MAX_DIM = (2**31 - 1, 65535, 65535)
MAX_BLOCK_THREADS = 1024


class LaunchError(ValueError):
    """An impossible launch (the message is one line for the user)."""


@dataclass
class Launch:
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    dynamic_smem: int = 0
    source: str = "default"  # cli | annotation (the file's header, annotations.py) | inferred | default
    args: dict[str, float] = field(default_factory=dict)
    arg_sources: dict[str, str] = field(default_factory=dict)
    extents: dict[str, int] = field(default_factory=dict)  # pointer parameter -> bytes it reaches (traced)
    # index arrays a store scatters through that the host fills with a permutation: (a, b) for
    # `idx[j] = a*j + b` (indices.py)
    index_fills: dict[str, tuple[int, int]] = field(default_factory=dict)
    guessed: tuple[str, ...] = ()  # "grid", "block": parts neither given nor found in host code (defaults)
    # where the host launches the kernel when it does (`main.cu:247`), also when its sizes are run-time values
    host_site: str = ""
    # the axes of a block the host gave only in part (`dim3(32, rows)`: (32, None, 1)); () otherwise
    known_block: tuple[int | None, ...] = ()
    # scalar arguments inferred from a bounds check in the kernel: sized to the launch, not given
    bounded: tuple[str, ...] = ()
    # scalar arguments the host code fixes at the kernel's only launch (`const int n = 65536;`)
    fixed: tuple[str, ...] = ()
    # scalar arguments the host code leaves open within a range at every launch (`if (n > 1024) k<<<..>>>(n)`)
    ranges: dict[str, Range] = field(default_factory=dict)
    # scalar arguments the host code leaves unknown but makes a multiple of a constant at every
    # launch of the kernel, all with one block (`n = k * 1024`): name -> that constant
    multiples: dict[str, int] = field(default_factory=dict)
    # scalar arguments the grid is sized from by a rounded-down division at every launch
    # (`grid = num / 32`): name -> (axis, 32), so the argument is gridDim * 32 plus less than 32
    quotients: dict[str, tuple[int, int]] = field(default_factory=dict)
    # scalar arguments whose value is the first of a loop around the launch (`for (n = 512; ...; n *= 512)`)
    varied: tuple[str, ...] = ()

    @property
    def threads_per_block(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    @property
    def blocks(self) -> int:
        return self.grid[0] * self.grid[1] * self.grid[2]

    def symbols(self) -> dict[str, float]:
        values: dict[str, float] = {f"arg:{k}": v for k, v in self.args.items()}
        for i, axis in enumerate("xyz"):
            values[f"bdim.{axis}"] = float(self.block[i])
            values[f"gdim.{axis}"] = float(self.grid[i])
        return values

    def to_json(self) -> dict:
        return {"grid": list(self.grid), "block": list(self.block), "dynamic_smem": self.dynamic_smem,
                "source": self.source}


def validate(grid: tuple[int, int, int], block: tuple[int, int, int]) -> None:
    if any(v < 1 for v in grid + block):
        raise LaunchError("launch dimensions must be >= 1")
    if any(g > m for g, m in zip(grid, MAX_DIM)):
        raise LaunchError(f"grid {grid} exceeds the CUDA limit {MAX_DIM}")
    if block[0] * block[1] * block[2] > MAX_BLOCK_THREADS or block[2] > 64:
        raise LaunchError(f"block {block} exceeds 1024 threads per block (or 64 in z)")


def complete_block(block: tuple[int | None, ...], dims: int) -> tuple[int, int, int]:
    """A block the host code gave only in part (`dim3(32, rows)`): one unknown axis makes the
    block up to the default's 256 threads, several take the defaults."""
    default = DEFAULT_BLOCKS[dims]
    unknown = [i for i, v in enumerate(block) if v is None]
    if len(unknown) == 1:
        known = math.prod(v for v in block if v is not None)
        return tuple(max(1, 256 // known) if v is None else v for v in block)
    return tuple(d if v is None else v for v, d in zip(block, default))


def dimensionality(kernel: Kernel) -> int:
    if {"tid.z", "bid.z"} & kernel.uses:
        return 3
    if {"tid.y", "bid.y"} & kernel.uses:
        return 2
    return 1


@dataclass
class HostLaunch:
    """A `<<<...>>>` launch found in the file, resolved as far as literals allow."""

    kernel: str
    line: int
    grid: tuple[int, int, int] | None
    block: tuple[int | None, int | None, int | None] | None  # an axis the host code leaves unknown is None
    dynamic_smem: int | None
    template_args: list[str]
    args: list[float | None]
    path: str | None = None  # the file holding the launch, when not the analysed one
    # per argument, the range the conditions around the launch allow a variable passed as it (guards.py)
    ranges: list[Range | None] = field(default_factory=list)
    # per argument the host leaves unknown, the constant it is a multiple of (1: none known)
    periods: list[int] = field(default_factory=list)
    # per argument written as the launch's own 1-D grid or block size (`k<<<nb, t>>>(x, nb)`):
    # "grid" or "block", so a guessed shape and the argument stay one value
    shapes: list[str | None] = field(default_factory=list)
    # per argument the grid is that argument divided by a constant along an axis: (axis, constant)
    quotients: list[tuple[int, int] | None] = field(default_factory=list)
    # per argument, whether it is the counter of a loop around the launch (HostResolver.loop_varied)
    varied: list[bool] = field(default_factory=list)
    # False when a condition around the launch fails for values the host fixes (guards.unreachable)
    reachable: bool = True


def written_arguments(arguments: Node) -> list[Node]:
    """Argument nodes, without the `#ifndef`/`#endif` lines the grammar leaves among them as
    ERROR nodes (cuda-samples' Sobel launch), which would shift every later argument."""
    return [c for c in arguments.named_children if not c.is_error and c.type != "comment"
            and not c.type.startswith("preproc")]


def _kernel_aliases(root: Node) -> dict[str, Node]:
    """Variables that name a kernel (`auto align = align_kernel<int>;`, `= &k`), launched by that name."""
    aliases = {}
    for m in parse.matches("aliases", root):
        value = m["value"][0]
        if value.type == "pointer_expression" and text(value.child_by_field_name("operator")) == "&":
            value = value.child_by_field_name("argument")
        if value is not None and value.type != "pointer_expression":
            aliases[text(m["alias"][0])] = value
    return aliases


@dataclass
class LaunchSite:
    """A `<<<...>>>` launch as written: the kernel it launches (through an alias too), not resolved."""

    kernel: str
    callee: Node
    match: dict[str, list[Node]]


def launch_sites(root: Node) -> list[LaunchSite]:
    """The launches under `root`, in the order written."""
    sites = []
    aliases: dict[str, Node] | None = None
    for m in parse.matches("launches", root):
        callee = m["callee"][0]
        if callee.type == "identifier":
            aliases = _kernel_aliases(root) if aliases is None else aliases
            callee = aliases.get(text(callee), callee)
        name = callee.child_by_field_name("name") if callee.type == "template_function" else callee
        sites.append(LaunchSite(text(name).rsplit("::", 1)[-1], callee, m))
    return sites


class HostLaunches:
    """The launches of one tree, each resolved when a kernel it launches is first asked for: most
    files launch each kernel they define, and the rest (a main.cu searched for the kernels of one
    of its headers) are not resolved at all."""

    def __init__(self, root: Node, resolve, path: str | None = None):
        self.sites = launch_sites(root)
        self.resolve = resolve
        self.path = path
        self._found: dict[int, HostLaunch] = {}

    def of(self, kernels) -> list[HostLaunch]:
        """The launches of the kernels named in `kernels`, in the order written."""
        out = []
        for index, site in enumerate(self.sites):
            if site.kernel in kernels:
                if index not in self._found:
                    self._found[index] = resolve_launch(site, self.resolve)
                    self._found[index].path = self.path
                out.append(self._found[index])
        return out


def resolve_launch(site: LaunchSite, resolve) -> HostLaunch:
    """A launch's grid, block, shared memory, template and scalar arguments, as far as the host
    code before it fixes them.  ``resolve(node, launch_node) -> list of up to 3 ints or None``
    evaluates host expressions; ``resolve.period(node, launch_node)`` gives the constant an unknown
    one is a multiple of."""
    m, callee = site.match, site.callee
    template_args: list[str] = []
    if callee.type == "template_function":
        targs = callee.child_by_field_name("arguments")
        template_args = [_template_value(a, m["launch"][0], resolve) for a in targs.named_children] \
            if targs is not None else []
    config = written_arguments(m["config"][0])
    launch_node = m["launch"][0]
    grid = resolve(config[0], launch_node, dim3=True) if config else None
    block = resolve(config[1], launch_node, dim3=True) if len(config) > 1 else None
    smem = resolve(config[2], launch_node, dim3=False) if len(config) > 2 else [0]
    written = written_arguments(m["arguments"][0])
    args = [resolve(a, launch_node, dim3=False) for a in written]

    def constant(node, at=launch_node):
        return (resolve(node, at, dim3=False) or [None])[0]

    around = argument_ranges(launch_node, constant)
    periods = [1 if value else resolve.period(a, launch_node) for a, value in zip(written, args)]
    sizes = {text(node): part for node, part in zip(config[:2], ("grid", "block"))}
    quotients = resolve.quotients(config[0], written, launch_node) if config else []
    return HostLaunch(
        site.kernel, parse.position(launch_node)[0],
        tuple(grid) if grid and None not in grid else None, tuple(block) if block else None,
        int(smem[0]) if smem else None, template_args,
        [a[0] if a else None for a in args], ranges=[around.get(text(a)) for a in written], periods=periods,
        shapes=[sizes.get(text(a)) for a in written], quotients=quotients,
        varied=[resolve.loop_varied(a, launch_node) for a in written],
        reachable=not unreachable(launch_node, constant))


def _template_value(argument: Node, launch: Node, resolve) -> str:
    """A template argument as written, or its value when it names a host constant
    (`k<BLOCK><<<...>>>` after `const int BLOCK = 256;` in the launching function)."""
    written = text(argument)
    if not written.isidentifier():
        return written
    value = resolve(argument.child_by_field_name("type") or argument, launch, dim3=False)
    return str(value[0]) if value else written


def common_periods(launches: list[HostLaunch]) -> list[int]:
    """Per argument, the constant it is a multiple of at every one of a kernel's launches (a
    literal is a multiple of itself); all 1 unless the launches share one block."""
    if not launches or any(h.block != launches[0].block or len(h.periods) != len(h.args) for h in launches):
        return []
    return [math.gcd(*(period if value is None else int(abs(value)) if float(value).is_integer() else 1
                       for value, period in zip(values, periods)))
            for values, periods in zip(zip(*(h.args for h in launches)), zip(*(h.periods for h in launches)))]


def common_quotients(launches: list[HostLaunch]) -> list[tuple[int, int] | None]:
    """Per argument, the (axis, constant) its launches all size the grid from (HostLaunch.quotients)."""
    if not launches or any(len(h.quotients) != len(h.args) for h in launches):
        return []
    return [found[0] if len(set(found)) == 1 else None for found in zip(*(h.quotients for h in launches))]


def _bound_candidates(kernel: Kernel) -> dict[str, list[Expr]]:
    """For `x < n`-style checks on a scalar argument n: the thread-index expressions x it bounds."""
    found: dict[str, list[Expr]] = {}
    conditions = [s.condition for s, _ in statements(kernel) if isinstance(s, (Branch, Loop))]
    stack = list(conditions)
    while stack:
        e = stack.pop()
        if not isinstance(e, Op):
            continue
        if e.name in ("&&", "||", "!"):
            stack.extend(e.args)
            continue
        if e.name in ("<", "<=", ">", ">=") and len(e.args) == 2:
            a, b = e.args
            for bound, index in ((b, a), (a, b)):
                if isinstance(bound, Sym) and bound.name.startswith("arg:"):
                    syms = free_symbols(index)
                    if syms and all(s.split(".")[0] in ("tid", "bid", "bdim", "gdim") for s in syms):
                        found.setdefault(bound.name[4:], []).append(index)
    return found


def block_width_hint(kernel: Kernel) -> int | None:
    """The block width a 1-D kernel that never reads blockDim.x writes into its indexing as a
    constant: `threadIdx.x + blockIdx.x * ThreadsPerBlock`, `gridDim.x * 512` as a grid stride, or a
    loop from threadIdx.x stepping by it.  The most frequent such constant, a multiple of 32 up to
    1024; None when there is none (or blockDim.x is read: the kernel follows the launch)."""
    if {"bdim.x", "tid.y", "tid.z", "tid.linear"} & kernel.uses:
        return None
    counts: dict[float, int] = {}

    def visit(expr: Expr) -> None:
        stack = [expr]
        while stack:
            e = stack.pop()
            if not isinstance(e, Op):
                continue
            if e.name == "*" and len(e.args) == 2:
                for index, size in (e.args, e.args[::-1]):
                    if isinstance(index, Sym) and index.name in ("bid.x", "gdim.x") and isinstance(size, Const):
                        counts[size.value] = counts.get(size.value, 0) + 1
            stack.extend(e.args)

    for stmt, _ in statements(kernel):
        if isinstance(stmt, Loop):
            for part in (stmt.init, stmt.condition, stmt.update):
                visit(part)
            if isinstance(stmt.step, Const) and "tid.x" in free_symbols(stmt.init) and \
                    not free_symbols(stmt.init) - {"tid.x"}:
                counts[stmt.step.value] = counts.get(stmt.step.value, 0) + 1
        elif isinstance(stmt, Branch):
            visit(stmt.condition)
        elif hasattr(stmt, "offset"):
            visit(stmt.offset)
    widths = [w for w in sorted(counts, key=lambda w: -counts[w]) if w.is_integer() and 32 <= w <= 1024 and w % 32 == 0]
    return int(widths[0]) if widths else None


def infer_arguments(kernel: Kernel, launch: Launch) -> None:
    """Fill missing scalar arguments: from bounds checks (n = largest index + 1), else a default,
    moved into the range the host code allows."""
    candidates = _bound_candidates(kernel)
    values = launch.symbols()
    for i, axis in enumerate("xyz"):
        values[f"tid.{axis}"] = float(launch.block[i] - 1)
        values[f"bid.{axis}"] = float(launch.grid[i] - 1)
    for param in kernel.params:
        if param.pointer or param.name in launch.args:
            continue
        best = None
        for index in candidates.get(param.name, []):
            v = evaluate(index, values)
            if math.isfinite(v):
                best = max(best or 0, int(v) + 1)
        lo, hi = launch.ranges.get(param.name, (-math.inf, math.inf))
        if best is not None:
            launch.args[param.name] = float(min(max(best, lo), hi))
            launch.arg_sources[param.name] = "inferred"
            launch.bounded += (param.name,)
        elif not param.type.is_float and not param.type.fields:   # a struct's fields are values of their own
            launch.args[param.name] = float(min(max(DEFAULT_ARGUMENT, lo), hi))
            launch.arg_sources[param.name] = "default"


_BOOLEANS = {"true": 1.0, "false": 0.0}


def template_bindings(names: list[str], kinds: list[str], given: list[str], types_lookup) -> dict[str, object]:
    """Map template parameters to launch template arguments (integers and `true`/`false` become constants,
    types CTypes)."""
    bound: dict[str, object] = {}
    for name, kind, value in zip(names, kinds, given):
        if kind == "type":
            ctype = types_lookup(value)
            if isinstance(ctype, CType):
                bound[name] = ctype
        elif value.strip() in _BOOLEANS:
            bound[name] = Const(_BOOLEANS[value.strip()])
        else:
            try:
                bound[name] = Const(float(int(value.rstrip("uUlL"), 0)))
            except ValueError:
                pass
    return bound


def argument_range(launches: list[HostLaunch], position: int) -> Range | None:
    """The values every launch allows the argument at `position`: the hull of their ranges (a
    fixed value is a range of one), None when one launch leaves it open."""
    ranges = []
    for launch in launches:
        value = launch.args[position] if position < len(launch.args) else None
        given = launch.ranges[position] if position < len(launch.ranges) else None
        if value is None and given is None:
            return None
        ranges.append((value, value) if value is not None else given)
    return (min(lo for lo, _ in ranges), max(hi for _, hi in ranges)) if ranges else None
