// Which warp-uniform atomics does nvcc aggregate into one per warp?  Each kernel applies one
// atomic form to one address from every lane; benchmarks/atomic_aggregation_h200.sh compiles
// this file per architecture and records the SASS opcodes of each kernel
// (tests/data/h200/atomic_aggregation/).  cudaperf's atomic-contention reads the result.
#define TID (blockIdx.x * blockDim.x + threadIdx.x)
#define K(name, body) extern "C" __global__ void name(int* p, unsigned* u, unsigned long long* q, \
                                                    float* f, double* d, int* out, const float* x) { body; }
K(add_const, atomicAdd(p, 10))
K(add_tid, atomicAdd(p, (int)TID))
K(sub_tid, atomicSub(p, (int)TID))
K(max_tid, atomicMax(p, (int)TID))
K(min_tid, atomicMin(p, (int)TID))
K(and_tid, atomicAnd(p, (int)TID))
K(or_tid, atomicOr(p, 1 << (TID & 31)))
K(xor_tid, atomicXor(p, (int)TID))
K(inc_const, atomicInc(u, 17u))
K(dec_const, atomicDec(u, 137u))
K(exch_tid, atomicExch(p, (int)TID))
K(cas_tid, atomicCAS(p, (int)TID - 1, (int)TID))
K(add_unsigned_tid, atomicAdd(u, TID))
K(add_u64_tid, atomicAdd(q, (unsigned long long)TID))
K(max_u64_tid, atomicMax(q, (unsigned long long)TID))
K(add_float, atomicAdd(f, x[TID]))
K(add_double, atomicAdd(d, (double)x[TID]))
K(add_const_used, out[TID] = atomicAdd(p, 1))
K(add_tid_used, out[TID] = atomicAdd(p, (int)TID))
K(max_tid_used, out[TID] = atomicMax(p, (int)TID))
K(add_system_tid, atomicAdd_system(p, (int)TID))
K(and_system_tid, atomicAnd_system(p, (int)TID))
K(add_block_tid, atomicAdd_block(p, (int)TID))
K(add_const_if_data, if (x[TID] > 0.f) atomicAdd(p, 1))
K(add_const_used_if_data, if (x[TID] > 0.f) out[atomicAdd(p, 1)] = TID)
K(add_tid_in_loop, for (int i = 0; i < (int)x[0]; i++) atomicAdd(p, i + (int)TID))
K(add_shared_const, __shared__ int s; if (threadIdx.x == 0) s = 0; __syncthreads(); atomicAdd(&s, 1);
  __syncthreads(); if (threadIdx.x == 0) out[blockIdx.x] = s)
K(add_four_addresses, atomicAdd(p + (TID & 3), 1))
K(add_data_address, atomicAdd(p + (int)x[TID], 1))
