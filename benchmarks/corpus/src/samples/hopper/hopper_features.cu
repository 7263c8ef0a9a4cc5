/* Sample code written for a CUDA tutorial collection.
 * Provided as-is, without warranty of any kind. */

// Kernel attributes and instructions new with compute capability 9.0.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

// Three-argument launch bounds: max threads, min blocks per SM, max blocks per cluster.
__global__ void __launch_bounds__(256, 2, 4) lb3_axpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// Register cap without a thread-count hint.
__global__ void __maxnreg__(32) capped_registers(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
#pragma unroll 8
        for (int k = 0; k < 64; ++k)
            v = v * 0.999f + 0.001f;
        y[i] = v;
    }
}

// Attributes before the return type, one per line.
__cluster_dims__(2, 1, 1)
__global__
void
attrs_first(int *out)
{
    out[blockIdx.x] = blockIdx.x;
}

// Programmatic dependent launch: wait for the previous grid's results, then let
// the next grid start its prologue early.
__global__ void pdl_consumer(const float *prev, float *next, int n)
{
    asm volatile("griddepcontrol.wait;" ::: "memory");
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        next[i] = prev[i] * 2.0f;
    asm volatile("griddepcontrol.launch_dependents;");
}

__device__ __forceinline__ bool elect_one()
{
    unsigned is_leader;
    asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, 0xffffffff;\n\tselp.u32 %0, 1, 0, p;\n}" : "=r"(is_leader));
    return is_leader != 0;
}

__global__ void elect_leader(unsigned *count)
{
    if (elect_one())
        atomicAdd(count, 1u);
}

// Bulk copy engine (TMA without a tensor map): one thread issues, an mbarrier tracks bytes.
__global__ void bulk_copy_1d(const float *__restrict__ src, float *__restrict__ dst, int chunk)
{
    extern __shared__ __align__(128) float smem[];
    __shared__ __align__(8) uint64_t bar;
    const uint32_t bar_addr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
    const uint32_t smem_addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
    const uint32_t bytes = chunk * sizeof(float);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_addr));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_addr), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(smem_addr), "l"(src + (size_t)blockIdx.x * chunk), "r"(bytes), "r"(bar_addr)
                     : "memory");
    }
    uint32_t done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done)
                     : "r"(bar_addr)
                     : "memory");
    }
    for (int i = threadIdx.x; i < chunk; i += blockDim.x)
        dst[(size_t)blockIdx.x * chunk + i] = smem[i] + 1.0f;
}

// fence.proxy.async between generic-proxy writes and async-proxy reads of shared memory
__global__ void proxy_fence_demo(float *out)
{
    __shared__ float buf[128];
    buf[threadIdx.x] = threadIdx.x;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    out[threadIdx.x] = buf[127 - threadIdx.x];
}

// Both __launch_bounds__ and __cluster_dims__, spelled in the other order.
__global__ void __cluster_dims__(4, 1, 1) __launch_bounds__(128) bounds_and_cluster(float *p)
{
    p[blockIdx.x * 128 + threadIdx.x] *= 0.5f;
}

__global__ void stmatrix_free(const float *in, float *out)
{
    // plain kernel between the exotic ones
    out[threadIdx.x] = in[threadIdx.x];
}

int main()
{
    float *d_x, *d_y;
    unsigned *d_c;
    cudaMalloc(&d_x, 1 << 24);
    cudaMalloc(&d_y, 1 << 24);
    cudaMalloc(&d_c, 4);
    lb3_axpy<<<1024, 256>>>(2.0f, d_x, d_y, 1 << 18);
    capped_registers<<<1024, 256>>>(d_x, d_y, 1 << 18);
    attrs_first<<<4, 32>>>((int *)d_y);
    pdl_consumer<<<1024, 256>>>(d_x, d_y, 1 << 18);
    elect_leader<<<8, 128>>>(d_c);
    bulk_copy_1d<<<16, 128, 4096 * sizeof(float)>>>(d_x, d_y, 4096);
    proxy_fence_demo<<<1, 128>>>(d_y);
    bounds_and_cluster<<<8, 128>>>(d_y);
    stmatrix_free<<<1, 32>>>(d_x, d_y);
    cudaDeviceSynchronize();
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_c);
    return 0;
}
