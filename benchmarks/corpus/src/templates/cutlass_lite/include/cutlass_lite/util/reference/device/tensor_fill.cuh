#pragma once
#include "../../../cutlass_lite.cuh"

namespace cutlass_lite {
namespace reference {
namespace device {
namespace detail {

/// hash-based uniform random numbers so results do not depend on the launch shape
CUTLASS_HOST_DEVICE float hash_uniform(uint64_t seed, uint64_t idx) {
  uint64_t x = seed ^ (idx * 0x9E3779B97F4A7C15ull);
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return float(x >> 40) * (1.0f / 16777216.0f);
}

template <typename Element, typename Layout>
__global__ void fill_uniform_kernel(TensorRef<Element, Layout> ref, MatrixCoord extent, uint64_t seed,
                                    float hi, float lo, int quant_bits) {
  // one thread per row; rows are short in the tests that use this
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < extent.row()) {
    const float step = quant_bits >= 0 ? ldexpf(1.0f, -quant_bits) : 0.0f;
    for (int c = 0; c < extent.column(); ++c) {
      float v = lo + (hi - lo) * hash_uniform(seed, uint64_t(r) * extent.column() + c);
      ref.at(MatrixCoord(r, c)) = Element(step > 0.0f ? step * floorf(v / step) : v);
    }
  }
}

template <typename Element, typename Layout>
__global__ void fill_diagonal_kernel(TensorRef<Element, Layout> ref, MatrixCoord extent, Element on_diag,
                                     Element off_diag) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  for (int c = 0; r < extent.row() && c < extent.column(); ++c) {
    ref.at(MatrixCoord(r, c)) = r == c ? on_diag : off_diag;
  }
}

template <typename Element>
__global__ void fill_linear_kernel(Element* dst, int64_t count, Element first, Element step) {
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    dst[i] = first + step * Element(i);
  }
}

template <typename Element>
__global__ void count_mismatches_kernel(unsigned long long* mismatches, Element const* lhs, Element const* rhs,
                                        size_t count) {
  unsigned long long local = 0;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x) {
    local += !(lhs[i] == rhs[i]);
  }
  if (local) {
    atomicAdd(mismatches, local);
  }
}

}  // namespace detail

template <typename Element>
unsigned long long CountMismatches(Element const* a, Element const* b, size_t count) {
  unsigned long long* d = nullptr;
  unsigned long long h = 0;
  cudaMalloc(&d, sizeof(h));
  cudaMemset(d, 0, sizeof(h));
  detail::count_mismatches_kernel<Element><<<64, 256>>>(d, a, b, count);
  cudaMemcpy(&h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return h;
}

template <typename Element, typename Layout>
void TensorFillRandomUniform(TensorRef<Element, Layout> ref, MatrixCoord extent, uint64_t seed, float max = 1.0f,
                             float min = -1.0f, int bits = -1) {
  dim3 block(128);
  dim3 grid((extent.row() + block.x - 1) / block.x);
  detail::fill_uniform_kernel<Element, Layout><<<grid, block>>>(ref, extent, seed, max, min, bits);
}

template <typename Element, typename Layout>
void TensorFillIdentity(TensorRef<Element, Layout> ref, MatrixCoord extent) {
  detail::fill_diagonal_kernel<Element, Layout><<<(extent.row() + 127) / 128, 128>>>(ref, extent, Element(1), Element(0));
}

template <typename Element>
void BlockFillSequential(Element* ptr, int64_t capacity, Element v = Element(1), Element s = Element(0)) {
  detail::fill_linear_kernel<Element><<<128, 256>>>(ptr, capacity, v, s);
}

}  // namespace device
}  // namespace reference
}  // namespace cutlass_lite
