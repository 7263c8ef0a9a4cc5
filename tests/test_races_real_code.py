"""Race rules on patterns of real code (HeCBench, cuda-samples) that looked like races and are not,
each beside a twin that still races."""

from __future__ import annotations

from cudaperf.analysis.analyzer import Options, analyze_file, analyze_source
from cudaperf.analysis.divergence import Dependence
from cudaperf.lint.rules import select
from cudaperf.lint.run import lint_file

RACES = ["shared-race", "global-race"]


def found(source: str, **launch) -> set[tuple[str, str]]:
    """(kernel, rule) of every race finding; no launch in the source, so grid and block are guessed
    unless given."""
    report = analyze_source(source, "k.cu", Options(resources="estimate", **launch))
    return {(f.kernel, f.name) for f in lint_file(report, select(RACES), source)}


GUESSED_BLOCK = """
#define ROWS 8
#define THREADS 128
__global__ void rows_of_eight(float* dst, const float* src) {
    __shared__ float block[16 * 64 + 8];
    int offset = threadIdx.y * 64 + threadIdx.x;     // 8 threads per 8x8 tile: blockDim.x == 8
    for (int i = 0; i < ROWS; i++) block[offset + i * 8] = src[blockIdx.x * 1024 + offset + i * 8];
    float s = 0;
    for (int j = 0; j < 8; j++) s += block[threadIdx.y * 64 + 8 * threadIdx.x + j];
    dst[blockIdx.x * 1024 + offset] = s;
}
__global__ void exchange(float* out, const float* in) {
    __shared__ float x[THREADS + 1];
    int tid = threadIdx.x;
    if (tid == 0) x[THREADS] = in[blockIdx.x];        // only a thread THREADS could clash with this
    float mine = in[blockIdx.x * THREADS + tid];
    for (int i = 0; i < 4; i++) {
        x[tid] = mine;
        __syncthreads();
        mine += x[tid + 1];
        __syncthreads();
    }
    out[blockIdx.x * THREADS + tid] = mine;
}
__global__ void flag_without_barrier(const int* keys, int* out) {
    __shared__ int count;
    if (threadIdx.x == 0) count = 0;
    if (keys[threadIdx.x] > 0 && count > 1) out[blockIdx.x] = 1;
}
"""


def test_a_race_only_the_guessed_block_makes_is_not_reported():
    """Under a guessed block a race must also show in blocks of two warps (64, 8x8, 64x1): the
    default's wider rows or extra threads are not evidence; a race between thread 0 and the rest is."""
    assert found(GUESSED_BLOCK) == {("flag_without_barrier", "shared-race")}
    given = found(GUESSED_BLOCK, grid=(4, 1, 1), block=(16, 16, 1))  # a block the user gave is believed
    assert ("rows_of_eight", "shared-race") in given


OWNED_THROUGH_INDEX = """
__global__ void owned(const int* roots, int* sizes, int* table, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int root = roots[i];
        sizes[root] = 0;                               // the thread resets the word it then builds on
        table[root * 8 + sizes[root]++] = i;
        table[root * 8 + sizes[root]++] = i + 1;
    }
}
__global__ void scatter_add(const int* rows, const float* a, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int row = rows[i];
    c[row] += a[i];                                    // two operations with one output row
}
"""


def test_a_word_reset_before_its_updates_is_owned_and_a_scatter_add_races():
    assert found(OWNED_THROUGH_INDEX) == {("scatter_add", "global-race")}


ONE_THREAD = """
__global__ void named_by_vote(const int* best, int* same, int* score) {
    if (best[blockIdx.x] == threadIdx.x) same[blockIdx.x]++;          // one thread per block
}
__global__ void last_block(int* done, int* step) {
    if (threadIdx.x == 0)
        if (atomicInc((unsigned*)done, gridDim.x) == gridDim.x - 1) (*step)++;   // one ticket wins
}
__global__ void named_by_lane_group(const int* best, int* same) {
    if (best[blockIdx.x] == threadIdx.x % 4) same[blockIdx.x]++;      // many threads per block
}
__global__ void maximum_ticket(int* done, int* step) {
    if (threadIdx.x == 0)
        if (atomicMax(done, 1) == 0) (*step)++;                         // atomicMax hands out no tickets
}
"""


def test_a_guard_one_thread_passes_orders_its_update():
    assert found(ONE_THREAD, grid=(8, 1, 1), block=(128, 1, 1)) == {
        ("named_by_lane_group", "global-race"), ("maximum_ticket", "global-race")}


BLOCK_COLLECTIVE = """
#include <cub/cub.cuh>
__global__ void rescale(float* scale, const float* g) {
    typedef cub::BlockReduce<float, 256> Reduce;
    __shared__ typename Reduce::TempStorage scratch;
    float v = g[blockIdx.x * blockDim.x + threadIdx.x] * scale[blockIdx.x];
    float m = Reduce(scratch).Reduce(v, cub::Max());   // a block barrier inside
    if (threadIdx.x == 0) scale[blockIdx.x] = m;
}
__global__ void rescale_unordered(float* scale, const float* g) {
    float v = g[blockIdx.x * blockDim.x + threadIdx.x] * scale[blockIdx.x];
    if (threadIdx.x == 0) scale[blockIdx.x] = v;
}
"""


def test_a_library_block_collective_orders_the_accesses_around_it():
    assert found(BLOCK_COLLECTIVE, grid=(8, 1, 1), block=(256, 1, 1)) == {("rescale_unordered", "global-race")}


def test_the_barrier_after_a_library_block_collective_in_a_loop_is_not_redundant():
    """Its scratch is used on both sides of its inner barrier: the next iteration's call must wait."""
    source = """
#include <cub/cub.cuh>
__global__ void count_rows(const float* x, int* total, int rows) {
    typedef cub::BlockReduce<int, 256> Reduce;
    __shared__ typename Reduce::TempStorage scratch;
    int count = 0;
    for (int r = 0; r < rows; r++) {
        int n = Reduce(scratch).Sum(x[r * 256 + threadIdx.x] > 0.f);
        if (n > 128) ++count;
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(total, count);
}
"""
    report = analyze_source(source, "k.cu", Options(resources="estimate", grid=(8, 1, 1), block=(256, 1, 1)))
    assert not lint_file(report, select(["redundant-barrier"]), source)


DO_WHILE_AND_SWAP = """
__global__ void repeat_until_done(int* out) {
    __shared__ bool found, done;
    if (threadIdx.x == 0) done = false;
    do {
        __syncthreads();
        if (threadIdx.x == 0) found = false;
        __syncthreads();
        if (out[threadIdx.x] > 0) { found = true; done = true; }
        __syncthreads();
    } while (found && !done);                          // tested after the body's last barrier
}
__device__ void swap(int** a, int** b) { int* t = *a; *a = *b; *b = t; }
__global__ void double_buffered(int* out, int h) {
    extern __shared__ int buffers[];
    int* now = buffers;
    int* next = buffers + blockDim.x;
    now[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    for (int row = 1; row < h; row++) {
        int left = threadIdx.x > 0 ? now[threadIdx.x - 1] : 0;
        swap(&now, &next);                             // the next row goes to the other buffer
        now[threadIdx.x] = left + out[row * blockDim.x + threadIdx.x];
        __syncthreads();
    }
}
__global__ void single_buffered(int* out, int h) {
    extern __shared__ int buffers[];
    int* now = buffers;
    now[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    for (int row = 1; row < h; row++) {
        int left = threadIdx.x > 0 ? now[threadIdx.x - 1] : 0;
        now[threadIdx.x] = left + out[row * blockDim.x + threadIdx.x];
        __syncthreads();
    }
}
"""


def test_a_do_while_tests_after_its_body_and_a_swapped_pointer_is_lost():
    assert found(DO_WHILE_AND_SWAP, grid=(8, 1, 1), block=(128, 1, 1), dynamic_smem=1024) == {
        ("single_buffered", "shared-race")}


def test_comments_between_call_arguments_bind_nothing():
    """`f(energy,  // in lethargy` : the comment is a named child of the argument list, and took
    the next parameter (a thread's local array bound to a global table raced with itself)."""
    source = """
__device__ void accumulate(const double* table, int n, double* out) {
    for (int k = 0; k < 5; k++) out[k] = 0;
    for (int j = 0; j < n; j++) out[j % 5] += table[j];
}
__global__ void lookup(const double* table, double* results, int n) {
    double mine[5];
    accumulate(table,   // read only
               n,       // entries
               mine);   // per thread
    results[blockIdx.x * blockDim.x + threadIdx.x] = mine[0];
}
"""
    report = analyze_source(source, "k.cu", Options(resources="estimate", grid=(8, 1, 1), block=(128, 1, 1)))
    stores = {(a.access.array, a.access.space) for a in report.kernels[0].accesses if a.access.kind == "store"}
    assert stores == {("mine", "local"), ("results", "global")}


def test_a_launch_through_a_variable_naming_the_kernel_gives_the_grid():
    source = """
template <typename T> __global__ void once(T* out) { out[threadIdx.x] = blockIdx.x; }
__global__ void many(int* out) { out[threadIdx.x] = blockIdx.x; }
int main() {
    int* out = 0;
    auto one_block = once<int>;
    one_block<<<1, 128>>>(out);
    auto four_blocks = &many;
    four_blocks<<<4, 128>>>(out);
}
"""
    report = analyze_source(source, "k.cu", Options(resources="estimate"))
    assert {k.kernel.name: k.launch.grid for k in report.kernels} == {"once": (1, 1, 1), "many": (4, 1, 1)}
    assert found(source) == {("many", "global-race")}


READ_BACK = """
__device__ void vote(unsigned char* all_set, int bit) { *all_set = __syncthreads_and(bit); }
__global__ void vote_rounds(const int* bits, unsigned char* all_set) {
    vote(&all_set[blockIdx.x], bits[threadIdx.x]);
    for (int i = 1; i < 4; i++)                        // every thread stores the vote, then reads it back
        vote(&all_set[blockIdx.x], all_set[blockIdx.x] && bits[i * blockDim.x + threadIdx.x]);
}
__global__ void own_rounds(const int* bits, unsigned char* any_set) {
    any_set[blockIdx.x] = bits[threadIdx.x];
    for (int i = 1; i < 4; i++) {
        __syncthreads();
        any_set[blockIdx.x] = any_set[blockIdx.x] || bits[i * blockDim.x + threadIdx.x];   // each its own value
    }
}
"""


def test_a_word_every_thread_stores_alike_and_reads_back_is_no_race():
    assert found(READ_BACK, grid=(4, 1, 1), block=(128, 1, 1)) == {("own_rounds", "global-race")}


LOWERING = """
#define NT 128
__device__ void min_reduce(int* x, int tid, int nt) {
    __shared__ int buf[NT];
    buf[tid] = *x;
    for (nt /= 2, __syncthreads(); nt > 0; nt /= 2, __syncthreads())   // the barrier is in the update
        if (tid < nt && buf[tid + nt] < buf[tid]) buf[tid] = buf[tid + nt];
    if (tid == 0) *x = buf[0];
}
__global__ void per_row(int* v, int n) {
    for (int i = blockIdx.x; i < n; i += gridDim.x) {
        int best = v[i * NT + threadIdx.x];
        min_reduce(&best, threadIdx.x, blockDim.x);
#ifdef __CUDACC__
        if (threadIdx.x != 0)
            continue;                                  // guards the update after the #endif
#endif
        if (v[i] > best) v[i] = best;
    }
}
__global__ void per_row_all_threads(int* v, int n) {
    for (int i = blockIdx.x; i < n; i += gridDim.x) {
        int best = v[i * NT + threadIdx.x];
        if (v[i] > best) v[i] = best;
    }
}
"""


def test_a_barrier_in_a_for_update_and_an_exit_inside_an_ifdef_are_seen():
    assert found(LOWERING, grid=(8, 1, 1), block=(128, 1, 1)) == {("per_row_all_threads", "global-race")}


POINT_TO_ITSELF = """
__global__ void remove_cycles(unsigned* succ, unsigned n) {      // segmentationTreeThrust
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        unsigned s = succ[tid];
        if (tid == succ[s] && tid > s) succ[s] = s;              // every writer of succ[s] stores s
    }
}
__global__ void point_to_me(unsigned* succ, unsigned n) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        unsigned s = succ[tid];
        if (tid == succ[s] && tid > s) succ[s] = tid;            // writers of succ[s] store their own ids
    }
}
"""


def test_an_element_set_to_its_own_index_loses_no_update():
    assert found(POINT_TO_ITSELF, grid=(4, 1, 1), block=(128, 1, 1)) == {("point_to_me", "global-race")}


HAND_OFF = """
__global__ void chained_offsets(volatile int* goffset, const int* counts, int* out) {   // mpc
    int bid = blockIdx.x;
    int next = (bid + 1 == gridDim.x) ? 0 : bid + 1;
    if (threadIdx.x == blockDim.x - 1) {
        int st = 0;
        if (bid > 0) {
            do {
                st = goffset[bid];
            } while (st < 0);                                    // wait for the previous block
        }
        goffset[next] = st + counts[bid];
        goffset[bid] = -1;
        out[bid] = st;
    }
}
__global__ void chained_without_volatile(int* goffset, const int* counts, int* out) {
    int bid = blockIdx.x;
    int next = (bid + 1 == gridDim.x) ? 0 : bid + 1;
    if (threadIdx.x == blockDim.x - 1) {
        int st = 0;
        if (bid > 0) {
            do {
                st = goffset[bid];
            } while (st < 0);                                    // may spin forever on a cached word
        }
        goffset[next] = st + counts[bid];
        goffset[bid] = -1;
        out[bid] = st;
    }
}
__global__ void volatile_without_wait(volatile int* goffset, const int* counts, int* out) {
    int bid = blockIdx.x;
    int next = (bid + 1 == gridDim.x) ? 0 : bid + 1;
    if (threadIdx.x == blockDim.x - 1) {
        int st = goffset[bid];                                   // read once, whatever is there
        goffset[next] = st + counts[bid];
        goffset[bid] = -1;
        out[bid] = st;
    }
}
"""


def test_a_volatile_word_a_loop_waits_on_is_a_hand_off_not_a_race():
    """The spin loop orders the blocks by design; without `volatile` or without the wait, the
    same stores race."""
    assert found(HAND_OFF, grid=(8, 1, 1), block=(128, 1, 1)) == {
        ("chained_without_volatile", "global-race"), ("volatile_without_wait", "global-race")}


BUCKET_SEARCH = """
__global__ void find_child(const int* keys, const int* children, const int* wanted, long* next) {   // b+tree
    int t = threadIdx.x, b = blockIdx.x;
    if (keys[b * 257 + t] <= wanted[b] && keys[b * 257 + t + 1] > wanted[b])   // one bucket holds the key
        next[b] = children[next[b] * 256 + t];
}
__global__ void find_row(const int* row_start, const int* wanted, long* row) {          // CSR row of an entry
    int t = threadIdx.x, b = blockIdx.x;
    if (wanted[b] >= row_start[t] && wanted[b] < row_start[t + 1])
        row[b] = row[b] + t;
}
__global__ void below_key(const int* keys, const int* children, const int* wanted, long* next) {
    int t = threadIdx.x, b = blockIdx.x;
    if (keys[b * 257 + t] <= wanted[b])                                          // every smaller key passes
        next[b] = children[next[b] * 256 + t];
}
__global__ void closed_bracket(const int* keys, const int* children, const int* wanted, long* next) {
    int t = threadIdx.x, b = blockIdx.x;
    if (keys[b * 257 + t] <= wanted[b] && keys[b * 257 + t + 1] >= wanted[b])  // repeated keys: several pass
        next[b] = children[next[b] * 256 + t];
}
__global__ void far_bracket(const int* keys, const int* children, const int* wanted, long* next) {
    int t = threadIdx.x, b = blockIdx.x;
    if (keys[b * 257 + t] <= wanted[b] && keys[b * 257 + t + 2] > wanted[b])   // overlapping buckets
        next[b] = children[next[b] * 256 + t];
}
"""


def test_a_bucket_search_over_adjacent_keys_is_passed_by_one_thread():
    """`a[t] <= k && a[t + 1] > k` with one k per block holds for one t of sorted keys; a one-sided
    test, a closed bracket, or elements two apart hold for several."""
    assert found(BUCKET_SEARCH, grid=(8, 1, 1), block=(256, 1, 1)) == {
        ("below_key", "global-race"), ("closed_bracket", "global-race"), ("far_bracket", "global-race")}


WRITE_BACK = """
struct Particle { float pos[3]; float vel[3]; float acc[3]; float mass; };
__global__ void accelerate(Particle* p, int n) {                 // nbody
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Particle pi = p[i];
    float a = 0.f;
    for (int j = 0; j < n; j++) {
        Particle pj = p[j];                                      // reads pos and mass only
        a += (pj.pos[0] - pi.pos[0]) * pj.mass;
    }
    pi.acc[0] = a;
    p[i] = pi;                                                   // pos and mass go back unchanged
}
__global__ void move(Particle* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Particle pi = p[i];
    float a = 0.f;
    for (int j = 0; j < n; j++) {
        Particle pj = p[j];
        a += (pj.pos[0] - pi.pos[0]) * pj.mass;
    }
    pi.pos[0] += a;
    p[i] = pi;                                                   // a position others read changes
}
"""


def test_a_struct_written_back_changes_only_the_members_it_assigned():
    assert found(WRITE_BACK, grid=(8, 1, 1), block=(128, 1, 1)) == {("move", "global-race")}


def test_struct_members_that_are_arrays_keep_their_length():
    """`float pos[3]` inside a struct is 12 bytes: the layout puts mass at 36 and a copy moves
    every element (the sizes were lost while the file's types were gathered)."""
    report = analyze_source(WRITE_BACK, "k.cu", Options(resources="estimate", grid=(8, 1, 1), block=(128, 1, 1)))
    stores = [a.access for a in report.kernels[0].accesses if a.access.kind == "store"]
    assert len(stores) == 10 and {s.size for s in stores} == {4}


def test_a_kernel_header_sees_the_types_of_the_unit_that_includes_it(tmp_path):
    """`main.cu` includes `particle.h` and then `kernels.h`, which uses Particle without including
    it: the header alone does not know the layout, its translation unit does."""
    struct, kernels = WRITE_BACK.split("};", 1)
    (tmp_path / "particle.h").write_text(struct + "};\n")
    (tmp_path / "kernels.h").write_text(kernels)
    (tmp_path / "main.cu").write_text('#include "particle.h"\n#include "kernels.h"\nint main() {}\n')
    report = analyze_file(tmp_path / "kernels.h", Options(resources="estimate", grid=(8, 1, 1), block=(128, 1, 1)))
    assert {f.kernel for f in lint_file(report, select(RACES), kernels)} == {"move"}


def test_a_struct_of_unknown_layout_changed_and_stored_back_still_races():
    """Without the layout nothing says which members changed: the member assignment makes the
    copy unknown, not the value it was loaded with."""
    kernel = WRITE_BACK.split("};", 1)[1].replace("Particle", "Body")
    assert ("accelerate", "global-race") in found(kernel, grid=(8, 1, 1), block=(128, 1, 1))


SCAN_HELPERS = """
template <int STRIDE>
__device__ unsigned first_free(const int* table, unsigned l, unsigned r, volatile unsigned* found) {
    if (threadIdx.x == 0) *found = r;
    __syncthreads();
    unsigned i = l;
    while (i < r && *found == r) {
        for (unsigned j = 0; j < STRIDE && i < r; j++, i++)
            if (threadIdx.x == 0 && table[i] == 0) *found = i;   // one thread scans, all read the word
        __syncthreads();
        if (*found != r)
            return *found;
    }
    return r;                                                     // an argument every thread passes alike
}
__device__ unsigned own_slot(const int* table, unsigned l, unsigned r) {
    if (table[l] == 0) return l;
    return threadIdx.x;                                           // per thread on one path
}
__device__ unsigned by_lane(unsigned l, unsigned r) {
    if (threadIdx.x < 32) return l;                               // uniform values, per-thread choice
    return r;
}
"""
SAME_AFTER_LOOP = SCAN_HELPERS + """
template <int STRIDE>
__global__ void compress(const int* table, unsigned n, unsigned* res) {
    __shared__ unsigned found;
    unsigned l = first_free<STRIDE>(table, 0, n, &found);
    while (l < n) l = first_free<STRIDE>(table, l + 1, n, &found);
    *res = l;
}
__global__ void own(const int* table, unsigned n, unsigned* res) {
    unsigned l = own_slot(table, 0, n);
    *res = l;
}
__global__ void lanes(const int* table, unsigned n, unsigned* res) {
    *res = by_lane(0, n);
}
__global__ void per_thread_update(const int* table, unsigned n, unsigned* res) {
    __shared__ unsigned found;
    unsigned l = first_free<4>(table, 0, n, &found);
    while (l < n) l = first_free<4>(table, l + 1, n, &found) + threadIdx.x;
    *res = l;
}
__global__ void counts(const int* table, unsigned n, unsigned* res) {
    unsigned l = 0;
    while (l < n && table[l] != 0) l = l + 1;
    *res = l;
}
__global__ void leaves_early(const int* table, unsigned n, unsigned* res) {
    unsigned l = 0;
    while (l < n) {
        if (table[l] == threadIdx.x) break;
        l = l + 1;
    }
    *res = l;
}
"""


def test_a_value_every_thread_computes_alike_through_helpers_and_a_loop_is_stored_without_a_race():
    """gerbil's compress: every thread of the one block stores `l`, the result of a helper whose
    returns are a shared word read after a barrier or an argument, updated in a loop; the choice of
    return follows tests every thread takes alike (STRIDE is one constant), so all store one value.
    So does a count every thread advances alike. A helper returning threadIdx.x on one path, one
    choosing its return by thread, a loop adding threadIdx.x and one a thread leaves by its own break
    still race.  (compress's `*found = r` by thread 0 at the next call's start meets the other warps
    still reading `*found` after the last barrier of the previous call: a real shared race.)"""
    races = found(SAME_AFTER_LOOP, grid=(1, 1, 1), block=(256, 1, 1))
    assert {race for race in races if race[1] == "global-race"} == {
        ("own", "global-race"), ("lanes", "global-race"), ("per_thread_update", "global-race"),
        ("leaves_early", "global-race")}
    assert ("compress", "shared-race") in races


UNBOUND_CONSTANT = """
template <int N>
__device__ int scaled(int v) { return v * N; }
__global__ void k(const int* in, int* out) {
    out[0] = scaled<WIDTH>(in[0]);       // WIDTH unknown: the helper's N is unbound
    out[1] = threadIdx.x / scaled<WIDTH>(1);
}
"""


def test_a_template_constant_nobody_gave_is_one_value_for_the_grid():
    """`v * N` varies no wider than v; `threadIdx.x / N` may still differ between threads (N
    may be 1) or not (N may be the block size): unknown, as before."""
    report = analyze_source(UNBOUND_CONSTANT, "k.cu", Options(resources="estimate", grid=(1, 1, 1), block=(256, 1, 1)))
    kernel = report.kernels[0].kernel
    dependence = Dependence(kernel)
    first, second = (a.access for a in report.kernels[0].accesses if a.access.kind == "store")
    assert dependence.level(first.value) == 0
    assert dependence.level(second.value, unknown=0) == 0 and dependence.level(second.value) == 3


# Read-modify-writes whose address holds a thread index that still leaves lanes on one word: a
# per-warp histogram row (the held-out suite's warp_hist), two threads per element.  Their twins
# give every lane its own word.
WARP_ROWS = """
__global__ void warp_hist(const unsigned char* data, unsigned* hist, int n) {
    __shared__ unsigned h[4][16];
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    if (lane < 16) h[w][lane] = 0;
    __syncwarp();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        h[w][BIN] += 1;
    __syncwarp();
    if (lane < 16) atomicAdd(&hist[lane], h[w][lane]);
}"""

PAIRS = """
__global__ void pairs(const float* x, float* y) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    y[INDEX] += x[t];
}"""


def _with_warp_rule(source: str, **launch) -> set[tuple[str, str]]:
    report = analyze_source(source, "k.cu", Options(resources="estimate", **launch))
    return {(f.kernel, f.name) for f in lint_file(report, select([*RACES, "implicit-warp-sync"]), source)}


def test_lanes_of_a_warp_on_their_warps_row_race_and_a_lane_per_word_does_not():
    """Only lanes of one warp meet on its row: the finding is the warp rule's."""
    launch = {"grid": (64, 1, 1), "block": (128, 1, 1)}
    assert _with_warp_rule(WARP_ROWS.replace("BIN", "data[i] % 16"), **launch) == {("warp_hist", "implicit-warp-sync")}
    assert not _with_warp_rule(WARP_ROWS.replace("h[w][BIN] += 1", "h[w][lane] += data[i]")
                               .replace("h[4][16]", "h[4][32]"), **launch)


# The held-out suite's warp bitonic network: each warp sorts its own 32 words, a compare-exchange
# pair per lane (`p = lane ^ j`, taken by the lower lane), stages ordered by __syncwarp.  Without
# it, a lane may run a stage ahead and rewrite a word another lane still exchanges.
WARP_NETWORK = """
__global__ void warp_bitonic(int* keys) {
    __shared__ int s[64];
    int t = threadIdx.x, lane = t & 31, off = t & ~31;
    s[t] = keys[blockIdx.x * 64 + t];
    __syncwarp();
    for (int k = 2; k <= 32; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            int p = lane ^ j;
            if (p > lane) {
                int a = s[off + lane], b = s[off + p];
                if ((a > b) == ((lane & k) == 0)) { s[off + lane] = b; s[off + p] = a; }
            }
            SYNC
        }
    keys[blockIdx.x * 64 + t] = s[t];
}"""


def test_a_warps_own_slice_ordered_by_syncwarp_is_silent_and_races_without_it():
    launch = {"grid": (16, 1, 1), "block": (64, 1, 1)}
    assert not _with_warp_rule(WARP_NETWORK.replace("SYNC", "__syncwarp();"), **launch)
    assert _with_warp_rule(WARP_NETWORK.replace("SYNC", ""), **launch) == {("warp_bitonic", "implicit-warp-sync")}


def test_two_threads_per_element_race_and_one_thread_per_element_does_not():
    launch = {"grid": (8, 1, 1), "block": (256, 1, 1)}
    report = analyze_source(PAIRS.replace("INDEX", "t / 2"), "k.cu", Options(resources="estimate", **launch))
    (finding,) = lint_file(report, select(RACES), PAIRS)
    assert finding.name == "global-race" and "give one address" in finding.message
    assert not found(PAIRS.replace("INDEX", "t"), **launch)


def test_rows_of_a_given_2d_block_meet_on_a_word_only_threadidx_x_picks():
    """A block of 16x16 given by the user: the 16 rows each update y[threadIdx.x]."""
    source = PAIRS.replace("INDEX", "t").replace("blockIdx.x * blockDim.x + ", "")
    assert found(source, grid=(1, 1, 1), block=(16, 16, 1)) == {("pairs", "global-race")}
    assert not found(source, grid=(1, 1, 1), block=(256, 1, 1))


COUNTER = """
__global__ void count_matches(const int* keys, int key, unsigned* counter, unsigned* flag) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (keys[i] == key) UPDATE;
}"""


def test_a_counter_bumped_behind_a_data_test_loses_updates_and_a_flag_set_alike_does_not():
    """`*counter = *counter + 1` stores what each thread read plus one, not one value for all (the
    second held-out suite's global counter); `*flag = 1` stores one value whoever wins."""
    launch = {"grid": (64, 1, 1), "block": (256, 1, 1)}
    assert found(COUNTER.replace("UPDATE", "*counter = *counter + 1"), **launch) == \
        {("count_matches", "global-race")}
    assert not found(COUNTER.replace("UPDATE", "*flag = 1"), **launch)


HELPER_NAMED_LIKE_CUB = """
#include <cub/cub.cuh>
template <typename T>
__device__ void BlockReduce(T &input) {
    typedef cub::BlockReduce<T, 256> BlockReduce;
    __shared__ typename BlockReduce::TempStorage temp_storage;
    input = BlockReduce(temp_storage).Sum(input);
}
__global__ void total(const float* in, float* out) {
    float sum = in[blockIdx.x * 256 + threadIdx.x];
    BlockReduce(sum);
    if (threadIdx.x == 0) out[blockIdx.x] = sum;
}
"""


def test_cub_storage_handed_to_a_collective_is_no_lost_update():
    """HeCBench's accuracy, adamw and channelSum: CUB's TempStorage goes by reference to the collective
    that owns it (and synchronises it); it is not read and written back by every thread, even where
    the file defines a helper that a call through the collective's alias could be taken for."""
    assert found(HELPER_NAMED_LIKE_CUB, block=(256, 1, 1), grid=(64, 1, 1)) == set()


def test_an_element_of_a_template_type_passed_to_an_intrinsic_is_still_a_load():
    """dp4a's `__dp4a(a[i], b[i], sum)` with `a` of a template type: the elements are loads (their
    coalescing is what the kernel's memory findings are about), not places handed over."""
    source = """
template <typename T>
__global__ void dot(const T* a, const T* b, T* d, int n) {
    T sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum = __dp4a(a[i * 4], b[i * 4], sum);
    d[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
"""
    report = analyze_source(source, "k.cu", Options(resources="estimate", block=(256, 1, 1), grid=(64, 1, 1)))
    loads = {a.access.array for a in report.kernels[0].accesses if a.access.kind == "load"}
    assert {"a", "b"} <= loads
