#pragma once
#include "../../cutlass_lite.cuh"

namespace cutlass_lite {
namespace epilogue {
namespace thread {

enum class BetaMode { kScaled, kUnscaled, kIgnored };

/// D = alpha * accumulator + beta * source
template <typename ElementOutput_, int Count, typename ElementAccumulator_ = ElementOutput_,
          typename ElementCompute_ = ElementAccumulator_, BetaMode Mode = BetaMode::kScaled>
class LinearCombination {
 public:
  using ElementOutput = ElementOutput_;
  using ElementAccumulator = ElementAccumulator_;
  using ElementCompute = ElementCompute_;
  static constexpr int kCount = Count;
  static constexpr BetaMode kMode = Mode;
  using FragmentOutput = Array<ElementOutput, kCount>;
  using FragmentAccumulator = Array<ElementAccumulator, kCount>;

  struct Params {
    ElementCompute alpha = ElementCompute(1);
    ElementCompute beta = ElementCompute(0);
    CUTLASS_HOST_DEVICE Params() {}
    CUTLASS_HOST_DEVICE Params(ElementCompute a, ElementCompute b) : alpha(a), beta(b) {}
  };

 private:
  ElementCompute alpha_;
  ElementCompute beta_;

 public:
  CUTLASS_HOST_DEVICE explicit LinearCombination(Params const& params) {
    alpha_ = params.alpha;
    beta_ = params.beta;
  }

  CUTLASS_HOST_DEVICE bool is_source_needed() const {
    if constexpr (Mode == BetaMode::kIgnored) {
      return false;
    } else if constexpr (Mode == BetaMode::kUnscaled) {
      return true;
    } else {
      return beta_ != ElementCompute(0);
    }
  }

  CUTLASS_HOST_DEVICE ElementOutput operator()(ElementAccumulator const& accum, ElementOutput const& source) const {
    NumericConverter<ElementCompute, ElementAccumulator> to_compute;
    NumericConverter<ElementOutput, ElementCompute> to_output;
    ElementCompute a = to_compute(accum);
    ElementCompute s = static_cast<ElementCompute>(source);
    if constexpr (Mode == BetaMode::kIgnored) {
      return to_output(alpha_ * a);
    } else if constexpr (Mode == BetaMode::kUnscaled) {
      return to_output(alpha_ * a + s);
    } else {
      return to_output(alpha_ * a + beta_ * s);
    }
  }

  CUTLASS_HOST_DEVICE FragmentOutput operator()(FragmentAccumulator const& accum, FragmentOutput const& source) const {
    FragmentOutput out;
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < kCount; ++i) {
      out[i] = (*this)(accum[i], source[i]);
    }
    return out;
  }
};

/// Applies an activation after the linear combination.
template <template <typename T> class ActivationFunctor, typename ElementOutput_, int Count,
          typename ElementAccumulator_ = ElementOutput_>
class LinearCombinationGeneric {
 public:
  using Base = LinearCombination<ElementOutput_, Count, ElementAccumulator_>;
  using Params = typename Base::Params;
  using ElementOutput = ElementOutput_;
  using ElementAccumulator = ElementAccumulator_;
  CUTLASS_HOST_DEVICE explicit LinearCombinationGeneric(Params const& p) : base_(p) {}
  CUTLASS_HOST_DEVICE ElementOutput operator()(ElementAccumulator const& accum, ElementOutput const& source) const {
    ActivationFunctor<ElementOutput> act;
    return act(base_(accum, source));
  }

 private:
  Base base_;
};

template <typename T>
struct ReLu {
  CUTLASS_HOST_DEVICE T operator()(T const& v) const { return v > T(0) ? v : T(0); }
};

template <typename T>
struct Sigmoid {
  CUTLASS_HOST_DEVICE T operator()(T const& v) const { return T(1) / (T(1) + T(expf(-float(v)))); }
};

}  // namespace thread
}  // namespace epilogue
}  // namespace cutlass_lite
