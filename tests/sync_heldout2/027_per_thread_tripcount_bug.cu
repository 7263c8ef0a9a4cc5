#include <cuda_runtime.h>

__global__ void row_dot(const float* M, const float* v, float* out, int n) {
    __shared__ float vs[128];
    float acc = 0.f;
    const float* row = M + (size_t)blockIdx.x * n;
    for (int k = threadIdx.x; k < n; k += blockDim.x) {
        vs[threadIdx.x] = v[k];
        __syncthreads();
        acc += row[k] * vs[(threadIdx.x + 1) % blockDim.x];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main() {
    const int n = 300;
    float *M, *v, *o;
    cudaMalloc(&M, 2 * n * sizeof(float));
    cudaMalloc(&v, n * sizeof(float));
    cudaMalloc(&o, 2 * 128 * sizeof(float));
    row_dot<<<2, 128>>>(M, v, o, n);
    cudaDeviceSynchronize();
    return 0;
}
