/* Sample code written for a CUDA tutorial collection.
 * Provided as-is, without warranty of any kind. */

// Template and modern C++ features in kernel declarations.
#include <cstdint>
#include <type_traits>
#include <utility>

namespace detail {
template <typename T>
constexpr bool is_small_v = sizeof(T) <= 4;

template <typename... Ts>
__device__ constexpr auto sum_all(Ts... xs) { return (xs + ... + 0); }
}  // namespace detail

// if constexpr on the element type
template <typename T>
__global__ void typed_fill(T *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if constexpr (std::is_floating_point_v<T>) {
        out[i] = T(0.5);
    } else if constexpr (detail::is_small_v<T>) {
        out[i] = T(1);
    } else {
        out[i] = T(2);
    }
}

// variadic: a fold over the kernel's trailing arguments
template <typename... Args>
__global__ void fold_args(int *out, Args... args)
{
    out[threadIdx.x] = detail::sum_all(args...);
}

// non-type template parameter deduced from a constant
template <auto Scale>
__global__ void auto_nttp(float *p)
{
    p[threadIdx.x] *= static_cast<float>(Scale);
}

// template template parameter
template <typename T> struct plus_op { __device__ T operator()(T a, T b) const { return a + b; } };
template <typename T> struct max_op { __device__ T operator()(T a, T b) const { return a > b ? a : b; } };

template <template <typename> class Op, typename T>
__global__ void combine_with(const T *a, const T *b, T *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = Op<T>{}(a[i], b[i]);
}

// SFINAE in the template parameter list, with a default argument containing '>>'
template <typename T, typename = std::enable_if_t<std::is_integral<T>::value>>
__global__ void only_integral(T *p, T mask)
{
    p[threadIdx.x] &= mask;
}

template <int Bits = ((1 << 4) >> 1), typename Index = std::conditional_t<(Bits > 4), int64_t, int>>
__global__ void shifted_default(Index *p)
{
    p[threadIdx.x] = static_cast<Index>(threadIdx.x) << Bits;
}

// primary template and an explicit (full) specialisation: both are definitions
template <typename T>
__global__ void specialised(T *p)
{
    p[threadIdx.x] = T(1);
}

template <>
__global__ void specialised<double>(double *p)
{
    p[threadIdx.x] = 2.0;
}

// explicit instantiations: not definitions
template __global__ void specialised<float>(float *);
template __global__ void typed_fill<int>(int *, int);
extern template __global__ void typed_fill<long>(long *, int);

// nested namespaces, C++17 form
namespace engine::kernels::v2 {
__global__ void nested_ns_kernel(float *p) { p[threadIdx.x] = 3.0f; }
}  // namespace engine::kernels::v2

// declared in a namespace, defined outside it with a qualified name
namespace outside {
__global__ void defined_later(int *p);
__global__ void also_defined_later(int *p, int v);
}
__global__ void outside::defined_later(int *p) { p[0] = 42; }
__global__ void
::outside::also_defined_later(int *p, int v)
{
    p[threadIdx.x] = v;
}

// structured bindings and constexpr lambdas inside the body
__global__ void structured_bindings(int2 *pts, int *out)
{
    auto [x, y] = pts[threadIdx.x];
    constexpr auto sq = [](int v) { return v * v; };
    out[threadIdx.x] = sq(x) + sq(y);
}

// attributes
[[maybe_unused]] __global__ void with_attributes(float *p, [[maybe_unused]] int unused)
{
    p[threadIdx.x] = 1.0f;
}

// a kernel template with a requires-free constraint via static_assert
template <typename T, int N>
__global__ void checked_vector(T (*rows)[N], T *sums, int count)
{
    static_assert(N > 0 && N <= 64, "N out of range");
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= count) return;
    T s{};
#pragma unroll
    for (int k = 0; k < N; ++k) s += rows[r][k];
    sums[r] = s;
}

// class-scope friend declaration is not a definition; the definition follows
class Accumulator;
__global__ void accumulate(Accumulator *acc, float v);
class Accumulator {
    float total_ = 0.0f;
    friend __global__ void accumulate(Accumulator *acc, float v);

public:
    __host__ __device__ float total() const { return total_; }
};
__global__ void accumulate(Accumulator *acc, float v)
{
    atomicAdd(&acc->total_, v);
}

// a device function template that looks like a kernel but is not one
template <typename T>
__device__ T not_a_kernel(T v) { return v + T(1); }

void instantiate_everything()
{
    float *f = nullptr;
    int *i = nullptr;
    typed_fill<float><<<1, 32>>>(f, 32);
    typed_fill<long long><<<1, 32>>>((long long *)i, 32);
    fold_args<<<1, 32>>>(i, 1, 2, 3);
    auto_nttp<3><<<1, 32>>>(f);
    combine_with<plus_op, float><<<1, 32>>>(f, f, f, 32);
    combine_with<max_op, int><<<1, 32>>>(i, i, i, 32);
    only_integral<int><<<1, 32>>>(i, 7);
    shifted_default<><<<1, 32>>>((int *)i);
    shifted_default<8><<<1, 32>>>((int64_t *)i);
    specialised<double><<<1, 32>>>((double *)f);
    engine::kernels::v2::nested_ns_kernel<<<1, 32>>>(f);
    outside::defined_later<<<1, 1>>>(i);
    structured_bindings<<<1, 32>>>((int2 *)i, i);
    checked_vector<float, 8><<<1, 32>>>((float(*)[8])f, f, 32);
}
