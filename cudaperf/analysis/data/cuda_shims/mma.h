// cudaperf declaration shim for <mma.h> (warp matrix functions): used by the clang frontend only, and only
// where the CUDA toolkit's header is not found (searched after every include path).  A fragment's `x`
// holds its tile's elements over 32 threads here (rows * columns / 32, of its element type): how many a
// thread holds is the toolkit's choice (it replicates elements narrower than 32 bits), so that count is a
// stand-in; the element type is the fragment's.
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

template <class Use, int M, int N, int K> struct _tile { enum { elements = M * N }; };
template <int M, int N, int K> struct _tile<matrix_a, M, N, K> { enum { elements = M * K }; };
template <int M, int N, int K> struct _tile<matrix_b, M, N, K> { enum { elements = K * N }; };
template <class T> struct _element { typedef T type; };
template <> struct _element<precision::tf32> { typedef float type; };

template <class Use, int M, int N, int K, class T, class Layout = void>
struct fragment {
  enum { num_elements = _tile<Use, M, N, K>::elements / 32 };
  typename _element<T>::type x[_tile<Use, M, N, K>::elements / 32];
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
