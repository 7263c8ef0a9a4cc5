#include <cuda_runtime.h>
#define W 1024
#define H 256

__device__ float block_column_sum(float (*s)[32], float v)
{
    s[threadIdx.y][threadIdx.x] = v;
    __syncthreads();
    float acc = 0.0f;
    for (int k = 0; k < 8; ++k)
        acc += s[k][threadIdx.x];
    return acc;
}

__global__ void column_sums(const float* m, float* out)
{
    __shared__ float s[8][32];
    int x = blockIdx.x * 32 + threadIdx.x;
    float v = 0.0f;
    for (int y = threadIdx.y; y < H; y += 8)
        v += m[y * W + x];
    if (threadIdx.y == 0) {
        float total = block_column_sum(s, v);
        out[x] = total;
    }
}

int main()
{
    float *m, *out;
    cudaMalloc(&m, W * H * sizeof(float));
    cudaMalloc(&out, W * sizeof(float));
    column_sums<<<W / 32, dim3(32, 8)>>>(m, out);
    cudaDeviceSynchronize();
    return 0;
}
