"""Lowering: a kernel's syntax tree -> IR (``ir.py``) with symbolic byte offsets.

The lowering executes the kernel body symbolically, statement by statement, keeping an
environment of what every local variable holds: a scalar expression, a pointer (array +
byte offset + pointee type) or a memory location.  Reading a location records a load,
writing it a store; ``__device__`` helpers are inlined at their call sites, macros expanded,
and loop counters become symbols whose per-iteration values the analyses sample.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field, replace

from . import budget, parse
from .arith import PRECISION, WorkCounter, precision
from .ctype import BUILTIN_TYPES, FLOAT, INT, UNKNOWN, CType, array_of
from .ir import (
    CARRIED,
    Access,
    Barrier,
    Branch,
    Collective,
    Compute,
    Kernel,
    Loop,
    OpaqueMemory,
    Param,
    SharedArray,
    Stmt,
    walk,
)
from .macros import substitute
from .parse import Node, descendants, text
from .scope import FileScope, array_dims, function_declarator, function_name, kernel_name, template_params
from .source import Macro
from .symbolic import ONE, ZERO, Const, Expr, Load, Op, Opaque, Sym, free_symbols, has_opaque, lift, loads_in, op

_BUILTIN_VECTORS = {"threadIdx": "tid", "blockIdx": "bid", "blockDim": "bdim", "gridDim": "gdim"}
_ATOMICS = re.compile(r"^atomic(Add|Sub|Exch|Min|Max|Inc|Dec|CAS|And|Or|Xor)(_block|_system)?$")
_BLOCK_BARRIERS = {"__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or",
                   "__barrier_sync"}
_BLOCK_VOTES = {"__syncthreads_count", "__syncthreads_and", "__syncthreads_or"}  # same result in every thread
_WARP_VOTES = re.compile(r"^__(ballot|all|any|uni|match_all|reduce_\w+)_sync$")  # same result in every lane
_TEXTURE_FETCHES = ("tex1D", "tex2D", "tex3D", "texCubemap", "surf1D", "surf2D", "surf3D", "surfCubemap")
# cg::sync(g) (also `synchronize(g)`, the older spelling); cg::wait(g) syncs g after its memcpy_async
_GROUP_SYNCS = {"sync", "synchronize", "wait", "wait_prior"}
# inline PTX: block barriers (`bar.sync 1, 64` names a thread count), warp barriers, memory it touches
_PTX_BARRIER = re.compile(r"\b(?:bar|barrier)(?:\.cta)?\.(?:sync|red|arrive)(?:\.aligned)?\s+([^;\"]*)")
_UNSEEN_SYNC = re.compile(r"sync|barrier", re.IGNORECASE)
_PTX_WARP_BARRIER = re.compile(r"\bbar\.warp\.sync\b")
# one-instruction PTX whose output `%0` is a function of its input `%1` the evaluator computes:
# `bfind` (highest set bit) rounds sizes to powers of two (`1 << (bfind(len - 1) + 1)`)
_PTX_UNARY = {"bfind": re.compile(r"^\s*bfind\.u32\s+%0\s*,\s*%1\s*;?\s*$")}
_PTX_MEMORY = {"shared": re.compile(r"\b(?:cp\.async|ldmatrix|stmatrix|wgmma|mbarrier|[a-z]+\.shared)\b"),
               "global": re.compile(r"\b(?:cp\.async|[a-z]+\.global)\b")}
DOUBLE = BUILTIN_TYPES["double"]
_WARP_COLLECTIVES = re.compile(r"^__(shfl(_up|_down|_xor)?|ballot|all|any|uni|match_any|match_all|reduce_\w+)_sync$")
_FULL_MASKS = (0xFFFFFFFF, -1.0)
_MIN_MAX = {"min": "min", "max": "max", "umin": "min", "umax": "max", "llmin": "min", "llmax": "max",
            "ullmin": "min", "ullmax": "max", "fminf": "min", "fmaxf": "max", "fmin": "min", "fmax": "max"}
_INLINE_DEPTH = 8
# A recursive helper unrolls this many levels: its calls deeper down stay opaque.  Each level
# repeats the same source lines, and a helper calling itself twice (`Eval(l) + Eval(r)`) would
# otherwise unroll 2^8 - 1 copies of each of them.
_RECURSION_DEPTH = 4
_MAX_STATEMENTS = 20000


@dataclass(frozen=True)
class Scalar:
    expr: Expr
    type: CType = INT


@dataclass(frozen=True)
class Ptr:
    space: str
    array: str
    offset: Expr  # bytes
    pointee: CType


@dataclass(frozen=True)
class Loc:
    space: str
    array: str
    offset: Expr  # bytes
    type: CType


@dataclass(frozen=True)
class Group:
    """A cooperative-groups handle: a thread block (size None), a tile of `size` threads (an opaque
    size where the source does not fix it), or the whole grid."""

    size: Expr | None
    grid: bool = False


Val = Scalar | Ptr | Loc | Group


def _opaque(reason: str, ctype: CType = UNKNOWN) -> Scalar:
    return Scalar(Opaque(reason, not ctype.is_float), ctype)


class Env:
    """Lexical scopes of local variables; assignment updates the scope that declared the name."""

    def __init__(self, frames: list[dict[str, Val]] | None = None):
        self.frames = frames if frames is not None else [{}]

    def push(self) -> None:
        self.frames.append({})

    def pop(self) -> None:
        self.frames.pop()

    def lookup(self, name: str) -> Val | None:
        for frame in reversed(self.frames):
            if name in frame:
                return frame[name]
        return None

    def declare(self, name: str, value: Val) -> None:
        self.frames[-1][name] = value

    def assign(self, name: str, value: Val) -> bool:
        for frame in reversed(self.frames):
            if name in frame:
                frame[name] = value
                return True
        return False

    def copy(self) -> Env:
        return Env([dict(f) for f in self.frames])


@dataclass
class _Inline:
    function: str
    returns: list[Val] = field(default_factory=list)
    outer_tests: int = 0  # tests enclosing the call (Lowerer.tests below this index)
    tests: list[Expr] = field(default_factory=list)  # conditions enclosing its returns inside the helper


@dataclass
class _Copy:
    """A local struct copied from memory (`Particle pi = p[i];`): where from, the loads of the
    members the code reads (by piece offset), and the members it assigns (None: it may change
    any), so that storing it back (`p[i] = pi;`) writes only what changed."""

    source: Loc
    value: Val
    loads: dict[str, Load]
    modified: frozenset[str] | None


class LoweringError(Exception):
    pass


class UnhandledSyntax(LoweringError):
    """Strict mode only: a construct the lowering would otherwise skip or make opaque."""


# statements with nothing to lower (control transfer the IR models elsewhere, declarations of names only)
_JUMPS = ("break_statement", "continue_statement", "goto_statement")
_NOTHING_TO_LOWER = {"break_statement", "continue_statement", "comment", "type_definition", "alias_declaration",
                     "using_declaration", "static_assert_declaration", "namespace_alias_definition", "goto_statement",
                     "preproc_def", "preproc_function_def", "preproc_include", "preproc_undef", "template_declaration",
                     "struct_specifier", "class_specifier", "enum_specifier", "union_specifier", ";", "{", "}"}


class Lowerer:
    """Lowers one kernel instance (one set of template arguments)."""

    strict = False  # raise UnhandledSyntax instead of skipping what the lowering does not know
    # a local whose address a call receives may be rewritten by it (`swap(&now, &next)`); host-code
    # inference keeps the value set before (`MPI_Bcast(&n, ...)` after `n = 4096`) to find launches
    addresses_written = True

    def __init__(self, scope: FileScope, template_args: dict[str, Val | CType] | None = None,
                 expand_macros: bool = True):
        self.scope = scope
        self.template_args = dict(template_args or {})
        self.expand_macros = expand_macros
        self.next_id = 0
        self.stmts: list[Stmt] = []
        self.shared: list[SharedArray] = []
        self.uses: set[str] = set()
        self.notes: list[str] = []
        self.warnings: list[tuple[int, int, str]] = []  # (line, column, message): shown as diagnostics
        self.arrived: set[str] = set()  # objects (as spelled) a barrier arrive() was called on
        self.position: tuple[int, int] | None = None  # override inside macro expansions
        self.inline_stack: list[_Inline] = []
        self.pending_unroll: int | None = None
        self.cse: dict[tuple, Load] = {}  # loads available for reuse: (space, array, offset, size)
        self.writes = 0  # clobbers so far (see _clobber)
        self.work = WorkCounter()
        self.statements = 0
        self.macro_depth = 0
        self.volatile: set[str] = set()  # arrays reached through a `volatile` pointer
        self.spun_on: set[str] = set()  # volatile arrays a loop waits on (see _waited_on)
        self.copies: dict[str, _Copy] = {}  # local structs copied from memory, by name
        self.tests: list[Expr] = []  # conditions of the branches and loops enclosing the statement lowered

    # ---------------------------------------------------------------- helpers
    def _id(self) -> int:
        self.next_id += 1
        return self.next_id

    def _pos(self, node: Node) -> tuple[int, int]:
        return self.position or parse.position(node)

    def emit(self, stmt: Stmt) -> None:
        self.stmts.append(stmt)

    def type_of(self, spelling: str) -> CType | None:
        name = spelling.strip()
        tpl = self.template_args.get(name.replace("const", "").strip())
        if isinstance(tpl, CType):
            return tpl
        return self.scope.types.lookup(name)

    def const_int(self, node: Node | None, env: Env | None = None) -> int | None:
        if node is None:
            return None
        value = self.rvalue(node, env or Env(), record=False)
        if isinstance(value, Scalar) and isinstance(value.expr, Const) and math.isfinite(value.expr.value):
            return int(value.expr.value)
        return None

    # ---------------------------------------------------------------- kernel entry
    def lower_kernel(self, definition: Node) -> Kernel:
        name = kernel_name(definition, self.scope.source.macros)
        line, column = parse.position(definition)
        env = Env()
        _declare_unbound_constants(definition, env, self.template_args)
        params = self._params(definition, env)
        bounds = self._launch_bounds(definition)
        body = definition.child_by_field_name("body")
        if body is not None:
            self.block(body, env)
        template_params = list(self.template_args)
        return Kernel(name, line, column, params, template_params, self.shared, self.stmts, bounds,
                      frozenset(self.uses), self.notes, frozenset(self.spun_on))

    def _launch_bounds(self, definition: Node) -> tuple[int, ...]:
        for child in definition.children:
            if child.type == "launch_bounds":
                values = [self.const_int(arg) for arg in child.named_children]
                extra = [int(a) for off, n, args in self.scope.source.attributes
                         if n == "__launch_bounds__" and child.start_byte <= off <= child.end_byte
                         for a in args[2:3] if a.isdigit()]
                if not values or values[0] is None:
                    return ()  # an unresolved thread count: the minimum-blocks argument is no block size
                return tuple(v for v in values if v is not None) + tuple(extra)
        return ()

    def _params(self, definition: Node, env: Env) -> list[Param]:
        declarator = function_declarator(definition)
        params: list[Param] = []
        if declarator is None:
            return params
        plist = declarator.child_by_field_name("parameters")
        for p in plist.named_children if plist is not None else []:
            if p.type not in ("parameter_declaration", "optional_parameter_declaration"):
                continue
            ctype = self.type_of(text(p.child_by_field_name("type"))) or UNKNOWN
            decl = p.child_by_field_name("declarator")
            pointer = 0
            if decl is not None and decl.type == "array_declarator":  # float a[], int b[][4]
                name, dims = array_dims(decl)
                for dim in reversed(dims[1:]):
                    ctype = array_of(ctype, self.const_int(dim))
                decl, pointer = next((c for c in descendants(decl) if c.type == "identifier"), None), 1
            while decl is not None and decl.type in ("pointer_declarator", "reference_declarator"):
                if decl.type != "reference_declarator":
                    pointer += 1
                decl = decl.child_by_field_name("declarator") or next(
                    (c for c in decl.named_children if c.type == "identifier"), None)
            name = text(decl)
            if not name:
                continue
            line = parse.position(p)[0]
            if pointer:
                if any(c.type == "type_qualifier" and text(c) == "volatile" for c in p.children):
                    self.volatile.add(name)
                params.append(Param(name, ctype, True, line))
                env.declare(name, Ptr("global", name, ZERO, ctype))
            else:
                params.append(Param(name, ctype, False, line))
                env.declare(name, Scalar(Sym(f"arg:{name}", not ctype.is_float), ctype))
        return params

    # ---------------------------------------------------------------- statements
    def block(self, node: Node, env: Env) -> None:
        env.push()
        self.statements_of(list(node.named_children), env)
        env.pop()

    def statements_of(self, children: list[Node], env: Env) -> None:
        # `#ifdef __CUDACC__ ... if (c) continue; #endif` guards what follows the #endif too: an arm
        # known to be compiled joins the list
        children = _glue_pragma_loops([s for c in children for s in (
            _first_arm(c) if self._compiled_arm(c) else [c])])
        for index, child in enumerate(children):
            exiting = self._early_exit(child)
            if exiting is not None:
                self._guarded_rest(child, exiting, children[index + 1:], env)
                return
            self.statement(child, env)

    def _compiled_statements(self, node: Node) -> list[Node]:
        """The statements of the arm of a preprocessor conditional nvcc compiles: `#ifdef X` and
        `#ifndef X` decided by the macros known (the file's, its headers', its includer's, -D), `#if 0`
        and `#if 1` by their value; any other condition: the first arm, as nothing decides it."""
        if node.type == "preproc_else":
            return _first_arm(node)
        if node.type == "preproc_ifdef":
            taken = self._compiled_arm(node)
        else:  # `#if` / `#elif`
            condition = node.child_by_field_name("condition")
            taken = condition is None or text(condition).strip() != "0"
        if taken:
            return _first_arm(node)
        alternative = node.child_by_field_name("alternative")
        return self._compiled_statements(alternative) if alternative is not None else []

    def _compiled_arm(self, node: Node) -> bool:
        """`#ifdef X` with X defined (nvcc defines __CUDACC__), or `#ifndef X` with X undefined."""
        if node.type != "preproc_ifdef" or node.child_by_field_name("name") is None:
            return False
        name = text(node.child_by_field_name("name"))
        defined = name in _NVCC_DEFINES or name in self.scope.source.macros
        return defined != text(node.children[0]).startswith("#ifndef")

    @staticmethod
    def _ends_in_exit(node: Node | None) -> bool:
        if node is None:
            return False
        if node.type in ("return_statement", "continue_statement", "break_statement"):
            return True
        if node.type == "compound_statement":
            named = [c for c in node.named_children if c.type != "comment"]
            return bool(named) and Lowerer._ends_in_exit(named[-1])
        return False

    def _early_exit(self, node: Node) -> Node | None:
        """`if (c) return;` (or continue/break) with no else: the rest of the block runs where !c."""
        if node.type == "if_statement" and node.child_by_field_name("alternative") is None and \
                self._ends_in_exit(node.child_by_field_name("consequence")):
            return node
        return None

    def _guarded_rest(self, node: Node, if_node: Node, rest: list[Node], env: Env) -> None:
        line, column = self._pos(if_node)
        cond_node = if_node.child_by_field_name("condition")
        cond = self._condition(cond_node, env)
        if isinstance(cond, Const) and math.isfinite(cond.value):  # the exit always or never happens
            self.statements_of([if_node.child_by_field_name("consequence")] if cond.value else rest, env)
            return
        returns = not self.inline_stack and _exit_statement(if_node.child_by_field_name("consequence")) == \
            "return_statement"
        branch = Branch(self._id(), line, column, _condition_text(cond_node), cond, exits=True, returns=returns)
        self._sides(branch, lambda: self.statement(if_node.child_by_field_name("consequence"), env.copy()),
                    lambda: self.statements_of(rest, env))

    def _sides(self, branch: Branch, lower_then, lower_else) -> None:
        """Lower both sides into `branch`.  Loads before the branch dominate both sides (still
        available for reuse); loads inside a side are not available after it."""
        outer, available, writes = self.stmts, self.cse, self.writes
        self.tests.append(branch.condition)
        self.stmts, self.cse = branch.then, dict(available)
        lower_then()
        self.stmts, self.cse = branch.orelse, dict(available)
        lower_else()
        self.tests.pop()
        self.stmts, self.cse = outer, available if self.writes == writes else {}
        self.emit(branch)

    def _clobber(self) -> None:
        """A store, atomic, barrier or call: loaded values may be stale."""
        self.writes += 1
        self.cse = {}

    def statement(self, node: Node | None, env: Env) -> None:
        if node is None:
            return
        self.statements += 1
        budget.check()
        if self.statements > _MAX_STATEMENTS:
            raise LoweringError("kernel too large to lower (statement limit)")
        kind = node.type
        handler = _STATEMENTS.get(kind)
        if handler is not None:
            handler(self, node, env)
            if kind in _LEAF_STATEMENTS:
                self._flush_work(node)
        elif kind in _PREPROC_CONDITIONALS:
            self.statements_of(self._compiled_statements(node), env)
        elif kind == "labeled_statement":
            self.statements_of([c for c in node.named_children if c.type != "statement_identifier"], env)
        elif self.strict and kind not in _NOTHING_TO_LOWER and not node.is_error:  # syntax errors are diagnosed
            raise UnhandledSyntax(f"line {node.start_point[0] + 1}: unhandled statement `{kind}`")

    def _flush_work(self, node: Node) -> None:
        """Emit the floating-point work of the statement just lowered, in program order."""
        counts = self.work.take()
        if counts:
            self.emit(Compute(self._id(), *self._pos(node), counts))

    def _compound(self, node: Node, env: Env) -> None:
        self.block(node, env)

    def _expression_statement(self, node: Node, env: Env) -> None:
        for child in node.named_children:
            if self._unseen_sync(child, env):  # `SYNC;` from a header that includes this file
                self._barrier(child, "block", text(child), removable=False, counted=True)
            else:
                self.rvalue(child, env)

    def _unseen_sync(self, node: Node, env: Env) -> bool:
        """A statement naming something this file never defines that says it synchronises: it
        may be a barrier, so it orders what is around it (and is not judged for divergence)."""
        callee = node.child_by_field_name("function") if node.type == "call_expression" else node
        if callee is None or callee.type != "identifier":
            return False
        name = text(callee)
        arguments = node.child_by_field_name("arguments") if node.type == "call_expression" else None
        first = next((a for a in arguments.named_children if a.type != "comment"), None) if arguments else None
        if name in _GROUP_SYNCS and first is not None and isinstance(self.expr(first, env, record=False), Group):
            return False  # `sync(g)` under `using namespace cooperative_groups`: the group's own barrier
        return bool(_UNSEEN_SYNC.search(name)) and not name.startswith("__") and env.lookup(name) is None and \
            name not in self.scope.source.macros and name not in self.scope.device_functions

    def _declaration(self, node: Node, env: Env) -> None:
        quals = {text(c) for c in node.children if c.type in ("type_qualifier", "storage_class_specifier")}
        base = self.type_of(text(node.child_by_field_name("type"))) or UNKNOWN
        for declarator in node.children_by_field_name("declarator"):
            value_node = None
            target = declarator
            if declarator.type == "init_declarator":
                target = declarator.child_by_field_name("declarator")
                value_node = declarator.child_by_field_name("value")
            pointer = 0
            while target is not None and target.type in ("pointer_declarator", "reference_declarator"):
                pointer += target.type == "pointer_declarator"
                target = target.child_by_field_name("declarator")
            if target is None:
                continue
            if target.type == "array_declarator":
                self._array_declaration(target, base, quals, env)
                continue
            name = text(target)
            if "__shared__" in quals and not pointer:  # a shared scalar is memory, not a register
                self.shared.append(SharedArray(name, base, "extern" in quals, self._pos(target)[0]))
                env.declare(name, Loc("shared", name, ZERO, base))
                continue
            if value_node is None:
                env.declare(name, _opaque("uninitialised", base) if not pointer else
                            Ptr("global", "?", ZERO, base))
                continue
            if value_node.type in ("initializer_list", "argument_list"):
                items = value_node.named_children
                value = self.rvalue(items[0], env) if len(items) == 1 else _opaque("aggregate", base)
            elif not pointer:
                value = self._copied(name, self.expr(value_node, env), value_node)
            else:
                value = self.rvalue(value_node, env)
            if isinstance(value, Group):
                pass
            elif pointer and isinstance(value, Ptr) and value.pointee.size != base.size and base is not UNKNOWN:
                value = replace(value, pointee=base)
            elif not pointer and isinstance(value, Scalar) and not base.is_float and base is not UNKNOWN \
                    and not value.expr.is_int and base.size <= 8 and not base.fields:
                value = Scalar(op("int", value.expr), base)
            elif isinstance(value, Scalar) and base is not UNKNOWN:
                value = Scalar(value.expr, base)
            if pointer and isinstance(value, Scalar) and value_node.type == "call_expression":
                value = self._pointer_from_call(value_node, name, base, value)
            if pointer and "volatile" in quals and isinstance(value, Ptr):
                self.volatile.add(value.array)
            env.declare(name, value)
            if name in self.copies:
                self.copies[name].value = value

    def _copied(self, name: str, place: Val, node: Node) -> Val:
        """The value of a local initialised from `place`.  A struct copied from memory loads only
        the members the code after it reads (the compiler drops the rest) and is remembered as a
        copy (see _Copy)."""
        self.copies.pop(name, None)
        if not isinstance(place, Loc) or place.type.is_array or not place.type.fields or len(_pieces(place)) < 2:
            return self._loaded(place, node, True)
        read, modified = _member_uses(name, node)
        loads: dict[str, Load] = {}
        for member, piece in _member_pieces(place):
            if read is None or member in read:
                access = self._access(piece, "load", node)
                loads[str(piece.offset)] = Load(access.id, text(node)[:60], not piece.type.is_float)
        first = next(iter(loads.values()), None)
        value = Scalar(first if first is not None else Opaque("struct copy"), place.type)
        self.copies[name] = _Copy(place, value, loads, modified)
        return value

    def _pointer_from_call(self, call: Node, name: str, base: CType, value: Scalar) -> Val:
        """`T* s = SharedMemory<T>();`: a helper struct whose conversion operator returns its
        `extern __shared__` array (the cuda-samples idiom) is that dynamic shared array.  Any other
        call the lowering cannot follow leaves the pointer unknown, and says so."""
        callee = call.child_by_field_name("function")
        if callee is not None and callee.type == "template_function":
            callee = callee.child_by_field_name("name")
        helper = text(callee).rsplit("::", 1)[-1] if callee is not None else ""
        array = _shared_helpers(self.scope.source.data).get(helper)
        if array is not None:
            if all(s.name != array for s in self.shared):
                self.shared.append(SharedArray(array, array_of(base, None), True, self._pos(call)[0]))
            return Ptr("shared", array, ZERO, base)
        line, column = self._pos(call)
        self.warnings.append((line, column, f"pointer {name} comes from {text(call)[:60]}, which is not followed: "
                                            "accesses through it are not analysed"))
        return value

    def _array_declaration(self, declarator: Node, base: CType, quals: set[str], env: Env) -> None:
        name, dims = array_dims(declarator)
        ctype = base
        sizes = [self.const_int(d, env) if d is not None else None for d in dims]
        for size in reversed(sizes):
            ctype = array_of(ctype, size)
        if "__shared__" in quals:
            dynamic = "extern" in quals or any(s is None for s in sizes)
            self.shared.append(SharedArray(name, ctype, dynamic, self._pos(declarator)[0]))
            env.declare(name, Loc("shared", name, ZERO, ctype))
        else:
            env.declare(name, Loc("local", name, ZERO, ctype))

    def _if(self, node: Node, env: Env) -> None:
        line, column = self._pos(node)
        cond_node = node.child_by_field_name("condition")
        cond = self._condition(cond_node, env)
        position = self._bracket(cond_node, cond, env)
        if position is not None:
            cond = op("&&", cond, position)
        alternative = node.child_by_field_name("alternative")
        branch = Branch(self._id(), line, column, _condition_text(cond_node), cond)
        then_env, else_env = env.copy(), env.copy()
        self._sides(branch, lambda: self.statement(node.child_by_field_name("consequence"), then_env),
                    lambda: [self.statement(c, else_env) for c in (alternative.named_children if alternative else [])])
        self._merge(env, cond, then_env, else_env)

    def _bracket(self, node: Node | None, cond: Expr, env: Env) -> Expr | None:
        """`a[i] <= k && a[i + 1] > k` (a bucket search: CSR rows, histogram bins, tree keys) says
        `i == rank(k)`, the one bucket of sorted `a` holding k, as long as one side is strict; the
        idiom only makes sense on sorted data.  Returned as that equality, for the one-thread guards."""
        node = _unparenthesized(node)
        if node is None or node.type != "binary_expression" or text(node.child_by_field_name("operator")) != "&&" or \
                not (isinstance(cond, Op) and cond.name == "&&" and isinstance(cond.args[0], Op) and
                     len(cond.args[0].args) == 2):
            return None
        for first in _bounds(node.child_by_field_name("left")):
            for second in _bounds(node.child_by_field_name("right")):
                # the key as the condition read it (lowering it again would read its memory again)
                key = cond.args[0].args[0 if first[-1] else 1]
                position = self._position(first, second, key, env)
                if position is not None:
                    return position
        return None

    def _position(self, first: tuple, second: tuple, key: Expr, env: Env) -> Expr | None:
        (base, low, key_node, above, strict, _), (other_base, high, other_key, other_above, other_strict, _) = \
            first, second
        if base != other_base or text(key_node) != text(other_key) or above == other_above or \
                not (strict or other_strict):
            return None
        if above:
            low, high = high, low
        lowered_low, lowered_high = (self.rvalue(n, env, record=False) for n in (low, high))
        if not all(isinstance(v, Scalar) for v in (lowered_low, lowered_high)):
            return None
        low_expr, high_expr = lowered_low.expr, lowered_high.expr
        if str(op("+", low_expr, ONE)) != str(high_expr) and str(low_expr) != str(op("-", high_expr, ONE)):
            return None  # not i and i + 1 (nor i - 1 and i)
        return op("==", low_expr, op("rank", key))

    def _merge(self, env: Env, cond: Expr, a: Env, b: Env) -> None:
        for depth, frame in enumerate(env.frames):
            for name, old in frame.items():
                va, vb = a.frames[depth].get(name, old), b.frames[depth].get(name, old)
                if va == vb:
                    frame[name] = va
                elif isinstance(va, Scalar) and isinstance(vb, Scalar):
                    frame[name] = Scalar(op("?:", cond, va.expr, vb.expr), va.type)
                elif isinstance(va, Ptr) and isinstance(vb, Ptr) and va.array == vb.array:
                    frame[name] = replace(va, offset=op("?:", cond, va.offset, vb.offset))
                else:
                    frame[name] = _opaque("differs between branches")

    def _condition(self, node: Node | None, env: Env) -> Expr:
        if node is None:
            return Opaque("no condition")
        inner = node.named_children[-1] if node.type == "condition_clause" and node.named_children else node
        value = self.rvalue(inner, env)
        self._flush_work(node)
        return value.expr if isinstance(value, Scalar) else ONE

    def _pragma(self, node: Node, env: Env) -> None:
        content = text(node)
        m = re.search(r"#\s*pragma\s+unroll\s*(\(?\s*(\d+)\s*\)?)?", content)
        if m:
            self.pending_unroll = int(m.group(2)) if m.group(2) else 0

    def _return(self, node: Node, env: Env) -> None:
        if self.inline_stack and node.named_children:
            ctx = self.inline_stack[-1]
            ctx.returns.append(self.rvalue(node.named_children[0], env))
            ctx.tests.extend(self.tests[ctx.outer_tests:])

    @staticmethod
    def _assigned_names(node: Node) -> set[str]:
        names: set[str] = set()
        for n in descendants(node):
            target = n.child_by_field_name("left") if n.type == "assignment_expression" else \
                n.child_by_field_name("argument") if n.type == "update_expression" else None
            if target is not None and target.type == "identifier":
                names.add(text(target))
        return names

    def _induction_steps(self, body: Node | None, names: set[str], env: Env,
                         update: Node | None = None) -> dict[str, Expr]:
        """Variables updated exactly once per iteration, at the body's top level or in the `for`
        header's update (`a += aStep, b += bStep`), by `v += e`, `v -= e` or `v++` with an e that no
        statement of the loop changes."""
        if body is None:
            return {}
        steps: dict[str, Expr] = {}
        statements = body.named_children if body.type == "compound_statement" else [body]
        exprs = [stmt.named_children[0] for stmt in statements
                 if stmt.type == "expression_statement" and stmt.named_children] + _comma_parts(update)
        for expr in exprs:
            if expr.type == "update_expression":
                steps[text(expr.child_by_field_name("argument"))] = ONE if "++" in text(expr) else lift(-1)
            elif expr.type == "assignment_expression" and text(expr.child_by_field_name("operator")) in ("+=", "-="):
                left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
                if left is None or left.type != "identifier" or _mentions(right, names):
                    continue
                value = self.rvalue(right, env, record=False)
                if isinstance(value, Scalar):
                    negate = text(expr.child_by_field_name("operator")) == "-="
                    steps[text(left)] = op("-", ZERO, value.expr) if negate else value.expr
        return {n: step for n, step in steps.items()
                if _assignment_count(body, n) + (_assignment_count(update, n) if update is not None else 0) == 1}

    def _loop(self, node: Node, env: Env) -> None:
        line, column = self._pos(node)
        unroll, self.pending_unroll = self.pending_unroll, None
        env.push()
        body = node.child_by_field_name("body")
        kind = node.type
        counter_name: str | None = None
        if kind == "for_statement":
            init = node.child_by_field_name("initializer")
            if init is not None:
                if init.type == "declaration":
                    self._declaration(init, env)
                    decls = init.children_by_field_name("declarator")
                    if decls:
                        target = decls[0].child_by_field_name("declarator") if decls[0].type == "init_declarator" \
                            else decls[0]
                        counter_name = text(target)
                else:
                    self.rvalue(init, env)
                    first = init.named_children[0] if init.type == "comma_expression" else init
                    if first.type == "assignment_expression":
                        counter_name = text(first.child_by_field_name("left"))
            update_node = node.child_by_field_name("update")
            names = self._assigned_names(update_node) if update_node is not None else set()
            if counter_name not in names and names:  # `for (idx = tid, i = 0; ...; ++i)`: the header steps i
                counter_name = next(iter(sorted(names)))
        else:
            update_node = None
        cond_node = node.child_by_field_name("condition")
        if cond_node is not None and self.volatile:
            self.spun_on |= self._waited_on(cond_node, body, env)
        assigned = self._assigned_names(body) if body is not None else set()
        if update_node is not None:
            assigned |= self._assigned_names(update_node)
        steps = self._induction_steps(body, assigned, env, update_node)
        if kind != "for_statement" and cond_node is not None:
            # while/do: the counter is a condition variable advanced once per iteration by `v += e`
            cond_names = _identifiers(cond_node)
            counter_name = next((n for n in steps if n in cond_names), None)
        loop_id = self._id()
        counter_sym = Sym(f"loop{loop_id}:{counter_name or 'it'}")
        followed = not _jumps(body) and not _jumps(update_node)  # no break or continue: every iteration ends below
        carried: dict[str, Sym] = {}
        iteration_sym = Sym(f"iter{loop_id}")
        counter_val = env.lookup(counter_name) if counter_name else None
        init_expr: Expr = ZERO
        if isinstance(counter_val, Scalar):
            init_expr = counter_val.expr
        elif isinstance(counter_val, Ptr):
            init_expr = counter_val.offset
        # the body sees the counter symbol, affine induction variables, and opaque other updates
        for name in _addressed_names(body) if self.addresses_written else ():
            if isinstance(env.lookup(name), Scalar | Ptr):  # a pointer a callee may swap is lost in the loop
                env.assign(name, _opaque(f"{name} passed by address"))
        before = {name: env.lookup(name) for name in assigned}
        for name in assigned:
            current = env.lookup(name)
            if name == counter_name:
                continue
            if name in steps and isinstance(current, Scalar):
                env.assign(name, Scalar(op("+", current.expr, op("*", iteration_sym, steps[name])), current.type))
            elif isinstance(current, Ptr) and name in steps:
                env.assign(name, replace(current, offset=op("+", current.offset, op(
                    "*", iteration_sym, op("*", steps[name], lift(current.pointee.size))))))
            elif isinstance(current, Scalar) and followed:
                carried[name] = Sym(f"{CARRIED}{loop_id}:{name}")
                env.assign(name, Scalar(Opaque(f"{name} changes in the loop", not current.type.is_float,
                                               follows=(carried[name],)), current.type))
            elif current is not None:
                env.assign(name, _opaque(f"{name} changes in the loop", current.type if isinstance(current, Scalar)
                                         else UNKNOWN) if isinstance(current, Scalar) else current)
        if isinstance(counter_val, Scalar):
            env.assign(counter_name, Scalar(counter_sym, counter_val.type))
        elif isinstance(counter_val, Ptr):
            env.assign(counter_name, replace(counter_val, offset=counter_sym))
        starts = {name: env.lookup(name) for name in assigned}  # each name's value as an iteration begins
        saved, self.stmts = self.stmts, ([] if kind == "do_statement" else self.stmts)
        condition = self._condition(cond_node, env) if cond_node is not None else ONE
        tested, self.stmts = self.stmts, saved  # a do-while tests after the body: its reads end the body
        update = counter_sym
        if kind == "for_statement" and update_node is not None and counter_name:
            scratch = env.copy()
            saved, self.stmts = self.stmts, []
            self.rvalue(update_node, scratch, record=False)
            self.stmts = saved
            after = scratch.lookup(counter_name)
            update = after.expr if isinstance(after, Scalar) else after.offset if isinstance(after, Ptr) \
                else Opaque("update")
        elif counter_name in steps:
            update = op("+", counter_sym, steps[counter_name])
        step = _affine_step(update, counter_sym.name)
        loop = Loop(loop_id, line, column, _header(node), counter_sym.name, iteration_sym.name, init_expr,
                    update, condition, step, kind == "do_statement", unroll)
        outer, self.stmts, self.cse = self.stmts, loop.body, {}
        self.tests.append(condition)
        if body is not None:
            self.statement(body, env)
        self.tests.pop()
        if carried:
            self._carry(loop, carried, before, env, update_node)
        if update_node is not None and any(n.type == "call_expression" for n in descendants(update_node)):
            self.rvalue(update_node, env.copy())  # `nt /= 2, __syncthreads()`: runs after every iteration's body
        if kind == "do_statement":
            loop.body.extend(tested)
        self.stmts, self.cse = outer, {}
        env.pop()
        for name in assigned:
            current, start = env.lookup(name), starts.get(name)
            if isinstance(current, Scalar) and followed and isinstance(start, Scalar):
                env.assign(name, Scalar(Opaque(f"{name} after a loop", not current.type.is_float,
                                               follows=(start.expr, condition)), current.type))
            elif isinstance(current, Scalar):
                env.assign(name, _opaque(f"{name} after a loop", current.type))
        for access in _hoistable(loop):
            loop.body.remove(access)
            self.emit(access)
        self.emit(loop)

    def _carry(self, loop: Loop, carried: dict[str, Sym], before: dict[str, Val], env: Env,
               update_node: Node | None) -> None:
        """Record what each carried value follows: its value before the loop, its value once an
        iteration's body and update have run, and the loop's condition."""
        after = env.copy()
        if update_node is not None:  # lowered again for its values only: its statements and work were counted
            (saved, self.stmts), (work, self.work) = (self.stmts, []), (self.work, WorkCounter())
            self.rvalue(update_node, after, record=False)
            self.stmts, self.work = saved, work
        for name, symbol in carried.items():
            first, then = before[name], after.lookup(name)
            loop.carried[symbol.name] = (first.expr, then.expr, loop.condition) if isinstance(then, Scalar) \
                else (Opaque(f"{name} changes in the loop"),)

    def _waited_on(self, condition: Node, body: Node | None, env: Env) -> set[str]:
        """The volatile arrays a loop spins on: its exit test reads one, directly or through a
        variable its body loads from one (`do st = flag[b]; while (st < 0);`).  Such a loop is a
        hand-off protocol between threads that the race analysis does not model."""
        def volatile_reads(node: Node | None) -> set[str]:
            return {v.array for n in _identifiers(node) if isinstance(v := env.lookup(n), Ptr)
                    and v.array in self.volatile} if node is not None else set()

        found, tested = volatile_reads(condition), _identifiers(condition)
        for n in descendants(body) if body is not None else ():
            if n.type == "assignment_expression" and text(n.child_by_field_name("left")) in tested:
                found |= volatile_reads(n.child_by_field_name("right"))
            elif n.type == "init_declarator" and text(n.child_by_field_name("declarator")) in tested:
                found |= volatile_reads(n.child_by_field_name("value"))
        return found

    def _switch(self, node: Node, env: Env) -> None:
        value = self.rvalue(node.child_by_field_name("condition"), env)
        body = node.child_by_field_name("body")
        for case in body.named_children if body is not None else []:
            if case.type != "case_statement":
                continue
            label = case.child_by_field_name("value")
            cond = op("==", value.expr, self.rvalue(label, env, record=False).expr) \
                if label is not None and isinstance(value, Scalar) else Opaque("default")
            branch = Branch(self._id(), *self._pos(case), f"case {text(label)}", cond, kind="case")
            body = [c for c in case.named_children if c != label]
            self._sides(branch, lambda body=body: self.statements_of(body, env.copy()), lambda: None)

    def _nested_definition(self, node: Node, env: Env) -> None:
        """A statement macro such as ``CUDA_KERNEL_LOOP(i, n) { ... }`` parses as a nested function."""
        name = function_name(node)
        macro = self._macro(name, node, always=True)
        body = node.child_by_field_name("body")
        if macro is None or macro.params is None or body is None or self.macro_depth > 4:
            if body is not None:
                self.block(body, env)
            return
        declarator = node.child_by_field_name("declarator")
        args = [text(p) for p in declarator.child_by_field_name("parameters").named_children]
        expansion = substitute(macro, args)
        snippet = parse.parse(f"void __cudaperf_macro() {{ {expansion} {{}} }}".encode())
        fn = snippet.root_node.named_children[0] if snippet.root_node.named_children else None
        stmts = fn.child_by_field_name("body").named_children if fn is not None and \
            fn.child_by_field_name("body") is not None else []
        if len(stmts) != 1 or stmts[0].type not in ("for_statement", "while_statement"):
            self.block(body, env)
            return
        self._with_position(node, lambda: self._loop_with_body(stmts[0], body, env))

    def _loop_with_body(self, loop_node: Node, body: Node, env: Env) -> None:
        self._loop(_BodySwap(loop_node, body), env)

    def _with_position(self, node: Node, fn):
        saved = self.position
        self.position = self.position or parse.position(node)
        self.macro_depth += 1
        try:
            return fn()
        finally:
            self.position = saved
            self.macro_depth -= 1

    # ---------------------------------------------------------------- expressions
    def rvalue(self, node: Node | None, env: Env, record: bool = True) -> Val:
        return self._loaded(self.expr(node, env, record), node, record)

    def _loaded(self, value: Val, node: Node | None, record: bool) -> Val:
        """What reading `value` gives: a location is loaded (an array decays to a pointer)."""
        if isinstance(value, Loc):
            if value.type.is_array:
                return Ptr(value.space, value.array, value.offset, value.type.element)
            return self._read(value, node, record)
        return value

    def _read(self, loc: Loc, node: Node | None, record: bool) -> Scalar:
        if not record or node is None:
            return Scalar(Opaque("memory"), loc.type)
        key = (loc.space, loc.array, loc.offset, loc.type.size)
        cached = self.cse.get(key)
        if cached is not None:
            return Scalar(cached, loc.type)
        first = None
        for piece in _pieces(loc):
            access = self._access(piece, "load", node)
            first = first or access
        load = Load(first.id if first else 0, text(node)[:60], not loc.type.is_float)
        self.cse[key] = load
        return Scalar(load, loc.type)

    def _access(self, loc: Loc, kind: str, node: Node, value: Expr | None = None) -> Access:
        line, column = self._pos(node)
        access = Access(self._id(), line, column, loc.space, kind, loc.array, loc.offset, loc.type.size,
                        loc.type.name, text(node)[:80], value)
        self.emit(access)
        return access

    def _write(self, loc: Loc, node: Node, kind: str = "store", value: Expr | None = None) -> None:
        pieces = _pieces(loc)
        for piece in pieces:
            self._access(piece, kind, node, value if len(pieces) == 1 else None)
        self._clobber()

    def expr(self, node: Node | None, env: Env, record: bool = True) -> Val:
        if node is None:
            return _opaque("missing")
        handler = _EXPRESSIONS.get(node.type)
        if handler is None:
            if node.type in ("ERROR",) or node.has_error:
                return _opaque("syntax error")
            if self.strict:
                raise UnhandledSyntax(f"line {node.start_point[0] + 1}: unhandled expression `{node.type}`")
            for child in node.named_children:  # still record accesses inside unknown constructs
                self.rvalue(child, env, record)
            return _opaque(node.type)
        return handler(self, node, env, record)

    def _number(self, node: Node, env: Env, record: bool) -> Val:
        raw = text(node).replace("'", "")
        digits = raw.rstrip("uUlLfF") if not raw.lower().startswith("0x") else raw.rstrip("uUlL")
        try:
            if raw.lower().startswith(("0x", "0b")) or (digits.isdigit() and not raw.lower().endswith("f")):
                return Scalar(Const(float(int(digits, 0) if not digits.startswith("0") or digits == "0"
                                          or digits.lower().startswith(("0x", "0b")) else int(digits, 8))))
            return Scalar(Const(float(digits), False), FLOAT if raw[-1:] in "fF" else DOUBLE)
        except ValueError:
            return _opaque("literal")

    def _identifier(self, node: Node, env: Env, record: bool) -> Val:
        name = text(node).rsplit("::", 1)[-1]
        return self.name(name, env, node)

    def name(self, name: str, env: Env, node: Node | None = None) -> Val:
        local = env.lookup(name)
        if local is not None:
            return local
        if name in self.template_args:
            tpl = self.template_args[name]
            return tpl if not isinstance(tpl, CType) else _opaque(name)
        if name == "warpSize":
            return Scalar(Const(32.0))
        if name in ("true", "false"):
            return Scalar(Const(1.0 if name == "true" else 0.0))
        array = self.scope.arrays.get(name)
        if array is not None:
            return Loc(array.space, name, ZERO, array.type)
        constant = self.scope.constants.get(name)
        if constant is not None and self.macro_depth < 8:
            self.macro_depth += 1
            try:
                return self.rvalue(constant, Env(), record=False)
            finally:
                self.macro_depth -= 1
        macro = self._macro(name, node)
        if macro is not None and macro.params is None and self.macro_depth < 8:
            return self._expand_expression(macro, [], env, node)
        return Scalar(Opaque(name, unseen=True))

    def _macro(self, name: str, node: Node | None, always: bool = False) -> Macro | None:
        """The definition of `name` in force where it is used: at the outermost use inside expansions
        (a file may redefine a macro between kernels)."""
        if not (self.expand_macros or always):
            return None
        line = (self.position or (parse.position(node) if node is not None else (0, 0)))[0]
        return self.scope.source.macro(name, line)

    def _expand_expression(self, macro: Macro, args: list[str], env: Env, node: Node | None) -> Val:
        expansion = substitute(macro, args).strip()
        if not expansion:
            return _opaque("empty macro")
        tree = _snippet(expansion)
        if tree is None:
            return _opaque(f"macro {macro.name}")
        saved = self.position
        if node is not None:
            self.position = self.position or parse.position(node)
        self.macro_depth += 1
        try:
            return self.expr(tree, env)
        finally:
            self.macro_depth -= 1
            self.position = saved

    def _field(self, node: Node, env: Env, record: bool) -> Val:
        base_node = node.child_by_field_name("argument")
        field_name = text(node.child_by_field_name("field"))
        operator = text(node.child_by_field_name("operator"))
        if base_node is not None and base_node.type == "identifier" and operator == ".":
            builtin = _BUILTIN_VECTORS.get(text(base_node))
            if builtin is not None and env.lookup(text(base_node)) is None and field_name in ("x", "y", "z"):
                symbol = f"{builtin}.{field_name}"
                self.uses.add(symbol)
                return Scalar(Sym(symbol))
        if base_node is not None and base_node.type == "identifier":
            member = env.lookup(f"{text(base_node)}.{field_name}")  # components of host dim3 values
            if member is not None:
                return member
        base = self.expr(base_node, env, record)
        if operator == "->":
            base = self._deref(base)
        if isinstance(base, Loc):
            found = base.type.field(field_name)
            if found is None:
                return _opaque(f"field {field_name}")
            offset, ftype = found
            if ftype.pointee is not None and base.space == "global" and base_node.type == "identifier" and \
                    isinstance(base.offset, Const):
                # `s->data` of a struct argument passed by pointer: one pointer per launch, its own array
                return Ptr("global", f"{text(base_node)}->{field_name}", ZERO, ftype.pointee)
            return Loc(base.space, base.array, op("+", base.offset, lift(offset)), ftype)
        if isinstance(base, Scalar) and isinstance(base.expr, Sym) and base.expr.name.startswith("arg:"):
            found = base.type.field(field_name) if base.type.fields else None
            ftype = found[1] if found else UNKNOWN  # `p.n` of a struct passed by value: one value per launch
            if ftype.pointee is not None:  # `p.result`: a pointer the launch passes, its own array
                return Ptr("global", f"{base.expr.name[4:]}.{field_name}", ZERO, ftype.pointee)
            return Scalar(Opaque(f"member {field_name}", not ftype.is_float, uniform=True), ftype)
        if isinstance(base, Scalar) and base.type.fields:
            found = base.type.field(field_name)
            ftype = found[1] if found else UNKNOWN
            return Scalar(base.expr if isinstance(base.expr, (Load, Opaque)) else Opaque("member"), ftype)
        return _opaque(f"member {field_name}")

    @staticmethod
    def _deref(value: Val) -> Val:
        if isinstance(value, Ptr):
            return Loc(value.space, value.array, value.offset, value.pointee)
        if isinstance(value, Loc) and value.type.is_array:
            return Loc(value.space, value.array, value.offset, value.type.element)
        return _opaque("dereference")

    def _subscript(self, node: Node, env: Env, record: bool) -> Val:
        base = self.expr(node.child_by_field_name("argument"), env, record)
        indices = node.child_by_field_name("indices")
        index_nodes = indices.named_children if indices is not None else []
        index = self.rvalue(index_nodes[0], env, record) if index_nodes else _opaque("index")
        idx = index.expr if isinstance(index, Scalar) else Opaque("pointer index")
        if isinstance(base, Loc) and base.type.is_array:
            base = Ptr(base.space, base.array, base.offset, base.type.element)
        if isinstance(base, Ptr):
            pointee = base.pointee
            # a row of unknown length (`T s[N][M]` with M unresolved) has an unknown stride, not 0
            size = Opaque("extent") if pointee.is_array and pointee.length is None else lift(pointee.size)
            return Loc(base.space, base.array, op("+", base.offset, op("*", op("int", idx) if not idx.is_int else idx,
                                                                            size)), base.pointee)
        if record:  # memory behind a pointer the lowering lost (`smem.getPointer()`, a cast it cannot follow)
            self._opaque_memory(node, ["unknown"], "subscript")
        return _opaque("subscript")

    def _pointer(self, node: Node, env: Env, record: bool) -> Val:
        operator = text(node.child_by_field_name("operator"))
        arg = node.child_by_field_name("argument")
        if operator == "&":
            target = self.expr(arg, env, record)
            if isinstance(target, Loc):
                return Ptr(target.space, target.array, target.offset, target.type)
            if arg.type == "identifier" and isinstance(target, Scalar):  # `f(&x)` may write x: its value is lost
                env.assign(text(arg), _opaque(f"{text(arg)} behind a pointer", target.type))
            return _opaque("address")
        target = self._deref(self.rvalue(arg, env, record))
        if record and not isinstance(target, Loc):
            self._opaque_memory(node, ["unknown"], "dereference")
        return target

    def _binary(self, node: Node, env: Env, record: bool) -> Val:
        operator = text(node.child_by_field_name("operator"))
        left = self.rvalue(node.child_by_field_name("left"), env, record)
        right = self.rvalue(node.child_by_field_name("right"), env, record)
        if isinstance(left, Ptr) and isinstance(right, Scalar) and operator in ("+", "-"):
            return _advance(left, right.expr, operator)
        if isinstance(right, Ptr) and isinstance(left, Scalar) and operator == "+":
            return _advance(right, left.expr, "+")
        if isinstance(left, Ptr) and isinstance(right, Ptr):
            if operator == "-" and left.array == right.array:
                return Scalar(op("/", op("-", left.offset, right.offset), lift(left.pointee.size)))
            return Scalar(Opaque("pointer comparison"))
        if not isinstance(left, Scalar) or not isinstance(right, Scalar):
            return _opaque("operand")
        return self._arithmetic(operator, left, right)

    def _arithmetic(self, operator: str, left: Scalar, right: Scalar) -> Scalar:
        is_float = left.type.is_float or right.type.is_float or not (left.expr.is_int and right.expr.is_int)
        ctype = (left.type if left.type.is_float else right.type) if is_float else \
            (left.type if left.type.size >= right.type.size else right.type)
        expr = op(operator, left.expr, right.expr, is_int=None if operator not in "+-*/%" else not is_float)
        if is_float and operator in "+-*/":
            prec = precision(left.type, right.type)
            if prec is not None:
                ctype = next(t for t in (left.type, right.type) if PRECISION.get(t.name) == prec)
            self.work.binary(operator, prec, left.expr, right.expr, expr, id(self.stmts))
        return Scalar(expr, INT if operator in ("<", "<=", ">", ">=", "==", "!=", "&&", "||") else ctype)

    def _unary(self, node: Node, env: Env, record: bool) -> Val:
        operator = text(node.child_by_field_name("operator"))
        value = self.rvalue(node.child_by_field_name("argument"), env, record)
        if not isinstance(value, Scalar):
            return _opaque("unary")
        if operator == "+":
            return value
        return Scalar(op(operator, value.expr), value.type if operator != "!" else INT)

    def _paren(self, node: Node, env: Env, record: bool) -> Val:
        children = node.named_children
        return self.expr(children[-1], env, record) if children else _opaque("empty")

    def _conditional(self, node: Node, env: Env, record: bool) -> Val:
        """`c ? a : b`.  Memory reads inside a side happen only for the lanes selecting it, so a
        side that reads memory becomes a (predicated) branch of kind `select`."""
        cond_node = node.child_by_field_name("condition")
        cond = self.rvalue(cond_node, env, record)
        c = cond.expr if isinstance(cond, Scalar) else Opaque("condition")
        sides: dict[str, Val] = {}
        branch = Branch(self._id(), *self._pos(node), _condition_text(cond_node), c, kind="select")

        def side(key: str) -> None:
            sides[key] = self.rvalue(node.child_by_field_name(key), env, record)

        self._sides(branch, lambda: side("consequence"), lambda: side("alternative"))
        if not branch.then and not branch.orelse:
            self.stmts.pop()  # a plain select: no memory access depends on it
        a, b = sides["consequence"], sides["alternative"]
        if isinstance(a, Scalar) and isinstance(b, Scalar):
            return Scalar(op("?:", c, a.expr, b.expr), a.type)
        if isinstance(a, Ptr) and isinstance(b, Ptr) and a.array == b.array:
            return replace(a, offset=op("?:", c, a.offset, b.offset))
        return a if isinstance(a, Ptr) else _opaque("conditional")

    def _comma(self, node: Node, env: Env, record: bool) -> Val:
        value: Val = _opaque("comma")
        for child in node.named_children:
            value = self.rvalue(child, env, record)
        return value

    def _cast(self, node: Node, env: Env, record: bool) -> Val:
        type_node = node.child_by_field_name("type")
        value = self.rvalue(node.child_by_field_name("value"), env, record)
        return self._convert(text(type_node), value)

    def _convert(self, spelling: str, value: Val) -> Val:
        is_pointer = "*" in spelling
        ctype = self.type_of(spelling.replace("*", " ").replace("&", " ")) or UNKNOWN
        if is_pointer:
            if isinstance(value, Ptr):
                return replace(value, pointee=ctype) if ctype is not UNKNOWN else value
            return _opaque("cast")
        if isinstance(value, Scalar):
            if ctype.is_float:
                return Scalar(op("float", value.expr), ctype)
            if ctype is not UNKNOWN and not ctype.fields:
                return Scalar(op("int", value.expr) if not value.expr.is_int else value.expr, ctype)
        return value

    def _sizeof(self, node: Node, env: Env, record: bool) -> Val:
        target = node.child_by_field_name("type")
        if target is not None:
            spelling = text(target)
            ctype = self.type_of(spelling)
            size = 8 if "*" in spelling else ctype.size if ctype else None
        else:
            value_node = node.child_by_field_name("value")
            named = text(value_node).strip("() ")
            ctype = self.type_of(named) if env.lookup(named) is None else None  # `sizeof(fr_t)`, a typedef
            value = self.expr(value_node, env, record=False) if ctype is None else Scalar(ZERO, ctype)
            size = value.type.size if isinstance(value, (Loc, Scalar)) else 8
        return Scalar(Const(float(size))) if size else _opaque("sizeof")

    def _assignment(self, node: Node, env: Env, record: bool) -> Val:
        operator = text(node.child_by_field_name("operator"))
        left_node = node.child_by_field_name("left")
        right = self.rvalue(node.child_by_field_name("right"), env, record)
        if left_node is not None and left_node.type == "identifier" and operator == "=" and \
                env.lookup(text(left_node)) is None and text(left_node) not in self.scope.arrays:
            # `ns::tile_t<16> t = ...` parses as `(ns::tile_t < 16) > (t = ...)`: a declaration
            env.declare(text(left_node), right)
            return right
        if left_node is not None and left_node.type == "identifier" and \
                isinstance(env.lookup(text(left_node)), (Scalar, Ptr, Group)):
            name = text(left_node)
            if operator != "=":
                current = env.lookup(name)
                right = self._combine(current, operator[:-1], right)
            old = env.lookup(name)
            if isinstance(old, Scalar) and isinstance(right, Scalar):
                right = Scalar(right.expr, old.type)
            env.assign(name, right)
            return right
        target = self.expr(left_node, env, record)
        if isinstance(target, Loc):
            if operator != "=":
                current = self._read(target, left_node, record)
                right = self._combine(current, operator[:-1], right)
            copy = self.copies.get(text(node.child_by_field_name("right")))
            if record and operator == "=" and copy is not None and copy.value is right and \
                    _same_place(copy.source, target):
                self._write_back(copy, left_node)
                return right
            if record:
                self._write(target, left_node, value=right.expr if operator == "=" and isinstance(right, Scalar)
                            else None)
            return right
        root = _root_identifier(left_node)
        local = env.lookup(root) if root is not None else None
        if isinstance(local, Scalar) and left_node.type != "identifier" and \
                not (root in self.copies and self.copies[root].value is local):
            # a member of a local struct whose members the lowering does not track: no longer what it was
            env.assign(root, Scalar(Opaque(f"{root} with a member assigned"), local.type))
        if operator != "=" and isinstance(target, Scalar):  # a member of a local struct: `p.x += v`
            return self._combine(target, operator[:-1], right)
        return right

    def _write_back(self, copy: _Copy, node: Node) -> None:
        """`p[i] = pi;` of a copy of p[i]: members it never assigned are stored with the value loaded
        from the same place (a write-back, which changes nothing another thread reads)."""
        for member, piece in _member_pieces(copy.source):
            unchanged = copy.modified is not None and member not in copy.modified
            self._access(piece, "store", node, copy.loads.get(str(piece.offset)) if unchanged else None)
        self._clobber()

    def _combine(self, current: Val | None, operator: str, right: Val) -> Val:
        if isinstance(current, Ptr) and isinstance(right, Scalar) and operator in ("+", "-"):
            return _advance(current, right.expr, operator)
        if isinstance(current, Scalar) and isinstance(right, Scalar):
            result = self._arithmetic(operator, current, right)
            return Scalar(result.expr, current.type)
        return _opaque("compound assignment")

    def _update(self, node: Node, env: Env, record: bool) -> Val:
        arg = node.child_by_field_name("argument")
        delta = Scalar(ONE)
        operator = "+" if "++" in text(node.child_by_field_name("operator")) else "-"
        if arg is not None and arg.type == "identifier" and isinstance(env.lookup(text(arg)), (Scalar, Ptr)):
            current = env.lookup(text(arg))
            env.assign(text(arg), self._combine(current, operator, delta))
            return current
        target = self.expr(arg, env, record)
        if isinstance(target, Loc) and record:
            current = self._read(target, arg, record)
            self._write(target, arg)
            return current
        return _opaque("update")

    def _call(self, node: Node, env: Env, record: bool) -> Val:
        value = self._call_of(node, env, record)
        for name in _addressed_names(node.child_by_field_name("arguments")) if self.addresses_written else ():
            if isinstance(env.lookup(name), Scalar | Ptr):  # `swap(&p, &q)`: the callee may rewrite it
                env.assign(name, _opaque(f"{name} passed by address"))
        return value

    def _call_of(self, node: Node, env: Env, record: bool) -> Val:
        callee = node.child_by_field_name("function")
        while callee is not None and callee.type == "qualified_identifier":  # cg::tiled_partition<16>
            callee = callee.child_by_field_name("name")
        args_node = node.child_by_field_name("arguments")
        # a comment after an argument (`f(energy,  // in lethargy`) is a named child too: not an argument
        arg_nodes = [a for a in args_node.named_children if a.type != "comment"] if args_node is not None else []
        if callee is not None and callee.type == "template_function":
            name = text(callee.child_by_field_name("name")).rsplit("::", 1)[-1]
            targs = callee.child_by_field_name("arguments")
            if name in ("reinterpret_cast", "static_cast", "const_cast", "dynamic_cast") and arg_nodes:
                return self._convert(text(targs)[1:-1], self.rvalue(arg_nodes[0], env, record))
            if name == "tiled_partition" and targs is not None and targs.named_children:
                size = self.rvalue(targs.named_children[0], env, record=False)
                return Group(size.expr if isinstance(size, Scalar) else Opaque("tile size"))
            explicit = [self._template_value(t, env) for t in (targs.named_children if targs else [])]
            return self._call_named(name, node, arg_nodes, env, record, explicit)
        if callee is not None and callee.type == "field_expression":
            group = self.expr(callee.child_by_field_name("argument"), env, record)
            values = [self.rvalue(a, env, record) for a in arg_nodes]
            space = group.space if isinstance(group, Ptr | Loc) else "unknown"
            if record and not isinstance(group, Group) and space != "local":
                # `s_vector->push(v)`: a method of an object in memory, or behind a pointer the lowering lost
                self._opaque_memory(node, [space], "method")
            if record and self._block_collective(callee.child_by_field_name("argument"), env):
                # its scratch is written before its inner barrier and read after it
                self._barrier(node, "block", text(callee), removable=False, counted=True)
                self._opaque_memory(node, ["shared"], "method")
            return self._method(text(callee.child_by_field_name("field")), group, values, node)
        name = text(callee).rsplit("::", 1)[-1]
        return self._call_named(name, node, arg_nodes, env, record)

    def _method(self, method: str, group: Val, values: list[Val], node: Node) -> Val:
        """Cooperative-groups methods on a thread block or a tile; other methods are opaque."""
        if not isinstance(group, Group):
            # cuda::barrier (its thread count is the caller's choice): arrive_and_wait(), or wait() on an
            # object an earlier arrive() was called on (`auto t = bar.arrive(); bar.wait(std::move(t));`)
            holder = text(node.child_by_field_name("function").child_by_field_name("argument"))
            if method == "arrive":
                self.arrived.add(holder)
            if method == "arrive_and_wait" or (method == "wait" and holder in self.arrived):
                self._barrier(node, "block", f"{method}()", removable=False, counted=True)
            return _opaque(f"method {method}")
        if method in ("sync", "barrier_wait", "arrive_and_wait"):
            return self._group_sync(group, node, f"{method}()")
        block_threads = op("*", op("*", Sym("bdim.x"), Sym("bdim.y")), Sym("bdim.z"))
        if group.grid:  # the rank in the grid: blocks in x, y, z order, threads within each
            blocks = op("+", Sym("bid.x"), op("*", Sym("gdim.x"), op("+", Sym("bid.y"), op("*", Sym("gdim.y"),
                                                                                             Sym("bid.z")))))
            self.uses.update(("bid.x", "bid.linear"))  # every axis, but no evidence of a 3-D grid
            grid_blocks = op("*", op("*", Sym("gdim.x"), Sym("gdim.y")), Sym("gdim.z"))
            found = {"thread_rank": op("+", op("*", blocks, block_threads), self._linear_tid()),
                     "size": op("*", grid_blocks, block_threads), "num_threads": op("*", grid_blocks, block_threads),
                     "block_rank": blocks, "num_blocks": grid_blocks}.get(method)
            return Scalar(found) if found is not None else _opaque(f"grid {method}")
        size = group.size if group.size is not None else block_threads
        rank = self._linear_tid()
        if method == "shfl" and len(values) == 2 and all(isinstance(v, Scalar) for v in values):
            return Scalar(op("shfl_idx", values[0].expr, values[1].expr, size), values[0].type)
        if method == "thread_rank":
            return Scalar(op("%", rank, size) if group.size is not None else rank)
        if method in ("size", "num_threads"):
            return Scalar(size)
        if method == "meta_group_rank":  # the tile's index in its block (a block's own: 0)
            return Scalar(op("/", rank, size) if group.size is not None else ZERO)
        if method == "meta_group_size":  # tiles per block, the last one maybe partial
            return Scalar(op("/", op("+", block_threads, op("-", size, ONE)), size) if group.size is not None
                          else ONE)
        exprs = tuple(v.expr for v in values if isinstance(v, Scalar))
        return Scalar(op("shfl", *exprs) if exprs else Opaque(method),
                      values[0].type if values and isinstance(values[0], Scalar) else UNKNOWN)

    def _block_collective(self, made: Node | None, env: Env) -> bool:
        """`BlockReduce(temp_storage).Sum(v)`: a method of an object built on shared scratch space
        (cub's block primitives) is called by every thread and passes data between warps through
        it, so it holds a block barrier the lowering cannot see; it orders the accesses around it."""
        if made is None or made.type != "call_expression":
            return False
        arguments = made.child_by_field_name("arguments")
        values = [self.expr(a, env, record=False) for a in (arguments.named_children if arguments else [])]
        return any(isinstance(v, Loc | Ptr) and v.space == "shared" for v in values)

    def _linear_tid(self) -> Expr:
        self.uses.update(("tid.x", "tid.linear"))  # every axis, but no evidence of a 3-D block
        row = op("+", Sym("tid.y"), op("*", Sym("bdim.y"), Sym("tid.z")))
        return op("+", Sym("tid.x"), op("*", Sym("bdim.x"), row))

    def _group_sync(self, group: Group, node: Node, name: str) -> Val:
        warp_level = isinstance(group.size, Const) and group.size.value <= 32
        # a tile of a whole warp waits for all 32 of its lanes, as __syncwarp() does; a smaller tile's
        # lanes are a part of the warp the analysis does not judge
        whole_warp = warp_level and group.size.value == 32
        self._barrier(node, "grid" if group.grid else "warp" if warp_level else "block", name,
                      full_mask=True if whole_warp else None)
        return Scalar(ZERO)

    def _barrier(self, node: Node, scope: str, name: str, full_mask: bool | None = None, removable: bool = True,
                 counted: bool = False) -> None:
        line, column = self._pos(node)
        self.emit(Barrier(self._id(), line, column, name, scope, full_mask, removable and not self.inline_stack,
                          counted))
        self._clobber()

    def _opaque_memory(self, node: Node, spaces, name: str) -> None:
        for space in sorted(set(spaces)):
            self.emit(OpaqueMemory(self._id(), *self._pos(node), space, name))
            self._clobber()

    def _asm(self, node: Node, env: Env, record: bool) -> Val:
        """Inline PTX: barriers and the memory its instructions touch; outputs become unknown values."""
        code = " ".join(text(c) for c in node.children if c.type in ("string_literal", "concatenated_string"))
        inputs, outputs = [], []
        for operands in node.named_children:
            for operand in operands.named_children if operands.type.endswith("operand_list") else []:
                value = operand.named_children[-1] if operand.named_children else None
                if operands.type == "gnu_asm_input_operand_list":
                    inputs.append(self.rvalue(value, env, record))
                elif value is not None and value.type == "identifier" and env.lookup(text(value)) is not None:
                    outputs.append(text(value))
        unary = next((name for name, pattern in _PTX_UNARY.items() if pattern.match(code.strip('"'))), None)
        for name in outputs:
            computed = unary and len(outputs) == 1 and len(inputs) == 1 and isinstance(inputs[0], Scalar)
            env.assign(name, Scalar(op(unary, inputs[0].expr, is_int=True)) if computed else _opaque("asm output"))
        if record:
            self._opaque_memory(node, [space for space, pattern in _PTX_MEMORY.items() if pattern.search(code)], "asm")
        for m in _PTX_BARRIER.finditer(code):
            counted = "," in m.group(1)
            self._barrier(node, "block", "bar.sync", removable=False, counted=counted)
        if _PTX_WARP_BARRIER.search(code):
            self._barrier(node, "warp", "bar.warp.sync", removable=False)
        return _opaque("asm")

    def _template_value(self, node: Node, env: Env) -> Val:
        """An explicit template argument; `f<BLOCK>` parses BLOCK as a type, so a plain name is looked up."""
        if node.type == "type_descriptor" and text(node).isidentifier():
            return self.name(text(node), env, node)
        return self.rvalue(node, env, record=False)

    def _call_named(self, name: str, node: Node, arg_nodes: list[Node], env: Env, record: bool,
                    template_values: list[Val] = ()) -> Val:
        if name in _BLOCK_BARRIERS:
            votes = [self.rvalue(a, env, record) for a in arg_nodes]
            self._barrier(node, "block", name, removable=name not in _BLOCK_VOTES)
            exprs = tuple(v.expr for v in votes if isinstance(v, Scalar))
            return Scalar(op("block_uniform", *exprs) if exprs else Opaque(name))
        if name in _GROUP_SYNCS and arg_nodes:
            group = self.expr(arg_nodes[0], env, record)
            if isinstance(group, Group):
                return self._group_sync(group, node, f"{name}()")
        if name == "__syncwarp":
            mask = self.rvalue(arg_nodes[0], env, record) if arg_nodes else None
            self._barrier(node, "warp", name, True if mask is None else _full_mask(mask))
            return Scalar(ZERO)
        if name == "this_thread_block":
            return Group(None)
        if name == "tiled_partition" and len(arg_nodes) == 2:
            size = self.rvalue(arg_nodes[1], env, record=False)
            return Group(size.expr if isinstance(size, Scalar) else Opaque("tile size"))
        if name == "this_grid":
            return Group(None, grid=True)
        if (atomic := _ATOMICS.match(name)) and arg_nodes:
            target = self._deref(self.rvalue(arg_nodes[0], env, record))
            for a in arg_nodes[1:]:
                self.rvalue(a, env, record)
            if isinstance(target, Loc) and record:
                access = self._access(target, "atomic", node)
                kind = "f" if target.type.is_float else "i"
                access.operation = f"atomic{atomic.group(1)}.{kind}{target.type.size * 8}"
                access.returns = _result_read(node)
                self._clobber()
            return Scalar(Opaque(f"{name} result"), target.type if isinstance(target, Loc) else UNKNOWN)
        if name.startswith(("__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv")):
            if arg_nodes:
                target = self._deref(self.rvalue(arg_nodes[0], env, record))
                if isinstance(target, Loc):
                    return self._read(target, node, record)
            return _opaque(name)
        if name.startswith(("__stcg", "__stcs", "__stwb", "__stwt")) and len(arg_nodes) == 2:
            target = self._deref(self.rvalue(arg_nodes[0], env, record))
            self.rvalue(arg_nodes[1], env, record)
            if isinstance(target, Loc) and record:
                self._write(target, node)
            return Scalar(ZERO)
        values = [self.rvalue(a, env, record) for a in arg_nodes]
        if record and values and _WARP_COLLECTIVES.match(name):
            lane = values[2].expr if name.startswith("__shfl") and len(values) > 2 and \
                isinstance(values[2], Scalar) else None
            width = values[3].expr if lane is not None and len(values) > 3 and isinstance(values[3], Scalar) else None
            self.emit(Collective(self._id(), *self._pos(node), name, _full_mask(values[0]), lane, width))
        if _WARP_VOTES.match(name) and len(values) >= 2 and isinstance(values[1], Scalar):
            return Scalar(op("warp_uniform", values[1].expr), INT if name != "__ballot_sync" else UNKNOWN)
        if name == "reduce" and len(values) >= 2 and isinstance(values[0], Group) and not values[0].grid and \
                values[0].size == Const(32.0) and isinstance(values[1], Scalar):  # cg::reduce over a whole warp
            return Scalar(op("warp_uniform", values[1].expr), values[1].type)
        if name == "__shfl_sync" and len(values) >= 3 and all(isinstance(v, Scalar) for v in values[1:]):
            width = values[3].expr if len(values) > 3 else Const(32.0)
            return Scalar(op("shfl_idx", values[1].expr, values[2].expr, width), values[1].type)
        if name in self.scope.device_functions and len(self.inline_stack) < _INLINE_DEPTH and \
                sum(ctx.function == name for ctx in self.inline_stack) < _RECURSION_DEPTH:
            return self._inline(name, node, values, template_values)
        macro = self._macro(name, node)
        if macro is not None and macro.params is not None and self.macro_depth < 8:
            return self._expand_expression(macro, [text(a) for a in arg_nodes], env, node)
        if name in _MIN_MAX and len(values) == 2 and all(isinstance(v, Scalar) for v in values):
            return Scalar(op(_MIN_MAX[name], values[0].expr, values[1].expr), values[0].type)
        if name in ("abs",) and len(values) == 1 and isinstance(values[0], Scalar):
            return Scalar(op("abs", values[0].expr), values[0].type)
        if name.startswith("make_") and name[5:] in BUILTIN_TYPES:
            return Scalar(Opaque(name), BUILTIN_TYPES[name[5:]])
        if record and name.startswith(_TEXTURE_FETCHES):  # global memory through the texture path, not modelled
            self.emit(OpaqueMemory(self._id(), *self._pos(node), "texture", name))
        if record:  # a callee it cannot see (wmma, memcpy_async, a library) may touch what it is given
            self._opaque_memory(node, [v.space for v in values if isinstance(v, Ptr) and v.space in
                                       ("shared", "global")], name)
        exprs = tuple(v.expr for v in values if isinstance(v, Scalar))
        is_float = any(isinstance(v, Scalar) and v.type.is_float for v in values) or name.endswith("f")
        self.work.call(name, precision(*(v.type for v in values if isinstance(v, Scalar))) or
                       ("fp32" if name.endswith("f") else None))
        if name.startswith("__shfl"):
            return Scalar(op("shfl", *exprs) if exprs else Opaque(name), values[0].type if values and
                          isinstance(values[0], Scalar) else UNKNOWN)
        return Scalar(op(name, *exprs, is_int=not is_float) if exprs else Opaque(name),
                      FLOAT if is_float else UNKNOWN)

    def _inline(self, name: str, node: Node, values: list[Val], template_values: list[Val] = ()) -> Val:
        candidates = self.scope.device_functions[name]
        definition = next((d for d in candidates if _arity(d) == len(values)), candidates[0])
        frame = Env()
        names, kinds, _ = template_params(definition)  # `f<32>(v)`: the value parameters are known
        for tname, kind, value in zip(names, kinds, template_values):
            if kind == "value" and isinstance(value, Scalar) and not isinstance(value.expr, Opaque):
                frame.declare(tname, value)   # an unread argument (`f<N>` parsed as a type) binds nothing
        _declare_unbound_constants(definition, frame, frame.frames[-1])
        declarator = function_declarator(definition)
        plist = declarator.child_by_field_name("parameters") if declarator is not None else None
        params = [p for p in plist.named_children if p.type in ("parameter_declaration",
                                                                "optional_parameter_declaration")] if plist else []
        for p, value in zip(params, values):
            pname = p.child_by_field_name("declarator")
            while pname is not None and pname.type not in ("identifier",):
                pname = pname.child_by_field_name("declarator") or next(
                    (c for c in pname.named_children if c.type == "identifier"), None)
            if pname is not None:
                ptype = self.type_of(text(p.child_by_field_name("type")))
                if isinstance(value, Ptr) and ptype is not None and ptype is not UNKNOWN and "*" in text(p):
                    value = replace(value, pointee=ptype)
                frame.declare(text(pname), value)
        ctx = _Inline(name, outer_tests=len(self.tests))
        self.inline_stack.append(ctx)
        try:
            body = definition.child_by_field_name("body")
            if body is not None:
                self.block(body, frame)
        finally:
            self.inline_stack.pop()
        if len(ctx.returns) == 1:
            return ctx.returns[0]
        if ctx.returns and all(r == ctx.returns[0] for r in ctx.returns):
            return ctx.returns[0]
        if ctx.returns and all(isinstance(r, Scalar) for r in ctx.returns) and not _jumps(definition):
            # which return a thread takes follows only the tests around them (no break or continue
            # leads elsewhere): the result varies no wider than those tests and the values returned
            return Scalar(Opaque(f"result of {name}", follows=(*(r.expr for r in ctx.returns), *ctx.tests)))
        return _opaque(f"result of {name}")

    def _initializer(self, node: Node, env: Env, record: bool) -> Val:
        for child in node.named_children:
            self.rvalue(child, env, record)
        return _opaque("initializer")


class _BodySwap:
    """A loop node from a macro expansion whose body is the user's block that followed the macro."""

    def __init__(self, loop: Node, body: Node):
        self._loop, self._body = loop, body
        self.type = loop.type

    def child_by_field_name(self, name: str):
        return self._body if name == "body" else self._loop.child_by_field_name(name)

    def __getattr__(self, item):
        return getattr(self._loop, item)


_STRUCT_HEAD = re.compile(rb"\b(?:struct|class)\s+(\w+)\s*(?:<[^{};]*>)?\s*\{")
_EXTERN_SHARED = re.compile(rb"extern\s+__shared__\s+[\w\s]+?\s(\w+)\s*\[\s*\]")


@functools.cache
def _shared_helpers(data: bytes) -> dict[str, str]:
    """Structs and classes whose body declares an `extern __shared__` array: name -> array."""
    helpers: dict[str, str] = {}
    if b"__shared__" not in data:
        return helpers
    for head in _STRUCT_HEAD.finditer(data):
        depth, end = 0, len(data)
        for i in range(head.end() - 1, len(data)):
            depth += {ord("{"): 1, ord("}"): -1}.get(data[i], 0)
            if depth == 0:
                end = i
                break
        found = _EXTERN_SHARED.search(data, head.end(), end)
        if found:
            helpers.setdefault(head.group(1).decode(), found.group(1).decode())
    return helpers


def _exit_statement(node: Node | None) -> str | None:
    """The kind of statement an exiting block ends in (`return_statement`, ...)."""
    while node is not None and node.type == "compound_statement":
        named = [c for c in node.named_children if c.type != "comment"]
        node = named[-1] if named else None
    return node.type if node is not None else None


_PREPROC_CONDITIONALS = ("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif")
_NVCC_DEFINES = ("__CUDACC__", "__NVCC__", "__CUDA_ARCH__")


def _first_arm(node: Node) -> list[Node]:
    """The statements of a preprocessor conditional's first arm: both arms together would
    double-count work."""
    return [c for c in node.named_children
            if c.type not in ("preproc_else", "preproc_elif", "identifier", "preproc_defined",
                              "binary_expression", "number_literal", "parenthesized_expression",
                              "unary_expression", "call_expression")
            and node.field_name_for_child(list(node.children).index(c)) not in ("condition", "name")]


def _declare_unbound_constants(definition: Node, env: Env, bound) -> None:
    """A value template parameter no argument gave: unknown, but one compile-time constant for the
    whole grid."""
    names, kinds, _ = template_params(definition)
    for name, kind in zip(names, kinds):
        if kind == "value" and name not in bound:
            env.declare(name, Scalar(Opaque(name, uniform=True)))


def _jumps(node: Node | None) -> bool:
    """Does a break, continue or goto leave a loop early, or a switch case, somewhere under node?"""
    return node is not None and any(n.type in _JUMPS for n in descendants(node))


def _addressed_names(node: Node | None) -> set[str]:
    """Local variables whose address a call receives (`swap((void**)&p, &q)`)."""
    names: set[str] = set()
    for n in descendants(node) if node is not None else ():
        if n.type == "argument_list":
            for arg in n.named_children:
                while arg.type in ("cast_expression", "parenthesized_expression") and arg.named_children:
                    arg = arg.named_children[-1]
                inner = arg.child_by_field_name("argument") if arg.type == "pointer_expression" else None
                if inner is not None and text(arg.child_by_field_name("operator")) == "&" and \
                        inner.type == "identifier":
                    names.add(text(inner))
    return names


def _hoistable(loop: Loop) -> list[Access]:
    """Loads nvcc moves out of a loop: at the body's top level, with an address the loop does not
    change, in a loop that writes no memory and has no barrier (else aliasing forbids it)."""
    for stmt, _ in walk(loop.body):
        if isinstance(stmt, Barrier) or (isinstance(stmt, Access) and stmt.kind != "load"):
            return []
    varying = {loop.counter, loop.iteration}
    return [s for s in loop.body if isinstance(s, Access) and not (free_symbols(s.offset) & varying)
            and not loads_in(s.offset) and not has_opaque(s.offset)]


def _advance(pointer: Ptr, count: Expr, operator: str) -> Ptr:
    """Pointer arithmetic: `p + count` moves by count elements of the pointee."""
    return replace(pointer, offset=op(operator, pointer.offset, op("*", count, lift(pointer.pointee.size))))


class _Block:
    """A synthetic compound statement holding nodes the parser left as siblings."""

    type = "compound_statement"

    def __init__(self, children: list):
        self.named_children = children
        self.children = children

    def child_by_field_name(self, name: str):
        return None


_LOOPS = ("for_statement", "while_statement")


def _glue_pragma_loops(children: list) -> list:
    """`for (...) <newline> #pragma unroll <newline> for (...) body`: the grammar ends the outer loop
    with an empty body at the pragma and leaves the inner loop as the next sibling.  Re-attach it."""
    out, i = [], 0
    while i < len(children):
        node = children[i]
        # a loop glued before (a list lowered twice) keeps its body
        body = node.child_by_field_name("body") if node.type in _LOOPS and not isinstance(node, _BodySwap) else None
        if body is not None and not text(body).strip(";").strip():
            j = i + 1
            while j < len(children) and children[j].type == "preproc_call":
                j += 1
            if i + 1 < j < len(children):  # `for (...);` with no pragma after it is an empty loop
                tail = _glue_pragma_loops(children[j:])  # the first entry is the (glued) inner loop
                out.append(_BodySwap(node, _Block(children[i + 1:j] + tail[:1])))
                return out + tail[1:]
        out.append(node)
        i += 1
    return out


def _condition_text(node: Node) -> str:
    """A condition as written, without the parentheses of `if (...)` around it (but keeping those
    of `(float)x > (float)y`, which a plain strip would cut)."""
    spelled = text(node).strip()
    while spelled.startswith("(") and spelled.endswith(")") and _balanced(spelled[1:-1]):
        spelled = spelled[1:-1].strip()
    return spelled


def _balanced(spelled: str) -> bool:
    depth = 0
    for ch in spelled:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def _header(node) -> str:
    body = node.child_by_field_name("body")
    full = text(node._loop if isinstance(node, _BodySwap) else node)
    if body is not None and not isinstance(node, _BodySwap):
        full = full[: body.start_byte - node.start_byte]
    return " ".join(full.split())[:80]


def _member_pieces(loc: Loc) -> list[tuple[str, Loc]]:
    """The pieces of a struct copy (see _pieces), each with the top-level member it belongs to."""
    return [(member, piece) for member, offset, ftype in loc.type.fields
            for piece in _pieces(Loc(loc.space, loc.array, op("+", loc.offset, lift(offset)), ftype))]


def _same_place(a: Loc, b: Loc) -> bool:
    return (a.space, a.array, str(a.offset), a.type.size) == (b.space, b.array, str(b.offset), b.type.size)


def _root_identifier(node: Node | None) -> str | None:
    """`s` of `s.a[2].b`: the variable a member or element expression starts from."""
    while node is not None and node.type in ("field_expression", "subscript_expression", "parenthesized_expression"):
        node = node.child_by_field_name("argument") if node.type != "parenthesized_expression" else \
            (node.named_children[0] if node.named_children else None)
    return text(node) if node is not None and node.type == "identifier" else None


_WRITES = {"assignment_expression": "left", "update_expression": "argument"}


def _member_uses(name: str, declaration: Node) -> tuple[frozenset[str] | None, frozenset[str] | None]:
    """(members read, members assigned) of local `name` in the code after its declaration, in the
    same block; None where the whole variable is read (`p[i] = pi`, `f(pi)`) or may change (`&pi`,
    `pi = q`)."""
    anchor = declaration
    while anchor.parent is not None and anchor.parent.type in ("init_declarator", "declaration"):
        anchor = anchor.parent
    block = anchor.parent
    later = [c for c in block.children if c.start_byte >= anchor.end_byte] if block is not None else []
    read: set[str] | None = set()
    modified: set[str] | None = set()
    for use in (n for c in later for n in descendants(c) if n.type == "identifier" and text(n) == name):
        outer, member = use, None
        while outer.parent is not None and outer.parent.type in ("field_expression", "subscript_expression") and \
                outer.parent.child_by_field_name("argument") == outer:
            if member is None and outer.parent.type == "field_expression":
                member = text(outer.parent.child_by_field_name("field"))
            outer = outer.parent
        parent = outer.parent
        kind = parent.type if parent is not None else ""
        written = kind in _WRITES and parent.child_by_field_name(_WRITES[kind]) == outer
        overwritten = written and text(parent.child_by_field_name("operator")) == "="
        addressed = kind in ("pointer_expression", "argument_list")  # `&pi`, `f(pi.acc)`: may change
        if member is None or addressed:
            if written or addressed:
                modified = None
            if not overwritten:
                read = None
            continue
        if (written or addressed) and modified is not None:
            modified.add(member)
        if not overwritten and read is not None:
            read.add(member)
    return (frozenset(read) if read is not None else None, frozenset(modified) if modified is not None else None)


MAX_SPLIT_ELEMENTS = 32  # a longer array member copied whole stays one access (thousands would swamp the analyses)


def _pieces(loc: Loc) -> list[Loc]:
    """How a whole-object copy is split into memory instructions: one wide access when the type's
    alignment allows (float4, __align__(16) structs), otherwise member by member (element by
    element for an array member: `float pos[3]`)."""
    t = loc.type
    if (t.size in (1, 2, 4, 8, 16) and t.align >= t.size) or not (t.fields or (t.is_array and t.length)) or \
            (t.is_array and t.length > MAX_SPLIT_ELEMENTS):
        return [loc]
    parts = [(k * t.element.size, t.element) for k in range(t.length)] if t.is_array else \
        [(offset, ftype) for _, offset, ftype in t.fields]
    return [piece for offset, ptype in parts
            for piece in _pieces(Loc(loc.space, loc.array, op("+", loc.offset, lift(offset)), ptype))]


def _affine_step(update: Expr, counter: str) -> Expr | None:
    """The increment when the update is `counter + e` or `counter - e` with e free of the counter."""
    if not isinstance(update, Op) or update.name not in ("+", "-"):
        return None
    a, b = update.args
    if a == Sym(counter) and counter not in free_symbols(b):
        return b if update.name == "+" else op("-", ZERO, b)
    if update.name == "+" and b == Sym(counter) and counter not in free_symbols(a):
        return a
    return None


def _result_read(call: Node) -> bool:
    """Does the code use the value a call returns (not a statement of its own, nor cast to void)?"""
    parent = call.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    if parent is None or parent.type == "expression_statement":
        return False
    return not (parent.type == "cast_expression" and text(parent.child_by_field_name("type") or parent) == "void")


def _full_mask(value: Val) -> bool | None:
    """Is a warp mask the constant naming all 32 lanes?  None when it is not a constant."""
    if isinstance(value, Scalar) and isinstance(value.expr, Const):
        return value.expr.value in _FULL_MASKS
    return None


# `a[i] OP k`: (a[i] bounds k from above, strictly)
_ELEMENT_BOUNDS = {"<=": (False, False), "<": (False, True), ">=": (True, False), ">": (True, True)}


def _bounds(node: Node | None) -> list[tuple[str, Node, Node, bool, bool, bool]]:
    """Readings of one side of a bucket search, `a[i] <= k` or `k < a[i]`: (a, i, k, whether a[i]
    bounds k from above, whether strictly, whether k is written first); both operands may be
    subscripts (`k` = `key[b]`)."""
    node = _unparenthesized(node)
    relation = _ELEMENT_BOUNDS.get(text(node.child_by_field_name("operator"))) \
        if node is not None and node.type == "binary_expression" else None
    if relation is None:
        return []
    above, strict = relation
    left, right = (_unparenthesized(node.child_by_field_name(side)) for side in ("left", "right"))
    readings = []
    for element, key, flipped in ((left, right, False), (right, left, True)):
        indices = element.child_by_field_name("indices") if element is not None and \
            element.type == "subscript_expression" else None
        if key is not None and indices is not None and len(indices.named_children) == 1:
            readings.append((text(element.child_by_field_name("argument")), indices.named_children[0], key,
                             above != flipped, strict, flipped))
    return readings


def _unparenthesized(node: Node | None) -> Node | None:
    while node is not None and node.type in ("condition_clause", "parenthesized_expression") and node.named_children:
        node = node.named_children[-1]
    return node


def _identifiers(node: Node) -> set[str]:
    return {text(n) for n in descendants(node) if n.type == "identifier"}


def _mentions(node: Node | None, names: set[str]) -> bool:
    return node is not None and bool(_identifiers(node) & names)


def _comma_parts(node: Node | None) -> list[Node]:
    """`a += s, b += t` -> [`a += s`, `b += t`] (a single expression: itself; none: [])."""
    if node is None:
        return []
    if node.type != "comma_expression":
        return [node]
    return [part for child in node.named_children for part in _comma_parts(child)]


def _assignment_count(body: Node, name: str) -> int:
    return sum(1 for n in descendants(body)
               if (n.type == "assignment_expression" and text(n.child_by_field_name("left")) == name)
               or (n.type == "update_expression" and text(n.child_by_field_name("argument")) == name))


def _arity(definition: Node) -> int:
    declarator = function_declarator(definition)
    plist = declarator.child_by_field_name("parameters") if declarator is not None else None
    return len([p for p in plist.named_children if "parameter" in p.type]) if plist else 0


_SNIPPETS: dict[str, Node | None] = {}


def _snippet(expression: str) -> Node | None:
    """Parse a macro body as an expression (cached): `int __v = (BODY);`."""
    if expression in _SNIPPETS:
        return _SNIPPETS[expression]
    tree = parse.parse(f"int __cudaperf_v = ({expression});".encode())
    node = None
    decl = tree.root_node.named_children[0] if tree.root_node.named_children else None
    if decl is not None and not decl.has_error and decl.type == "declaration":
        init = decl.child_by_field_name("declarator")
        node = init.child_by_field_name("value") if init is not None else None
    if len(_SNIPPETS) > 4096:
        _SNIPPETS.clear()
    _SNIPPETS[expression] = node
    return node


_LEAF_STATEMENTS = {"expression_statement", "declaration", "return_statement"}

_STATEMENTS = {
    "compound_statement": Lowerer._compound,
    "expression_statement": Lowerer._expression_statement,
    "declaration": Lowerer._declaration,
    "if_statement": Lowerer._if,
    "for_statement": Lowerer._loop,
    "while_statement": Lowerer._loop,
    "do_statement": Lowerer._loop,
    "preproc_call": Lowerer._pragma,
    "return_statement": Lowerer._return,
    "switch_statement": Lowerer._switch,
    "function_definition": Lowerer._nested_definition,
}

def _condition_clause(self: Lowerer, node: Node, env: Env, record: bool) -> Val:
    """`switch (x)` / `while (x)` wrap their condition; a declaration there (`if (int v = f())`) stays unhandled."""
    value = node.child_by_field_name("value")
    if value is None or value.type == "declaration":
        if self.strict:
            raise UnhandledSyntax(f"line {node.start_point[0] + 1}: declaration in a condition")
        return _opaque("condition declaration")
    return self.expr(value, env, record)


_EXPRESSIONS = {
    "condition_clause": _condition_clause,
    "string_literal": lambda self, n, e, r: _opaque("string"),  # printf formats: no value to track
    "concatenated_string": lambda self, n, e, r: _opaque("string"),
    "number_literal": Lowerer._number,
    "char_literal": lambda self, n, e, r: Scalar(Const(float(ord(text(n)[1:-1][:1] or "\0")))),
    "true": lambda self, n, e, r: Scalar(ONE),
    "false": lambda self, n, e, r: Scalar(ZERO),
    "null": lambda self, n, e, r: Scalar(ZERO),
    "nullptr": lambda self, n, e, r: Scalar(ZERO),
    "identifier": Lowerer._identifier,
    "qualified_identifier": Lowerer._identifier,
    "type_identifier": Lowerer._identifier,
    "field_expression": Lowerer._field,
    "subscript_expression": Lowerer._subscript,
    "pointer_expression": Lowerer._pointer,
    "binary_expression": Lowerer._binary,
    "unary_expression": Lowerer._unary,
    "parenthesized_expression": Lowerer._paren,
    "conditional_expression": Lowerer._conditional,
    "comma_expression": Lowerer._comma,
    "cast_expression": Lowerer._cast,
    "sizeof_expression": Lowerer._sizeof,
    "assignment_expression": Lowerer._assignment,
    "update_expression": Lowerer._update,
    "call_expression": Lowerer._call,
    "initializer_list": Lowerer._initializer,
    "compound_literal_expression": Lowerer._initializer,
    "gnu_asm_expression": Lowerer._asm,
}
