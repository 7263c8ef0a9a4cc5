#include <cuda_runtime.h>

__global__ void suffix_sums(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float x = in[i];
    float acc = 0.0f;
    for (int k = 0; k < 32; ++k) {
        float t = __shfl_sync(0xffffffffu, x, k);
        if (k >= lane)
            acc += t;
    }
    out[i] = acc;
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 64 * 128 * sizeof(float));
    cudaMalloc(&out, 64 * 128 * sizeof(float));
    suffix_sums<<<64, 128>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
