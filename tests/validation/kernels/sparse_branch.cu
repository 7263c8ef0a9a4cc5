// Validation set: gathers and scatters through index arrays (64-bit indices,
// struct tables, embedding rows), CSR and ELLPACK-R sparse matrix-vector
// products, and branches at thread / warp / block / grid granularity
// (switch on threadIdx.x % 4, blockDim-dependent halves, warp roles).

// out[i] = in[perm[i]] with 64-bit indices and double values.
__global__ void gather_perm_double(const double* __restrict__ in, const long long* __restrict__ perm,
                                   double* __restrict__ out, unsigned int n)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[perm[i]];
}

// Scatter-add with atomics (no global loads/stores on the target array).
__global__ void scatter_add(const float* __restrict__ vals, const int* __restrict__ idx,
                            float* __restrict__ acc, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&acc[idx[i]], vals[i]);
}

// CSR SpMV, one thread per row.
__global__ void spmv_csr_scalar(int nrows, const int* __restrict__ rowptr, const int* __restrict__ colidx,
                                const float* __restrict__ vals, const float* __restrict__ x, float* __restrict__ y)
{
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < nrows) {
        float dot = 0.0f;
        const int end = rowptr[row + 1];
        for (int jj = rowptr[row]; jj < end; ++jj)
            dot += vals[jj] * x[colidx[jj]];
        y[row] = dot;
    }
}

// ELLPACK-R SpMV: column-major padded storage plus per-row lengths (<= max_len).
__global__ void spmv_ellr(int nrows, const int* __restrict__ rowlen, const int* __restrict__ cols,
                          const float* __restrict__ vals, const float* __restrict__ x, float* __restrict__ y)
{
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= nrows)
        return;
    const int len = rowlen[row];
    float dot = 0.0f;
    for (int k = 0; k < len; ++k) {
        const int idx = k * nrows + row;
        dot += vals[idx] * __ldg(&x[cols[idx]]);
    }
    y[row] = dot;
}

// Embedding lookup: out row r = table row ids[r]; x walks the D features, y walks rows.
template <int D>
__global__ void embedding_gather(const float* __restrict__ table, const int* __restrict__ ids,
                                 float* __restrict__ out, int nrows)
{
    const int r = blockIdx.x * blockDim.y + threadIdx.y;
    if (r >= nrows)
        return;
    const int id = ids[r];
    for (int d = threadIdx.x; d < D; d += blockDim.x)
        out[(size_t)r * D + d] = table[(size_t)id * D + d];
}

struct __align__(8) Entry {
    int key;
    float value;
};

// Hash-table style lookup in an array of 8-byte structs; only .value is used.
__global__ void table_lookup(const Entry* __restrict__ table, const int* __restrict__ slots,
                             float* __restrict__ out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const int s = slots[i];
        out[i] = table[s].value;
    }
}

// Four different operations chosen by threadIdx.x % 4.
__global__ void lane_mod4_ops(const float* __restrict__ in, float* __restrict__ out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    switch (threadIdx.x % 4) {
    case 0: v = sqrtf(fabsf(v)); break;
    case 1: v = v * v; break;
    case 2: v = __expf(v); break;
    default: v = __sinf(v); break;
    }
    out[i] = v;
}

__device__ __forceinline__ float heavy_a(float v)
{
    for (int k = 0; k < 16; ++k)
        v = v * 0.9375f + 0.03125f;
    return v;
}

__device__ __forceinline__ float heavy_b(float v)
{
    for (int k = 0; k < 16; ++k)
        v = (v + 0.5f) * 0.5f;
    return v;
}

// First half of the block vs second half: warp-uniform iff blockDim.x / 2 is a multiple of 32.
__global__ void half_block_branch(const float* __restrict__ in, float* __restrict__ out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if (threadIdx.x < blockDim.x / 2)
        v = heavy_a(v);
    else
        v = heavy_b(v);
    out[i] = v;
}

__device__ __forceinline__ int warp_in_block()
{
    return threadIdx.x / warpSize;
}

// Warp roles, block roles and a run-time flag.
__global__ void warp_roles(const float* __restrict__ in, float* __restrict__ out, int flag)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if (warp_in_block() & 1)
        v = heavy_a(v);
    if (blockIdx.x % 3 == 0)
        v = heavy_b(v);
    if (flag)
        v = -v;
    out[i] = v;
}
