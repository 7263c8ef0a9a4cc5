"""Bug/clean twins of graph kernels, generated: CSR codes (`nindex`/`nlist`) for BFS, SSSP, connected
components, PageRank, triangle counting and maximal independent sets, in the parallelisation
styles real code takes (a thread, a warp or a block per vertex, one-shot or persistent grid-stride
loops, topology- or data-driven), each written once with the barrier or atomic it needs and once
with one planted bug:

- ``barrier``: one `__syncthreads()` / `__syncwarp()` the code needs removed (a block reduction
  into `__shared__` memory, a vertex's bounds broadcast through shared memory, a shared worklist
  or counter, a block-wide flag);
- ``atomic``: one atomic replaced by the plain store or read-modify-write it guards against
  (`dist[v] = min(dist[v], d)`, `sum[v] += x`, `label[v] = ...`, a worklist tail bumped by hand).

Written for issue 26 by the engineer tuning the race and barrier analyses, so these are tuned on,
not held out: the suites the issue measures are independent of them.  Each case comes as the
kernel alone (launch guessed) and with a host program that launches it the way such codes do
(`(nodes + ThreadsPerBlock - 1) / ThreadsPerBlock` blocks, or a persistent grid of
`SMs * (2048 / ThreadsPerBlock)` blocks).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

MARK = "/*@*/"  # marks the planted line in a buggy source (removed from the text)


@dataclass(frozen=True)
class Twin:
    name: str
    category: str  # barrier | atomic | the verifier classes of verifier.py
    buggy: bool
    source: str
    line: int | None  # the planted line (buggy only)
    what: str


def _finish(name: str, category: str, buggy: bool, text: str, what: str) -> Twin:
    line = None
    lines = text.splitlines()
    for number, row in enumerate(lines, start=1):
        if MARK in row:
            line = number if buggy else None
            lines[number - 1] = row.replace(MARK, "")
    return Twin(name, category, buggy, "\n".join(lines) + "\n", line, what)


def _pick(bug: bool, buggy: str, clean: str) -> str:
    return buggy if bug else clean


HEADER = """#include <cuda.h>
#include <cstdio>
#include <cstdlib>
typedef int data_type;
static const int ThreadsPerBlock = {tpb};
static const int WS = 32;
"""

GRAPH_HOST = """
struct ECLgraph {{ int nodes; int edges; int* nindex; int* nlist; int* eweight; }};
ECLgraph readECLgraph(const char* const fname);

int main(int argc, char* argv[])
{{
  ECLgraph g = readECLgraph(argv[1]);
  cudaDeviceProp deviceProp;
  cudaGetDeviceProperties(&deviceProp, 0);
  const int SMs = deviceProp.multiProcessorCount;
  const int mTpSM = deviceProp.maxThreadsPerMultiProcessor;
{decls}
  for (int iter = 0; iter < 100; iter++) {{
    {kernel}<<<{grid}, ThreadsPerBlock>>>({args});
  }}
  cudaDeviceSynchronize();
  return 0;
}}
"""

GRIDS = {"thread": "(g.nodes + ThreadsPerBlock - 1) / ThreadsPerBlock",
         "warp": "((long)g.nodes * WS + ThreadsPerBlock - 1) / ThreadsPerBlock",
         "block": "g.nodes",
         "persistent": "SMs * (mTpSM / ThreadsPerBlock)"}

SCALARS = {"nodes": "g.nodes", "edges": "g.edges", "iter": "iter", "wl1size": "g.nodes"}


def _host(kernel: str, params: list[tuple[str, str]], style: str) -> str:
    decls, args = [], []
    for ctype, name in params:
        if ctype.endswith("*"):
            decls.append(f"  {ctype} d_{name};\n  cudaMalloc((void**)&d_{name}, (g.edges + g.nodes + 1) * 8);")
            args.append(f"d_{name}")
        else:
            args.append(SCALARS.get(name, "g.nodes"))
    return GRAPH_HOST.format(decls="\n".join(decls), kernel=kernel, grid=GRIDS[style], args=", ".join(args))


def _signature(name: str, params: list[tuple[str, str]]) -> str:
    spelled = []
    for ctype, pname in params:
        if ctype.endswith("*"):
            base = ctype[:-1].strip()
            qualifier = "const " if base.startswith("const") else ""
            spelled.append(f"{qualifier}{base.removeprefix('const ')}* const __restrict__ {pname}")
        else:
            spelled.append(f"const {ctype} {pname}")
    return f"static __global__ void {name}({', '.join(spelled)})"


# --------------------------------------------------------------------------------------------
# Missing barriers.  Each builder returns (params, body, style, what) for one bug flag.

def _block_tree_reduce(buf: str, tid: str = "threadIdx.x", drop: str = "", indent: str = "    ") -> str:
    """A tree reduction of `buf` over the block; `drop` names the barrier to leave out: 'loop'."""
    return (f"{indent}for (int s = ThreadsPerBlock / 2; s > 0; s /= 2) {{\n"
            f"{indent}  if ({tid} < s) {buf}[{tid}] += {buf}[{tid} + s];\n"
            + (f"{indent}  {MARK}\n" if drop == "loop" else f"{indent}  __syncthreads();\n")
            + f"{indent}}}\n")


def pr_block_pull(bug: str | None):
    """PageRank pull, a block per vertex (persistent), partial sums reduced in shared memory and
    read by every thread (the convergence test)."""
    params = [("int", "nodes"), ("const int*", "nindex"), ("const int*", "nlist"), ("const float*", "outgoing"),
              ("float*", "rank"), ("float*", "error")]
    body = f"""{{
  __shared__ float buf[ThreadsPerBlock];
  for (int v = blockIdx.x; v < nodes; v += gridDim.x) {{
    const int beg = nindex[v];
    const int end = nindex[v + 1];
    float sum = 0;
    for (int i = beg + threadIdx.x; i < end; i += ThreadsPerBlock) {{
      sum += outgoing[nlist[i]];
    }}
    buf[threadIdx.x] = sum;
    {_pick(bug == "store", MARK, "__syncthreads();")}
{_block_tree_reduce("buf", drop="loop" if bug == "loop" else "")}    const float r = 0.15f / nodes + 0.85f * buf[0];
    if (threadIdx.x == 0) {{
      atomicAdd(error, fabsf(r - rank[v]));
      rank[v] = r;
    }}
    {_pick(bug == "end", MARK, "__syncthreads();")}
  }}
}}"""
    return params, body, "persistent", {"store": "no barrier between the partial sums' store and the reduction",
                                        "loop": "no barrier inside the reduction's loop",
                                        "end": "no barrier before the next vertex overwrites the buffer every "
                                               "thread reads"}.get(bug, "")


def tc_thread_block_reduce(bug: str | None):
    """Triangle counting, a thread per vertex, counts reduced over the block in shared memory."""
    params = [("int", "nodes"), ("const int*", "nindex"), ("const int*", "nlist"),
              ("unsigned long long*", "count")]
    body = f"""{{
  __shared__ int s_cnt[ThreadsPerBlock];
  const int v = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  int cnt = 0;
  if (v < nodes) {{
    const int beg1 = nindex[v];
    const int end1 = nindex[v + 1];
    for (int i = beg1; i < end1; i++) {{
      const int u = nlist[i];
      if (u > v) {{
        int j = beg1, k = nindex[u];
        const int end2 = nindex[u + 1];
        while ((j < end1) && (k < end2)) {{
          const int a = nlist[j], b = nlist[k];
          if (a == b) {{ cnt++; j++; k++; }} else if (a < b) j++; else k++;
        }}
      }}
    }}
  }}
  s_cnt[threadIdx.x] = cnt;
  {_pick(bug == "store", MARK, "__syncthreads();")}
{_block_tree_reduce("s_cnt", drop="loop" if bug == "loop" else "", indent="  ")}\
  if (threadIdx.x == 0) atomicAdd(count, (unsigned long long)s_cnt[0]);
}}"""
    return params, body, "thread", {"store": "no barrier between the counts' store and the block reduction",
                                    "loop": "no barrier inside the block reduction's loop"}.get(bug, "")


def sssp_warp_shfl_block(bug: str | None):
    """SSSP pull, a thread per vertex, a block-wide flag reduced with warp shuffles and a per-warp
    slot in shared memory (`buffer[warp]`), read by warp 0."""
    params = [("int", "nodes"), ("const int*", "nindex"), ("const int*", "nlist"), ("const int*", "eweight"),
              ("int*", "dist"), ("int*", "goagain")]
    body = f"""{{
  __shared__ int buffer[WS];
  const int lane = threadIdx.x % WS;
  const int warp = threadIdx.x / WS;
  const int v = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  int changed = 0;
  if (v < nodes) {{
    int d = dist[v];
    for (int i = nindex[v]; i < nindex[v + 1]; i++) {{
      const int s = dist[nlist[i]];
      if (s != 0x7fffffff && s + eweight[i] < d) d = s + eweight[i];
    }}
    if (d < dist[v]) {{ dist[v] = d; changed = 1; }}
  }}
  for (int d = WS / 2; d > 0; d /= 2) changed += __shfl_down_sync(~0, changed, d);
  if (lane == 0) buffer[warp] = changed;
  {_pick(bug == "slots", MARK, "__syncthreads();")}
  if (warp == 0) {{
    changed = (lane < ThreadsPerBlock / WS) ? buffer[lane] : 0;
    for (int d = WS / 2; d > 0; d /= 2) changed += __shfl_down_sync(~0, changed, d);
    if (lane == 0 && changed > 0) *goagain = 1;
  }}
}}"""
    return params, body, "thread", "no barrier between the per-warp slots' store and warp 0's read" if bug else ""


def bfs_block_bounds(bug: str | None):
    """BFS, a block per vertex (persistent), the vertex's bounds broadcast through shared memory."""
    params = [("int", "nodes"), ("const int*", "nindex"), ("const int*", "nlist"), ("int*", "level"),
              ("int", "iter"), ("int*", "goagain")]
    body = f"""{{
  __shared__ int s_beg, s_end;
  for (int v = blockIdx.x; v < nodes; v += gridDim.x) {{
    if (threadIdx.x == 0) {{
      s_beg = nindex[v];
      s_end = nindex[v + 1];
    }}
    {_pick(bug == "bcast", MARK, "__syncthreads();")}
    if (level[v] == iter) {{
      for (int i = s_beg + threadIdx.x; i < s_end; i += ThreadsPerBlock) {{
        const int dst = nlist[i];
        if (atomicMin(&level[dst], iter + 1) > iter + 1) *goagain = 1;
      }}
    }}
    {_pick(bug == "end", MARK, "__syncthreads();")}
  }}
}}"""
    return params, body, "persistent", {"bcast": "no barrier after thread 0 writes the shared bounds",
                                        "end": "no barrier before thread 0 overwrites the shared bounds"}.get(bug, "")


def cc_block_min(bug: str | None):
    """Connected components, a block per vertex (one-shot), the least neighbour label taken with
    a shared-memory atomicMin and read by thread 0."""
    params = [("int", "nodes"), ("const int*", "nindex"), ("const int*", "nlist"), ("int*", "label"),
              ("int*", "goagain")]
    body = f"""{{
  __shared__ int s_min;
  const int v = blockIdx.x;
  if (v < nodes) {{
    if (threadIdx.x == 0) s_min = label[v];
    {_pick(bug == "init", MARK, "__syncthreads();")}
    const int beg = nindex[v];
    const int end = nindex[v + 1];
    for (int i = beg + threadIdx.x; i < end; i += ThreadsPerBlock) {{
      atomicMin(&s_min, label[nlist[i]]);
    }}
    {_pick(bug == "read", MARK, "__syncthreads();")}
    if (threadIdx.x == 0 && s_min < label[v]) {{
      atomicMin(&label[v], s_min);
      *goagain = 1;
    }}
  }}
}}"""
    return params, body, "block", {"init": "no barrier between thread 0's init of the shared minimum and the "
                                           "other threads' atomics",
                                   "read": "no barrier between the block's atomics and thread 0's read"}.get(bug, "")


def tc_block_counter(bug: str | None):
    """Triangle counting, a block per vertex (persistent), a shared counter every thread adds to."""
    params = [("int", "nodes"), ("const int*", "nindex"), ("const int*", "nlist"),
              ("unsigned long long*", "count")]
    body = f"""{{
  __shared__ int s_count;
  if (threadIdx.x == 0) s_count = 0;
  {_pick(bug == "init", MARK, "__syncthreads();")}
  for (int v = blockIdx.x; v < nodes; v += gridDim.x) {{
    const int beg1 = nindex[v];
    const int end1 = nindex[v + 1];
    int c = 0;
    for (int i = beg1 + threadIdx.x; i < end1; i += ThreadsPerBlock) {{
      const int u = nlist[i];
      if (u > v) {{
        int j = beg1, k = nindex[u];
        const int end2 = nindex[u + 1];
        while ((j < end1) && (k < end2)) {{
          const int a = nlist[j], b = nlist[k];
          if (a == b) {{ c++; j++; k++; }} else if (a < b) j++; else k++;
        }}
      }}
    }}
    atomicAdd_block(&s_count, c);
  }}
  {_pick(bug == "read", MARK, "__syncthreads();")}
  if (threadIdx.x == 0) atomicAdd(count, (unsigned long long)s_count);
}}"""
    return params, body, "persistent", {"init": "no barrier between the shared counter's init and the atomics",
                                        "read": "no barrier between the block's atomics and thread 0's read of the "
                                                "counter"}.get(bug, "")


def bfs_shared_worklist(bug: str | None):
    """Data-driven BFS, a thread per worklist item, new vertices gathered in a shared worklist and
    appended to the global one by one reservation per block."""
    params = [("const int*", "nindex"), ("const int*", "nlist"), ("int*", "level"), ("const int*", "wl1"),
              ("int", "wl1size"), ("int*", "wl2"), ("int*", "wl2size"), ("int", "iter")]
    body = f"""{{
  __shared__ int s_wl[ThreadsPerBlock * 4];
  __shared__ int s_size;
  __shared__ int s_base;
  if (threadIdx.x == 0) s_size = 0;
  {_pick(bug == "init", MARK, "__syncthreads();")}
  const int idx = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  if (idx < wl1size) {{
    const int v = wl1[idx];
    for (int i = nindex[v]; i < nindex[v + 1]; i++) {{
      const int dst = nlist[i];
      if (atomicMin(&level[dst], iter + 1) > iter + 1) {{
        const int pos = atomicAdd(&s_size, 1);
        if (pos < ThreadsPerBlock * 4) s_wl[pos] = dst;
      }}
    }}
  }}
  {_pick(bug == "gather", MARK, "__syncthreads();")}
  if (threadIdx.x == 0) s_base = atomicAdd(wl2size, min(s_size, ThreadsPerBlock * 4));
  {_pick(bug == "base", MARK, "__syncthreads();")}
  for (int j = threadIdx.x; j < min(s_size, ThreadsPerBlock * 4); j += ThreadsPerBlock) {{
    wl2[s_base + j] = s_wl[j];
  }}
}}"""
    return params, body, "thread", {"init": "no barrier between the shared size's init and the atomics on it",
                                    "gather": "no barrier between the shared worklist's fill and its copy-out",
                                    "base": "no barrier between thread 0's store of the base and its readers"
                                    }.get(bug, "")


def mis_block_flag(bug: str | None):
    """Maximal independent set, a block per vertex (persistent), a shared flag any thread may set
    and thread 0 tests."""
    params = [("int", "nodes"), ("const int*", "nindex"), ("const int*", "nlist"), ("unsigned char*", "status"),
              ("const unsigned int*", "prio"), ("int*", "goagain")]
    body = f"""{{
  __shared__ int s_undecided;
  for (int v = blockIdx.x; v < nodes; v += gridDim.x) {{
    if (threadIdx.x == 0) s_undecided = 0;
    {_pick(bug == "init", MARK, "__syncthreads();")}
    if (status[v] == 0) {{
      const int beg = nindex[v];
      const int end = nindex[v + 1];
      for (int i = beg + threadIdx.x; i < end; i += ThreadsPerBlock) {{
        const int nei = nlist[i];
        if (status[nei] == 0 && prio[nei] > prio[v]) s_undecided = 1;
      }}
    }}
    {_pick(bug == "read", MARK, "__syncthreads();")}
    if (threadIdx.x == 0) {{
      if (s_undecided == 0 && status[v] == 0) status[v] = 1; else *goagain = 1;
    }}
    __syncthreads();
  }}
}}"""
    return params, body, "persistent", {"init": "no barrier between the flag's reset and the threads setting it",
                                        "read": "no barrier between the threads setting the flag and thread 0's "
                                                "test"}.get(bug, "")


def pr_thread_changed_flag(bug: str | None):
    """PageRank pull, a thread per vertex (persistent grid-stride), a block-level `changed` flag in
    shared memory reset by thread 0 and published by it after the loop."""
    params = [("int", "nodes"), ("const int*", "nindex"), ("const int*", "nlist"), ("const float*", "outgoing"),
              ("float*", "rank"), ("int*", "goagain")]
    body = f"""{{
  __shared__ bool s_changed;
  if (threadIdx.x == 0) s_changed = false;
  {_pick(bug == "init", MARK, "__syncthreads();")}
  for (int v = threadIdx.x + blockIdx.x * ThreadsPerBlock; v < nodes; v += gridDim.x * ThreadsPerBlock) {{
    float sum = 0;
    for (int i = nindex[v]; i < nindex[v + 1]; i++) sum += outgoing[nlist[i]];
    const float r = 0.15f / nodes + 0.85f * sum;
    if (fabsf(r - rank[v]) > 0.0001f) s_changed = true;
    rank[v] = r;
  }}
  {_pick(bug == "read", MARK, "__syncthreads();")}
  if (threadIdx.x == 0 && s_changed) *goagain = 1;
}}"""
    return params, body, "persistent", {"init": "no barrier between the shared flag's reset and its setters",
                                        "read": "no barrier between the setters and thread 0's read"}.get(bug, "")


def cc_warp_slot(bug: str | None):
    """Connected components pull, a warp per vertex, the warp's minimum in a per-warp shared slot
    (lane 0 initialises it, every lane applies atomicMin, lane 0 reads it)."""
    params = [("int", "nodes"), ("const int*", "nindex"), ("const int*", "nlist"), ("int*", "label"),
              ("int*", "goagain")]
    body = f"""{{
  __shared__ int s_min[ThreadsPerBlock / WS];
  const int lane = threadIdx.x % WS;
  const int warp = threadIdx.x / WS;
  const int v = (threadIdx.x + blockIdx.x * ThreadsPerBlock) / WS;
  if (v < nodes) {{
    if (lane == 0) s_min[warp] = label[v];
    {_pick(bug == "init", MARK, "__syncwarp();")}
    for (int i = nindex[v] + lane; i < nindex[v + 1]; i += WS) {{
      atomicMin(&s_min[warp], label[nlist[i]]);
    }}
    {_pick(bug == "read", MARK, "__syncwarp();")}
    if (lane == 0 && s_min[warp] < label[v]) {{
      atomicMin(&label[v], s_min[warp]);
      *goagain = 1;
    }}
  }}
}}"""
    return params, body, "warp", {"init": "no __syncwarp() between lane 0's init and the lanes' atomics",
                                  "read": "no __syncwarp() between the lanes' atomics and lane 0's read"}.get(bug, "")


def sssp_block_tile_cache(bug: str | None):
    """SSSP push, a block per vertex (persistent), a tile of the vertex's edge targets staged in
    shared memory and consumed by every thread, refilled per tile."""
    params = [("int", "nodes"), ("const int*", "nindex"), ("const int*", "nlist"), ("const int*", "eweight"),
              ("int*", "dist"), ("int*", "goagain")]
    body = f"""{{
  __shared__ int s_dst[ThreadsPerBlock];
  __shared__ int s_wgt[ThreadsPerBlock];
  for (int v = blockIdx.x; v < nodes; v += gridDim.x) {{
    const int d = dist[v];
    if (d == 0x7fffffff) continue;
    const int beg = nindex[v];
    const int end = nindex[v + 1];
    for (int base = beg; base < end; base += ThreadsPerBlock) {{
      const int i = base + threadIdx.x;
      if (i < end) {{
        s_dst[threadIdx.x] = nlist[i];
        s_wgt[threadIdx.x] = eweight[i];
      }}
      {_pick(bug == "fill", MARK, "__syncthreads();")}
      const int j = (threadIdx.x + 1) % ThreadsPerBlock;
      if (base + j < end) {{
        if (atomicMin(&dist[s_dst[j]], d + s_wgt[j]) > d + s_wgt[j]) *goagain = 1;
      }}
      {_pick(bug == "refill", MARK, "__syncthreads();")}
    }}
  }}
}}"""
    return params, body, "persistent", {"fill": "no barrier between the tile's fill and its use by other threads",
                                        "refill": "no barrier before the next tile overwrites the one being read"
                                        }.get(bug, "")


def pr_block_two_level(bug: str | None):
    """PageRank pull, a block per vertex (persistent), partial sums reduced with warp shuffles and
    a per-warp slot in shared memory that warp 0 reads and reduces again."""
    params = [("int", "nodes"), ("const int*", "nindex"), ("const int*", "nlist"), ("const float*", "outgoing"),
              ("float*", "rank")]
    body = f"""{{
  __shared__ float s_part[WS];
  const int lane = threadIdx.x % WS;
  const int warp = threadIdx.x / WS;
  for (int v = blockIdx.x; v < nodes; v += gridDim.x) {{
    float sum = 0;
    for (int i = nindex[v] + threadIdx.x; i < nindex[v + 1]; i += ThreadsPerBlock) sum += outgoing[nlist[i]];
    for (int d = WS / 2; d > 0; d /= 2) sum += __shfl_down_sync(~0, sum, d);
    if (lane == 0) s_part[warp] = sum;
    {_pick(bug == "slots", MARK, "__syncthreads();")}
    if (warp == 0) {{
      sum = (lane < ThreadsPerBlock / WS) ? s_part[lane] : 0;
      for (int d = WS / 2; d > 0; d /= 2) sum += __shfl_down_sync(~0, sum, d);
      if (lane == 0) rank[v] = 0.15f / nodes + 0.85f * sum;
    }}
    {_pick(bug == "end", MARK, "__syncthreads();")}
  }}
}}"""
    return params, body, "persistent", {"slots": "no barrier between the per-warp slots' store and warp 0's read",
                                        "end": "no barrier before the next vertex's slots overwrite the ones warp 0 "
                                               "reads"}.get(bug, "")


def tc_warp_cached_list(bug: str | None):
    """Triangle counting, a warp per vertex, the vertex's adjacency list cached in a per-warp slice
    of shared memory that every lane then searches."""
    params = [("int", "nodes"), ("const int*", "nindex"), ("const int*", "nlist"), ("unsigned long long*", "count")]
    body = f"""{{
  __shared__ int s_adj[ThreadsPerBlock / WS][WS];
  const int lane = threadIdx.x % WS;
  const int warp = threadIdx.x / WS;
  const int v = (threadIdx.x + blockIdx.x * ThreadsPerBlock) / WS;
  unsigned long long c = 0;
  if (v < nodes) {{
    const int beg = nindex[v];
    const int deg = min(nindex[v + 1] - beg, WS);
    if (lane < deg) s_adj[warp][lane] = nlist[beg + lane];
    {_pick(bug == "fill", MARK, "__syncwarp();")}
    if (lane < deg) {{
      const int u = s_adj[warp][lane];
      for (int i = nindex[u]; i < nindex[u + 1]; i++) {{
        const int w = nlist[i];
        for (int k = 0; k < deg; k++) c += (s_adj[warp][k] == w);
      }}
    }}
  }}
  atomicAdd(count, c);
}}"""
    return params, body, "warp", "no __syncwarp() between the cached list's fill and the lanes' reads" if bug else ""


def cc_block_local_rounds(bug: str | None):
    """Connected components, one block iterating label propagation over its own range of vertices
    until a shared flag says nothing changed (a do-while with barriers around the flag)."""
    params = [("int", "nodes"), ("const int*", "nindex"), ("const int*", "nlist"), ("int*", "label")]
    body = f"""{{
  __shared__ int s_again;
  const int base = blockIdx.x * ThreadsPerBlock;
  do {{
    {_pick(bug == "top", MARK, "__syncthreads();")}
    if (threadIdx.x == 0) s_again = 0;
    {_pick(bug == "reset", MARK, "__syncthreads();")}
    const int v = base + threadIdx.x;
    if (v < nodes) {{
      int d = label[v];
      for (int i = nindex[v]; i < nindex[v + 1]; i++) {{
        const int u = nlist[i];
        if (u >= base && u < base + ThreadsPerBlock) d = min(d, label[u]);
      }}
      if (d < label[v]) {{
        atomicMin(&label[v], d);
        s_again = 1;
      }}
    }}
    {_pick(bug == "test", MARK, "__syncthreads();")}
  }} while (s_again);
}}"""
    return params, body, "thread", {"top": "no barrier between the flag's test and the next round's reset",
                                    "reset": "no barrier between the flag's reset and its setters",
                                    "test": "no barrier between the setters and every thread's test"}.get(bug, "")


def bfs_block_scan_queue(bug: str | None):
    """BFS, a thread per vertex, the block's new frontier compacted with a Hillis-Steele scan in
    shared memory before one thread reserves room in the global queue."""
    params = [("int", "nodes"), ("const int*", "nindex"), ("const int*", "nlist"), ("int*", "level"),
              ("int", "iter"), ("int*", "queue"), ("int*", "qsize")]
    body = f"""{{
  __shared__ int s_scan[ThreadsPerBlock];
  __shared__ int s_base;
  const int v = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  int mine = 0;
  if (v < nodes && level[v] == iter) {{
    for (int i = nindex[v]; i < nindex[v + 1]; i++) {{
      if (atomicMin(&level[nlist[i]], iter + 1) > iter + 1) mine++;
    }}
  }}
  s_scan[threadIdx.x] = mine;
  {_pick(bug == "init", MARK, "__syncthreads();")}
  for (int d = 1; d < ThreadsPerBlock; d *= 2) {{
    int t = 0;
    if (threadIdx.x >= d) t = s_scan[threadIdx.x - d];
    {_pick(bug == "read", MARK, "__syncthreads();")}
    if (threadIdx.x >= d) s_scan[threadIdx.x] += t;
    {_pick(bug == "write", MARK, "__syncthreads();")}
  }}
  if (threadIdx.x == ThreadsPerBlock - 1) s_base = atomicAdd(qsize, s_scan[threadIdx.x]);
  {_pick(bug == "base", MARK, "__syncthreads();")}
  const int pos = s_base + s_scan[threadIdx.x] - mine;
  for (int k = 0; k < mine; k++) queue[pos + k] = v;
}}"""
    return params, body, "thread", {"init": "no barrier between the counts' store and the scan",
                                    "read": "no barrier between the scan's reads and its writes",
                                    "write": "no barrier between one scan step's writes and the next one's reads",
                                    "base": "no barrier between the base's store and its readers"}.get(bug, "")


def pr_block_local_push(bug: str | None):
    """PageRank push restricted to the block: each thread publishes its contribution in shared
    memory and reads the contributions of its neighbours that belong to the same block."""
    params = [("int", "nodes"), ("const int*", "nindex"), ("const int*", "nlist"), ("const float*", "rank"),
              ("float*", "next")]
    body = f"""{{
  __shared__ float s_contrib[ThreadsPerBlock];
  const int base = blockIdx.x * ThreadsPerBlock;
  const int v = base + threadIdx.x;
  float c = 0;
  if (v < nodes) c = rank[v] / max(1, nindex[v + 1] - nindex[v]);
  s_contrib[threadIdx.x] = c;
  {_pick(bug == "publish", MARK, "__syncthreads();")}
  if (v < nodes) {{
    float sum = 0;
    for (int i = nindex[v]; i < nindex[v + 1]; i++) {{
      const int u = nlist[i];
      sum += (u >= base && u < base + ThreadsPerBlock) ? s_contrib[u - base] : 0.0f;
    }}
    next[v] = 0.15f / nodes + 0.85f * sum;
  }}
}}"""
    return params, body, "thread", "no barrier between the contributions' store and the neighbours' reads" \
        if bug else ""


BARRIER_BUILDERS = {
    pr_block_pull: ("store", "loop", "end"),
    tc_thread_block_reduce: ("store", "loop"),
    sssp_warp_shfl_block: ("slots",),
    bfs_block_bounds: ("bcast", "end"),
    cc_block_min: ("init", "read"),
    tc_block_counter: ("init", "read"),
    bfs_shared_worklist: ("init", "gather", "base"),
    mis_block_flag: ("init", "read"),
    pr_thread_changed_flag: ("init", "read"),
    cc_warp_slot: ("init", "read"),
    sssp_block_tile_cache: ("fill", "refill"),
    pr_block_two_level: ("slots", "end"),
    tc_warp_cached_list: ("fill",),
    cc_block_local_rounds: ("top", "reset", "test"),
    bfs_block_scan_queue: ("init", "read", "write", "base"),
    pr_block_local_push: ("publish",),
}


# --------------------------------------------------------------------------------------------
# Plain stores where an atomic belongs.

def _vertex_loop(style: str) -> tuple[str, str, str, str]:
    """(head, lane-start, stride, tail) of the loop over a vertex's edges for a style."""
    if style == "thread":
        return ("  const int v = threadIdx.x + blockIdx.x * ThreadsPerBlock;\n  if (v < nodes) {\n", "0", "1", "  }\n")
    if style == "warp":
        return ("  const int lane = threadIdx.x % WS;\n"
                "  const int v = (threadIdx.x + blockIdx.x * ThreadsPerBlock) / WS;\n  if (v < nodes) {\n",
                "lane", "WS", "  }\n")
    if style == "block":
        return ("  for (int v = blockIdx.x; v < nodes; v += gridDim.x) {\n", "threadIdx.x", "ThreadsPerBlock",
                "  }\n")
    return ("  for (int v = threadIdx.x + blockIdx.x * ThreadsPerBlock; v < nodes;"
            " v += gridDim.x * ThreadsPerBlock) {\n", "0", "1", "  }\n")


def _push(update_bug: str, update_ok: str, params, extra_before: str = "", guard: str = "", value: str = ""):
    def build(bug: bool, style: str):
        head, start, stride, tail = _vertex_loop(style)
        first = "beg" if start == "0" else f"beg + {start}"
        body = ("{\n" + head + "    const int beg = nindex[v];\n    const int end = nindex[v + 1];\n" + extra_before +
                f"    for (int i = {first}; i < end; i += {stride}) {{\n"
                "      const int dst = nlist[i];\n" + value +
                (f"      if ({guard}) {{\n" if guard else "") +
                "        " + _pick(bug, update_bug + MARK, update_ok) + "\n" +
                ("      }\n" if guard else "") +
                "    }\n" + tail + "}")
        return params, body
    return build


GRAPH = [("int", "nodes"), ("const int*", "nindex"), ("const int*", "nlist")]

ATOMIC_BUILDERS = {
    "sssp_push_min": (_push("dist[dst] = min(dist[dst], nd);", "atomicMin(&dist[dst], nd);",
                            [*GRAPH, ("const int*", "eweight"), ("int*", "dist")],
                            "    const int d = dist[v];\n", "d != 0x7fffffff",
                            "      const int nd = d + eweight[i];\n"),
                      "`dist[dst] = min(dist[dst], nd)` replaces atomicMin"),
    "sssp_push_guarded": (_push("dist[dst] = nd; *goagain = 1;",
                                "if (atomicMin(&dist[dst], nd) > nd) *goagain = 1;",
                                [*GRAPH, ("const int*", "eweight"), ("int*", "dist"), ("int*", "goagain")],
                                "    const int d = dist[v];\n", "d != 0x7fffffff && nd < dist[dst]",
                                "      const int nd = d + eweight[i];\n"),
                          "`if (nd < dist[dst]) dist[dst] = nd` replaces atomicMin"),
    "cc_push_label": (_push("label[dst] = lv;", "atomicMin(&label[dst], lv);",
                            [*GRAPH, ("int*", "label")], "    const int lv = label[v];\n", "lv < label[dst]"),
                      "`if (lv < label[dst]) label[dst] = lv` replaces atomicMin"),
    "bfs_push_level": (_push("level[dst] = iter + 1; *goagain = 1;",
                             "if (atomicMin(&level[dst], iter + 1) > iter + 1) *goagain = 1;",
                             [*GRAPH, ("int*", "level"), ("int", "iter"), ("int*", "goagain")], "",
                             "level[v] == iter && level[dst] > iter + 1"),
                       "`level[dst] = iter + 1` after a test of `level[dst]` replaces atomicMin"),
    "pr_push_sum": (_push("sum[dst] += contrib;", "atomicAdd(&sum[dst], contrib);",
                          [*GRAPH, ("const float*", "rank"), ("float*", "sum")],
                          "    const float contrib = rank[v] / (end - beg);\n"),
                    "`sum[dst] += contrib` replaces atomicAdd"),
    "tc_count": (None, "`*count += c` replaces atomicAdd"),
    "wl_push": (None, "a worklist slot reserved by `(*wlsize)++` instead of atomicAdd"),
    "cc_hook": (None, "a hook `label[big] = small` replaces atomicMin on a label loaded from data"),
    "pr_pull_block_sum": (None, "every thread of a block adds its partial to `sum[v]` with `+=`"),
    "edge_cc": (None, "an edge-based kernel lowers `label[dst]` with a plain store"),
}


def _tc_count(bug: bool, style: str):
    head, start, stride, tail = _vertex_loop(style)
    first = "beg1" if start == "0" else f"beg1 + {start}"
    params = [*GRAPH, ("unsigned long long*", "count")]
    body = ("{\n  unsigned long long c = 0;\n" + head +
            "    const int beg1 = nindex[v];\n    const int end1 = nindex[v + 1];\n"
            f"    for (int i = {first}; i < end1; i += {stride}) {{\n"
            "      const int u = nlist[i];\n      if (u > v) {\n"
            "        int j = beg1, k = nindex[u];\n        const int end2 = nindex[u + 1];\n"
            "        while ((j < end1) && (k < end2)) {\n"
            "          const int a = nlist[j], b = nlist[k];\n"
            "          if (a == b) { c++; j++; k++; } else if (a < b) j++; else k++;\n"
            "        }\n      }\n    }\n" + tail +
            "  " + _pick(bug, "*count += c;" + MARK, "atomicAdd(count, c);") + "\n}")
    return params, body


def _wl_push(bug: bool, style: str):
    head, start, stride, tail = _vertex_loop(style)
    first = "beg" if start == "0" else f"beg + {start}"
    params = [*GRAPH, ("int*", "dist"), ("const int*", "eweight"), ("int*", "wl2"), ("int*", "wl2size")]
    reserve = _pick(bug, "const int pos = (*wl2size)++;" + MARK, "const int pos = atomicAdd(wl2size, 1);")
    body = ("{\n" + head + "    const int beg = nindex[v];\n    const int end = nindex[v + 1];\n"
            "    const int d = dist[v];\n"
            f"    for (int i = {first}; i < end; i += {stride}) {{\n"
            "      const int dst = nlist[i];\n      const int nd = d + eweight[i];\n"
            "      if (atomicMin(&dist[dst], nd) > nd) {\n"
            f"        {reserve}\n        wl2[pos] = dst;\n      }}\n    }}\n" + tail + "}")
    return params, body


def _cc_hook(bug: bool, style: str):
    head, start, stride, tail = _vertex_loop(style)
    first = "beg" if start == "0" else f"beg + {start}"
    params = [*GRAPH, ("int*", "label"), ("int*", "goagain")]
    body = ("{\n" + head + "    const int beg = nindex[v];\n    const int end = nindex[v + 1];\n"
            f"    for (int i = {first}; i < end; i += {stride}) {{\n"
            "      const int u = nlist[i];\n"
            "      const int lv = label[v];\n      const int lu = label[u];\n"
            "      if (lv != lu) {\n"
            "        const int small = min(lv, lu);\n        const int big = max(lv, lu);\n"
            "        " + _pick(bug, "label[big] = small;" + MARK, "atomicMin(&label[big], small);") + "\n"
            "        *goagain = 1;\n      }\n    }\n" + tail + "}")
    return params, body


def _pr_pull_block_sum(bug: bool, style: str):
    head, start, stride, tail = _vertex_loop("block" if style in ("block", "persistent") else style)
    first = "beg" if start == "0" else f"beg + {start}"
    params = [*GRAPH, ("const float*", "outgoing"), ("float*", "sum")]
    body = ("{\n" + head + "    const int beg = nindex[v];\n    const int end = nindex[v + 1];\n"
            "    float partial = 0;\n"
            f"    for (int i = {first}; i < end; i += {stride}) {{\n"
            "      partial += outgoing[nlist[i]];\n    }\n"
            "    " + _pick(bug, "sum[v] += partial;" + MARK, "atomicAdd(&sum[v], partial);") + "\n" + tail + "}")
    return params, body


def _edge_cc(bug: bool, style: str):
    params = [("int", "edges"), ("const int*", "sp"), ("const int*", "nlist"), ("int*", "label"), ("int*", "goagain")]
    loop = ("  for (int e = threadIdx.x + blockIdx.x * ThreadsPerBlock; e < edges;"
            " e += gridDim.x * ThreadsPerBlock) {\n" if style == "persistent" else
            "  const int e = threadIdx.x + blockIdx.x * ThreadsPerBlock;\n  if (e < edges) {\n")
    body = ("{\n" + loop + "    const int src = sp[e];\n    const int dst = nlist[e];\n"
            "    const int ls = label[src];\n"
            "    if (ls < label[dst]) {\n"
            "      " + _pick(bug, "label[dst] = ls;" + MARK, "atomicMin(&label[dst], ls);") + "\n"
            "      *goagain = 1;\n    }\n  }\n}")
    return params, body


def _cc_union_find(bug: bool, style: str):
    head, start, stride, tail = _vertex_loop(style)
    first = "beg" if start == "0" else f"beg + {start}"
    params = [*GRAPH, ("int*", "parent")]
    hook = _pick(bug, "if (parent[big] == big) parent[big] = small;" + MARK,
                 "atomicCAS(&parent[big], big, small);")
    body = ("{\n" + head + "    const int beg = nindex[v];\n    const int end = nindex[v + 1];\n"
            f"    for (int i = {first}; i < end; i += {stride}) {{\n"
            "      const int u = nlist[i];\n      if (u > v) {\n"
            "        int a = v, b = u;\n"
            "        while (parent[a] != a) a = parent[a];\n"
            "        while (parent[b] != b) b = parent[b];\n"
            "        if (a != b) {\n"
            "          const int small = min(a, b), big = max(a, b);\n"
            f"          {hook}\n"
            "        }\n      }\n    }\n" + tail + "}")
    return params, body


def _pr_push_scaled(bug: bool, style: str):
    head, start, stride, tail = _vertex_loop(style)
    first = "beg" if start == "0" else f"beg + {start}"
    params = [*GRAPH, ("const float*", "rank"), ("float*", "next")]
    update = _pick(bug, "next[u] = next[u] + 0.85f * share;" + MARK, "atomicAdd(&next[u], 0.85f * share);")
    body = ("{\n" + head + "    const int beg = nindex[v];\n    const int end = nindex[v + 1];\n"
            "    const float share = rank[v] / (float)max(1, end - beg);\n"
            f"    for (int i = {first}; i < end; i += {stride}) {{\n"
            "      const int u = nlist[i];\n"
            f"      {update}\n    }}\n" + tail + "}")
    return params, body


def _max_degree(bug: bool, style: str):
    head, _, _, tail = _vertex_loop(style)
    params = [*GRAPH, ("int*", "maxdeg")]
    update = _pick(bug, "if (deg > *maxdeg) *maxdeg = deg;" + MARK, "atomicMax(maxdeg, deg);")
    body = ("{\n" + head + "    const int deg = nindex[v + 1] - nindex[v];\n"
            f"    {update}\n" + tail + "}")
    return params, body


def _shared_frontier_count(bug: bool, style: str):
    head, start, stride, tail = _vertex_loop(style)
    first = "beg" if start == "0" else f"beg + {start}"
    params = [*GRAPH, ("int*", "level"), ("int", "iter"), ("int*", "total")]
    count = _pick(bug, "s_cnt++;" + MARK, "atomicAdd(&s_cnt, 1);")
    body = ("{\n  __shared__ int s_cnt;\n  if (threadIdx.x == 0) s_cnt = 0;\n  __syncthreads();\n" + head +
            "    const int beg = nindex[v];\n    const int end = nindex[v + 1];\n"
            f"    for (int i = {first}; i < end; i += {stride}) {{\n"
            "      if (atomicMin(&level[nlist[i]], iter + 1) > iter + 1) {\n"
            f"        {count}\n      }}\n    }}\n" + tail +
            "  __syncthreads();\n  if (threadIdx.x == 0) atomicAdd(total, s_cnt);\n}")
    return params, body


ATOMIC_BUILDERS.update({
    "cc_union_find": (None, "a union-find hook tests and sets `parent[big]` instead of atomicCAS"),
    "pr_push_scaled": (None, "`next[u] = next[u] + x` replaces atomicAdd"),
    "max_degree": (None, "`if (deg > *maxdeg) *maxdeg = deg` replaces atomicMax"),
    "shared_frontier_count": (None, "a block's shared counter bumped with `s_cnt++` instead of atomicAdd"),
})


SPECIAL = {"cc_union_find": _cc_union_find, "pr_push_scaled": _pr_push_scaled, "max_degree": _max_degree,
           "shared_frontier_count": _shared_frontier_count, "tc_count": _tc_count,
           "wl_push": _wl_push, "cc_hook": _cc_hook, "pr_pull_block_sum": _pr_pull_block_sum,
           "edge_cc": _edge_cc}
ATOMIC_STYLES = ("thread", "warp", "block", "persistent")


def _program(kernel: str, params, body: str, style: str, tpb: int, host: bool) -> str:
    text = HEADER.format(tpb=tpb) + "\n" + _signature(kernel, params) + "\n" + body + "\n"
    return text + (_host(kernel, params, style) if host else "")


def twins(host: bool | None = None) -> list[Twin]:
    """Every graph twin: missing barriers then plain-store-for-atomic, each buggy then clean, as
    the kernel alone and with a host program (`host` picks one of the two)."""
    out: list[Twin] = []
    hosts = (False, True) if host is None else (host,)
    for with_host in hosts:
        suffix = "_host" if with_host else ""
        for n, (builder, bugs) in enumerate(BARRIER_BUILDERS.items()):
            tpb = (256, 512, 1024)[n % 3]
            kernel = builder.__name__
            params, body, style, _ = builder(None)
            clean = _program(kernel, params, body, style, tpb, with_host)
            for bug in bugs:
                params, body, style, what = builder(bug)
                name = f"{kernel}_{bug}{suffix}"
                out.append(_finish(name, "barrier", True, _program(kernel, params, body, style, tpb, with_host), what))
            out.append(_finish(f"{kernel}{suffix}", "barrier", False, clean, "clean"))
        for n, (name, (build, what)) in enumerate(ATOMIC_BUILDERS.items()):
            build = build or SPECIAL[name]
            for m, style in enumerate(ATOMIC_STYLES):
                if (name == "edge_cc" and style in ("warp", "block")) or (name == "pr_pull_block_sum" and
                                                                          style == "thread"):
                    continue
                tpb = (256, 512, 1024)[(n + m) % 3]
                kernel = f"{name}_{style}"
                for bug in (True, False):
                    params, body = build(bug, style)
                    text = _program(kernel, params, body, style, tpb, with_host)
                    out.append(_finish(f"{kernel}{'_bug' if bug else ''}{suffix}", "atomic", bug, text,
                                       what if bug else "clean"))
    return out + (clean_extras() if host is None else [])



def clean_extras() -> list[Twin]:
    """Correct graph kernels with the forms that tempt a race rule (relaxed cuda::atomic loads and
    stores, double buffering, bitmaps claimed with atomicOr, claims by atomicCAS, a two-level block
    reduction, a shared counter behind its barriers, pointer jumping on one's own element): all
    must stay silent (clean_graph_kernels.cu)."""
    text = (Path(__file__).parent / "clean_graph_kernels.cu").read_text()
    return [_finish("clean_graph_kernels", "clean-only", False, text, "clean")]
