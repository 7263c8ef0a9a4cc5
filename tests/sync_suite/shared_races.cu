// Sync suite, theme: shared-memory data races between threads of one block, and their
// race-free twins.  Imitates GPUVerify's testsuite/OpenCL+CUDA "races" fail/pass pairs,
// the shared-memory cases of the GKLEE/SESA benchmarks and of the CUDA data-race
// benchmarks.  Each buggy kernel marks one racing access with "// BUG"; the twin that
// follows it is the corrected kernel.

#define BLOCK 128

// GPUVerify races/fail (missing barrier): write to s[t], read of the neighbour's word.
__global__ void sr_rotate_nobarrier(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = in[i];
    out[i] = s[(t + 1) % BLOCK]; // BUG
}

// GPUVerify races/pass (twin): barrier between the write and the read.
__global__ void sr_rotate_barrier(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = in[i];
    __syncthreads();
    out[i] = s[(t + 1) % BLOCK];
}

#define TILE 16

// CUDA race benchmarks, tiled matmul without the second barrier: the next tile's stores
// overwrite words other threads still read in the inner product (WAR across iterations).
__global__ void sr_matmul_missing_second_barrier(const float* A, const float* B, float* C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        As[ty][tx] = A[row * n + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * n + col]; // BUG
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
    }
    C[row * n + col] = acc;
}

// CUDA race benchmarks, tiled matmul without the first barrier (RAW on the fresh tile).
__global__ void sr_matmul_missing_first_barrier(const float* A, const float* B, float* C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        As[ty][tx] = A[row * n + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * n + col];
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx]; // BUG
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// GPUVerify pass (twin of both): tiled matmul with both barriers.
__global__ void sr_matmul_two_barriers(const float* A, const float* B, float* C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        As[ty][tx] = A[row * n + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// GPUVerify races/fail (write-write): every thread of the block stores to one shared word.
__global__ void sr_ww_same_word(const float* in, float* out)
{
    __shared__ float s_last;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s_last = in[i]; // BUG
    __syncthreads();
    out[i] = in[i] - s_last;
}

// GPUVerify pass (twin): a single designated writer, then a barrier.
__global__ void sr_single_writer(const float* in, float* out)
{
    __shared__ float s_last;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == blockDim.x - 1)
        s_last = in[i];
    __syncthreads();
    out[i] = in[i] - s_last;
}

// GKLEE benchmarks, reduction tree with the barrier missing from the loop body.
__global__ void sr_reduce_missing_barrier(const float* in, float* out)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned stride = 128; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride]; // BUG
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// GKLEE benchmarks, reduction tree whose only barrier is after the loop.
__global__ void sr_reduce_barrier_after_loop(const float* in, float* out)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned stride = 1; stride < 256; stride *= 2) {
        if (t % (2 * stride) == 0)
            s[t] += s[t + stride]; // BUG
    }
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// GKLEE benchmarks (twin): reduction tree with a barrier per level.
__global__ void sr_reduce_tree(const float* in, float* out)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned stride = 128; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// GKLEE benchmarks (twin): interleaved-addressing reduction with a barrier per level.
__global__ void sr_reduce_interleaved(const float* in, float* out)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned stride = 1; stride < 256; stride *= 2) {
        if (t % (2 * stride) == 0)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// GPUVerify races/fail (loop-carried): Jacobi sweeps with one barrier per sweep; a thread
// overwrites its word while a neighbour may still read the old one.
__global__ void sr_jacobi_one_barrier(const float* in, float* out, int iters)
{
    __shared__ float s[BLOCK + 2];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t + 1] = in[i];
    if (t == 0) {
        s[0] = 0.0f;
        s[BLOCK + 1] = 0.0f;
    }
    __syncthreads();
    for (int it = 0; it < iters; ++it) {
        float v = 0.5f * s[t + 1] + 0.25f * (s[t] + s[t + 2]);
        s[t + 1] = v; // BUG
        __syncthreads();
    }
    out[i] = s[t + 1];
}

// GPUVerify pass (twin): barrier between the neighbour reads and the update.
__global__ void sr_jacobi_two_barriers(const float* in, float* out, int iters)
{
    __shared__ float s[BLOCK + 2];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t + 1] = in[i];
    if (t == 0) {
        s[0] = 0.0f;
        s[BLOCK + 1] = 0.0f;
    }
    __syncthreads();
    for (int it = 0; it < iters; ++it) {
        float v = 0.5f * s[t + 1] + 0.25f * (s[t] + s[t + 2]);
        __syncthreads();
        s[t + 1] = v;
        __syncthreads();
    }
    out[i] = s[t + 1];
}

#define TDIM 32
#define TROWS 8

// CUDA SDK style transpose without the barrier between tile store and transposed load.
__global__ void sr_transpose_nobarrier(const float* in, float* out, int width)
{
    __shared__ float tile[TDIM][TDIM + 1];
    int x = blockIdx.x * TDIM + threadIdx.x;
    int y = blockIdx.y * TDIM + threadIdx.y;
    for (int j = 0; j < TDIM; j += TROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    x = blockIdx.y * TDIM + threadIdx.x;
    y = blockIdx.x * TDIM + threadIdx.y;
    for (int j = 0; j < TDIM; j += TROWS)
        out[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j]; // BUG
}

// CUDA SDK transpose (twin): padded tile, barrier between the two phases.
__global__ void sr_transpose_barrier(const float* in, float* out, int width)
{
    __shared__ float tile[TDIM][TDIM + 1];
    int x = blockIdx.x * TDIM + threadIdx.x;
    int y = blockIdx.y * TDIM + threadIdx.y;
    for (int j = 0; j < TDIM; j += TROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TDIM + threadIdx.x;
    y = blockIdx.x * TDIM + threadIdx.y;
    for (int j = 0; j < TDIM; j += TROWS)
        out[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

#define RADIUS 3

// CUDA race benchmarks, 1-D stencil: halo cells loaded by the first threads, read by all
// threads without a barrier.
__global__ void sr_stencil_halo_nobarrier(const float* in, float* out)
{
    __shared__ float s[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * BLOCK + threadIdx.x;
    int l = threadIdx.x + RADIUS;
    s[l] = in[g + RADIUS];
    if (threadIdx.x < RADIUS) {
        s[l - RADIUS] = in[g];
        s[l + BLOCK] = in[g + BLOCK + RADIUS];
    }
    float acc = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k)
        acc += s[l + k]; // BUG
    out[g] = acc;
}

// CUDA race benchmarks (twin): 1-D stencil with the barrier after the halo loads.
__global__ void sr_stencil_halo_barrier(const float* in, float* out)
{
    __shared__ float s[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * BLOCK + threadIdx.x;
    int l = threadIdx.x + RADIUS;
    s[l] = in[g + RADIUS];
    if (threadIdx.x < RADIUS) {
        s[l - RADIUS] = in[g];
        s[l + BLOCK] = in[g + BLOCK + RADIUS];
    }
    __syncthreads();
    float acc = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k)
        acc += s[l + k];
    out[g] = acc;
}

// GPUVerify races/fail (scan): in-place Hillis-Steele scan with one barrier per step;
// thread t reads s[t - off] while thread t - off updates it in the same step.
__global__ void sr_scan_inplace_one_barrier(const int* in, int* out)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = in[i];
    __syncthreads();
    for (int off = 1; off < BLOCK; off <<= 1) {
        if (t >= off)
            s[t] += s[t - off]; // BUG
        __syncthreads();
    }
    out[i] = s[t];
}

// GPUVerify pass (twin): read into a register, barrier, write, barrier.
__global__ void sr_scan_two_barriers(const int* in, int* out)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = in[i];
    __syncthreads();
    for (int off = 1; off < BLOCK; off <<= 1) {
        int add = (t >= off) ? s[t - off] : 0;
        __syncthreads();
        s[t] += add;
        __syncthreads();
    }
    out[i] = s[t];
}

// CUDA race benchmarks, array reversal through dynamic shared memory, no barrier.
__global__ void sr_reverse_dynamic_nobarrier(int* d)
{
    extern __shared__ int sd[];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    sd[t] = d[base + t];
    d[base + t] = sd[blockDim.x - 1 - t]; // BUG
}

// CUDA race benchmarks (twin): reversal through dynamic shared memory with a barrier.
__global__ void sr_reverse_dynamic_barrier(int* d)
{
    extern __shared__ int sd[];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    sd[t] = d[base + t];
    __syncthreads();
    d[base + t] = sd[blockDim.x - 1 - t];
}

// GPUVerify races/fail (template): block size as a template parameter, no barrier.
template <int N>
__global__ void sr_reverse_tpl_nobarrier(float* d)
{
    __shared__ float s[N];
    int t = threadIdx.x;
    s[t] = d[blockIdx.x * N + t];
    d[blockIdx.x * N + t] = s[N - 1 - t]; // BUG
}

// GPUVerify pass (twin, template).
template <int N>
__global__ void sr_reverse_tpl_barrier(float* d)
{
    __shared__ float s[N];
    int t = threadIdx.x;
    s[t] = d[blockIdx.x * N + t];
    __syncthreads();
    d[blockIdx.x * N + t] = s[N - 1 - t];
}

#define NBINS 16

// CUDA race benchmarks, shared histogram updated with a plain read-modify-write.
__global__ void sr_histogram_nonatomic(const int* keys, int* hist)
{
    __shared__ int h[NBINS];
    int t = threadIdx.x;
    if (t < NBINS)
        h[t] = 0;
    __syncthreads();
    int k = keys[blockIdx.x * blockDim.x + t] & (NBINS - 1);
    h[k] += 1; // BUG
    __syncthreads();
    if (t < NBINS)
        atomicAdd(&hist[t], h[t]);
}

// CUDA race benchmarks (twin): shared histogram with atomicAdd.
__global__ void sr_histogram_atomic(const int* keys, int* hist)
{
    __shared__ int h[NBINS];
    int t = threadIdx.x;
    if (t < NBINS)
        h[t] = 0;
    __syncthreads();
    int k = keys[blockIdx.x * blockDim.x + t] & (NBINS - 1);
    atomicAdd(&h[k], 1);
    __syncthreads();
    if (t < NBINS)
        atomicAdd(&hist[t], h[t]);
}

// GPUVerify races/fail (broadcast): thread 0 publishes a value that every thread reads
// without a barrier.
__global__ void sr_broadcast_nobarrier(const float* in, const float* scale, float* out)
{
    __shared__ float s_scale;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        s_scale = scale[blockIdx.x];
    out[i] = in[i] * s_scale; // BUG
}

// GPUVerify pass (twin).
__global__ void sr_broadcast_barrier(const float* in, const float* scale, float* out)
{
    __shared__ float s_scale;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        s_scale = scale[blockIdx.x];
    __syncthreads();
    out[i] = in[i] * s_scale;
}

// GPUVerify races/fail (write-after-read): the update of s[t] is not separated from the
// neighbour's read of s[t].
__global__ void sr_war_overwrite(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = in[i];
    __syncthreads();
    float left = s[(t + BLOCK - 1) % BLOCK];
    s[t] = 2.0f * left; // BUG
    __syncthreads();
    out[i] = s[(t + 1) % BLOCK];
}

// GPUVerify pass (twin): barrier between the read phase and the write phase.
__global__ void sr_war_separated(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = in[i];
    __syncthreads();
    float left = s[(t + BLOCK - 1) % BLOCK];
    __syncthreads();
    s[t] = 2.0f * left;
    __syncthreads();
    out[i] = s[(t + 1) % BLOCK];
}

// GPUVerify races/fail (2-D): 16x16 block reads the row below without a barrier.
__global__ void sr_2d_neighbour_nobarrier(const float* in, float* out, int width)
{
    __shared__ float s[16][17];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * 16 + tx;
    int y = blockIdx.y * 16 + ty;
    s[ty][tx] = in[y * width + x];
    float below = (ty < 15) ? s[ty + 1][tx] : 0.0f; // BUG
    out[y * width + x] = below - s[ty][tx];
}

// GPUVerify pass (2-D twin).
__global__ void sr_2d_neighbour_barrier(const float* in, float* out, int width)
{
    __shared__ float s[16][17];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * 16 + tx;
    int y = blockIdx.y * 16 + ty;
    s[ty][tx] = in[y * width + x];
    __syncthreads();
    float below = (ty < 15) ? s[ty + 1][tx] : 0.0f;
    out[y * width + x] = below - s[ty][tx];
}

// CUDA race benchmarks, double buffering that prefetches into the buffer being consumed.
__global__ void sr_double_buffer_same_slot(const float* in, float* out, int ntiles)
{
    __shared__ float buf[2][BLOCK];
    int t = threadIdx.x;
    int base = blockIdx.x * ntiles * BLOCK;
    float acc = 0.0f;
    buf[0][t] = in[base + t];
    __syncthreads();
    for (int k = 0; k < ntiles; ++k) {
        int cur = k & 1;
        if (k + 1 < ntiles)
            buf[cur][t] = in[base + (k + 1) * BLOCK + t]; // BUG
        acc += buf[cur][(t + 1) % BLOCK];
        __syncthreads();
    }
    out[blockIdx.x * BLOCK + t] = acc;
}

// CUDA race benchmarks (twin): prefetch into the other buffer, one barrier per tile.
__global__ void sr_double_buffer_pingpong(const float* in, float* out, int ntiles)
{
    __shared__ float buf[2][BLOCK];
    int t = threadIdx.x;
    int base = blockIdx.x * ntiles * BLOCK;
    float acc = 0.0f;
    buf[0][t] = in[base + t];
    __syncthreads();
    for (int k = 0; k < ntiles; ++k) {
        int cur = k & 1;
        if (k + 1 < ntiles)
            buf[cur ^ 1][t] = in[base + (k + 1) * BLOCK + t];
        acc += buf[cur][(t + 1) % BLOCK];
        __syncthreads();
    }
    out[blockIdx.x * BLOCK + t] = acc;
}

// GPUVerify races/fail (helper function): the barrier-free write happens inside a
// __device__ helper, the racing read in the kernel.
__device__ void stage_row(float* s, const float* src, int t)
{
    s[t] = src[t] * 0.5f; // BUG
}

__global__ void sr_helper_nobarrier(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    stage_row(s, in + blockIdx.x * BLOCK, t);
    out[blockIdx.x * BLOCK + t] = s[BLOCK - 1 - t];
}

// GPUVerify pass (helper twin): the helper ends with the barrier.
__device__ void stage_row_sync(float* s, const float* src, int t)
{
    s[t] = src[t] * 0.5f;
    __syncthreads();
}

__global__ void sr_helper_barrier(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    stage_row_sync(s, in + blockIdx.x * BLOCK, t);
    out[blockIdx.x * BLOCK + t] = s[BLOCK - 1 - t];
}
