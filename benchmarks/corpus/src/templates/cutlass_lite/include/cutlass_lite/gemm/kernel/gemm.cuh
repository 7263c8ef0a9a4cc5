#pragma once
#include "../../cutlass_lite.cuh"
#include "../threadblock/mma_simt.cuh"

namespace cutlass_lite {

/// Entry point shared by every operator: the operator's shared storage is carved out
/// of dynamic shared memory and the operator object does the work.
template <typename Op>
CUTLASS_GLOBAL
void Kernel(typename Op::Params params) {
  extern __shared__ __align__(16) unsigned char dyn_smem[];
  auto& storage = *reinterpret_cast<typename Op::SharedStorage*>(dyn_smem);
  Op{}(params, storage);
}

/// Variant that tells the compiler how many threads the operator uses.
template <typename Op>
__global__ void __launch_bounds__(Op::kThreadCount, 1)
KernelWithBounds(typename Op::Params params) {
  extern __shared__ __align__(16) unsigned char dyn_smem[];
  Op op;
  op(params, *reinterpret_cast<typename Op::SharedStorage*>(dyn_smem));
}

namespace gemm {
namespace kernel {

template <typename Mma_, typename Epilogue_, bool SplitKSerial = false>
struct Gemm {
  using Mma = Mma_;
  using Epilogue = Epilogue_;
  using Element = typename Mma::Element;
  using ElementC = typename Epilogue::ElementOutput;
  using ElementAccumulator = typename Mma::ElementAccumulator;
  using OutputOp = Epilogue;
  static constexpr bool kSplitKSerial = SplitKSerial;
  static constexpr int kThreadCount = Mma::kThreadCount;

  struct Params {
    GemmCoord problem_size;
    GemmCoord grid_tiled_shape;
    typename Mma::Params mma;
    ElementC* ptr_C;
    ElementC* ptr_D;
    int ldc;
    typename OutputOp::Params output_op;
    int* semaphore;
    int gemm_k_size;

    CUTLASS_HOST_DEVICE Params() : ptr_C(nullptr), ptr_D(nullptr), ldc(0), semaphore(nullptr), gemm_k_size(0) {}
  };

  union SharedStorage {
    typename Mma::SharedStorage main_loop;
    ElementAccumulator epilogue[Mma::kThreadCount];
  };

  CUTLASS_HOST_DEVICE Gemm() {}

  static Status can_implement(GemmCoord const& problem_size) {
    if (problem_size.m() <= 0 || problem_size.n() <= 0 || problem_size.k() <= 0) {
      return Status::kErrorInvalidProblem;
    }
    return Status::kSuccess;
  }

  CUTLASS_DEVICE
  void operator()(Params const& params, SharedStorage& shared_storage) {
    GemmCoord tb_offset(blockIdx.x * Mma::Shape::kM, blockIdx.y * Mma::Shape::kN, 0);
    if (tb_offset.m() >= params.problem_size.m() || tb_offset.n() >= params.problem_size.n()) {
      return;
    }
    typename Mma::FragmentC accum;
    accum.clear();
    Mma mma;
    mma(params.mma, shared_storage.main_loop, accum, tb_offset, params.problem_size);
    OutputOp output_op(params.output_op);
    MatrixCoord t = Mma::thread_offset();
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < Mma::kThreadTileM; ++i) {
      CUTLASS_PRAGMA_UNROLL
      for (int j = 0; j < Mma::kThreadTileN; ++j) {
        const int row = tb_offset.m() + t.row() + i;
        const int col = tb_offset.n() + t.column() + j;
        if (row < params.problem_size.m() && col < params.problem_size.n()) {
          ElementC source = (params.ptr_C && output_op.is_source_needed()) ? params.ptr_C[row * params.ldc + col] : ElementC(0);
          if constexpr (kSplitKSerial) {
            atomicAdd(&params.ptr_D[row * params.ldc + col], output_op(accum[i * Mma::kThreadTileN + j], source));
          } else {
            params.ptr_D[row * params.ldc + col] = output_op(accum[i * Mma::kThreadTileN + j], source);
          }
        }
      }
    }
  }
};

}  // namespace kernel
}  // namespace gemm
}  // namespace cutlass_lite
