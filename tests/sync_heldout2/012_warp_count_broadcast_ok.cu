#include <cuda_runtime.h>
#define FULL 0xffffffffu

__global__ void compact_counts(const int* in, int* out, int thresh) {
    __shared__ int cnt[8];
    int lane = threadIdx.x & 31;
    int w = threadIdx.x >> 5;
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = __ballot_sync(FULL, in[g] > thresh);
    if (lane == 0)
        cnt[w] = __popc(m);
    __syncwarp();
    out[g] = cnt[w] + __popc(m & ((1u << lane) - 1));
}

int main() {
    int *in, *out;
    cudaMalloc(&in, 16 * 256 * sizeof(int));
    cudaMalloc(&out, 16 * 256 * sizeof(int));
    compact_counts<<<16, 256>>>(in, out, 7);
    cudaDeviceSynchronize();
    return 0;
}
