#pragma once
#include "aten_lite.cuh"

namespace at {
namespace native {
namespace cuda_utils {

constexpr int kCUDABlockReduceNumThreads = 512;
constexpr int kCUDABlockReduceMaxThreads = C10_WARP_SIZE * C10_WARP_SIZE;

template <typename T>
__inline__ C10_DEVICE T WarpReduceSum(T val) {
#pragma unroll
  for (int offset = (C10_WARP_SIZE >> 1); offset > 0; offset >>= 1) {
    val += __shfl_down_sync(0xffffffff, val, offset);
  }
  return val;
}

template <typename T>
__inline__ C10_DEVICE T WarpReduceMax(T val) {
#pragma unroll
  for (int offset = (C10_WARP_SIZE >> 1); offset > 0; offset >>= 1) {
    T other = __shfl_down_sync(0xffffffff, val, offset);
    val = val > other ? val : other;
  }
  return val;
}

struct Block1D {
  static C10_DEVICE int Tid() { return threadIdx.x; }
  static C10_DEVICE int Warps() { return blockDim.x / C10_WARP_SIZE; }
};

struct Block2D {
  static C10_DEVICE int Tid() { return threadIdx.x + threadIdx.y * blockDim.x; }
  static C10_DEVICE int Warps() { return blockDim.x * blockDim.y / C10_WARP_SIZE; }
};

// Sums `val` across the block; the result is valid in thread 0.  `shared` holds one
// value per warp.
template <typename T, typename B = Block1D>
__inline__ C10_DEVICE T BlockReduceSum(T val, T* shared) {
  const int tid = B::Tid();
  const int lid = tid % C10_WARP_SIZE;
  const int wid = tid / C10_WARP_SIZE;
  val = WarpReduceSum(val);
  __syncthreads();
  if (lid == 0) {
    shared[wid] = val;
  }
  __syncthreads();
  val = (tid < B::Warps()) ? shared[lid] : T(0);
  if (wid == 0) {
    val = WarpReduceSum(val);
  }
  return val;
}

template <typename T, typename B = Block1D>
__inline__ C10_DEVICE T BlockReduceMax(T val, T* shared) {
  const int tid = B::Tid();
  const int lid = tid % C10_WARP_SIZE;
  const int wid = tid / C10_WARP_SIZE;
  val = WarpReduceMax(val);
  __syncthreads();
  if (lid == 0) {
    shared[wid] = val;
  }
  __syncthreads();
  val = (tid < B::Warps()) ? shared[lid] : T(-1e30);
  if (wid == 0) {
    val = WarpReduceMax(val);
  }
  return val;
}

template <typename T>
struct WelfordData {
  T mean;
  T m2;
  T n;
  C10_HOST_DEVICE WelfordData() : mean(0), m2(0), n(0) {}
  C10_HOST_DEVICE WelfordData(T mean_, T m2_, T n_) : mean(mean_), m2(m2_), n(n_) {}
};

template <typename T>
C10_HOST_DEVICE C10_ALWAYS_INLINE WelfordData<T> welford_combine(const WelfordData<T>& a, const WelfordData<T>& b) {
  if (a.n == T(0)) return b;
  if (b.n == T(0)) return a;
  const T n = a.n + b.n;
  const T delta = b.mean - a.mean;
  const T nb_over_n = b.n / n;
  return WelfordData<T>(a.mean + delta * nb_over_n, a.m2 + b.m2 + delta * delta * a.n * nb_over_n, n);
}

}  // namespace cuda_utils
}  // namespace native
}  // namespace at
