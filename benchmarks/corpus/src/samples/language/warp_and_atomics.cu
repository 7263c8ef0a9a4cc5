/* Sample code written for a CUDA tutorial collection.
 * Provided as-is, without warranty of any kind. */

// Warp-level primitives and atomics, one small kernel per idiom.
#include <cstdint>
#include <cuda/atomic>

#define FULL_MASK 0xffffffffu
#define WARP_SIZE 32

__global__ void ballot_count(const int *flags, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned mask = __ballot_sync(FULL_MASK, i < n && flags[i]);
    if ((threadIdx.x & (WARP_SIZE - 1)) == 0)
        atomicAdd(count, __popc(mask));
}

__global__ void any_all(const float *x, int *flags)
{
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    int any_neg = __any_sync(FULL_MASK, v < 0.0f);
    int all_fin = __all_sync(FULL_MASK, isfinite(v));
    if (threadIdx.x % WARP_SIZE == 0) {
        flags[2 * (blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE] = any_neg;
        flags[2 * (blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE + 1] = all_fin;
    }
}

__global__ void shfl_broadcast(float *x, int src_lane)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = __shfl_sync(FULL_MASK, x[i], src_lane);
}

__global__ void shfl_rotate(int *x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    x[i] = __shfl_sync(FULL_MASK, x[i], (lane + 1) & 31);
}

__global__ void warp_inclusive_scan(int *x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = x[i];
    int lane = threadIdx.x & 31;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        int t = __shfl_up_sync(FULL_MASK, v, o);
        if (lane >= o)
            v += t;
    }
    x[i] = v;
}

__global__ void bit_tricks(const unsigned *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[i];
    out[i] = __ffs(v) + __clz(v) + __popc(__brev(v)) + (int)__funnelshift_l(v, v, 7);
}

__device__ double atomic_max_double(double *addr, double val)
{
    unsigned long long *p = reinterpret_cast<unsigned long long *>(addr);
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        if (__longlong_as_double(assumed) >= val)
            break;
        old = atomicCAS(p, assumed, __double_as_longlong(val));
    } while (assumed != old);
    return __longlong_as_double(old);
}

__global__ void max_double(const double *x, double *result, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomic_max_double(result, x[i]);
}

__global__ void ring_buffer_push(unsigned *head, int *ring, unsigned capacity)
{
    unsigned slot = atomicInc(head, capacity - 1);
    ring[slot] = blockIdx.x * blockDim.x + threadIdx.x;
}

__global__ void system_scope_counter(int *host_visible)
{
    atomicAdd_system(host_visible, 1);
    __threadfence_system();
}

__global__ void atomic_ref_histogram(const unsigned char *data, unsigned *bins, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> bin(bins[data[i]]);
        bin.fetch_add(1u, cuda::memory_order_relaxed);
    }
}

// last block to finish does the final step (threadfence reduction pattern)
__device__ unsigned int blocks_done = 0;

__global__ void last_block_finishes(const float *partials_in, float *partials, float *result)
{
    __shared__ bool am_last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = partials_in[blockIdx.x];
        __threadfence();
        unsigned int ticket = atomicInc(&blocks_done, gridDim.x);
        am_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (am_last && threadIdx.x == 0) {
        float s = 0.0f;
        for (unsigned b = 0; b < gridDim.x; ++b)
            s += partials[b];
        *result = s;
        blocks_done = 0;
    }
}

__global__ void match_and_elect(const int *keys, int *leaders)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned peers = __match_any_sync(__activemask(), keys[i]);
    int leader = __ffs(peers) - 1;
    leaders[i] = (threadIdx.x & 31) == leader;
}

__global__ void warp_sync_reduce_minmax(const int *in, int *mins, int *maxs)
{
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int lo = __reduce_min_sync(FULL_MASK, v);
    int hi = __reduce_max_sync(FULL_MASK, v);
    if ((threadIdx.x & 31) == 0) {
        atomicMin(mins, lo);
        atomicMax(maxs, hi);
    }
}
