#include <cuda_runtime.h>

__global__ void pipelined(const float* in, float* out, int tiles) {
    extern __shared__ float buf[];
    const int BS = blockDim.x;
    const int tid = threadIdx.x;
    const float* src = in + (size_t)blockIdx.x * tiles * BS;
    int cur = 0;
    float acc = 0.f;
    buf[tid] = src[tid];
    __syncthreads();
    for (int t = 0; t < tiles; ++t) {
        if (t + 1 < tiles)
            buf[(1 - cur) * BS + tid] = src[(t + 1) * BS + tid];
        acc += buf[cur * BS + (tid + 1) % BS];
        __syncthreads();
        cur = 1 - cur;
    }
    out[blockIdx.x * BS + tid] = acc;
}

int main() {
    const int tiles = 8, threads = 256, blocks = 16;
    float *in, *out;
    cudaMalloc(&in, sizeof(float) * blocks * tiles * threads);
    cudaMalloc(&out, sizeof(float) * blocks * threads);
    pipelined<<<blocks, threads, 2 * threads * sizeof(float)>>>(in, out, tiles);
    cudaDeviceSynchronize();
    return 0;
}
