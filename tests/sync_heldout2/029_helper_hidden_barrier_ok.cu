#include <cuda_runtime.h>
#include "sizes.h"

__device__ void load_tile(float (*t)[TILE], const float* src, int ld) {
    t[threadIdx.y][threadIdx.x] = src[threadIdx.y * ld + threadIdx.x];
    __syncthreads();
}

__global__ void upper_half(const float* in, float* out, int ld) {
    __shared__ float t[TILE][TILE];
    const float* src = in + blockIdx.y * TILE * ld + blockIdx.x * TILE;
    bool top = threadIdx.y < TILE / 2;
    load_tile(t, src, ld);
    if (top)
        out[(blockIdx.y * TILE + threadIdx.y) * ld + blockIdx.x * TILE + threadIdx.x] =
            t[threadIdx.y][threadIdx.x] + t[threadIdx.y + TILE / 2][threadIdx.x];
}

int main() {
    const int ld = 128;
    float *a, *b;
    cudaMalloc(&a, ld * ld * sizeof(float));
    cudaMalloc(&b, ld * ld * sizeof(float));
    dim3 grid(ld / TILE, ld / TILE), block(TILE, TILE);
    upper_half<<<grid, block>>>(a, b, ld);
    cudaDeviceSynchronize();
    return 0;
}
