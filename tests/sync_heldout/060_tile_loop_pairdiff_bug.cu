#include <cuda_runtime.h>
#define BS 128
#define NELEM (BS * 1024)

__global__ void pair_diff(const float* in, float* out, int n)
{
    __shared__ float tile[BS];
    for (int base = blockIdx.x * BS; base < n; base += gridDim.x * BS) {
        tile[threadIdx.x] = in[base + threadIdx.x];
        __syncthreads();
        out[base + threadIdx.x] = tile[threadIdx.x] - tile[BS - 1 - threadIdx.x];
    }
}

void launch_pair_diff(const float* d_in, float* d_out)
{
    pair_diff<<<64, BS>>>(d_in, d_out, NELEM);
}

int main()
{
    float *d_in, *d_out;
    cudaMalloc(&d_in, NELEM * sizeof(float));
    cudaMalloc(&d_out, NELEM * sizeof(float));
    launch_pair_diff(d_in, d_out);
    cudaDeviceSynchronize();
    return 0;
}
