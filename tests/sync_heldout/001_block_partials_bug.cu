#include <cuda_runtime.h>
#define THREADS 256
#define NBLK 100

__global__ void block_partial(const float* in, float* partial, int n)
{
    __shared__ float s[THREADS];
    int i = blockIdx.x * THREADS + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (int st = THREADS / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st)
            s[threadIdx.x] += s[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[0] = s[0];
}

int main()
{
    float *in, *partial;
    int n = THREADS * NBLK - 17;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&partial, NBLK * sizeof(float));
    block_partial<<<NBLK, THREADS>>>(in, partial, n);
    cudaDeviceSynchronize();
    return 0;
}
