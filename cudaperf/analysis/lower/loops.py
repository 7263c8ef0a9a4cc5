"""Loops: the counter becomes a symbol, affine induction variables follow it, other values the
body changes become carried or opaque; loads nvcc hoists leave the body."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from ..arith import WorkCounter
from ..ctype import UNKNOWN
from ..ir import CARRIED, Access, Barrier, Loop, walk
from ..parse import Node, descendants, text
from ..symbolic import ONE, ZERO, Const, Expr, Op, Opaque, Sym, free_symbols, has_opaque, lift, loads_in, op
from .syntax import LoopParts, _comma_parts, _identifiers, _mentions, loop_parts
from .values import Env, Ptr, Scalar, Val, _opaque


class Loops:
    """The lowering of for, while and do loops (a part of Lowerer)."""

    def _induction_steps(self, body: Node | None, names: set[str], env: Env, update: Node | None,
                         writes: Counter[str]) -> dict[str, Expr]:
        """Variables updated exactly once per iteration, at the body's top level or in the `for`
        header's update (`a += aStep, b += bStep`), by `v += e`, `v -= e` or `v++` with an e that no
        statement of the loop changes.  `writes`: the assignments per target in the body and update."""
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
        return {n: step for n, step in steps.items() if writes[n] == 1}

    def _loop(self, node: Node, env: Env) -> None:
        line, column = self._pos(node)
        unroll, self.pending_unroll = self.pending_unroll, None
        env.push()
        body = node.child_by_field_name("body")
        kind = node.type
        counter_name: str | None = None
        own: set[str] = set()  # declared by the loop's initializer: gone, and any outer namesake untouched, after it
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
                        own = {counter_name}
                else:
                    self.rvalue(init, env)
                    first = init.named_children[0] if init.type == "comma_expression" else init
                    if first.type == "assignment_expression":
                        counter_name = text(first.child_by_field_name("left"))
            update_node = node.child_by_field_name("update")
            header = loop_parts(update_node, False)
            names = header.assigned
            if counter_name not in names and names:  # `for (idx = tid, i = 0; ...; ++i)`: the header steps i
                counter_name = next(iter(sorted(names)))
        else:
            update_node, header = None, LoopParts()
        cond_node = node.child_by_field_name("condition")
        if cond_node is not None and self.volatile:
            self.spun_on |= self._waited_on(cond_node, body, env)
        parts = loop_parts(body, self.addresses_written)
        stepped_in_body = counter_name in parts.assigned
        assigned = parts.assigned
        assigned |= header.assigned
        steps = self._induction_steps(body, assigned, env, update_node, parts.writes + header.writes)
        if kind != "for_statement" and cond_node is not None:
            # while/do: the counter is a condition variable advanced once per iteration by `v += e`
            cond_names = _identifiers(cond_node)
            counter_name = next((n for n in steps if n in cond_names), None)
        loop_id = self._id()
        counter_sym = Sym(f"loop{loop_id}:{counter_name or 'it'}")
        followed = not parts.jumps and not header.jumps  # no break or continue: every iteration ends below
        carried: dict[str, Sym] = {}
        iteration_sym = Sym(f"iter{loop_id}")
        counter_val = env.lookup(counter_name) if counter_name else None
        init_expr: Expr = ZERO
        if isinstance(counter_val, Scalar):
            init_expr = counter_val.expr
        elif isinstance(counter_val, Ptr):
            init_expr = counter_val.offset
        # the body sees the counter symbol, affine induction variables, and opaque other updates
        for name in parts.addressed:
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
        exit_value = _exit_value(loop, init_expr) if kind == "for_statement" and followed and not stepped_in_body \
            and isinstance(counter_val, Scalar) and not counter_val.type.is_float else None
        for name in assigned - own:
            current, start = env.lookup(name), starts.get(name)
            if name == counter_name and exit_value is not None:
                env.assign(name, Scalar(exit_value, counter_val.type))
            elif isinstance(current, Scalar) and followed and isinstance(start, Scalar):
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


class _BodySwap:
    """A loop node from a macro expansion whose body is the user's block that followed the macro."""

    def __init__(self, loop: Node, body: Node):
        self._loop, self._body = loop, body
        self.type = loop.type

    def child_by_field_name(self, name: str):
        return self._body if name == "body" else self._loop.child_by_field_name(name)

    def __getattr__(self, item):
        return getattr(self._loop, item)


def _hoistable(loop: Loop) -> list[Access]:
    """Loads nvcc moves out of a loop: at the body's top level, with an address the loop does not
    change, in a loop that writes no memory and has no barrier (else aliasing forbids it)."""
    for stmt, _ in walk(loop.body):
        if isinstance(stmt, Barrier) or (isinstance(stmt, Access) and stmt.kind != "load"):
            return []
    varying = {loop.counter, loop.iteration}
    return [s for s in loop.body if isinstance(s, Access) and not (free_symbols(s.offset) & varying)
            and not loads_in(s.offset) and not has_opaque(s.offset)]


_LOOPS = ("for_statement", "while_statement")


def _header(node) -> str:
    body = node.child_by_field_name("body")
    full = text(node._loop if isinstance(node, _BodySwap) else node)
    if body is not None and not isinstance(node, _BodySwap):
        full = full[: body.start_byte - node.start_byte]
    return " ".join(full.split())[:80]


def _exit_value(loop: Loop, init: Expr) -> Expr | None:
    """The counter's value once `for (c = init; c + k < b; c += s)` (or `<=`) ends, for a step s that is
    a whole number above zero (`_positive_whole`) and k, b fixed while it runs:
    init + s * max(0, ceil((b - k - init) / s)).  The remainder loop that follows an unrolled one
    (`for (; c < b; c += s)`) starts there.  None for any other loop."""
    cond, step = loop.condition, loop.step
    if step is None or not _positive_whole(step) or not isinstance(cond, Op) or cond.name not in ("<", "<=") \
            or len(cond.args) != 2:
        return None
    left, bound = cond.args
    counter = Sym(loop.counter)
    if left == counter:
        offset: Expr = ZERO
    elif isinstance(left, Op) and left.name in ("+", "-") and len(left.args) == 2 and left.args[0] == counter:
        offset = left.args[1] if left.name == "+" else op("-", ZERO, left.args[1])
    elif isinstance(left, Op) and left.name == "+" and len(left.args) == 2 and left.args[1] == counter:
        offset = left.args[0]
    else:
        return None
    varying = {loop.counter, loop.iteration}
    if any(n in varying or n.startswith(CARRIED) for n in free_symbols(offset) | free_symbols(bound)) or \
            not (offset.is_int and bound.is_int and init.is_int):
        return None
    span = op("-", op("-", bound, offset), init)
    if cond.name == "<=":
        span = op("+", span, ONE)
    trips = op("max", ZERO, op("/", op("+", span, op("-", step, ONE)), step))
    return op("+", init, op("*", step, trips))


def _positive_whole(expr: Expr) -> bool:
    """A whole number above zero whatever the launch: a positive whole constant, a launch dimension
    (`gridDim.x * blockDim.x`, a grid-stride loop's step), sums and products of them."""
    if isinstance(expr, Const):
        return expr.value > 0 and float(expr.value).is_integer()
    if isinstance(expr, Sym):
        return expr.name.startswith(("gdim.", "bdim."))
    return isinstance(expr, Op) and expr.name in ("+", "*") and all(_positive_whole(a) for a in expr.args)


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
