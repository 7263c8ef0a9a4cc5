"""Precision-aware correctness (correctness.compare with a float64 oracle) on CPU tensors: a long fp32
reduction summed in another order than PyTorch's, as accurate as PyTorch's, passes although it
exceeds the fixed fp32 tolerance; lower-precision arithmetic, zeros and constants still fail, also
under a loose fixed tolerance.  Needs torch (CPU build)."""

from __future__ import annotations

import textwrap

import pytest

torch = pytest.importorskip("torch")

from cudaperf.rewards.execution import cases  # noqa: E402
from cudaperf.rewards.execution.correctness import Mismatch, compare  # noqa: E402

M, K = 256, 131072


@pytest.fixture(scope="module")
def matvec():
    """A (M, K) in [-1, 1), x ~ N(0, 4): outputs cancel, so some sit near zero where the fixed
    rtol gives no room, while both fp32 summation orders are off by a few 1e-3."""
    g = torch.Generator().manual_seed(0)
    a = torch.rand(M, K, generator=g) * 2 - 1
    x = torch.randn(K, 1, generator=g) * 2
    reference = a @ x
    exact = a.double() @ x.double()
    products = (a * x.T).view(M, K // 256, 256)      # a GPU block: 256 threads, strided partial sums,
    partial = torch.zeros(M, 256)                    # then a shared-memory tree
    for j in range(K // 256):
        partial += products[:, j, :]
    while partial.shape[1] > 1:
        half = partial.shape[1] // 2
        partial = partial[:, :half] + partial[:, half:]
    return a, x, reference, exact, partial


def test_block_reduction_as_accurate_as_pytorch_passes_only_with_the_oracle(matvec):
    _, _, reference, exact, blocked = matvec
    own = float((blocked.double() - exact).abs().max())
    torch_error = float((reference.double() - exact).abs().max())
    assert own <= torch_error   # as accurate as PyTorch's own fp32 result
    with pytest.raises(Mismatch, match=r"elements outside atol=0\.0001"):
        compare(blocked, reference)    # the fixed fp32 tolerance calls it wrong
    notes: list[str] = []
    worst_abs, _ = compare(blocked, reference, oracle=lambda: exact, notes=notes)
    assert worst_abs == pytest.approx(own)
    assert notes and "precision-aware" in notes[0]


def test_half_precision_products_fail_against_the_oracle(matvec):
    a, x, reference, exact, _ = matvec
    half = a[:, :K].half().float() @ x.half().float()
    with pytest.raises(Mismatch, match="float64 run of the reference") as info:
        compare(half, reference, oracle=lambda: exact)
    assert info.value.rule == "wrong-values"


def test_zeros_and_constants_fail_even_under_a_loose_fixed_tolerance():
    """Outputs far below atol 1e-2 (softmax over 16k entries): zeros pass every element at atol 1e-2
    but not the relative L2 test, with the oracle or without."""
    x = torch.randn(8, 16384, dtype=torch.float64)
    exact = torch.softmax(x, dim=1)
    reference = torch.softmax(x.float(), dim=1)
    assert float(reference.abs().max()) < 1e-2
    for bad in (torch.zeros_like(reference), torch.full_like(reference, 1 / 16384)):
        with pytest.raises(Mismatch) as info:
            compare(bad, reference, atol=1e-2, rtol=1e-2, oracle=lambda: exact)
        assert info.value.rule == "constant-output"


def test_an_oracle_the_reference_does_not_follow_is_not_believed():
    """A reference that draws noise per call disagrees with its own float64 run: the fixed verdict stands."""
    g = torch.Generator().manual_seed(1)
    clean = torch.randn(4096, generator=g)
    reference = clean + 0.05 * torch.randn(4096, generator=g)
    with pytest.raises(Mismatch, match="elements outside") as info:
        compare(clean, reference, oracle=lambda: clean.double())
    assert "float64" not in str(info.value)


def test_the_oracle_runs_the_reference_model_in_float64():
    source = textwrap.dedent('''
        import torch, torch.nn as nn
        class Model(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.linear = nn.Linear(n, n)
            def forward(self, x, steps: int):
                return self.linear(x).sum(dim=1) * steps
        def get_inputs():
            return [torch.randn(4, 64), 3]
        def get_init_inputs():
            return [64]
    ''')
    reference = cases.TorchReference(source, None, "cpu", 0)
    inputs = reference.inputs(5)
    exact = reference.oracle(inputs)
    assert exact.dtype == torch.float64 and inputs[0].dtype == torch.float32
    assert torch.allclose(exact.float(), reference(*inputs), rtol=1e-4, atol=1e-4)
    assert reference.model.linear.weight.dtype == torch.float32   # the reference itself untouched
