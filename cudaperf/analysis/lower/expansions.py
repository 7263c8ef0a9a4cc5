"""Macros used in a kernel body: expressions expanded in place, statement macros that wrap a
loop (`CUDA_KERNEL_LOOP(i, n) { ... }`) lowered as that loop."""

from __future__ import annotations

from .. import parse
from ..macros import substitute
from ..parse import Node, text
from ..scope import function_name
from ..source import Macro
from .loops import _BodySwap
from .values import Env, Val, _opaque


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
