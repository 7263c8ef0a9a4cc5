#include <cuda_runtime.h>

__global__ void warp_rotate(const float* in, float* out, int n)
{
    __shared__ float buf[4][32];
    int lane = threadIdx.x % 32;
    int w = threadIdx.x / 32;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[w][lane] = in[i];
    __syncwarp();
    out[i] = buf[w][(lane + 1) % 32];
}

int main()
{
    const int n = 128 * 256;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    warp_rotate<<<n / 128, 128>>>(in, out, n);
    cudaDeviceSynchronize();
    return 0;
}
