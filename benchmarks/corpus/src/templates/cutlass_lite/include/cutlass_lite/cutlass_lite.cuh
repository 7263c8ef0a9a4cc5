/***************************************************************************************************
 * Core definitions: qualifiers, arrays, coordinates and problem shapes.
 **************************************************************************************************/
#pragma once

#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define CUTLASS_HOST_DEVICE __forceinline__ __device__ __host__
#define CUTLASS_DEVICE __forceinline__ __device__
#define CUTLASS_HOST __host__
#define CUTLASS_GLOBAL __global__ static
#define CUTLASS_PRAGMA_UNROLL _Pragma("unroll")
#define CUTLASS_PRAGMA_NO_UNROLL _Pragma("unroll 1")
#define CUTLASS_UNUSED(expr) ((void)(expr))
#define CUTLASS_ASSERT(x) assert(x)

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 800)
#define CUTLASS_ARCH_MMA_SM80_ENABLED 1
#endif

namespace cutlass_lite {

enum class Status {
  kSuccess,
  kErrorMisalignedOperand,
  kErrorInvalidProblem,
  kErrorNotSupported,
  kErrorWorkspaceNull,
  kErrorInternal,
  kInvalid
};

CUTLASS_HOST inline char const* status_name(Status s) {
  static char const* const names[] = {"ok", "misaligned operand", "invalid problem", "not supported",
                                      "workspace missing", "internal error", "invalid"};
  return names[static_cast<int>(s)];
}

/// Fixed-size register array.
template <typename T, int N, bool RegisterSized = true>
struct Array {
  static_assert(N > 0, "Array must hold at least one element");
  using Element = T;
  using value_type = T;
  static constexpr int kElements = N;
  T storage[N];

  CUTLASS_HOST_DEVICE T& operator[](int idx) { return storage[idx]; }
  CUTLASS_HOST_DEVICE T const& operator[](int idx) const { return storage[idx]; }
  CUTLASS_HOST_DEVICE T* data() { return storage; }
  CUTLASS_HOST_DEVICE void clear() { fill(T(0)); }
  CUTLASS_HOST_DEVICE void fill(T const& value) {
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < N; ++i) {
      storage[i] = value;
    }
  }
  CUTLASS_HOST_DEVICE static constexpr int size() { return N; }
};

template <typename T, int N>
struct alignas(sizeof(T) * N) AlignedArray : public Array<T, N> {};

template <int Rank_, typename Index_ = int>
struct Coord {
  static constexpr int kRank = Rank_;
  using Index = Index_;
  Index idx[kRank];

  CUTLASS_HOST_DEVICE explicit Coord(Index value = Index(0)) {
    for (int i = 0; i < kRank; ++i) idx[i] = value;
  }
  CUTLASS_HOST_DEVICE Index& operator[](int dim) { return idx[dim]; }
  CUTLASS_HOST_DEVICE Index const& operator[](int dim) const { return idx[dim]; }
  CUTLASS_HOST_DEVICE Coord operator+(Coord const& b) const {
    Coord c;
    for (int i = 0; i < kRank; ++i) c.idx[i] = idx[i] + b.idx[i];
    return c;
  }
  CUTLASS_HOST_DEVICE Index product() const {
    Index p = idx[0];
    for (int i = 1; i < kRank; ++i) p *= idx[i];
    return p;
  }
};

struct MatrixCoord : public Coord<2, int> {
  CUTLASS_HOST_DEVICE MatrixCoord() {}
  CUTLASS_HOST_DEVICE MatrixCoord(int row, int column) { idx[0] = row; idx[1] = column; }
  CUTLASS_HOST_DEVICE int const& row() const { return idx[0]; }
  CUTLASS_HOST_DEVICE int const& column() const { return idx[1]; }
};

namespace gemm {

/// Shape of a matrix multiply-add operation
template <int M = 1, int N = 1, int K = 1>
struct GemmShape {
  static constexpr int kM = M;
  static constexpr int kN = N;
  static constexpr int kK = K;
  static constexpr int kVolume = M * N * K;
};

struct GemmCoord : public Coord<3, int> {
  CUTLASS_HOST_DEVICE GemmCoord() {}
  CUTLASS_HOST_DEVICE GemmCoord(int m, int n, int k) { idx[0] = m; idx[1] = n; idx[2] = k; }
  CUTLASS_HOST_DEVICE int const& m() const { return idx[0]; }
  CUTLASS_HOST_DEVICE int const& n() const { return idx[1]; }
  CUTLASS_HOST_DEVICE int const& k() const { return idx[2]; }
  CUTLASS_HOST_DEVICE int& m() { return idx[0]; }
  CUTLASS_HOST_DEVICE int& n() { return idx[1]; }
  CUTLASS_HOST_DEVICE int& k() { return idx[2]; }
};

}  // namespace gemm

namespace layout {
struct RowMajor {
  using Index = int;
  Index stride_;
  CUTLASS_HOST_DEVICE RowMajor(Index ldm = 0) : stride_(ldm) {}
  CUTLASS_HOST_DEVICE int64_t operator()(MatrixCoord const& c) const { return int64_t(c.row()) * stride_ + c.column(); }
  CUTLASS_HOST_DEVICE Index stride(int) const { return stride_; }
};
struct ColumnMajor {
  using Index = int;
  Index stride_;
  CUTLASS_HOST_DEVICE ColumnMajor(Index ldm = 0) : stride_(ldm) {}
  CUTLASS_HOST_DEVICE int64_t operator()(MatrixCoord const& c) const { return int64_t(c.column()) * stride_ + c.row(); }
  CUTLASS_HOST_DEVICE Index stride(int) const { return stride_; }
};
}  // namespace layout

template <typename Element, typename Layout>
struct TensorRef {
  using Reference = Element&;
  Element* ptr_;
  Layout layout_;
  CUTLASS_HOST_DEVICE TensorRef(Element* ptr = nullptr, Layout layout = Layout()) : ptr_(ptr), layout_(layout) {}
  CUTLASS_HOST_DEVICE Element* data() const { return ptr_; }
  CUTLASS_HOST_DEVICE Reference at(MatrixCoord const& c) const { return ptr_[layout_(c)]; }
  CUTLASS_HOST_DEVICE Layout const& layout() const { return layout_; }
};

template <typename T, typename S>
struct NumericConverter {
  CUTLASS_HOST_DEVICE T operator()(S const& s) const { return static_cast<T>(s); }
};

template <>
struct NumericConverter<__half, float> {
  CUTLASS_HOST_DEVICE __half operator()(float const& s) const { return __float2half_rn(s); }
};

}  // namespace cutlass_lite
