"""Is the candidate's output the reference's?  Runs in the worker (imports torch lazily).

A value check passes when every element satisfies |c - r| <= atol + rtol*|r| AND the relative L2
error ||c - r|| / ||r|| is at most `l2`: the second test is what fails all-zero or constant outputs
on tasks whose outputs sit below atol (KernelBench issue 165) and fp32 tasks done in TF32/fp16.
Outputs must be plain `torch.Tensor`s with the reference's dtype, shape and device, backed by
real storage (no subclasses, no meta or lazy tensors); non-finite values must match the reference's."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

_FLOAT_TOLERANCE = {"float64": (1e-7, 1e-7), "float32": (1e-4, 1e-4), "float16": (1e-2, 1e-2),
                    "bfloat16": (1e-2, 1e-2)}


class Mismatch(Exception):
    """The candidate's result is wrong; the message says which output and how.  `rule` names the
    shapes of wrongness that are hacks rather than honest mistakes (rewards give those the floor):
    ``unwritten-output`` (poison values left where the reference is finite), ``constant-output``
    (one value everywhere where the reference varies), ``input-mutation`` (an in-place edit)."""

    def __init__(self, message: str, rule: str | None = None):
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


def check_tensor(c: Any, r: Any, index: int) -> None:
    """Structure of one output: exact type, dtype, shape, device, strided layout, real storage."""
    import torch

    where = f"output {index}"
    if type(c) is not torch.Tensor:
        raise Mismatch(f"{where} is a {type(c).__module__}.{type(c).__name__}, not a plain torch.Tensor")
    if c.is_meta or c.layout != torch.strided:
        raise Mismatch(f"{where} is not a materialised strided tensor")
    if c.device != r.device:
        raise Mismatch(f"{where} is on {c.device}, the reference's on {r.device}")
    if c.dtype != r.dtype:
        raise Mismatch(f"{where} has dtype {c.dtype}, the reference {r.dtype}")
    if c.shape != r.shape:
        raise Mismatch(f"{where} has shape {tuple(c.shape)}, the reference {tuple(r.shape)}")
    if c.numel() and c.untyped_storage().data_ptr() == 0:
        raise Mismatch(f"{where} has no storage")


def compare(cand: Any, ref: Any, atol: float | None = None, rtol: float | None = None,
            tf32: bool = False) -> tuple[float, float]:
    """(max abs error, max error relative to |ref| + atol) over all outputs; Mismatch if wrong."""
    import torch

    cs, rs = flatten(cand), flatten(ref)
    if len(cs) != len(rs):
        raise Mismatch(f"{len(cs)} outputs, the reference returns {len(rs)}")
    worst_abs = worst_rel = 0.0
    for i, (c, r) in enumerate(zip(cs, rs)):
        if not isinstance(r, torch.Tensor):
            if isinstance(c, torch.Tensor) or not (c == r or (isinstance(r, float) and math.isclose(c, r))):
                raise Mismatch(f"output {i} is {c!r}, the reference {r!r}")
            continue
        check_tensor(c, r, i)
        a, rel = _values(c, r, tolerance(r.dtype, atol, rtol, tf32), i)
        worst_abs, worst_rel = max(worst_abs, a), max(worst_rel, rel)
    return worst_abs, worst_rel


def _values(c: Any, r: Any, tol: Tolerance, index: int) -> tuple[float, float]:
    import torch

    if c.numel() == 0:
        return 0.0, 0.0
    if not (r.is_floating_point() or r.is_complex()):
        if not torch.equal(c, r):
            bad = (c != r).nonzero()[0].tolist()
            raise Mismatch(f"output {index} differs at {bad}: {c[tuple(bad)].item()} vs {r[tuple(bad)].item()}")
        return 0.0, 0.0
    c64, r64 = c.detach().to(torch.float64), r.detach().to(torch.float64)
    r_bad, c_bad = ~torch.isfinite(r64), ~torch.isfinite(c64)
    if bool((c_bad & ~r_bad).any()):
        n = int((c_bad & ~r_bad).sum())
        raise Mismatch(f"output {index} has {n} NaN/Inf value(s) where the reference is finite",
                       "unwritten-output" if bool(torch.isnan(c64[c_bad & ~r_bad]).all()) else None)
    if bool(r_bad.any()):
        same = (c64[r_bad] == r64[r_bad]) | (torch.isnan(c64[r_bad]) & torch.isnan(r64[r_bad]))
        if not bool(same.all()):
            raise Mismatch(f"output {index} does not reproduce the reference's NaN/Inf values")
    finite = ~r_bad
    diff = (c64 - r64).abs().masked_fill(~finite, 0.0)
    allowed = tol.atol + tol.rtol * r64.abs().masked_fill(~finite, 0.0)
    max_abs = float(diff.max())
    max_rel = float((diff / (r64.abs().masked_fill(~finite, 0.0) + max(tol.atol, 1e-30))).max())
    over = diff > allowed
    if bool(over.any()):
        n = int(over.sum())
        flat_c, flat_r = c64[finite], r64[finite]
        constant = flat_c.numel() > 1 and bool((flat_c == flat_c.flatten()[0]).all()) and \
            not bool((flat_r == flat_r.flatten()[0]).all())
        at = tuple(over.nonzero()[0].tolist())
        raise Mismatch(f"output {index}: {n} of {c.numel()} elements outside atol={tol.atol:g} rtol={tol.rtol:g} "
                       f"(first at {list(at)}: {c64[at].item():.6g} vs {r64[at].item():.6g}; "
                       f"max abs error {max_abs:.3g})", "constant-output" if constant else None)
    norm = float(torch.linalg.vector_norm(r64.masked_fill(~finite, 0.0)))
    if norm > 0:
        l2 = float(torch.linalg.vector_norm(diff)) / norm
        if l2 > tol.l2:
            raise Mismatch(f"output {index}: relative L2 error {l2:.3g} above {tol.l2:g} (each element within "
                           f"tolerance, but systematically off: lower precision or constant output?)")
    return max_abs, max_rel


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
