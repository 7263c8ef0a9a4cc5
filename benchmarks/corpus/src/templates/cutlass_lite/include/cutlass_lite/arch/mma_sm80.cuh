#pragma once
#include "../cutlass_lite.cuh"

namespace cutlass_lite {
namespace arch {

struct OpMultiplyAdd {};
struct OpMultiplyAddSaturate {};

/// Matrix multiply-add operation: D = A * B + C
template <typename Shape_, int kThreads, typename ElementA,
          typename ElementB, typename ElementC, typename Operator = OpMultiplyAdd>
struct Mma;

template <>
struct Mma<gemm::GemmShape<16, 8, 16>, 32, __half, __half, float, OpMultiplyAdd> {
  using Shape = gemm::GemmShape<16, 8, 16>;
  using Operator = OpMultiplyAdd;
  using FragmentA = Array<uint32_t, 4>;
  using FragmentB = Array<uint32_t, 2>;
  using FragmentC = Array<float, 4>;

  CUTLASS_HOST_DEVICE
  void operator()(FragmentC& d, FragmentA const& a, FragmentB const& b, FragmentC const& c) const {
#if defined(CUTLASS_ARCH_MMA_SM80_ENABLED)
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
    CUTLASS_UNUSED(a);
    CUTLASS_UNUSED(b);
    d = c;
#endif
  }
};

template <>
struct Mma<gemm::GemmShape<16, 8, 8>, 32, __half, __half, float, OpMultiplyAdd> {
  using Shape = gemm::GemmShape<16, 8, 8>;
  using Operator = OpMultiplyAdd;
  using FragmentA = Array<uint32_t, 2>;
  using FragmentB = Array<uint32_t, 1>;
  using FragmentC = Array<float, 4>;

  CUTLASS_HOST_DEVICE
  void operator()(FragmentC& d, FragmentA const& a, FragmentB const& b, FragmentC const& c) const {
#if defined(CUTLASS_ARCH_MMA_SM80_ENABLED)
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
    CUTLASS_UNUSED(a);
    CUTLASS_UNUSED(b);
    d = c;
#endif
  }
};

template <>
struct Mma<gemm::GemmShape<16, 8, 16>, 32, __half, __half, __half, OpMultiplyAdd> {
  using Shape = gemm::GemmShape<16, 8, 16>;
  using Operator = OpMultiplyAdd;
  using FragmentA = Array<uint32_t, 4>;
  using FragmentB = Array<uint32_t, 2>;
  using FragmentC = Array<uint32_t, 2>;

  CUTLASS_HOST_DEVICE
  void operator()(FragmentC& d, FragmentA const& a, FragmentB const& b, FragmentC const& c) const {
#if defined(CUTLASS_ARCH_MMA_SM80_ENABLED)
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};\n"
        : "=r"(d[0]), "=r"(d[1])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
#else
    CUTLASS_UNUSED(a);
    CUTLASS_UNUSED(b);
    d = c;
#endif
  }
};

template <>
struct Mma<gemm::GemmShape<16, 8, 8>, 32, __half, __half, __half, OpMultiplyAdd> {
  using Shape = gemm::GemmShape<16, 8, 8>;
  using Operator = OpMultiplyAdd;
  using FragmentA = Array<uint32_t, 2>;
  using FragmentB = Array<uint32_t, 1>;
  using FragmentC = Array<uint32_t, 2>;

  CUTLASS_HOST_DEVICE
  void operator()(FragmentC& d, FragmentA const& a, FragmentB const& b, FragmentC const& c) const {
#if defined(CUTLASS_ARCH_MMA_SM80_ENABLED)
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4}, {%5, %6};\n"
        : "=r"(d[0]), "=r"(d[1])
        : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
#else
    CUTLASS_UNUSED(a);
    CUTLASS_UNUSED(b);
    d = c;
#endif
  }
};

/// packed 8-bit dot product, variant 0
CUTLASS_DEVICE
int dp8_0(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 0u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 1
CUTLASS_DEVICE
int dp8_1(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 1u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 2
CUTLASS_DEVICE
int dp8_2(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 2u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 3
CUTLASS_DEVICE
int dp8_3(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 3u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 4
CUTLASS_DEVICE
int dp8_4(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 4u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 5
CUTLASS_DEVICE
int dp8_5(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 5u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 6
CUTLASS_DEVICE
int dp8_6(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 6u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 7
CUTLASS_DEVICE
int dp8_7(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 7u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 8
CUTLASS_DEVICE
int dp8_8(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 8u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 9
CUTLASS_DEVICE
int dp8_9(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 9u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 10
CUTLASS_DEVICE
int dp8_10(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 10u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 11
CUTLASS_DEVICE
int dp8_11(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 11u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 12
CUTLASS_DEVICE
int dp8_12(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 12u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 13
CUTLASS_DEVICE
int dp8_13(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 13u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 14
CUTLASS_DEVICE
int dp8_14(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 14u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 15
CUTLASS_DEVICE
int dp8_15(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 15u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 0
CUTLASS_DEVICE
int dp8_sat_0(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 0u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 1
CUTLASS_DEVICE
int dp8_sat_1(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 1u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 2
CUTLASS_DEVICE
int dp8_sat_2(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 2u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 3
CUTLASS_DEVICE
int dp8_sat_3(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 3u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 4
CUTLASS_DEVICE
int dp8_sat_4(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 4u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 5
CUTLASS_DEVICE
int dp8_sat_5(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 5u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 6
CUTLASS_DEVICE
int dp8_sat_6(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 6u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 7
CUTLASS_DEVICE
int dp8_sat_7(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 7u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 8
CUTLASS_DEVICE
int dp8_sat_8(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 8u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 9
CUTLASS_DEVICE
int dp8_sat_9(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 9u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 10
CUTLASS_DEVICE
int dp8_sat_10(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 10u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 11
CUTLASS_DEVICE
int dp8_sat_11(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 11u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 12
CUTLASS_DEVICE
int dp8_sat_12(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 12u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 13
CUTLASS_DEVICE
int dp8_sat_13(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 13u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 14
CUTLASS_DEVICE
int dp8_sat_14(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 14u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 8-bit dot product, variant 15
CUTLASS_DEVICE
int dp8_sat_15(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a ^ 15u), "r"(b), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 0
CUTLASS_DEVICE
int dp4_0(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 0u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 1
CUTLASS_DEVICE
int dp4_1(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 1u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 2
CUTLASS_DEVICE
int dp4_2(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 2u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 3
CUTLASS_DEVICE
int dp4_3(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 3u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 4
CUTLASS_DEVICE
int dp4_4(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 4u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 5
CUTLASS_DEVICE
int dp4_5(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 5u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 6
CUTLASS_DEVICE
int dp4_6(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 6u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 7
CUTLASS_DEVICE
int dp4_7(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 7u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 8
CUTLASS_DEVICE
int dp4_8(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 8u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 9
CUTLASS_DEVICE
int dp4_9(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 9u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 10
CUTLASS_DEVICE
int dp4_10(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 10u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 11
CUTLASS_DEVICE
int dp4_11(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 11u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 12
CUTLASS_DEVICE
int dp4_12(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 12u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 13
CUTLASS_DEVICE
int dp4_13(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 13u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 14
CUTLASS_DEVICE
int dp4_14(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 14u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 15
CUTLASS_DEVICE
int dp4_15(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 15u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 0
CUTLASS_DEVICE
int dp4_sat_0(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 0u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 1
CUTLASS_DEVICE
int dp4_sat_1(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 1u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 2
CUTLASS_DEVICE
int dp4_sat_2(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 2u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 3
CUTLASS_DEVICE
int dp4_sat_3(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 3u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 4
CUTLASS_DEVICE
int dp4_sat_4(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 4u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 5
CUTLASS_DEVICE
int dp4_sat_5(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 5u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 6
CUTLASS_DEVICE
int dp4_sat_6(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 6u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 7
CUTLASS_DEVICE
int dp4_sat_7(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 7u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 8
CUTLASS_DEVICE
int dp4_sat_8(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 8u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 9
CUTLASS_DEVICE
int dp4_sat_9(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 9u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 10
CUTLASS_DEVICE
int dp4_sat_10(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 10u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 11
CUTLASS_DEVICE
int dp4_sat_11(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 11u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 12
CUTLASS_DEVICE
int dp4_sat_12(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 12u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 13
CUTLASS_DEVICE
int dp4_sat_13(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 13u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 14
CUTLASS_DEVICE
int dp4_sat_14(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 14u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// packed 4-bit dot product, variant 15
CUTLASS_DEVICE
int dp4_sat_15(uint32_t a, uint32_t b, int c) {
  int d;
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 610)
  asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b ^ 15u), "r"(c));
#else
  d = c + int(a & 0xff) * int(b & 0xff);
#endif
  return d;
}

/// ldmatrix wrappers
template <int Count, bool Transpose>
CUTLASS_DEVICE void ldsm(Array<unsigned, Count>& D, void const* ptr);

template <>
CUTLASS_DEVICE void ldsm<1, false>(Array<unsigned, 1>& D, void const* ptr) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 750)
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(ptr));
  asm volatile("ldmatrix.sync.aligned.x1.m8n8.shared.b16 {%0}, [%1];" : "=r"(D[0]) : "r"(addr));
#else
  CUTLASS_UNUSED(ptr);
  D.clear();
#endif
}

template <>
CUTLASS_DEVICE void ldsm<1, true>(Array<unsigned, 1>& D, void const* ptr) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 750)
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(ptr));
  asm volatile("ldmatrix.sync.aligned.x1.trans.m8n8.shared.b16 {%0}, [%1];" : "=r"(D[0]) : "r"(addr));
#else
  CUTLASS_UNUSED(ptr);
  D.clear();
#endif
}

template <>
CUTLASS_DEVICE void ldsm<2, false>(Array<unsigned, 2>& D, void const* ptr) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 750)
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(ptr));
  asm volatile("ldmatrix.sync.aligned.x2.m8n8.shared.b16 {%0, %1}, [%2];" : "=r"(D[0]), "=r"(D[1]) : "r"(addr));
#else
  CUTLASS_UNUSED(ptr);
  D.clear();
#endif
}

template <>
CUTLASS_DEVICE void ldsm<2, true>(Array<unsigned, 2>& D, void const* ptr) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 750)
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(ptr));
  asm volatile("ldmatrix.sync.aligned.x2.trans.m8n8.shared.b16 {%0, %1}, [%2];" : "=r"(D[0]), "=r"(D[1]) : "r"(addr));
#else
  CUTLASS_UNUSED(ptr);
  D.clear();
#endif
}

template <>
CUTLASS_DEVICE void ldsm<4, false>(Array<unsigned, 4>& D, void const* ptr) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 750)
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(ptr));
  asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3]) : "r"(addr));
#else
  CUTLASS_UNUSED(ptr);
  D.clear();
#endif
}

template <>
CUTLASS_DEVICE void ldsm<4, true>(Array<unsigned, 4>& D, void const* ptr) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 750)
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(ptr));
  asm volatile("ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3]) : "r"(addr));
#else
  CUTLASS_UNUSED(ptr);
  D.clear();
#endif
}

}  // namespace arch
}  // namespace cutlass_lite
