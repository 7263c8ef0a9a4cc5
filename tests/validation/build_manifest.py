#!/usr/bin/env python3
"""Generate manifest.json for the held-out-style validation set.

Same case format as tests/corpus/manifest.json (see tests/corpus/README.md for
the conventions), for kernels written in styles the calibration corpus does not
use. Expected ratios are only given where they were worked out by hand (exact
fractions, or, for irregular index maps, a small numpy enumeration of every
warp-level request that mirrors the source line by line); everything else is
null and comes from the H200 measurement in tests/data/h200/validation/.

    python3 tests/validation/build_manifest.py
    python3 tests/corpus/check_manifest.py --manifest tests/validation/manifest.json

Buffers that the expected values depend on (random index arrays, row lengths)
are regenerated here with the generator of tests/corpus/measure_h200.py (numpy
default_rng seeded with crc32(case id) + 7919 * (parameter index + 1)), so the
gather expectations are exact for the data the GPU sees, not expected values.
"""
import os
import sys
import zlib
from fractions import Fraction as Fr

import numpy as np

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, '..', 'corpus'))
import measure_h200 as mh  # noqa: E402  (CPU-only helpers)
from manifest_tools import ManifestBuilder, buf  # noqa: E402

BUILDER = ManifestBuilder(ROOT, '\\b{fn}\\s*\\(', skip_comments=True)
CASES, case, find_line, src_lines = BUILDER.cases, BUILDER.case, BUILDER.find_line, BUILDER.src_lines


# ---------------------------------------------------------------- helpers for the hand derivations

def warp_sectors(addr, active):
    """addr, active: (nwarps, 32) arrays of byte addresses (naturally aligned accesses of <= 16 B)
    and lane masks of one warp-level instruction. Returns (sectors, requests) summed over warps
    that have at least one active lane (fully guarded-off warps issue no request)."""
    s = np.where(active, addr // 32, -1)
    s.sort(axis=1)
    distinct = 1 + (np.diff(s, axis=1) != 0).sum(axis=1) - (s[:, 0] == -1)
    req = active.any(axis=1)
    return int(distinct[req].sum()), int(req.sum())


def ratio(parts):
    sec = sum(p[0] for p in parts)
    req = sum(p[1] for p in parts)
    return Fr(sec, req) if req else None


def case_buffer(case_id, file, kernel, param, spec):
    """The host buffer measure_h200.py will create for `param` of this case."""
    with open(os.path.join(ROOT, 'kernels', file)) as fh:
        params = mh.kernel_params(fh.read(), kernel)
    k = [p[0] for p in params].index(param)
    return mh.make_host_buffer(np, spec, zlib.crc32(case_id.encode()) + 7919 * (k + 1))


def distinct_sectors_of_lanes(byte_addr, elem_bytes=4):
    """Distinct sectors per full warp for a flat array of per-thread byte addresses."""
    a = np.asarray(byte_addr, dtype=np.int64).reshape(-1, 32)
    return warp_sectors(a, np.ones_like(a, dtype=bool))


def tail_ratio(n, elem_bytes, full_sectors):
    """n consecutive elements from an aligned base, one warp request per 32 elements."""
    full, rem = divmod(n, 32)
    sec = full * full_sectors + (-(-rem * elem_bytes // 32) if rem else 0)
    return Fr(sec, full + (1 if rem else 0))


F16, F32, F64, I16, I32, I64, U8, U32 = 'float16', 'float32', 'float64', 'int16', 'int32', 'int64', 'uint8', 'uint32'
M = 1 << 20

# ======================================================================= access1d.cu
f = 'access1d.cu'

n = 1000001
r = tail_ratio(n, 4, 4)
case('saxpy_sizet_tail', f, 'saxpy_sizet', [7813], [128], {'a': 0.5, 'n': n},
     {'x': buf(F32, n), 'y': buf(F32, n)}, r, r,
     acc=[(None, '__ldg(x + i)', 'x', 'load', 'coalesced', r),
          (None, 'y[i] = fmaf(a, __ldg(x + i), y[i]);', 'y', 'load', 'coalesced', r),
          (None, 'y[i] = fmaf(a, __ldg(x + i), y[i]);', 'y', 'store', 'coalesced', r)],
     br=[(None, 'if (i >= n)', 'thread')],
     deriv='size_t index, early return. n = 1000001 = 31250*32 + 1: 31250 full warps (128 B, 4 sectors) and one warp with a single live lane (1 sector); the last warp of block 7812 is fully guarded off. (31250*4 + 1)/31251 for x, y loads and the y store.')

for s in (3, 6):
    sec = 4 * s
    case('pair_sum_stride%d' % s, f, 'pair_sum_strided', [4096], [256], {'n': M, 'stride': s},
         {'in': buf(F32, M * s), 'out': buf(F32, M, 'zeros')}, sec, 4,
         acc=[(None, 'out[tid] = p[0] + p[1];', 'in', 'load', 'strided', sec),
              (None, 'out[tid] = p[0] + p[1];', 'out', 'store', 'coalesced', 4)],
         br=[(None, 'if (tid < n)', 'thread')],
         deriv='p = in + tid*%d: lanes %d B apart, a warp spans %d B (%d sectors, base 128-B aligned) and, with gaps < 32 B, touches every one of them, for p[0] and for p[1] (4 B further; still %d sectors). The two loads cannot merge into LDG.64: p is only known to be 4-B aligned. Store contiguous -> 4.'
         % (s, 4 * s, 128 * s, sec, sec))

for sh_, st_, pat in ((3, 5, 'misaligned'), (8, 4, 'coalesced')):
    case('shifted_store_%d' % sh_, f, 'shifted_store', [4096], [256], {'n': M, 'shift': sh_},
         {'src': buf(F32, M), 'dst': buf(F32, M + sh_, 'zeros')}, 4, st_,
         acc=[(None, 'dst[tid] = 2.0f * src[tid];', 'src', 'load', 'coalesced', 4),
              (None, 'dst[tid] = 2.0f * src[tid];', 'dst', 'store', pat, st_)],
         br=[(None, 'if (tid < n)', 'thread')],
         deriv='dst += shift (%d floats = %d B) before the guarded store: each warp writes bytes %d..%d past a 128-B boundary -> %d sectors; src load aligned -> 4.'
         % (sh_, 4 * sh_, 4 * sh_, 4 * sh_ + 127, st_))

n = 3000017
# Compiled loop: trip count t = 44 or 45 per thread, the t % 4 leftover iterations run
# first (prologue), then 4x unrolled. See the derivation.
r = Fr(93750 * 8 + 5 + 44, 93751)
case('scale_while_double_tail', f, 'scale_while', [264], [256], {'s': 1.5, 'n': n},
     {'in': buf(F64, n), 'out': buf(F64, n, 'zeros')}, r, r,
     acc=[(None, 'out[i] = s * in[i];', 'in', 'load', 'coalesced', r),
          (None, 'out[i] = s * in[i];', 'out', 'store', 'coalesced', r)],
     deriv='while-loop grid stride of 264*256 = 67584 (a multiple of 32). Rolled-loop model: every aligned 32-element chunk is one warp request; n = 3000017 = 93750*32 + 17 gives 93750 chunks of 256 B (8 sectors) + one of 17 doubles (136 B, 5 sectors) = 750005/93751 = 7.999968. The SASS (sm_90, nvcc/NVRTC 13.0) computes each thread\'s trip count (44 or 45; threads 0..26320 of the grid have 45), runs the count %% 4 leftover iterations first and then a 4x unrolled loop. In the one warp that straddles the boundary (threads 26304..26335) lanes 0-16 do their first iteration alone (5 sectors) and then stay one grid step ahead of lanes 17-31: each of the 44 unrolled-loop requests of that warp covers bytes 0..135 of one chunk and 136..255 of the previous one -> 5 + 4 = 9 sectors. Requests unchanged (93751), sectors 750005 + 44 = 750049 -> 8.000437 for load and store (ncu: exactly 750049/93751). Expect this whenever lanes of a warp have trip counts that differ mod the unroll factor.')

case('accumulate_dowhile', f, 'accumulate_dowhile', [1024], [256], {'n': 1 << 18, 'reps': 8},
     {'in': buf(F32, 8 << 18), 'out': buf(F32, 1 << 18, 'zeros')}, 4, 4,
     acc=[(None, 'acc += in[(size_t)r * n + i];', 'in', 'load', 'coalesced', 4),
          (None, 'out[i] = acc;', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i >= n) return;', 'thread')],
     deriv='do/while over 8 planes of 2^18 floats; each plane read contiguously (plane starts are 1 MiB apart) -> 4 sectors per load request, 4 per store.')

case('add_warp_bias', f, 'add_warp_bias', [4096], [256], {'n': M},
     {'in': buf(F32, M), 'bias': buf(F32, M // 32), 'out': buf(F32, M, 'zeros')}, Fr(5, 2), 4,
     acc=[(None, 'out[tid] = in[tid] + __ldg', 'in', 'load', 'coalesced', 4),
          (None, '__ldg(&bias[global_warp_id()])', 'bias', 'load', 'broadcast', 1),
          (None, 'out[tid] = in[tid] + __ldg', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (tid >= n) return;', 'thread')],
     deriv='bias[global thread id >> 5] is one word per warp (helper global_warp_id(), __ldg) -> 1 sector; in[tid] -> 4. (4 + 1)/2 = 2.5 per load request; store 4.')

R, LD = 1024, 1024
ld_sec = ld_req = 0
for r_ in range(R):
    full, rem = divmod(r_ + 1, 32)
    ld_sec += 4 * full + ((rem + 7) // 8 if rem else 0)
    ld_req += full + (1 if rem else 0)
ld_tri = Fr(ld_sec + R, ld_req + R)      # + the diagonal load by thread 0
st_tri = Fr(R * (4 * 4 + 1), R * (4 + 1))
case('triangular_rowsum', f, 'triangular_rowsum', [R], [128], {'ld': LD},
     {'A': buf(F32, R * LD), 'partial': buf(F32, R * 128, 'zeros'), 'diag': buf(F32, R, 'zeros')},
     ld_tri, st_tri,
     acc=[(None, 's += row[c];', 'A', 'load', 'coalesced', None),
          (None, 'diag[r] = row[r];', 'A', 'load', 'broadcast', 1),
          (None, 'partial[r * blockDim.x + threadIdx.x] = s;', 'partial', 'store', 'coalesced', 4),
          (None, 'diag[r] = row[r];', 'diag', 'store', 'broadcast', 1)],
     br=[(None, 'if (threadIdx.x == 0)', 'thread')],
     deriv='Block r reads row r, columns 0..r (trip count depends on blockIdx.x). Each aligned 32-column chunk of [0, r] is one request: full chunks 4 sectors, the last chunk of m columns ceil(m/8) sectors (rows are 4 KiB, aligned). Summed over r = 0..1023 plus one 1-sector diagonal load per block: %d/%d = %.6f (rolled-loop model: lanes of one warp differ by at most one iteration, which can regroup requests if the compiler unrolls by 4). Stores: 4 warps x 4 sectors + 1-sector diag store per block -> 17/5 = 3.4.'
     % ((ld_sec + R), (ld_req + R), float(ld_tri)))

# ======================================================================= packed_types.cu
f = 'packed_types.cu'

n4 = 500007
r = Fr(15625 * 16 + 4, 15626)
case('int4_xor_tail', f, 'copy_int4_xor', [1954], [256], {'n4': n4, 'key': 0x5a5a},
     {'src': buf(I32, 4 * n4), 'dst': buf(I32, 4 * n4, 'zeros')}, r, r,
     acc=[(None, 'int4 v = reinterpret_cast<const int4*>(src)[i];', 'src', 'load', 'coalesced', r),
          (None, 'reinterpret_cast<int4*>(dst)[i] = v;', 'dst', 'store', 'coalesced', r)],
     br=[(None, 'if (i < n4)', 'thread')],
     deriv='int* viewed as int4*: 16 B per lane, 512 B per full warp = 16 sectors. n4 = 500007 = 15625*32 + 7: the last live warp moves 112 B = 4 sectors. (15625*16 + 4)/15626 for load and store.')

case('short2_swap', f, 'swap_short2', [4096], [512], {'n': 2 * M},
     {'in': buf(I16, 4 * M), 'out': buf(I16, 4 * M, 'zeros')}, 4, 4,
     acc=[(None, 'const short2 v = in[i];', 'in', 'load', 'coalesced', 4),
          (None, 'out[i] = make_short2(v.y, v.x);', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='short2 = 4 B per lane, 128 B per warp -> 4 sectors for load and store.')

case('uchar4_to_float4', f, 'uchar4_to_float4', [4096], [256], {'npix': M},
     {'pix': buf(U8, 4 * M), 'out': buf(F32, 4 * M, 'zeros')}, 4, 16,
     acc=[(None, 'const uchar4 p = pix[i];', 'pix', 'load', 'coalesced', 4),
          (None, 'out[i] = make_float4(', 'out', 'store', 'coalesced', 16)],
     br=[(None, 'if (i >= npix) return;', 'thread')],
     deriv='uchar4 load: 4 B per lane -> 4 sectors; float4 store: 16 B per lane, 512 B per warp -> 16 sectors.')

case('half2_pick_even', f, 'half2_pick_even', [4096], [256], {'npairs': M},
     {'x': buf(F16, 4 * M), 'y': buf(F16, 2 * M, 'zeros')}, 8, 4,
     acc=[(None, 'y[i] = __hmul2(x2[2 * i]', 'x', 'load', 'strided', 8),
          (None, 'y[i] = __hmul2(x2[2 * i]', 'y', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < npairs)', 'thread')],
     deriv='__half* viewed as __half2*, element 2*i: 4-B accesses 8 B apart, 256 B per warp -> 8 sectors (half of each used); half2 store contiguous -> 4.')

case('complex_mul_f2', f, 'complex_mul_f2', [4096], [256], {'ncomplex': M},
     {'a': buf(F32, 2 * M), 'b': buf(F32, 2 * M), 'c': buf(F32, 2 * M, 'zeros')}, 8, 8,
     acc=[(None, 'const float2 u = reinterpret_cast<const float2*>(a)[i];', 'a', 'load', 'coalesced', 8),
          (None, 'const float2 v = reinterpret_cast<const float2*>(b)[i];', 'b', 'load', 'coalesced', 8),
          (None, 'reinterpret_cast<float2*>(c)[i] = make_float2', 'c', 'store', 'coalesced', 8)],
     br=[(None, 'if (i < ncomplex)', 'thread')],
     deriv='float* viewed as float2*: 8 B per lane, 256 B per warp -> 8 sectors for both loads and the store.')

case('float4_every_other', f, 'float4_every_other', [2048], [256], {'n': M // 2},
     {'in': buf(F32, 4 * M), 'out': buf(F32, 2 * M, 'zeros')}, 32, 16,
     acc=[(None, 'float4 v = in[2 * i];', 'in', 'load', 'strided', 32),
          (None, 'out[i] = make_float4(v.w, v.z, v.y, v.x);', 'out', 'store', 'coalesced', 16)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='in[2*i] of float4: 16-B accesses 32 B apart -> every lane its own sector, 32 per load request; float4 store contiguous -> 16.')

case('particle_step_align8', f, 'particle_step', [4096], [256], {'dt': 0.01, 'n': M},
     {'ps': buf(F32, 2 * M)}, 8, 8,
     acc=[(None, 'Particle p = ps[i];', 'ps', 'load', 'coalesced', 8),
          (None, 'ps[i] = p;', 'ps', 'store', 'coalesced', 8)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='__align__(8) struct of two floats: one LDG.64 / STG.64 per lane, 256 B per warp -> 8 sectors. (Split into 4-B accesses, each would still touch the same 8 sectors.)')

case('edge_scale_w_aos12', f, 'edge_scale_w', [4096], [256], {'s': 0.5, 'nedges': M},
     {'edges': buf(I32, 3 * M)}, 12, 12,
     acc=[(None, 'edges[e].w = s * edges[e].w;', 'edges', 'load', 'strided', 12),
          (None, 'edges[e].w = s * edges[e].w;', 'edges', 'store', 'strided', 12)],
     br=[(None, 'if (e < nedges)', 'thread')],
     deriv='12-B struct {int src, dst; float w}: .w at 12*e + 8; a warp spans 384 B (128-B aligned), gaps 12 B < 32 -> all 12 sectors touched, for the load and the store of .w.')

case('quad_sum_aos16_align4', f, 'quad_sum', [4096], [256], {'n': M},
     {'q': buf(F32, 4 * M), 'out': buf(F32, M, 'zeros')}, 16, 4,
     acc=[(None, 'p->a', 'q', 'load', 'strided', 16),
          (None, 'p->b', 'q', 'load', 'strided', 16),
          (None, 'p->c', 'q', 'load', 'strided', 16),
          (None, 'p->d', 'q', 'load', 'strided', 16),
          (None, 'out[i] = p->a', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='struct Quad {float a,b,c,d} has 4-B alignment, so no LDG.128: four LDG.32 with lanes 16 B apart, each spanning 512 B = 16 sectors -> 16 per load request; store 4.')

case('sample_weighted_aos24', f, 'sample_weighted', [4096], [256], {'n': M},
     {'s': buf(F64, 3 * M), 'out': buf(F64, M, 'zeros')}, 24, 8,
     acc=[(None, 's[i].t', 's', 'load', 'strided', 24),
          (None, 's[i].w', 's', 'load', 'strided', 24),
          (None, 's[i].v', 's', 'load', 'strided', 24),
          (None, 'out[i] = s[i].t', 'out', 'store', 'coalesced', 8)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='24-B struct {double t; float v; int flags; double w}: fields at 24*i + 0/8/16; a warp spans 768 B = 24 sectors (base 256-B aligned), gaps < 32 B -> 24 sectors per load of t, v and w (no 16-B vector: 8-B alignment). double store -> 8.')

case('kv_split_align8', f, 'kv_split', [4096], [256], {'n': M},
     {'kv': buf(I32, 2 * M), 'keys': buf(I32, M, 'zeros'), 'vals': buf(F32, M, 'zeros')}, 8, 4,
     acc=[(None, 'const KeyVal e = kv[i];', 'kv', 'load', 'coalesced', 8),
          (None, 'keys[i] = e.key;', 'keys', 'store', 'coalesced', 4),
          (None, 'vals[i] = e.val;', 'vals', 'store', 'coalesced', 4)],
     br=[(None, 'if (i >= n) return;', 'thread')],
     deriv='__align__(8) {int key; float val}: one 8-B load per lane, 256 B per warp -> 8 sectors; two contiguous 4-B stores -> 4 each.')

# ======================================================================= grids.cu
f = 'grids.cu'
SC = "out[IDX(r, c, pitch)] = s * in[IDX(r, c, pitch)];"


def scale2d(cid, block, grid, rows, cols, pitch, ld, pat, deriv):
    case(cid, f, 'scale2d_pitch', grid, block,
         {'rows': rows, 'cols': cols, 'pitch': pitch, 's': 2.0},
         {'in': buf(F32, rows * pitch), 'out': buf(F32, rows * pitch, 'zeros')}, ld, ld,
         acc=[(None, SC, 'in', 'load', pat, ld), (None, SC, 'out', 'store', pat, ld)],
         br=[(None, 'if (r < rows && c < cols)', 'thread')], deriv=deriv)


scale2d('scale2d_8x8', [8, 8], [128, 128], 1024, 1024, 1024, 4, 'coalesced',
        '8x8 blocks: a warp is 4 rows x 8 columns = 4 x 32 B, each 32-B aligned -> 4 sectors per request (the minimum for 128 B).')
scale2d('scale2d_4x32', [4, 32], [256, 32], 1024, 1024, 1024, 8, 'strided',
        'blockDim.x = 4: a warp is 8 rows x 16 B; each 16-B piece sits in its own sector -> 8 sectors per request for 128 B.')
scale2d('scale2d_2x128', [2, 128], [512, 8], 1024, 1024, 1024, 16, 'strided',
        'blockDim.x = 2: a warp is 16 rows x 8 B -> 16 sectors per request.')
scale2d('scale2d_32x4_ragged', [32, 4], [32, 256], 1024, 1000, 1024, Fr(125, 32), 'coalesced',
        'cols = 1000 < pitch = 1024: per row 31 full warps (4 sectors) and one warp with 8 live lanes (columns 992..999, 32 B, 1 sector) -> 125/32 = 3.90625.')
# pitch 1030: row starts move by 4120 B = 24 mod 32
rows_, cols_, pitch_ = 1024, 1024, 1030
bx, by, w, l = np.meshgrid(np.arange(64), np.arange(64), np.arange(8), np.arange(32), indexing='ij')
addr = (4 * ((by * 16 + 2 * w + l // 16) * pitch_ + bx * 16 + l % 16)).reshape(-1, 32)
ld_p = ratio([warp_sectors(addr, np.ones_like(addr, dtype=bool))])
scale2d('scale2d_16x16_pitch1030', [16, 16], [64, 64], rows_, cols_, pitch_, ld_p, 'misaligned',
        '16x16 blocks, pitch 1030 floats = 4120 B (= 24 mod 32): a warp is 2 rows x 64 B whose start is 0, 24, 16, 8 B past a sector for row mod 4 = 0..3 -> 2 or 3 sectors per row; warps cover rows (4k, 4k+1): 2+3, rows (4k+2, 4k+3): 3+3 -> mean %s = %.4f per request.'
        % (ld_p, float(ld_p)))

CA = 'Y[i + (size_t)j * ldy] += alpha * X[i + (size_t)j * ldx];'
case('colmajor_axpy_16x16', f, 'colmajor_axpy', [64, 64], [16, 16],
     {'m': 1024, 'n': 1024, 'ldx': 1024, 'ldy': 1024, 'alpha': 0.5},
     {'X': buf(F32, 1024 * 1024), 'Y': buf(F32, 1024 * 1024)}, 4, 4,
     acc=[(None, CA, 'X', 'load', 'coalesced', 4), (None, CA, 'Y', 'load', 'coalesced', 4),
          (None, CA, 'Y', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < m && j < n)', 'thread')],
     deriv='Column-major with x over rows: a 16x16 warp is 2 columns x 16 consecutive rows = 2 x 64 B (aligned) -> 4 sectors for X, Y loads and the Y store.')
r = Fr(62 * 4 + 2, 63)
case('colmajor_axpy_ragged', f, 'colmajor_axpy', [63, 64], [16, 16],
     {'m': 1000, 'n': 1024, 'ldx': 1000, 'ldy': 1000, 'alpha': 0.5},
     {'X': buf(F32, 1000 * 1024), 'Y': buf(F32, 1000 * 1024)}, r, r,
     acc=[(None, CA, 'X', 'load', 'coalesced', r), (None, CA, 'Y', 'load', 'coalesced', r),
          (None, CA, 'Y', 'store', 'coalesced', r)],
     br=[(None, 'if (i < m && j < n)', 'thread')],
     deriv='m = ld = 1000 (columns 4000 B apart, 32-B aligned): 62 row blocks give 2 x 64 B = 4 sectors per warp; the last (rows 992..1007) has 8 live rows per column = 2 x 32 B = 2 sectors. (62*4 + 2)/63 = 3.968254 for every access.')

CW = 'out[IDX(r, c, pitch)] = in[IDX(r, c, pitch)] + 1.0f;'
case('rowmajor_column_walk_16x16', f, 'rowmajor_column_walk', [64, 64], [16, 16],
     {'rows': 1024, 'cols': 1024, 'pitch': 1024},
     {'in': buf(F32, M), 'out': buf(F32, M, 'zeros')}, 16, 16,
     acc=[(None, CW, 'in', 'load', 'strided', 16), (None, CW, 'out', 'store', 'strided', 16)],
     br=[(None, 'if (r < rows && c < cols)', 'thread')],
     deriv='x walks rows of a row-major matrix: a 16x16 warp is 16 rows x 2 adjacent columns (c = 2k, 2k+1, same sector) -> 16 sectors per request for 128 B.')

AD = 'c[idx] = a[idx] + b[idx];'
case('add3d_8x8x4', f, 'add3d', [16, 16, 32], [8, 8, 4], {'nx': 128, 'ny': 128, 'nz': 128},
     {'a': buf(F32, 128 ** 3), 'b': buf(F32, 128 ** 3), 'c': buf(F32, 128 ** 3, 'zeros')}, 4, 4,
     acc=[(None, AD, 'a', 'load', 'coalesced', 4), (None, AD, 'b', 'load', 'coalesced', 4),
          (None, AD, 'c', 'store', 'coalesced', 4)],
     br=[(None, 'if (x >= nx || y >= ny || z >= nz)', 'thread')],
     deriv='(8,8,4) blocks: a warp is 4 rows (y) x 8 floats of one z-plane, each 32 B aligned -> 4 sectors per request.')

nx, ny, nz = 97, 128, 64
rows3 = np.arange(ny * nz, dtype=np.int64)
parts = []
for xb in range(4):
    lane = np.arange(32)
    x = xb * 32 + lane
    addr = 4 * (rows3[:, None] * nx + x[None, :])
    act = np.broadcast_to(x[None, :] < nx, addr.shape)
    parts.append(warp_sectors(addr, act))
r3 = ratio(parts)
case('add3d_32x2x2_nx97', f, 'add3d', [4, 64, 32], [32, 2, 2], {'nx': nx, 'ny': ny, 'nz': nz},
     {'a': buf(F32, nx * ny * nz), 'b': buf(F32, nx * ny * nz), 'c': buf(F32, nx * ny * nz, 'zeros')}, r3, r3,
     acc=[(None, AD, 'a', 'load', 'misaligned', r3), (None, AD, 'b', 'load', 'misaligned', r3),
          (None, AD, 'c', 'store', 'misaligned', r3)],
     br=[(None, 'if (x >= nx || y >= ny || z >= nz)', 'thread')],
     deriv='(32,2,2) blocks on a 97 x 128 x 64 volume: each warp is one x-row segment; rows are 388 B apart (4 mod 32), so 7 of 8 rows start off a sector boundary: per row 3 warps of 4 or 5 sectors and a 1-lane warp (1 sector). Enumerated over all 8192 rows: %d sectors / %d requests = %.6f.'
     % (sum(p[0] for p in parts), sum(p[1] for p in parts), float(r3)))

RB = 'float v = in[IDX(y, x, width)];'
RS = 'out[IDX(y, x, width)] = v;'
for cid, blk, grd, uni, why in (
        ('rowband_32x8', [32, 8], [32, 128], 'warp', 'blockDim.x = 32: threadIdx.y is constant across a warp'),
        ('rowband_16x16', [16, 16], [64, 64], 'thread', 'blockDim.x = 16: a warp holds threadIdx.y = 2k and 2k+1')):
    case(cid, f, 'rowband_branch', grd, blk, {'width': 1024},
         {'in': buf(F32, M), 'out': buf(F32, M, 'zeros')}, 4, 4,
         acc=[(None, RB, 'in', 'load', 'coalesced', 4), (None, RS, 'out', 'store', 'coalesced', 4)],
         br=[(None, 'if (threadIdx.y & 1)', uni)],
         deriv='Row-major 1024x1024, %s blocks -> 4 sectors per load and store (a warp is 1 row x 128 B or 2 rows x 64 B). `threadIdx.y & 1`: %s -> %s.'
         % ('x'.join(map(str, blk)), why, uni))

case('edge_rows_block_grid', f, 'edge_rows', [32, 128], [32, 8], {'width': 1024, 'mode': 1},
     {'in': buf(F32, M), 'out': buf(F32, M, 'zeros')}, 4, 4,
     acc=[(None, RB, 'in', 'load', 'coalesced', 4), (None, RS, 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (blockIdx.y == 0 || blockIdx.y == gridDim.y - 1)', 'block'),
         (None, 'if (mode == 1)', 'grid')],
     deriv='Contiguous 32-wide rows -> 4 sectors per load and store. The border test uses only blockIdx/gridDim (block-uniform); mode is a kernel argument (grid-uniform).')

# ======================================================================= tiles_stencils.cu
f = 'tiles_stencils.cu'
for pad, sld, sst in ((0, 8, 1), (1, 2, 2)):
    case('transpose16_pad%d' % pad, f, 'transpose16', [64, 128], [16, 16], {'rows': 2048, 'cols': 1024},
         {'src': buf(F32, 2048 * 1024), 'dst': buf(F32, 2048 * 1024, 'zeros')}, 4, 4, sld, sst,
         targs='<%d>' % pad,
         acc=[(None, 'tile[ty][tx] = src[(size_t)r * cols + c];', 'src', 'load', 'coalesced', 4),
              (None, 'dst[(size_t)orow * rows + oc] = tile[tx][ty];', 'dst', 'store', 'coalesced', 4)],
         sh=[(None, 'tile[ty][tx] = src', 'tile', 'store', sst),
             (None, '= tile[tx][ty];', 'tile', 'load', sld)],
         deriv=('16x16 tile, PAD = %d. Global: a warp is 2 rows x 64 B on both sides -> 4 sectors. ' % pad) + (
             'Store tile[ty][tx]: words 16*ty + tx for ty = 2k, 2k+1 are 32 consecutive words -> 1 wavefront. Load tile[tx][ty]: words 16*tx + ty fall in 4 banks (ty, ty+16, ty+1, ty+17) with 8 distinct words each -> 8 wavefronts.'
             if pad == 0 else
             'Row length 17: store words 17*ty + tx for ty = 2k, 2k+1 cover offsets 0..15 and 17..32 from 34k, and offset 32 hits the bank of offset 0 -> 2 wavefronts; load words 17*tx + ty likewise collide once (tx=0,ty=2k vs tx=15,ty=2k+1: words 2k and 256+2k) -> 2 wavefronts. TILE+1 padding is not conflict-free for 16-wide tiles with a 2-row warp.'))

case('transpose32_dyn_pad1', f, 'transpose32_dyn', [32, 64], [32, 32], {'rows': 2048, 'cols': 1024},
     {'in': buf(F32, 2048 * 1024), 'out': buf(F32, 2048 * 1024, 'zeros')}, 4, 4, 1, 1, smem=32 * 33 * 4,
     acc=[(None, '= in[y * cols + x];', 'in', 'load', 'coalesced', 4),
          (None, 'out[y * rows + x] = smem', 'out', 'store', 'coalesced', 4)],
     sh=[(None, 'smem[threadIdx.y * ld + threadIdx.x] = in', 'smem', 'store', 1),
         (None, '= smem[threadIdx.x * ld + threadIdx.y];', 'smem', 'load', 1)],
     deriv='32x32 threads, one element each, extern shared tile with ld = 33: store row-wise (1 wavefront), load column-wise words 33*tx + ty -> banks (tx + ty) mod 32 all distinct -> 1 wavefront. Global 128 B per warp row on both sides -> 4 sectors.')

ld_st7 = Fr(8 * 5 + 2 * 1, 8 + 2)
case('stencil7_smem_halo', f, 'stencil7_smem', [4096], [256], {'n': M},
     {'in': buf(F32, M + 6), 'out': buf(F32, M, 'zeros')}, ld_st7, 4, 1, 1, targs='<256>',
     acc=[(None, 's[l] = in[g + RAD];', 'in', 'load', 'misaligned', 5),
          (None, 's[l - RAD] = in[g];', 'in', 'load', 'coalesced', 1),
          (None, 's[l + BLOCK] = in[g + RAD + BLOCK];', 'in', 'load', 'misaligned', 1),
          (None, 'out[g] = acc', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (threadIdx.x < RAD)', 'thread'), (None, 'if (g < n)', 'thread')],
     sh=[(None, 's[l] = in[g + RAD];', 's', 'store', 1), (None, 'acc += s[l + k];', 's', 'load', 1)],
     deriv='Body load in[g+3]: 128 B starting 12 B past a sector -> 5 sectors (8 warps per block). Halo loads only in warp 0 (3 live lanes): in[g] 12 B aligned -> 1 sector; in[g+259] at byte 1036 = 12 mod 32 -> 1 sector. Per block (8*5 + 2)/10 = 4.2. Store 4. Shared: all stores and the 7 unrolled loads s[l+k] are consecutive words -> 1 wavefront (halo stores: 3 lanes, 1 wavefront).')

# jacobi: enumerate every warp
nxj = nyj = 1024
pj = nxj + 2
bx, by, w, l = np.meshgrid(np.arange(64), np.arange(64), np.arange(8), np.arange(32), indexing='ij')
tx = l % 16
ty = 2 * w + l // 16
gx = bx * 16 + tx + 1
gy = by * 16 + ty + 1
shp = (-1, 32)
main_addr = (4 * (gy * pj + gx)).reshape(shp)
allon = np.ones_like(main_addr, dtype=bool)
jl = [warp_sectors(main_addr, allon),
      warp_sectors((4 * (gy * pj + gx - 1)).reshape(shp), (tx == 0).reshape(shp)),
      warp_sectors((4 * (gy * pj + gx + 1)).reshape(shp), (tx == 15).reshape(shp)),
      warp_sectors((4 * ((gy - 1) * pj + gx)).reshape(shp), (ty == 0).reshape(shp)),
      warp_sectors((4 * ((gy + 1) * pj + gx)).reshape(shp), (ty == 15).reshape(shp))]
js = [warp_sectors(main_addr, allon)]
ld_j, st_j = ratio(jl), ratio(js)
sst_j = Fr(8 * (2 + 1 + 1) + 1 + 1, 8 * 3 + 2)
case('jacobi2d_smem_16x16', f, 'jacobi2d_smem', [64, 64], [16, 16], {'nx': nxj, 'ny': nyj},
     {'in': buf(F32, (nxj + 2) * (nyj + 2)), 'out': buf(F32, (nxj + 2) * (nyj + 2), 'zeros')},
     ld_j, st_j, 2, sst_j,
     acc=[(None, 't[ty + 1][tx + 1] = in[gy * pitch + gx];', 'in', 'load', 'misaligned', Fr(*jl[0])),
          (None, 't[ty + 1][0] = in[gy * pitch + gx - 1];', 'in', 'load', 'strided', 2),
          (None, 't[ty + 1][T16 + 1] = in[gy * pitch + gx + 1];', 'in', 'load', 'strided', 2),
          (None, 't[0][tx + 1] = in[(gy - 1) * pitch + gx];', 'in', 'load', 'misaligned', Fr(*jl[3])),
          (None, 't[T16 + 1][tx + 1] = in[(gy + 1) * pitch + gx];', 'in', 'load', 'misaligned', Fr(*jl[4])),
          (None, 'out[gy * pitch + gx] = 0.25f', 'out', 'store', 'misaligned', st_j)],
     br=[(None, 'if (tx == 0)', 'thread'), (None, 'if (tx == T16 - 1)', 'thread'),
         (None, 'if (ty == 0)', 'thread'), (None, 'if (ty == T16 - 1)', 'thread')],
     sh=[(None, 't[ty + 1][tx + 1] = in', 't', 'store', 2),
         (None, 't[ty + 1][0] = in', 't', 'store', 1),
         (None, 't[0][tx + 1] = in', 't', 'store', 1),
         (None, 'out[gy * pitch + gx] = 0.25f', 't', 'load', 2)],
     deriv='pitch = 1026 floats (4104 B = 8 mod 32) plus a +1 column offset: enumerated over all warps (2 rows x 16 columns each). Body load %s = %.4f, left/right halo 2 lanes in 2 rows -> 2 sectors each, top/bottom halo 16 lanes of one row in warps 0/7 only: %s; all loads %s = %.6f; store %s = %.6f. Shared rows are 18 floats: a warp touches words base..base+15 and base+18..base+33, so words base+32, base+33 share banks with base, base+1 -> 2 wavefronts for the body store and all four neighbour loads; halo stores (2 or 16 lanes) 1 wavefront. Stores per block: 8 body (2) + 8 left + 8 right + 1 top + 1 bottom (1 each) = 34 wavefronts / 26 instructions.'
     % (Fr(*jl[0]), float(Fr(*jl[0])), Fr(jl[3][0] + jl[4][0], jl[3][1] + jl[4][1]), ld_j, float(ld_j), st_j, float(st_j)))

n3 = 128
jj, kk = np.meshgrid(np.arange(n3), np.arange(n3), indexing='ij')
jj = jj.reshape(-1)
kk = kk.reshape(-1)
lp, sp = [], []
for xb in range(4):
    i = xb * 32 + np.arange(32)
    act = ((i[None, :] >= 1) & (i[None, :] < n3 - 1) & (jj[:, None] >= 1) & (jj[:, None] < n3 - 1)
           & (kk[:, None] >= 1) & (kk[:, None] < n3 - 1))
    c = (kk[:, None] * n3 * n3 + jj[:, None] * n3 + i[None, :]).astype(np.int64)
    for off in (-1, 1, -n3, n3, -n3 * n3, n3 * n3, 0):
        lp.append(warp_sectors(4 * (c + off), act))
    sp.append(warp_sectors(4 * c, act))
ld_3d, st_3d = ratio(lp), ratio(sp)
S3 = 'v[c] = u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] + u[c - sxy] + u[c + sxy] - 6.0f * u[c];'
case('stencil7_3d_32x4x2', f, 'stencil7_3d', [4, 32, 64], [32, 4, 2], {'nx': n3, 'ny': n3, 'nz': n3},
     {'u': buf(F32, n3 ** 3), 'v': buf(F32, n3 ** 3, 'zeros')}, ld_3d, st_3d,
     acc=[(None, S3, 'u', 'load', 'misaligned', None), (None, S3, 'v', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < 1 || j < 1 || k < 1 || i >= nx - 1 || j >= ny - 1 || k >= nz - 1)', 'thread')],
     deriv='128^3 grid, (32,4,2) blocks: each warp is one x-row segment of 32 cells; rows with j or k on the boundary issue nothing; x-blocks 0 and 3 lose lane i = 0 / 127. Per interior row: u[c], u[c +- nx], u[c +- nx*ny] are 4 sectors; u[c-1] is 4 (x-block 0) or 5; u[c+1] is 5 or 4 (x-block 3). Total 118 sectors per 28 requests per row = %s = %.6f; store 4.'
     % (ld_3d, float(ld_3d)))

# ======================================================================= linalg.cu
f = 'linalg.cu'
case('gemv_thread_per_row', f, 'gemv_thread_per_row', [512], [128], {'m': 65536, 'n': 256},
     {'A': buf(F32, 65536 * 256), 'x': buf(F32, 256), 'y': buf(F32, 65536, 'zeros')}, Fr(33, 2), 4,
     acc=[(None, 'acc += A[(size_t)row * n + k] * __ldg(&x[k]);', 'A', 'load', 'strided', 32),
          (None, '__ldg(&x[k])', 'x', 'load', 'broadcast', 1),
          (None, 'y[row] = acc;', 'y', 'store', 'coalesced', 4)],
     br=[(None, 'if (row < m)', 'thread')],
     deriv='One thread per row of a 65536 x 256 row-major A: lanes 1 KiB apart -> 32 sectors per A request; x[k] is the same word for the whole warp -> 1 sector. (32 + 1)/2 = 16.5; store 4. A + row*n is not provably 16-B aligned, so no vector loads.')

case('gemv_warp_per_row', f, 'gemv_warp_per_row', [2048], [256], {'m': 16384, 'n': 1024},
     {'A': buf(F32, 16384 * 1024), 'x': buf(F32, 1024), 'y': buf(F32, 16384, 'zeros')}, 4, 1,
     acc=[(None, 'acc += a[k] * x[k];', 'A', 'load', 'coalesced', 4),
          (None, 'acc += a[k] * x[k];', 'x', 'load', 'coalesced', 4),
          (None, 'y[row] = acc;', 'y', 'store', 'broadcast', 1)],
     br=[(None, 'if (row >= m)', 'warp'), (None, 'if (lane_id() == 0)', 'thread')],
     deriv='row = global thread / 32 is warp-uniform (so is the row >= m guard). Lanes stride over the row: a[k], x[k] 128 B per request -> 4 sectors; lane 0 stores y[row] -> 1 sector.')

case('gemm_nt_naive_16x16', f, 'gemm_nt_naive', [32, 32], [16, 16], {'M': 512, 'N': 512, 'K': 512},
     {'A': buf(F32, 512 * 512), 'B': buf(F32, 512 * 512), 'C': buf(F32, 512 * 512, 'zeros')}, 9, 4,
     acc=[(None, 'acc += A[IDX(row, k, K)] * B[IDX(col, k, K)];', 'A', 'load', 'broadcast', 2),
          (None, 'acc += A[IDX(row, k, K)] * B[IDX(col, k, K)];', 'B', 'load', 'strided', 16),
          (None, 'C[IDX(row, col, N)] = acc;', 'C', 'store', 'coalesced', 4)],
     br=[(None, 'if (row >= M || col >= N)', 'thread')],
     deriv='C = A B^T with 16x16 blocks: a warp has 2 rows and 16 columns. A[row][k]: 2 addresses -> 2 sectors; B[col][k]: 16 rows of B 2 KiB apart -> 16 sectors; (2+16)/2 = 9. C: 2 rows x 64 B -> 4.')

case('gemm_colmajor_naive_32x8', f, 'gemm_colmajor_naive', [32, 128], [32, 8],
     {'M': 1024, 'N': 1024, 'K': 256, 'lda': 1024, 'ldb': 256, 'ldc': 1024},
     {'A': buf(F32, 1024 * 256), 'B': buf(F32, 256 * 1024), 'C': buf(F32, 1024 * 1024, 'zeros')}, Fr(5, 2), 4,
     acc=[(None, 'acc += A[i + k * lda] * B[k + j * ldb];', 'A', 'load', 'coalesced', 4),
          (None, 'acc += A[i + k * lda] * B[k + j * ldb];', 'B', 'load', 'broadcast', 1),
          (None, 'C[i + j * ldc] = acc;', 'C', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < M && j < N)', 'thread')],
     deriv='Column-major NN GEMM, x over rows of C: A(i,k) 32 consecutive rows -> 4 sectors; B(k,j) has j fixed per warp -> 1 sector; (4+1)/2 = 2.5. C column segment -> 4.')

case('gemm_tile32x8', f, 'gemm_tile32x8', [32, 32], [32, 8], {'M': 1024, 'N': 1024, 'K': 1024},
     {'A': buf(F32, M), 'B': buf(F32, M), 'C': buf(F32, M, 'zeros')}, 4, 4, Fr(3, 2), 1,
     acc=[(None, 'As[ty + 8 * r][tx] = A[', 'A', 'load', 'coalesced', 4),
          (None, 'Bs[ty + 8 * r][tx] = B[', 'B', 'load', 'coalesced', 4),
          (None, 'C[(size_t)(row0 + ty + 8 * r) * N + col] = acc[r];', 'C', 'store', 'coalesced', 4)],
     sh=[(None, 'As[ty + 8 * r][tx] = A[', 'As', 'store', 1), (None, 'Bs[ty + 8 * r][tx] = B[', 'Bs', 'store', 1),
         (None, 'const float b = Bs[k][tx];', 'Bs', 'load', 1),
         (None, 'acc[r] += As[ty + 8 * r][k] * b;', 'As', 'load', 2)],
     deriv='32x32 tiles, 32x8 threads, 4 rows per thread. Global tile loads and C stores are 128-B rows -> 4 sectors. Shared stores row-wise -> 1 wavefront. Shared loads (value set from the SASS of the H200 run, not known before it): per 8 unrolled k, 8 LDS of Bs[k][tx] (32 consecutive words, 1 wavefront) and 8 LDS.128 of As[ty+8r][k..k+3] (one 16-B word for the whole warp, a broadcast LDS.128 costs 2 wavefronts: one per half-warp) -> (8*1 + 8*2)/16 = 1.5.')

for pad, sst in ((0, Fr(4 * 16 + 4 * 1, 8)), (4, Fr(4 * 2 + 4 * 1, 8))):
    case('sgemm_regblock_pad%d' % pad, f, 'sgemm_regblock', [16, 16], [16, 16], {'M': 1024, 'N': 1024, 'K': 1024},
         {'A': buf(F32, M), 'B': buf(F32, M), 'C': buf(F32, M, 'zeros')}, 4, 16, 3, sst,
         targs='<64, 64, 16, 4, 4, %d>' % pad,
         acc=[(None, 'As[c][r] = A[(size_t)(bm + r) * K + k0 + c];', 'A', 'load', 'coalesced', 4),
              (None, 'Bs[r][c] = B[(size_t)(k0 + r) * N + bn + c];', 'B', 'load', 'coalesced', 4),
              (None, '= acc[m][n];', 'C', 'store', 'strided', 16)],
         sh=[(None, 'As[c][r] = A[', 'As', 'store', 16 if pad == 0 else 2),
             (None, 'Bs[r][c] = B[', 'Bs', 'store', 1),
             (None, 'a[m] = As[k][threadIdx.y * TM + m];', 'As', 'load', 2),
             (None, 'b[n] = Bs[k][threadIdx.x * TN + n];', 'Bs', 'load', 4)],
         deriv='64x64x16 block tile, 16x16 threads, 4x4 outputs per thread, APAD = %d. A tile: 32 consecutive i = 2 rows x 16 floats (64 B, aligned) -> 4 sectors; B tile: 32 floats of one row -> 4. As[c][r] (k-major transpose) with r = i/16, c = i%%16: words c*(64+%d) + r %s. Bs row-wise -> 1. 4 A + 4 B stores per k-step -> %s. C: each of the 16 scalar stores puts 16 lanes 16 B apart in each of 2 rows -> 2 x 8 sectors = 16 (an STG.128 version would also be 16 per request). Shared loads (value set from the SASS of the H200 run): both become LDS.128, processed per half-warp; As[k][4ty..4ty+3]: one 16-B word per half-warp -> 2 wavefronts; Bs[k][4tx..4tx+3]: 16 distinct 16-B words (256 B) per half-warp -> 2 + 2 = 4; (2 + 4)/2 = 3.'
         % (pad, pad, '-> 2 banks with 16 distinct words each: 16 wavefronts' if pad == 0 else
            '-> banks (4c + r) mod 32, c and c+8 collide: 2 wavefronts', sst))

# ======================================================================= reduce.cu
f = 'reduce.cu'
case('reduce_unrolled_volatile_256', f, 'reduce_unrolled', [1024], [256], {'n': 1 << 24},
     {'g_in': buf(F32, 1 << 24), 'g_out': buf(F32, 1024, 'zeros')}, 4, 1, 1, 1, targs='<256>',
     acc=[(None, 'sum += g_in[i];', 'g_in', 'load', 'coalesced', 4),
          (None, 'sum += g_in[i + BLOCK];', 'g_in', 'load', 'coalesced', 4),
          (None, 'g_out[blockIdx.x] = s[0];', 'g_out', 'store', 'broadcast', 1)],
     br=[(None, 'if (i + BLOCK < n)', 'thread'),
         (None, 'if (BLOCK >= 512)', 'grid'), (None, 'if (tid < 256)', 'warp'),
         (None, 'if (BLOCK >= 256)', 'grid'), (None, 'if (tid < 128)', 'warp'),
         (None, 'if (BLOCK >= 128)', 'grid'), (None, 'if (tid < 64)', 'warp'),
         (None, 'if (tid < 32)', 'warp'), (None, 'if (tid == 0)', 'thread'),
         ('warp_tail', 'if (BLOCK >= 64)', 'grid')],
     sh=[(None, 's[tid] = sum;', 's', 'store', 1), ('warp_tail', 's[tid] += s[tid + 16];', 's', 'load', 1)],
     deriv='2^24 floats, 1024 blocks of 256, two loads per grid step (i and i + 256), all full warps -> 4 sectors; one 1-lane store per block -> 1. Shared: every LDS/STS of the tree and of the volatile warp tail is 32 (or fewer, consecutive) words -> 1 wavefront. BLOCK conditions are compile-time constants (grid); tid < 256/128/64/32 are multiples of 32 (warp).')

case('sumsq_double_shfl_xor', f, 'sumsq_double', [528], [256], {'n': 1 << 24},
     {'x': buf(F64, 1 << 24), 'partial': buf(F64, 528, 'zeros')}, 8, 1, 1, 1,
     acc=[(None, 'const double v = x[i];', 'x', 'load', 'coalesced', 8),
          (None, 'partial[blockIdx.x] = acc;', 'partial', 'store', 'broadcast', 1)],
     br=[(None, 'if (lane == 0)', 'thread'), (None, 'if (warp == 0)', 'warp')],
     sh=[(None, 'warp_sum[warp] = acc;', 'warp_sum', 'store', 1),
         (None, 'acc = lane < blockDim.x / 32 ? warp_sum[lane] : 0.0;', 'warp_sum', 'load', 1)],
     deriv='while-loop grid stride 528*256 (multiple of 32) over 2^24 doubles: every request 256 B -> 8 sectors; one 1-lane partial store per block. Shared: one 8-B store per warp (1 lane) and an 8-lane 64-B load -> 1 wavefront each.')

for T, B, rows_, ld_, cnt in (('float', 128, 32768, Fr(125, 32), F32), ('double', 256, 16384, Fr(31 * 8 + 2, 32), F64)):
    eb = 4 if T == 'float' else 8
    case('row_max_%s_%d' % (T, B), f, 'row_max', [rows_], [B], {'ncols': 1000},
         {'X': buf(cnt, rows_ * 1000), 'out': buf(cnt, rows_, 'zeros')}, ld_, 1,
         1 if T == 'float' else None, 1 if T == 'float' else None, targs='<%s, %d>' % (T, B),
         acc=[(None, 'T m = row[threadIdx.x];', 'X', 'load', 'coalesced', 4 if T == 'float' else 8),
              (None, 'm = tmax(m, row[c]);', 'X', 'load', 'coalesced', None),
              (None, 'out[blockIdx.x] = red[0];', 'out', 'store', 'broadcast', 1)],
         br=[(None, 'if (threadIdx.x < s)', 'thread'), (None, 'if (threadIdx.x == 0)', 'thread')],
         deriv='One block per row of 1000 %ss (rows %d B apart, 32-B aligned). Every element is loaded once (first row[tid], then the do/while from tid + %d); each aligned 32-element chunk is one request: 31 full chunks (%d sectors) + one of 8 elements (%d B -> %d sector(s)) -> %s = %.5f. One 1-lane store per block.%s'
         % (T, 1000 * eb, B, eb, 8 * eb, 8 * eb // 32, ld_, float(ld_),
            ' Shared: 4-B words, all accesses consecutive -> 1 wavefront.' if T == 'float' else
            ' Shared (8-B words, partially filled warps) left null.'))

case('hist64_warp_private', f, 'hist64_warp_private', [1024], [256], {'n': 1 << 24},
     {'data': buf(I32, 1 << 24), 'bins': buf(U32, 64, 'zeros')}, 4, None, 1, 1,
     acc=[(None, 'atomicAdd(&h[warp][data[i] & (HBINS - 1)], 1u);', 'data', 'load', 'coalesced', 4)],
     br=[(None, 'if (threadIdx.x < HBINS)', 'warp')],
     sh=[(None, '(&h[0][0])[j] = 0u;', 'h', 'store', 1), (None, 'total += h[w][threadIdx.x];', 'h', 'load', 1)],
     deriv='Grid stride 2^18 over 2^24 ints: all requests full -> 4 sectors; no global stores (the per-bin atomicAdd is a RED). Shared: zeroing stores and the merge loads h[w][tid] (tid < 64: warps 0-1) are consecutive words -> 1 wavefront; the shared atomics are neither loads nor stores. tid < 64 is warp-uniform.')

# ======================================================================= coop.cu
f = 'coop.cu'
case('dot_cg_tile32', f, 'dot_cg', [528], [256], {'n': 1 << 22},
     {'x': buf(F32, 1 << 22), 'y': buf(F32, 1 << 22), 'result': buf(F32, 1, 'zeros')}, 4, None,
     acc=[(None, 'acc += x[i] * y[i];', 'x', 'load', 'coalesced', 4),
          (None, 'acc += x[i] * y[i];', 'y', 'load', 'coalesced', 4)],
     br=[(None, 'if (warp.thread_rank() == 0)', 'thread')],
     deriv='cooperative_groups grid-stride loop (stride 135168, a multiple of 32) over 2^22 elements: all requests full -> 4 sectors; the result is an atomicAdd (no store).')

nseg = 1000003
ld_seg = Fr(500001 * 4 + 2, 500002)
case('segsum16_cg_tail', f, 'segsum16_cg', [125001], [128], {'nseg': nseg},
     {'in': buf(F32, 16 * nseg), 'seg_out': buf(F32, nseg, 'zeros')}, ld_seg, 1,
     acc=[(None, 'float v = in[seg * 16 + tile.thread_rank()];', 'in', 'load', 'coalesced', ld_seg),
          (None, 'seg_out[seg] = v;', 'seg_out', 'store', 'strided', 1)],
     br=[(None, 'if (seg >= nseg)', 'thread'), (None, 'if (tile.thread_rank() == 0)', 'thread')],
     deriv='16-thread tiles, one segment of 16 floats each: a warp reads 2 segments = 128 B -> 4 sectors. nseg = 1000003: 500001 full warps and one warp with a single live tile (64 B -> 2 sectors) -> (500001*4 + 2)/500002. Stores: ranks 0 of the two tiles write adjacent floats -> 1 sector. seg >= nseg can split a warp (odd nseg) -> thread.')

# ======================================================================= sparse_branch.cu
f = 'sparse_branch.cu'

cid = 'gather_perm_double'
ng = 1 << 21
perm = case_buffer(cid, f, 'gather_perm_double', 'perm', buf(I64, ng, 'random_index:%d' % ng))
g_sec, g_req = distinct_sectors_of_lanes(8 * perm.astype(np.int64))
e_in = Fr(g_sec, g_req)
case(cid, f, 'gather_perm_double', [8192], [256], {'n': ng},
     {'in': buf(F64, ng), 'perm': buf(I64, ng, 'random_index:%d' % ng), 'out': buf(F64, ng, 'zeros')},
     Fr(8 * g_req + g_sec, 2 * g_req), 8,
     acc=[(None, 'out[i] = in[perm[i]];', 'perm', 'load', 'coalesced', 8),
          (None, 'out[i] = in[perm[i]];', 'in', 'load', 'indirect', e_in),
          (None, 'out[i] = in[perm[i]];', 'out', 'store', 'coalesced', 8)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='64-bit indices: perm[i] 256 B per warp -> 8 sectors. in[perm[i]]: 32 random doubles out of 2^21 (2^19 sectors) -> %d distinct sectors over %d requests for the generated data (= %.6f; expectation 32*(1-(1-2^-19)^31/...) ~ 31.9991). Load ratio (8 + %.6f)/2; double store 8.'
     % (g_sec, g_req, float(e_in), float(e_in)))

case('scatter_add_atomic', f, 'scatter_add', [4096], [256], {'n': M},
     {'vals': buf(F32, M), 'idx': buf(I32, M, 'random_index:%d' % M), 'acc': buf(F32, M, 'zeros')}, 4, None,
     acc=[(None, 'atomicAdd(&acc[idx[i]], vals[i]);', 'idx', 'load', 'coalesced', 4),
          (None, 'atomicAdd(&acc[idx[i]], vals[i]);', 'vals', 'load', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='idx[i] and vals[i] are contiguous loads (4 sectors); the scattered atomicAdd is a RED, neither a load nor a store.')

cid = 'spmv_csr_scalar_diag'
nr = M
colidx = case_buffer(cid, f, 'spmv_csr_scalar', 'colidx', buf(I32, nr, 'random_index:%d' % nr))
x_sec, x_req = distinct_sectors_of_lanes(4 * colidx.astype(np.int64))
e_x = Fr(x_sec, x_req)
ld_csr = Fr(5 * x_req + 4 * x_req * 3 + x_sec, 5 * x_req)
case(cid, f, 'spmv_csr_scalar', [4096], [256], {'nrows': nr},
     {'rowptr': buf(I32, nr + 1, 'arange'), 'colidx': buf(I32, nr, 'random_index:%d' % nr),
      'vals': buf(F32, nr), 'x': buf(F32, nr), 'y': buf(F32, nr, 'zeros')}, ld_csr, 4,
     acc=[(None, 'const int end = rowptr[row + 1];', 'rowptr', 'load', 'misaligned', 5),
          (None, 'for (int jj = rowptr[row]; jj < end; ++jj)', 'rowptr', 'load', 'coalesced', 4),
          (None, 'dot += vals[jj] * x[colidx[jj]];', 'vals', 'load', 'indirect', 4),
          (None, 'dot += vals[jj] * x[colidx[jj]];', 'colidx', 'load', 'indirect', 4),
          (None, 'dot += vals[jj] * x[colidx[jj]];', 'x', 'load', 'indirect', e_x),
          (None, 'y[row] = dot;', 'y', 'store', 'coalesced', 4)],
     br=[(None, 'if (row < nrows)', 'thread')],
     deriv='rowptr = arange (one nonzero per row, jj = row): rowptr[row+1] 128 B shifted by 4 B -> 5 sectors, rowptr[row] 4; vals[jj], colidx[jj] (addresses from rowptr: indirect, but contiguous) 4 each; x[colidx[jj]] random over 2^20 floats -> %d sectors / %d requests = %.6f for the generated data. (5 + 4 + 4 + 4 + %.4f)/5 = %.6f; store 4.'
     % (x_sec, x_req, float(e_x), float(e_x), float(ld_csr)))

cid = 'spmv_ellr_rowlen16'
ne = M
rowlen = case_buffer(cid, f, 'spmv_ellr', 'rowlen', buf(I32, ne)).astype(np.int64)
cols = case_buffer(cid, f, 'spmv_ellr', 'cols', buf(I32, 16 * ne, 'random_index:%d' % ne)).astype(np.int64)
rl = rowlen.reshape(-1, 32)
parts = [(rl.shape[0] * 4, rl.shape[0])]
rows_w = np.arange(ne, dtype=np.int64).reshape(-1, 32)
for k in range(16):
    act = rl > k
    idx = k * ne + rows_w
    s_v = warp_sectors(4 * idx, act)
    s_x = warp_sectors(4 * cols[idx], act)
    parts += [s_v, s_v, s_x]
rolled = ratio(parts)
case(cid, f, 'spmv_ellr', [4096], [256], {'nrows': ne},
     {'rowlen': buf(I32, ne), 'cols': buf(I32, 16 * ne, 'random_index:%d' % ne),
      'vals': buf(F32, 16 * ne), 'x': buf(F32, ne), 'y': buf(F32, ne, 'zeros')}, None, 4,
     acc=[(None, 'const int len = rowlen[row];', 'rowlen', 'load', 'coalesced', 4),
          (None, 'dot += vals[idx] * __ldg(&x[cols[idx]]);', 'vals', 'load', 'coalesced', None),
          (None, 'dot += vals[idx] * __ldg(&x[cols[idx]]);', 'cols', 'load', 'coalesced', None),
          (None, 'dot += vals[idx] * __ldg(&x[cols[idx]]);', 'x', 'load', 'indirect', None),
          (None, 'y[row] = dot;', 'y', 'store', 'coalesced', 4)],
     br=[(None, 'if (row >= nrows)', 'thread')],
     deriv='ELLPACK-R, column-major slots (idx = k*nrows + row), row lengths random in 0..15 (data-dependent, divergent trip counts). Load ratio left null: with a rolled loop (lanes of iteration k issue together) the generated data give %s = %.6f, but an unrolled loop regroups lanes with different trip counts into separate requests. Store 4.'
     % ('%d/%d' % (sum(p[0] for p in parts), sum(p[1] for p in parts)), float(rolled)))

V, D, NR = 100000, 128, 1 << 17
case('embedding_gather_d128', f, 'embedding_gather', [NR // 8], [32, 8], {'nrows': NR},
     {'table': buf(F32, V * D), 'ids': buf(I32, NR, 'random_index:%d' % V), 'out': buf(F32, NR * D, 'zeros')},
     Fr(1 + 4 * 4, 5), 4, targs='<128>',
     acc=[(None, 'const int id = ids[r];', 'ids', 'load', 'broadcast', 1),
          (None, '= table[(size_t)id * D + d];', 'table', 'load', 'indirect', 4),
          (None, 'out[(size_t)r * D + d] = table', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (r >= nrows)', 'warp')],
     deriv='(32,8) blocks, one warp per output row: ids[r] is one word per warp -> 1 sector; the gathered table row (512 B, aligned) is read in 4 contiguous 128-B requests -> 4 sectors each although the address is indirect. (1 + 16)/5 = 3.4; stores 4. r depends on threadIdx.y and blockIdx.x only -> the guard is warp-uniform.')

cid = 'table_lookup_aos8'
NT = M
slots = case_buffer(cid, f, 'table_lookup', 'slots', buf(I32, M, 'random_index:%d' % NT))
t_sec, t_req = distinct_sectors_of_lanes(8 * slots.astype(np.int64) + 4)
e_t = Fr(t_sec, t_req)
case(cid, f, 'table_lookup', [4096], [256], {'n': M},
     {'table': buf(I32, 2 * NT), 'slots': buf(I32, M, 'random_index:%d' % NT), 'out': buf(F32, M, 'zeros')},
     Fr(4 * t_req + t_sec, 2 * t_req), 4,
     acc=[(None, 'const int s = slots[i];', 'slots', 'load', 'coalesced', 4),
          (None, 'out[i] = table[s].value;', 'table', 'load', 'indirect', e_t),
          (None, 'out[i] = table[s].value;', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='8-B entries, only .value (offset 4) is read: a 4-B load per lane at a random entry of 2^20 (2^18 sectors) -> %d sectors / %d requests = %.6f for the generated data; slots 4; ratio (4 + %.6f)/2; store 4.'
     % (t_sec, t_req, float(e_t), float(e_t)))

n = 999999
r = tail_ratio(n, 4, 4)
case('lane_mod4_switch', f, 'lane_mod4_ops', [3907], [256], {'n': n},
     {'in': buf(F32, n), 'out': buf(F32, n, 'zeros')}, r, r,
     acc=[(None, 'float v = in[i];', 'in', 'load', 'coalesced', r),
          (None, 'out[i] = v;', 'out', 'store', 'coalesced', r)],
     br=[(None, 'if (i >= n)', 'thread')],
     deriv='n = 999999 = 31249*32 + 31: the last live warp has 31 lanes (124 B, still 4 sectors) -> 4.0 for load and store. The switch on threadIdx.x %% 4 splits every warp four ways (not an if; see the divergence counters).')

for bd, grd, uni in ((64, 16384, 'warp'), (96, 10923, 'thread')):
    nt = bd * grd
    case('half_block_branch_%d' % bd, f, 'half_block_branch', [grd], [bd], {},
         {'in': buf(F32, nt), 'out': buf(F32, nt, 'zeros')}, 4, 4,
         acc=[(None, 'float v = in[i];', 'in', 'load', 'coalesced', 4),
              (None, 'out[i] = v;', 'out', 'store', 'coalesced', 4)],
         br=[(None, 'if (threadIdx.x < blockDim.x / 2)', uni)],
         deriv='blockDim.x = %d: threadIdx.x < %d %s. Blocks of %d threads keep every warp 128-B aligned -> 4 sectors.'
         % (bd, bd // 2, 'splits at a warp boundary -> warp' if uni == 'warp' else
            'splits warp 1 of each block (lanes 0-15 vs 16-31) -> thread', bd))

case('warp_roles', f, 'warp_roles', [4096], [256], {'flag': 1},
     {'in': buf(F32, M), 'out': buf(F32, M, 'zeros')}, 4, 4,
     acc=[(None, 'float v = in[i];', 'in', 'load', 'coalesced', 4),
          (None, 'out[i] = v;', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (warp_in_block() & 1)', 'warp'), (None, 'if (blockIdx.x % 3 == 0)', 'block'),
         (None, 'if (flag)', 'grid')],
     deriv='threadIdx.x / warpSize via a helper (warp), blockIdx.x %% 3 (block), a kernel flag (grid); contiguous load and store -> 4.')

# ---------------------------------------------------------------- write
BUILDER.write(os.path.join(ROOT, 'manifest.json'))
print(len(CASES), 'cases,', len({(c['file'], c['kernel']) for c in CASES}), 'kernels')
