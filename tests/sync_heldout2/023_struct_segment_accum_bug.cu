#include <cuda_runtime.h>
#define SEG 64

struct Acc { float sum; int n; };

__global__ void seg_stats(const float* x, Acc* acc, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Acc* a = &acc[i / SEG];
    a->sum += x[i];
    a->n += 1;
}

int main() {
    const int n = 16 * 256;
    float* x; Acc* acc;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&acc, (n / SEG) * sizeof(Acc));
    cudaMemset(acc, 0, (n / SEG) * sizeof(Acc));
    seg_stats<<<16, 256>>>(x, acc, n);
    cudaDeviceSynchronize();
    return 0;
}
