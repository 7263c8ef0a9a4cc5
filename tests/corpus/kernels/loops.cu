// Loops: constant and parameter trip counts, unrolled and not, grid-stride,
// nested loops, guarded tails and early returns.

#define ITEMS_PER_THREAD 4
constexpr int CHUNK = 4;

// Each thread handles ITEMS_PER_THREAD elements spaced blockDim.x apart.
__global__ void scale_blocked_unrolled(const float* in, float* out, float a)
{
    int base = blockIdx.x * blockDim.x * ITEMS_PER_THREAD + threadIdx.x;
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
        int j = base + k * blockDim.x;
        out[j] = a * in[j];
    }
}

// Each thread handles CHUNK consecutive elements (no pragma: compiler's choice).
__global__ void scale_chunked(const float* in, float* out, float a)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < CHUNK; ++k) {
        out[t * CHUNK + k] = a * in[t * CHUNK + k];
    }
}

// Same access pattern, loop kept rolled.
__global__ void scale_chunked_rolled(const float* in, float* out, float a)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll 1
    for (int k = 0; k < CHUNK; ++k) {
        out[t * CHUNK + k] = a * in[t * CHUNK + k];
    }
}

// One thread per row of a rows x K row-major matrix: lanes are K floats apart.
__global__ void row_sum(const float* A, float* out, int rows, int K)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float s = 0.0f;
        for (int k = 0; k < K; ++k)
            s += A[r * K + k];
        out[r] = s;
    }
}

// One thread per column of a K x cols row-major matrix: lanes are adjacent.
__global__ void col_sum(const float* A, float* out, int cols, int K)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < cols) {
        float s = 0.0f;
        for (int k = 0; k < K; ++k)
            s += A[k * cols + c];
        out[c] = s;
    }
}

__global__ void grid_stride_axpy(const float* x, float* y, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = a * x[i] + y[i];
    }
}

// Nested loops with parameter trip counts: R x C box filter on a padded input.
__global__ void box_filter(const float* in, float* out, int width, int pitch, int R, int C)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    float acc = 0.0f;
    for (int dy = 0; dy < R; ++dy) {
        for (int dx = 0; dx < C; ++dx) {
            acc += in[(y + dy) * pitch + x + dx];
        }
    }
    out[y * width + x] = acc / (float)(R * C);
}

// Early returns: out of range, and data-dependent.
__global__ void sqrt_positive(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    if (v <= 0.0f)
        return;
    out[i] = sqrtf(v);
}
