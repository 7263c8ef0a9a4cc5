"""Calls: a helper the file defines is inlined at its call site; any other call is resolved by
its name through dispatch tables (intrinsics, macros, library functions), or stays opaque."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..arith import WorkCounter, precision
from ..ctype import BUILTIN_TYPES, FLOAT, UNKNOWN
from ..ir import OpaqueMemory
from ..parse import Node, text
from ..scope import function_declarator, template_params
from ..symbolic import Expr, Opaque, op
from .declarations import _declare_unbound_constants
from .memory import _ATOMICS, _CACHED_LOADS, _CACHED_STORES, Memory
from .synchronisation import _BLOCK_BARRIERS, _GROUP_SYNCS, _WARP_COLLECTIVES, Synchronisation
from .syntax import _addressed_names, _jumps
from .values import Env, Group, Loc, Ptr, Scalar, Val, _opaque

_TEXTURE_FETCHES = ("tex1D", "tex2D", "tex3D", "texCubemap", "surf1D", "surf2D", "surf3D", "surfCubemap")
_MIN_MAX = {"min": "min", "max": "max", "umin": "min", "umax": "max", "llmin": "min", "llmax": "max",
            "ullmin": "min", "ullmax": "max", "fminf": "min", "fmaxf": "max", "fmin": "min", "fmax": "max"}
_INLINE_DEPTH = 8

# A recursive helper unrolls this many levels: its calls deeper down stay opaque.  Each level
# repeats the same source lines, and a helper calling itself twice (`Eval(l) + Eval(r)`) would
# otherwise unroll 2^8 - 1 copies of each of them.
_RECURSION_DEPTH = 4


@dataclass
class _Inline:
    function: str
    returns: list[Val] = field(default_factory=list)
    outer_tests: int = 0  # tests enclosing the call (Lowerer.tests below this index)
    tests: list[Expr] = field(default_factory=list)  # conditions enclosing its returns inside the helper


class Calls:
    """The lowering of calls (a part of Lowerer)."""

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

    def _template_value(self, node: Node, env: Env) -> Val:
        """An explicit template argument; `f<BLOCK>` parses BLOCK as a type, so a plain name is looked up."""
        if node.type == "type_descriptor" and text(node).isidentifier():
            return self.name(text(node), env, node)
        return self.rvalue(node, env, record=False)

    def _call_named(self, name: str, node: Node, arg_nodes: list[Node], env: Env, record: bool,
                    template_values: list[Val] = ()) -> Val:
        """A call by its name, resolved in this order: an intrinsic that reads its argument
        expressions (barriers, atomics, cached loads and stores, cooperative-groups handles), one
        that reads their values (warp collectives), a helper the file defines (inlined), a
        function-like macro, a library function the lowering knows (`min`, `abs`, `make_float4`),
        and last an opaque call.  Each handler may decline (None): `sync(x)` of something not a group.
        Library functions come after the file's own helpers and macros, which may redefine them."""
        value = _ON_ARGUMENTS.handler(name)(self, name, node, arg_nodes, env, record)
        if value is not None:
            return value
        inlinable = self._inlinable(name)
        argument = self.rvalue if inlinable else self._argument
        work = self.work
        if not inlinable and self._expands(name, node):
            # a function-like macro: its arguments are lowered here for their accesses (at their own
            # positions), and their operations counted inside the expansion only, not twice
            self.work = WorkCounter()
        values = [argument(a, env, record) for a in arg_nodes]
        self.work = work
        value = _ON_VALUES.handler(name)(self, name, node, values, record)
        if value is None and inlinable:
            value = self._inline(name, node, values, template_values)
        if value is None:
            value = self._expanded_call(name, node, arg_nodes, env)
        if value is None:
            value = _LIBRARY.handler(name)(self, name, node, values, record)
        return value if value is not None else self._opaque_call(name, node, values, record)

    def _argument(self, node: Node, env: Env, record: bool) -> Val:
        """An argument of a call the file does not define.  A shared object of a type nothing
        declares, passed whole (CUB's `BlockReduce(temp_storage)`, `WarpScan(temp[w])`), is passed as
        the place it is, not loaded: such storage goes by reference to the collective that owns it,
        and a load of unknown size would be no access the analyses could use; the callee may touch it
        (see _opaque_call).  An element of global memory (`__dp4a(a[i], ...)` with `a` of a template
        type) is a load all the same."""
        value = self.expr(node, env, record)
        if isinstance(value, Loc) and value.type is UNKNOWN and value.space == "shared":
            return value
        return self._loaded(value, node, record)

    def _inlinable(self, name: str) -> bool:
        """A helper the file defines, within the inlining depth and the recursion depth."""
        return name in self.scope.device_functions and len(self.inline_stack) < _INLINE_DEPTH and \
            sum(ctx.function == name for ctx in self.inline_stack) < _RECURSION_DEPTH

    def _expands(self, name: str, node: Node) -> bool:
        """Is a call to `name`, which no helper of the file answers, a function-like macro's use,
        expanded in place (no collective or intrinsic of that name comes first)?"""
        if _ON_VALUES.handler(name) is not _declined or self.macro_depth >= 8:
            return False
        macro = self._macro(name, node)
        return macro is not None and macro.params is not None

    def _expanded_call(self, name: str, node: Node, arg_nodes: list[Node], env: Env) -> Val | None:
        """A function-like macro called in the kernel, expanded in place."""
        macro = self._macro(name, node)
        if macro is not None and macro.params is not None and self.macro_depth < 8:
            return self._expand_expression(macro, [text(a) for a in arg_nodes], env, node)
        return None

    def _min_max(self, name: str, node: Node, values: list[Val], record: bool) -> Val | None:
        if len(values) == 2 and all(isinstance(v, Scalar) for v in values):
            return Scalar(op(_MIN_MAX[name], values[0].expr, values[1].expr), values[0].type)
        return None

    def _abs(self, name: str, node: Node, values: list[Val], record: bool) -> Val | None:
        if len(values) == 1 and isinstance(values[0], Scalar):
            return Scalar(op("abs", values[0].expr), values[0].type)
        return None

    def _make_vector(self, name: str, node: Node, values: list[Val], record: bool) -> Val:
        """`make_float4(...)`: a value of the vector type, its members not followed."""
        return Scalar(Opaque(name), BUILTIN_TYPES[name[5:]])

    def _opaque_call(self, name: str, node: Node, values: list[Val], record: bool) -> Val:
        """A callee the lowering cannot see: its result is a function of its arguments, and it may
        touch the memory it is given (wmma, memcpy_async, a library)."""
        if record and name.startswith(_TEXTURE_FETCHES):  # global memory through the texture path, not modelled
            self.emit(OpaqueMemory(self._id(), *self._pos(node), "texture", name))
        if record:
            self._opaque_memory(node, [v.space for v in values if isinstance(v, Ptr | Loc) and v.space in
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
        definition = self._overload(self.scope.device_functions[name], values)
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


    def _overload(self, candidates: list[Node], values: list[Val]) -> Node:
        """The definition a call picks: of those taking as many arguments, the one whose parameter types
        match the most argument types (`acc_add(float&, ...)` beside `acc_add(float4&, ...)` called on a
        float4: the first of them took every call, and a float4 sum counted no FLOPs), the first on a tie."""
        fitting = [d for d in candidates if len(_parameters(d)) == len(values)] or candidates[:1]
        if len(fitting) == 1:
            return fitting[0]
        return max(fitting, key=lambda d: sum(self._same_type(p, v) for p, v in zip(_parameters(d), values)))

    def _same_type(self, parameter: Node, value: Val) -> bool:
        declared = self.type_of(text(parameter.child_by_field_name("type")))
        given = value.pointee if isinstance(value, Ptr) else getattr(value, "type", None)
        return declared is not None and declared is not UNKNOWN and given is not None and declared.name == given.name


def _parameters(definition: Node) -> list[Node]:
    declarator = function_declarator(definition)
    plist = declarator.child_by_field_name("parameters") if declarator is not None else None
    return [p for p in plist.named_children if "parameter" in p.type] if plist else []


@dataclass(frozen=True)
class _Dispatch:
    """Handlers of calls by exact name, then by family (a test of the name: `atomicAdd_block`)."""

    by_name: dict
    families: tuple = ()

    def handler(self, name: str):
        """The handler of calls to `name` (one that declines, returning None, where none is)."""
        found = self.by_name.get(name)
        return found if found is not None else next((h for matches, h in self.families if matches(name)), _declined)


def _declined(*_) -> None:
    return None


# handler(lowerer, name, node, argument nodes, env, record) -> Val | None
_ON_ARGUMENTS = _Dispatch(
    {**dict.fromkeys(_BLOCK_BARRIERS, Synchronisation._block_barrier),
     **dict.fromkeys(_GROUP_SYNCS, Synchronisation._group_sync_call),
     "__syncwarp": Synchronisation._syncwarp,
     "this_thread_block": Synchronisation._this_thread_block,
     "tiled_partition": Synchronisation._tiled_partition,
     "this_grid": Synchronisation._this_grid,
     "this_cluster": Synchronisation._this_cluster},
    ((_ATOMICS.match, Memory._atomic),
     (lambda name: name.startswith(_CACHED_LOADS), Memory._cached_load),
     (lambda name: name.startswith(_CACHED_STORES), Memory._cached_store)))
# handler(lowerer, name, node, argument values, record) -> Val | None
_ON_VALUES = _Dispatch({"reduce": Synchronisation._group_reduce},
                      ((_WARP_COLLECTIVES.match, Synchronisation._warp_intrinsic),))
_LIBRARY = _Dispatch({**dict.fromkeys(_MIN_MAX, Calls._min_max), "abs": Calls._abs},
                    ((lambda name: name.startswith("make_") and name[5:] in BUILTIN_TYPES, Calls._make_vector),))
