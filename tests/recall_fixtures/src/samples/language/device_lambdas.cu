/* Sample code written for a CUDA tutorial collection.
 * Provided as-is, without warranty of any kind. */

// Kernels parameterised by callables: host-side __device__ lambdas (needs
// --extended-lambda), functors, and lambdas created inside device code.
#include <cstdio>
#include <cuda_runtime.h>

template <typename F>
__global__ void for_each_index(int n, F f)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        f(i);
    }
}

template <typename T, typename UnaryOp>
__global__ void transform_kernel(const T *__restrict__ in, T *__restrict__ out, int n, UnaryOp op)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = op(in[i]);
    }
}

template <typename T, typename BinaryOp>
__global__ void zip_kernel(const T *a, const T *b, T *out, int n, BinaryOp op)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = op(a[i], b[i]);
    }
}

struct saxpy_functor {
    float a;
    __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

// A lambda defined and used entirely on the device needs no special flag.
__global__ void local_lambda(float *data, int n)
{
    auto square_plus = [] __device__(float v, float c) { return v * v + c; };
    auto clamp01 = [](float v) { return v < 0.f ? 0.f : (v > 1.f ? 1.f : v); };
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = clamp01(square_plus(data[i], 0.25f));
    }
}

// Captures by value inside device code, including `this`-free generic lambdas.
__global__ void generic_lambda_in_kernel(const int *in, long long *out, int n)
{
    const int base = blockIdx.x * blockDim.x;
    auto widen = [base](auto v) { return static_cast<long long>(v) + base; };
    const int i = base + threadIdx.x;
    if (i < n) {
        out[i] = widen(in[i]);
    }
}

int main()
{
    const int n = 1 << 20;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    const float a = 2.0f;
    for_each_index<<<256, 256>>>(n, [=] __device__(int i) { y[i] = a * x[i] + y[i]; });
    for_each_index<<<256, 256>>>(n, [x] __host__ __device__(int i) { x[i] = 0.0f; });
    transform_kernel<<<(n + 255) / 256, 256>>>(x, y, n, [] __device__(float v) { return v > 0.f ? v : 0.f; });
    zip_kernel<<<(n + 255) / 256, 256>>>(x, y, y, n, saxpy_functor{3.0f});
    zip_kernel<<<(n + 255) / 256, 256>>>(x, y, y, n, [] __device__(float p, float q) { return p * q; });
    local_lambda<<<(n + 255) / 256, 256>>>(x, n);
    generic_lambda_in_kernel<<<(n + 255) / 256, 256>>>((const int *)x, (long long *)y, n / 2);
    cudaDeviceSynchronize();
    cudaFree(x);
    cudaFree(y);
    return 0;
}
