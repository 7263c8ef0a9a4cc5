#include <cuda_runtime.h>

__global__ void butterfly(float* data, int n) {
    __shared__ float x[128];
    int lane = threadIdx.x & 31;
    int base = threadIdx.x & ~31;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        x[threadIdx.x] = data[i];
        __syncwarp();
        float other = x[base + (lane ^ 16)];
        data[i] = data[i] + other;
        __syncwarp();
    }
}

int main() {
    float* d;
    const int n = 4 * 128 * 10;
    cudaMalloc(&d, n * sizeof(float));
    butterfly<<<4, 128>>>(d, n);
    cudaDeviceSynchronize();
    return 0;
}
