#include <cstdio>
#include "sizes.h"
#define N 64

__global__ void matmul(const float* A, const float* B, float* C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    }
    C[row * n + col] = acc;
}

int main() {
    float *A, *B, *C;
    cudaMalloc(&A, N * N * sizeof(float));
    cudaMalloc(&B, N * N * sizeof(float));
    cudaMalloc(&C, N * N * sizeof(float));
    dim3 block(TILE, TILE);
    dim3 grid(N / TILE, N / TILE);
    matmul<<<grid, block>>>(A, B, C, N);
    cudaDeviceSynchronize();
    cudaFree(A); cudaFree(B); cudaFree(C);
    return 0;
}
