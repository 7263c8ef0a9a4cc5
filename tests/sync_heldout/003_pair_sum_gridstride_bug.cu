#include <cuda_runtime.h>
#define NE 1000

__global__ void pair_sum_gs(const float* in, float* out, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float v = in[i];
        float s = v + __shfl_xor_sync(0xffffffffu, v, 1);
        if (i < n)
            out[i] = s;
    }
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, NE * sizeof(float));
    cudaMalloc(&out, NE * sizeof(float));
    pair_sum_gs<<<2, 128>>>(in, out, NE);
    cudaDeviceSynchronize();
    return 0;
}
