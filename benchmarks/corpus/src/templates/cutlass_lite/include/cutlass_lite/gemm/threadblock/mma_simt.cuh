#pragma once
#include "../../cutlass_lite.cuh"

namespace cutlass_lite {
namespace gemm {
namespace threadblock {

/// Per-thread tile of a SIMT matrix multiply; accumulates in registers.
template <typename Shape_, typename WarpShape_, typename Element_, typename ElementAccumulator_, int Stages = 2>
struct MmaSimt {
  using Shape = Shape_;
  using WarpShape = WarpShape_;
  using Element = Element_;
  using ElementAccumulator = ElementAccumulator_;

  static constexpr int kWarpCount = (Shape::kM / WarpShape::kM) * (Shape::kN / WarpShape::kN);
  static constexpr int kThreadCount = kWarpCount * 32;
  static constexpr int kThreadTileM = WarpShape::kM / 4;
  static constexpr int kThreadTileN = WarpShape::kN / 8;
  static constexpr int kStages = Stages;

  static_assert(Shape::kM % WarpShape::kM == 0, "threadblock M must be a multiple of warp M");
  static_assert(Shape::kN % WarpShape::kN == 0, "threadblock N must be a multiple of warp N");
  static_assert(kThreadTileM > 0 && kThreadTileN > 0, "warp tile too small");

  using FragmentC = Array<ElementAccumulator, kThreadTileM * kThreadTileN>;

  struct SharedStorage {
    Element operand_A[kStages][Shape::kK][Shape::kM];
    Element operand_B[kStages][Shape::kK][Shape::kN];
  };

  struct Params {
    Element const* ptr_A;
    Element const* ptr_B;
    int lda;
    int ldb;
    CUTLASS_HOST_DEVICE Params() : ptr_A(nullptr), ptr_B(nullptr), lda(0), ldb(0) {}
    CUTLASS_HOST_DEVICE Params(Element const* a, int lda_, Element const* b, int ldb_)
        : ptr_A(a), ptr_B(b), lda(lda_), ldb(ldb_) {}
  };

  CUTLASS_DEVICE
  void load_stage(Params const& params, SharedStorage& smem, int stage, int k0, GemmCoord const& tb_offset,
                  GemmCoord const& problem) const {
    const int tid = threadIdx.x;
    CUTLASS_PRAGMA_UNROLL
    for (int idx = tid; idx < Shape::kK * Shape::kM; idx += kThreadCount) {
      const int kk = idx / Shape::kM;
      const int m = idx % Shape::kM;
      const int gm = tb_offset.m() + m;
      const int gk = k0 + kk;
      smem.operand_A[stage][kk][m] = (gm < problem.m() && gk < problem.k()) ? params.ptr_A[gm * params.lda + gk] : Element(0);
    }
    CUTLASS_PRAGMA_UNROLL
    for (int idx = tid; idx < Shape::kK * Shape::kN; idx += kThreadCount) {
      const int kk = idx / Shape::kN;
      const int n = idx % Shape::kN;
      const int gn = tb_offset.n() + n;
      const int gk = k0 + kk;
      smem.operand_B[stage][kk][n] = (gn < problem.n() && gk < problem.k()) ? params.ptr_B[gk * params.ldb + gn] : Element(0);
    }
  }

  CUTLASS_DEVICE
  void operator()(Params const& params, SharedStorage& smem, FragmentC& accum, GemmCoord const& tb_offset,
                  GemmCoord const& problem) const {
    const int warp_id = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    const int warp_m = (warp_id % (Shape::kM / WarpShape::kM)) * WarpShape::kM;
    const int warp_n = (warp_id / (Shape::kM / WarpShape::kM)) * WarpShape::kN;
    const int thread_m = warp_m + (lane % 4) * kThreadTileM;
    const int thread_n = warp_n + (lane / 4) * kThreadTileN;
    int stage = 0;
    CUTLASS_PRAGMA_NO_UNROLL
    for (int k0 = 0; k0 < problem.k(); k0 += Shape::kK) {
      load_stage(params, smem, stage, k0, tb_offset, problem);
      __syncthreads();
      CUTLASS_PRAGMA_UNROLL
      for (int kk = 0; kk < Shape::kK; ++kk) {
        Array<Element, kThreadTileM> a;
        Array<Element, kThreadTileN> b;
        CUTLASS_PRAGMA_UNROLL
        for (int i = 0; i < kThreadTileM; ++i) a[i] = smem.operand_A[stage][kk][thread_m + i];
        CUTLASS_PRAGMA_UNROLL
        for (int j = 0; j < kThreadTileN; ++j) b[j] = smem.operand_B[stage][kk][thread_n + j];
        CUTLASS_PRAGMA_UNROLL
        for (int i = 0; i < kThreadTileM; ++i) {
          CUTLASS_PRAGMA_UNROLL
          for (int j = 0; j < kThreadTileN; ++j) {
            if constexpr (std::is_same<Element, __half>::value) {
              accum[i * kThreadTileN + j] += __half2float(a[i]) * __half2float(b[j]);
            } else {
              accum[i * kThreadTileN + j] += ElementAccumulator(a[i]) * ElementAccumulator(b[j]);
            }
          }
        }
      }
      __syncthreads();
      stage = (stage + 1) % kStages;
    }
  }

  CUTLASS_DEVICE static MatrixCoord thread_offset() {
    const int warp_id = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    const int warp_m = (warp_id % (Shape::kM / WarpShape::kM)) * WarpShape::kM;
    const int warp_n = (warp_id / (Shape::kM / WarpShape::kM)) * WarpShape::kN;
    return MatrixCoord(warp_m + (lane % 4) * kThreadTileM, warp_n + (lane / 4) * kThreadTileN);
  }
};

}  // namespace threadblock
}  // namespace gemm
}  // namespace cutlass_lite
