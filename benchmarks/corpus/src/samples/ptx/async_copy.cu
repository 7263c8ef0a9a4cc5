/* Sample code written for a CUDA tutorial collection.
 * Provided as-is, without warranty of any kind. */

// Asynchronous global->shared copies (cp.async) and mbarrier-based synchronisation,
// written with inline PTX so the same code documents the instructions.
#include <cstdint>
#include <cstdio>

#define STAGES 3
#define TILE 256

__device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void cp_async_16(void *smem, const void *gmem)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_u32(smem)), "l"(gmem));
}

__device__ __forceinline__ void cp_async_4(void *smem, const void *gmem)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(smem_u32(smem)), "l"(gmem));
}

__device__ __forceinline__ void cp_async_commit()
{
    asm volatile("cp.async.commit_group;\n" ::);
}

template <int N>
__device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

__device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(count));
}

__device__ __forceinline__ uint64_t mbar_arrive(uint64_t *bar)
{
    uint64_t state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(smem_u32(bar)) : "memory");
    return state;
}

__device__ __forceinline__ bool mbar_test_wait(uint64_t *bar, uint64_t state)
{
    uint32_t done;
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.shared.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done)
                 : "r"(smem_u32(bar)), "l"(state)
                 : "memory");
    return done != 0;
}

// Multi-stage pipeline: while stage s is consumed, stages s+1.. are in flight.
__global__ void pipelined_sum(const float4 *__restrict__ in, float *__restrict__ out, int tiles)
{
    __shared__ __align__(16) float4 stage_buf[STAGES][TILE];
    float acc = 0.0f;
    const float4 *base = in + (size_t)blockIdx.x * tiles * TILE;
    for (int s = 0; s < STAGES - 1 && s < tiles; ++s) {
        cp_async_16(&stage_buf[s][threadIdx.x], base + s * TILE + threadIdx.x);
        cp_async_commit();
    }
    for (int t = 0; t < tiles; ++t) {
        const int next = t + STAGES - 1;
        if (next < tiles) {
            cp_async_16(&stage_buf[next % STAGES][threadIdx.x], base + next * TILE + threadIdx.x);
        }
        cp_async_commit();
        cp_async_wait<STAGES - 1>();
        __syncthreads();
        float4 v = stage_buf[t % STAGES][threadIdx.x];
        acc += v.x + v.y + v.z + v.w;
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void gather_async(const float *__restrict__ src, const int *__restrict__ idx, float *__restrict__ dst, int n)
{
    __shared__ float buf[TILE];
    const int i = blockIdx.x * TILE + threadIdx.x;
    if (i < n) {
        cp_async_4(&buf[threadIdx.x], src + idx[i]);
    }
    cp_async_commit();
    cp_async_wait<0>();
    __syncthreads();
    if (i < n) {
        dst[i] = buf[threadIdx.x] * 2.0f;
    }
}

// Producer/consumer inside one block: warp 0 fills, the others wait on an mbarrier.
__global__ void mbarrier_handoff(const float *in, float *out)
{
    __shared__ __align__(8) uint64_t bar;
    __shared__ float data[TILE];
    if (threadIdx.x == 0) {
        mbar_init(&bar, blockDim.x);
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        for (int i = threadIdx.x; i < TILE; i += 32) {
            data[i] = in[blockIdx.x * TILE + i];
        }
        __threadfence_block();
    }
    uint64_t token = mbar_arrive(&bar);
    while (!mbar_test_wait(&bar, token)) {
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = data[threadIdx.x % TILE];
}

__global__ void copy_tile_sync(const float *in, float *out)
{
    __shared__ float buf[TILE];
    buf[threadIdx.x] = in[blockIdx.x * TILE + threadIdx.x];
    __syncthreads();
    out[blockIdx.x * TILE + threadIdx.x] = buf[TILE - 1 - threadIdx.x];
}

int main()
{
    float *d_in, *d_out;
    cudaMalloc(&d_in, 64 << 20);
    cudaMalloc(&d_out, 64 << 20);
    pipelined_sum<<<64, TILE>>>((const float4 *)d_in, d_out, 8);
    mbarrier_handoff<<<64, TILE>>>(d_in, d_out);
    copy_tile_sync<<<64, TILE>>>(d_in, d_out);
    cudaDeviceSynchronize();
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
