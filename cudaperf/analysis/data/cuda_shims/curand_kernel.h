// cudaperf declaration shim for <curand_kernel.h> (cuRAND's device API): used by the clang frontend only,
// and only where the CUDA toolkit's header is not found (searched after every include path).  The state
// structs have the toolkit's members (so a kernel's `curandState` array has the element size nvcc gives
// it: 48 bytes for XORWOW and MRG32k3a, 64 for Philox); the generators are declarations only.
#pragma once
#include "curand.h"

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef curandStateXORWOW_t curandState_t;
typedef curandState_t curandState;

struct curandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateSobol32 { unsigned int i, x, c; unsigned int direction_vectors[32]; };
typedef struct curandStateSobol32 curandStateSobol32_t;
struct curandStateSobol64 { unsigned long long i, x, c; unsigned long long direction_vectors[64]; };
typedef struct curandStateSobol64 curandStateSobol64_t;

template <class S>
__device__ void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                            S* state);
__device__ void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int offset,
                            curandStateSobol32_t* state);
__device__ void curand_init(curandDirectionVectors64_t direction_vectors, unsigned long long offset,
                            curandStateSobol64_t* state);
template <class S> __device__ unsigned int curand(S* state);
template <class S> __device__ float curand_uniform(S* state);
template <class S> __device__ double curand_uniform_double(S* state);
template <class S> __device__ float curand_normal(S* state);
template <class S> __device__ double curand_normal_double(S* state);
template <class S> __device__ float2 curand_normal2(S* state);
template <class S> __device__ double2 curand_normal2_double(S* state);
template <class S> __device__ float curand_log_normal(S* state, float mean, float stddev);
template <class S> __device__ double curand_log_normal_double(S* state, double mean, double stddev);
template <class S> __device__ unsigned int curand_poisson(S* state, double lambda);
__device__ uint4 curand4(curandStatePhilox4_32_10_t* state);
__device__ float4 curand_uniform4(curandStatePhilox4_32_10_t* state);
__device__ float4 curand_normal4(curandStatePhilox4_32_10_t* state);
__device__ double2 curand_uniform2_double(curandStatePhilox4_32_10_t* state);
template <class S> __device__ void skipahead(unsigned long long n, S* state);
template <class S> __device__ void skipahead_sequence(unsigned long long n, S* state);
