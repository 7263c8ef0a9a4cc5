// A file committed in the middle of a merge.
#include <cuda_runtime.h>

__global__ void bias_relu(float *x, const float *b, int n, int c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = fmaxf(x[i] + b[i % c], 0.0f);
}

<<<<<<< HEAD
__global__ void scale_rows(float *x, const float *s, int rows, int cols)
{
    int r = blockIdx.y;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        x[r * cols + c] *= s[r];
}
=======
__global__ void scale_rows(float *__restrict__ x, const float *__restrict__ s, int rows, int cols)
{
    const int r = blockIdx.x;
    if (r >= rows)
        return;
    const float f = s[r];
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        x[r * cols + c] *= f;
}
>>>>>>> feature/row-per-block

__global__ void row_sums(const float *x, float *out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float s = 0.0f;
        for (int c = 0; c < cols; ++c)
            s += x[r * cols + c];
        out[r] = s;
    }
}

__global__ void col_sums(const float *x, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < cols) {
        float s = 0.0f;
        for (int r = 0; r < rows; ++r)
            s += x[r * cols + c];
        out[c] = s;
    }
}

void launch_all(float *x, float *b, float *s, float *o, int rows, int cols)
{
<<<<<<< HEAD
    scale_rows<<<dim3(1, rows), 256>>>(x, s, rows, cols);
=======
    scale_rows<<<rows, 256>>>(x, s, rows, cols);
>>>>>>> feature/row-per-block
    bias_relu<<<(rows * cols + 255) / 256, 256>>>(x, b, rows * cols, cols);
    row_sums<<<(rows + 255) / 256, 256>>>(x, o, rows, cols);
    col_sums<<<(cols + 255) / 256, 256>>>(x, o, rows, cols);
}

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[c * rows + r] = in[r * cols + c];
}
