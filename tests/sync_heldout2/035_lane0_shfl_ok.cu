#include <cuda_runtime.h>

__global__ void grab_lane5(const int* in, int* out) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[g] * 3;
    int lane = threadIdx.x % 32;
    int f = __shfl_sync(0xffffffff, v, 5);
    if (lane == 0) {
        out[g / 32] = f;
    }
}

int main() {
    int *a, *b;
    cudaMalloc(&a, 512 * sizeof(int));
    cudaMalloc(&b, 16 * sizeof(int));
    grab_lane5<<<8, 64>>>(a, b);
    cudaDeviceSynchronize();
    return 0;
}
