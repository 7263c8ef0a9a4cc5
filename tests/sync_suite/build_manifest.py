#!/usr/bin/env python3
"""Write tests/sync_suite/manifest.json from the case table below (CPU only).

    python3 tests/sync_suite/build_manifest.py [--check] [--compile]

Each case names a kernel of one of the .cu files here, its author label
(buggy|clean), its kind (shared-race, global-race, intra-warp-race,
barrier-divergence, or clean), a launch and its buffers.  The bug line of a buggy
case is the line marked `// BUG` between the end of the previous kernel and the end
of this one (so a marked line in a __device__ helper just above the kernel counts);
clean kernels must have no such marker.  The provenance is the first sentence of the
comment above the kernel unless the table gives one.  The "sanitizer" field of an
existing manifest is kept (label_from_logs.py fills it from the H200 logs).

--check only verifies (markers, buffers vs. pointer parameters, args vs. scalar
parameters, dtypes) and writes nothing; --compile also compiles every file for sm_90
with nvcc, instantiating the templates the table names.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, '..', 'corpus'))
import measure_h200 as mh  # noqa: E402  (CPU-only helpers: kernel and parameter parsing)

MANIFEST = os.path.join(HERE, 'manifest.json')
KINDS = ('shared-race', 'global-race', 'intra-warp-race', 'barrier-divergence', 'clean')
DTYPES = ('float32', 'int32')


def buf(count, dtype='float32', init='random'):
    return {'dtype': dtype, 'count': count, 'init': init}


def f32(count, init='random'):
    return buf(count, 'float32', init)


def i32(count, init='random'):
    return buf(count, 'int32', init)


def zf(count):
    return f32(count, 'zeros')


def zi(count):
    return i32(count, 'zeros')


def L(grid, block, smem=0):
    g = list(grid) + [1] * (3 - len(grid))
    b = list(block) + [1] * (3 - len(block))
    return {'grid': g, 'block': b, 'smem': smem}


IO512 = {'in': f32(512), 'out': zf(512)}
IO1024 = {'in': f32(1024), 'out': zf(1024)}
MATMUL = {'A': f32(4096), 'B': f32(4096), 'C': zf(4096)}

# (kernel, label, kind, launch, args, buffers[, extra])   -- file given per block
CASES = {
    'shared_races.cu': [
        ('sr_rotate_nobarrier', 'buggy', 'shared-race', L([4], [128]), {}, IO512),
        ('sr_rotate_barrier', 'clean', 'clean', L([4], [128]), {}, IO512),
        ('sr_matmul_missing_second_barrier', 'buggy', 'shared-race', L([4, 4], [16, 16]), {'n': 64}, MATMUL),
        ('sr_matmul_missing_first_barrier', 'buggy', 'shared-race', L([4, 4], [16, 16]), {'n': 64}, MATMUL),
        ('sr_matmul_two_barriers', 'clean', 'clean', L([4, 4], [16, 16]), {'n': 64}, MATMUL),
        ('sr_ww_same_word', 'buggy', 'shared-race', L([4], [128]), {}, IO512),
        ('sr_single_writer', 'clean', 'clean', L([4], [128]), {}, IO512),
        ('sr_reduce_missing_barrier', 'buggy', 'shared-race', L([4], [256]), {}, {'in': f32(1024), 'out': zf(4)}),
        ('sr_reduce_barrier_after_loop', 'buggy', 'shared-race', L([4], [256]), {}, {'in': f32(1024), 'out': zf(4)}),
        ('sr_reduce_tree', 'clean', 'clean', L([4], [256]), {}, {'in': f32(1024), 'out': zf(4)}),
        ('sr_reduce_interleaved', 'clean', 'clean', L([4], [256]), {}, {'in': f32(1024), 'out': zf(4)}),
        ('sr_jacobi_one_barrier', 'buggy', 'shared-race', L([4], [128]), {'iters': 4}, IO512),
        ('sr_jacobi_two_barriers', 'clean', 'clean', L([4], [128]), {'iters': 4}, IO512),
        ('sr_transpose_nobarrier', 'buggy', 'shared-race', L([2, 2], [32, 8]), {'width': 64},
         {'in': f32(4096), 'out': zf(4096)}),
        ('sr_transpose_barrier', 'clean', 'clean', L([2, 2], [32, 8]), {'width': 64},
         {'in': f32(4096), 'out': zf(4096)}),
        ('sr_stencil_halo_nobarrier', 'buggy', 'shared-race', L([4], [128]), {}, {'in': f32(518), 'out': zf(512)}),
        ('sr_stencil_halo_barrier', 'clean', 'clean', L([4], [128]), {}, {'in': f32(518), 'out': zf(512)}),
        ('sr_scan_inplace_one_barrier', 'buggy', 'shared-race', L([4], [128]), {}, {'in': i32(512), 'out': zi(512)}),
        ('sr_scan_two_barriers', 'clean', 'clean', L([4], [128]), {}, {'in': i32(512), 'out': zi(512)}),
        ('sr_reverse_dynamic_nobarrier', 'buggy', 'shared-race', L([4], [128], 512), {}, {'d': i32(512, 'arange')}),
        ('sr_reverse_dynamic_barrier', 'clean', 'clean', L([4], [128], 512), {}, {'d': i32(512, 'arange')}),
        ('sr_reverse_tpl_nobarrier', 'buggy', 'shared-race', L([4], [256]), {}, {'d': f32(1024)}, {'template_args': '<256>'}),
        ('sr_reverse_tpl_barrier', 'clean', 'clean', L([4], [256]), {}, {'d': f32(1024)}, {'template_args': '<256>'}),
        ('sr_histogram_nonatomic', 'buggy', 'shared-race', L([4], [128]), {}, {'keys': i32(512), 'hist': zi(16)}),
        ('sr_histogram_atomic', 'clean', 'clean', L([4], [128]), {}, {'keys': i32(512), 'hist': zi(16)}),
        ('sr_broadcast_nobarrier', 'buggy', 'shared-race', L([4], [128]), {},
         {'in': f32(512), 'scale': f32(4), 'out': zf(512)}),
        ('sr_broadcast_barrier', 'clean', 'clean', L([4], [128]), {},
         {'in': f32(512), 'scale': f32(4), 'out': zf(512)}),
        ('sr_war_overwrite', 'buggy', 'shared-race', L([4], [128]), {}, IO512),
        ('sr_war_separated', 'clean', 'clean', L([4], [128]), {}, IO512),
        ('sr_2d_neighbour_nobarrier', 'buggy', 'shared-race', L([2, 2], [16, 16]), {'width': 32}, IO1024),
        ('sr_2d_neighbour_barrier', 'clean', 'clean', L([2, 2], [16, 16]), {'width': 32}, IO1024),
        ('sr_double_buffer_same_slot', 'buggy', 'shared-race', L([4], [128]), {'ntiles': 4},
         {'in': f32(2048), 'out': zf(512)}),
        ('sr_double_buffer_pingpong', 'clean', 'clean', L([4], [128]), {'ntiles': 4},
         {'in': f32(2048), 'out': zf(512)}),
        ('sr_helper_nobarrier', 'buggy', 'shared-race', L([4], [128]), {}, IO512,
         {'provenance': 'GPUVerify races/fail (interprocedural): shared store in a __device__ helper, '
                        'read of another thread\'s word in the kernel, no barrier.'}),
        ('sr_helper_barrier', 'clean', 'clean', L([4], [128]), {}, IO512,
         {'provenance': 'GPUVerify pass (interprocedural twin): the helper ends with the barrier.'}),
    ],
    'global_races.cu': [
        ('gr_out_blockidx', 'buggy', 'global-race', L([4], [128]), {}, {'in': f32(512), 'out': zf(4)}),
        ('gc_out_blockidx_one_writer', 'clean', 'clean', L([4], [128]), {}, {'in': f32(512), 'out': zf(4)}),
        ('gr_out_half', 'buggy', 'global-race', L([4], [128]), {}, {'in': f32(512), 'out': zf(256)}),
        ('gc_pairwise', 'clean', 'clean', L([2], [128]), {}, {'in': f32(512), 'out': zf(256)}),
        ('gr_max_nonatomic', 'buggy', 'global-race', L([4], [128]), {}, {'keys': i32(512), 'out': zi(1)}),
        ('gc_max_atomic', 'clean', 'clean', L([4], [128]), {}, {'keys': i32(512), 'out': zi(1)}),
        ('gr_inplace_shift', 'buggy', 'global-race', L([4], [128]), {'n': 512}, {'data': f32(513)}),
        ('gc_shift_out_of_place', 'clean', 'clean', L([4], [128]), {'n': 512}, {'in': f32(513), 'out': zf(512)}),
        ('gr_histogram_global_nonatomic', 'buggy', 'global-race', L([4], [128]), {'n': 500},
         {'keys': i32(512), 'hist': zi(16)}),
        ('gc_histogram_global_atomic', 'clean', 'clean', L([4], [128]), {'n': 500},
         {'keys': i32(512), 'hist': zi(16)}),
        ('gr_sum_nonatomic', 'buggy', 'global-race', L([4], [128]), {}, {'in': f32(512), 'sum': zf(1)}),
        ('gc_sum_atomic', 'clean', 'clean', L([4], [128]), {}, {'in': f32(512), 'sum': zf(1)}),
        ('gr_inplace_stencil', 'buggy', 'global-race', L([4], [128]), {'n': 512}, {'a': f32(512)}),
        ('gc_stencil_out_of_place', 'clean', 'clean', L([4], [128]), {'n': 512}, {'a': f32(512), 'b': zf(512)}),
        ('gr_modulo_index', 'buggy', 'global-race', L([4], [128]), {}, {'in': f32(512), 'out': zf(64)}),
        ('gc_modulo_atomic', 'clean', 'clean', L([4], [128]), {}, {'in': f32(512), 'out': zf(64)}),
        ('gr_row_collapse_2d', 'buggy', 'global-race', L([2, 4], [32, 4]), {'width': 64},
         {'in': f32(1024), 'out': zf(16)}),
        ('gc_row_sum_one_thread', 'clean', 'clean', L([1], [32]), {'width': 64, 'height': 16},
         {'in': f32(1024), 'out': zf(16)}),
        ('gr_cross_block_carry', 'buggy', 'global-race', L([4], [128]), {},
         {'in': f32(512), 'partial': zf(4), 'out': zf(512)}),
        ('gc_own_block_partial', 'clean', 'clean', L([4], [128]), {},
         {'in': f32(512), 'partial': zf(4), 'out': zf(512)}),
        ('gr_loop_same_row', 'buggy', 'global-race', L([2], [64]), {'cols': 8}, {'in': f32(1024), 'out': zf(16)}),
        ('gc_loop_own_row', 'clean', 'clean', L([2], [64]), {'cols': 8}, {'in': f32(1024), 'out': zf(1024)}),
        ('gr_reverse_inplace', 'buggy', 'global-race', L([4], [128]), {'n': 512}, {'d': f32(512)}),
    ],
    'warp_sync.cu': [
        ('iw_reduce_last_warp_plain', 'buggy', 'intra-warp-race', L([4], [256]), {}, {'in': f32(1024), 'out': zf(4)}),
        ('iw_reduce_last_warp_volatile', 'buggy', 'intra-warp-race', L([4], [256]), {},
         {'in': f32(1024), 'out': zf(4)}),
        ('wc_reduce_last_warp_syncwarp', 'clean', 'clean', L([4], [256]), {}, {'in': f32(1024), 'out': zf(4)}),
        ('wc_reduce_shfl', 'clean', 'clean', L([4], [256]), {}, {'in': f32(1024), 'out': zf(4)}),
        ('iw_warp_scan_nosync', 'buggy', 'intra-warp-race', L([4], [256]), {}, {'in': i32(1024), 'out': zi(1024)}),
        ('wc_warp_scan_syncwarp', 'clean', 'clean', L([4], [256]), {}, {'in': i32(1024), 'out': zi(1024)}),
        ('wc_warp_scan_shfl', 'clean', 'clean', L([4], [256]), {}, {'in': i32(1024), 'out': zi(1024)}),
        ('iw_lane0_broadcast_nosync', 'buggy', 'intra-warp-race', L([4], [256]), {}, IO1024),
        ('wc_lane0_broadcast_syncwarp', 'clean', 'clean', L([4], [256]), {}, IO1024),
        ('iw_warp_reverse_nosync', 'buggy', 'intra-warp-race', L([4], [256]), {}, IO1024),
        ('wc_warp_reverse_syncwarp', 'clean', 'clean', L([4], [256]), {}, IO1024),
        ('iw_warp_slot_ww', 'buggy', 'intra-warp-race', L([4], [256]), {}, IO1024),
        ('wc_ballot_count', 'clean', 'clean', L([4], [256]), {}, {'in': f32(1024), 'count': zi(1)}),
        ('wc_shfl_half_warp_mask', 'clean', 'clean', L([4], [256]), {}, IO1024),
        ('wc_shfl_xor_allreduce', 'clean', 'clean', L([4], [256]), {}, IO1024),
        ('iw_warp_init_then_set', 'buggy', 'intra-warp-race', L([4], [256]), {}, IO1024),
    ],
    'barriers.cu': [
        ('bd_sync_in_tid_branch', 'buggy', 'barrier-divergence', L([4], [128]), {}, IO512),
        ('bc_sync_outside_tid_branch', 'clean', 'clean', L([4], [128]), {}, IO512),
        ('bd_early_return', 'buggy', 'barrier-divergence', L([4], [128]), {'n': 500}, IO512),
        ('bc_guarded_no_return', 'clean', 'clean', L([4], [128]), {'n': 500}, IO512),
        ('bc_block_uniform_return', 'clean', 'clean', L([5], [128]), {'n': 500}, IO512),
        ('bd_tid_trip_count', 'buggy', 'barrier-divergence', L([4], [128]), {}, IO512),
        ('bc_arg_trip_count', 'clean', 'clean', L([4], [128]), {'iters': 4}, IO512),
        ('bd_data_dependent', 'buggy', 'barrier-divergence', L([4], [128]), {}, IO512),
        ('bd_if_else_two_barriers', 'buggy', 'barrier-divergence', L([4], [128]), {}, IO512),
        ('bc_if_else_hoisted', 'clean', 'clean', L([4], [128]), {}, IO512),
        ('bd_helper_barrier', 'buggy', 'barrier-divergence', L([4], [128]), {}, IO512,
         {'provenance': 'GPUVerify barrier-divergence/fail (interprocedural): the barrier is inside a '
                        '__device__ helper that only threads 0-31 call.'}),
        ('bc_helper_barrier_uniform', 'clean', 'clean', L([4], [128]), {}, IO512,
         {'provenance': 'GPUVerify pass (interprocedural twin): every thread calls the helper that '
                        'holds the barrier.'}),
        ('bd_loop_break', 'buggy', 'barrier-divergence', L([4], [128]), {}, IO512),
        ('bc_loop_break_uniform', 'clean', 'clean', L([4], [128]), {}, IO512),
        ('bd_grid_stride_barrier', 'buggy', 'barrier-divergence', L([2], [128]), {'n': 1000},
         {'in': f32(1000), 'out': zf(1000)}),
        ('bc_grid_stride_uniform', 'clean', 'clean', L([2], [128]), {'n': 1000},
         {'in': f32(1000), 'out': zf(1000)}),
        ('bc_block_uniform_branch', 'clean', 'clean', L([4], [128]), {}, IO512),
        ('bc_arg_condition', 'clean', 'clean', L([4], [128]), {'reverse': 1}, IO512),
        ('bd_syncwarp_divergent', 'buggy', 'barrier-divergence', L([4], [128]), {}, IO512),
        ('bc_syncwarp_uniform', 'clean', 'clean', L([4], [128]), {}, IO512),
        ('bd_shfl_full_mask_divergent', 'buggy', 'barrier-divergence', L([4], [128]), {}, IO512),
        ('bc_shfl_full_mask_uniform', 'clean', 'clean', L([4], [128]), {}, IO512),
        ('bd_ballot_divergent', 'buggy', 'barrier-divergence', L([4], [128]), {}, {'in': f32(512), 'count': zi(1)}),
        ('bd_lane0_barrier', 'buggy', 'barrier-divergence', L([4], [128]), {}, IO512),
        ('bc_nested_uniform_loops', 'clean', 'clean', L([4], [128]), {'outer': 3, 'inner': 2}, IO512),
        ('bd_sync_in_warp_branch', 'buggy', 'barrier-divergence', L([4], [128]), {}, IO512),
    ],
    'pass_kernels.cu': [
        ('pc_blelloch_scan', 'clean', 'clean', L([4], [128]), {}, {'in': i32(1024), 'out': zi(1024)}),
        ('sr_blelloch_downsweep_nobarrier', 'buggy', 'shared-race', L([4], [128]), {},
         {'in': i32(1024), 'out': zi(1024)}),
        ('pc_bitonic_sort', 'clean', 'clean', L([4], [128]), {}, {'d': f32(512)}),
        ('sr_bitonic_barrier_per_phase', 'buggy', 'shared-race', L([4], [128]), {}, {'d': f32(512)}),
        ('pc_conv2d_halo', 'clean', 'clean', L([2, 2], [16, 16]), {'width': 32, 'height': 32}, IO1024),
        ('sr_conv2d_halo_nobarrier', 'buggy', 'shared-race', L([2, 2], [16, 16]), {'width': 32, 'height': 32},
         IO1024),
        ('pc_block_compact', 'clean', 'clean', L([4], [128]), {},
         {'in': f32(512), 'out': zf(512), 'counts': zi(4)}),
        ('sr_block_compact_nobarrier', 'buggy', 'shared-race', L([4], [128]), {},
         {'in': f32(512), 'out': zf(512), 'counts': zi(4)}),
        ('pc_matmul_dynamic_tpl', 'clean', 'clean', L([4, 4], [16, 16], 2048), {'n': 64}, MATMUL,
         {'template_args': '<16>'}),
        ('pc_matvec_shared_x', 'clean', 'clean', L([2], [128]), {'n': 256},
         {'A': f32(65536), 'x': f32(256), 'y': zf(256)}),
        ('pc_3d_block_transpose', 'clean', 'clean', L([2], [8, 8, 4]), {}, IO512),
        ('pc_lookup_table', 'clean', 'clean', L([4], [128]), {},
         {'keys': i32(512), 'table': f32(16), 'out': zf(512)}),
        ('pc_grid_stride_saxpy', 'clean', 'clean', L([2], [128]), {'a': 2.0, 'n': 1000},
         {'x': f32(1000), 'y': f32(1000)}),
        ('pc_strided_disjoint', 'clean', 'clean', L([2], [128]), {'stride': 4}, {'in': f32(256), 'out': zf(1024)}),
        ('pc_odd_even_sort', 'clean', 'clean', L([4], [64]), {}, {'d': i32(512)}),
        ('sr_odd_even_sort_nobarrier', 'buggy', 'shared-race', L([4], [64]), {}, {'d': i32(512)}),
        ('sr_matvec_missing_second_barrier', 'buggy', 'shared-race', L([2], [128]), {'n': 256},
         {'A': f32(65536), 'x': f32(256), 'y': zf(256)}),
    ],
}


def _kernel_spans(src):
    """[(name, start, body_end)] of every __global__ kernel, in file order (comments blanked)."""
    # Blank comments without moving offsets (mh._strip_comments drops // comments).
    clean = re.sub(r'//[^\n]*|/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), src, flags=re.S)
    spans = []
    for m in re.finditer(r'__global__\s+void\s+([A-Za-z_]\w*)\s*\(', clean):
        name = m.group(1)
        k = clean.index('{', m.end())
        depth, e = 1, k + 1
        while depth and e < len(clean):
            depth += {'{': 1, '}': -1}.get(clean[e], 0)
            e += 1
        spans.append((name, m.start(), e))
    return spans


def _line_of(src, offset):
    return src.count('\n', 0, offset) + 1


def _provenance(src, start):
    """First sentence of the // comment block directly above offset `start`
    (skipping a `template <...>` line)."""
    lines = src[:start].split('\n')[:-1]
    while lines and (lines[-1].strip().startswith('template') or not lines[-1].strip()):
        if not lines[-1].strip() and len(lines) > 1 and not lines[-2].strip().startswith('//'):
            break
        lines.pop()
    block = []
    while lines and lines[-1].strip().startswith('//'):
        block.insert(0, lines.pop().strip()[2:].strip())
    text = ' '.join(block)
    m = re.match(r'(.+?\.)(\s|$)', text)
    return (m.group(1) if m else text) if text else None


def build(check_only=False):
    old = {}
    if os.path.exists(MANIFEST):
        with open(MANIFEST) as fh:
            old = {c['id']: c for c in json.load(fh)}
    cases, errors, seen = [], [], set()
    for rel, table in CASES.items():
        with open(os.path.join(HERE, rel)) as fh:
            src = fh.read()
        spans = _kernel_spans(src)
        by_name = {n: (k, s, e) for k, (n, s, e) in enumerate(spans)}
        listed = {row[0] for row in table}
        for n, _, _ in spans:
            if n not in listed:
                errors.append('%s: kernel %s has no case' % (rel, n))
        for row in table:
            kernel, label, kind, launch, args, buffers = row[:6]
            extra = row[6] if len(row) > 6 else {}
            cid = kernel
            if cid in seen:
                errors.append('duplicate id %s' % cid)
            seen.add(cid)
            if kernel not in by_name:
                errors.append('%s: kernel %s not found' % (rel, kernel))
                continue
            k, start, end = by_name[kernel]
            region_start = spans[k - 1][2] if k > 0 else 0
            marks = [_line_of(src, region_start + m.start())
                     for m in re.finditer(r'//\s*BUG\s*$', src[region_start:end], re.M)]
            if label not in ('buggy', 'clean') or kind not in KINDS or (label == 'clean') != (kind == 'clean'):
                errors.append('%s: bad label/kind %s/%s' % (cid, label, kind))
            if label == 'buggy' and len(marks) != 1:
                errors.append('%s: buggy case needs exactly one // BUG marker, found %d' % (cid, len(marks)))
            if label == 'clean' and marks:
                errors.append('%s: clean case has a // BUG marker at line %s' % (cid, marks))
            params = mh.kernel_params(src, kernel)
            ptrs = {p for p, _, is_ptr in params if is_ptr}
            scalars = {p: t for p, t, is_ptr in params if not is_ptr}
            if set(buffers) != ptrs:
                errors.append('%s: buffers %s != pointer params %s' % (cid, sorted(buffers), sorted(ptrs)))
            if set(args) != set(scalars):
                errors.append('%s: args %s != scalar params %s' % (cid, sorted(args), sorted(scalars)))
            for p, t in scalars.items():
                mh.scalar_dtype_name(t)
            for b in buffers.values():
                if b['dtype'] not in DTYPES or b['init'] not in ('random', 'zeros', 'arange'):
                    errors.append('%s: bad buffer spec %s' % (cid, b))
            prov = extra.get('provenance') or _provenance(src, start)
            if not prov:
                errors.append('%s: no provenance comment' % cid)
            case = {
                'id': cid, 'file': rel, 'kernel': kernel,
                'template_args': extra.get('template_args'),
                'label': label, 'kind': kind,
                'line': marks[0] if label == 'buggy' and marks else None,
                'grid': launch['grid'], 'block': launch['block'], 'smem': launch['smem'],
                'args': args, 'buffers': buffers, 'provenance': prov,
                'sanitizer': (old.get(cid) or {}).get('sanitizer'),
            }
            cases.append(case)
    return cases, errors


def compile_all(cases):
    nvcc = shutil.which('nvcc')
    if not nvcc:
        print('nvcc not found; skipping compilation')
        return []
    errors = []
    by_file = {}
    for c in cases:
        by_file.setdefault(c['file'], []).append(c)
    with tempfile.TemporaryDirectory() as tmp:
        for rel, cs in by_file.items():
            inst = ['(void*)&%s%s' % (c['kernel'], c['template_args']) for c in cs if c['template_args']]
            tu = os.path.join(tmp, 'tu_' + rel)
            with open(tu, 'w') as fh:
                fh.write('#include "%s"\n' % os.path.join(HERE, rel))
                if inst:
                    fh.write('void* sync_suite_instances[] = {%s};\n' % ', '.join(inst))
            r = subprocess.run([nvcc, '-arch=sm_90', '-std=c++17', '-cubin', '-o', os.devnull, tu],
                               capture_output=True, text=True)
            status = 'ok' if r.returncode == 0 else 'FAILED'
            print('[nvcc] %-18s %s' % (rel, status))
            if r.returncode:
                errors.append('%s: nvcc failed:\n%s' % (rel, r.stderr))
    return errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--check', action='store_true', help='verify only, write nothing')
    ap.add_argument('--compile', action='store_true', help='also compile every file with nvcc -arch=sm_90')
    a = ap.parse_args()
    cases, errors = build()
    if a.compile:
        errors += compile_all(cases)
    for e in errors:
        print('ERROR:', e)
    counts = {}
    for c in cases:
        counts[c['kind']] = counts.get(c['kind'], 0) + 1
    print('%d cases: %s' % (len(cases), ', '.join('%s %d' % kv for kv in sorted(counts.items()))))
    if errors:
        return 1
    if not a.check:
        with open(MANIFEST, 'w') as fh:
            json.dump(cases, fh, indent=1)
            fh.write('\n')
        print('wrote', os.path.relpath(MANIFEST))
    return 0


if __name__ == '__main__':
    sys.exit(main())
