# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

instance_norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// A plane (up to 64K floats = 256 KB) is too large for one SM's registers or shared
// memory, so it is split over a thread-block cluster of 8 blocks. Each thread keeps its
// 8 float4s in registers, so x is read from HBM exactly once and y written once.
// Block partial sums are combined across the cluster through distributed shared memory.
#define CLUSTER 8
#define THREADS 256
#define NWARPS (THREADS / 32)
#define VPT 8                                    // float4s per thread
#define MAX_HW4 (CLUSTER * THREADS * VPT)        // 16384 float4 = 65536 floats

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// Block-level sum; the result is valid in thread 0 only.
__device__ __forceinline__ float block_sum(float v, float* wbuf) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) wbuf[warp] = v;
    __syncthreads();
    float r = 0.f;
    if (warp == 0) {
        r = lane < NWARPS ? wbuf[lane] : 0.f;
        r = warp_sum(r);
    }
    return r;
}

// Warp 0 of each block gathers the CLUSTER partials (one per lane) from DSMEM.
__device__ __forceinline__ float cluster_gather(cg::cluster_group& cluster, float* slot) {
    const int lane = threadIdx.x & 31;
    float v = 0.f;
    if (lane < CLUSTER) v = *cluster.map_shared_rank(slot, lane);
    return warp_sum(v);
}

__global__ void __launch_bounds__(THREADS)
instance_norm_cluster_kernel(const float* __restrict__ x, float* __restrict__ y, int hw, float eps) {
    cg::cluster_group cluster = cg::this_cluster();
    __shared__ float wbuf1[NWARPS];
    __shared__ float wbuf2[NWARPS];
    __shared__ float part_sum;     // this block's partial, read by the whole cluster
    __shared__ float part_m2;
    __shared__ float s_mean;
    __shared__ float s_rstd;

    const int rank = (int)cluster.block_rank();
    const long long plane = blockIdx.x / CLUSTER;
    const int hw4 = hw >> 2;
    const float4* xp = reinterpret_cast<const float4*>(x + plane * (long long)hw);
    float4* yp = reinterpret_cast<float4*>(y + plane * (long long)hw);
    const int first = rank * THREADS + threadIdx.x;

    float4 v[VPT];
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < VPT; ++k) {
        const int idx = first + k * (CLUSTER * THREADS);
        if (idx < hw4) v[k] = __ldcs(xp + idx);              // streamed: read once
        else v[k] = make_float4(0.f, 0.f, 0.f, 0.f);
        s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }

    // ---- mean ----
    s = block_sum(s, wbuf1);
    if (threadIdx.x == 0) part_sum = s;
    cluster.sync();
    if (threadIdx.x < 32) {
        float tot = cluster_gather(cluster, &part_sum);
        if (threadIdx.x == 0) s_mean = tot / (float)hw;
    }
    __syncthreads();
    const float mean = s_mean;

    // ---- biased variance from register-resident, centred values ----
    float m2 = 0.f;
#pragma unroll
    for (int k = 0; k < VPT; ++k) {
        const int idx = first + k * (CLUSTER * THREADS);
        if (idx < hw4) {
            const float a = v[k].x - mean, b = v[k].y - mean, c = v[k].z - mean, d = v[k].w - mean;
            m2 += (a * a + b * b) + (c * c + d * d);
        }
    }
    m2 = block_sum(m2, wbuf2);
    if (threadIdx.x == 0) part_m2 = m2;
    cluster.sync();
    if (threadIdx.x < 32) {
        float tot = cluster_gather(cluster, &part_m2);
        if (threadIdx.x == 0) s_rstd = rsqrtf(tot / (float)hw + eps);
    }
    __syncthreads();
    const float rstd = s_rstd;

    // ---- write ----
#pragma unroll
    for (int k = 0; k < VPT; ++k) {
        const int idx = first + k * (CLUSTER * THREADS);
        if (idx < hw4) {
            float4 o;
            o.x = (v[k].x - mean) * rstd;
            o.y = (v[k].y - mean) * rstd;
            o.z = (v[k].z - mean) * rstd;
            o.w = (v[k].w - mean) * rstd;
            __stcs(yp + idx, o);
        }
    }
    // keep this block's shared memory alive until every block of the cluster has read it
    cluster.sync();
}

torch::Tensor instance_norm_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 4, "x must be 4D (N, C, H, W)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const long long planes = x.size(0) * x.size(1);
    const long long hw = x.size(2) * x.size(3);
    if (planes == 0 || hw == 0) return y;
    TORCH_CHECK(hw % 4 == 0, "H*W must be a multiple of 4");
    TORCH_CHECK(hw / 4 <= MAX_HW4, "H*W too large for the register-cached cluster kernel");
    TORCH_CHECK(reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0, "x must be 16-byte aligned");
    TORCH_CHECK(planes * CLUSTER < (1LL << 31), "too many planes");
    // launch with a (CLUSTER, 1, 1) thread-block cluster
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)(planes * CLUSTER), 1, 1);
    cfg.blockDim = dim3(THREADS, 1, 1);
    cfg.dynamicSmemBytes = 0;
    cfg.stream = 0;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = CLUSTER;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    const float* xp = x.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    int hw_i = (int)hw;
    float eps = 1e-5f;
    cudaError_t lerr = cudaLaunchKernelEx(&cfg, instance_norm_cluster_kernel, xp, yp, hw_i, eps);
    TORCH_CHECK(lerr == cudaSuccess, "cluster launch failed: ", cudaGetErrorString(lerr));
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "instance_norm kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

instance_norm_cpp_source = "torch::Tensor instance_norm_cuda(torch::Tensor x);"

instance_norm = load_inline(
    name="instance_norm_cluster_dsmem_register_cached",
    cpp_sources=instance_norm_cpp_source,
    cuda_sources=instance_norm_source,
    functions=["instance_norm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.num_features = num_features

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return instance_norm.instance_norm_cuda(x.contiguous())
