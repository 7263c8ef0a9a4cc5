// Sync suite, theme: larger correct kernels in the style of GPUVerify's "pass" tests and
// the correct halves of the GKLEE/SESA benchmark programs (scans, sorts, stencils,
// compaction, matrix products), with a few planted-race variants of them.

#define BLOCK 128
#define SCAN_N 256

// GKLEE/SESA benchmark (work-efficient Blelloch scan, 2 elements per thread): pass.
__global__ void pc_blelloch_scan(const int* in, int* out)
{
    __shared__ int s[SCAN_N];
    int t = threadIdx.x;
    int base = blockIdx.x * SCAN_N;
    s[2 * t] = in[base + 2 * t];
    s[2 * t + 1] = in[base + 2 * t + 1];
    int off = 1;
    for (int d = SCAN_N >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1;
            int bi = off * (2 * t + 2) - 1;
            s[bi] += s[ai];
        }
        off <<= 1;
    }
    if (t == 0)
        s[SCAN_N - 1] = 0;
    for (int d = 1; d < SCAN_N; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1;
            int bi = off * (2 * t + 2) - 1;
            int tmp = s[ai];
            s[ai] = s[bi];
            s[bi] += tmp;
        }
    }
    __syncthreads();
    out[base + 2 * t] = s[2 * t];
    out[base + 2 * t + 1] = s[2 * t + 1];
}

// GKLEE/SESA benchmark, Blelloch scan whose down-sweep lost its barrier.
__global__ void sr_blelloch_downsweep_nobarrier(const int* in, int* out)
{
    __shared__ int s[SCAN_N];
    int t = threadIdx.x;
    int base = blockIdx.x * SCAN_N;
    s[2 * t] = in[base + 2 * t];
    s[2 * t + 1] = in[base + 2 * t + 1];
    int off = 1;
    for (int d = SCAN_N >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1;
            int bi = off * (2 * t + 2) - 1;
            s[bi] += s[ai];
        }
        off <<= 1;
    }
    if (t == 0)
        s[SCAN_N - 1] = 0;
    for (int d = 1; d < SCAN_N; d <<= 1) {
        off >>= 1;
        if (t < d) {
            int ai = off * (2 * t + 1) - 1;
            int bi = off * (2 * t + 2) - 1;
            int tmp = s[ai];
            s[ai] = s[bi]; // BUG
            s[bi] += tmp;
        }
    }
    __syncthreads();
    out[base + 2 * t] = s[2 * t];
    out[base + 2 * t + 1] = s[2 * t + 1];
}

// GKLEE/SESA benchmark (bitonic sort in shared memory, barrier after every stage): pass.
__global__ void pc_bitonic_sort(float* d)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    s[t] = d[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (int k = 2; k <= BLOCK; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int ixj = t ^ j;
            if (ixj > t) {
                float a = s[t], b = s[ixj];
                bool up = ((t & k) == 0);
                if ((a > b) == up) {
                    s[t] = b;
                    s[ixj] = a;
                }
            }
            __syncthreads();
        }
    }
    d[blockIdx.x * BLOCK + t] = s[t];
}

// GKLEE/SESA benchmark, bitonic sort with a barrier per merge phase only (the stages of
// one phase race on the partners' words).
__global__ void sr_bitonic_barrier_per_phase(float* d)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    s[t] = d[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (int k = 2; k <= BLOCK; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int ixj = t ^ j;
            if (ixj > t) {
                float a = s[t], b = s[ixj]; // BUG
                bool up = ((t & k) == 0);
                if ((a > b) == up) {
                    s[t] = b;
                    s[ixj] = a;
                }
            }
        }
        __syncthreads();
    }
    d[blockIdx.x * BLOCK + t] = s[t];
}

#define CT 16

// GPUVerify pass (2-D stencil with halo, loops with thread-dependent trip counts but no
// barrier inside them).
__global__ void pc_conv2d_halo(const float* in, float* out, int width, int height)
{
    __shared__ float s[CT + 2][CT + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = blockIdx.x * CT - 1;
    int y0 = blockIdx.y * CT - 1;
    for (int yy = ty; yy < CT + 2; yy += CT)
        for (int xx = tx; xx < CT + 2; xx += CT) {
            int gx = x0 + xx, gy = y0 + yy;
            bool inside = gx >= 0 && gx < width && gy >= 0 && gy < height;
            s[yy][xx] = inside ? in[gy * width + gx] : 0.0f;
        }
    __syncthreads();
    float acc = 0.0f;
    for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx)
            acc += s[ty + dy][tx + dx];
    out[(blockIdx.y * CT + ty) * width + blockIdx.x * CT + tx] = acc * (1.0f / 9.0f);
}

// GPUVerify races/fail: the same 2-D stencil without the barrier after the halo load.
__global__ void sr_conv2d_halo_nobarrier(const float* in, float* out, int width, int height)
{
    __shared__ float s[CT + 2][CT + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = blockIdx.x * CT - 1;
    int y0 = blockIdx.y * CT - 1;
    for (int yy = ty; yy < CT + 2; yy += CT)
        for (int xx = tx; xx < CT + 2; xx += CT) {
            int gx = x0 + xx, gy = y0 + yy;
            bool inside = gx >= 0 && gx < width && gy >= 0 && gy < height;
            s[yy][xx] = inside ? in[gy * width + gx] : 0.0f;
        }
    float acc = 0.0f;
    for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx)
            acc += s[ty + dy][tx + dx]; // BUG
    out[(blockIdx.y * CT + ty) * width + blockIdx.x * CT + tx] = acc * (1.0f / 9.0f);
}

// CUDA race benchmarks (block-level stream compaction through a shared atomic counter): pass.
__global__ void pc_block_compact(const float* in, float* out, int* counts)
{
    __shared__ float buf[BLOCK];
    __shared__ int s_count;
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    if (t == 0)
        s_count = 0;
    __syncthreads();
    float v = in[i];
    if (v > 0.0f) {
        int pos = atomicAdd(&s_count, 1);
        buf[pos] = v;
    }
    __syncthreads();
    int c = s_count;
    if (t < c)
        out[i] = buf[t];
    if (t == 0)
        counts[blockIdx.x] = c;
}

// CUDA race benchmarks: the same compaction reading the buffer without the second barrier.
__global__ void sr_block_compact_nobarrier(const float* in, float* out, int* counts)
{
    __shared__ float buf[BLOCK];
    __shared__ int s_count;
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    if (t == 0)
        s_count = 0;
    __syncthreads();
    float v = in[i];
    if (v > 0.0f) {
        int pos = atomicAdd(&s_count, 1);
        buf[pos] = v;
    }
    int c = s_count;
    if (t < c)
        out[i] = buf[t]; // BUG
    if (t == 0)
        counts[blockIdx.x] = c;
}

// GPUVerify pass (template + dynamic shared memory): tiled matmul, both tiles carved out
// of one extern __shared__ array.
template <int T>
__global__ void pc_matmul_dynamic_tpl(const float* A, const float* B, float* C, int n)
{
    extern __shared__ float sm[];
    float* As = sm;
    float* Bs = sm + T * T;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty;
    int col = blockIdx.x * T + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += T) {
        As[ty * T + tx] = A[row * n + k0 + tx];
        Bs[ty * T + tx] = B[(k0 + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            acc += As[ty * T + k] * Bs[k * T + tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// GPUVerify pass (matrix-vector product, x staged through shared memory in chunks).
__global__ void pc_matvec_shared_x(const float* A, const float* x, float* y, int n)
{
    __shared__ float xs[BLOCK];
    int row = blockIdx.x * BLOCK + threadIdx.x;
    float acc = 0.0f;
    for (int c0 = 0; c0 < n; c0 += BLOCK) {
        xs[threadIdx.x] = x[c0 + threadIdx.x];
        __syncthreads();
        for (int c = 0; c < BLOCK; ++c)
            acc += A[row * n + c0 + c] * xs[c];
        __syncthreads();
    }
    y[row] = acc;
}

// GPUVerify pass (3-D block): transpose of the x/y planes of an 8x8x4 block through shared
// memory.
__global__ void pc_3d_block_transpose(const float* in, float* out)
{
    __shared__ float s[4][8][8];
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    int local = (z * 8 + y) * 8 + x;
    int i = blockIdx.x * 256 + local;
    s[z][y][x] = in[i];
    __syncthreads();
    out[i] = s[z][x][y];
}

// GPUVerify pass (read-only shared table, data-dependent index after the barrier).
__global__ void pc_lookup_table(const int* keys, const float* table, float* out)
{
    __shared__ float lut[16];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 16)
        lut[threadIdx.x] = table[threadIdx.x];
    __syncthreads();
    out[i] = lut[keys[i] & 15];
}

// GPUVerify pass (grid-stride loop, no shared memory, disjoint writes).
__global__ void pc_grid_stride_saxpy(const float* x, float* y, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

// GPUVerify pass (strided disjoint writes: thread i owns out[i*stride .. i*stride+stride-1]).
__global__ void pc_strided_disjoint(const float* in, float* out, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < stride; ++k)
        out[i * stride + k] = in[i] * (float)(k + 1);
}

// GPUVerify pass (odd-even transposition sort, 2 elements per thread, barrier per phase).
__global__ void pc_odd_even_sort(int* d)
{
    __shared__ int s[2 * 64];
    int t = threadIdx.x;
    int base = blockIdx.x * 128;
    s[t] = d[base + t];
    s[t + 64] = d[base + t + 64];
    __syncthreads();
    for (int phase = 0; phase < 128; ++phase) {
        int j = 2 * t + (phase & 1);
        if (j + 1 < 128) {
            int a = s[j], b = s[j + 1];
            if (a > b) {
                s[j] = b;
                s[j + 1] = a;
            }
        }
        __syncthreads();
    }
    d[base + t] = s[t];
    d[base + t + 64] = s[t + 64];
}

// GPUVerify races/fail: odd-even transposition sort without the barrier between phases.
__global__ void sr_odd_even_sort_nobarrier(int* d)
{
    __shared__ int s[2 * 64];
    int t = threadIdx.x;
    int base = blockIdx.x * 128;
    s[t] = d[base + t];
    s[t + 64] = d[base + t + 64];
    __syncthreads();
    for (int phase = 0; phase < 128; ++phase) {
        int j = 2 * t + (phase & 1);
        if (j + 1 < 128) {
            int a = s[j], b = s[j + 1]; // BUG
            if (a > b) {
                s[j] = b;
                s[j + 1] = a;
            }
        }
    }
    __syncthreads();
    d[base + t] = s[t];
    d[base + t + 64] = s[t + 64];
}

// GPUVerify races/fail: matrix-vector product whose chunk loop lost its second barrier
// (the next chunk of x overwrites words other threads still read).
__global__ void sr_matvec_missing_second_barrier(const float* A, const float* x, float* y, int n)
{
    __shared__ float xs[BLOCK];
    int row = blockIdx.x * BLOCK + threadIdx.x;
    float acc = 0.0f;
    for (int c0 = 0; c0 < n; c0 += BLOCK) {
        xs[threadIdx.x] = x[c0 + threadIdx.x]; // BUG
        __syncthreads();
        for (int c = 0; c < BLOCK; ++c)
            acc += A[row * n + c0 + c] * xs[c];
    }
    y[row] = acc;
}
