// Matrix transpose three ways: the classic lesson in coalescing and bank conflicts.
// Try: cudaperf analyze examples/transpose.cu
#define TILE 32
#define ROWS 8

// Reads are coalesced; writes stride by `n` floats, so each warp store touches 32 sectors.
__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int n) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[x * n + (y + j)] = in[(y + j) * n + x];
}

// Staged through shared memory: both global sides coalesced, but the column read of the tile
// hits one bank 32 times.
__global__ void transpose_shared(const float* __restrict__ in, float* __restrict__ out, int n) {
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// One padding column moves each row of the tile by one bank: conflict-free.
__global__ void transpose_padded(const float* __restrict__ in, float* __restrict__ out, int n) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_all(const float* in, float* out) {
    const int n = 4096;
    dim3 block(TILE, ROWS);
    dim3 grid(n / TILE, n / TILE);
    transpose_naive<<<grid, block>>>(in, out, n);
    transpose_shared<<<grid, block>>>(in, out, n);
    transpose_padded<<<grid, block>>>(in, out, n);
}
