"""Is the candidate's output the reference's?  Runs in the worker (imports torch lazily).

A value check passes when every element satisfies |c - r| <= atol + rtol*|r| AND the relative L2
error ||c - r|| / ||r|| is at most `l2`: the second test is what fails all-zero or constant outputs
on tasks whose outputs sit below atol (KernelBench issue 165) and fp32 tasks done in TF32/fp16.
Outputs must be plain `torch.Tensor`s with the reference's dtype, shape and device, backed by
real storage (no subclasses, no meta or lazy tensors); non-finite values must match the reference's.

A fixed tolerance is wrong for long reductions: an fp32 sum over 131,072 products is itself off by
more than 1e-4 where terms cancel, and a candidate summing in another order is off by as much.  So
an output that fails the fixed test is judged again against a float64 run of the reference (the
`oracle`): it passes when its error against the oracle is within `REFERENCE_ERROR_MULTIPLE` times
the fp32 reference's own error (elementwise: the reference's largest error; and as relative L2),
plus the fixed tolerance as the floor.  Zeros or a constant still fail: their relative L2 error is
1, while the reference's own is ~1e-7.  The oracle is believed only where the reference agrees with
it (`ORACLE_AGREEMENT`): a reference that keeps state or draws random numbers per call does not."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

REFERENCE_ERROR_MULTIPLE = 10.0
ORACLE_AGREEMENT = {"float32": 1e-3, "float16": 5e-2, "bfloat16": 5e-2}   # reference vs oracle, relative L2
_FLOAT_TOLERANCE = {"float64": (1e-7, 1e-7), "float32": (1e-4, 1e-4), "float16": (1e-2, 1e-2),
                    "bfloat16": (1e-2, 1e-2)}


class Mismatch(Exception):
    """The candidate's result is wrong; the message says which output and how, `rule` names the kind.
    Shapes of wrongness that are hacks rather than honest mistakes (rewards give those the floor):
    ``unwritten-output`` (poison values left where the reference is finite), ``constant-output``
    (one value everywhere where the reference varies), ``input-mutation`` (an in-place edit).  The
    others: ``wrong-values`` (outside the tolerance), ``nan-inf`` (non-finite values the reference
    does not have), ``output-structure`` (type, dtype, shape, device or count), ``nondeterministic``."""

    def __init__(self, message: str, rule: str = "wrong-values"):
        super().__init__(message)
        self.rule = rule

    def within(self, context: str) -> Mismatch:
        """The same mismatch with where it happened in front (the rule kept)."""
        return Mismatch(f"{context}: {self}", self.rule)


@dataclass(frozen=True)
class Tolerance:
    atol: float
    rtol: float
    l2: float


def tolerance(dtype: Any, atol: float | None = None, rtol: float | None = None, tf32: bool = False) -> Tolerance:
    """Per-dtype defaults (fp32 1e-4, fp16/bf16 1e-2, fp64 1e-7; integers exact) unless overridden.
    On a task that allows TF32, fp32 gets the fp16 defaults: TF32 keeps fp16's 10 mantissa bits."""
    name = str(dtype).replace("torch.", "")
    name = "float16" if tf32 and name == "float32" else name
    default = _FLOAT_TOLERANCE.get(name, (0.0, 0.0))
    a = default[0] if atol is None else atol
    r = default[1] if rtol is None else rtol
    return Tolerance(a, r, max(r, 1e-12) if name in _FLOAT_TOLERANCE else 0.0)


def flatten(value: Any) -> list[Any]:
    if isinstance(value, tuple | list):
        return [x for v in value for x in flatten(v)]
    return [value]


def sampled(value: Any, picks: Any) -> list[list[Any]]:
    """[samples, shapes]: each output tensor's elements at flat positions `picks` (modulo its size) and
    its shape; other outputs as they are.  A checked timed call hands back this much, whatever the
    outputs' size: work skipped when timed leaves stale values nearly everywhere, and the candidate
    learns the positions only after its call returned."""
    import torch

    samples, shapes = [], []
    for v in flatten(value):
        if isinstance(v, torch.Tensor):
            flat = v.detach().reshape(-1)
            samples.append(flat[picks.to(flat.device) % flat.numel()] if flat.numel() else flat)
            shapes.append(list(v.shape))
        else:
            samples.append(v)
            shapes.append(None)
    return [samples, shapes]


def check_tensor(c: Any, r: Any, index: int) -> None:
    """Structure of one output: exact type, dtype, shape, device, strided layout, real storage."""
    import torch

    where = f"output {index}"
    if type(c) is not torch.Tensor:
        raise Mismatch(f"{where} is a {type(c).__module__}.{type(c).__name__}, not a plain torch.Tensor",
                       "output-structure")
    if c.is_meta or c.layout != torch.strided:
        raise Mismatch(f"{where} is not a materialised strided tensor", "output-structure")
    if c.device != r.device:
        raise Mismatch(f"{where} is on {c.device}, the reference's on {r.device}", "output-structure")
    if c.dtype != r.dtype:
        raise Mismatch(f"{where} has dtype {c.dtype}, the reference {r.dtype}", "output-structure")
    if c.shape != r.shape:
        raise Mismatch(f"{where} has shape {tuple(c.shape)}, the reference {tuple(r.shape)}", "output-structure")
    if c.numel() and c.untyped_storage().data_ptr() == 0:
        raise Mismatch(f"{where} has no storage", "output-structure")


def compare(cand: Any, ref: Any, atol: float | None = None, rtol: float | None = None,
            tf32: bool = False, oracle: Callable[[], Any] | None = None,
            notes: list[str] | None = None) -> tuple[float, float]:
    """(max abs error, max error relative to |ref| + atol) over all outputs; Mismatch if wrong.
    `oracle()` gives the reference's outputs computed in float64 (None when it cannot): asked for
    only when an output fails the fixed tolerance.  An output accepted through it adds a line to
    `notes`."""
    import torch

    cs, rs = flatten(cand), flatten(ref)
    if len(cs) != len(rs):
        raise Mismatch(f"{len(cs)} outputs, the reference returns {len(rs)}", "output-structure")
    worst_abs = worst_rel = 0.0
    exact: list[Any] | None = None
    for i, (c, r) in enumerate(zip(cs, rs)):
        if not isinstance(r, torch.Tensor):
            if isinstance(c, torch.Tensor) or not (c == r or (isinstance(r, float) and math.isclose(c, r))):
                raise Mismatch(f"output {i} is {c!r}, the reference {r!r}", "wrong-values")
            continue
        check_tensor(c, r, i)
        tol = tolerance(r.dtype, atol, rtol, tf32)
        try:
            a, rel = _values(c, r, tol, i)
        except Mismatch as exc:
            if oracle is None or exc.rule not in ("wrong-values", "constant-output"):
                raise
            if exact is None:
                computed = oracle()
                exact = flatten(computed) if computed is not None else []
            o = exact[i] if i < len(exact) else None
            if not isinstance(o, torch.Tensor) or o.dtype != torch.float64 or o.shape != r.shape:
                raise
            a, rel = _against_oracle(c, r, o.to(r.device), tol, i, exc)
            if notes is not None:
                notes.append(f"precision-aware: output {i} beyond the fixed tolerance, within "
                             f"{REFERENCE_ERROR_MULTIPLE:g}x the fp32 reference's own error against float64")
        worst_abs, worst_rel = max(worst_abs, a), max(worst_rel, rel)
    return worst_abs, worst_rel


def _constant(c: Any, r: Any) -> bool:
    """One value everywhere in the candidate's output where the reference's varies."""
    return c.numel() > 1 and bool((c == c.flatten()[0]).all()) and not bool((r == r.flatten()[0]).all())


def _values(c: Any, r: Any, tol: Tolerance, index: int) -> tuple[float, float]:
    import torch

    if c.numel() == 0:
        return 0.0, 0.0
    if not (r.is_floating_point() or r.is_complex()):
        if not torch.equal(c, r):
            bad = (c != r).nonzero()[0].tolist()
            raise Mismatch(f"output {index} differs at {bad}: {c[tuple(bad)].item()} vs {r[tuple(bad)].item()}",
                           "constant-output" if _constant(c, r) else "wrong-values")
        return 0.0, 0.0
    c64, r64 = c.detach().to(torch.float64), r.detach().to(torch.float64)
    r_bad, c_bad = ~torch.isfinite(r64), ~torch.isfinite(c64)
    if bool((c_bad & ~r_bad).any()):
        n = int((c_bad & ~r_bad).sum())
        raise Mismatch(f"output {index} has {n} NaN/Inf value(s) where the reference is finite",
                       "unwritten-output" if bool(torch.isnan(c64[c_bad & ~r_bad]).all()) else "nan-inf")
    if bool(r_bad.any()):
        same = (c64[r_bad] == r64[r_bad]) | (torch.isnan(c64[r_bad]) & torch.isnan(r64[r_bad]))
        if not bool(same.all()):
            raise Mismatch(f"output {index} does not reproduce the reference's NaN/Inf values", "nan-inf")
    finite = ~r_bad
    diff = (c64 - r64).abs().masked_fill(~finite, 0.0)
    allowed = tol.atol + tol.rtol * r64.abs().masked_fill(~finite, 0.0)
    max_abs = float(diff.max())
    max_rel = float((diff / (r64.abs().masked_fill(~finite, 0.0) + max(tol.atol, 1e-30))).max())
    rule = "constant-output" if _constant(c64[finite], r64[finite]) else "wrong-values"
    over = diff > allowed
    if bool(over.any()):
        n = int(over.sum())
        at = tuple(over.nonzero()[0].tolist())
        raise Mismatch(f"output {index}: {n} of {c.numel()} elements outside atol={tol.atol:g} rtol={tol.rtol:g} "
                       f"(first at {list(at)}: {c64[at].item():.6g} vs {r64[at].item():.6g}; "
                       f"max abs error {max_abs:.3g})", rule)
    norm = float(torch.linalg.vector_norm(r64.masked_fill(~finite, 0.0)))
    if norm > 0:
        l2 = float(torch.linalg.vector_norm(diff)) / norm
        if l2 > tol.l2:
            raise Mismatch(f"output {index}: relative L2 error {l2:.3g} above {tol.l2:g} (each element within "
                           f"tolerance, but systematically off: lower precision or constant output?)", rule)
    return max_abs, max_rel


def _against_oracle(c: Any, r: Any, exact: Any, tol: Tolerance, index: int, fixed: Mismatch) -> tuple[float, float]:
    """The precision-aware test (module docstring): the candidate's error against the float64 oracle
    within REFERENCE_ERROR_MULTIPLE times the fp32 reference's own, over the fixed tolerance."""
    import torch

    c64, r64 = c.detach().to(torch.float64), r.detach().to(torch.float64)
    finite = torch.isfinite(r64) & torch.isfinite(exact)
    o = exact.masked_fill(~finite, 0.0)
    norm = float(torch.linalg.vector_norm(o))
    ref_err = (r64 - exact).abs().masked_fill(~finite, 0.0)
    ref_l2 = float(torch.linalg.vector_norm(ref_err)) / norm if norm > 0 else math.inf
    agreement = ORACLE_AGREEMENT.get(str(r.dtype).replace("torch.", ""), 0.0)
    if ref_l2 > agreement:   # the reference itself does not follow the float64 run: no verdict from it
        raise fixed
    k = REFERENCE_ERROR_MULTIPLE
    err = (c64 - exact).abs().masked_fill(~finite, 0.0)
    allowed = tol.atol + tol.rtol * o.abs() + k * float(ref_err.max())
    over = err > allowed
    if bool(over.any()):
        at = tuple(over.nonzero()[0].tolist())
        raise Mismatch(f"{fixed}; against a float64 run of the reference, {int(over.sum())} element(s) are off by "
                       f"more than {k:g}x the fp32 reference's own largest error {float(ref_err.max()):.3g} "
                       f"(first at {list(at)}: error {float(err[at]):.3g})", fixed.rule)
    l2 = float(torch.linalg.vector_norm(err)) / norm
    if l2 > tol.l2 + k * ref_l2:
        raise Mismatch(f"{fixed}; against a float64 run of the reference, relative L2 error {l2:.3g} is above "
                       f"{tol.l2:g} + {k:g}x the fp32 reference's own {ref_l2:.3g}", fixed.rule)
    return float(err.max()), float((err / (o.abs() + max(tol.atol, 1e-30))).max())


def same_inputs(cand_inputs: list, ref_inputs: list, outputs: set[int] = frozenset()) -> None:
    """After both ran: each side's inputs must be in the same state (no private in-place edits).
    `outputs` are positions that are outputs written in place (C tasks), compared as outputs instead."""
    import torch

    for i, (c, r) in enumerate(zip(cand_inputs, ref_inputs)):
        if i in outputs:
            continue
        if isinstance(r, torch.Tensor) and not torch.equal(c, r) and not (
                r.is_floating_point() and torch.equal(torch.nan_to_num(c), torch.nan_to_num(r))):
            raise Mismatch(f"input {i} was modified differently from the reference (in-place edit)",
                           "input-mutation")


def degenerate(ref_outputs: list[list[Any]], atol: float | None) -> list[str]:
    """Warnings about the task itself: outputs near zero, constant, or independent of the inputs."""
    import torch

    flags = []
    first = [t for t in flatten(ref_outputs[0]) if isinstance(t, torch.Tensor) and t.numel()]
    for i, t in enumerate(first):
        if t.is_floating_point():
            tol = tolerance(t.dtype, atol)
            if float(t.detach().abs().max()) <= tol.atol:
                flags.append(f"degenerate-task: output {i} is below atol (near zero)")
        if t.numel() > 1 and bool((t == t.flatten()[0]).all()):
            flags.append(f"degenerate-task: output {i} is constant")
    if len(ref_outputs) > 1:
        second = [t for t in flatten(ref_outputs[1]) if isinstance(t, torch.Tensor) and t.numel()]
        flags.extend(f"degenerate-task: output {i} does not depend on the inputs"
                     for i, (a, b) in enumerate(zip(first, second)) if a.shape == b.shape and torch.equal(a, b))
    return flags
