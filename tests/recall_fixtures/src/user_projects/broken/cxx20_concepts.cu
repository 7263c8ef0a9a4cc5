// Kernels constrained with C++20 concepts; builds with -std=c++20 only.
#include <concepts>
#include <cstdint>
#include <cuda_runtime.h>

template <typename T>
concept Arithmetic = std::integral<T> || std::floating_point<T>;

template <typename T>
concept SmallScalar = Arithmetic<T> && (sizeof(T) <= 4);

consteval int pick_block(int n) { return n > 512 ? 512 : 256; }

template <std::floating_point T>
__global__ void concept_axpy(T a, const T *x, T *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

template <typename T>
    requires SmallScalar<T>
__global__ void requires_clause(T *p, T v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}

template <typename T>
__global__ void trailing_requires(T *p, int n) requires std::integral<T>
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = static_cast<T>(i & 0xff);
}

// abbreviated function template: a template kernel without the template keyword
__global__ void abbreviated_fill(std::integral auto *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 7;
}

__global__ void __launch_bounds__(pick_block(1024)) consteval_block(float *p)
{
    p[threadIdx.x] = 1.0f;
}

__global__ void designated_init(int2 *out)
{
    struct point { int x, y; };
    point p{.x = (int)threadIdx.x, .y = 2};
    out[threadIdx.x] = make_int2(p.x, p.y);
}

void instantiate()
{
    float *f = nullptr;
    int *i = nullptr;
    concept_axpy<<<1, 32>>>(2.0f, f, f, 32);
    requires_clause<<<1, 32>>>(i, 3, 32);
    trailing_requires<<<1, 32>>>(i, 32);
    abbreviated_fill<<<1, 32>>>(i, 32);
}
