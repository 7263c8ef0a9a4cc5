// Block barriers that part of the block never reaches, next to the same kernels with the
// barrier hoisted out of the divergent path (guard the work, not the barrier).
#include <cuda_fp16.h>

#define BD_BLOCK 256
#define BD_RBLOCK 128
#define BD_TILE 32
#define BD_ROWS 8

// Even threads publish a doubled copy of their value; each even thread then adds the
// mirrored even value of the block.
__global__ void mirror_even_lanes_sync_in_branch(const float* __restrict__ in, float* __restrict__ out)
{
    __shared__ float half_buf[BD_BLOCK / 2];
    int t = threadIdx.x;
    int i = blockIdx.x * BD_BLOCK + t;
    float v = in[i];
    if ((t & 1) == 0) {
        half_buf[t >> 1] = 2.0f * v;
        __syncthreads();
        v += half_buf[BD_BLOCK / 2 - 1 - (t >> 1)];
    }
    out[i] = v;
}

__global__ void mirror_even_lanes(const float* __restrict__ in, float* __restrict__ out)
{
    __shared__ float half_buf[BD_BLOCK / 2];
    int t = threadIdx.x;
    int i = blockIdx.x * BD_BLOCK + t;
    float v = in[i];
    if ((t & 1) == 0)
        half_buf[t >> 1] = 2.0f * v;
    __syncthreads();
    if ((t & 1) == 0)
        v += half_buf[BD_BLOCK / 2 - 1 - (t >> 1)];
    out[i] = v;
}

// Ragged transpose of a width x height matrix: threads right of the matrix edge leave before
// the tile barrier.
template <typename T>
__global__ void transpose_ragged_early_exit(const T* __restrict__ in, T* __restrict__ out,
                                            int width, int height)
{
    __shared__ T tile[BD_TILE][BD_TILE + 1];
    int x = blockIdx.x * BD_TILE + threadIdx.x;
    int y = blockIdx.y * BD_TILE + threadIdx.y;
    if (x >= width)
        return;
    for (int j = 0; j < BD_TILE; j += BD_ROWS)
        if (y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    int ox = blockIdx.y * BD_TILE + threadIdx.x;
    int oy = blockIdx.x * BD_TILE + threadIdx.y;
    for (int j = 0; j < BD_TILE; j += BD_ROWS)
        if (ox < height && oy + j < width)
            out[(oy + j) * height + ox] = tile[threadIdx.x][threadIdx.y + j];
}

template <typename T>
__global__ void transpose_ragged(const T* __restrict__ in, T* __restrict__ out,
                                 int width, int height)
{
    __shared__ T tile[BD_TILE][BD_TILE + 1];
    int x = blockIdx.x * BD_TILE + threadIdx.x;
    int y = blockIdx.y * BD_TILE + threadIdx.y;
    for (int j = 0; j < BD_TILE; j += BD_ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    int ox = blockIdx.y * BD_TILE + threadIdx.x;
    int oy = blockIdx.x * BD_TILE + threadIdx.y;
    for (int j = 0; j < BD_TILE; j += BD_ROWS)
        if (ox < height && oy + j < width)
            out[(oy + j) * height + ox] = tile[threadIdx.x][threadIdx.y + j];
}

__device__ __forceinline__ int load_or_zero(const int* __restrict__ p, int i, int n)
{
    return i < n ? p[i] : 0;
}

// Tree reduction with the barrier put inside the active-half test.
__global__ void block_sum_sync_in_guard(const int* __restrict__ in, int* __restrict__ partial, int n)
{
    __shared__ int sbuf[BD_RBLOCK];
    int t = threadIdx.x;
    sbuf[t] = load_or_zero(in, blockIdx.x * BD_RBLOCK + t, n);
    __syncthreads();
    for (int s = BD_RBLOCK / 2; s > 0; s >>= 1) {
        if (t < s) {
            sbuf[t] += sbuf[t + s];
            __syncthreads();
        }
    }
    if (t == 0)
        partial[blockIdx.x] = sbuf[0];
}

__global__ void block_sum(const int* __restrict__ in, int* __restrict__ partial, int n)
{
    __shared__ int sbuf[BD_RBLOCK];
    int t = threadIdx.x;
    sbuf[t] = load_or_zero(in, blockIdx.x * BD_RBLOCK + t, n);
    __syncthreads();
    for (int s = BD_RBLOCK / 2; s > 0; s >>= 1) {
        if (t < s)
            sbuf[t] += sbuf[t + s];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = sbuf[0];
}

// Stores one value per thread into the block tile and waits for the whole block.
__device__ void stage_and_sync(__half* tile, int slot, __half v)
{
    tile[slot] = v;
    __syncthreads();
}

// Pairwise average of neighbouring half values; the in-range test wraps the helper
// that holds the barrier, so the tail block's out-of-range threads skip it.
__global__ void pair_average_half_guarded(const __half* __restrict__ in, __half* __restrict__ out, int n)
{
    __shared__ __half tile[BD_BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BD_BLOCK + t;
    if (i < n) {
        stage_and_sync(tile, t, in[i]);
        out[i] = __hmul(__hadd(tile[t], tile[t ^ 1]), __float2half(0.5f));
    }
}

__global__ void pair_average_half(const __half* __restrict__ in, __half* __restrict__ out, int n)
{
    __shared__ __half tile[BD_BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BD_BLOCK + t;
    stage_and_sync(tile, t, i < n ? in[i] : __float2half(0.0f));
    if (i < n)
        out[i] = __hmul(__hadd(tile[t], tile[t ^ 1]), __float2half(0.5f));
}

void run_barrier_divergence(const float* fin, float* fout, const double* din, double* dout,
                            const int* iin, int* ipartial, const __half* hin, __half* hout)
{
    const int n_mirror = 1 << 22;
    mirror_even_lanes_sync_in_branch<<<n_mirror / BD_BLOCK, BD_BLOCK>>>(fin, fout);
    mirror_even_lanes<<<n_mirror / BD_BLOCK, BD_BLOCK>>>(fin, fout);

    const int width = 1000;
    const int height = 600;
    dim3 tblock(BD_TILE, BD_ROWS);
    dim3 tgrid((width + BD_TILE - 1) / BD_TILE, (height + BD_TILE - 1) / BD_TILE);
    transpose_ragged_early_exit<double><<<tgrid, tblock>>>(din, dout, width, height);
    transpose_ragged<double><<<tgrid, tblock>>>(din, dout, width, height);

    const int n_sum = 1000000;
    block_sum_sync_in_guard<<<(n_sum + BD_RBLOCK - 1) / BD_RBLOCK, BD_RBLOCK>>>(iin, ipartial, n_sum);
    block_sum<<<(n_sum + BD_RBLOCK - 1) / BD_RBLOCK, BD_RBLOCK>>>(iin, ipartial, n_sum);

    const int n_half = 3000000;
    pair_average_half_guarded<<<(n_half + BD_BLOCK - 1) / BD_BLOCK, BD_BLOCK>>>(hin, hout, n_half);
    pair_average_half<<<(n_half + BD_BLOCK - 1) / BD_BLOCK, BD_BLOCK>>>(hin, hout, n_half);
}
