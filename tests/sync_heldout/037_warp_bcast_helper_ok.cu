#include <cuda_runtime.h>

__device__ float warp_bcast(float* slot, float v, int lane, int src)
{
    if (lane == src)
        *slot = v;
    __syncwarp();
    return *slot;
}

__global__ void sub_leader(const float* in, float* out)
{
    __shared__ float slot[8];
    int lane = threadIdx.x & 31;
    int w = threadIdx.x >> 5;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    float lead = warp_bcast(&slot[w], v, lane, 0);
    out[i] = v - lead;
}

void run_sub_leader(const float* d_in, float* d_out)
{
    sub_leader<<<80, 256>>>(d_in, d_out);
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 80 * 256 * sizeof(float));
    cudaMalloc(&out, 80 * 256 * sizeof(float));
    run_sub_leader(in, out);
    cudaDeviceSynchronize();
    return 0;
}
