// Every way this code base has found to stamp out kernels with the preprocessor.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

#define IDX (blockIdx.x * blockDim.x + threadIdx.x)

/* 1. one activation per invocation */
#define DEFINE_ACT(name, expr)                                              \
    __global__ void name##_act_kernel(const float *in, float *out, int n)  \
    {                                                                       \
        int i = IDX;                                                        \
        if (i < n) {                                                        \
            float x = in[i];                                                \
            out[i] = (expr);                                                \
        }                                                                   \
    }

DEFINE_ACT(relu, x > 0.f ? x : 0.f)
DEFINE_ACT(sigmoid, 1.f / (1.f + expf(-x)))
DEFINE_ACT(tanh, tanhf(x))
DEFINE_ACT(softsign, x / (1.f + fabsf(x)))
DEFINE_ACT(
    gelu,
    0.5f * x * (1.f + erff(x * 0.70710678f)))
DEFINE_ACT(selu,                     /* scaled ELU */
           1.0507f * (x > 0.f ? x : 1.6733f * (expf(x) - 1.f)))
DEFINE_ACT(identity, x);

/* 2. forward and backward from one invocation */
#define DEFINE_POINTWISE_PAIR(name, fwd, bwd)                                                 \
    __global__ void name##_fwd(const float *x, float *y, int n)                               \
    {                                                                                          \
        for (int i = IDX; i < n; i += blockDim.x * gridDim.x) { float v = x[i]; y[i] = (fwd); } \
    }                                                                                          \
    __global__ void name##_bwd(const float *x, const float *dy, float *dx, int n)             \
    {                                                                                          \
        for (int i = IDX; i < n; i += blockDim.x * gridDim.x) {                                \
            float v = x[i], g = dy[i];                                                         \
            dx[i] = (bwd);                                                                     \
        }                                                                                      \
    }

DEFINE_POINTWISE_PAIR(square, v * v, 2.f * v * g)
DEFINE_POINTWISE_PAIR(exp, expf(v), expf(v) * g)
DEFINE_POINTWISE_PAIR(softplus, log1pf(expf(v)), g / (1.f + expf(-v)))
DEFINE_POINTWISE_PAIR(abs, fabsf(v), v >= 0.f ? g : -g)

/* 3. type-suffixed names */
#define DEFINE_FILL(T, suffix) \
    __global__ void fill_##suffix(T *p, T v, size_t n) { for (size_t i = IDX; i < n; i += (size_t)blockDim.x * gridDim.x) p[i] = v; }

DEFINE_FILL(float, f32)
DEFINE_FILL(double, f64)
DEFINE_FILL(int32_t, i32)
DEFINE_FILL(int64_t, i64)
DEFINE_FILL(uint8_t, u8)

/* 4. the body is a macro argument */
#define ELEMENTWISE_KERNEL(name, ...)                                       \
    __global__ void name(int n, const float *x, float *y)                  \
    {                                                                       \
        for (int i = IDX; i < n; i += blockDim.x * gridDim.x) {             \
            __VA_ARGS__;                                                    \
        }                                                                   \
    }

ELEMENTWISE_KERNEL(scale_by_two, y[i] = 2.f * x[i])
ELEMENTWISE_KERNEL(add_neighbours, y[i] = x[i] + (i + 1 < n ? x[i + 1] : 0.f))
ELEMENTWISE_KERNEL(clamp_pair, float a = x[i]; y[i] = a < -1.f ? -1.f : (a > 1.f ? 1.f : a))
ELEMENTWISE_KERNEL(count_nan, if (isnan(x[i])) atomicAdd(y, 1.f))

/* 5. name built by a macro, declaration written out */
#define KERNEL_NAME(op) op##_kernel_v2

__global__ void KERNEL_NAME(relu)(float *p, int n)
{
    int i = IDX;
    if (i < n && p[i] < 0.f)
        p[i] = 0.f;
}

__global__ void
KERNEL_NAME(negate)(float *p, int n)
{
    int i = IDX;
    if (i < n)
        p[i] = -p[i];
}

__global__ void KERNEL_NAME(half)(float *p, int n) { int i = IDX; if (i < n) p[i] *= 0.5f; }

/* 6. braces hidden in BEGIN/END macros */
#define BEGIN_KERNEL(name, ...) __global__ void name(__VA_ARGS__) {
#define END_KERNEL }
#define GRID_LOOP(i, n) for (int i = IDX; i < (n); i += blockDim.x * gridDim.x) {
#define END_LOOP }

BEGIN_KERNEL(vec_add, const float *a, const float *b, float *c, int n)
    GRID_LOOP(i, n)
        c[i] = a[i] + b[i];
    END_LOOP
END_KERNEL

BEGIN_KERNEL(vec_mul, const float *a, const float *b, float *c, int n)
    GRID_LOOP(i, n)
        c[i] = a[i] * b[i];
    END_LOOP
END_KERNEL

BEGIN_KERNEL(vec_fma, const float *a, const float *b, float *c, int n)
    GRID_LOOP(i, n)
        c[i] = fmaf(a[i], b[i], c[i]);
    END_LOOP
END_KERNEL

BEGIN_KERNEL(vec_zero, float *c, int n)
    GRID_LOOP(i, n) c[i] = 0.f; END_LOOP
END_KERNEL

/* 7. templated kernels from a macro */
#define DECLARE_REDUCE_KERNEL(NAME, OP, INIT)                                          \
    template <typename T, int BLOCK>                                                   \
    __global__ void reduce_##NAME##_kernel(const T *in, T *out, int n)                 \
    {                                                                                  \
        __shared__ T s[BLOCK];                                                         \
        T acc = T(INIT);                                                               \
        for (int i = IDX; i < n; i += BLOCK * gridDim.x) acc = acc OP in[i];           \
        s[threadIdx.x] = acc;                                                          \
        __syncthreads();                                                               \
        for (int k = BLOCK / 2; k > 0; k >>= 1) {                                      \
            if (threadIdx.x < k) s[threadIdx.x] = s[threadIdx.x] OP s[threadIdx.x + k]; \
            __syncthreads();                                                           \
        }                                                                              \
        if (threadIdx.x == 0) out[blockIdx.x] = s[0];                                  \
    }

DECLARE_REDUCE_KERNEL(sum, +, 0)
DECLARE_REDUCE_KERNEL(prod, *, 1)
DECLARE_REDUCE_KERNEL(or, |, 0)

// instantiations through a macro: declarations, not definitions
#define INSTANTIATE_REDUCE(NAME, T) template __global__ void reduce_##NAME##_kernel<T, 256>(const T *, T *, int);
INSTANTIATE_REDUCE(sum, float)
INSTANTIATE_REDUCE(sum, double)
INSTANTIATE_REDUCE(prod, float)
INSTANTIATE_REDUCE(or, int)

/* 8. three kernels per invocation */
#define DEFINE_OPTIMIZER(NAME, UPDATE)                                                         \
    __global__ void NAME##_init(float *state, int n) { int i = IDX; if (i < n) state[i] = 0.f; } \
    __global__ void NAME##_step(float *w, const float *g, float *state, float lr, int n)        \
    {                                                                                          \
        int i = IDX;                                                                           \
        if (i < n) { float s = state[i]; UPDATE; state[i] = s; }                               \
    }                                                                                          \
    __global__ void NAME##_zero_grad(float *g, int n) { int i = IDX; if (i < n) g[i] = 0.f; }

DEFINE_OPTIMIZER(momentum, s = 0.9f * s + g[i]; w[i] -= lr * s)
DEFINE_OPTIMIZER(rmsprop, s = 0.99f * s + 0.01f * g[i] * g[i]; w[i] -= lr * g[i] * rsqrtf(s + 1e-8f))

/* 9. stringification in the body */
#define NAMED_PROBE(n) \
    __global__ void n(int *hits) { if (threadIdx.x == 0) { atomicAdd(hits, 1); printf("%s ran\n", #n); } }

NAMED_PROBE(probe_alpha)
NAMED_PROBE(probe_beta)

/* 10. a macro that looks like a kernel generator but only declares */
#define DECLARE_ONLY(name) __global__ void name(float *p, int n);
DECLARE_ONLY(declared_somewhere_else_a)
DECLARE_ONLY(declared_somewhere_else_b)

/* 11. a real kernel right after all that */
__global__ void plain_after_macros(float *p, int n)
{
    int i = IDX;
    if (i < n)
        p[i] += 1.f;
}

int main()
{
    float *d;
    cudaMalloc(&d, 1 << 20);
    relu_act_kernel<<<16, 256>>>(d, d, 4096);
    reduce_sum_kernel<float, 256><<<16, 256>>>(d, d, 4096);
    reduce_prod_kernel<double, 128><<<16, 128>>>((double *)d, (double *)d, 1024);
    reduce_or_kernel<int, 256><<<16, 256>>>((int *)d, (int *)d, 4096);
    vec_add<<<16, 256>>>(d, d, d, 4096);
    cudaDeviceSynchronize();
    cudaFree(d);
    return 0;
}
