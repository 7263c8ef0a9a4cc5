// cudaperf declaration shim for <mma.h> (warp matrix functions): used by the clang frontend only, and only
// where the CUDA toolkit's header is not found (searched after every include path).  A fragment's `x`
// holds m*n/32 elements of its type here: how many registers a thread holds is the toolkit's choice.
#pragma once

namespace nvcuda {
namespace wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision { struct tf32 {}; struct b1 {}; struct s4 {}; struct u4 {}; }
namespace experimental { namespace precision { struct b1 {}; struct s4 {}; struct u4 {}; } }

template <class Use, int M, int N, int K, class T, class Layout = void>
struct fragment {
  enum { num_elements = M * N / 32 };
  T x[M * N / 32];
};
template <int M, int N, int K, class Layout>
struct fragment<matrix_a, M, N, K, precision::tf32, Layout> {
  enum { num_elements = M * K / 32 };
  float x[M * K / 32];
};
template <int M, int N, int K, class Layout>
struct fragment<matrix_b, M, N, K, precision::tf32, Layout> {
  enum { num_elements = K * N / 32 };
  float x[K * N / 32];
};

template <class F, class T> __device__ void fill_fragment(F& fragment, const T& value);
template <class F, class T> __device__ void load_matrix_sync(F& fragment, const T* p, unsigned ldm);
template <class F, class T> __device__ void load_matrix_sync(F& fragment, const T* p, unsigned ldm, layout_t layout);
template <class F, class T> __device__ void store_matrix_sync(T* p, const F& fragment, unsigned ldm, layout_t layout);
template <class D, class A, class B, class C> __device__ void mma_sync(D& d, const A& a, const B& b, const C& c);
template <class D, class A, class B, class C> __device__ void mma_sync(D& d, const A& a, const B& b, const C& c,
                                                                       bool satf);
__device__ float __float_to_tf32(float in);

}  // namespace wmma
}  // namespace nvcuda
