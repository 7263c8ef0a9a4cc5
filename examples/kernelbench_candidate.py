"""A KernelBench-style candidate: the CUDA kernel and its torch wrapper live in Python strings.

    cudaperf analyze examples/kernelbench_candidate.py --arg size=16777216
"""
import torch  # noqa: F401  (KernelBench candidates import it; the wrapper in cuda_source uses it)
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>

__global__ void scale_add_kernel(const float* a, const float* b, float* out, float alpha, int size) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < size) {
        out[idx] = alpha * a[idx] + b[idx];
    }
}

torch::Tensor scale_add_cuda(torch::Tensor a, torch::Tensor b, float alpha) {
    auto size = a.numel();
    auto out = torch::empty_like(a);
    const int block_size = 256;
    const int num_blocks = (size + block_size - 1) / block_size;
    scale_add_kernel<<<num_blocks, block_size>>>(a.data_ptr<float>(), b.data_ptr<float>(),
                                                 out.data_ptr<float>(), alpha, size);
    return out;
}
"""

cpp_source = "torch::Tensor scale_add_cuda(torch::Tensor a, torch::Tensor b, float alpha);"

scale_add = load_inline(name="scale_add", cpp_sources=cpp_source, cuda_sources=cuda_source,
                        functions=["scale_add_cuda"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, a, b):
        return scale_add.scale_add_cuda(a, b, 2.0)
