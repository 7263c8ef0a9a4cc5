#include <cuda_runtime.h>

template <int W>
__device__ int seg_sum(int v) {
    for (int o = W / 2; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffff, v, o, W);
    return v;
}

__global__ void segsum(const int* in, int* out, int nseg) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int seg = g / 8;
    if (seg < nseg) {
        int v = seg_sum<8>(in[g]);
        if ((g & 7) == 0) out[seg] = v;
    }
}

int main() {
    const int nseg = 250;
    int *in, *out;
    cudaMalloc(&in, 16 * 128 * sizeof(int));
    cudaMalloc(&out, nseg * sizeof(int));
    segsum<<<16, 128>>>(in, out, nseg);
    cudaDeviceSynchronize();
    return 0;
}
