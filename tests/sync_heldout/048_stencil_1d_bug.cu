#include <cuda_runtime.h>
#define RADIUS 3
#define BLOCK 128
#define N (BLOCK * 8192)

__global__ void stencil_1d(const int* in, int* out)
{
    __shared__ int temp[BLOCK + 2 * RADIUS];
    int gindex = threadIdx.x + blockIdx.x * blockDim.x + RADIUS;
    int lindex = threadIdx.x + RADIUS;
    temp[lindex] = in[gindex];
    if (threadIdx.x < RADIUS) {
        temp[lindex - RADIUS] = in[gindex - RADIUS];
        temp[lindex + BLOCK] = in[gindex + BLOCK];
    }
    int result = 0;
    for (int off = -RADIUS; off <= RADIUS; ++off)
        result += temp[lindex + off];
    out[gindex - RADIUS] = result;
}

int main()
{
    int *in, *out;
    cudaMalloc(&in, (N + 2 * RADIUS) * sizeof(int));
    cudaMalloc(&out, N * sizeof(int));
    cudaMemset(in, 0, (N + 2 * RADIUS) * sizeof(int));
    stencil_1d<<<N / BLOCK, BLOCK>>>(in, out);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    return 0;
}
