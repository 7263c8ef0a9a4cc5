"""Symbolic index and condition expressions, evaluated on batches of lanes.

Indices are kept as small expression trees over named symbols (``tid.x``, ``bid.y``, ``bdim.x``,
``arg:n``, loop variables ...) so that every analysis can evaluate the same expression for
thousands of sampled lanes at once with numpy.  Values are float64 arrays; NaN means "not known
statically" (a value loaded from memory, a variable the lowering could not follow), which lets
unknowns flow through arithmetic without special cases.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

Value = np.ndarray | float

_SPELLING = {
    "tid": "threadIdx", "bid": "blockIdx", "bdim": "blockDim", "gdim": "gridDim",
}


class Expr:
    """Base class; subclasses are immutable and hashable so they can key caches."""

    __slots__ = ()
    is_int: bool = True

    def __add__(self, other: Expr | int) -> Expr:
        return op("+", self, lift(other))

    def __radd__(self, other: Expr | int) -> Expr:
        return op("+", lift(other), self)

    def __sub__(self, other: Expr | int) -> Expr:
        return op("-", self, lift(other))

    def __mul__(self, other: Expr | int) -> Expr:
        return op("*", self, lift(other))

    def __rmul__(self, other: Expr | int) -> Expr:
        return op("*", lift(other), self)


@dataclass(frozen=True, slots=True)
class Const(Expr):
    value: float
    is_int: bool = True

    def __str__(self) -> str:
        v = self.value
        return str(int(v)) if self.is_int and float(v).is_integer() else repr(float(v))


@dataclass(frozen=True, slots=True)
class Sym(Expr):
    """A named quantity: a thread/block coordinate, a launch dimension, a kernel argument, a loop counter."""

    name: str
    is_int: bool = True

    def __str__(self) -> str:
        head, _, tail = self.name.partition(".")
        if head in _SPELLING and tail:
            return f"{_SPELLING[head]}.{tail}"
        return self.name.split(":", 1)[-1]


@dataclass(frozen=True, slots=True)
class Load(Expr):
    """A value read from memory by access ``access_id``: data-dependent, never known statically."""

    access_id: int
    text: str
    is_int: bool = True

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Opaque(Expr):
    """A value the lowering could not express (an unmodelled call, a variable updated in complex ways)."""

    reason: str
    is_int: bool = True
    uniform: bool = False  # the same in every thread of the grid (a member of a by-value struct argument)
    # what the lost value is computed from, when the lowering knows (a helper's returns and the tests that
    # pick one; a loop's carried value): it varies no wider than they do
    follows: tuple[Expr, ...] = ()
    unseen: bool = False  # a name nothing in sight declares (a macro of a header the file does not include)

    def __str__(self) -> str:
        return f"?{self.reason}"


@dataclass(slots=True, eq=False, init=False)
class Op(Expr):
    """An operation.  Lowered code shares subtrees (`x = c ? x : y` repeated by a sorting network
    doubles the tree per step), so the hash and the tree size are computed once, at construction,
    from the arguments' own: hashing, comparing or sizing never walks the whole tree.  Immutable
    like every Expr, but not a frozen dataclass: the lowering builds some hundred thousand nodes
    per corpus pass, and a frozen one sets each of its nine slots through `object.__setattr__`."""

    name: str
    args: tuple[Expr, ...]
    is_int: bool = True
    size: int = field(default=1, repr=False)  # nodes of the tree, shared subtrees counted per use
    hashed: int = field(default=0, repr=False)
    spelled: str | None = field(default=None, repr=False)  # __str__, kept: the races compare values by it
    # free_symbols, loads_in and has_opaque, kept once asked: analyses ask them of one tree per pair of accesses
    symbols: frozenset[str] | None = field(default=None, repr=False)
    loads: tuple[Load, ...] | None = field(default=None, repr=False)
    opaque: bool | None = field(default=None, repr=False)

    def __init__(self, name: str, args: tuple[Expr, ...], is_int: bool = True) -> None:
        size = 1
        for a in args:
            size += a.size if a.__class__ is Op else 1
        self.name, self.args, self.is_int, self.size = name, args, is_int, size
        self.hashed = hash((name, args, is_int))
        self.spelled = self.symbols = self.loads = self.opaque = None

    def __hash__(self) -> int:
        return self.hashed

    def __reduce__(self):  # string hashes differ between processes: recompute on unpickling
        return Op, (self.name, self.args, self.is_int)

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Op) and self.hashed == other.hashed and self.name == other.name
                                 and self.is_int == other.is_int and self.args == other.args)

    def __str__(self) -> str:
        if self.spelled is None:
            self.spelled = self._spell()
        return self.spelled

    def _spell(self) -> str:
        a = self.args
        if self.name == "?:":
            return f"({a[0]} ? {a[1]} : {a[2]})"
        if len(a) == 1:
            return f"{self.name}({a[0]})" if self.name.isalpha() else f"{self.name}{_paren(a[0])}"
        if self.name.isalpha():
            return f"{self.name}({', '.join(map(str, a))})"
        return f"{_paren(a[0])} {self.name} {_paren(a[1])}"


def _paren(e: Expr) -> str:
    return f"({e})" if isinstance(e, Op) and len(e.args) > 1 and not e.name.isalpha() else str(e)


def lift(x: Expr | int | float) -> Expr:
    if isinstance(x, Expr):
        return x
    return Const(float(x), isinstance(x, int))


ZERO = Const(0.0)
# Larger trees (a value threaded through hundreds of data-dependent selects) become opaque: no
# analysis reads an index or condition that size, and evaluating it on every batch would dominate.
MAX_EXPR_NODES = 2048
ONE = Const(1.0)

_COMMUTATIVE = {"+", "*", "&", "|", "^", "==", "!="}
RELATIONS = ("<", "<=", ">", ">=", "==", "!=")  # ops comparing two values
_COMPARISONS = {*RELATIONS, "&&", "||", "!"}


def op(name: str, *args: Expr, is_int: bool | None = None) -> Expr:
    """Build an operation node, folding constants and trivial identities."""
    if is_int is None:
        is_int = name in _COMPARISONS or all(a.is_int for a in args)
    if name == "float":
        is_int = False
    elif name == "int":
        is_int = True
    if len(args) != 2:
        folded = _folded(name, args, is_int) if all(isinstance(a, Const) for a in args) else None
        return folded if folded is not None else _node(name, args, is_int)
    a, b = args
    const_a, const_b = isinstance(a, Const), isinstance(b, Const)
    if not (const_a or const_b):  # nothing to fold or drop: the lowering's commonest case
        return _node(name, args, is_int)
    folded = _folded(name, args, is_int) if const_a and const_b else None
    if folded is not None:
        return folded
    if name == "+":
        if a == ZERO:
            return b
        if b == ZERO:
            return a
    elif name == "-" and b == ZERO:
        return a
    elif name == "*":
        if a == ONE:
            return b
        if b == ONE:
            return a
        if (a == ZERO or b == ZERO) and is_int:
            return ZERO
    elif (name in (">>", "<<") and b == ZERO) or (name == "/" and b == ONE):
        return a
    if name in _COMMUTATIVE and const_a and not const_b:
        args = (b, a)
    return _node(name, args, is_int)


_PLAIN = {"+": operator.add, "-": operator.sub, "*": operator.mul}  # IEEE arithmetic, as numpy's


def _folded(name: str, args: tuple[Const, ...], is_int: bool) -> Const | None:
    """The operation on constants as a constant, when it gives a number."""
    if name in _PLAIN and len(args) == 2:
        value = _PLAIN[name](args[0].value, args[1].value)
    else:
        value = evaluate(Op(name, args, is_int), {})
    return Const(float(value), is_int) if np.isfinite(value) else None


def _node(name: str, args: tuple[Expr, ...], is_int: bool) -> Expr:
    node = Op(name, tuple(args), is_int)
    return node if node.size <= MAX_EXPR_NODES else Opaque("expression too large")


def free_symbols(expr: Expr) -> frozenset[str]:
    return _symbols(expr)


def _symbols(expr: Expr) -> frozenset[str]:
    if isinstance(expr, Sym):
        return frozenset((expr.name,))
    if isinstance(expr, Op):
        if expr.symbols is None:
            expr.symbols = frozenset().union(*(_symbols(a) for a in expr.args))
        return expr.symbols
    return frozenset()


def loads_in(expr: Expr) -> list[Load]:
    """Memory reads an expression depends on (what makes an index `indirect`)."""
    return list(_loads(expr))


def _loads(expr: Expr) -> tuple[Load, ...]:
    if isinstance(expr, Load):
        return (expr,)
    if isinstance(expr, Op):
        if expr.loads is None:
            expr.loads = tuple(ld for a in expr.args for ld in _loads(a))
        return expr.loads
    return ()


def has_opaque(expr: Expr) -> bool:
    if isinstance(expr, Opaque):
        return True
    if isinstance(expr, Op):
        if expr.opaque is None:
            expr.opaque = any(has_opaque(a) for a in expr.args)
        return expr.opaque
    return False


def substitute(expr: Expr, mapping: Mapping[str, Expr]) -> Expr:
    if isinstance(expr, Sym):
        return mapping.get(expr.name, expr)
    if isinstance(expr, Op):
        new = tuple(substitute(a, mapping) for a in expr.args)
        return expr if new == expr.args else op(expr.name, *new, is_int=expr.is_int)
    return expr


# ---------------------------------------------------------------- numeric evaluation

def _int(x: np.ndarray) -> np.ndarray:
    """Integers for the bitwise operators, 0 for NaN and the infinities (`np.where` does what
    `np.nan_to_num` did here at a third of its cost)."""
    return np.clip(np.where(np.isfinite(x), x, 0.0), -2.0**62, 2.0**62).astype(np.int64)


def _nan_where(result: np.ndarray, *inputs: Value) -> np.ndarray:
    """`result`, NaN wherever an input is (a known constant, most often one input, has no NaN to look for)."""
    bad = None
    for x in inputs:
        if not isinstance(x, float) or x != x:
            bad = np.isnan(x) if bad is None else bad | np.isnan(x)
    return np.asarray(result) if bad is None else np.where(bad, np.nan, result)


def _div(a: Value, b: Value, is_int: bool) -> Value:
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.divide(a, b)
        if is_int:
            q = np.trunc(q)
    return np.where(np.asarray(b) == 0, np.nan, q)


def _mod(a: Value, b: Value, is_int: bool) -> Value:
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.fmod(a, b)
    return np.where(np.asarray(b) == 0, np.nan, r)


def _bitwise(fn, a: Value, b: Value) -> Value:
    return _nan_where(fn(_int(np.asarray(a, dtype=float)), _int(np.asarray(b, dtype=float))).astype(float), a, b)


def _shift(a: Value, b: Value, left: bool) -> Value:
    """A shift by a negative count or past 62 bits, or one that overflows, is undefined: unknown."""
    ai, bi = _int(np.asarray(a, dtype=float)), np.clip(_int(np.asarray(b, dtype=float)), 0, 62)
    out = (np.left_shift(ai, bi) if left else np.right_shift(ai, bi)).astype(float)
    count = np.asarray(b, dtype=float)
    undefined = (count < 0) | (count > 62) | (left & (np.abs(np.asarray(a, dtype=float)) * 2.0 ** bi >= 2.0 ** 62))
    return _nan_where(np.where(undefined, np.nan, out), a, b)


def _and(a: Value, b: Value) -> Value:
    """0 where either side is 0, else unknown where either is, else 1."""
    return np.where((np.asarray(a) == 0) | (np.asarray(b) == 0), 0.0,
                    np.where(np.isnan(a) | np.isnan(b), np.nan, 1.0))


def _or(a: Value, b: Value) -> Value:
    """1 where either side is known and not 0, else unknown where either is, else 0."""
    unknown_a, unknown_b = np.isnan(a), np.isnan(b)
    return np.where(((np.asarray(a) != 0) & ~unknown_a) | ((np.asarray(b) != 0) & ~unknown_b), 1.0,
                    np.where(unknown_a | unknown_b, np.nan, 0.0))


def _compare(fn, a: Value, b: Value) -> Value:
    with np.errstate(invalid="ignore"):
        return _nan_where(fn(a, b).astype(float), a, b)


def _select(c: Value, a: Value, b: Value) -> Value:
    """`c ? a : b`; where `c` is unknown, the value both sides agree on (else unknown)."""
    agreed = np.where(np.asarray(a) == np.asarray(b), a, np.nan)
    return np.where(np.isnan(c), agreed, np.where(np.asarray(c) != 0, a, b))


_BINARY = {
    "+": lambda a, b, i: np.add(a, b),
    "-": lambda a, b, i: np.subtract(a, b),
    "*": lambda a, b, i: np.multiply(a, b),
    "/": _div,
    "%": _mod,
    "&": lambda a, b, i: _bitwise(np.bitwise_and, a, b),
    "|": lambda a, b, i: _bitwise(np.bitwise_or, a, b),
    "^": lambda a, b, i: _bitwise(np.bitwise_xor, a, b),
    "<<": lambda a, b, i: _shift(a, b, True),
    ">>": lambda a, b, i: _shift(a, b, False),
    "<": lambda a, b, i: _compare(np.less, a, b),
    "<=": lambda a, b, i: _compare(np.less_equal, a, b),
    ">": lambda a, b, i: _compare(np.greater, a, b),
    ">=": lambda a, b, i: _compare(np.greater_equal, a, b),
    "==": lambda a, b, i: _compare(np.equal, a, b),
    "!=": lambda a, b, i: _compare(np.not_equal, a, b),
    "&&": lambda a, b, i: _and(a, b),
    "||": lambda a, b, i: _or(a, b),
    "min": lambda a, b, i: np.minimum(a, b),
    "max": lambda a, b, i: np.maximum(a, b),
}

_UNARY = {
    "-": lambda a: np.negative(a),
    "!": lambda a: np.where(np.isnan(a), np.nan, (np.asarray(a) == 0).astype(float)),
    "~": lambda a: _nan_where((~_int(np.asarray(a, dtype=float))).astype(float), a),
    "int": lambda a: np.trunc(a),
    "float": lambda a: a,
    "abs": lambda a: np.abs(a),
    "bfind": lambda a: _bfind(np.asarray(a, dtype=float)),
}


def _bfind(a: np.ndarray) -> np.ndarray:
    """PTX `bfind.u32`: the position of the highest set bit, 0xffffffff for 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        word = np.mod(np.trunc(a), 2.0**32)
        return np.where(np.isnan(a), np.nan, np.where(word >= 1, np.floor(np.log2(np.maximum(word, 1))), 2.0**32 - 1))


def evaluable(expr: Op) -> bool:
    """Whether `evaluate` computes this operation (rather than giving NaN for a call it does not model)."""
    return expr.name == "?:" or expr.name in (_UNARY if len(expr.args) == 1 else _BINARY if len(expr.args) == 2 else ())


def evaluate(expr: Expr, env: Mapping[str, Value], cache: dict[Expr, Value] | None = None) -> Value:
    """Evaluate on numpy arrays (broadcasting); unknown symbols, loads and opaque values give NaN (a load
    whose value the sampler made up, `load:<access id>` in `env`, gives that).

    `cache` (keyed by the node: equal trees, whether shared or built apart, have equal values)
    reuses values of subexpressions common to the expressions evaluated on one environment, so an
    index like `blockIdx.x * blockDim.x + threadIdx.x` is computed once per batch, not once per
    access, also where each access's macro or helper call lowered it afresh.  An Op hashes in
    constant time and compares by identity first, so the key costs what an id did.
    Overflow and invalid operations (NaN is "unknown" here) are silenced once for the whole tree:
    entering numpy's error state per node cost more than the arithmetic on small batches; a tree
    already in the cache (a sixth of the calls) computes nothing and does not enter it at all."""
    if not isinstance(expr, Op):
        return _evaluate(expr, env, cache)
    if cache is not None:
        hit = cache.get(expr)
        if hit is not None:
            return hit
    with np.errstate(over="ignore", invalid="ignore"):
        return _evaluate(expr, env, cache)


def _evaluate(expr: Expr, env: Mapping[str, Value], cache: dict[Expr, Value] | None) -> Value:
    if isinstance(expr, Const):
        return expr.value
    if isinstance(expr, Sym):
        return env.get(expr.name, np.nan)
    if not isinstance(expr, Op):  # a load has the value the sampler made up for it (Sampler.fills), if any
        return env.get(f"load:{expr.access_id}", np.nan) if isinstance(expr, Load) else np.nan
    if cache is not None:
        hit = cache.get(expr)
        if hit is not None:
            return hit
    name, args = expr.name, expr.args
    if name == "?:":
        out = _select(*(_evaluate(a, env, cache) for a in args))
    elif len(args) == 2 and name in _BINARY:  # the operands one by one: no list per node
        out = _BINARY[name](_evaluate(args[0], env, cache), _evaluate(args[1], env, cache), expr.is_int)
    elif len(args) == 1 and name in _UNARY:
        out = _UNARY[name](_evaluate(args[0], env, cache))
    else:  # a call the evaluator does not model
        out = np.full(np.broadcast(*(_evaluate(a, env, cache) for a in args)).shape, np.nan)
    if cache is not None:
        cache[expr] = out
    return out
