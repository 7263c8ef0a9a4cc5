// Grid-wide accumulators updated by every thread, and the same reductions done in the warp
// or block first with one atomic per warp or block.
#define AC_BLOCK 256
#define AC_TX 32
#define AC_TY 8
#define FULL_MASK 0xffffffffu

// Dot product, grid-stride.
__global__ void dot_atomic_per_element(const float* __restrict__ a, const float* __restrict__ b,
                                       float* __restrict__ result, int n)
{
    for (int i = blockIdx.x * AC_BLOCK + threadIdx.x; i < n; i += gridDim.x * AC_BLOCK)
        atomicAdd(result, a[i] * b[i]);
}

__global__ void dot_block_reduce(const float* __restrict__ a, const float* __restrict__ b,
                                 float* __restrict__ result, int n)
{
    __shared__ float warp_sums[AC_BLOCK / 32];
    float acc = 0.0f;
    for (int i = blockIdx.x * AC_BLOCK + threadIdx.x; i < n; i += gridDim.x * AC_BLOCK)
        acc += a[i] * b[i];
    for (int off = 16; off > 0; off >>= 1)
        acc += __shfl_down_sync(FULL_MASK, acc, off);
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    if (lane == 0)
        warp_sums[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        float v = lane < AC_BLOCK / 32 ? warp_sums[lane] : 0.0f;
        for (int off = 4; off > 0; off >>= 1)
            v += __shfl_down_sync(FULL_MASK, v, off);
        if (lane == 0)
            atomicAdd(result, v);
    }
}

// Sum of the positive entries (ReLU sum) of a float vector.
__global__ void relu_sum_atomic(const float* __restrict__ x, float* __restrict__ total, int n)
{
    int i = blockIdx.x * AC_BLOCK + threadIdx.x;
    if (i < n) {
        float v = x[i];
        if (v > 0.0f)
            atomicAdd(total, v);
    }
}

__global__ void relu_sum_warp(const float* __restrict__ x, float* __restrict__ total, int n)
{
    int i = blockIdx.x * AC_BLOCK + threadIdx.x;
    float v = i < n ? fmaxf(x[i], 0.0f) : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(FULL_MASK, v, off);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(total, v);
}

// Squared Frobenius norm of a row-major double matrix, 2-D blocks.
__global__ void frobenius_sq_atomic(const double* __restrict__ m, double* __restrict__ norm2,
                                    int width, int height)
{
    int x = blockIdx.x * AC_TX + threadIdx.x;
    int y = blockIdx.y * AC_TY + threadIdx.y;
    if (x < width && y < height) {
        double v = m[y * width + x];
        atomicAdd(norm2, v * v);
    }
}

__global__ void frobenius_sq_block(const double* __restrict__ m, double* __restrict__ norm2,
                                   int width, int height)
{
    __shared__ double row_sums[AC_TY];
    int x = blockIdx.x * AC_TX + threadIdx.x;
    int y = blockIdx.y * AC_TY + threadIdx.y;
    double v = (x < width && y < height) ? m[y * width + x] : 0.0;
    double sq = v * v;
    for (int off = 16; off > 0; off >>= 1)
        sq += __shfl_down_sync(FULL_MASK, sq, off);
    if (threadIdx.x == 0)
        row_sums[threadIdx.y] = sq;
    __syncthreads();
    if (threadIdx.y == 0) {
        double s = threadIdx.x < AC_TY ? row_sums[threadIdx.x] : 0.0;
        for (int off = 4; off > 0; off >>= 1)
            s += __shfl_down_sync(FULL_MASK, s, off);
        if (threadIdx.x == 0)
            atomicAdd(norm2, s);
    }
}

struct Moments {
    double sum;
    double sum_sq;
};

// First two moments of a double sample, straight into one global struct.
template <int BLOCK>
__global__ void moments_atomic(const double* __restrict__ x, Moments* __restrict__ m, int n)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) {
        double v = x[i];
        atomicAdd(&m->sum, v);
        atomicAdd(&m->sum_sq, v * v);
    }
}

template <int BLOCK>
__global__ void moments_block(const double* __restrict__ x, Moments* __restrict__ m, int n)
{
    __shared__ double part_s[BLOCK / 32];
    __shared__ double part_q[BLOCK / 32];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    double v = i < n ? x[i] : 0.0;
    double s = v;
    double q = v * v;
    for (int off = 16; off > 0; off >>= 1) {
        s += __shfl_xor_sync(FULL_MASK, s, off);
        q += __shfl_xor_sync(FULL_MASK, q, off);
    }
    if (lane == 0) {
        part_s[warp] = s;
        part_q[warp] = q;
    }
    __syncthreads();
    if (warp == 0) {
        s = lane < BLOCK / 32 ? part_s[lane] : 0.0;
        q = lane < BLOCK / 32 ? part_q[lane] : 0.0;
        for (int off = 16; off > 0; off >>= 1) {
            s += __shfl_xor_sync(FULL_MASK, s, off);
            q += __shfl_xor_sync(FULL_MASK, q, off);
        }
        if (lane == 0) {
            atomicAdd(&m->sum, s);
            atomicAdd(&m->sum_sq, q);
        }
    }
}

void run_atomic_contention(const float* fa, const float* fb, float* fresult, float* ftotal,
                           const double* dm, double* dnorm, Moments* moments)
{
    const int n = 1 << 24;
    dot_atomic_per_element<<<1024, AC_BLOCK>>>(fa, fb, fresult, n);
    dot_block_reduce<<<1024, AC_BLOCK>>>(fa, fb, fresult, n);

    const int n_relu = 1000000;
    relu_sum_atomic<<<(n_relu + AC_BLOCK - 1) / AC_BLOCK, AC_BLOCK>>>(fa, ftotal, n_relu);
    relu_sum_warp<<<(n_relu + AC_BLOCK - 1) / AC_BLOCK, AC_BLOCK>>>(fa, ftotal, n_relu);

    const int width = 2048;
    const int height = 2048;
    dim3 block(AC_TX, AC_TY);
    dim3 grid(width / AC_TX, height / AC_TY);
    frobenius_sq_atomic<<<grid, block>>>(dm, dnorm, width, height);
    frobenius_sq_block<<<grid, block>>>(dm, dnorm, width, height);

    const int n_mom = 3000000;
    moments_atomic<128><<<(n_mom + 127) / 128, 128>>>(dm, moments, n_mom);
    moments_block<128><<<(n_mom + 127) / 128, 128>>>(dm, moments, n_mom);
}
