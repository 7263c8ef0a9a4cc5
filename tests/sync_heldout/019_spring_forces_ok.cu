#include <cuda_runtime.h>
#define NP 10240

__global__ void spring_forces(const float* x, float* f, int n, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1) {
        float d = k * (x[i + 1] - x[i]);
        atomicAdd(&f[i], d);
        atomicAdd(&f[i + 1], -d);
    }
}

int main()
{
    float *x, *f;
    cudaMalloc(&x, NP * sizeof(float));
    cudaMalloc(&f, NP * sizeof(float));
    cudaMemset(f, 0, NP * sizeof(float));
    spring_forces<<<NP / 256, 256>>>(x, f, NP, 0.5f);
    cudaDeviceSynchronize();
    return 0;
}
