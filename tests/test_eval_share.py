"""The work share (hacks.own_share): the candidate's own kernels' part of the GPU time, from the
profiler's kernel names and durations, fills and copies counted for neither side.  Kernel names
are those the H200's profiler reports (demangled, templates and arguments included)."""

from __future__ import annotations

import pytest

from cudaperf.rewards.execution import hacks
from cudaperf.rewards.execution.result import ExecResult, render_text

FILL = ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char*, 1ul> >"
        "(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)")
SUM = ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, "
       "float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, "
       "float>, unsigned int, float, 4, 4>)")
GELU = "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(...)::{lambda(float)#1}>(...)"


@pytest.mark.parametrize("name, own, expected", [
    ("void matvec_kernel<256>(float const*, float const*, float*, int, int)", ["matvec_kernel"], True),
    ("scale_add", ["scale_add"], True),                                   # extern "C": the bare name
    ("void ns::row_softmax(float const*, float*, int)", ["row_softmax"], True),
    (GELU, ["gelu"], False),                                              # a torch kernel containing the name
    ("void gelu_fast(float*)", ["gelu"], False),
])
def test_own_kernels_are_recognised_by_their_whole_name(name, own, expected):
    assert hacks.is_own(name, own) is expected


def test_a_small_torch_tail_keeps_the_share_high_and_fills_do_not_count():
    share, others = hacks.own_share([("void mse_partial(float const*, float const*, float*, int)", 95.0),
                                     (FILL, 40.0), (SUM, 5.0)], ["mse_partial"])
    assert share == pytest.approx(0.95)
    assert [name for name, _ in others] == [SUM] and others[0][1] == pytest.approx(0.05)
    assert share >= hacks.OWN_SHARE_MIN


def test_torch_doing_the_heavy_work_is_below_the_threshold():
    share, others = hacks.own_share([("void scale_kernel(float*, float, int)", 10.0), (GELU, 30.0)],
                                    ["scale_kernel"])
    assert share == pytest.approx(0.25) and share < hacks.OWN_SHARE_MIN
    assert others[0][0] == GELU


def test_no_computing_kernel_gives_no_share():
    assert hacks.own_share([(FILL, 3.0)], ["k"]) == (None, [])


def test_the_share_is_reported_in_json_and_text():
    result = ExecResult("correct", own_kernel_share=0.934, candidate="c.py")
    assert result.to_json()["own_kernel_share"] == 0.934
    assert "own kernels 93.4% of the GPU time" in render_text(result)
    assert ExecResult.from_json(result.to_json()).own_kernel_share == 0.934



def test_a_launch_bound_torch_tail_does_not_sink_a_fast_candidate_below_the_threshold():
    """The twins of a candidate whose torch tail is a mean over 128 partial sums: the same 5 us tail
    after own kernels of 19 us or of 60 us.  Counted whole, the faster twin is rejected (79%) and the
    slower one passes; beyond an idle kernel's 3.5 us both pass, and torch doing the body still fails."""
    fast, slow = [("void partial(float const*, float*, int)", 19.0), (SUM, 5.0)], \
                 [("void partial(float const*, float*, int)", 60.0), (SUM, 5.0)]
    assert hacks.own_share(fast, ["partial"])[0] < hacks.OWN_SHARE_MIN <= hacks.own_share(slow, ["partial"])[0]
    assert hacks.own_share(fast, ["partial"], 3.5)[0] >= hacks.OWN_SHARE_MIN
    assert hacks.own_share(slow, ["partial"], 3.5)[0] >= hacks.OWN_SHARE_MIN
    heavy, _ = hacks.own_share([("void scale_kernel(float*, float, int)", 10.0), (GELU, 30.0)], ["scale_kernel"], 3.5)
    assert heavy == pytest.approx(10 / 36.5) and heavy < hacks.OWN_SHARE_MIN
    own_tiny, _ = hacks.own_share([("void partial(float const*, float*, int)", 2.0), (SUM, 2.0)], ["partial"], 3.5)
    assert own_tiny == 1.0                          # own kernels count whole, however short
