"""Statements: blocks, branches (with early exits), switch, pragmas, returns and the arms of
preprocessor conditionals nvcc compiles; one handler per statement kind (_STATEMENTS)."""

from __future__ import annotations

import math
import re
from dataclasses import replace

from .. import budget
from ..ir import Branch
from ..parse import Node, text
from ..source import compiled_arm
from ..symbolic import ONE, Const, Expr, Op, Opaque, op
from .declarations import Declarations
from .expansions import Expansions
from .loops import _LOOPS, Loops, _BodySwap
from .syntax import _condition_text, _unparenthesized
from .values import Env, LoweringError, Ptr, Scalar, UnhandledSyntax, _opaque

_MAX_STATEMENTS = 20000

# statements with nothing to lower (control transfer the IR models elsewhere, declarations of names only)
_NOTHING_TO_LOWER = {"break_statement", "continue_statement", "comment", "type_definition", "alias_declaration",
                     "using_declaration", "static_assert_declaration", "namespace_alias_definition", "goto_statement",
                     "preproc_def", "preproc_function_def", "preproc_include", "preproc_undef", "template_declaration",
                     "struct_specifier", "class_specifier", "union_specifier", ";", "{", "}"}


class Statements:
    """The lowering of statements (a part of Lowerer)."""

    def block(self, node: Node, env: Env) -> None:
        env.push()
        self.statements_of(list(node.named_children), env)
        env.pop()

    def statements_of(self, children: list[Node], env: Env) -> None:
        # `#ifdef __CUDACC__ ... if (c) continue; #endif` guards what follows the #endif too: an arm
        # known to be compiled joins the list
        children = _glue_pragma_loops([s for c in children for s in (
            _first_arm(c) if self._compiled_arm(c) else [c])])
        index = 0
        while index < len(children):
            child = children[index]
            exiting = self._early_exit(child)
            if exiting is not None:
                self._guarded_rest(child, exiting, children[index + 1:], env)
                return
            following = children[index + 1] if index + 1 < len(children) else None
            if self._macro_call_loop(child, following, env):  # the macro and the block it heads
                index += 2
                continue
            self.statement(child, env)
            index += 1

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
            taken = condition is None or compiled_arm("if", text(condition), self.scope.source.macros)
        if taken:
            return _first_arm(node)
        alternative = node.child_by_field_name("alternative")
        return self._compiled_statements(alternative) if alternative is not None else []

    def _compiled_arm(self, node: Node) -> bool:
        """`#ifdef X` with X defined (nvcc defines __CUDACC__), or `#ifndef X` with X undefined."""
        if node.type != "preproc_ifdef" or node.child_by_field_name("name") is None:
            return False
        kind = "ifndef" if text(node.children[0]).startswith("#ifndef") else "ifdef"
        return compiled_arm(kind, text(node.child_by_field_name("name")), self.scope.source.macros)

    @staticmethod
    def _ends_in_exit(node: Node | None) -> bool:
        if node is None:
            return False
        if node.type in ("return_statement", "continue_statement", "break_statement"):
            return True
        if node.type == "compound_statement":
            named = [c for c in node.named_children if c.type != "comment"]
            return bool(named) and Statements._ends_in_exit(named[-1])
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

    def _compound(self, node: Node, env: Env) -> None:
        self.block(node, env)

    def _expression_statement(self, node: Node, env: Env) -> None:
        for child in node.named_children:
            if self._unseen_sync(child, env):  # `SYNC;` from a header that includes this file
                self._barrier(child, "block", text(child), removable=False, counted=True)
            else:
                self.rvalue(child, env)

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


def _exit_statement(node: Node | None) -> str | None:
    """The kind of statement an exiting block ends in (`return_statement`, ...)."""
    while node is not None and node.type == "compound_statement":
        named = [c for c in node.named_children if c.type != "comment"]
        node = named[-1] if named else None
    return node.type if node is not None else None


_PREPROC_CONDITIONALS = ("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif")


def _first_arm(node: Node) -> list[Node]:
    """The statements of a preprocessor conditional's first arm: both arms together would
    double-count work."""
    return [c for c in node.named_children
            if c.type not in ("preproc_else", "preproc_elif", "identifier", "preproc_defined",
                              "binary_expression", "number_literal", "parenthesized_expression",
                              "unary_expression", "call_expression")
            and node.field_name_for_child(list(node.children).index(c)) not in ("condition", "name")]


class _Block:
    """A synthetic compound statement holding nodes the parser left as siblings."""

    type = "compound_statement"

    def __init__(self, children: list):
        self.named_children = children
        self.children = children

    def child_by_field_name(self, name: str):
        return None


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


_LEAF_STATEMENTS = {"expression_statement", "declaration", "return_statement"}
_STATEMENTS = {
    "compound_statement": Statements._compound,
    "expression_statement": Statements._expression_statement,
    "declaration": Declarations._declaration,
    "if_statement": Statements._if,
    "for_statement": Loops._loop,
    "while_statement": Loops._loop,
    "do_statement": Loops._loop,
    "preproc_call": Statements._pragma,
    "return_statement": Statements._return,
    "switch_statement": Statements._switch,
    "function_definition": Expansions._nested_definition,
    "enum_specifier": Declarations._enumerators,
}
