// Validation set: 2-D and 3-D launches over row- and column-major data with
// pitch arguments, blocks narrower than a warp, and branches on threadIdx.y.
#define IDX(r, c, ld) ((r) * (ld) + (c))

// Row-major, padded rows (pitch >= cols); x walks columns.
__global__ void scale2d_pitch(const float* in, float* out, int rows, int cols, int pitch, float s)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[IDX(r, c, pitch)] = s * in[IDX(r, c, pitch)];
}

// Column-major (BLAS layout) Y += alpha * X; x walks rows, y walks columns.
__global__ void colmajor_axpy(const float* __restrict__ X, float* __restrict__ Y, int m, int n,
                              int ldx, int ldy, float alpha)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < m && j < n)
        Y[i + (size_t)j * ldy] += alpha * X[i + (size_t)j * ldx];
}

// Row-major data, but x walks rows: lanes land `pitch` floats apart.
__global__ void rowmajor_column_walk(const float* in, float* out, int rows, int cols, int pitch)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    const int c = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[IDX(r, c, pitch)] = in[IDX(r, c, pitch)] + 1.0f;
}

// 3-D launch over an nx * ny * nz volume (x fastest).
__global__ void add3d(const float* a, const float* b, float* c, int nx, int ny, int nz)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz)
        return;
    const size_t idx = ((size_t)z * ny + y) * nx + x;
    c[idx] = a[idx] + b[idx];
}

__device__ __forceinline__ float smooth(float v)
{
    for (int k = 0; k < 8; ++k)
        v = v * 0.875f + 0.0625f;
    return v;
}

__device__ __forceinline__ float sharpen(float v)
{
    for (int k = 0; k < 8; ++k)
        v = v * 1.125f - 0.0625f;
    return v;
}

// Odd and even threadIdx.y rows of a block take different paths: warp-uniform
// when blockDim.x == 32, divergent when blockDim.x == 16.
__global__ void rowband_branch(const float* in, float* out, int width)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    float v = in[IDX(y, x, width)];
    if (threadIdx.y & 1)
        v = smooth(v);
    else
        v = sharpen(v);
    out[IDX(y, x, width)] = v;
}

// Border handling: the first and last block rows and a run-time mode flag.
__global__ void edge_rows(const float* in, float* out, int width, int mode)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    float v = in[IDX(y, x, width)];
    if (blockIdx.y == 0 || blockIdx.y == gridDim.y - 1)
        v = 0.0f;
    if (mode == 1)
        v = smooth(v);
    out[IDX(y, x, width)] = v;
}
