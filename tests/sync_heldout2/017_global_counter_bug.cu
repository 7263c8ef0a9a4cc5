#include <cuda_runtime.h>
#define N (64 * 256)

__global__ void count_matches(const int* keys, int key, unsigned* counter) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N && keys[i] == key)
        *counter = *counter + 1;
}

int main() {
    int* keys; unsigned* c;
    cudaMalloc(&keys, N * sizeof(int));
    cudaMalloc(&c, sizeof(unsigned));
    cudaMemset(c, 0, sizeof(unsigned));
    count_matches<<<N / 256, 256>>>(keys, 3, c);
    cudaDeviceSynchronize();
    return 0;
}
