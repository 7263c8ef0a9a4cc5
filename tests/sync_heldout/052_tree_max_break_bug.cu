#include <cuda_runtime.h>
#define BLOCK 512
#define NBLK 64

__global__ void tree_max(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (int active = BLOCK; active > 1; active >>= 1) {
        int half = active / 2;
        if (t >= half) break;
        if (t < half)
            s[t] = fmaxf(s[t], s[t + half]);
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, NBLK * BLOCK * sizeof(float));
    cudaMalloc(&out, NBLK * sizeof(float));
    tree_max<<<NBLK, BLOCK>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
