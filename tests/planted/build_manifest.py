#!/usr/bin/env python3
"""Generate manifest.json for the planted-smell set.

Every case names a kernel, its launch (the same one the file's host function makes), the
rules it is expected to trigger (empty for clean twins) and, for planted kernels, the line
of the smell.  Lines are found from code snippets searched inside the named function, so
edits to the .cu files only need a re-run:

    python3 tests/planted/build_manifest.py && python3 tests/planted/check_planted.py

Line conventions (see README.md): a barrier smell is reported on the barrier; a race on the
access that runs without the barrier (alt_lines lists the other side of the race); an
atomic, coalescing or bank-conflict smell on the access; a divergent branch on its `if`;
register-spill and low-occupancy on the kernel's `__global__` line (alt_lines: what holds the
limiting resource).
"""
import json
import os
import re

ROOT = os.path.dirname(os.path.abspath(__file__))
_SRC = {}


def src(file):
    if file not in _SRC:
        with open(os.path.join(ROOT, file)) as fh:
            _SRC[file] = fh.read().split('\n')
    return _SRC[file]


def def_line(file, fn):
    """0-based index of the line that defines function fn (the `(` follows the name)."""
    pat = re.compile(r'\b' + re.escape(fn) + r'\s*\(')
    lines = src(file)
    for i, line in enumerate(lines):
        if pat.search(line) and not line.lstrip().startswith('//') and '<<<' not in line:
            # a definition, not a call: the line (or the next few) starts a function
            head = ' '.join(lines[max(0, i - 1):i + 1])
            if re.search(r'\b(void|int|float|double|bool|unsigned)\b', head):
                return i
    raise ValueError(f'{file}: no definition of {fn}')


def global_line(file, fn):
    """1-based line holding `__global__` for kernel fn."""
    i = def_line(file, fn)
    lines = src(file)
    while '__global__' not in lines[i]:
        i -= 1
    return i + 1


def find(file, fn, snippet, nth=0):
    """1-based line of the nth occurrence of snippet inside function fn."""
    lines = src(file)
    start = def_line(file, fn)
    seen = 0
    depth = 0
    opened = False
    for i in range(start, len(lines)):
        line = lines[i]
        if snippet in line:
            if seen == nth:
                return i + 1
            seen += 1
        depth += line.count('{') - line.count('}')
        if '{' in line:
            opened = True
        if opened and depth <= 0:
            break
    raise ValueError(f'{file}:{fn}: snippet {snippet!r} #{nth} not found')


CASES = []


def case(id, file, kernel, grid, block, args, planted=(), line=None, alt=(), note='',
         twin_of=None, template_args=None, smem=0):
    def dims(v):
        v = list(v) if isinstance(v, (list, tuple)) else [v]
        return v + [1] * (3 - len(v))
    CASES.append({
        'id': id,
        'file': file,
        'kernel': kernel,
        'template_args': template_args,
        'planted': list(planted),
        'twin_of': twin_of,
        'grid': dims(grid),
        'block': dims(block),
        'smem': smem,
        'args': args,
        'line': line,
        'alt_lines': list(alt),
        'note': note,
    })


def pair(file, planted_kernel, twin_kernel, rule, grid, block, args, line, alt=(), note='',
         twin_note='', template_args=None, smem=0, twin_grid=None, twin_block=None, twin_smem=None):
    case(planted_kernel, file, planted_kernel, grid, block, args, [rule], line, alt, note,
         None, template_args, smem)
    case(twin_kernel, file, twin_kernel, twin_grid or grid, twin_block or block, args, [], None, (),
         twin_note, planted_kernel, template_args, smem if twin_smem is None else twin_smem)


# ------------------------------------------------------------------ barrier_divergence.cu
f = 'barrier_divergence.cu'
k = 'mirror_even_lanes_sync_in_branch'
pair(f, k, 'mirror_even_lanes', 'barrier-divergence', 16384, 256, {},
     find(f, k, '__syncthreads();'), [find(f, k, 'if ((t & 1) == 0) {')],
     'barrier inside if ((t & 1) == 0): odd threads of every warp skip it',
     'stores and reads guarded by the parity test, barrier between them reached by all')
k = 'transpose_ragged_early_exit'
pair(f, k, 'transpose_ragged', 'barrier-divergence', [32, 19], [32, 8],
     {'width': 1000, 'height': 600},
     find(f, k, '__syncthreads();'), [find(f, k, 'return;'), find(f, k, 'if (x >= width)')],
     'threads with x >= width (right column of blocks: 1000 is not a multiple of 32) return before the tile barrier',
     'bounds folded into the load guard; every thread reaches the barrier',
     template_args='<double>')
k = 'block_sum_sync_in_guard'
pair(f, k, 'block_sum', 'barrier-divergence', 7813, 128, {'n': 1000000},
     find(f, k, '__syncthreads();', 1), [find(f, k, 'if (t < s) {')],
     'tree reduction with the barrier inside if (t < s); a linter that drops the divergent barrier may also see a race on sbuf',
     'barrier after the if, reached by every thread at every level')
k = 'pair_average_half_guarded'
pair(f, k, 'pair_average_half', 'barrier-divergence', 11719, 256, {'n': 3000000},
     find(f, 'stage_and_sync', '__syncthreads();'),
     [find(f, k, 'stage_and_sync(tile, t, in[i]);'), find(f, k, 'if (i < n) {')],
     'the barrier sits in __device__ stage_and_sync, called under if (i < n); n = 3e6 leaves 64 threads of the last block out. line = the barrier in the helper, alt = call site / condition',
     'helper called unconditionally with a zero for out-of-range threads; only the store is guarded')

# ------------------------------------------------------------------ shared_race.cu
f = 'shared_race.cu'
k = 'reverse_array_nosync'
pair(f, k, 'reverse_array', 'shared-race', 16384, 256, {},
     find(f, k, 'out[dst] = s[SR_BLOCK - 1 - t];'), [find(f, k, 's[t] = in[')],
     'reads s[255 - t], written by another warp, with no barrier after the store',
     'barrier between the store and the mirrored read')
k = 'matmul_tiles_one_barrier'
pair(f, k, 'matmul_tiles', 'shared-race', [64, 64], [16, 16], {'N': 1024},
     find(f, k, 'As[ty][tx] = A['),
     [find(f, k, 'Bs[ty][tx] = B['), find(f, k, 'acc += As[ty][k] * Bs[k][tx];')],
     'tiled k loop without its second barrier: next iteration overwrites As/Bs while other warps still read them (loop-carried write-after-read)',
     'second __syncthreads() at the end of the k loop',
     template_args='<16>')
k = 'column_partial_sums_nosync'
pair(f, k, 'column_partial_sums', 'shared-race', [128, 512], [32, 8], {'width': 4096},
     find(f, k, 'tile[ty][tx] += tile[ty + s][tx];'), [],
     'fold over the 8 tile rows (one warp each) with no barrier between levels: warp ty reads row ty + s written by another warp at the previous level',
     'barrier after each fold level')
k = 'block_scan_half_synced'
pair(f, k, 'block_scan', 'shared-race', 16384, 256, {},
     find(f, k, 'float add = t >= off ? s[t - off] : 0.0f;'), [find(f, k, 's[t] += add;')],
     'Hillis-Steele scan missing the barrier after the in-place update: the next step reads s[t - off] that thread t - off may not have updated yet',
     'barrier after the update as well as before it')

# ------------------------------------------------------------------ redundant_barrier.cu
f = 'redundant_barrier.cu'
k = 'block_max_double_barrier'
pair(f, k, 'block_max', 'redundant-barrier', 16384, 256, {},
     find(f, k, '__syncthreads();', 1), [find(f, k, '__syncthreads();', 0)],
     'two __syncthreads() in a row after staging; the second orders nothing',
     'one staging barrier')
k = 'flip_rows_trailing_barrier'
pair(f, k, 'flip_rows', 'redundant-barrier', [64, 256], [32, 8], {'width': 2048},
     find(f, k, '__syncthreads();', 1), [],
     'barrier as the last statement of the kernel, after the global store',
     'same flip without the closing barrier')
k = 'blend_next_extra_barrier'
pair(f, k, 'blend_next', 'redundant-barrier', 32768, 128, {'alpha': 0.25},
     find(f, k, '__syncthreads();', 1), [find(f, k, '__syncthreads();', 0)],
     'second barrier follows the first with only register arithmetic between',
     'single barrier between the shared store and the neighbour read',
     template_args='<float, 128>')
k = 'block_flags_trailing_barrier'
pair(f, k, 'block_flags', 'redundant-barrier', 19532, 256, {'n': 5000000},
     find(f, k, '__syncthreads();', 1), [],
     'barrier at the end of the kernel after thread 0 writes the block result',
     'same reduction without the closing barrier')

# ------------------------------------------------------------------ atomic_contention.cu
f = 'atomic_contention.cu'
k = 'dot_atomic_per_element'
pair(f, k, 'dot_block_reduce', 'atomic-contention', 1024, 256, {'n': 16777216},
     find(f, k, 'atomicAdd(result, a[i] * b[i]);'), [],
     'grid-stride dot product, every thread atomicAdds each product to result[0]',
     'register accumulation, warp shuffle, shared per-warp sums, one atomicAdd per block')
k = 'relu_sum_atomic'
pair(f, k, 'relu_sum_warp', 'atomic-contention', 3907, 256, {'n': 1000000},
     find(f, k, 'atomicAdd(total, v);'), [],
     'float atomicAdd of every positive entry to one address (data-dependent subset of lanes, all on the same word)',
     'clamp to zero, warp shuffle sum, lane 0 adds the warp total')
k = 'frobenius_sq_atomic'
pair(f, k, 'frobenius_sq_block', 'atomic-contention', [64, 256], [32, 8], {'width': 2048, 'height': 2048},
     find(f, k, 'atomicAdd(norm2, v * v);'), [],
     'double atomicAdd of every squared element to one address, 2-D blocks',
     'double warp shuffle, per-row (warp) sums in shared, one atomicAdd per block')
k = 'moments_atomic'
pair(f, k, 'moments_block', 'atomic-contention', 23438, 128, {'n': 3000000},
     find(f, k, 'atomicAdd(&m->sum, v);'), [find(f, k, 'atomicAdd(&m->sum_sq, v * v);')],
     'double atomicAdds of every element and its square into the two fields of one global struct',
     'double warp shuffles, per-warp partials in shared, thread 0 does the two atomics per block',
     template_args='<128>')

# ------------------------------------------------------------------ divergent_branch.cu
f = 'divergent_branch.cu'
k = 'poly_pair_by_parity'
pair(f, k, 'poly_pair_by_warp', 'divergent-branch', 32768, 256, {},
     find(f, k, 'if (t & 1) {'), [],
     'odd/even threads evaluate two different polynomial loops on two arrays; every warp runs both',
     'same split by warp index (warp & 1); each warp reads 32 consecutive elements of one array')
k = 'cmac_split_half_warps'
pair(f, k, 'cmac_split_warps', 'divergent-branch', 8192, 256, {'n': 1048576},
     find(f, k, 'if (lane < 16) {'), [],
     'lanes 0-15 compute real parts, 16-31 imaginary parts (plane loop, 4 loads per step on each side)',
     'warps 0-3 real parts, warps 4-7 imaginary parts of the same 128 elements')
k = 'bayer_tone_branchy'
pair(f, k, 'bayer_tone_select', 'divergent-branch', [128, 512], [32, 8],
     {'width': 4096, 'gain_g': 1.8, 'gain_rb': 1.2},
     find(f, k, 'if ((x + y) & 1) {'), [],
     'checkerboard (green vs red/blue Bayer sites) alternates lanes; both sides run an 8-step tone loop',
     'branch-free: gain and curve constants selected per site, one loop')
k = 'series_by_lane_mod4'
pair(f, k, 'series_by_warp_mod4', 'divergent-branch', 16384, 256, {},
     find(f, k, 'if (r == 0)'), [find(f, k, 'else if (r == 1)'), find(f, k, 'else if (r == 2)')],
     'four-way if/else-if on threadIdx.x & 3, each side a series loop in a __device__ template helper',
     'series chosen by warp & 3; lanes of a warp agree',
     template_args='<12>')

# ------------------------------------------------------------------ uncoalesced_access.cu
f = 'uncoalesced_access.cu'
k = 'downsample_thread_per_output'
pair(f, k, 'downsample_warp_per_output', 'uncoalesced-access', 1024, 256, {'n_out': 262144},
     find(f, k, 's += in[o * DS_FACTOR + k];'), [],
     'each thread averages its own 32 consecutive floats: lanes 128 B apart, 32 sectors per request',
     'one warp per output, lane k reads element k (128 contiguous bytes), shuffle sum',
     twin_grid=32768)
k = 'row_sums_thread_per_row'
pair(f, k, 'row_sums_warp_per_row', 'uncoalesced-access', 64, 128, {'rows': 8192, 'cols': 1024},
     find(f, k, 's += A[(size_t)r * cols + c];'), [],
     'thread per row of a row-major double matrix: lanes cols * 8 = 8 KB apart',
     'warp per row, lanes stride along the row, shuffle sum',
     twin_grid=2048)
k = 'push_particles_aos'
pair(f, k, 'push_particles_soa', 'uncoalesced-access', 4096, 256,
     {'ex': 0.0, 'ey': 0.0, 'ez': 1.0, 'dt': 0.001, 'n': 1048576},
     find(f, k, 'float qm = p[i].charge / p[i].mass;'),
     [find(f, k, 'float vx = p[i].vx'), find(f, k, 'p[i].vx = vx;'), find(f, k, 'p[i].x += vx * dt;')],
     'field-by-field access to an array of 32-byte Particle structs: each request touches 32 sectors for 128 useful bytes',
     'structure of arrays, one pointer per field')
k = 'transpose_direct'
pair(f, k, 'transpose_tiled', 'uncoalesced-access', [128, 64], [32, 8], {'width': 4096, 'height': 2048},
     find(f, k, 'out[x * height + y + j] = in[(y + j) * width + x];'), [],
     'naive transpose: the store out[x * height + ...] puts lanes height ints apart',
     'transpose through a [32][33] shared tile; both global sides row-contiguous',
     template_args='<int>')

# ------------------------------------------------------------------ bank_conflict.cu
f = 'bank_conflict.cu'
k = 'gemv_tile_unpadded'
pair(f, k, 'gemv_tile_padded', 'bank-conflict', 256, [32, 8], {'n_cols': 4096},
     find(f, k, 'acc += tile[tx][k] * x[c0 + k];'), [],
     'tile[32][32] read as tile[tx][k]: all lanes in bank k, 32-way',
     'tile[32][33]: lane tx in bank (tx + k) % 32')
k = 'segment_scan_flat'
pair(f, k, 'segment_scan_padded', 'bank-conflict', 1024, 128, {},
     find(f, k, 'run += seg[t * SEG + k];'), [find(f, k, 'seg[t * SEG + k] = run;')],
     'per-thread scan of seg[t * 32 + k]: lanes 32 words apart, 32-way on the load and the store',
     'seg[128][33] layout; staging writes a row per warp, the scan reads seg[t][k] in 32 distinct banks')
k = 'transpose_tile_unpadded'
pair(f, k, 'transpose_tile_padded', 'bank-conflict', [64, 32], [32, 8], {'rows': 1024, 'cols': 2048},
     find(f, k, 'out[(oy + j) * rows + ox] = tile[threadIdx.x][threadIdx.y + j];'), [],
     'double tile[32][32] read by column: 16 lanes of each half-warp phase hit the same two banks',
     'double tile[32][33]: per half-warp the 16 lanes cover all 32 banks',
     template_args='<double>')
k = 'qk_scores_unpadded'
pair(f, k, 'qk_scores_padded', 'bank-conflict', [64, 64], [32, 8], {'nk': 2048, 'd': 128, 'scale': 0.088388},
     find(f, k, 'float kv = Ks[tx][kk];'), [],
     'Q K^T tile product: Ks[tx][kk] on a [32][32] tile, 32-way (Qs reads are broadcasts)',
     'Ks padded to [32][33]')

# ------------------------------------------------------------------ register_spill.cu
f = 'register_spill.cu'
k = 'sort32_columns_capped'
pair(f, k, 'sort32_columns', 'register-spill', 1024, 256, {'n': 262144},
     global_line(f, k), [],
     '__launch_bounds__(256, 8) caps at 32 registers; 32 live floats of a bitonic network spill (ptxas: 148 B stores / 148 B loads)',
     '__launch_bounds__(256): 48 registers, no spill, 62.5% occupancy')
k = 'wht16_double_capped'
pair(f, k, 'wht16_double', 'register-spill', 4096, 256, {'n': 1048576},
     global_line(f, k), [],
     '__maxnreg__(32) on a 16-double Walsh-Hadamard transform held in registers (ptxas: 80 B stores / 88 B loads)',
     'no register cap: 48 registers, no spill')
k = 'knn2d_capped'
pair(f, k, 'knn2d', 'register-spill', 256, 256, {'m': 4096, 'nq': 65536},
     global_line(f, k), [],
     '__launch_bounds__(1024, 2) -> 32 registers for 16 best distances + 16 indices (ptxas: 240 B stores / 224 B loads); launched with 256 threads',
     '__launch_bounds__(256): 48 registers, no spill',
     template_args='<16>')

# ------------------------------------------------------------------ low_occupancy.cu
f = 'low_occupancy.cu'
k = 'l2_normalize_rows_smem'
pair(f, k, 'l2_normalize_rows_regs', 'low-occupancy', 4096, 128, {'eps': 1e-12},
     global_line(f, k), [find(f, k, '__shared__ float row[NR_ROW];')],
     '32784 B static shared per 128-thread block: 6 blocks/SM = 24 warps = 37.5% (limiter: shared memory)',
     '512 threads per row, 16 values per thread in registers (32 regs, 64 B shared): 100%',
     twin_block=512)
k = 'poly96_coeffs_in_registers'
pair(f, k, 'poly96_coeffs_constant', 'low-occupancy', 1056, 256, {'n': 16777216},
     global_line(f, k), [find(f, k, 'float c[PC_TERMS];')],
     '96 hoisted coefficients: ptxas 106 registers x 256 threads -> 2 blocks/SM = 16 warps = 25% (limiter: registers)',
     'coefficients in __constant__ memory, FFMA constant operands: 16 registers, 100%')
k = 'softmax_rows_smem'
pair(f, k, 'softmax_rows_online', 'low-occupancy', 2048, 256, {'cols': 16384},
     global_line(f, k), [find(f, k, 'extern __shared__ float row[];')],
     'row cache of 16384 floats = 65536 B dynamic shared (launch smem) per 256-thread block: 3 blocks/SM = 37.5% (limiter: shared memory)',
     'online softmax, two global passes, 64 B shared: 100%',
     smem=65536, twin_smem=0)
k = 'transpose64_one_warp'
pair(f, k, 'transpose64_eight_warps', 'low-occupancy', [64, 64], 32, {'n': 4096},
     global_line(f, k), [find(f, k, '__shared__ float tile[T64][T64 + 1];')],
     'single-warp (32-thread) blocks with a 16640 B tile: 13 blocks/SM = 13 warps = 20.3% (limiter: shared memory, made fatal by the tiny block)',
     '32 x 8 threads on the same tile: 8 blocks/SM = 100%',
     twin_block=[32, 8])


def main():
    ids = [c['id'] for c in CASES]
    assert len(ids) == len(set(ids)), 'duplicate ids'
    with open(os.path.join(ROOT, 'manifest.json'), 'w') as fh:
        json.dump(CASES, fh, indent=1)
        fh.write('\n')
    planted = [c for c in CASES if c['planted']]
    print(f'{len(CASES)} cases: {len(planted)} planted, {len(CASES) - len(planted)} clean twins')


if __name__ == '__main__':
    main()
