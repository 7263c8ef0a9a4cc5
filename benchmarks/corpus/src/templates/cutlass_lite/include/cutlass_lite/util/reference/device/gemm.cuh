#pragma once
#include <type_traits>
#include "../../../cutlass_lite.cuh"

namespace cutlass_lite {
namespace reference {
namespace device {
namespace kernel {

/// Reference product, one output element per thread; the accumulate and convert steps
/// are policy types so the same kernel checks integer, half and float GEMMs.
template <typename RefA, typename RefB, typename RefC, typename Scalar, typename Accum, typename Policy>
__global__ void reference_gemm_kernel(gemm::GemmCoord problem, Scalar alpha, RefA a, RefB b, Scalar beta, RefC c, RefC d) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= problem.m() || col >= problem.n()) {
    return;
  }
  Accum sum = Policy::zero();
  for (int k = 0; k < problem.k(); ++k) {
    sum = Policy::fma(Accum(a.at(MatrixCoord(row, k))), Accum(b.at(MatrixCoord(k, col))), sum);
  }
  MatrixCoord at(row, col);
  d.at(at) = Policy::template to<typename std::remove_reference<decltype(d.at(at))>::type>(
      alpha * Scalar(sum) + beta * Scalar(c.at(at)));
}

/// Batched variant: blockIdx.z selects the batch.
template <typename Element, typename Accumulator, int kTileM = 4, int kTileN = 4>
__global__ void BatchedGemm(gemm::GemmCoord problem_size, Element alpha, Element const* A, int lda, int64_t batch_stride_A,
                            Element const* B, int ldb, int64_t batch_stride_B, Element beta, Element* C, int ldc,
                            int64_t batch_stride_C) {
  const int b = blockIdx.z;
  A += b * batch_stride_A;
  B += b * batch_stride_B;
  C += b * batch_stride_C;
  const int row0 = (blockIdx.x * blockDim.x + threadIdx.x) * kTileM;
  const int col0 = (blockIdx.y * blockDim.y + threadIdx.y) * kTileN;
  Accumulator acc[kTileM][kTileN] = {};
  for (int k = 0; k < problem_size.k(); ++k) {
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < kTileM; ++i) {
      CUTLASS_PRAGMA_UNROLL
      for (int j = 0; j < kTileN; ++j) {
        if (row0 + i < problem_size.m() && col0 + j < problem_size.n()) {
          acc[i][j] += Accumulator(A[(row0 + i) + k * lda]) * Accumulator(B[k + (col0 + j) * ldb]);
        }
      }
    }
  }
  for (int i = 0; i < kTileM; ++i) {
    for (int j = 0; j < kTileN; ++j) {
      if (row0 + i < problem_size.m() && col0 + j < problem_size.n()) {
        Element& c = C[(row0 + i) + (col0 + j) * ldc];
        c = Element(alpha * Element(acc[i][j]) + beta * c);
      }
    }
  }
}

}  // namespace kernel

template <typename Accum>
struct FmaPolicy {
  CUTLASS_HOST_DEVICE static Accum zero() { return Accum(0); }
  CUTLASS_HOST_DEVICE static Accum fma(Accum x, Accum y, Accum acc) { return x * y + acc; }
  template <typename T, typename S>
  CUTLASS_HOST_DEVICE static T to(S s) { return T(s); }
};

/// Launches the reference kernel on column-major or row-major views.
template <typename ElementA, typename LayoutA, typename ElementB, typename LayoutB, typename ElementC, typename LayoutC,
          typename ScalarType, typename AccumulatorType>
void compute_gemm(gemm::GemmCoord problem_size, ScalarType alpha, TensorRef<ElementA, LayoutA> tensor_a,
                  TensorRef<ElementB, LayoutB> tensor_b, ScalarType beta, TensorRef<ElementC, LayoutC> tensor_c,
                  TensorRef<ElementC, LayoutC> tensor_d, AccumulatorType) {
  dim3 block(16, 16);
  dim3 grid((problem_size.m() + 15) / 16, (problem_size.n() + 15) / 16);
  kernel::reference_gemm_kernel<TensorRef<ElementA, LayoutA>, TensorRef<ElementB, LayoutB>, TensorRef<ElementC, LayoutC>,
                                ScalarType, AccumulatorType, FmaPolicy<AccumulatorType>>
      <<<grid, block>>>(problem_size, alpha, tensor_a, tensor_b, beta, tensor_c, tensor_d);
}

}  // namespace device
}  // namespace reference
}  // namespace cutlass_lite
