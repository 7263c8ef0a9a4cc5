# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TREE_THREADS 256

// Classic shared-memory tree reduction: each thread adds two elements on load, then
// the block halves the active threads with __syncthreads() between steps.
__global__ void hinge_first_pass(const float* __restrict__ pred, const float* __restrict__ targ,
                                 float* __restrict__ partials, long long n) {
    __shared__ float sdata[TREE_THREADS];
    unsigned int tid = threadIdx.x;
    long long i = (long long)blockIdx.x * (TREE_THREADS * 2) + tid;
    float v = 0.0f;
    if (i < n) v += fmaxf(0.0f, 1.0f - pred[i] * targ[i]);
    if (i + TREE_THREADS < n) v += fmaxf(0.0f, 1.0f - pred[i + TREE_THREADS] * targ[i + TREE_THREADS]);
    sdata[tid] = v;
    __syncthreads();
    for (unsigned int s = TREE_THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = sdata[0];
}

// Same tree, applied to an array of partial sums.
__global__ void sum_pass(const float* __restrict__ in, float* __restrict__ out, long long m) {
    __shared__ float sdata[TREE_THREADS];
    unsigned int tid = threadIdx.x;
    long long i = (long long)blockIdx.x * (TREE_THREADS * 2) + tid;
    float v = 0.0f;
    if (i < m) v += in[i];
    if (i + TREE_THREADS < m) v += in[i + TREE_THREADS];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned int s = TREE_THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

__global__ void divide_kernel(const float* __restrict__ total, float* __restrict__ out, double inv_n) {
    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = (float)((double)total[0] * inv_n);
}

torch::Tensor hinge_loss_cuda(torch::Tensor predictions, torch::Tensor targets) {
    TORCH_CHECK(predictions.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(predictions.scalar_type() == torch::kFloat32 && targets.scalar_type() == torch::kFloat32,
                "inputs must be float32");
    TORCH_CHECK(predictions.numel() == targets.numel(), "size mismatch");
    TORCH_CHECK(predictions.is_contiguous() && targets.is_contiguous(), "inputs must be contiguous");
    long long n = predictions.numel();
    TORCH_CHECK(n > 0, "empty input");

    const long long per_block = TREE_THREADS * 2;
    long long m = (n + per_block - 1) / per_block;
    auto opts = predictions.options();
    auto buf_a = torch::empty({m}, opts);
    auto buf_b = torch::empty({(m + per_block - 1) / per_block}, opts);
    auto out = torch::empty({}, opts);

    hinge_first_pass<<<(unsigned int)m, TREE_THREADS>>>(predictions.data_ptr<float>(), targets.data_ptr<float>(),
                                                       buf_a.data_ptr<float>(), n);
    float* src = buf_a.data_ptr<float>();
    float* dst = buf_b.data_ptr<float>();
    while (m > 1) {
        long long blocks = (m + per_block - 1) / per_block;
        sum_pass<<<(unsigned int)blocks, TREE_THREADS>>>(src, dst, m);
        float* tmp = src; src = dst; dst = tmp;
        m = blocks;
    }
    divide_kernel<<<1, 1>>>(src, out.data_ptr<float>(), 1.0 / (double)n);
    return out;
}
"""

cpp_src = "torch::Tensor hinge_loss_cuda(torch::Tensor predictions, torch::Tensor targets);"

hinge_mod = load_inline(
    name="hinge_loss_shared_tree_multipass",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["hinge_loss_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return hinge_mod.hinge_loss_cuda(predictions.contiguous(), targets.contiguous())
