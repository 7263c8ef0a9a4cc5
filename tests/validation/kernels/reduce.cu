// Validation set: reductions (unrolled shared tree with a volatile
// warp-synchronous tail, butterfly shuffles over a while-loop grid stride,
// per-row max with do/while and a template <typename T, int BLOCK>) and a
// histogram with per-warp shared sub-histograms.

template <unsigned int BLOCK>
__device__ void warp_tail(volatile float* s, unsigned int tid)
{
    if (BLOCK >= 64) s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
}

// Each block reduces 2*BLOCK elements per grid step; one partial sum per block.
template <unsigned int BLOCK>
__global__ void reduce_unrolled(const float* __restrict__ g_in, float* __restrict__ g_out, unsigned int n)
{
    __shared__ float s[BLOCK];
    const unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (BLOCK * 2) + tid;
    const unsigned int grid_size = BLOCK * 2 * gridDim.x;
    float sum = 0.0f;
    while (i < n) {
        sum += g_in[i];
        if (i + BLOCK < n)
            sum += g_in[i + BLOCK];
        i += grid_size;
    }
    s[tid] = sum;
    __syncthreads();
    if (BLOCK >= 512) {
        if (tid < 256) s[tid] += s[tid + 256];
        __syncthreads();
    }
    if (BLOCK >= 256) {
        if (tid < 128) s[tid] += s[tid + 128];
        __syncthreads();
    }
    if (BLOCK >= 128) {
        if (tid < 64) s[tid] += s[tid + 64];
        __syncthreads();
    }
    if (tid < 32)
        warp_tail<BLOCK>(s, tid);
    if (tid == 0)
        g_out[blockIdx.x] = s[0];
}

// Sum of squares of doubles: while-loop grid stride, xor-butterfly shuffles,
// per-warp slots in shared memory, one partial per block.
__global__ void sumsq_double(const double* __restrict__ x, double* __restrict__ partial, unsigned int n)
{
    __shared__ double warp_sum[32];
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    double acc = 0.0;
    while (i < n) {
        const double v = x[i];
        acc += v * v;
        i += gridDim.x * blockDim.x;
    }
#pragma unroll
    for (int mask = 16; mask >= 1; mask /= 2)
        acc += __shfl_xor_sync(0xffffffffu, acc, mask);
    if (lane == 0)
        warp_sum[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = lane < blockDim.x / 32 ? warp_sum[lane] : 0.0;
#pragma unroll
        for (int mask = 16; mask >= 1; mask /= 2)
            acc += __shfl_xor_sync(0xffffffffu, acc, mask);
        if (lane == 0)
            partial[blockIdx.x] = acc;
    }
}

template <typename T>
__device__ __forceinline__ T tmax(T a, T b)
{
    return a > b ? a : b;
}

// Maximum of each row (one block per row); needs ncols >= 2 * BLOCK.
template <typename T, int BLOCK>
__global__ void row_max(const T* __restrict__ X, T* __restrict__ out, int ncols)
{
    __shared__ T red[BLOCK];
    const T* row = X + (size_t)blockIdx.x * ncols;
    T m = row[threadIdx.x];
    int c = threadIdx.x + BLOCK;
    do {
        m = tmax(m, row[c]);
        c += BLOCK;
    } while (c < ncols);
    red[threadIdx.x] = m;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            red[threadIdx.x] = tmax(red[threadIdx.x], red[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = red[0];
}

#define HBINS 64
#define HWARPS 8

// 64-bin histogram of (value & 63) with one sub-histogram per warp (blockDim.x == 256).
__global__ void hist64_warp_private(const int* __restrict__ data, unsigned int* __restrict__ bins, int n)
{
    __shared__ unsigned int h[HWARPS][HBINS];
    const int warp = threadIdx.x / 32;
    for (int j = threadIdx.x; j < HWARPS * HBINS; j += blockDim.x)
        (&h[0][0])[j] = 0u;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (i < n) {
        atomicAdd(&h[warp][data[i] & (HBINS - 1)], 1u);
        i += gridDim.x * blockDim.x;
    }
    __syncthreads();
    if (threadIdx.x < HBINS) {
        unsigned int total = 0;
#pragma unroll
        for (int w = 0; w < HWARPS; ++w)
            total += h[w][threadIdx.x];
        atomicAdd(&bins[threadIdx.x], total);
    }
}
