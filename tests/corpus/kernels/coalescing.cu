// Global-memory coalescing: contiguous, offset, strided, broadcast, row pointers,
// helper functions and column-major access. All arrays are float unless noted.

__global__ void copy_float(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i];
    }
}

__global__ void copy_plus1(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i + 1];
    }
}

__global__ void copy_offset(const float* in, float* out, int n, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i + offset];
}

__global__ void copy_strided(const float* in, float* out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i * stride];
}

template <int STRIDE>
__global__ void copy_strided_t(const float* __restrict__ in, float* __restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[STRIDE * i];
}

__global__ void copy_strided_double(const double* in, double* out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double v = in[i * stride];
        out[i] = 2.0 * v;
    }
}

// Each block handles one row of a row-major matrix through a row pointer.
__global__ void row_scale(const float* in, float* out, int ncols, float alpha)
{
    const float* row = in + (size_t)blockIdx.x * ncols;
    float* orow = out + (size_t)blockIdx.x * ncols;
    for (int c = threadIdx.x; c < ncols; c += blockDim.x) {
        orow[c] = alpha * row[c];
    }
}

__device__ __forceinline__ int global_index()
{
    return blockIdx.x * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ float load_elem(const float* p, int idx)
{
    return p[idx];
}

__device__ __forceinline__ void store_elem(float* p, int idx, float v)
{
    p[idx] = v;
}

// Access through local variables and inlined helpers: a stride-2 gather.
__global__ void helper_gather(const float* in, float* out, int n)
{
    int i = global_index();
    if (i >= n) return;
    const float* src = in;
    int j = 2 * i;
    float v = load_elem(src, j);
    store_elem(out, i, v + 1.0f);
}

// Column-major read: thread t of block b reads element (row t, column b).
__global__ void colmajor_read(const float* in, float* out, int ld)
{
    float v = in[threadIdx.x * ld + blockIdx.x];
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Every thread reads the same element.
__global__ void fill_from_first(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[0];
}

// One scale factor per block (warp-uniform address) plus a contiguous read.
__global__ void scale_by_block(const float* in, const float* scale, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = scale[blockIdx.x];
    out[i] = s * in[i];
}
