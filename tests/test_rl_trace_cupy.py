"""Candidates that launch their kernels with CuPy (`cp.RawKernel`, `cp.RawModule(...).get_function`),
traced on a machine without a GPU or CuPy (`costmodel.cupyshim`): each launch read under the grid, block
and scalar arguments the Python gives it, each tensor handed to CuPy priced at the host time the H200
measured (tests/data/h200/host_calls), and a CuPy feature the stand-in lacks sending the candidate to its
fallback, as a CuPy without it would."""

from __future__ import annotations

import pytest

REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(4096, 8192)]


def get_init_inputs():
    return []
'''

KERNEL = r'''
extern "C" __global__ void relu_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.0f);
}
'''

_CANDIDATE = '''import numpy as np
import torch
import torch.nn as nn
import torch.utils.dlpack

CODE = r"""{kernel}"""


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        try:
            import cupy as cp
            self.cp = cp
            {make}
        except ImportError:
            self.cp = None

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        cp = self.cp
        {launch}
        return y
'''

_RAW_KERNEL = "self.kernel = cp.RawKernel(CODE, 'relu_kernel')"
_RAW_MODULE = "self.kernel = cp.RawModule(code=CODE).get_function('relu_kernel')"
CANDIDATES = {
    "asarray": _CANDIDATE.format(kernel=KERNEL, make=_RAW_KERNEL, launch=(
        "self.kernel(((n + 255) // 256,), (256,), (cp.asarray(x), cp.asarray(y), np.int32(n)))")),
    "data_ptr": _CANDIDATE.format(kernel=KERNEL, make=_RAW_MODULE, launch=(
        "self.kernel(((n + 255) // 256,), (256,), (x.data_ptr(), y.data_ptr(), n), shared_mem=0, "
        "stream=cp.cuda.get_current_stream())")),
    "dlpack": _CANDIDATE.format(kernel=KERNEL, make=_RAW_KERNEL, launch=(
        "self.kernel(((n + 255) // 256,), (256,), (cp.from_dlpack(torch.utils.dlpack.to_dlpack(x)), "
        "cp.from_dlpack(torch.utils.dlpack.to_dlpack(y)), np.int32(n)))")),
    # an API the stand-in lacks: the candidate's own fallback runs, as on a CuPy without it
    "missing": _CANDIDATE.format(kernel=KERNEL, make="self.kernel = cp.ElementwiseKernel('T x', 'T y', 'y = x')",
                                 launch="return torch.relu(x)").replace("except ImportError:",
                                                                        "except (ImportError, AttributeError):"),
}


@pytest.fixture(scope="module")
def estimates():
    pytest.importorskip("torch")
    pytest.importorskip("numpy")
    from cudaperf.costmodel.candidates import estimate

    return dict(zip(CANDIDATES, estimate(REFERENCE, list(CANDIDATES.values()), labels=list(CANDIDATES))))


@pytest.mark.torch
def test_a_cupy_launch_is_read_under_the_grid_and_arguments_python_gives_it(estimates):
    for name in ("asarray", "data_ptr", "dlpack"):
        est = estimates[name]
        assert est.reason is None and est.torch_only is None, name
        (launch,) = est.launches
        assert (launch.kernel, launch.grid[0], launch.block[0]) == ("relu_kernel", 4096 * 8192 // 256, 256), name
        assert est.sizes["relu_kernel"]["n"] == 4096 * 8192, name
        assert not est.unknown, name


@pytest.mark.torch
def test_tensors_handed_to_cupy_cost_the_host(estimates):
    from cudaperf.costmodel.torch_ops import TORCH

    host = {name: estimates[name].terms["host"] for name in ("asarray", "data_ptr", "dlpack")}
    assert host["asarray"] - host["data_ptr"] == pytest.approx(2 * TORCH["cupy_asarray_host_s"])
    assert host["dlpack"] - host["data_ptr"] == pytest.approx(2 * TORCH["cupy_dlpack_host_s"])


@pytest.mark.torch
def test_a_cupy_feature_the_stand_in_lacks_runs_the_fallback(estimates):
    est = estimates["missing"]
    assert est.reason is None and not est.launches and est.torch_only



EINOPS_REFERENCE = '''import torch
import torch.nn as nn
from einops import rearrange


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(rearrange(x, "b (c l) -> b c l", l=64))


def get_inputs():
    return [torch.randn(64, 4096)]


def get_init_inputs():
    return []
'''


@pytest.mark.torch
def test_einops_finds_a_cupy_that_holds_no_arrays():
    """Once a module named cupy is imported (the stand-in is, in every tracing child), einops asks each
    `rearrange`'s tensor whether it is a `cupy.ndarray`: the stand-in answers no, and the reference traces
    (CUDA-L1's L3_048 and L3_049 references came out "runs no operator" when it could not)."""
    pytest.importorskip("einops")
    from cudaperf.costmodel import trace

    assert [op["op"] for op in trace.run(EINOPS_REFERENCE, [])["reference_ops"]] == ["relu"]
