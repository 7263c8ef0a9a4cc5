#include <cuda_runtime.h>

__global__ void split_complex(const float2* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float2 v = in[i];
        out[2 * i] = v.x;
        out[2 * i + 1] = v.y;
    }
}

void run_split(const float2* d_in, float* d_out) {
    const int n = 1024;
    split_complex<<<n / 128, 128>>>(d_in, d_out, n);
}
