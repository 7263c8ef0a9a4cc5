"""Host code around a launch: evaluate ``<<<grid, block, smem>>>`` and argument expressions.

Only what literals and constants determine is resolved: declarations before the launch in the
same host function (``int n = 1 << 20; dim3 grid((n + 255) / 256);``), file constants, macros.
"""

from __future__ import annotations

import math

from . import parse
from .divergence import constant_period
from .launch import written_arguments
from .lower import Env, Lowerer, Scalar, snippet
from .macros import expand
from .parse import Node, descendants, enclosing_function, text
from .scope import FileScope, function_declarator, function_name
from .symbolic import ONE, Const, Expr, Op, Opaque, op

_BRANCHING = frozenset({"if_statement", "switch_statement", "for_statement", "for_range_loop", "while_statement",
                        "do_statement"})


def _forget_assigned(node: Node, env: Env, dims: dict[str, list[int | None]]) -> None:
    """Mark what a statement that may or may not run assigns as unknown (a whole `dim3` for
    `block.y = 4`), so that later statements and the launch do not take it for a fact."""
    for child in node.named_children:
        if child.type not in ("assignment_expression", "update_expression"):
            continue
        target = child.child_by_field_name("left") or child.child_by_field_name("argument")
        axis = None
        while target is not None and target.type == "field_expression":
            axis = text(target.child_by_field_name("field"))
            target = target.child_by_field_name("argument")
        if target is None or target.type != "identifier":
            continue
        name = text(target)
        if name in dims and axis in ("x", "y", "z"):
            dims[name]["xyz".index(axis)] = None
            env.declare(f"{name}.{axis}", Scalar(Opaque("assigned under a condition")))
        else:
            dims.pop(name, None)
            env.declare(name, Scalar(Opaque("assigned under a condition")))


class HostResolver:
    """`values` are the user's --arg values: they stand for host variables and host-function
    parameters of the same name that the source does not fix (`int n` of a launcher function,
    `auto size = a.numel()` in a torch wrapper)."""

    def __init__(self, scope: FileScope, values: dict[str, float] | None = None):
        self.scope = scope
        self.values = {k: v for k, v in (values or {}).items() if isinstance(v, (int, float))}
        self._envs: dict[tuple[int, int], tuple[Env, dict[str, list[int | None]]]] = {}
        self._keys: dict[Node, tuple[int, int]] = {}  # _envs' key per launch node
        self._calls: dict[str, list[tuple[Node, list[Node]]]] = {}  # by the called name (_calls_of)
        self._matched: list[tuple[str, Node, Node]] | None = None  # every call: callee, call, arguments
        self._expanded: dict[int, Node | None] = {}  # a macro's call (by its index there) expanded
        self._bodies = ""  # the macros' bodies
        self._resolving: set[int] = set()  # host functions whose callers are being evaluated
        self._passed: dict[int, dict[str, Expr]] = {}  # _caller_arguments per host function
        # per host function: launches (and calls) whose environment is known, with the ids their
        # lowering used, that environment (with its dim3 values) and the parameters' values it began from
        self._points: dict[int, list[tuple[Node, int, Env, dict, dict]]] = {}
        # per host function, what every launch in it reads: its statements, the addresses it takes
        self._gathered: dict[int, tuple[tuple[Node, tuple[tuple[int, int], ...]], ...]] = {}
        self._taken: dict[int, tuple[tuple[int, str], ...]] = {}
        self._inert_at: dict[int, bool] = {}  # _inert per statement

    def _env(self, launch: Node) -> tuple[Env, dict[str, list[int | None]], Lowerer]:
        lowerer = Lowerer(self.scope)
        lowerer.addresses_written = False
        lowerer.reuse_expansions = False
        known = self._envs.get(self._keys.get(launch))
        if known is not None:  # a launch asked for again (some twenty times each): no walk up to its function
            env, dims = known
            return env, dims, lowerer
        fn = enclosing_function(launch)
        env, dims = Env(), {}
        if fn is None:
            return env, dims, lowerer
        key = self._keys[launch] = (fn.start_byte, launch.start_byte)
        if key in self._envs:
            env, dims = self._envs[key]
            return env, dims, lowerer
        passed = self._caller_arguments(fn)
        since = self._resumable(fn, launch, passed)
        if since is not None:  # the statements up to an earlier launch are evaluated already: go on from there
            since, lowerer.next_id, env, dims, _ = since  # new values get ids of their own
            env, dims = env.copy(), {name: list(values) for name, values in dims.items()}
        else:
            for name, value in self.values.items():  # host-function parameters
                env.declare(name, Scalar(Const(float(value), float(value).is_integer())))
            for name, value in passed.items():
                if name not in self.values:
                    env.declare(name, Scalar(value))
        start, at = since.start_byte if since is not None else -1, launch.start_byte
        # (node, under a branch or loop that leaves the launch out, under any branch or loop)
        ordered = [(node, any(not first <= at < end for first, end in around), bool(around))
                   for node, around in self._statements(fn) if start <= node.start_byte < at]
        # the last statement under no branch or loop: the statements before it are judged alike for
        # every later launch of the function, which goes on from the environment just before it
        checkpoint = max((i for i, (_, _, nested) in enumerate(ordered) if not nested), default=0)
        # a variable a loop around the launch changes keeps its first value: the launch is judged
        # at the loop's first iteration, which it does run
        forgotten = sorted(((byte, name) for byte, name in self._addresses(fn)
                            if name not in self.values and start <= byte < at), reverse=True)
        for i, (node, conditional, _) in enumerate(ordered):
            while forgotten and forgotten[-1][0] < node.start_byte:
                env.declare(forgotten.pop()[1], Scalar(Opaque(_WRITTEN_THROUGH_ADDRESS)))
            if i == checkpoint and i > 0:
                self._points.setdefault(fn.start_byte, []).append(
                    (node, lowerer.next_id, env.copy(), {name: list(values) for name, values in dims.items()}, passed))
            if conditional:  # `if (rows == 0) rows = 1;`: afterwards the value is unknown
                _forget_assigned(node, env, dims)
                continue
            if node.type == "declaration" and text(node.child_by_field_name("type")) == "dim3":
                for declarator in node.children_by_field_name("declarator"):
                    name, axes = self._dim3(declarator, env, lowerer)
                    if name:
                        _declare_dims(name, axes, env, dims)
                continue
            if self._dim3_assignment(node, dims, env, lowerer) or self._inert(node):
                continue
            try:
                lowerer.statement(node, env)
            except RecursionError:
                continue
            for name, value in self.values.items():  # a value the source leaves unknown
                current = env.lookup(name)
                if isinstance(current, Scalar) and not isinstance(current.expr, Const):
                    env.assign(name, Scalar(Const(float(value), float(value).is_integer())))
        for _, name in forgotten:
            env.declare(name, Scalar(Opaque(_WRITTEN_THROUGH_ADDRESS)))
        self._envs[key] = (env, dims)
        # a point later launches of the function may go on from, as it is now: evaluating the
        # launch's arguments may change it (`k<<<g, b>>>(i++)`)
        self._points.setdefault(fn.start_byte, []).append(
            (launch, lowerer.next_id, env.copy(), {name: list(values) for name, values in dims.items()}, passed))
        return env, dims, lowerer

    def _statements(self, fn: Node) -> tuple[tuple[Node, tuple[tuple[int, int], ...]], ...]:
        """The declarations and expression statements of host function `fn` in source order, each
        with the byte spans of the branches and loops around it (gathered once for all its launches)."""
        if fn.start_byte not in self._gathered:
            self._gathered[fn.start_byte] = _statements_in(fn.child_by_field_name("body"))
        return self._gathered[fn.start_byte]

    def _addresses(self, fn: Node) -> tuple[tuple[int, str], ...]:
        """(byte, name) of each `&name` in host function `fn`: from there the host code no longer
        knows the variable's value (`int size = -1; parseCommandline(argc, argv, &size);`)."""
        if fn.start_byte not in self._taken:
            body = fn.child_by_field_name("body")
            self._taken[fn.start_byte] = tuple((m["address"][0].start_byte, text(m["name"][0]))
                                               for m in parse.matches("addresses", body)) if body is not None else ()
        return self._taken[fn.start_byte]

    def _inert(self, node: Node) -> bool:
        """A statement that changes no variable: no assignment or update, no call of a function or
        macro the lowering would expand (`printf(...)`, `cudaFree(d)`; an address it takes is
        forgotten on its own, _addresses); judged once per statement for all launches after it."""
        if node.type != "expression_statement":
            return False
        if node.start_byte not in self._inert_at:
            macros, functions = self.scope.source.macros, self.scope.device_functions
            self._inert_at[node.start_byte] = not any(
                n.type in ("assignment_expression", "update_expression") or
                (n.type == "identifier" and (text(n) in macros or text(n) in functions)) for n in descendants(node))
        return self._inert_at[node.start_byte]

    def _resumable(self, fn: Node, launch: Node, passed: dict[str, Expr]) -> tuple[Node, int, Env, dict, dict] | None:
        """The latest point before `launch` whose environment was computed from the same values of
        the function's parameters (`passed`, _caller_arguments: inside the evaluation of another
        function's callers they may be cut short) and whose every enclosing branch or loop also
        encloses `launch`: the statements before it are then judged the same way for both
        (conditional for one exactly when conditional for the other), so `launch` goes on from its
        environment.  A function's calls (a value passed to `run(n)` at each) go on from each other
        as its launches do."""
        best = None
        for found in self._points.get(fn.start_byte, ()):
            point = found[0]
            if point.start_byte >= launch.start_byte or (best is not None and point.start_byte <= best[0].start_byte) \
                    or not _same_values(found[4], passed):
                continue
            node = point.parent
            while node is not None and node.start_byte != fn.start_byte and \
                    (node.type not in _BRANCHING or node.start_byte <= launch.start_byte < node.end_byte):
                node = node.parent
            if node is None or node.start_byte == fn.start_byte:
                best = found
        return best

    def _caller_arguments(self, fn: Node) -> dict[str, Expr]:
        """Parameters of a host function that every call of it in the file passes one constant
        (`benchmark(..., num)` after `const int num = 2048;`) or a multiple of one constant (`run(n)`
        after `n = k * 1024`): a launch inside sees that value, or such a multiple."""
        if fn.start_byte in self._passed:
            return self._passed[fn.start_byte]
        calls = self._calls_of(fn)
        declarator = function_declarator(fn)
        parameters = declarator.child_by_field_name("parameters") if declarator is not None else None
        if not calls or parameters is None or fn.start_byte in self._resolving:
            return {}
        names = [_parameter_name(p) for p in parameters.named_children if p.type == "parameter_declaration"]
        if not all(len(args) == len(names) for _, args in calls):
            return {}
        self._resolving.add(fn.start_byte)
        try:
            passed = {name: [self._rvalue(args[i], call) for call, args in calls]
                      for i, name in enumerate(names) if name}
        finally:
            self._resolving.discard(fn.start_byte)
        out: dict[str, Expr] = {}
        for name, values in passed.items():
            period = math.gcd(*(constant_period(v) if v is not None else 1 for v in values))
            if all(isinstance(v, Const) and math.isfinite(v.value) for v in values) and len(set(values)) == 1:
                out[name] = values[0]
            elif period > 1:
                out[name] = op("*", Opaque(f"argument {name}"), Const(float(period)), is_int=True)
        if not self._resolving:  # not computed inside another function's callers, where cycles are cut short
            self._passed[fn.start_byte] = out
        return out

    def _calls_of(self, fn: Node) -> list[tuple[Node, list[Node]]]:
        """The calls of host function `fn` in the file, with their arguments, in the order written:
        by its name, and through a function-like macro that expands to one (`BENCHMARK(0, ...)`
        calling benchmark(...)).  A macro's call is expanded only where the name can come out of it
        (it is in the call, in a macro's body, or a body pastes tokens): most are `CHECK(...)`s."""
        if self._matched is None:
            root = fn
            while root.parent is not None:
                root = root.parent
            self._matched = [(text(m["callee"][0]), m["call"][0], m["arguments"][0])
                             for m in parse.matches("calls", root)]
            self._bodies = "\n".join(macro.body for macro in self.scope.source.macros.values())
        name = function_name(fn)
        if name not in self._calls:
            macros, found = self.scope.source.macros, []
            in_bodies = name in self._bodies or "##" in self._bodies
            for index, (callee, call, arguments) in enumerate(self._matched):
                if callee == name:
                    found.append((call, written_arguments(arguments)))
                macro = macros.get(callee)
                if macro is None or macro.params is None or not (in_bodies or name in text(call)):
                    continue
                if index not in self._expanded:
                    self._expanded[index] = _macro_call(text(call), macros)
                expanded = self._expanded[index]
                if expanded is not None and text(expanded.child_by_field_name("function")) == name:
                    found.append((call, written_arguments(expanded.child_by_field_name("arguments"))))
            self._calls[name] = found
        return self._calls[name]

    def _dim3(self, declarator: Node, env: Env, lowerer: Lowerer) -> tuple[str, list[Expr | None]]:
        """The name a `dim3` declarator declares and its three axes (None: any value)."""
        if declarator.type == "init_declarator":
            name = text(declarator.child_by_field_name("declarator"))
            value = declarator.child_by_field_name("value")
            if value is not None and value.type in ("argument_list", "initializer_list"):
                return name, self._axes(value.named_children, env, lowerer)
            if value is not None and value.type == "call_expression":
                args = value.child_by_field_name("arguments")
                return name, self._axes(args.named_children if args else [], env, lowerer)
            return name, _scalar_axes(self._expr(value, env, lowerer))
        if declarator.type == "function_declarator":  # dim3 grid(x, y) parses as a declarator
            name = text(declarator.child_by_field_name("declarator"))
            params = declarator.child_by_field_name("parameters")
            return name, self._axes(params.named_children if params else [], env, lowerer)
        return text(declarator), [ONE, ONE, ONE]

    def _dim3_assignment(self, node: Node, dims: dict[str, list[int | None]], env: Env, lowerer: Lowerer) -> bool:
        """`block.x = 256;` or `grid = dim3(n / 256, 4);` after `dim3 grid, block;`: update the dims."""
        assignment = node.named_children[0] if node.type == "expression_statement" and node.named_children else None
        if assignment is None or assignment.type != "assignment_expression" or text(assignment.child(1)) != "=":
            return False
        left, right = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
        if left is None or right is None:
            return False
        if left.type == "field_expression":
            name, axis = text(left.child_by_field_name("argument")), text(left.child_by_field_name("field"))
            if name not in dims or axis not in ("x", "y", "z"):
                return False
            axes = [_lookup(env, f"{name}.{a}") for a in "xyz"]
            axes["xyz".index(axis)] = self._expr(right, env, lowerer)
        elif left.type == "identifier" and text(left) in dims:
            name = text(left)
            if right.type == "call_expression" and text(right.child_by_field_name("function")) == "dim3":
                args = right.child_by_field_name("arguments")
                axes = self._axes(args.named_children if args else [], env, lowerer)
            elif right.type == "initializer_list":
                axes = self._axes(right.named_children, env, lowerer)
            else:
                axes = _scalar_axes(self._expr(right, env, lowerer))
        else:
            return False
        _declare_dims(name, axes, env, dims)
        return True

    def _axes(self, nodes: list[Node], env: Env, lowerer: Lowerer) -> list[Expr | None]:
        return [self._expr(n, env, lowerer) for n in nodes[:3]] + [ONE] * (3 - len(nodes[:3]))

    def _values(self, nodes: list[Node], env: Env, lowerer: Lowerer) -> list[int | None]:
        return [_integer(e) for e in self._axes(nodes, env, lowerer)]

    @staticmethod
    def _expr(node: Node | None, env: Env, lowerer: Lowerer) -> Expr | None:
        if node is None:
            return None
        if node.type == "parameter_declaration":  # `dim3 g(n)` where the parser saw a type name
            node = node.child_by_field_name("type") or node
        value = lowerer.rvalue(node, env, record=False)
        return value.expr if isinstance(value, Scalar) else None

    @classmethod
    def _int(cls, node: Node | None, env: Env, lowerer: Lowerer) -> int | None:
        return _integer(cls._expr(node, env, lowerer))

    def __call__(self, node: Node, launch: Node, dim3: bool) -> list[int | None] | None:
        env, dims, lowerer = self._env(launch)
        if dim3:
            if node.type == "identifier" and text(node) in dims:
                values = dims[text(node)]
            elif node.type == "call_expression" and text(node.child_by_field_name("function")) == "dim3":
                args = node.child_by_field_name("arguments")
                values = self._values(args.named_children if args else [], env, lowerer)
            else:
                values = _scalar_dims(self._int(node, env, lowerer))
            known = [v for v in values if v is not None]  # `dim3(32, rows)` with `rows` a runtime value
            return values if known and all(v > 0 for v in known) else None
        value = self._int(node, env, lowerer)
        return [value] if value is not None else None

    def quotients(self, grid: Node, arguments: list[Node], launch: Node) -> list[tuple[int, int] | None]:
        """Per argument, (axis, c) when the launch's grid along that axis is the argument divided by
        the constant c, rounded down (`dim3 grid(num / 32)` then `k<<<grid, ...>>>(num)`): whatever
        its value, the argument is then gridDim * c plus less than c (hexciton's final_gpu_kernel,
        whose blocks of 32 items never pass `num`).  The same value, not an equal one: two reads of
        `atoi(argv[...])` look alike."""
        env, dims, lowerer = self._env(launch)
        if grid.type == "identifier" and text(grid) in dims:
            axes = [_lookup(env, f"{text(grid)}.{a}") for a in "xyz"]
        elif grid.type == "call_expression" and text(grid.child_by_field_name("function")) == "dim3":
            args = grid.child_by_field_name("arguments")
            axes = self._axes(args.named_children if args else [], env, lowerer)
        else:
            axes = _scalar_axes(self._expr(grid, env, lowerer))
        divided = {}
        for axis, value in enumerate(axes):
            divisor = 1
            while isinstance(value, Op) and value.name == "/" and value.is_int and isinstance(value.args[1], Const) \
                    and value.args[1].value >= 1 and float(value.args[1].value).is_integer():
                value, divisor = value.args[0], divisor * int(value.args[1].value)
            if divisor > 1:
                divided[id(value)] = (axis, divisor)
        return [divided.get(id(self._rvalue(a, launch))) for a in arguments]

    def loop_varied(self, node: Node, at: Node, depth: int = 0) -> bool:
        """Does `node` name the counter of a loop around `at` that scales it, here or at every call
        of the host function holding `at` that passes it (graphExecution: `for (size = 512; size <=
        1 << 27; size *= 512) run(..., size)`)?  The value resolved is then the loop's first size,
        not the one the program does most of its work at.  A counter stepped by adding (a time
        step, an offset: `t++`, `offset += BLOCK`) sweeps no sizes and is left as it is."""
        if node.type != "identifier" or depth > 3:
            return False
        name, fn = text(node), at.parent
        while fn is not None and fn.type != "function_definition":
            update = fn.child_by_field_name("update") if fn.type == "for_statement" else None
            if update is not None and _scales(update, name):
                return True
            fn = fn.parent
        declarator = function_declarator(fn) if fn is not None else None
        parameters = declarator.child_by_field_name("parameters") if declarator is not None else None
        if parameters is None:
            return False
        names = [_parameter_name(p) for p in parameters.named_children if p.type == "parameter_declaration"]
        if name not in names:
            return False
        self._caller_arguments(fn)  # the callers' environments, evaluated in the order a launch inside would
        calls = [(call, args) for call, args in self._calls_of(fn) if len(args) == len(names)]
        return bool(calls) and all(self.loop_varied(args[names.index(name)], call, depth + 1) for call, args in calls)

    def period(self, node: Node, launch: Node) -> int:
        """The constant a value the host leaves unknown is a multiple of (`n = k * 1024`,
        `n = (m + 255) / 256 * 256`, `m << 8`); 1 when none."""
        value = self._rvalue(node, launch)
        return constant_period(value) if value is not None else 1

    def _rvalue(self, node: Node, at: Node) -> Expr | None:
        """The host expression `node` stands for at `at` (None: not a scalar)."""
        env, _, lowerer = self._env(at)
        value = lowerer.rvalue(node, env, record=False)
        return value.expr if isinstance(value, Scalar) else None


def _scales(update: Node, name: str) -> bool:
    """Does a loop's update multiply, divide or shift `name` (`n *= 2`, `n <<= 1`, `n = n * 512`)?"""
    for node in descendants(update):
        if node.type != "assignment_expression" or text(node.child_by_field_name("left")) != name:
            continue
        operator, right = text(node.child(1)), node.child_by_field_name("right")
        scaled = right is not None and right.type == "binary_expression" and \
            text(right.child(1)) in ("*", "/", "<<", ">>")
        if operator in ("*=", "/=", "<<=", ">>=") or (operator == "=" and scaled):
            return True
    return False


def _macro_call(call: str, macros: dict) -> Node | None:
    """A function-like macro's call expanded, when the expansion is one call of a named function
    (hexciton's `BENCHMARK(KID, ...)` -> `benchmark(sigma_in, ..., KID, ...)`)."""
    expansion = expand(call, macros).strip()
    node = snippet(expansion) if expansion and expansion != call else None
    while node is not None and node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    if node is None or node.type != "call_expression":
        return None
    function = node.child_by_field_name("function")
    return node if function is not None and function.type == "identifier" and \
        node.child_by_field_name("arguments") is not None else None


_WRITTEN_THROUGH_ADDRESS = "written through its address"


def _same_values(first: dict[str, Expr], second: dict[str, Expr]) -> bool:
    """Do two evaluations of a function begin from the same parameter values (the same objects, in
    the same order: a value computed again is another unknown)?"""
    return list(first) == list(second) and all(first[name] is second[name] for name in first)


def _statements_in(body: Node | None) -> tuple[tuple[Node, tuple[tuple[int, int], ...]], ...]:
    """HostResolver._statements of a function body."""
    stack: list[tuple[Node | None, tuple[tuple[int, int], ...]]] = [(body, ())]
    found: list[tuple[Node, tuple[tuple[int, int], ...]]] = []
    while stack:
        node, around = stack.pop()
        if node is None:
            continue
        if node.type in ("declaration", "expression_statement"):
            found.append((node, around))
            continue
        if node.type in _BRANCHING:
            around = (*around, (node.start_byte, node.end_byte))
        stack.extend((c, around) for c in reversed(node.named_children))
    found.sort(key=lambda n: n[0].start_byte)
    return tuple(found)


def _parameter_name(parameter: Node) -> str:
    """`n` of `const int n`, `int &n`, `size_t *n` (empty for an unnamed parameter)."""
    node = parameter.child_by_field_name("declarator")
    while node is not None and node.type != "identifier":
        node = node.child_by_field_name("declarator") or next(
            (c for c in node.named_children if c.type == "identifier"), None)
    return text(node)


def _scalar_dims(value: int | None) -> list[int | None]:
    """A scalar block or grid `n` is `dim3(n, 1, 1)`; an expression the host code leaves unknown
    may as well be a `dim3` of any shape."""
    return [value, 1, 1] if value is not None else [None, None, None]


def _scalar_axes(value: Expr | None) -> list[Expr | None]:
    """_scalar_dims of an expression: one the host leaves unknown is the x axis of a `dim3` of any
    other axes (`dim3 grid = n / 32`)."""
    return [value, ONE, ONE] if _integer(value) is not None else [value, None, None]


def _integer(value: Expr | None) -> int | None:
    return int(value.value) if isinstance(value, Const) and math.isfinite(value.value) else None


def _lookup(env: Env, name: str) -> Expr | None:
    found = env.lookup(name)
    return found.expr if isinstance(found, Scalar) else None


def _declare_dims(name: str, axes: list[Expr | None], env: Env, dims: dict[str, list[int | None]]) -> None:
    """A `dim3`'s axes: their constants in `dims`, every known expression (`num / 32` too) as
    `name.x`... in `env`, which resolve_launch reads to relate a grid to an argument."""
    dims[name] = [_integer(a) for a in axes]
    for axis, value in zip("xyz", axes):
        if value is not None:
            env.declare(f"{name}.{axis}", Scalar(Const(float(_integer(value))) if _integer(value) is not None
                                                 else value))
