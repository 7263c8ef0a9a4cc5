"""Macros used in a kernel body: expressions expanded in place, statement macros that wrap a
loop (`CUDA_KERNEL_LOOP(i, n) { ... }`) lowered as that loop."""

from __future__ import annotations

from functools import lru_cache

from .. import parse
from ..macros import substitute
from ..parse import Node, text
from ..scope import function_name
from ..source import Macro
from .expressions import _BUILTIN_VECTORS
from .loops import _BodySwap
from .values import Env, Ptr, Scalar, Val, _opaque


class Expansions:
    """The lowering of macro uses (a part of Lowerer)."""

    def _nested_definition(self, node: Node, env: Env) -> None:
        """A statement macro such as ``CUDA_KERNEL_LOOP(i, n) { ... }`` parses as a nested function."""
        body = node.child_by_field_name("body")
        declarator = node.child_by_field_name("declarator")
        params = declarator.child_by_field_name("parameters") if declarator is not None else None
        loop = self._macro_loop(function_name(node), [text(p) for p in params.named_children], node) \
            if body is not None and params is not None else None
        if loop is None:
            if body is not None:
                self.block(body, env)
            return
        self._with_position(node, lambda: self._loop_with_body(loop, body, env))

    def _macro_call_loop(self, node: Node, following: Node | None, env: Env) -> bool:
        """``KERNEL_LOOP(i, B * N * M) { ... }``, whose range does not parse as a parameter: a call
        missing its `;`, then a block.  Lowered as the loop the macro expands to, with that block as
        its body (True), where the macro expands to one."""
        call = parse.call_heading_block(node, following)
        if call is None:
            return False
        args = [text(a) for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
        loop = self._macro_loop(text(call.child_by_field_name("function")), args, node)
        if loop is None:
            return False
        self._with_position(node, lambda: self._loop_with_body(loop, following, env))
        return True

    def _macro_loop(self, name: str, args: list[str], node: Node) -> Node | None:
        """The loop a statement macro expands to with `args` (`for (int i = ...; i < n; ...)`), None
        where `name` is no function-like macro or expands to something else."""
        macro = self._macro(name, node, always=True)
        if macro is None or macro.params is None or self.macro_depth > 4:
            return None
        parsed = parse.parse(f"void __cudaperf_macro() {{ {substitute(macro, args)} {{}} }}".encode())
        fn = parsed.root_node.named_children[0] if parsed.root_node.named_children else None
        stmts = fn.child_by_field_name("body").named_children if fn is not None and \
            fn.child_by_field_name("body") is not None else []
        return stmts[0] if len(stmts) == 1 and stmts[0].type in ("for_statement", "while_statement") else None

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

    def _macro(self, name: str, node: Node | None, always: bool = False) -> Macro | None:
        """The definition of `name` in force where it is used: at the outermost use inside expansions
        (a file may redefine a macro between kernels)."""
        if not (self.expand_macros or always):
            return None
        line = (self.position or (parse.position(node) if node is not None else (0, 0)))[0]
        return self.scope.source.macro(name, line)

    def _expand_object(self, macro: Macro, env: Env, node: Node | None) -> Val:
        """An object-like macro's value: lowered once per lowering for the values the names it reads
        have, where its body is plain arithmetic (`#define ni (ilast - ifirst + 1)`, used at every
        index of a stencil), and again where lowering it counted work (its products fuse by identity)."""
        position = self.position or (parse.position(node) if node is not None else None)
        key = self._reuse_key(macro, env, self.macro_depth + 1, position[0]) \
            if self.reuse_expansions and position is not None else None
        if key is None:
            return self._expand_expression(macro, [], env, node)
        value = self.expansions.get(key)
        if value is not None and not (isinstance(value, Scalar) and self.work.open_product(value.expr)):
            return value
        work = self.work
        counted = work.counted
        value = self._expand_expression(macro, [], env, node)
        if self.work is work and work.counted == counted:
            self.expansions[key] = value
        return value

    def _reuse_key(self, macro: Macro, env: Env, depth: int, line: int) -> tuple | None:
        """What lowering `macro`'s body at `depth` inside expansions used at `line` depends on: the
        definition and, per name the body reads, what the name stands for (a local's value, the
        key of a macro it names); None where the body is not plain arithmetic or reads memory."""
        reads = _reads(macro)
        if reads is None:
            return None
        names, builtins = reads
        if any(env.lookup(b) is not None for b in builtins):
            return None
        parts: list = [macro]  # the depth matters only through what the names resolve to
        for name in names:
            part = self._stands_for(name, env, depth, line)
            if part is None:
                return None
            parts.append(part)
        return tuple(parts)

    def _stands_for(self, name: str, env: Env, depth: int, line: int) -> object | None:
        """What `name` resolves to inside an expansion, in Expressions.name's order: a local (by
        identity), the same thing for the whole lowering (a template argument, a name nothing
        declares: the name itself), a nested object-like macro (its key); None for memory (an array,
        a local location) and constants (lowered at the line of the outermost use)."""
        local = env.lookup(name)
        if local is not None:
            return _Same(local) if isinstance(local, (Scalar, Ptr)) else None
        if name in self.template_args or name in ("warpSize", "true", "false"):
            return name
        if self.scope.arrays.get(name) is not None or (self.scope.constants.get(name) is not None and depth < 8):
            return None
        nested = self.scope.source.macro(name, line) if self.expand_macros else None
        if nested is not None and nested.params is None and depth < 8:
            return self._reuse_key(nested, env, depth + 1, line)
        return name

    def _expand_expression(self, macro: Macro, args: list[str], env: Env, node: Node | None) -> Val:
        expansion = substitute(macro, args).strip()
        if not expansion:
            return _opaque("empty macro")
        tree = snippet(expansion)
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


class _Same:
    """A local's value in a reuse key: the same object, not an equal one (FMA fusion and struct
    copies tell values apart by identity)."""

    __slots__ = ("value",)

    def __init__(self, value: Val) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and self.value is other.value

    def __hash__(self) -> int:
        return id(self.value)


@lru_cache(maxsize=4096)
def _reads(macro: Macro) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The names an object-like macro's body reads and the builtin vectors (`threadIdx.x`) it
    reads, where the body is plain arithmetic on them: numbers, names, operators, casts.  None
    otherwise: a subscript or call reads memory or counts work, a conditional branches, an
    assignment changes a local."""
    tree = snippet(substitute(macro, []).strip())
    if tree is None:
        return None
    names: dict[str, None] = {}
    builtins: dict[str, None] = {}
    stack = [tree]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind == "identifier":
            names[text(node)] = None
        elif kind == "cast_expression":
            stack.extend(node.children_by_field_name("value"))
        elif kind == "field_expression":
            base = node.child_by_field_name("argument")
            if base.type != "identifier" or text(base) not in _BUILTIN_VECTORS or \
                    text(node.child_by_field_name("operator")) != "." or \
                    text(node.child_by_field_name("field")) not in ("x", "y", "z"):
                return None
            builtins[text(base)] = None
        elif kind in _OPERATIONS:
            stack.extend(node.named_children)
        elif kind not in _LITERALS:
            return None
    return tuple(names), tuple(builtins)


_OPERATIONS = frozenset(("parenthesized_expression", "binary_expression", "unary_expression"))
_LITERALS = frozenset(("number_literal", "char_literal", "true", "false", "null", "nullptr"))
_SNIPPETS: dict[str, Node | None] = {}


def snippet(expression: str) -> Node | None:
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
