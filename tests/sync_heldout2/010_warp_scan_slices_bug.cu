#include <cuda_runtime.h>

__global__ void warp_scan(const int* in, int* out) {
    __shared__ int s[4][32];
    int lane = threadIdx.x % 32;
    int w = threadIdx.x / 32;
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    s[w][lane] = in[g];
    __syncwarp();
    for (int off = 1; off < 32; off *= 2) {
        if (lane >= off) s[w][lane] += s[w][lane - off];
    }
    out[g] = s[w][lane];
}

int main() {
    int *a, *b;
    cudaMalloc(&a, 4096 * sizeof(int));
    cudaMalloc(&b, 4096 * sizeof(int));
    warp_scan<<<32, 128>>>(a, b);
    cudaDeviceSynchronize();
    return 0;
}
