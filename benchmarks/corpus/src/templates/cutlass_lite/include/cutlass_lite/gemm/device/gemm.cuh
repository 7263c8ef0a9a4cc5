#pragma once
#include "../../cutlass_lite.cuh"
#include "../kernel/gemm.cuh"
#include "../../epilogue/thread/linear_combination.cuh"

namespace cutlass_lite {
namespace gemm {
namespace device {

/// Host-side handle: checks arguments, computes the grid and launches the kernel.
template <typename Element_, typename ElementAccumulator_ = float,
          typename ThreadblockShape_ = GemmShape<64, 64, 8>, typename WarpShape_ = GemmShape<32, 64, 8>,
          typename EpilogueOutputOp_ = epilogue::thread::LinearCombination<Element_, 1, ElementAccumulator_>,
          bool SplitKSerial = false>
class Gemm {
 public:
  using Element = Element_;
  using ElementAccumulator = ElementAccumulator_;
  using ThreadblockShape = ThreadblockShape_;
  using WarpShape = WarpShape_;
  using EpilogueOutputOp = EpilogueOutputOp_;
  using Mma = threadblock::MmaSimt<ThreadblockShape, WarpShape, Element, ElementAccumulator>;
  using GemmKernel = kernel::Gemm<Mma, EpilogueOutputOp, SplitKSerial>;

  struct Arguments {
    GemmCoord problem_size;
    Element const* A;
    int lda;
    Element const* B;
    int ldb;
    Element* C;
    Element* D;
    int ldc;
    typename EpilogueOutputOp::Params epilogue;
    int split_k_slices;

    Arguments() : A(nullptr), lda(0), B(nullptr), ldb(0), C(nullptr), D(nullptr), ldc(0), split_k_slices(1) {}
    Arguments(GemmCoord problem_size_, Element const* A_, int lda_, Element const* B_, int ldb_, Element* C_,
              Element* D_, int ldc_, typename EpilogueOutputOp::Params epilogue_ = typename EpilogueOutputOp::Params(),
              int split_k_slices_ = 1)
        : problem_size(problem_size_), A(A_), lda(lda_), B(B_), ldb(ldb_), C(C_), D(D_), ldc(ldc_),
          epilogue(epilogue_), split_k_slices(split_k_slices_) {}
  };

 private:
  typename GemmKernel::Params params_;

 public:
  Gemm() {}

  static Status can_implement(Arguments const& args) {
    if (!SplitKSerial && args.split_k_slices > 1) {
      return Status::kErrorInvalidProblem;
    }
    return GemmKernel::can_implement(args.problem_size);
  }

  static size_t get_workspace_size(Arguments const& args) {
    return SplitKSerial && args.split_k_slices > 1 ? sizeof(int) * 1024 : 0;
  }

  Status initialize(Arguments const& args, void* workspace = nullptr, cudaStream_t stream = nullptr) {
    (void)stream;
    params_.problem_size = args.problem_size;
    params_.grid_tiled_shape = GemmCoord((args.problem_size.m() + ThreadblockShape::kM - 1) / ThreadblockShape::kM,
                                         (args.problem_size.n() + ThreadblockShape::kN - 1) / ThreadblockShape::kN,
                                         args.split_k_slices);
    params_.mma = typename Mma::Params(args.A, args.lda, args.B, args.ldb);
    params_.ptr_C = args.C;
    params_.ptr_D = args.D;
    params_.ldc = args.ldc;
    params_.output_op = args.epilogue;
    params_.semaphore = static_cast<int*>(workspace);
    return Status::kSuccess;
  }

  Status run(cudaStream_t stream = nullptr) {
    dim3 grid(params_.grid_tiled_shape.m(), params_.grid_tiled_shape.n(), 1);
    dim3 block(GemmKernel::kThreadCount, 1, 1);
    int smem_size = int(sizeof(typename GemmKernel::SharedStorage));
    if (smem_size >= (48 << 10)) {
      cudaError_t result = cudaFuncSetAttribute(Kernel<GemmKernel>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_size);
      if (result != cudaSuccess) {
        return Status::kErrorInternal;
      }
    }
    cutlass_lite::Kernel<GemmKernel><<<grid, block, smem_size, stream>>>(params_);
    cudaError_t result = cudaGetLastError();
    return result == cudaSuccess ? Status::kSuccess : Status::kErrorInternal;
  }

  Status operator()(Arguments const& args, void* workspace = nullptr, cudaStream_t stream = nullptr) {
    Status status = initialize(args, workspace, stream);
    if (status == Status::kSuccess) {
      status = run(stream);
    }
    return status;
  }
};

}  // namespace device
}  // namespace gemm
}  // namespace cutlass_lite
