"""The Lowerer: one kernel instance lowered by the parts, one per kind of construct, it is built of;
its state, the kernel entry (parameters, launch bounds) and the helpers every part uses."""

from __future__ import annotations

import math

from .. import parse
from ..arith import WorkCounter
from ..ctype import UNKNOWN, CType, array_of
from ..ir import Compute, Kernel, Param, SharedArray, Stmt
from ..parse import Node, descendants, text
from ..scope import FileScope, array_dims, function_declarator, kernel_name
from ..symbolic import ZERO, Const, Expr, Load, Sym
from ..tickets import mark_last_block
from .calls import Calls, _Inline
from .declarations import Declarations, _declare_unbound_constants
from .expansions import Expansions
from .expressions import Expressions
from .loops import Loops
from .memory import Memory, _Copy
from .statements import Statements
from .synchronisation import Synchronisation
from .values import Env, Ptr, Scalar, Val


class Lowerer(Statements, Loops, Declarations, Expressions, Calls, Synchronisation, Memory, Expansions):
    """Lowers one kernel instance (one set of template arguments)."""

    strict = False  # raise UnhandledSyntax instead of skipping what the lowering does not know
    # a local whose address a call receives may be rewritten by it (`swap(&now, &next)`); host-code
    # inference keeps the value set before (`MPI_Bcast(&n, ...)` after `n = 4096`) to find launches
    addresses_written = True
    # object-like macros lowered once per values read (Expansions._expand_object); host-code
    # inference turns it off: it tells values apart by identity (a value computed again is another)
    reuse_expansions = True

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
        self.pointer_elements: dict[str, dict | None] = {}  # local arrays of pointers (_store_pointer_element)
        self.writes = 0  # clobbers so far (see _clobber)
        self.work = WorkCounter()
        self.statements = 0
        self.macro_depth = 0
        self.expansions: dict[tuple, Val] = {}  # see _expand_object
        self.volatile: set[str] = set()  # arrays reached through a `volatile` pointer
        self.spun_on: set[str] = set()  # volatile arrays a loop waits on (see _waited_on)
        self.copies: dict[str, _Copy] = {}  # local structs copied from memory, by name
        self.tests: list[Expr] = []  # conditions of the branches and loops enclosing the statement lowered
        self.cluster: tuple[int, int, int] | None = None  # the kernel's `__cluster_dims__`, where constant

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

    def lower_kernel(self, definition: Node) -> Kernel:
        name = kernel_name(definition, self.scope.source.macros)
        line, column = parse.position(definition)
        env = Env()
        _declare_unbound_constants(definition, env, self.template_args)
        params = self._params(definition, env)
        bounds = self._launch_bounds(definition)
        self.cluster = self._cluster_dims(definition)
        body = definition.child_by_field_name("body")
        if body is not None:
            self.block(body, env)
        template_params = list(self.template_args)
        kernel = Kernel(name, line, column, params, template_params, self.shared, self.stmts, bounds,
                        frozenset(self.uses), self.notes, frozenset(self.spun_on))
        mark_last_block(kernel)
        return kernel

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

    def _cluster_dims(self, definition: Node) -> tuple[int, int, int] | None:
        """`__cluster_dims__(x, y, z)` written before the kernel's name (blanked for the grammar, kept
        among the source's attributes), each a number or a macro naming one; None otherwise."""
        declarator = function_declarator(definition)
        end = declarator.start_byte if declarator is not None else definition.start_byte
        for offset, name, args in self.scope.source.attributes:
            if name == "__cluster_dims__" and definition.start_byte <= offset < end:
                macros = self.scope.source.macros
                dims = [a.strip() if a.strip().isdigit() else getattr(macros.get(a.strip()), "body", "").strip()
                        for a in args]
                if not 1 <= len(dims) <= 3 or not all(d.isdigit() and int(d) > 0 for d in dims):
                    return None
                return tuple(int(d) for d in dims) + (1,) * (3 - len(dims))
        return None

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

    def _clobber(self) -> None:
        """A store, atomic, barrier or call: loaded values may be stale."""
        self.writes += 1
        self.cse = {}

    def _flush_work(self, node: Node) -> None:
        """Emit the floating-point work of the statement just lowered, in program order."""
        counts = self.work.take()
        if counts:
            self.emit(Compute(self._id(), *self._pos(node), counts))
