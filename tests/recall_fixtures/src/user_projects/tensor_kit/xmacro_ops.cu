// Element-wise operator library: one list per operator family, one macro per
// kernel shape.  Adding an op means adding one line to a list.

#include <cuda_runtime.h>
#include <cstdint>

#define TK_THREADS 256
#define TK_INDEX (blockIdx.x * blockDim.x + threadIdx.x)

// ---- op lists ------------------------------------------------------------
#define TK_UNARY_OPS(X) \
    X(abs, fabsf(x)) \
    X(neg, -x) \
    X(exp, expf(x)) \
    X(log, logf(x)) \
    X(sqrt, sqrtf(x)) \
    X(rsqrt, rsqrtf(x)) \
    X(sin, sinf(x)) \
    X(cos, cosf(x)) \
    X(tanh, tanhf(x)) \
    X(sigmoid, 1.f / (1.f + expf(-x))) \
    X(relu, fmaxf(x, 0.f)) \
    X(gelu, 0.5f * x * (1.f + erff(x * 0.7071067f))) \
    X(silu, x / (1.f + expf(-x))) \
    X(softplus, log1pf(expf(x))) \
    X(square, x * x) \
    X(cube, x * x * x) \
    X(recip, 1.f / x) \
    X(floor, floorf(x)) \
    X(ceil, ceilf(x)) \
    X(round, roundf(x)) \
    X(sign, (float)((x > 0.f) - (x < 0.f))) \
    X(erf, erff(x)) \
    X(expm1, expm1f(x)) \
    X(log1p, log1pf(x)) \
    X(atan, atanf(x)) \
    X(asinh, asinhf(x)) \
    X(elu, x > 0.f ? x : expf(x) - 1.f) \
    X(hardtanh, fminf(fmaxf(x, -1.f), 1.f)) \
    X(mish, x * tanhf(log1pf(expf(x)))) \
    X(swish_beta, x / (1.f + expf(-1.5f * x))) \
    X(exp2, exp2f(x)) \
    X(log2, log2f(x)) \
    X(log10, log10f(x)) \
    X(cbrt, cbrtf(x)) \
    X(trunc, truncf(x)) \
    X(frac, x - truncf(x)) \
    X(sinh, sinhf(x)) \
    X(cosh, coshf(x)) \
    X(tan, tanf(x)) \
    X(lgamma, lgammaf(x))

#define TK_BINARY_OPS(X) \
    X(add, a + b) \
    X(sub, a - b) \
    X(mul, a * b) \
    X(div, a / b) \
    X(max, a > b ? a : b) \
    X(min, a < b ? a : b) \
    X(pow, (T)powf((float)a, (float)b)) \
    X(hypot, (T)hypotf((float)a, (float)b)) \
    X(atan2, (T)atan2f((float)a, (float)b)) \
    X(fmod, (T)fmodf((float)a, (float)b)) \
    X(absdiff, a > b ? a - b : b - a) \
    X(sqdiff, (a - b) * (a - b)) \
    X(avg, (a + b) / T(2)) \
    X(lerp25, a + (b - a) / T(4)) \
    X(greater, T(a > b)) \
    X(equal, T(a == b))

#define TK_SPECIAL_OPS(X) \
    X(clip01, fminf(fmaxf(x, 0.f), 1.f)) \
    X(leaky, x > 0.f ? x : 0.01f * x) \
    X(scale2, 2.f * x) \
    X(shift1, x + 1.f) \
    X(halve, 0.5f * x) \
    X(negabs, -fabsf(x))

// ---- kernel shapes --------------------------------------------------------
#define TK_DEFINE_UNARY_F32(NAME, EXPR)                                           \
    __global__ void unary_##NAME##_f32(const float *__restrict__ in,             \
                                       float *__restrict__ out, int n)           \
    {                                                                             \
        const int i = TK_INDEX;                                                   \
        if (i < n) {                                                              \
            const float x = in[i];                                                \
            out[i] = (EXPR);                                                      \
        }                                                                         \
    }

#define TK_DEFINE_UNARY_F64(NAME, EXPR)                                           \
    __global__ void unary_##NAME##_f64(const double *__restrict__ in,            \
                                       double *__restrict__ out, int n)          \
    {                                                                             \
        for (int i = TK_INDEX; i < n; i += blockDim.x * gridDim.x) {              \
            const float x = (float)in[i];                                         \
            out[i] = (double)(EXPR);                                              \
        }                                                                         \
    }

#define TK_DEFINE_BINARY(NAME, EXPR)                                              \
    template <typename T>                                                         \
    __global__ void binary_##NAME(const T *__restrict__ A, const T *__restrict__ B, \
                                  T *__restrict__ C, int n)                       \
    {                                                                             \
        const int i = TK_INDEX;                                                   \
        if (i >= n) return;                                                       \
        const T a = A[i], b = B[i];                                               \
        C[i] = (EXPR);                                                            \
    }

#define TK_DEFINE_SPECIAL_OUT(NAME, EXPR)                                         \
    __global__ void special_##NAME(const float *in, float *out, int n)           \
    { const int i = TK_INDEX; if (i < n) { const float x = in[i]; out[i] = (EXPR); } }
#define TK_DEFINE_SPECIAL_INPLACE(NAME, EXPR)                                     \
    __global__ void special_##NAME##_inplace(float *io, int n)                   \
    { const int i = TK_INDEX; if (i < n) { const float x = io[i]; io[i] = (EXPR); } }
// one list entry -> two kernels, through a macro that calls two macros
#define TK_DEFINE_SPECIAL(NAME, EXPR) TK_DEFINE_SPECIAL_OUT(NAME, EXPR) TK_DEFINE_SPECIAL_INPLACE(NAME, EXPR)

// ---- instantiate everything ----------------------------------------------
TK_UNARY_OPS(TK_DEFINE_UNARY_F32)
TK_UNARY_OPS(TK_DEFINE_UNARY_F64)
TK_BINARY_OPS(TK_DEFINE_BINARY)
TK_SPECIAL_OPS(TK_DEFINE_SPECIAL)

// explicit instantiations of the binary templates (declarations only)
#define TK_INSTANTIATE_BINARY(NAME, EXPR) \
    template __global__ void binary_##NAME<float>(const float *__restrict__, const float *__restrict__, float *__restrict__, int); \
    template __global__ void binary_##NAME<int>(const int *__restrict__, const int *__restrict__, int *__restrict__, int);
TK_BINARY_OPS(TK_INSTANTIATE_BINARY)

// ---- host dispatch table --------------------------------------------------
typedef void (*tk_unary_fn)(const float *, float *, int);
#define TK_TABLE_ENTRY(NAME, EXPR) {#NAME, unary_##NAME##_f32},
struct tk_unary_entry {
    const char *name;
    tk_unary_fn fn;
};
static const tk_unary_entry tk_unary_table[] = {TK_UNARY_OPS(TK_TABLE_ENTRY)};

extern "C" int tk_unary(const char *name, const float *in, float *out, int n)
{
    for (const tk_unary_entry &e : tk_unary_table) {
        const char *a = e.name, *b = name;
        while (*a && *a == *b) {
            ++a;
            ++b;
        }
        if (*a == *b) {
            void *args[] = {(void *)&in, (void *)&out, (void *)&n};
            return (int)cudaLaunchKernel((const void *)e.fn, dim3((n + TK_THREADS - 1) / TK_THREADS), dim3(TK_THREADS), args, 0, 0);
        }
    }
    return -1;
}
