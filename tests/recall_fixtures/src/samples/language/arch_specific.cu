/* Sample code written for a CUDA tutorial collection.
 * Provided as-is, without warranty of any kind. */

// Bodies that differ by target architecture; the host pass sees __CUDA_ARCH__ undefined.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void arch_reduce(const unsigned *in, unsigned *out)
{
    unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
#if __CUDA_ARCH__ >= 800
    v = __reduce_add_sync(0xffffffffu, v);
#else
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
#endif
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, v);
}

__global__ void arch_sleep(int *flag)
{
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 700)
    while (atomicAdd(flag, 0) == 0) {
        __nanosleep(100);
    }
#else
    while (atomicAdd(flag, 0) == 0) {
    }
#endif
}

__global__ void arch_bf16_axpy(__nv_bfloat16 *y, const __nv_bfloat16 *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
#if __CUDA_ARCH__ >= 800
    y[i] = __hfma(__float2bfloat16(a), x[i], y[i]);
#else
    y[i] = __float2bfloat16(a * __bfloat162float(x[i]) + __bfloat162float(y[i]));
#endif
}

__global__ void arch_ldg(const float *__restrict__ in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
#if __CUDA_ARCH__ >= 350
        out[i] = __ldg(in + i) * 2.0f;
#else
        out[i] = in[i] * 2.0f;
#endif
    }
}

__global__ void arch_dispatch_table(int *which)
{
#if !defined(__CUDA_ARCH__)
    // host compilation pass: never executed
#elif __CUDA_ARCH__ >= 900
    which[0] = 90;
#elif __CUDA_ARCH__ >= 800
    which[0] = 80;
#elif __CUDA_ARCH__ >= 700
    which[0] = 70;
#else
    which[0] = 0;
#endif
}

__global__ void arch_fp16_math(__half2 *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
#if __CUDA_ARCH__ >= 530
        v[i] = __hmul2(v[i], __floats2half2_rn(0.5f, 0.5f));
#endif
    }
}

#if __CUDA_ARCH__ >= 900 || !defined(__CUDA_ARCH__)
// A kernel whose whole definition only exists for Hopper (and the host pass).
__global__ void arch_only_hopper(float *p)
{
    p[threadIdx.x] = 9.0f;
}
#endif

__global__ void arch_cluster_query(unsigned *out)
{
#if __CUDA_ARCH__ >= 900
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    out[blockIdx.x] = r;
#else
    out[blockIdx.x] = 0;
#endif
}

__global__ void arch_match_any(const int *keys, unsigned *masks)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#if __CUDA_ARCH__ >= 700
    masks[i] = __match_any_sync(__activemask(), keys[i]);
#else
    masks[i] = 0;
#endif
}

int main()
{
    return 0;
}
