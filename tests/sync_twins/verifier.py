"""Bug/clean twins in the style of a verifier's CUDA test suite: small kernels with the launch in
the opening comment (`//--blockDim=64 --gridDim=4`), for the classes issue 26 lists:

- ``write-write``: every thread writes a value that depends on its index to one address, directly
  or through a pointer held in a struct argument;
- ``unknown-offset``: a neighbour read or write at `i + offset` with `offset` an argument nobody
  gives (or one a test bounds), while other threads write `i`;
- ``divergent-barrier``: a barrier in code only some threads reach, among them the cooperative-groups
  spellings (`synchronize(g)`,
  `cg::sync(g)`, `g.sync()`, a tile's `sync()`);
- ``shared-accumulator``: one thread initialises a `__shared__` scalar, or every thread adds to it
  atomically, and another thread reads it with no barrier between (helpers in between may or may
  not hold one).

Written for issue 26 by the engineer tuning the analyses, so tuned on, not held out.  Each entry
is (name, category, buggy source, clean source); the planted line of a buggy source is marked.
"""

from __future__ import annotations

from .graph import MARK, Twin, _finish

CASES: list[tuple[str, str, str, str]] = []


def case(name: str, category: str, buggy: str, clean: str) -> None:
    CASES.append((name, category, buggy.strip("\n") + "\n", clean.strip("\n") + "\n"))


# ------------------------------------------------------------------ write-write on one word
case("tid_to_one_word", "write-write", f"""
//--blockDim=64 --gridDim=1
__global__ void foo(int *A) {{
  A[0] = threadIdx.x; {MARK}
}}
""", """
//--blockDim=64 --gridDim=1
__global__ void foo(int *A) {
  A[threadIdx.x] = threadIdx.x;
}
""")

case("global_id_to_one_word", "write-write", f"""
//--blockDim=128 --gridDim=16
__global__ void foo(float *out, const float *in) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[0] = in[i] * 2.0f; {MARK}
}}
""", """
//--blockDim=128 --gridDim=16
__global__ void foo(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * 2.0f;
}
""")

case("struct_member_pointer", "write-write", f"""
//--blockDim=64 --gridDim=8
struct Params {{ int *result; int n; }};
__global__ void foo(Params p) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  *p.result = i; {MARK}
}}
""", """
//--blockDim=64 --gridDim=8
struct Params { int *result; int n; };
__global__ void foo(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p.result[i] = i;
}
""")

case("struct_pointer_member", "write-write", f"""
//--blockDim=32 --gridDim=4
struct S {{ int *data; int len; }};
__global__ void foo(S *s) {{
  s->data[0] = threadIdx.x + blockIdx.x; {MARK}
}}
""", """
//--blockDim=32 --gridDim=4
struct S { int *data; int len; };
__global__ void foo(S *s) {
  s->data[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x + blockIdx.x;
}
""")

case("pointer_variable_to_one_word", "write-write", f"""
//--blockDim=64 --gridDim=2
__global__ void foo(int *A) {{
  int *p = A + 5;
  *p = threadIdx.x; {MARK}
}}
""", """
//--blockDim=64 --gridDim=2
__global__ void foo(int *A) {
  int *p = A + 5;
  if (threadIdx.x == 0 && blockIdx.x == 0) *p = 7;
}
""")

case("block_word_by_every_thread", "write-write", f"""
//--blockDim=256 --gridDim=32
__global__ void foo(int *partial, const int *in) {{
  partial[blockIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x]; {MARK}
}}
""", """
//--blockDim=256 --gridDim=32
__global__ void foo(int *partial, const int *in) {
  if (threadIdx.x == 0) partial[blockIdx.x] = in[blockIdx.x * blockDim.x];
}
""")

case("shared_scalar_by_every_thread", "write-write", f"""
//--blockDim=128 --gridDim=4
__global__ void foo(int *out) {{
  __shared__ int last;
  last = threadIdx.x; {MARK}
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = last;
}}
""", """
//--blockDim=128 --gridDim=4
__global__ void foo(int *out) {
  __shared__ int last;
  if (threadIdx.x == blockDim.x - 1) last = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = last;
}
""")

# ------------------------------------------------------------------ unknown offsets
case("shift_left_unknown_offset", "unknown-offset", f"""
//--blockDim=64 --gridDim=4
__global__ void foo(int *A, int offset) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  A[i] = A[i + offset]; {MARK}
}}
""", """
//--blockDim=64 --gridDim=4
__global__ void foo(int *A, const int *B, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  A[i] = B[i + offset];
}
""")

case("shared_shift_unknown_offset", "unknown-offset", f"""
//--blockDim=256 --gridDim=1
__global__ void foo(int *A, unsigned offset) {{
  __shared__ int s[512];
  s[threadIdx.x] = A[threadIdx.x];
  __syncthreads();
  s[threadIdx.x] = s[threadIdx.x + offset]; {MARK}
  __syncthreads();
  A[threadIdx.x] = s[threadIdx.x];
}}
""", """
//--blockDim=256 --gridDim=1
__global__ void foo(int *A, unsigned offset) {
  __shared__ int s[512];
  s[threadIdx.x] = A[threadIdx.x];
  __syncthreads();
  int v = s[threadIdx.x + offset];
  __syncthreads();
  s[threadIdx.x] = v;
  __syncthreads();
  A[threadIdx.x] = s[threadIdx.x];
}
""")

case("bounded_offset", "unknown-offset", f"""
//--blockDim=128 --gridDim=1
__global__ void foo(float *a, int k) {{
  __shared__ float s[256];
  if (k < 1 || k > 8) return;
  int t = threadIdx.x;
  s[t] = a[t];
  __syncthreads();
  s[t + k] = s[t] + 1.0f; {MARK}
  __syncthreads();
  a[t] = s[t];
}}
""", """
//--blockDim=128 --gridDim=1
__global__ void foo(float *a, int k) {
  __shared__ float s[256];
  if (k < 1 || k > 8) return;
  int t = threadIdx.x;
  s[t] = a[t];
  __syncthreads();
  float v = s[t] + 1.0f;
  __syncthreads();
  s[t + k] = v;
  __syncthreads();
  a[t] = s[t];
}
""")

case("write_ahead_unknown_stride", "unknown-offset", f"""
//--blockDim=32 --gridDim=32
__global__ void foo(float *x, int d) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i + d] = x[i] * 0.5f; {MARK}
}}
""", """
//--blockDim=32 --gridDim=32
__global__ void foo(float *x, float *y, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i + d] = x[i] * 0.5f;
}
""")

# ------------------------------------------------------------------ cooperative-groups barriers
case("cg_free_sync_divergent", "divergent-barrier", f"""
//--blockDim=64 --gridDim=1
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void foo(int *p) {{
  cg::thread_block b = cg::this_thread_block();
  if (threadIdx.x < 16) {{
    p[threadIdx.x] = 1;
    cg::sync(b); {MARK}
  }}
}}
""", """
//--blockDim=64 --gridDim=1
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void foo(int *p) {
  cg::thread_block b = cg::this_thread_block();
  if (threadIdx.x < 16) p[threadIdx.x] = 1;
  cg::sync(b);
}
""")

case("cg_synchronize_divergent", "divergent-barrier", f"""
//--blockDim=64 --gridDim=1
#include <cooperative_groups.h>
using namespace cooperative_groups;
__global__ void foo(int *p) {{
  thread_block b = this_thread_block();
  if (threadIdx.x < 16) {{
    p[threadIdx.x] = 1;
    synchronize(b); {MARK}
  }}
}}
""", """
//--blockDim=64 --gridDim=1
#include <cooperative_groups.h>
using namespace cooperative_groups;
__global__ void foo(int *p) {
  thread_block b = this_thread_block();
  if (threadIdx.x < 16) p[threadIdx.x] = 1;
  synchronize(b);
}
""")

case("cg_using_sync_divergent", "divergent-barrier", f"""
//--blockDim=128 --gridDim=1
#include <cooperative_groups.h>
using namespace cooperative_groups;
__global__ void foo(int *p) {{
  thread_group g = this_thread_block();
  if (threadIdx.x % 2 == 0) {{
    p[threadIdx.x] = 2;
    sync(g); {MARK}
  }}
}}
""", """
//--blockDim=128 --gridDim=1
#include <cooperative_groups.h>
using namespace cooperative_groups;
__global__ void foo(int *p) {
  thread_group g = this_thread_block();
  if (threadIdx.x % 2 == 0) p[threadIdx.x] = 2;
  sync(g);
}
""")

case("cg_method_sync_rank", "divergent-barrier", f"""
//--blockDim=64 --gridDim=2
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void foo(float *p) {{
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() >= 32) {{
    p[blockIdx.x * 64 + block.thread_rank()] = 0.0f;
    block.sync(); {MARK}
  }}
}}
""", """
//--blockDim=64 --gridDim=2
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void foo(float *p) {
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() >= 32) p[blockIdx.x * 64 + block.thread_rank()] = 0.0f;
  block.sync();
}
""")

case("cg_tile_sync_divergent", "divergent-barrier", f"""
//--blockDim=64 --gridDim=1
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void foo(int *p) {{
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (tile.thread_rank() < 8) {{
    p[threadIdx.x] = 1;
    tile.sync(); {MARK}
  }}
  p[64 + threadIdx.x] = 2;
}}
""", """
//--blockDim=64 --gridDim=1
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void foo(int *p) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (tile.thread_rank() < 8) p[threadIdx.x] = 1;
  tile.sync();
  p[64 + threadIdx.x] = 2;
}
""")

case("cg_group_through_helper", "divergent-barrier", f"""
//--blockDim=128 --gridDim=1
#include <cooperative_groups.h>
using namespace cooperative_groups;
__device__ void stage(thread_group g, int *p) {{
  p[g.thread_rank()] += 1;
  g.sync(); {MARK}
}}
__global__ void foo(int *p) {{
  thread_block b = this_thread_block();
  if (threadIdx.x < 100) stage(b, p);
}}
""", """
//--blockDim=128 --gridDim=1
#include <cooperative_groups.h>
using namespace cooperative_groups;
__device__ void stage(thread_group g, int *p) {
  p[g.thread_rank()] += 1;
  g.sync();
}
__global__ void foo(int *p) {
  thread_block b = this_thread_block();
  stage(b, p);
}
""")

# ------------------------------------------------------------------ shared accumulators
case("init_then_use", "shared-accumulator", f"""
//--blockDim=128 --gridDim=4
__global__ void foo(int *out, const int *in) {{
  __shared__ int base;
  if (threadIdx.x == 0) base = in[blockIdx.x];
  {MARK}
  out[blockIdx.x * blockDim.x + threadIdx.x] = base + threadIdx.x;
}}
""", """
//--blockDim=128 --gridDim=4
__global__ void foo(int *out, const int *in) {
  __shared__ int base;
  if (threadIdx.x == 0) base = in[blockIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = base + threadIdx.x;
}
""")

case("atomic_block_then_read", "shared-accumulator", f"""
//--blockDim=256 --gridDim=8
__global__ void foo(int *out, const int *in) {{
  __shared__ int sum;
  if (threadIdx.x == 0) sum = 0;
  __syncthreads();
  atomicAdd_block(&sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
  {MARK}
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}}
""", """
//--blockDim=256 --gridDim=8
__global__ void foo(int *out, const int *in) {
  __shared__ int sum;
  if (threadIdx.x == 0) sum = 0;
  __syncthreads();
  atomicAdd_block(&sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}
""")

case("atomic_then_every_thread_reads", "shared-accumulator", f"""
//--blockDim=64 --gridDim=1
__global__ void foo(float *out, const float *in) {{
  __shared__ float total;
  total = 0.0f;
  __syncthreads();
  atomicAdd(&total, in[threadIdx.x]);
  {MARK}
  out[threadIdx.x] = in[threadIdx.x] / total;
}}
""", """
//--blockDim=64 --gridDim=1
__global__ void foo(float *out, const float *in) {
  __shared__ float total;
  total = 0.0f;
  __syncthreads();
  atomicAdd(&total, in[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = in[threadIdx.x] / total;
}
""")

case("init_races_with_atomics", "shared-accumulator", f"""
//--blockDim=128 --gridDim=2
__global__ void foo(unsigned *out, const unsigned *in) {{
  __shared__ unsigned count;
  if (threadIdx.x == 0) count = 0;
  {MARK}
  if (in[blockIdx.x * blockDim.x + threadIdx.x] & 1) atomicAdd(&count, 1u);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = count;
}}
""", """
//--blockDim=128 --gridDim=2
__global__ void foo(unsigned *out, const unsigned *in) {
  __shared__ unsigned count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  if (in[blockIdx.x * blockDim.x + threadIdx.x] & 1) atomicAdd(&count, 1u);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = count;
}
""")

case("helper_without_barrier", "shared-accumulator", f"""
//--blockDim=128 --gridDim=4
__device__ void scale(float *x, int i) {{ x[i] *= 2.0f; }}
__global__ void foo(float *x, const float *f) {{
  __shared__ float factor;
  if (threadIdx.x == 0) factor = f[blockIdx.x];
  scale(x, blockIdx.x * blockDim.x + threadIdx.x); {MARK}
  x[blockIdx.x * blockDim.x + threadIdx.x] += factor;
}}
""", """
//--blockDim=128 --gridDim=4
__device__ void scale(float *x, int i) { x[i] *= 2.0f; __syncthreads(); }
__global__ void foo(float *x, const float *f) {
  __shared__ float factor;
  if (threadIdx.x == 0) factor = f[blockIdx.x];
  scale(x, blockIdx.x * blockDim.x + threadIdx.x);
  x[blockIdx.x * blockDim.x + threadIdx.x] += factor;
}
""")

case("reset_after_use_in_loop", "shared-accumulator", f"""
//--blockDim=64 --gridDim=1
__global__ void foo(int *out, const int *in, int rounds) {{
  __shared__ int acc;
  for (int r = 0; r < rounds; r++) {{
    if (threadIdx.x == 0) acc = 0;
    __syncthreads();
    atomicAdd(&acc, in[r * 64 + threadIdx.x]);
    __syncthreads();
    out[r * 64 + threadIdx.x] = acc;
    {MARK}
  }}
}}
""", """
//--blockDim=64 --gridDim=1
__global__ void foo(int *out, const int *in, int rounds) {
  __shared__ int acc;
  for (int r = 0; r < rounds; r++) {
    if (threadIdx.x == 0) acc = 0;
    __syncthreads();
    atomicAdd(&acc, in[r * 64 + threadIdx.x]);
    __syncthreads();
    out[r * 64 + threadIdx.x] = acc;
    __syncthreads();
  }
}
""")


def twins() -> list[Twin]:
    out = []
    for name, category, buggy, clean in CASES:
        out.append(_finish(f"v_{name}_bug", category, True, buggy, name))
        out.append(_finish(f"v_{name}", category, False, clean, "clean"))
    return out


# ------------------------------------------------------------------ round 3, written after the rounds above
case("pointer_alias_shift", "unknown-offset", f"""
//--blockDim=128 --gridDim=2
__global__ void foo(float *p) {{
  float *q = p + 1;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  q[i] = p[i] * 2.0f; {MARK}
}}
""", """
//--blockDim=128 --gridDim=2
__global__ void foo(float *p, float *r) {
  float *q = r + 1;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  q[i] = p[i] * 2.0f;
}
""")

case("extern_shared_neighbour", "shared-accumulator", f"""
//--blockDim=256 --gridDim=1
__global__ void foo(int *out) {{
  extern __shared__ int buf[];
  buf[threadIdx.x] = threadIdx.x * 3;
  {MARK}
  out[threadIdx.x] = buf[(threadIdx.x + 32) % blockDim.x];
}}
""", """
//--blockDim=256 --gridDim=1
__global__ void foo(int *out) {
  extern __shared__ int buf[];
  buf[threadIdx.x] = threadIdx.x * 3;
  __syncthreads();
  out[threadIdx.x] = buf[(threadIdx.x + 32) % blockDim.x];
}
""")

case("barrier_in_thread_loop", "divergent-barrier", f"""
//--blockDim=64 --gridDim=1
__global__ void foo(int *A) {{
  for (int i = 0; i < threadIdx.x; i++) {{
    A[threadIdx.x] += i;
    __syncthreads(); {MARK}
  }}
}}
""", """
//--blockDim=64 --gridDim=1
__global__ void foo(int *A) {
  for (int i = 0; i < blockDim.x; i++) {
    if (i < threadIdx.x) A[threadIdx.x] += i;
    __syncthreads();
  }
}
""")

case("block_index_to_shared_word", "write-write", f"""
//--blockDim=64 --gridDim=8
__global__ void foo(int *out) {{
  __shared__ int who;
  who = threadIdx.x * blockIdx.x; {MARK}
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = who;
}}
""", """
//--blockDim=64 --gridDim=8
__global__ void foo(int *out) {
  __shared__ int who;
  who = blockIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = who;
}
""")

case("atomic_counter_then_reset", "shared-accumulator", f"""
//--blockDim=128 --gridDim=4
__global__ void foo(int *out, const int *flags) {{
  __shared__ int n;
  if (threadIdx.x == 0) n = 0;
  __syncthreads();
  if (flags[blockIdx.x * blockDim.x + threadIdx.x]) atomicAdd(&n, 1);
  __syncthreads();
  out[blockIdx.x] = n;
  if (threadIdx.x == 0) n = 0; {MARK}
}}
""", """
//--blockDim=128 --gridDim=4
__global__ void foo(int *out, const int *flags) {
  __shared__ int n;
  if (threadIdx.x == 0) n = 0;
  __syncthreads();
  if (flags[blockIdx.x * blockDim.x + threadIdx.x]) atomicAdd(&n, 1);
  __syncthreads();
  if (threadIdx.x == 0) { out[blockIdx.x] = n; n = 0; }
}
""")

case("helper_barrier_only_some", "divergent-barrier", f"""
//--blockDim=128 --gridDim=1
__device__ void stage(float *s) {{
  s[threadIdx.x] *= 0.5f;
  __syncthreads(); {MARK}
}}
__global__ void foo(float *in) {{
  __shared__ float s[128];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (in[0] > 0.0f && threadIdx.x < 64) stage(s);
  in[threadIdx.x] = s[threadIdx.x];
}}
""", """
//--blockDim=128 --gridDim=1
__device__ void stage(float *s) {
  s[threadIdx.x] *= 0.5f;
  __syncthreads();
}
__global__ void foo(float *in) {
  __shared__ float s[128];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (in[0] > 0.0f) stage(s);
  in[threadIdx.x] = s[threadIdx.x];
}
""")

case("struct_of_arrays_member", "write-write", f"""
//--blockDim=32 --gridDim=16
struct Particles {{ float *x; float *v; int n; }};
__global__ void foo(Particles ps) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  ps.v[i % 8] = ps.x[i]; {MARK}
}}
""", """
//--blockDim=32 --gridDim=16
struct Particles { float *x; float *v; int n; };
__global__ void foo(Particles ps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  ps.v[i] = ps.x[i];
}
""")

case("inter_block_read_neighbour", "unknown-offset", f"""
//--blockDim=64 --gridDim=16
__global__ void foo(int *a, int stride) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + stride < 1024) a[i] += a[i + stride]; {MARK}
}}
""", """
//--blockDim=64 --gridDim=16
__global__ void foo(int *a, const int *b, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + stride < 1024) a[i] += b[i + stride];
}
""")
