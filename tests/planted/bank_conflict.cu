// Shared tiles read down a column whose rows are a multiple of 32 banks wide, and the same
// kernels with a padding column (or a padded layout) that spreads the lanes over all banks.

#define GV_TILE 32
#define GV_ROWS 8
#define SEG 32
#define SCAN_BLOCK 128
#define DT_TILE 32
#define DT_ROWS 8
#define AT_TILE 32
#define AT_ROWS 8

// y = A x for a row-major A with n_cols columns: a 32 x 8 block owns 32 rows; warp ty takes
// every 8th column of each staged 32 x 32 tile and lane tx walks row tx of the tile.
__global__ void gemv_tile_unpadded(const float* __restrict__ A, const float* __restrict__ x,
                                   float* __restrict__ y, int n_cols)
{
    __shared__ float tile[GV_TILE][GV_TILE];
    __shared__ float part[GV_ROWS][GV_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.x * GV_TILE;
    float acc = 0.0f;
    for (int c0 = 0; c0 < n_cols; c0 += GV_TILE) {
        for (int j = 0; j < GV_TILE; j += GV_ROWS)
            tile[ty + j][tx] = A[(row0 + ty + j) * n_cols + c0 + tx];
        __syncthreads();
        for (int k = ty; k < GV_TILE; k += GV_ROWS)
            acc += tile[tx][k] * x[c0 + k];
        __syncthreads();
    }
    part[ty][tx] = acc;
    __syncthreads();
    if (ty == 0) {
        float s = 0.0f;
        for (int r = 0; r < GV_ROWS; ++r)
            s += part[r][tx];
        y[row0 + tx] = s;
    }
}

__global__ void gemv_tile_padded(const float* __restrict__ A, const float* __restrict__ x,
                                 float* __restrict__ y, int n_cols)
{
    __shared__ float tile[GV_TILE][GV_TILE + 1];
    __shared__ float part[GV_ROWS][GV_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.x * GV_TILE;
    float acc = 0.0f;
    for (int c0 = 0; c0 < n_cols; c0 += GV_TILE) {
        for (int j = 0; j < GV_TILE; j += GV_ROWS)
            tile[ty + j][tx] = A[(row0 + ty + j) * n_cols + c0 + tx];
        __syncthreads();
        for (int k = ty; k < GV_TILE; k += GV_ROWS)
            acc += tile[tx][k] * x[c0 + k];
        __syncthreads();
    }
    part[ty][tx] = acc;
    __syncthreads();
    if (ty == 0) {
        float s = 0.0f;
        for (int r = 0; r < GV_ROWS; ++r)
            s += part[r][tx];
        y[row0 + tx] = s;
    }
}

// Inclusive prefix sums of consecutive SEG-element segments; thread t scans segment t of the
// block's chunk.  Staging is cooperative and contiguous; the scan walks seg[t * SEG + k].
__global__ void segment_scan_flat(const int* __restrict__ in, int* __restrict__ out)
{
    __shared__ int seg[SCAN_BLOCK * SEG];
    int t = threadIdx.x;
    int base = blockIdx.x * SCAN_BLOCK * SEG;
    for (int r = 0; r < SEG; ++r)
        seg[r * SCAN_BLOCK + t] = in[base + r * SCAN_BLOCK + t];
    __syncthreads();
    int run = 0;
    for (int k = 0; k < SEG; ++k) {
        run += seg[t * SEG + k];
        seg[t * SEG + k] = run;
    }
    __syncthreads();
    for (int r = 0; r < SEG; ++r)
        out[base + r * SCAN_BLOCK + t] = seg[r * SCAN_BLOCK + t];
}

// Same scan with one padding word per segment: segment t starts in bank t.
__global__ void segment_scan_padded(const int* __restrict__ in, int* __restrict__ out)
{
    __shared__ int seg[SCAN_BLOCK][SEG + 1];
    int t = threadIdx.x;
    int base = blockIdx.x * SCAN_BLOCK * SEG;
    for (int r = 0; r < SEG; ++r)
        seg[r * (SCAN_BLOCK / SEG) + t / SEG][t % SEG] = in[base + r * SCAN_BLOCK + t];
    __syncthreads();
    int run = 0;
    for (int k = 0; k < SEG; ++k) {
        run += seg[t][k];
        seg[t][k] = run;
    }
    __syncthreads();
    for (int r = 0; r < SEG; ++r)
        out[base + r * SCAN_BLOCK + t] = seg[r * (SCAN_BLOCK / SEG) + t / SEG][t % SEG];
}

// Tiled transpose of a rows x cols matrix of T; the tile has no padding column.
template <typename T>
__global__ void transpose_tile_unpadded(const T* __restrict__ in, T* __restrict__ out, int rows, int cols)
{
    __shared__ T tile[DT_TILE][DT_TILE];
    int x = blockIdx.x * DT_TILE + threadIdx.x;
    int y = blockIdx.y * DT_TILE + threadIdx.y;
    for (int j = 0; j < DT_TILE; j += DT_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    __syncthreads();
    int ox = blockIdx.y * DT_TILE + threadIdx.x;
    int oy = blockIdx.x * DT_TILE + threadIdx.y;
    for (int j = 0; j < DT_TILE; j += DT_ROWS)
        out[(oy + j) * rows + ox] = tile[threadIdx.x][threadIdx.y + j];
}

template <typename T>
__global__ void transpose_tile_padded(const T* __restrict__ in, T* __restrict__ out, int rows, int cols)
{
    __shared__ T tile[DT_TILE][DT_TILE + 1];
    int x = blockIdx.x * DT_TILE + threadIdx.x;
    int y = blockIdx.y * DT_TILE + threadIdx.y;
    for (int j = 0; j < DT_TILE; j += DT_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    __syncthreads();
    int ox = blockIdx.y * DT_TILE + threadIdx.x;
    int oy = blockIdx.x * DT_TILE + threadIdx.y;
    for (int j = 0; j < DT_TILE; j += DT_ROWS)
        out[(oy + j) * rows + ox] = tile[threadIdx.x][threadIdx.y + j];
}

// Attention scores S = scale * Q K^T (Q: nq x d, K: nk x d, row-major, d a multiple of 32).
// Each thread computes 4 scores of one column of the 32 x 32 output tile; it needs row tx of
// the K tile, read element by element.
__global__ void qk_scores_unpadded(const float* __restrict__ Q, const float* __restrict__ K,
                                   float* __restrict__ S, int nk, int d, float scale)
{
    __shared__ float Qs[AT_TILE][AT_TILE];
    __shared__ float Ks[AT_TILE][AT_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int q0 = blockIdx.y * AT_TILE;
    int k0 = blockIdx.x * AT_TILE;
    float acc[AT_TILE / AT_ROWS];
    for (int r = 0; r < AT_TILE / AT_ROWS; ++r)
        acc[r] = 0.0f;
    for (int d0 = 0; d0 < d; d0 += AT_TILE) {
        for (int j = 0; j < AT_TILE; j += AT_ROWS) {
            Qs[ty + j][tx] = Q[(q0 + ty + j) * d + d0 + tx];
            Ks[ty + j][tx] = K[(k0 + ty + j) * d + d0 + tx];
        }
        __syncthreads();
        for (int kk = 0; kk < AT_TILE; ++kk) {
            float kv = Ks[tx][kk];
            for (int r = 0; r < AT_TILE / AT_ROWS; ++r)
                acc[r] += Qs[ty + r * AT_ROWS][kk] * kv;
        }
        __syncthreads();
    }
    for (int r = 0; r < AT_TILE / AT_ROWS; ++r)
        S[(q0 + ty + r * AT_ROWS) * nk + k0 + tx] = acc[r] * scale;
}

__global__ void qk_scores_padded(const float* __restrict__ Q, const float* __restrict__ K,
                                 float* __restrict__ S, int nk, int d, float scale)
{
    __shared__ float Qs[AT_TILE][AT_TILE];
    __shared__ float Ks[AT_TILE][AT_TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int q0 = blockIdx.y * AT_TILE;
    int k0 = blockIdx.x * AT_TILE;
    float acc[AT_TILE / AT_ROWS];
    for (int r = 0; r < AT_TILE / AT_ROWS; ++r)
        acc[r] = 0.0f;
    for (int d0 = 0; d0 < d; d0 += AT_TILE) {
        for (int j = 0; j < AT_TILE; j += AT_ROWS) {
            Qs[ty + j][tx] = Q[(q0 + ty + j) * d + d0 + tx];
            Ks[ty + j][tx] = K[(k0 + ty + j) * d + d0 + tx];
        }
        __syncthreads();
        for (int kk = 0; kk < AT_TILE; ++kk) {
            float kv = Ks[tx][kk];
            for (int r = 0; r < AT_TILE / AT_ROWS; ++r)
                acc[r] += Qs[ty + r * AT_ROWS][kk] * kv;
        }
        __syncthreads();
    }
    for (int r = 0; r < AT_TILE / AT_ROWS; ++r)
        S[(q0 + ty + r * AT_ROWS) * nk + k0 + tx] = acc[r] * scale;
}

void run_bank_conflict(const float* fA, const float* fx, float* fy, const int* iin, int* iout,
                       const double* din, double* dout, const float* Q, const float* K, float* S)
{
    const int n_rows = 8192;
    const int n_cols = 4096;
    dim3 gblock(GV_TILE, GV_ROWS);
    gemv_tile_unpadded<<<n_rows / GV_TILE, gblock>>>(fA, fx, fy, n_cols);
    gemv_tile_padded<<<n_rows / GV_TILE, gblock>>>(fA, fx, fy, n_cols);

    const int n = 1 << 22;
    segment_scan_flat<<<n / (SCAN_BLOCK * SEG), SCAN_BLOCK>>>(iin, iout);
    segment_scan_padded<<<n / (SCAN_BLOCK * SEG), SCAN_BLOCK>>>(iin, iout);

    const int rows = 1024;
    const int cols = 2048;
    dim3 tblock(DT_TILE, DT_ROWS);
    dim3 tgrid(cols / DT_TILE, rows / DT_TILE);
    transpose_tile_unpadded<double><<<tgrid, tblock>>>(din, dout, rows, cols);
    transpose_tile_padded<double><<<tgrid, tblock>>>(din, dout, rows, cols);

    const int nq = 2048;
    const int nk = 2048;
    const int d = 128;
    dim3 ablock(AT_TILE, AT_ROWS);
    dim3 agrid(nk / AT_TILE, nq / AT_TILE);
    qk_scores_unpadded<<<agrid, ablock>>>(Q, K, S, nk, d, 0.088388f);
    qk_scores_padded<<<agrid, ablock>>>(Q, K, S, nk, d, 0.088388f);
}
