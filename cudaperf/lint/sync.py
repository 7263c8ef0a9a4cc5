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
    measured = ('Over all of HeCBench and cuda-samples (default options): 102 findings (103 before an argument '
                'the host fixes at the kernel\'s only launch was judged at its value: shfl_scan\'s `id > len`, '
                'never true as launched).  Judged by people who did not tune the rule (seed 2026, '
                'docs/lint-judged.md, drawn before that fix): 15 of 19 true (6 latent); the false ones were '
                'that shfl_scan exit, cdpBitonicSort launched only when `len > 1024` with 1,024 threads, and '
                'a `continue` block-uniform through a shared counter (ss).  '
                + JUDGED_ON_PUBLIC_CODE
                + ('  Round 2 (seed 2027, final commit, fresh judges): 15 of 18 true (11 latent); false: '
                   'cdpBitonicSort (twice) and aidw, exits the host makes impossible.  After that round: the '
                   'launch of cdpBitonicSort is found (in another kernel, in a file including the header that '
                   'declares it: 1,024 threads under `len > 1024`); a bounds test or block-stride loop on a size '
                   'the host makes a multiple of a constant the block width divides (aidw\'s `n = numk * 1024`, '
                   'aop\'s `num_paths *= 1024` through `do_run`) and a test whole warps of a block agree on '
                   '(word2vec\'s one sentence per block, ss\'s `continue` on a shared count and the block\'s '
                   'round) are silent; see docs/lint.md.  102 findings became 87, the 15 removed all false.')
                + ('  Round 3 (seed 2028, fresh judges, after those changes): 16 of 16 true (10 latent).'))


@rule
class RedundantBarrier(SyncRule):
    code, name, severity = "CP402", "redundant-barrier", "warning"
    summary = ("A block barrier with no memory access to order: right after another barrier, or at the end of "
               "the kernel.  At the top of a loop body, the loop test's reads and the accesses before the loop "
               "count as accesses to order.")
    why = "Every barrier stalls the block until its slowest warp arrives; one that orders nothing only costs time."
    example = "s[t] = v; __syncthreads(); __syncthreads();   // the second orders nothing"
    fix = "Delete it."
    measured = ('2 of 2 findings true (a `cg::sync` ending the kernel); before issue 14, 0 of 6 on '
                'the same first 100 files (wmma and cp.async barriers). '
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
                "sm_120 (benchmarks/atomic_aggregation.py, tests/data/h200/atomic_aggregation).  Round 4 (seed "
                "2029, a judge reading SASS on the H200): 12 of 12 true as written, 9 of them forms the compiler "
                "already aggregates; those are silent since, and HeCBench plus cuda-samples went from 173 "
                "findings to 36.  Round 1 (seed 2026): 9 of 10.  Tuned on those corpora, not held out.")


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
    measured = ('Issue 14 part C read every finding on HeCBench and cuda-samples (tuned on, not held '
                'out): 10 of 37 true before (the 27 false: kernels written for narrower blocks than the '
                'guessed 16x16 or 256 threads, a do-while flag tested after its last barrier, a double '
                'buffer swapped through a helper, a one-warp block), 10 of 11 after (the false one: a '
                'block of one warp set by a template argument the host code computes).  Under a guessed '
                'block a race must also show in blocks of two warps (64, 8x8, 64x1).  Re-judged on a '
                'fresh sample (seed 2026, by judges who did not tune it): 8 of 10 true; then (tuned on that '
                'sample) a launching file included by another takes the macros of the outermost one '
                '(BLOCK_SIZE 32 from main.cu), so 13 findings became 12 and 8 of the 9 judged left are true '
                '(the false one: a block size computed from a template argument, one warp for every key '
                'size the program reaches).'
                + ('  Round 2 (seed 2027, final commit, fresh judges): 9 of 10 true (2 latent); false: '
                   "gerbil's one-warp block.")
                + ('  Round 3 (seed 2028, fresh judges): all 11 findings, 11 true (2 latent); gerbil\'s false one '
                   'is gone after this round\'s lowering fixes (struct layouts, includer types).')
                + '  Round 4 (seed 2029, fresh judges): 10 of 10 true, 4 confirmed by racecheck on the H200.')


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
    measured = ('Issue 14 part C read every finding on HeCBench and cuda-samples (tuned on, not held '
                'out): 18 of 38 true before (the 20 false: counters reset then updated through an index '
                'array, barriers inside cub block primitives and macro-qualified helpers, guards one '
                'thread passes, one-block launches through a kernel variable, a helper argument bound to '
                'a comment), 18 of 22 after (the 4 false: a spin-wait handing a word between blocks, a '
                'value every thread computes alike after a loop, a search condition one thread meets '
                'in sorted keys, a struct written back with fields the lowering lost).  Re-judged on a '
                'fresh sample (seed 2026): 7 of 11 true; then (tuned on that sample) a store of the '
                "element's own index (`succ[s] = s`) is no lost update, so 22 findings became 21 and 7 of "
                'the 10 judged left are true (the false ones: a spin-wait handoff, a struct written back, '
                'a search in sorted keys).'
                + ("  Round 2 (seed 2027, final commit, fresh judges): 7 of 10 true; false: fma's scatter "
                   'through an index array the host fills with i (three findings).')
                + ('  Then (tuned on these findings, not held out) a `volatile` word a loop spins on is a '
                   'hand-off, not a race; a bucket search `keys[t] <= k && keys[t + 1] > k` (one side strict) '
                   'is a guard one thread passes; a struct copied from an element and stored back writes only '
                   'the members it assigned (`p[i] = pi` after `pi.acc[0] = a`: readers of `p[j].pos` see no '
                   'change).  21 findings became 18, all read: 13 true (false: fma\'s scatter through an '
                   'index array the host fills with i, four findings; a value every thread of the one block '
                   'computes alike after a loop, in gerbil).  A scatter through an index array the host fills '
                   'with a permutation is then silent (fma): 14 findings.')
                + ('  Round 3 (seed 2028, fresh judges): all 14 findings, 11 true (3 latent); false: gerbil\'s '
                   'same value after a loop, and lid-driven-cavity\'s boundary stores of 0 into cells another '
                   'block reads that only ever hold 0 (a round-2 judge called one of them true, value-benign).')
                + ('  On tests/sync_heldout (written without the linter): 8 of 12 global races at arrival, 12 of 12 '
                   'after a store racing with another block\'s atomics, neighbouring blocks\' ranges and a word '
                   'stored from each block\'s shared memory were handled (tuned on since); 0 of 12 clean twins.')
                + ('  After round 3 (tuned on it): a value every thread of a block computes alike through a '
                   'helper with several returns or a loop stays block-uniform, so gerbil\'s store is silent: 13 '
                   'findings, 11 true by round 3\'s verdicts (85%), 13 if value-benign races count.')
                + ('  Round 4 (seed 2029, fresh judges told to judge whether the unordered access exists and '
                   'to mark harmless ones benign): 13 of 13 true; 4 harmless by their values (lid-driven-cavity '
                   'x2, hbc, bitcracker) and 2 by a fixpoint loop (graphB+), so 7 of 13 can change a result.'))


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
                'scan, whose reads feed the full-mask shuffles that precede the writes).  Before issue '
                '14\'s uniformity fixes 45, with 6 false (lanes storing one cg::reduce result). '
                'These findings were read while tuning, so the figure is not held out.  Round 4 (seed '
                '2029, fresh judges): 10 of 10 true.')


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
    measured = ('Over all of HeCBench and cuda-samples (1,286 files, default options): 2 findings, both '
                'judged true by people who did not tune the rule (docs/lint-judged.md, seed 2026: a '
                '`threadIdx.y == 0` test splitting warps of 16x16 blocks; a row test over rows of fewer than '
                '32 lanes, latent).  The other 8 of that sample were false and are gone: full-mask shuffles '
                'after `if (tid >= C) return;` where the host fixes C = 50,257 through two helper calls the '
                'host evaluation does not follow, so C was sized from the bounds check itself (256); a test '
                'of thread indices alone against a made-up argument must now also split a block with the '
                'argument at 100,003.  Before issue 14\'s uniformity fixes 581, almost all false (lane groups '
                '`gid >> 3` against bin counts rounded to whole warps).  Tuned on these corpora, so not held out.'
                + '  Round 2 (seed 2027, final commit, fresh judges): 2 of 2 true.'
                + ('  Session 15: the dependence levels of loop counters no longer depend on query order, which adds 7 '
                   'findings, read true by the engineer who made the change (tuned on, not held out): bh-cuda\'s '
                   'ForceCalculationKernel (`__syncwarp`, `__all_sync` in a grid-stride loop over `nbodies`, which the '
                   'host does not round to warps) and jaccard\'s `jaccard_row_sum` (16x4 blocks, two rows per '
                   'warp, `row < n` with n odd leaves half a warp out of the full-mask shuffles).'))
