#include <cuda_runtime.h>
#define ROWS 64
#define COLS 128

__global__ void normalize_rows(float* m) {
    __shared__ float pivot;
    for (int r = 0; r < ROWS; ++r) {
        if (threadIdx.x == 0)
            pivot = m[r * COLS + r % COLS];
        __syncthreads();
        float p = pivot;
        m[r * COLS + threadIdx.x] /= (p == 0.f ? 1.f : p);
    }
}

int main() {
    float* d;
    cudaMalloc(&d, ROWS * COLS * sizeof(float));
    normalize_rows<<<1, COLS>>>(d);
    cudaDeviceSynchronize();
    return 0;
}
