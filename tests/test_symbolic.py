"""C semantics of the symbolic evaluator (integer division, modulo, shifts, unknowns)."""

from __future__ import annotations

import numpy as np

from cudaperf.analysis.symbolic import Const, Load, Opaque, Sym, evaluate, free_symbols, loads_in, op


def ev(expr, **env):
    return evaluate(expr, {k.replace("_", "."): np.asarray(v, dtype=float) for k, v in env.items()})


def test_integer_division_and_modulo_truncate_toward_zero():
    x = Sym("x")
    assert list(ev(op("/", x, Const(2.0)), x=[-3, 3, 7])) == [-1, 1, 3]
    assert list(ev(op("%", x, Const(4.0)), x=[-5, 5, 7])) == [-1, 1, 3]


def test_float_division_is_real():
    x = Sym("x", is_int=False)
    assert float(ev(op("/", x, Const(2.0, False)), x=3.0)) == 1.5


def test_shifts_and_bitwise():
    x = Sym("x")
    assert list(ev(op(">>", x, Const(5.0)), x=[31, 32, 95])) == [0, 1, 2]
    assert list(ev(op("&", x, Const(31.0)), x=[31, 32, 33])) == [31, 0, 1]


def test_unknowns_propagate_as_nan_but_logic_short_circuits():
    unknown = Load(1, "a[i]")
    assert np.isnan(ev(op("+", unknown, Const(1.0))))
    assert float(ev(op("&&", Const(0.0), op("<", unknown, Const(3.0))))) == 0.0
    assert float(ev(op("||", Const(1.0), Opaque("x")))) == 1.0
    assert np.isnan(ev(op("&&", Const(1.0), Opaque("x"))))


def test_division_by_zero_is_unknown_not_an_error():
    assert np.isnan(ev(op("/", Sym("x"), Sym("y")), x=[1.0], y=[0.0]))[0]


def test_constant_folding_and_queries():
    e = op("+", op("*", Const(2.0), Const(3.0)), Sym("tid.x"))
    assert str(e) == "threadIdx.x + 6"
    assert free_symbols(e) == {"tid.x"}
    assert loads_in(op("*", Load(7, "idx[i]"), Const(4.0)))[0].access_id == 7
