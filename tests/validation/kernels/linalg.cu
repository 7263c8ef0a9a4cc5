// Validation set: matrix-vector and matrix-matrix products: thread-per-row and
// warp-per-row GEMV, naive NT and column-major GEMM, a 32x32-tiled GEMM with
// four rows per thread, and a register-blocked GEMM with a 4x4 thread tile.

// y = A x, A row-major m x n, one thread per row.
__global__ void gemv_thread_per_row(const float* __restrict__ A, const float* __restrict__ x,
                                    float* __restrict__ y, int m, int n)
{
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m) {
        float acc = 0.0f;
        for (int k = 0; k < n; ++k)
            acc += A[(size_t)row * n + k] * __ldg(&x[k]);
        y[row] = acc;
    }
}

__device__ __forceinline__ int lane_id()
{
    return threadIdx.x & 31;
}

// y = A x, one warp per row, lanes stride over the row, shuffle reduction.
__global__ void gemv_warp_per_row(const float* __restrict__ A, const float* __restrict__ x,
                                  float* __restrict__ y, int m, int n)
{
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (row >= m)
        return;
    const float* a = A + (size_t)row * n;
    float acc = 0.0f;
    for (int k = lane_id(); k < n; k += 32)
        acc += a[k] * x[k];
    for (int off = 16; off > 0; off >>= 1)
        acc += __shfl_down_sync(0xffffffffu, acc, off);
    if (lane_id() == 0)
        y[row] = acc;
}

#define IDX(r, c, ld) ((r) * (ld) + (c))

// C = A * B^T: A is M x K, B is N x K (both row-major), C is M x N.
__global__ void gemm_nt_naive(const float* A, const float* B, float* C, int M, int N, int K)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N)
        return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += A[IDX(row, k, K)] * B[IDX(col, k, K)];
    C[IDX(row, col, N)] = acc;
}

// Column-major C = A * B (BLAS "NN"), x walks rows of C.
__global__ void gemm_colmajor_naive(const float* A, const float* B, float* C,
                                    int M, int N, int K, int lda, int ldb, int ldc)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < M && j < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[i + k * lda] * B[k + j * ldb];
        C[i + j * ldc] = acc;
    }
}

constexpr int TS = 32;
constexpr int ROWS_PER_THREAD = 4;

// 32x32 tiles, 32x8 threads, each thread computes 4 rows of the tile.
// M, N, K multiples of 32.
__global__ void gemm_tile32x8(const float* __restrict__ A, const float* __restrict__ B,
                              float* __restrict__ C, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row0 = blockIdx.y * TS;
    const int col = blockIdx.x * TS + tx;
    float acc[ROWS_PER_THREAD] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += TS) {
#pragma unroll
        for (int r = 0; r < ROWS_PER_THREAD; ++r) {
            As[ty + 8 * r][tx] = A[(size_t)(row0 + ty + 8 * r) * K + k0 + tx];
            Bs[ty + 8 * r][tx] = B[(size_t)(k0 + ty + 8 * r) * N + col];
        }
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < TS; ++k) {
            const float b = Bs[k][tx];
#pragma unroll
            for (int r = 0; r < ROWS_PER_THREAD; ++r)
                acc[r] += As[ty + 8 * r][k] * b;
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < ROWS_PER_THREAD; ++r)
        C[(size_t)(row0 + ty + 8 * r) * N + col] = acc[r];
}

// Register-blocked SGEMM: a BM x BN block tile, BK-deep k-steps, (BN/TN) x (BM/TM)
// threads, each computing a TM x TN sub-tile. The A tile is stored k-major
// (transposed) in shared memory with APAD floats of padding per row.
// Launched with 256 threads ((BM/TM) * (BN/TN) for the 64x64 / 4x4 instantiation).
template <int BM, int BN, int BK, int TM, int TN, int APAD>
__global__ void __launch_bounds__(256)
sgemm_regblock(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
               int M, int N, int K)
{
    constexpr int NT = (BM / TM) * (BN / TN);
    __shared__ float As[BK][BM + APAD];
    __shared__ float Bs[BK][BN];
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
    float acc[TM][TN] = {};
    float a[TM], b[TN];
    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int i = tid; i < BM * BK; i += NT) {
            const int r = i / BK, c = i % BK;
            As[c][r] = A[(size_t)(bm + r) * K + k0 + c];
        }
#pragma unroll
        for (int i = tid; i < BK * BN; i += NT) {
            const int r = i / BN, c = i % BN;
            Bs[r][c] = B[(size_t)(k0 + r) * N + bn + c];
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int m = 0; m < TM; ++m)
                a[m] = As[k][threadIdx.y * TM + m];
#pragma unroll
            for (int n = 0; n < TN; ++n)
                b[n] = Bs[k][threadIdx.x * TN + n];
#pragma unroll
            for (int m = 0; m < TM; ++m)
#pragma unroll
                for (int n = 0; n < TN; ++n)
                    acc[m][n] += a[m] * b[n];
        }
        __syncthreads();
    }
#pragma unroll
    for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n)
            C[(size_t)(bm + threadIdx.y * TM + m) * N + bn + threadIdx.x * TN + n] = acc[m][n];
}
