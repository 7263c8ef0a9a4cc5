// 2-D launches on row-major arrays, including blocks narrower than a warp,
// a naive transpose and shared-memory tiled transposes.

__global__ void copy2d(const float* in, float* out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        int idx = y * width + x;
        out[idx] = in[idx];
    }
}

__global__ void transpose_naive(const float* in, float* out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        float v = in[y * width + x];
        out[x * height + y] = v;
    }
}

// Classic tiled transpose: a TILE x TILE tile is moved by TILE x ROWS threads.
// PAD = 1 adds one column of padding to the shared tile.
template <int TILE, int ROWS, int PAD>
__global__ void transpose_tiled(const float* in, float* out, int width, int height)
{
    __shared__ float tile[TILE][TILE + PAD];

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];

    __syncthreads();

    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
