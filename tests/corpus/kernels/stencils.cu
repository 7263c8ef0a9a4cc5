// Stencils: 1-D 3- and 5-point, 2-D 5-point, and a 3x3 blur with constant loops.

__global__ void stencil3_1d(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (i < n - 1) {
        out[i] = 0.25f * in[i - 1]
               + 0.50f * in[i]
               + 0.25f * in[i + 1];
    }
}

#define R5 2

__global__ void stencil5_1d(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x + R5;
    if (i < n - R5) {
        float c = in[i];
        float l1 = in[i - 1];
        float r1 = in[i + 1];
        float l2 = in[i - 2];
        float r2 = in[i + 2];
        out[i] = 0.4f * c + 0.2f * (l1 + r1) + 0.1f * (l2 + r2);
    }
}

// 5-point Laplacian on an nx x ny grid, boundary points skipped.
__global__ void laplace2d(const float* in, float* out, int nx, int ny)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1) {
        int i = y * nx + x;
        float center = in[i];
        float west = in[i - 1];
        float east = in[i + 1];
        float north = in[i - nx];
        float south = in[i + nx];
        out[i] = west + east + north + south - 4.0f * center;
    }
}

#define RADIUS 1

// 3x3 box blur of a padded input (pitch >= width + 2*RADIUS) into a width-wide output.
__global__ void blur3x3(const float* in, float* out, int width, int pitch)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    float acc = 0.0f;
#pragma unroll
    for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
#pragma unroll
        for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
            acc += in[(y + RADIUS + dy) * pitch + (x + RADIUS + dx)];
        }
    }
    out[y * width + x] = acc * (1.0f / 9.0f);
}
