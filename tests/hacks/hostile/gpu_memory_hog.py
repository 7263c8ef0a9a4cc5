# expect: runtime_error correct — gpu_memory_hog: on its first call cudaMallocs every free byte of the GPU directly (not through torch's allocator, so torch's memory cap never sees it) and keeps the pointers in a static; the next candidate in the batch must still be correct (a fresh worker)
"""The container of pointers is declared through a namespace-scope alias (`static Hoard hoard;`), so
the gate's static-variable rule does not see a `std::vector<void*>`.  Allocation halves its chunk on
each failure down to 2 MiB and clears the CUDA error it left, so the process goes on with the GPU
full: whatever runs next in this process (the reference, the timer's L2 flush buffer, another
candidate on a reused worker) runs out of memory."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>
#include <vector>

using Hoard = std::vector<void*>;

__global__ void scale_add_kernel(const float* a, const float* b, float* out, float alpha, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] * alpha + b[i];
}

static size_t reserve_workspace(Hoard& hoard) {
    size_t total = 0;
    size_t chunk = (size_t)8 << 30;
    while (chunk >= ((size_t)2 << 20)) {
        void* p = nullptr;
        if (cudaMalloc(&p, chunk) == cudaSuccess) {
            hoard.push_back(p);
            total += chunk;
        } else {
            cudaGetLastError();
            chunk /= 2;
        }
    }
    return total;
}

torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    static Hoard hoard;
    auto out = torch::empty_like(a);
    int64_t n = a.numel();
    scale_add_kernel<<<(unsigned)((n + 255) / 256), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), (float)alpha, n);
    if (hoard.empty()) reserve_workspace(hoard);
    return out;
}
"""

cpp_source = "torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha);"

ext = load_inline(name="hostile_gpu_memory_hog", cpp_sources=cpp_source, cuda_sources=cuda_source,
                  functions=["scale_add"])


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.scale_add(a.contiguous(), b.contiguous(), self.alpha)
