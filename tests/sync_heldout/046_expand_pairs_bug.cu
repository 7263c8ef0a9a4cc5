#include <cuda_runtime.h>
#define NPAIRS (512 * 128)

__global__ void expand2(const float2* in, float* out)
{
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    float2 v = in[blockIdx.x * blockDim.x + t];
    out[base + 2 * t] = v.x;
    out[base + 2 * t + 1] = v.y;
}

int main()
{
    float2* in;
    float* out;
    cudaMalloc(&in, NPAIRS * sizeof(float2));
    cudaMalloc(&out, 2 * NPAIRS * sizeof(float));
    expand2<<<NPAIRS / 128, 128>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
