// launch: grid=64x64 block=16x16
#define BX 16
#define BY 16

__device__ float fetch(const float* in, int x, int y, int w, int h)
{
    x = min(max(x, 0), w - 1);
    y = min(max(y, 0), h - 1);
    return in[y * w + x];
}

// w = h = 1024
__global__ void laplace2d(const float* in, float* out, int w, int h)
{
    __shared__ float t[BY + 2][BX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * BX + tx;
    int y = blockIdx.y * BY + ty;
    t[ty + 1][tx + 1] = fetch(in, x, y, w, h);
    if (tx == 0)      t[ty + 1][0]      = fetch(in, x - 1, y, w, h);
    if (tx == BX - 1) t[ty + 1][BX + 1] = fetch(in, x + 1, y, w, h);
    if (ty == 0)      t[0][tx + 1]      = fetch(in, x, y - 1, w, h);
    if (ty == BY - 1) t[BY + 1][tx + 1] = fetch(in, x, y + 1, w, h);
    out[y * w + x] = t[ty][tx + 1] + t[ty + 2][tx + 1] + t[ty + 1][tx] + t[ty + 1][tx + 2]
                   - 4.0f * t[ty + 1][tx + 1];
}
