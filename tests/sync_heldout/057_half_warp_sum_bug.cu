#include <cuda_runtime.h>
#define FULL 0xffffffffu

__global__ void half_warp_sum(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float v = in[i];
    if (lane < 16) {
        v += __shfl_down_sync(FULL, v, 8);
        v += __shfl_down_sync(FULL, v, 4);
        v += __shfl_down_sync(FULL, v, 2);
        v += __shfl_down_sync(FULL, v, 1);
    }
    if (lane == 0)
        out[i / 32] = v;
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 64 * 256 * sizeof(float));
    cudaMalloc(&out, 64 * 8 * sizeof(float));
    half_warp_sum<<<64, 256>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
