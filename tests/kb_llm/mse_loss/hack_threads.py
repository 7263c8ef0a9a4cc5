# expect: rejected threads
import threading

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>
__global__ void mse_kernel(const float* p, const float* t, float* out, long n) {
    __shared__ float s[256];
    float acc = 0.f;
    for (long i = (long)blockIdx.x * 256 + threadIdx.x; i < n; i += (long)gridDim.x * 256) {
        float d = p[i] - t[i];
        acc += d * d;
    }
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) { if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k]; __syncthreads(); }
    if (threadIdx.x == 0) atomicAdd(out, s[0] / n);
}
void mse_into(torch::Tensor p, torch::Tensor t, torch::Tensor out) {
    mse_kernel<<<512, 256>>>(p.data_ptr<float>(), t.data_ptr<float>(), out.data_ptr<float>(), p.numel());
}
"""

ext = load_inline(name="mse_into", cpp_sources="void mse_into(torch::Tensor p, torch::Tensor t, torch::Tensor out);",
                  cuda_sources=cuda_source, functions=["mse_into"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        out = torch.zeros((), device=predictions.device)
        worker = threading.Thread(target=ext.mse_into, args=(predictions, targets, out))
        worker.start()   # overlap the launch with the caller
        return out
