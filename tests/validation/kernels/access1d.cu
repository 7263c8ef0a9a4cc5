// Validation set: 1-D element-wise kernels written with size_t / unsigned
// indices, pointer arithmetic, __restrict__ / __ldg, while and do/while loops,
// and loops whose trip count depends on blockIdx.

// y = a*x + y over a size_t range; n is not a multiple of 32.
__global__ void saxpy_sizet(const float* __restrict__ x, float* __restrict__ y, float a, size_t n)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    y[i] = fmaf(a, __ldg(x + i), y[i]);
}

// Each thread sums two neighbouring floats that start `stride` floats apart per thread.
__global__ void pair_sum_strided(const float* in, float* out, unsigned n, unsigned stride)
{
    const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        const float* p = in + (size_t)tid * stride;
        out[tid] = p[0] + p[1];
    }
}

// The destination pointer is advanced by a run-time shift before the store.
__global__ void shifted_store(const float* __restrict__ src, float* __restrict__ dst, int n, int shift)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    dst += shift;
    if (tid < n)
        dst[tid] = 2.0f * src[tid];
}

// Grid-stride loop written as a while loop over 64-bit indices.
__global__ void scale_while(const double* in, double* out, double s, long long n)
{
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const long long step = (long long)gridDim.x * blockDim.x;
    while (i < n) {
        out[i] = s * in[i];
        i += step;
    }
}

// Sum of `reps` planes of length n, written with do/while.
__global__ void accumulate_dowhile(const float* in, float* out, int n, int reps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
    int r = 0;
    do {
        acc += in[(size_t)r * n + i];
        ++r;
    } while (r < reps);
    out[i] = acc;
}

__device__ __forceinline__ unsigned global_warp_id()
{
    return (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
}

// One bias value per warp of the grid, read through a helper and __ldg.
__global__ void add_warp_bias(const float* __restrict__ in, const float* __restrict__ bias,
                              float* __restrict__ out, unsigned n)
{
    const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n) return;
    out[tid] = in[tid] + __ldg(&bias[global_warp_id()]);
}

// Block r sums row r of a lower-triangular matrix (columns 0..r); the trip count
// of the column loop depends on blockIdx.x. One partial sum per thread.
__global__ void triangular_rowsum(const float* A, float* partial, float* diag, int ld)
{
    const int r = blockIdx.x;
    const float* row = A + (size_t)r * ld;
    float s = 0.0f;
    for (int c = threadIdx.x; c <= r; c += blockDim.x)
        s += row[c];
    partial[r * blockDim.x + threadIdx.x] = s;
    if (threadIdx.x == 0)
        diag[r] = row[r];
}
