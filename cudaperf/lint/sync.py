"""Synchronisation rules: each reports the analyzer's sync hazards of its own kind
(``cudaperf.analysis.sync``), with the documentation a user needs."""

from __future__ import annotations

from .rules import JUDGED_ON_PUBLIC_CODE, Rule, rule


class SyncRule(Rule):
    """A rule whose findings are the report's sync hazards named like the rule."""

    needs = ("sync",)

    def check(self, report):
        for hazard in report.sync:
            if hazard.kind == self.name:
                yield hazard.line, hazard.column, hazard.message


@rule
class BarrierDivergence(SyncRule):
    code, name, severity = "CP401", "barrier-divergence", "error"
    summary = ("A block-level barrier that not every thread of the block reaches (`__syncthreads()`, and the "
               "cooperative-groups spellings `g.sync()`, `cg::sync(g)`, `sync(g)`, `synchronize(g)`).")
    why = ("`__syncthreads()` must be reached by all threads of the block or by none: under a thread-divergent "
           "condition, in a loop whose trip count differs between threads, or after an early return some threads "
           "took, the block hangs or silently misbehaves.  A bound the launch fixes is judged in the block it "
           "falls in (`i < 5000` splits a warp of block 19 of 32 blocks of 256), and a loop on a value its body "
           "changes is stepped lane by lane (`while (v > 1) v = v & 1 ? 3 * v + 1 : v >> 1;`).  "
           "A loop whose bound or step holds a name nothing in sight declares (a macro of a header the file does not "
           "include) is reported only if its trip count still differs with that name a multiple of the block size: a "
           "padded block-stride loop (`j = threadIdx.x; j < SDIV(n, B) * B; j += B`) runs the same count in every "
           "thread.")
    example = "if (threadIdx.x < 16) { s[threadIdx.x] = v; __syncthreads(); }"
    fix = "Move the barrier out of the divergent branch (guard the work, not the barrier)."
    measured = ('Over all of HeCBench and cuda-samples (default options): 87 findings.  Judged by people who did '
                'not tune the rule (docs/lint-judged.md): seed 2026, 15 of 19 true (6 latent); seed 2027, 15 of '
                '18 (11 latent); seed 2028, 16 of 16 (10 latent).  The false ones of the first two samples, exits '
                'the host makes impossible (shfl_scan\'s `id > len`, cdpBitonicSort launched only when '
                '`len > 1024` with 1,024 threads, aidw\'s bound on a multiple of 1,024) and a `continue` '
                'block-uniform through a shared counter (ss), are silent; see docs/lint.md.  '
                + JUDGED_ON_PUBLIC_CODE)


@rule
class RedundantBarrier(SyncRule):
    code, name, severity = "CP402", "redundant-barrier", "warning"
    summary = ("A block barrier with no memory access to order: right after another barrier, or at the end of "
               "the kernel.  At the top of a loop body, the loop test's reads and the accesses before the loop "
               "count as accesses to order.")
    why = "Every barrier stalls the block until its slowest warp arrives; one that orders nothing only costs time."
    example = "s[t] = v; __syncthreads(); __syncthreads();   // the second orders nothing"
    fix = "Delete it."
    measured = ('2 of 2 findings true on the first 100 files (a `cg::sync` ending the kernel).  '
                + JUDGED_ON_PUBLIC_CODE)


@rule
class AtomicContention(SyncRule):
    code, name, severity = "CP403", "atomic-contention", "warning"
    summary = ("An atomic that every active lane of a warp applies to the same address, in a form the compiler "
               "does not already apply once per warp.  Behind a condition on data the message names it; behind "
               "an equality that picks out few lanes (a tie of two data values, a group leader's "
               "`thread_rank() == 0`) it stays silent.  nvcc reduces 32-bit integer add/sub/min/max/and/or/xor "
               "(result unused) and add (result read) in the warp on sm_80 and later, so those are silent there; "
               "float, 64-bit, inc/dec, exch and CAS forms are not reduced and are reported.")
    why = "Atomics to one address serialise in the L2: a grid-wide counter turns millions of updates into a queue."
    example = "atomicAdd(&sum[0], x[i]);   // float: nvcc issues one atomic per lane"
    fix = "Reduce within the warp (__shfl_down_sync) or block (shared memory) first, then one atomic per warp or block."
    measured = ("Which forms nvcc aggregates was read from the SASS nvcc 13.0 produced for 29 forms on sm_75 to "
                "sm_120 (benchmarks/atomic_aggregation.py, tests/data/h200/atomic_aggregation); those forms are "
                "silent.  Over HeCBench and cuda-samples: 36 findings, not judged as a whole.  Judged samples: seed "
                "2026, 9 of 10 true; seed 2029 (a judge reading SASS on the H200), 12 of 12 true as written, 9 of "
                "them forms the compiler aggregates, which are silent.  Tuned on those corpora, not held out.")


@rule
class SharedRace(SyncRule):
    code, name, severity = "CP404", "shared-race", "error"
    needs = ("races",)
    summary = ("Two warps of a block access the same shared-memory word, one writing, with no barrier between: a "
               "plain store, or an atomic against a plain read (a block's counter read before the barrier after "
               "`atomicAdd(&s_count, c)`), also where the read's index is loaded from data (`s[u - base]` with "
               "`u = nlist[i]`) and other warps write the elements it may name.")
    why = ("Without a barrier, the reader may see the value before or after the write depending on warp "
           "scheduling: results change from run to run.  A tiled loop missing its second __syncthreads() "
           "overwrites the tile while other warps still read it; a persistent loop over vertices whose body "
           "ends without one lets thread 0 reset a shared word others still read.  Atomics order only atomics.")
    example = "s[t] = x; y = s[(t + 32) % 256];   // no __syncthreads() between"
    fix = "Put __syncthreads() between the write and the other threads' accesses (and at the end of tiled loops)."
    measured = ('Under a guessed block a race must also show in blocks of two warps (64, 8x8, 64x1).  Judged by '
                'people who did not tune the rule: seed 2026, 8 of 10 true; seed 2027, 9 of 10 (2 '
                'latent); seed 2028, all 11 findings over HeCBench and cuda-samples, 11 true (2 latent); seed '
                '2029, 10 of 10, 4 of them confirmed by racecheck on the H200.  The false ones of the first two '
                'samples (gerbil\'s one-warp block, its size set by a template argument the host computes) are '
                'silent.  The rule was tuned on each sample after it was judged, so the figures are not held '
                'out.')


@rule
class GlobalRace(SyncRule):
    code, name, severity = "CP405", "global-race", "error"
    needs = ("races",)
    summary = "Different threads write the same global address (or one reads what another writes) without atomics."
    why = ("Plain stores from several threads to one address leave whichever lands last, and a read of an address "
           "another block writes sees either value: nothing orders blocks within a launch.  The result depends on "
           "scheduling, and read-modify-write updates (`out[k] += v`) lose increments.  A scatter through an "
           "index array (`c[idx[t]] += v`) loses them wherever two threads load the same index, so only the data "
           "decide; it is not reported where the host fills the array with a permutation it can see (`h[i] = i`, "
           "`h[i] = n - 1 - i` or `std::iota` before the `cudaMemcpy` to the device array the launch passes).  "
           "Plain stores of one value every thread of the block computes alike do not race inside the block, also "
           "when a helper with several `return`s gives it or a loop updates it, as long as the returns, the "
           "updates and the tests choosing them are block-wide (`*res = l` after `while (l < r) l = "
           "firstFree(...)` in a one-block launch).  Where an atomic became a plain update in graph code: a "
           "read-modify-write at a neighbour's index (`dist[dst] = min(dist[dst], d)`, `sum[dst] += x`) races "
           "between blocks too when every thread of a block pushes the block's value; a hook that stores a label "
           "at an index read from the labels themselves (`label[big] = small`), or a test-and-set at a root found "
           "by following `parent[]` (`if (parent[r] == r) parent[r] = s`), loses updates wherever two threads "
           "meet there.  A store of one value every writer shares after testing it (`level[dst] = iter + 1`) "
           "is left alone: whichever lands, the word holds that value.  An offset nobody gives that shifts an "
           "in-place update's read or write (`A[i] = A[i + offset]`) is judged at 1, 2, 3, 17 and 33 and "
           "reported when the race shows at all of them; pitches and strides are not judged that way.")
    example = "out[blockIdx.x] = partial;   // every thread of the block stores"
    fix = ("Let one thread store (`if (threadIdx.x == 0)`), reduce first, or use atomics; for in-place updates "
           "that read neighbours, write to a second buffer.")
    measured = ('Judged by people who did not tune the rule: seed 2026, 7 of 11 true; seed 2027, 7 of 10; seed '
                '2028, 11 of 14 (3 latent); seed 2029 (judges asked whether the unordered access exists, and to '
                'mark harmless ones benign), all 13 findings over HeCBench and cuda-samples, 13 true: 4 harmless '
                'by their values (lid-driven-cavity x2, hbc, bitcracker) and 2 by a fixpoint loop (graphB+), so 7 '
                'of 13 can change a result.  The false ones of the earlier samples are silent: a `volatile` word '
                'a loop spins on is a hand-off, a bucket search `keys[t] <= k && keys[t + 1] > k` (one side '
                'strict) is a guard one thread passes, a struct copied from an element and stored back writes '
                'only the members it assigned, a scatter through an index array the host fills with a '
                'permutation (fma) writes each element once, and a value every thread of a block computes alike '
                'through a helper with several returns or a loop (gerbil) is block-uniform.  Tuned on these '
                'corpora, not held out.  On tests/sync_heldout (written without the linter): 8 of 12 global '
                'races found before it was tuned on, 12 of 12 since; 0 of its 12 clean twins reported.')


@rule
class ImplicitWarpSync(SyncRule):
    code, name, severity = "CP406", "implicit-warp-sync", "error"
    needs = ("races",)
    summary = ("Lanes of one warp exchange data through shared memory, or update one shared word of their warp's "
               "own slice (`h[warp][bin] += 1`), without __syncwarp().")
    why = ("Since Volta, lanes of a warp are scheduled independently: warp-synchronous code that assumed lockstep "
           "(the unrolled last-warp reduction, `volatile` or not) can read a neighbour's value before it is "
           "written.  compute-sanitizer's racecheck does not report it.")
    example = "if (t < 32) { s[t] += s[t + 16]; s[t] += s[t + 8]; ... }"
    fix = "Put __syncwarp() between the writes and the reads of other lanes, or use __shfl_down_sync."
    measured = ('Over all of HeCBench and cuda-samples (1,286 files, default options): 38 findings, all '
                'read: 37 true (volatile warp scans without __syncwarp in bscan, radixsort and split, '
                "fpdc's scan ordered only by __threadfence_block, dct8x8's transpose through shared "
                "memory, romberg's lane 0 reading its warp's sums), 1 false (segsort's in-place warp "
                'scan, whose reads feed the full-mask shuffles that precede the writes).  These findings were '
                'read while tuning, so the figure is not held out.  Judged by people who did not tune the rule '
                '(seed 2029): 10 of 10 true.')


@rule
class DivergentFullMask(SyncRule):
    code, name, severity = "CP407", "divergent-full-mask", "error"
    summary = "A warp collective with the full mask (`__shfl_sync(0xffffffff, ...)`, `__syncwarp()`) in divergent code."
    why = ("A full mask promises that all 32 lanes reach the call; lanes that took the other side of a "
           "thread-divergent branch never do, which is undefined behaviour: a hang or garbage values.  One "
           "warp split is enough: a bound the launch fixes (`if (i < 5000)` with 5000 a macro) is judged in the "
           "warp it falls in, also in a block the sampler would not otherwise visit.  The CUDA model asks the "
           "mask's non-exited lanes to arrive: lanes that a kernel `return`, a loop the kernel ends with or a "
           "branch it ends with leave out have exited, so a vote or `__syncwarp()` there is fine; a shuffle there "
           "is still reported where a lane whose result is used reads a lane that left (its value is undefined: "
           "`v += __shfl_down_sync(~0, v, 16)` after `if (i >= n) return;`).  A 32-thread tile's `sync()` is "
           "judged like `__syncwarp()`.")
    example = "if (i < n) { v += __shfl_down_sync(0xffffffff, v, 16); }"
    fix = ("Call the collective in converged code (guard the loads, not the shuffle), or pass the mask of the lanes "
           "that take the branch (`__ballot_sync` before it).")
    measured = ('Over all of HeCBench and cuda-samples (1,286 files, default options): 9 findings.  Judged by '
                'people who did not tune the rule (docs/lint-judged.md): seed 2026, 2 of 10 true (a '
                '`threadIdx.y == 0` test splitting warps of 16x16 blocks; a row test over rows of fewer than 32 '
                'lanes, latent); seed 2027, 2 of 2.  The 8 false ones of seed 2026 are silent: full-mask shuffles '
                'after `if (tid >= C) return;` where the host fixes C = 50,257 through two helper calls the host '
                'evaluation does not follow, so C was sized from the bounds check itself (256), and a test of '
                'thread indices alone against a made-up argument, which must also split a block with the argument '
                'at 100,003.  The other 7, read true by the engineer who tuned the rule: bh-cuda\'s '
                'ForceCalculationKernel (`__syncwarp`, `__all_sync` in a grid-stride loop over `nbodies`, which the '
                'host does not round to warps) and jaccard\'s `jaccard_row_sum` (16x4 blocks, two rows per warp, '
                '`row < n` with n odd leaves half a warp out of the full-mask shuffles).  Tuned on these corpora, '
                'so not held out.')
