// Barriers that order nothing (back to back, or closing the kernel) and the same kernels
// without them.

#define RB_BLOCK 256
#define RB_TX 32
#define RB_TY 8

// Per-block maximum by tree reduction; the staging barrier was written twice.
__global__ void block_max_double_barrier(const float* __restrict__ in, float* __restrict__ maxima)
{
    __shared__ float s[RB_BLOCK];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * RB_BLOCK + t];
    __syncthreads();
    __syncthreads();
    for (int w = RB_BLOCK / 2; w > 0; w >>= 1) {
        if (t < w)
            s[t] = fmaxf(s[t], s[t + w]);
        __syncthreads();
    }
    if (t == 0)
        maxima[blockIdx.x] = s[0];
}

__global__ void block_max(const float* __restrict__ in, float* __restrict__ maxima)
{
    __shared__ float s[RB_BLOCK];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * RB_BLOCK + t];
    __syncthreads();
    for (int w = RB_BLOCK / 2; w > 0; w >>= 1) {
        if (t < w)
            s[t] = fmaxf(s[t], s[t + w]);
        __syncthreads();
    }
    if (t == 0)
        maxima[blockIdx.x] = s[0];
}

// Horizontal flip of an int image through a 32 x 8 tile; a barrier closes the kernel.
__global__ void flip_rows_trailing_barrier(const int* __restrict__ in, int* __restrict__ out, int width)
{
    __shared__ int tile[RB_TY][RB_TX];
    int x = blockIdx.x * RB_TX + threadIdx.x;
    int y = blockIdx.y * RB_TY + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    int fx = (gridDim.x - 1 - blockIdx.x) * RB_TX + threadIdx.x;
    out[y * width + fx] = tile[threadIdx.y][RB_TX - 1 - threadIdx.x];
    __syncthreads();
}

__global__ void flip_rows(const int* __restrict__ in, int* __restrict__ out, int width)
{
    __shared__ int tile[RB_TY][RB_TX];
    int x = blockIdx.x * RB_TX + threadIdx.x;
    int y = blockIdx.y * RB_TY + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    int fx = (gridDim.x - 1 - blockIdx.x) * RB_TX + threadIdx.x;
    out[y * width + fx] = tile[threadIdx.y][RB_TX - 1 - threadIdx.x];
}

// Blend of each value with its right neighbour in the block (rotating); between the two
// barriers there is only register arithmetic.
template <typename T, int BLOCK>
__global__ void blend_next_extra_barrier(const T* __restrict__ in, T* __restrict__ out, T alpha)
{
    __shared__ T s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    T v = in[i];
    s[t] = v;
    __syncthreads();
    T w = alpha * v + (T(1) - alpha) * v * v;
    __syncthreads();
    out[i] = w + s[(t + 1) % BLOCK];
}

template <typename T, int BLOCK>
__global__ void blend_next(const T* __restrict__ in, T* __restrict__ out, T alpha)
{
    __shared__ T s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    T v = in[i];
    s[t] = v;
    __syncthreads();
    T w = alpha * v + (T(1) - alpha) * v * v;
    out[i] = w + s[(t + 1) % BLOCK];
}

__device__ __forceinline__ unsigned warp_or(unsigned v)
{
    for (int off = 16; off > 0; off >>= 1)
        v |= __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// OR of status flags per block: warp shuffles, one word per warp, thread 0 combines.
// The final barrier comes after the last store.
__global__ void block_flags_trailing_barrier(const unsigned* __restrict__ flags,
                                             unsigned* __restrict__ per_block, int n)
{
    __shared__ unsigned warp_part[RB_BLOCK / 32];
    int t = threadIdx.x;
    int i = blockIdx.x * RB_BLOCK + t;
    unsigned v = i < n ? flags[i] : 0u;
    v = warp_or(v);
    if ((t & 31) == 0)
        warp_part[t >> 5] = v;
    __syncthreads();
    if (t == 0) {
        unsigned acc = 0u;
        for (int w = 0; w < RB_BLOCK / 32; ++w)
            acc |= warp_part[w];
        per_block[blockIdx.x] = acc;
    }
    __syncthreads();
}

__global__ void block_flags(const unsigned* __restrict__ flags, unsigned* __restrict__ per_block, int n)
{
    __shared__ unsigned warp_part[RB_BLOCK / 32];
    int t = threadIdx.x;
    int i = blockIdx.x * RB_BLOCK + t;
    unsigned v = i < n ? flags[i] : 0u;
    v = warp_or(v);
    if ((t & 31) == 0)
        warp_part[t >> 5] = v;
    __syncthreads();
    if (t == 0) {
        unsigned acc = 0u;
        for (int w = 0; w < RB_BLOCK / 32; ++w)
            acc |= warp_part[w];
        per_block[blockIdx.x] = acc;
    }
}

void run_redundant_barrier(const float* fin, float* fout, const int* iin, int* iout,
                           const unsigned* flags, unsigned* bflags)
{
    const int n = 1 << 22;
    block_max_double_barrier<<<n / RB_BLOCK, RB_BLOCK>>>(fin, fout);
    block_max<<<n / RB_BLOCK, RB_BLOCK>>>(fin, fout);

    const int width = 2048;
    const int height = 2048;
    dim3 block(RB_TX, RB_TY);
    dim3 grid(width / RB_TX, height / RB_TY);
    flip_rows_trailing_barrier<<<grid, block>>>(iin, iout, width);
    flip_rows<<<grid, block>>>(iin, iout, width);

    blend_next_extra_barrier<float, 128><<<n / 128, 128>>>(fin, fout, 0.25f);
    blend_next<float, 128><<<n / 128, 128>>>(fin, fout, 0.25f);

    const int n_flags = 5000000;
    block_flags_trailing_barrier<<<(n_flags + RB_BLOCK - 1) / RB_BLOCK, RB_BLOCK>>>(flags, bflags, n_flags);
    block_flags<<<(n_flags + RB_BLOCK - 1) / RB_BLOCK, RB_BLOCK>>>(flags, bflags, n_flags);
}
