#pragma once
#include "../../cutlass_lite.cuh"

namespace cutlass_lite {
namespace reduction {
namespace kernel {

/// Sums the split-k partial results: D = alpha * sum_k(workspace[k]) + beta * C
template <typename ElementWorkspace_, typename ElementOutput_, int kElementsPerAccess = 1>
struct ReduceSplitK {
  using ElementWorkspace = ElementWorkspace_;
  using ElementOutput = ElementOutput_;
  static constexpr int kThreads = 256;

  struct Params {
    MatrixCoord problem_size;
    int partitions;
    size_t partition_stride;
    ElementWorkspace const* workspace;
    ElementOutput const* source;
    ElementOutput* destination;
    ElementWorkspace alpha;
    ElementWorkspace beta;
  };

  struct SharedStorage {};

  static dim3 grid_shape(MatrixCoord problem_size) {
    return dim3((problem_size.row() * problem_size.column() + kThreads * kElementsPerAccess - 1) / (kThreads * kElementsPerAccess));
  }

  CUTLASS_DEVICE void operator()(Params const& params, SharedStorage&) {
    const size_t total = size_t(params.problem_size.row()) * params.problem_size.column();
    const size_t base = (size_t(blockIdx.x) * kThreads + threadIdx.x) * kElementsPerAccess;
    CUTLASS_PRAGMA_UNROLL
    for (int e = 0; e < kElementsPerAccess; ++e) {
      const size_t idx = base + e;
      if (idx >= total) {
        return;
      }
      ElementWorkspace acc = ElementWorkspace(0);
      for (int p = 0; p < params.partitions; ++p) {
        acc += params.workspace[idx + p * params.partition_stride];
      }
      ElementWorkspace src = params.source ? ElementWorkspace(params.source[idx]) : ElementWorkspace(0);
      params.destination[idx] = ElementOutput(params.alpha * acc + params.beta * src);
    }
  }
};

template <typename Reduction>
__global__ void reduce_split_k_kernel(typename Reduction::Params params) {
  __shared__ typename Reduction::SharedStorage shared_storage;
  Reduction reduction_op;
  reduction_op(params, shared_storage);
}

}  // namespace kernel
}  // namespace reduction
}  // namespace cutlass_lite
