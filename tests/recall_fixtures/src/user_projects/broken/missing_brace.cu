// A host function lost its closing brace in an edit; everything after it is, to a
// parser, inside that function.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void before_error_a(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 1.0f;
}

__global__ void before_error_b(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= 2.0f;
}

static void report(const char *what, cudaError_t e)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    /* the closing brace of the if statement above is missing */
}

__global__ void after_error_a(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 3.0f;
}

template <int K>
__global__ void after_error_b(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] * K;
}

__global__ void __launch_bounds__(128) after_error_c(const float *a, float *b, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        b[i] = a[i] - 1.0f;
}

__global__ void after_error_d(int *counter)
{
    atomicAdd(counter, 1);
}

int main()
{
    float *p;
    cudaMalloc(&p, 1024 * sizeof(float));
    before_error_a<<<4, 256>>>(p, 1024);
    report("launch", cudaGetLastError());
    return 0;
}
