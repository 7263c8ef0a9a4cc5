// cudaperf declaration shim for <cooperative_groups.h>: used by the clang frontend only, and only where
// the CUDA toolkit's header is not found (searched after every include path).  Declarations for type
// checking; nothing here is the toolkit's implementation, and the analysis models the groups itself.
#pragma once

namespace cooperative_groups {

class thread_group {
 public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
  __device__ bool is_valid() const;
};

class thread_block : public thread_group {
 public:
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};

class grid_group : public thread_group {
 public:
  __device__ unsigned long long num_blocks() const;
  __device__ unsigned long long block_rank() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_blocks() const;
  __device__ dim3 block_index() const;
};

class coalesced_group : public thread_group {
 public:
  __device__ unsigned long long meta_group_rank() const;
  __device__ unsigned long long meta_group_size() const;
  template <class T> __device__ T shfl(T var, unsigned int src_rank) const;
  template <class T> __device__ T shfl_down(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned int delta) const;
  __device__ unsigned int ballot(int predicate) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
};

template <unsigned int Size, class ParentT = void>
class thread_block_tile : public thread_group {
 public:
  __device__ thread_block_tile();
  template <class P> __device__ thread_block_tile(const thread_block_tile<Size, P>& other);
  __device__ unsigned long long meta_group_rank() const;
  __device__ unsigned long long meta_group_size() const;
  template <class T> __device__ T shfl(T var, int src_rank) const;
  template <class T> __device__ T shfl_down(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_xor(T var, unsigned int lane_mask) const;
  __device__ unsigned int ballot(int predicate) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  template <class T> __device__ unsigned int match_any(T value) const;
};

template <unsigned int Tiles, unsigned int MaxBlockSize> struct block_tile_memory { char storage[1]; };

__device__ thread_block this_thread_block();
template <unsigned int Tiles, unsigned int MaxBlockSize>
__device__ thread_block this_thread_block(block_tile_memory<Tiles, MaxBlockSize>& scratch);
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned int Size, class ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT& parent);
__device__ thread_group tiled_partition(const thread_group& parent, unsigned int tile_size);
__device__ coalesced_group labeled_partition(const coalesced_group& group, int label);
__device__ coalesced_group binary_partition(const coalesced_group& group, bool predicate);
template <class G> __device__ void sync(const G& group);

template <class T> struct plus { __device__ T operator()(T a, T b) const; };
template <class T> struct less { __device__ T operator()(T a, T b) const; };
template <class T> struct greater { __device__ T operator()(T a, T b) const; };
template <class T> struct bit_and { __device__ T operator()(T a, T b) const; };
template <class T> struct bit_or { __device__ T operator()(T a, T b) const; };
template <class T> struct bit_xor { __device__ T operator()(T a, T b) const; };

// <cooperative_groups/reduce.h>, <cooperative_groups/scan.h>, <cooperative_groups/memcpy_async.h>
template <class G, class T, class Op> __device__ T reduce(const G& group, T value, Op op);
template <class G, class T, class Op> __device__ T inclusive_scan(const G& group, T value, Op op);
template <class G, class T> __device__ T inclusive_scan(const G& group, T value);
template <class G, class T, class Op> __device__ T exclusive_scan(const G& group, T value, Op op);
template <class G, class T> __device__ T exclusive_scan(const G& group, T value);
template <class G, class T> __device__ void memcpy_async(const G& group, T* dst, const T* src, size_t bytes);
template <class G> __device__ void memcpy_async(const G& group, void* dst, const void* src, size_t bytes);
template <class G> __device__ void wait(const G& group);
template <unsigned int N, class G> __device__ void wait_prior(const G& group);

}  // namespace cooperative_groups
