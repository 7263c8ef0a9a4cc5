#include <cuda_runtime.h>
#define N 1000
#define BLOCK 256

__global__ void shift_left(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    s[threadIdx.x] = (i < N) ? in[i] : 0.0f;
    __syncthreads();
    if (i < N)
        out[i] = s[(threadIdx.x + 1) % BLOCK];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, N * sizeof(float));
    cudaMalloc(&out, N * sizeof(float));
    shift_left<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
