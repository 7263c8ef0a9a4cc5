#include <cuda/atomic>
typedef int data_type;
static const int ThreadsPerBlock = 512;
template <typename T>
static __device__ inline T atomicRead(T* const addr)
{
  return ((cuda::atomic<T>*)addr)->load(cuda::memory_order_relaxed);
}
template <typename T>
static __device__ inline void atomicWrite(T* const addr, const T val)
{
  ((cuda::atomic<T>*)addr)->store(val, cuda::memory_order_relaxed);
}
static __global__ void sssp_vertex(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const int* const __restrict__ eweight, int* const __restrict__ dist, int* const __restrict__ goagain)
{
  const int v = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  if (v < nodes) {
    const int beg = nindex[v];
    const int end = nindex[v + 1];
    const int s = atomicRead(&dist[v]);
    if (s != 0x7fffffff) {
      for (int i = beg; i < end; i++) {
        const int dst = nlist[i];
        const int nd = s + eweight[i];
        if (atomicMin(&dist[dst], nd) > nd) atomicWrite(goagain, 1);
      }
    }
  }
}
static __global__ void cc_pull_double(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const int* const __restrict__ label_old, int* const __restrict__ label_new, int* const __restrict__ goagain)
{
  for (int v = threadIdx.x + blockIdx.x * ThreadsPerBlock; v < nodes; v += gridDim.x * ThreadsPerBlock) {
    int d = label_old[v];
    for (int i = nindex[v]; i < nindex[v + 1]; i++) d = min(d, label_old[nlist[i]]);
    label_new[v] = d;
    if (d != label_old[v]) *goagain = 1;
  }
}
static __global__ void bfs_bitmap(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const unsigned* const __restrict__ frontier, unsigned* const __restrict__ next, unsigned* const __restrict__ visited)
{
  const int v = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  if (v < nodes && (frontier[v / 32] >> (v % 32)) & 1) {
    for (int i = nindex[v]; i < nindex[v + 1]; i++) {
      const int u = nlist[i];
      const unsigned bit = 1u << (u % 32);
      if (!(atomicOr(&visited[u / 32], bit) & bit)) atomicOr(&next[u / 32], bit);
    }
  }
}
static __global__ void mis_claim(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const unsigned* const __restrict__ prio, int* const __restrict__ status, int* const __restrict__ goagain)
{
  const int v = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  if (v < nodes && atomicAdd(&status[v], 0) == 0) {
    bool best = true;
    for (int i = nindex[v]; i < nindex[v + 1]; i++) {
      const int u = nlist[i];
      if (atomicAdd(&status[u], 0) == 0 && prio[u] > prio[v]) best = false;
    }
    if (best) {
      atomicExch(&status[v], 1);
      for (int i = nindex[v]; i < nindex[v + 1]; i++) atomicCAS(&status[nlist[i]], 0, 2);
    } else {
      *goagain = 1;
    }
  }
}
static __global__ void pr_block_pull_ok(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const float* const __restrict__ outgoing, float* const __restrict__ rank)
{
  __shared__ float s[ThreadsPerBlock / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int v = blockIdx.x; v < nodes; v += gridDim.x) {
    float sum = 0;
    for (int i = nindex[v] + threadIdx.x; i < nindex[v + 1]; i += ThreadsPerBlock) sum += outgoing[nlist[i]];
    for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(~0, sum, d);
    if (lane == 0) s[warp] = sum;
    __syncthreads();
    if (warp == 0) {
      sum = lane < ThreadsPerBlock / 32 ? s[lane] : 0;
      for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(~0, sum, d);
      if (lane == 0) rank[v] = 0.15f + 0.85f * sum;
    }
    __syncthreads();
  }
}
static __global__ void tc_edge(const int edges, const int* const __restrict__ sp, const int* const __restrict__ nindex, const int* const __restrict__ nlist, unsigned long long* const __restrict__ count)
{
  __shared__ unsigned long long s_count;
  if (threadIdx.x == 0) s_count = 0;
  __syncthreads();
  unsigned long long c = 0;
  for (int e = threadIdx.x + blockIdx.x * ThreadsPerBlock; e < edges; e += gridDim.x * ThreadsPerBlock) {
    const int a = sp[e], b = nlist[e];
    if (a < b) {
      int i = nindex[a], j = nindex[b];
      while (i < nindex[a + 1] && j < nindex[b + 1]) {
        const int x = nlist[i], y = nlist[j];
        c += (x == y); i += (x <= y); j += (x >= y);
      }
    }
  }
  atomicAdd(&s_count, c);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(count, s_count);
}
static __global__ void wl_push_ok(const int* const __restrict__ wl1, const int wl1size, const int* const __restrict__ nindex, const int* const __restrict__ nlist, int* const __restrict__ level, int* const __restrict__ wl2, int* const __restrict__ wl2size, const int iter)
{
  const int idx = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  if (idx < wl1size) {
    const int v = wl1[idx];
    for (int i = nindex[v]; i < nindex[v + 1]; i++) {
      const int u = nlist[i];
      if (atomicCAS(&level[u], 0x7fffffff, iter + 1) == 0x7fffffff) wl2[atomicAdd(wl2size, 1)] = u;
    }
  }
}
static __global__ void label_init(const int nodes, int* const __restrict__ label, int* const __restrict__ parent)
{
  for (int v = threadIdx.x + blockIdx.x * ThreadsPerBlock; v < nodes; v += gridDim.x * ThreadsPerBlock) {
    label[v] = v;
    parent[v] = v;
  }
}
static __global__ void jump(const int nodes, int* const __restrict__ parent)
{
  const int v = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  if (v < nodes) {
    int p = parent[v];
    while (p != parent[p]) p = parent[p];
    parent[v] = p;
  }
}
