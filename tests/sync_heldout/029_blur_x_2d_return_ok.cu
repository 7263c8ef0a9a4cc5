#include <cuda_runtime.h>
#define W 100
#define H 100

__global__ void blur_x(const float* in, float* out)
{
    __shared__ float t[16][18];
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    bool inside = (x < W && y < H);
    int cx = min(x, W - 1), cy = min(y, H - 1);
    t[threadIdx.y][threadIdx.x + 1] = in[cy * W + cx];
    if (threadIdx.x == 0)
        t[threadIdx.y][0] = in[cy * W + max(cx - 1, 0)];
    if (threadIdx.x == 15)
        t[threadIdx.y][17] = in[cy * W + min(cx + 1, W - 1)];
    __syncthreads();
    if (inside)
        out[y * W + x] = (t[threadIdx.y][threadIdx.x] + t[threadIdx.y][threadIdx.x + 1] +
                          t[threadIdx.y][threadIdx.x + 2]) / 3.0f;
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, W * H * sizeof(float));
    cudaMalloc(&out, W * H * sizeof(float));
    dim3 block(16, 16);
    dim3 grid((W + 15) / 16, (H + 15) / 16);
    blur_x<<<grid, block>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
