// Shared-memory exchanges with a barrier missing between one thread's write and another
// thread's access, and the same kernels with the barrier in place.

#define SR_BLOCK 256
#define SR_TX 32
#define SR_TY 8

// Reverses the whole array: block b stages its chunk and writes it, reversed, into the
// mirrored chunk.
__global__ void reverse_array_nosync(const float* __restrict__ in, float* __restrict__ out)
{
    __shared__ float s[SR_BLOCK];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * SR_BLOCK + t];
    int dst = (gridDim.x - 1 - blockIdx.x) * SR_BLOCK + t;
    out[dst] = s[SR_BLOCK - 1 - t];
}

__global__ void reverse_array(const float* __restrict__ in, float* __restrict__ out)
{
    __shared__ float s[SR_BLOCK];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * SR_BLOCK + t];
    __syncthreads();
    int dst = (gridDim.x - 1 - blockIdx.x) * SR_BLOCK + t;
    out[dst] = s[SR_BLOCK - 1 - t];
}

// C = A * B, all row-major and square multiples of TILE; the k loop lacks the barrier that
// keeps the next tile load from overwriting tiles other warps are still reading.
template <int TILE>
__global__ void matmul_tiles_one_barrier(const float* __restrict__ A, const float* __restrict__ B,
                                         float* __restrict__ C, int N)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < N; k0 += TILE) {
        As[ty][tx] = A[row * N + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
    }
    C[row * N + col] = acc;
}

template <int TILE>
__global__ void matmul_tiles(const float* __restrict__ A, const float* __restrict__ B,
                             float* __restrict__ C, int N)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < N; k0 += TILE) {
        As[ty][tx] = A[row * N + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// Partial column sums: each 32 x 8 block folds its 8 rows together, one warp per row.
// The fold loop has no barrier between levels.
__global__ void column_partial_sums_nosync(const int* __restrict__ m, int* __restrict__ partial, int width)
{
    __shared__ int tile[SR_TY][SR_TX];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * SR_TX + tx;
    int y = blockIdx.y * SR_TY + ty;
    tile[ty][tx] = m[y * width + x];
    __syncthreads();
    for (int s = SR_TY / 2; s > 0; s >>= 1) {
        if (ty < s)
            tile[ty][tx] += tile[ty + s][tx];
    }
    if (ty == 0)
        partial[blockIdx.y * width + x] = tile[0][tx];
}

__global__ void column_partial_sums(const int* __restrict__ m, int* __restrict__ partial, int width)
{
    __shared__ int tile[SR_TY][SR_TX];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * SR_TX + tx;
    int y = blockIdx.y * SR_TY + ty;
    tile[ty][tx] = m[y * width + x];
    __syncthreads();
    for (int s = SR_TY / 2; s > 0; s >>= 1) {
        if (ty < s)
            tile[ty][tx] += tile[ty + s][tx];
        __syncthreads();
    }
    if (ty == 0)
        partial[blockIdx.y * width + x] = tile[0][tx];
}

// Hillis-Steele inclusive scan of each 256-element block, in place in shared memory.
// The barrier after the in-place update is missing, so the next step's read of s[t - off]
// can see either the old or the new value.
__global__ void block_scan_half_synced(const float* __restrict__ in, float* __restrict__ out)
{
    __shared__ float s[SR_BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * SR_BLOCK + t;
    s[t] = in[i];
    __syncthreads();
    for (int off = 1; off < SR_BLOCK; off <<= 1) {
        float add = t >= off ? s[t - off] : 0.0f;
        __syncthreads();
        s[t] += add;
    }
    out[i] = s[t];
}

__global__ void block_scan(const float* __restrict__ in, float* __restrict__ out)
{
    __shared__ float s[SR_BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * SR_BLOCK + t;
    s[t] = in[i];
    __syncthreads();
    for (int off = 1; off < SR_BLOCK; off <<= 1) {
        float add = t >= off ? s[t - off] : 0.0f;
        __syncthreads();
        s[t] += add;
        __syncthreads();
    }
    out[i] = s[t];
}

void run_shared_race(const float* fa, const float* fb, float* fc, const int* im, int* ipartial)
{
    const int n = 1 << 22;
    reverse_array_nosync<<<n / SR_BLOCK, SR_BLOCK>>>(fa, fc);
    reverse_array<<<n / SR_BLOCK, SR_BLOCK>>>(fa, fc);

    const int N = 1024;
    dim3 mblock(16, 16);
    dim3 mgrid(N / 16, N / 16);
    matmul_tiles_one_barrier<16><<<mgrid, mblock>>>(fa, fb, fc, N);
    matmul_tiles<16><<<mgrid, mblock>>>(fa, fb, fc, N);

    const int width = 4096;
    const int height = 4096;
    dim3 cblock(SR_TX, SR_TY);
    dim3 cgrid(width / SR_TX, height / SR_TY);
    column_partial_sums_nosync<<<cgrid, cblock>>>(im, ipartial, width);
    column_partial_sums<<<cgrid, cblock>>>(im, ipartial, width);

    block_scan_half_synced<<<n / SR_BLOCK, SR_BLOCK>>>(fa, fc);
    block_scan<<<n / SR_BLOCK, SR_BLOCK>>>(fa, fc);
}
