#include <cuda_runtime.h>

__global__ void warp_bitonic(int* keys)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    int lane = t & 31;
    int off = t & ~31;
    s[t] = keys[blockIdx.x * 64 + t];
    __syncwarp();
    for (int k = 2; k <= 32; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int p = lane ^ j;
            if (p > lane) {
                int a = s[off + lane];
                int b = s[off + p];
                bool up = ((lane & k) == 0);
                if ((a > b) == up) {
                    s[off + lane] = b;
                    s[off + p] = a;
                }
            }
            __syncwarp();
        }
    }
    keys[blockIdx.x * 64 + t] = s[t];
}

int main()
{
    int* keys;
    cudaMalloc(&keys, 512 * 64 * sizeof(int));
    cudaMemset(keys, 0, 512 * 64 * sizeof(int));
    warp_bitonic<<<512, 64>>>(keys);
    cudaDeviceSynchronize();
    cudaFree(keys);
    return 0;
}
