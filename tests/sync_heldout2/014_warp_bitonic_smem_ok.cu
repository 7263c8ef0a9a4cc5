#include <cuda_runtime.h>

__device__ void cmpx(float* s, int lane, int j, int k) {
    int p = lane ^ j;
    float a = s[lane], b = s[p];
    bool up = ((lane & k) == 0);
    float keep = (lane < p) == up ? fminf(a, b) : fmaxf(a, b);
    __syncwarp();
    s[lane] = keep;
    __syncwarp();
}

__global__ void warp_sort(float* data) {
    __shared__ float buf[2][32];
    int lane = threadIdx.x & 31;
    float* s = buf[threadIdx.x >> 5];
    s[lane] = data[blockIdx.x * 64 + threadIdx.x];
    __syncwarp();
    for (int k = 2; k <= 32; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1)
            cmpx(s, lane, j, k);
    data[blockIdx.x * 64 + threadIdx.x] = s[lane];
}

int main() {
    float* d;
    cudaMalloc(&d, 8 * 64 * sizeof(float));
    warp_sort<<<8, 64>>>(d);
    cudaDeviceSynchronize();
    return 0;
}
