"""Floating-point work as Nsight Compute counts it: thread-level FADD/FMUL/FFMA (and the fp64,
fp16 and bf16 twins) executed, where an FFMA counts two operations.

nvcc contracts `a * b + c` into one FMA (``--fmad=true`` is the default), so a product whose only
use is an addition in the same block is counted as an FMA, not a multiply plus an add.  Division
and the math library expand into several instructions; their counts below are those of the
sm_90 SASS nvcc emits with default flags (IEEE division and square root, no fast math):
``a / b`` (fp32) is a reciprocal (MUFU, not counted) refined by 5 FFMA, ``sqrtf`` is MUFU.RSQ with
2 FMUL and 2 FFMA, ``__fdividef`` and ``__expf`` one FMUL beside the MUFU.  The other fp32 math
functions (``powf`` to ``atanf`` below) are counted from the PTX nvcc 13.0 emits for them (``nvcc -ptx
-O3 -arch=sm_90``, the library body inlined: its fma/mul/add.f32, slow paths included), on a machine
without the SASS tools; ``powf`` is 44 operations, not the one multiply a call looked like.
"""

from __future__ import annotations

from collections import Counter

from .ctype import CType
from .symbolic import Const, Expr

PRECISION = {"float": "fp32", "double": "fp64", "half": "fp16", "__half": "fp16",
             "__nv_bfloat16": "bf16", "nv_bfloat16": "bf16"}
_WIDTH = {"fp64": 3, "fp32": 2, "fp16": 1, "bf16": 1}

DIVISION = {"fp32": {"fma": 5}, "fp64": {"fma": 8, "mul": 1}, "fp16": {"fma": 5}, "bf16": {"fma": 5}}
MATH: dict[str, dict[str, int]] = {
    "fmaf": {"fma": 1}, "fma": {"fma": 1}, "__fmaf_rn": {"fma": 1}, "__fma_rn": {"fma": 1},
    "__fadd_rn": {"add": 1}, "__fmul_rn": {"mul": 1}, "__dadd_rn": {"add": 1}, "__dmul_rn": {"mul": 1},
    "__hadd": {"add": 1}, "__hmul": {"mul": 1}, "__hfma": {"fma": 1}, "__hsub": {"add": 1},
    "sqrtf": {"mul": 2, "fma": 2}, "__fsqrt_rn": {"mul": 2, "fma": 2},
    "__fdividef": {"mul": 1}, "__expf": {"mul": 1}, "__logf": {"mul": 1}, "__exp10f": {"mul": 1},
    "expf": {"fma": 2, "add": 1, "mul": 1}, "exp2f": {"add": 1},
    "powf": {"fma": 19, "mul": 10, "add": 15}, "logf": {"fma": 12, "mul": 2, "add": 1},
    "log2f": {"fma": 12, "mul": 3, "add": 2}, "log10f": {"fma": 12, "mul": 3, "add": 1},
    "log1pf": {"fma": 12, "mul": 2, "add": 1}, "expm1f": {"fma": 8, "mul": 2, "add": 4},
    "exp10f": {"fma": 3, "mul": 1, "add": 1}, "sinf": {"fma": 9, "mul": 3}, "cosf": {"fma": 9, "mul": 3},
    "tanhf": {"fma": 6, "mul": 2, "add": 1}, "erff": {"fma": 7, "mul": 1, "add": 1}, "atanf": {"fma": 9, "mul": 2},
    "rsqrtf": {}, "fabsf": {}, "fabs": {}, "fminf": {}, "fmaxf": {}, "fmin": {}, "fmax": {},
}


def precision(*types: CType) -> str | None:
    """The precision an arithmetic operation runs in (C promotion: double wins, then float)."""
    found = [PRECISION[t.name] for t in types if t.name in PRECISION]
    return max(found, key=_WIDTH.__getitem__) if found else None


def _is_power_of_two(expr: Expr) -> bool:
    if not isinstance(expr, Const) or expr.value == 0:
        return False
    mantissa = abs(expr.value)
    while mantissa >= 2:
        mantissa /= 2
    while mantissa < 1:
        mantissa *= 2
    return mantissa == 1


class WorkCounter:
    """Operation counts of the statement being lowered, with the products still open to FMA fusion."""

    def __init__(self) -> None:
        self.pending: Counter[str] = Counter()
        self._products: dict[int, tuple[str, int, Expr]] = {}  # id(product) -> (precision, block, product)
        self.counted = 0  # operations counted so far: code that counted none left no work behind

    def binary(self, operator: str, prec: str | None, left: Expr, right: Expr, result: Expr, block: int) -> None:
        if prec is None or isinstance(result, Const):
            return
        self.counted += 1
        if operator in ("+", "-"):
            for operand in (right, left):
                product = self._products.get(id(operand))
                if product is not None and product[0] == prec and product[1] == block and product[2] is operand:
                    del self._products[id(operand)]
                    self.pending[f"{prec}_mul"] -= 1
                    self.pending[f"{prec}_fma"] += 1
                    return
            self.pending[f"{prec}_add"] += 1
        elif operator == "*":
            self.pending[f"{prec}_mul"] += 1
            self._products[id(result)] = (prec, block, result)
        elif operator == "/":
            cost = {"mul": 1} if _is_power_of_two(right) else DIVISION[prec]
            self.add(prec, cost)

    def open_product(self, expr: Expr) -> bool:
        """Is `expr` itself a product an addition may still fuse with?"""
        product = self._products.get(id(expr))
        return product is not None and product[2] is expr

    def call(self, name: str, prec: str | None) -> None:
        cost = MATH.get(name)
        if cost is not None and prec is not None:
            self.add(prec, cost)

    def add(self, prec: str, cost: dict[str, int]) -> None:
        for kind, n in cost.items():
            self.pending[f"{prec}_{kind}"] += n

    def take(self) -> dict[str, int]:
        counts = {k: v for k, v in self.pending.items() if v}
        self.pending.clear()
        return counts
