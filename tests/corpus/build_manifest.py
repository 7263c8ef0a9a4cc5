#!/usr/bin/env python3
"""Generate manifest.json for the calibration corpus.

manifest.json is generated: the expected values (exact fractions where the
arithmetic gives them) and their derivations live here, and source line numbers
are located from code snippets inside each kernel/helper, so edits to the .cu
files only need a re-run:

    python3 tests/corpus/build_manifest.py && python3 tests/corpus/check_manifest.py

Each case() call: id, file, kernel, grid, block, scalar args, buffers, expected
global load / store sectors per request, optional shared load / store wavefronts
per request (sld/sst), access patterns (fn, snippet, array, kind, pattern,
sectors), branches (fn, snippet, uniformity), shared accesses (fn, snippet,
array, kind, wavefronts) and the derivation text. fn = None means the kernel itself.
"""
import math
import os
from fractions import Fraction as Fr

from manifest_tools import ManifestBuilder, buf

ROOT = os.path.dirname(os.path.abspath(__file__))
BUILDER = ManifestBuilder(ROOT, '\\b(void|float|int)\\s+{fn}\\s*\\(', skip_comments=False)
CASES, case, find_line, src_lines = BUILDER.cases, BUILDER.case, BUILDER.find_line, BUILDER.src_lines

N = 1 << 20
F32, F64, I32 = 'float32', 'float64', 'int32'

# ---------------------------------------------------------------- coalescing.cu
f = 'coalescing.cu'
case('copy_contiguous', f, 'copy_float', [4096], [256], {'n': N},
     {'in': buf(F32, N), 'out': buf(F32, N, 'zeros')}, 4, 4,
     acc=[(None, 'out[i] = in[i];', 'in', 'load', 'coalesced', 4),
          (None, 'out[i] = in[i];', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='Each warp reads 32 consecutive floats = 128 B starting at a multiple of 128 B -> 4 sectors per load and per store request; n = 2^20 is a multiple of 32 so every warp is full.')

n_tail = 1000003
sec = Fr(31250 * 4 + 1, 31251)
case('copy_contiguous_tail', f, 'copy_float', [3907], [256], {'n': n_tail},
     {'in': buf(F32, n_tail), 'out': buf(F32, n_tail, 'zeros')}, sec, sec,
     acc=[(None, 'out[i] = in[i];', 'in', 'load', 'coalesced', sec),
          (None, 'out[i] = in[i];', 'out', 'store', 'coalesced', sec)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='n = 1000003 = 31250*32 + 3: 31250 full warps (4 sectors) plus one warp with 3 active lanes (12 B -> 1 sector); the remaining 5 warps of the last block are fully guarded off and issue nothing. Ratio = (31250*4 + 1) / 31251 = 3.999904 for loads and stores.')

n_m = 1000000
case('copy_contiguous_warp_multiple', f, 'copy_float', [3907], [256], {'n': n_m},
     {'in': buf(F32, n_m), 'out': buf(F32, n_m, 'zeros')}, 4, 4,
     acc=[(None, 'out[i] = in[i];', 'in', 'load', 'coalesced', 4),
          (None, 'out[i] = in[i];', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='n = 1000000 = 31250 full warps; the last block (3907*256 = 1000192 threads) has 6 warps whose lanes are all guarded off -> they issue no requests (counting them with 0 sectors would give 3.9992). 4 sectors per request.')

case('copy_misaligned_plus1', f, 'copy_plus1', [4096], [256], {'n': N},
     {'in': buf(F32, N + 1), 'out': buf(F32, N, 'zeros')}, 5, 4,
     acc=[(None, 'out[i] = in[i + 1];', 'in', 'load', 'misaligned', 5),
          (None, 'out[i] = in[i + 1];', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='in[i+1]: a warp reads bytes 4..131 relative to a 128-B aligned base -> sectors 0..4 = 5 sectors per load request; the store out[i] is aligned -> 4.')

case('copy_offset_1', f, 'copy_offset', [4096], [256], {'n': N, 'offset': 1},
     {'in': buf(F32, N + 1), 'out': buf(F32, N, 'zeros')}, 5, 4,
     acc=[(None, 'out[i] = in[i + offset];', 'in', 'load', 'misaligned', 5),
          (None, 'out[i] = in[i + offset];', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='Runtime offset = 1 float = 4 B: each warp spans bytes 4..131 of an aligned 128-B window -> 5 sectors per load; store 4.')

case('copy_offset_32', f, 'copy_offset', [4096], [256], {'n': N, 'offset': 32},
     {'in': buf(F32, N + 32), 'out': buf(F32, N, 'zeros')}, 4, 4,
     acc=[(None, 'out[i] = in[i + offset];', 'in', 'load', 'coalesced', 4),
          (None, 'out[i] = in[i + offset];', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='Runtime offset = 32 floats = 128 B keeps every warp 128-B aligned -> 4 sectors per load and store (same code as copy_offset_1; only the argument differs).')

for s, nn in ((2, N), (4, N), (8, N), (32, N // 2)):
    secs = min(32, 4 * s)
    case('copy_strided_%d' % s, f, 'copy_strided', [nn // 256], [256], {'n': nn, 'stride': s},
         {'in': buf(F32, nn * s), 'out': buf(F32, nn, 'zeros')}, secs, 4,
         acc=[(None, 'out[i] = in[i * stride];', 'in', 'load', 'strided', secs),
              (None, 'out[i] = in[i * stride];', 'out', 'store', 'coalesced', 4)],
         br=[(None, 'if (i < n)', 'thread')],
         deriv='Lanes are %d B apart, a warp spans %d B = %d sectors, each touched%s -> %d sectors per load request; the store is contiguous -> 4.'
         % (4 * s, 128 * s, 4 * s, '' if s < 8 else ' once (%d B between lanes >= 32 B): one sector per lane' % (4 * s), secs))

case('copy_strided_template4', f, 'copy_strided_t', [4096], [256], {},
     {'in': buf(F32, 4 * N), 'out': buf(F32, N, 'zeros')}, 16, 4, targs='<4>',
     acc=[(None, 'out[i] = in[STRIDE * i];', 'in', 'load', 'strided', 16),
          (None, 'out[i] = in[STRIDE * i];', 'out', 'store', 'coalesced', 4)],
     deriv='Template STRIDE = 4: lanes 16 B apart, a warp spans 512 B = 16 sectors, all touched -> 16 sectors per load; store 4. No guard: grid covers exactly 2^20 threads.')

case('copy_strided_double_2', f, 'copy_strided_double', [4096], [256], {'n': N, 'stride': 2},
     {'in': buf(F64, 2 * N), 'out': buf(F64, N, 'zeros')}, 16, 8,
     acc=[(None, 'double v = in[i * stride];', 'in', 'load', 'strided', 16),
          (None, 'out[i] = 2.0 * v;', 'out', 'store', 'coalesced', 8)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='8-B doubles at stride 2: lanes 16 B apart, warp spans 512 B = 16 sectors (each holds one used double) -> 16 per load; contiguous double store = 256 B = 8 sectors.')

case('row_pointer_1024', f, 'row_scale', [4096], [256], {'ncols': 1024, 'alpha': 2.0},
     {'in': buf(F32, 4096 * 1024), 'out': buf(F32, 4096 * 1024, 'zeros')}, 4, 4,
     acc=[(None, 'orow[c] = alpha * row[c];', 'in', 'load', 'coalesced', 4),
          (None, 'orow[c] = alpha * row[c];', 'out', 'store', 'coalesced', 4)],
     deriv='row = in + blockIdx.x*1024: rows are 4096 B (128-B aligned); 4 loop iterations of 8 full warps, each 32 consecutive floats -> 4 sectors per request for row[c] and orow[c].')

sec = Fr(125, 32)
case('row_pointer_1000', f, 'row_scale', [4096], [256], {'ncols': 1000, 'alpha': 2.0},
     {'in': buf(F32, 4096 * 1000), 'out': buf(F32, 4096 * 1000, 'zeros')}, sec, sec,
     acc=[(None, 'orow[c] = alpha * row[c];', 'in', 'load', 'coalesced', sec),
          (None, 'orow[c] = alpha * row[c];', 'out', 'store', 'coalesced', sec)],
     deriv='Rows of 1000 floats = 4000 B = 125 sectors start 32-B aligned (not 128-B). Per row: iterations 1-3 give 24 full warps (4 sectors each, sector-aligned), iteration 4 has c = 768..999: 7 full warps + 1 warp with 8 lanes (32 B, 1 sector). 31*4 + 1 = 125 sectors over 32 requests = 3.90625.')

case('helper_function_stride2', f, 'helper_gather', [4096], [256], {'n': N},
     {'in': buf(F32, 2 * N), 'out': buf(F32, N, 'zeros')}, 8, 4,
     acc=[('load_elem', 'return p[idx];', 'in', 'load', 'strided', 8),
          ('store_elem', 'p[idx] = v;', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i >= n) return;', 'thread')],
     deriv='global_index() and load_elem()/store_elem() are inlined; the load is in[2*i] through local variables (src, j): lanes 8 B apart, 256 B per warp -> 8 sectors; store out[i] -> 4. Access lines are those of the helper bodies.')

case('column_major_read', f, 'colmajor_read', [4096], [256], {'ld': 4096},
     {'in': buf(F32, 256 * 4096), 'out': buf(F32, 256 * 4096, 'zeros')}, 32, 4,
     acc=[(None, 'float v = in[threadIdx.x * ld + blockIdx.x];', 'in', 'load', 'strided', 32),
          (None, 'out[blockIdx.x * blockDim.x + threadIdx.x] = v;', 'out', 'store', 'coalesced', 4)],
     deriv='in[threadIdx.x*4096 + blockIdx.x]: lanes 16 KiB apart -> every lane its own sector -> 32 per load; max index 255*4096 + 4095 = 2^20 - 1; store contiguous -> 4.')

case('broadcast_first', f, 'fill_from_first', [4096], [256], {'n': N},
     {'in': buf(F32, 32), 'out': buf(F32, N, 'zeros')}, 1, 4,
     acc=[(None, 'out[i] = in[0];', 'in', 'load', 'broadcast', 1),
          (None, 'out[i] = in[0];', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='All 32 lanes read the same 4-B word -> 1 sector per load request (one request per warp); contiguous store -> 4.')

sec = Fr(1 + 4, 2)
case('broadcast_per_block', f, 'scale_by_block', [4096], [256], {},
     {'in': buf(F32, N), 'scale': buf(F32, 4096), 'out': buf(F32, N, 'zeros')}, sec, 4,
     acc=[(None, 'float s = scale[blockIdx.x];', 'scale', 'load', 'broadcast', 1),
          (None, 'out[i] = s * in[i];', 'in', 'load', 'coalesced', 4),
          (None, 'out[i] = s * in[i];', 'out', 'store', 'coalesced', 4)],
     deriv='Per warp two load requests: scale[blockIdx.x] (warp-uniform, 1 sector) and in[i] (4 sectors) -> (1+4)/2 = 2.5; store 4.')

# ---------------------------------------------------------------- vectors_structs.cu
f = 'vectors_structs.cu'
case('vec_float2', f, 'copy_float2', [4096], [256], {'n': N},
     {'in': buf(F32, 2 * N), 'out': buf(F32, 2 * N, 'zeros')}, 8, 8,
     acc=[(None, 'float2 v = in[i];', 'in', 'load', 'coalesced', 8),
          (None, 'out[i] = make_float2', 'out', 'store', 'coalesced', 8)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='8-B float2 per lane: 256 B per warp request (one LDG.64) -> 8 sectors for load and store.')

case('vec_float4', f, 'copy_float4', [4096], [256], {'n': N},
     {'in': buf(F32, 4 * N), 'out': buf(F32, 4 * N, 'zeros')}, 16, 16,
     acc=[(None, 'float4 v = in[i];', 'in', 'load', 'coalesced', 16),
          (None, 'out[i] = v;', 'out', 'store', 'coalesced', 16)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='16-B float4 per lane: 512 B per warp request (one LDG.128) -> 16 sectors for load and store (ideal for 16-B accesses).')

case('vec_double', f, 'scale_double', [4096], [256], {'a': 1.5, 'n': N},
     {'in': buf(F64, N), 'out': buf(F64, N, 'zeros')}, 8, 8,
     acc=[(None, 'out[i] = a * in[i];', 'in', 'load', 'coalesced', 8),
          (None, 'out[i] = a * in[i];', 'out', 'store', 'coalesced', 8)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='8-B doubles, 256 B per warp -> 8 sectors for load and store.')

case('vec_double2', f, 'copy_double2', [4096], [256], {'n': N},
     {'in': buf(F64, 2 * N), 'out': buf(F64, 2 * N, 'zeros')}, 16, 16,
     acc=[(None, 'double2 v = in[i];', 'in', 'load', 'coalesced', 16),
          (None, 'out[i] = make_double2', 'out', 'store', 'coalesced', 16)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='16-B double2 per lane: 512 B per warp -> 16 sectors for load and store.')

case('vec_reinterpret_float4', f, 'scale_vec4', [4096], [256], {'a': 0.5, 'n4': N},
     {'in': buf(F32, 4 * N), 'out': buf(F32, 4 * N, 'zeros')}, 16, 16,
     acc=[(None, 'float4 v = reinterpret_cast<const float4*>(in)[i];', 'in', 'load', 'coalesced', 16),
          (None, 'reinterpret_cast<float4*>(out)[i] = v;', 'out', 'store', 'coalesced', 16)],
     br=[(None, 'if (i < n4)', 'thread')],
     deriv='float* viewed as float4* (cudaMalloc base is 256-B aligned): one 16-B access per lane, 512 B per warp -> 16 sectors for load and store.')

case('aos12_read_x', f, 'aos_read_x', [4096], [256], {'n': N},
     {'pts': buf(F32, 3 * N), 'out': buf(F32, N, 'zeros')}, 12, 4,
     acc=[(None, 'out[i] = pts[i].x;', 'pts', 'load', 'strided', 12),
          (None, 'out[i] = pts[i].x;', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='sizeof(Point3) = 12: lanes 12 B apart, a warp spans 384 B = 12 sectors starting at 384*w (128-B aligned); gaps (12 B) < 32 B so all 12 sectors are touched -> 12 per load; store 4.')

case('aos12_all_fields', f, 'aos_norm2', [4096], [256], {'n': N},
     {'pts': buf(F32, 3 * N), 'out': buf(F32, N, 'zeros')}, 12, 4,
     acc=[(None, 'Point3 p = pts[i];', 'pts', 'load', 'strided', 12),
          (None, 'out[i] = p.x * p.x', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='A 12-B, 4-B aligned struct cannot be vectorised: three 32-bit loads (x, y, z at +0, +4, +8), each spanning the same 384 B = 12 sectors -> 12 per request (36 sectors per warp for 384 useful bytes; L1 would hit on the 2nd/3rd but sectors/request is 12); store 4.')

case('aos16_all_fields', f, 'aos16_norm2', [4096], [256], {'n': N},
     {'pts': buf(F32, 4 * N), 'out': buf(F32, N, 'zeros')}, 16, 4,
     acc=[(None, 'Point4 p = pts[i];', 'pts', 'load', 'coalesced', 16),
          (None, 'out[i] = p.x * p.x', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='__align__(16) struct of 4 floats: one LDG.128 per lane, 512 B per warp -> 16 sectors per load request (if it were split into four 32-bit loads each would still touch 16 sectors); store 4.')

case('soa_three_arrays', f, 'soa_norm2', [4096], [256], {'n': N},
     {'xs': buf(F32, N), 'ys': buf(F32, N), 'zs': buf(F32, N), 'out': buf(F32, N, 'zeros')}, 4, 4,
     acc=[(None, 'float x = xs[i];', 'xs', 'load', 'coalesced', 4),
          (None, 'float y = ys[i];', 'ys', 'load', 'coalesced', 4),
          (None, 'float z = zs[i];', 'zs', 'load', 'coalesced', 4),
          (None, 'out[i] = x * x', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='Structure of arrays: three contiguous float loads of 128 B each -> 4 sectors per request; store 4.')

case('narrow_u8_copy', f, 'copy_u8', [4096], [256], {'n': N},
     {'in': buf('uint8', N), 'out': buf('uint8', N, 'zeros')}, 1, 1,
     acc=[(None, 'out[i] = in[i] ^ 0x5a;', 'in', 'load', 'coalesced', 1),
          (None, 'out[i] = in[i] ^ 0x5a;', 'out', 'store', 'coalesced', 1)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='1-B elements: a warp touches 32 consecutive bytes starting at 32*w -> exactly 1 sector per load and store request.')

case('narrow_u8_to_float', f, 'u8_to_float', [4096], [256], {'n': N},
     {'in': buf('uint8', N), 'out': buf(F32, N, 'zeros')}, 1, 4,
     acc=[(None, 'out[i] = in[i] * (1.0f / 255.0f);', 'in', 'load', 'coalesced', 1),
          (None, 'out[i] = in[i] * (1.0f / 255.0f);', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='uint8 load: 32 B per warp = 1 sector; float store: 128 B = 4 sectors.')

case('narrow_short_copy', f, 'copy_short', [4096], [256], {'n': N},
     {'in': buf('int16', N), 'out': buf('int16', N, 'zeros')}, 2, 2,
     acc=[(None, 'out[i] = in[i] + 1;', 'in', 'load', 'coalesced', 2),
          (None, 'out[i] = in[i] + 1;', 'out', 'store', 'coalesced', 2)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='2-B elements: 64 B per warp, 64-B aligned -> 2 sectors per load and store request.')

case('half_axpy', f, 'half_axpy', [4096], [256], {'a': 0.5, 'n': N},
     {'x': buf('float16', N), 'y': buf('float16', N)}, 2, 2,
     acc=[(None, 'y[i] = __hfma(ha, x[i], y[i]);', 'x', 'load', 'coalesced', 2),
          (None, 'y[i] = __hfma(ha, x[i], y[i]);', 'y', 'load', 'coalesced', 2),
          (None, 'y[i] = __hfma(ha, x[i], y[i]);', 'y', 'store', 'coalesced', 2)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='__half elements: 64 B per warp -> 2 sectors for each of the two loads (x, y) and the store.')

case('half2_scale', f, 'half2_scale', [4096], [256], {'a': 0.5, 'n2': N},
     {'x': buf('float16', 2 * N), 'y': buf('float16', 2 * N, 'zeros')}, 4, 4,
     acc=[(None, 'y[i] = __hmul2(ha, x[i]);', 'x', 'load', 'coalesced', 4),
          (None, 'y[i] = __hmul2(ha, x[i]);', 'y', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n2)', 'thread')],
     deriv='__half2 = 4 B per lane: 128 B per warp -> 4 sectors for load and store.')

# ---------------------------------------------------------------- grid2d.cu
f = 'grid2d.cu'
W = 1024
for bx, by, secs, pat, why in (
        (16, 16, 4, 'coalesced', 'a warp covers 2 rows x 16 floats; each 64-B row piece starts at a multiple of 64 B -> 2 sectors per row -> 4 sectors'),
        (8, 32, 4, 'coalesced', 'a warp covers 4 rows x 8 floats; each 32-B row piece is one aligned sector -> 4 sectors'),
        (4, 64, 8, 'strided', 'a warp covers 8 rows x 4 floats; each 16-B row piece sits in its own sector (half used) -> 8 sectors')):
    case('copy2d_%dx%d' % (bx, by), f, 'copy2d', [W // bx, W // by], [bx, by], {'width': W, 'height': W},
         {'in': buf(F32, W * W), 'out': buf(F32, W * W, 'zeros')}, secs, secs,
         acc=[(None, 'out[idx] = in[idx];', 'in', 'load', pat, secs),
              (None, 'out[idx] = in[idx];', 'out', 'store', pat, secs)],
         br=[(None, 'if (x < width && y < height)', 'thread')],
         deriv='1024x1024 floats, block %dx%d: %s per load and store request (rows are 4096 B, 128-B aligned).' % (bx, by, why))

sec = Fr(125000, 31500)
case('copy2d_16x16_ragged', f, 'copy2d', [63, 63], [16, 16], {'width': 1000, 'height': 1000},
     {'in': buf(F32, 1000 * 1000), 'out': buf(F32, 1000 * 1000, 'zeros')}, sec, sec,
     acc=[(None, 'out[idx] = in[idx];', 'in', 'load', 'coalesced', sec),
          (None, 'out[idx] = in[idx];', 'out', 'store', 'coalesced', sec)],
     br=[(None, 'if (x < width && y < height)', 'thread')],
     deriv='1000x1000, block 16x16, grid 63x63. A warp = 2 rows x 16 columns. Rows are 4000 B (32-B but not 128-B aligned) so 16-float pieces are sector-aligned: full warps 2 rows x 2 sectors = 4. Blocks in the last column (x = 992..1007) have 8 live lanes per row = 1 sector per row -> 2. Warps with rows >= 1000 issue nothing. Active warps: 500 row pairs x 63 = 31500; sectors 500*62*4 + 500*2 = 125000 (= 4e6 B / 32). Ratio 125000/31500 = 3.968254.')

W2 = 2048
case('transpose_naive_32x8', f, 'transpose_naive', [W2 // 32, W2 // 8], [32, 8], {'width': W2, 'height': W2},
     {'in': buf(F32, W2 * W2), 'out': buf(F32, W2 * W2, 'zeros')}, 4, 32,
     acc=[(None, 'float v = in[y * width + x];', 'in', 'load', 'coalesced', 4),
          (None, 'out[x * height + y] = v;', 'out', 'store', 'strided', 32)],
     br=[(None, 'if (x < width && y < height)', 'thread')],
     deriv='Block 32x8: a warp is one row of 32 x values. Read in[y*2048 + x] is 128 contiguous bytes -> 4 sectors; write out[x*2048 + y] puts lanes 8 KiB apart -> 32 sectors.')

case('transpose_naive_16x16', f, 'transpose_naive', [W2 // 16, W2 // 16], [16, 16], {'width': W2, 'height': W2},
     {'in': buf(F32, W2 * W2), 'out': buf(F32, W2 * W2, 'zeros')}, 4, 16,
     acc=[(None, 'float v = in[y * width + x];', 'in', 'load', 'coalesced', 4),
          (None, 'out[x * height + y] = v;', 'out', 'store', 'strided', 16)],
     br=[(None, 'if (x < width && y < height)', 'thread')],
     deriv='Block 16x16: a warp = 16 x values x 2 rows (y even, y+1). Read: 2 rows x 64 B -> 4 sectors. Write out[x*2048 + y]: 16 distinct x, each with the 8-B pair (y, y+1) inside one sector -> 16 sectors.')

for pad in (0, 1):
    case('transpose_tiled_pad%d' % pad, f, 'transpose_tiled', [W2 // 32, W2 // 32], [32, 8], {'width': W2, 'height': W2},
         {'in': buf(F32, W2 * W2), 'out': buf(F32, W2 * W2, 'zeros')}, 4, 4,
         sld=(32 if pad == 0 else 1), sst=1, targs='<32, 8, %d>' % pad,
         acc=[(None, 'tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];', 'in', 'load', 'coalesced', 4),
              (None, 'out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];', 'out', 'store', 'coalesced', 4)],
         sh=[(None, 'tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];', 'tile', 'store', 1),
             (None, 'out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];', 'tile', 'load', 32 if pad == 0 else 1)],
         deriv=('Tile 32x%d floats, block 32x8, 4 iterations (unrolled). Global reads and writes are full 128-B rows -> 4 sectors. '
                'Shared store tile[ty+j][tx]: 32 consecutive words -> 1 wavefront. Shared load tile[tx][ty+j]: word tx*%d + c -> ' % (32 + pad, 32 + pad))
         + ('all 32 lanes in bank c mod 32 with distinct words -> 32-way conflict = 32 wavefronts.' if pad == 0 else
            'bank (tx + c) mod 32, all distinct -> 1 wavefront.'))

# ---------------------------------------------------------------- loops.cu
f = 'loops.cu'
case('loop_blocked_unrolled', f, 'scale_blocked_unrolled', [1024], [256], {'a': 2.0},
     {'in': buf(F32, N), 'out': buf(F32, N, 'zeros')}, 4, 4,
     acc=[(None, 'out[j] = a * in[j];', 'in', 'load', 'coalesced', 4),
          (None, 'out[j] = a * in[j];', 'out', 'store', 'coalesced', 4)],
     deriv='#pragma unroll over ITEMS_PER_THREAD = 4; element j = base + k*blockDim.x: for each k a warp covers 32 consecutive floats -> 4 sectors per request, 4 load + 4 store requests per warp.')

for kid, kern, why in (('loop_chunked', 'scale_chunked', 'constexpr CHUNK = 4, no pragma (the compiler fully unrolls it)'),
                       ('loop_chunked_rolled', 'scale_chunked_rolled', '#pragma unroll 1 keeps the 4-trip loop')):
    case(kid, f, kern, [1024], [256], {'a': 2.0},
         {'in': buf(F32, N), 'out': buf(F32, N, 'zeros')}, 16, 16,
         acc=[(None, 'out[t * CHUNK + k] = a * in[t * CHUNK + k];', 'in', 'load', 'strided', 16),
              (None, 'out[t * CHUNK + k] = a * in[t * CHUNK + k];', 'out', 'store', 'strided', 16)],
         deriv='%s. Each thread owns 4 consecutive floats, so for a given k lanes are 16 B apart: a warp spans 512 B = 16 sectors, all touched -> 16 sectors per load and store request (the compiler cannot merge into LDG.128: float* is only known to be 4-B aligned).' % why)

case('loop_row_sum', f, 'row_sum', [256], [256], {'rows': 65536, 'K': 64},
     {'A': buf(F32, 65536 * 64), 'out': buf(F32, 65536, 'zeros')}, 32, 4,
     acc=[(None, 's += A[r * K + k];', 'A', 'load', 'strided', 32),
          (None, 'out[r] = s;', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (r < rows)', 'thread')],
     deriv='Parameter trip count K = 64; lanes read A[r*64 + k], 256 B apart -> 32 sectors per load request, 64 requests per warp (unrolling does not change per-request sectors); store out[r] -> 4.')

case('loop_col_sum', f, 'col_sum', [256], [256], {'cols': 65536, 'K': 64},
     {'A': buf(F32, 65536 * 64), 'out': buf(F32, 65536, 'zeros')}, 4, 4,
     acc=[(None, 's += A[k * cols + c];', 'A', 'load', 'coalesced', 4),
          (None, 'out[c] = s;', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (c < cols)', 'thread')],
     deriv='Lanes read A[k*65536 + c]: 32 consecutive floats, rows 256 KiB (aligned) -> 4 sectors per request for each of the 64 iterations; store 4.')

n_gs = 4000003
sec = Fr(125000 * 4 + 1, 125001)
case('loop_grid_stride', f, 'grid_stride_axpy', [1056], [256], {'a': 2.0, 'n': n_gs},
     {'x': buf(F32, n_gs), 'y': buf(F32, n_gs)}, sec, sec,
     acc=[(None, 'y[i] = a * x[i] + y[i];', 'x', 'load', 'coalesced', sec),
          (None, 'y[i] = a * x[i] + y[i];', 'y', 'load', 'coalesced', sec),
          (None, 'y[i] = a * x[i] + y[i];', 'y', 'store', 'coalesced', sec)],
     deriv='Grid stride 1056*256 = 270336 (a multiple of 32), so each warp-iteration covers one aligned 32-element chunk. n = 4000003 -> 125000 full chunks (4 sectors) + 1 chunk with 3 elements (1 sector); warps with no live lane leave the loop. Per access (x load, y load, y store): (125000*4 + 1)/125001 = 3.999976.')

sec = Fr(4 + 4 * 5, 5)
case('loop_nested_box', f, 'box_filter', [32, 128], [32, 8], {'width': 1024, 'pitch': 1056, 'R': 2, 'C': 5},
     {'in': buf(F32, 1025 * 1056), 'out': buf(F32, 1024 * 1024, 'zeros')}, sec, 4,
     acc=[(None, 'acc += in[(y + dy) * pitch + x + dx];', 'in', 'load', 'misaligned', sec),
          (None, 'out[y * width + x] = acc / (float)(R * C);', 'out', 'store', 'coalesced', 4)],
     deriv='Nested parameter loops R = 2, C = 5; block 32x8 so a warp is 32 consecutive x. pitch = 1056 floats = 4224 B (128-B multiple). For each dy: dx = 0 is aligned (4 sectors), dx = 1..4 shift by 4..16 B (5 sectors) -> (4 + 4*5)/5 = 4.8 per load request; store 4. (The same source line is aligned for dx = 0 and misaligned otherwise.)')

st_exp = 4 * (1 - 2 ** -8) / (1 - 2 ** -32)
case('early_return_data', f, 'sqrt_positive', [4096], [256], {'n': N},
     {'in': buf(F32, N), 'out': buf(F32, N, 'zeros')}, 4, st_exp,
     acc=[(None, 'float v = in[i];', 'in', 'load', 'coalesced', 4),
          (None, 'out[i] = sqrtf(v);', 'out', 'store', 'coalesced', st_exp)],
     br=[(None, 'if (i >= n)', 'thread'), (None, 'if (v <= 0.0f)', 'thread')],
     deriv='Load in[i] by every thread -> 4. Store only where in[i] > 0 (uniform random in [-1,1], p = 1/2 per lane): a sector (8 lanes) is written unless all 8 lanes returned early, so E[sectors per store request] = 4*(1 - 2^-8) = 3.984375 (a warp with no live lane, probability 2^-32, issues nothing).')

# ---------------------------------------------------------------- shared.cu
f = 'shared.cu'
case('smem_row_reverse', f, 'smem_reverse', [4096], [256], {},
     {'in': buf(F32, N), 'out': buf(F32, N, 'zeros')}, 4, 4, sld=1, sst=1,
     acc=[(None, 'buf[tid] = in[g];', 'in', 'load', 'coalesced', 4),
          (None, 'out[g] = buf[BLOCK - 1 - tid];', 'out', 'store', 'coalesced', 4)],
     sh=[(None, 'buf[tid] = in[g];', 'buf', 'store', 1),
         (None, 'out[g] = buf[BLOCK - 1 - tid];', 'buf', 'load', 1)],
     deriv='buf[tid] and buf[255 - tid]: each warp touches 32 consecutive words = 32 distinct banks -> 1 wavefront per shared load and store; global accesses contiguous -> 4 sectors.')

for s in (2, 4, 8, 32, 3):
    # words tid*s for 32 consecutive tids: 32/gcd(s,32) distinct banks, each serving gcd(s,32) words
    deg = math.gcd(s, 32)
    case('smem_stride_%d' % s, f, 'smem_strided', [4096], [256], {'stride': s},
         {'in': buf(F32, N), 'out': buf(F32, N, 'zeros')}, 4, 4, sld=deg, sst=deg, smem=256 * s * 4,
         acc=[(None, 's[tid * stride] = in[g];', 'in', 'load', 'coalesced', 4),
              (None, 'out[g] = s[(blockDim.x - 1 - tid) * stride];', 'out', 'store', 'coalesced', 4)],
         sh=[(None, 's[tid * stride] = in[g];', 's', 'store', deg),
             (None, 'out[g] = s[(blockDim.x - 1 - tid) * stride];', 's', 'load', deg)],
         deriv='extern __shared__ sized %d B (256*stride floats). Word tid*%d for 32 consecutive tids: bank = %d*tid mod 32 -> %d distinct banks, each serving gcd(%d,32) = %d distinct words -> %d wavefront(s) per request, for the store and for the reversed load; global accesses contiguous -> 4.'
         % (256 * s * 4, s, s, 32 // deg, s, deg, deg))

for pad in (0, 1):
    case('smem_column_pad%d' % pad, f, 'smem_column', [1024], [32, 32], {},
         {'in': buf(F32, N), 'out': buf(F32, N, 'zeros')}, 4, 4, sld=(32 if pad == 0 else 1), sst=1, targs='<%d>' % pad,
         acc=[(None, 'tile[ty][tx] = in[g];', 'in', 'load', 'coalesced', 4),
              (None, 'out[g] = tile[tx][ty];', 'out', 'store', 'coalesced', 4)],
         sh=[(None, 'tile[ty][tx] = in[g];', 'tile', 'store', 1),
             (None, 'out[g] = tile[tx][ty];', 'tile', 'load', 32 if pad == 0 else 1)],
         deriv='Block 32x32, warp = one ty. Store tile[ty][tx]: 32 consecutive words -> 1 wavefront. Load tile[tx][ty]: word tx*%d + ty -> %s' % (
             32 + pad, 'every lane in bank ty, 32 distinct words -> 32 wavefronts.' if pad == 0 else 'bank (tx + ty) mod 32, all distinct -> 1 wavefront (the [32][33] padding).'))

case('smem_broadcast_scalar', f, 'smem_broadcast', [4096], [256], {},
     {'in': buf(F32, N), 'scale': buf(F32, 4096), 'out': buf(F32, N, 'zeros')}, Fr(33, 9), 4, sld=1, sst=Fr(1, 8),
     acc=[(None, 's_scale = scale[blockIdx.x];', 'scale', 'load', 'broadcast', 1),
          (None, 'out[g] = in[g] * s_scale;', 'in', 'load', 'coalesced', 4),
          (None, 'out[g] = in[g] * s_scale;', 'out', 'store', 'coalesced', 4)],
     sh=[(None, 's_scale = scale[blockIdx.x];', 's_scale', 'store', 1),
         (None, 'out[g] = in[g] * s_scale;', 's_scale', 'load', 1)],
     br=[(None, 'if (threadIdx.x == 0)', 'thread')],
     deriv='Per block: warp 0 alone (one live lane) loads scale[blockIdx.x] (1 sector) and stores s_scale (1 wavefront); all 8 warps load in[g] (4 sectors) and read s_scale (same word for all lanes: broadcast, 1 wavefront). Global loads (1 + 8*4)/(1 + 8) = 3.6667; shared 1 and 1. SASS predicates the guarded LDG/STS (@!P0) instead of branching, so warps 1-7 issue them with no live lane: if the profiler counts those as requests the global load ratio becomes 33/16 = 2.0625 and the shared store ratio 1/8. Measured: the L1 global request counter skips all-off issues (3.667) while the shared instruction counter the issue names counts them, so the expected shared store ratio is 1/8.')

for T, dt, mult, secs, wf in (('double', F64, 1, 8, 2), ('float2', F32, 2, 8, 2), ('float4', F32, 4, 16, 4)):
    case('smem_vec_%s' % T, f, 'smem_vec_reverse', [4096], [256], {},
         {'in': buf(dt, N * mult), 'out': buf(dt, N * mult, 'zeros')}, secs, secs, sld=wf, sst=wf, targs='<%s>' % T,
         acc=[(None, 'buf[tid] = in[g];', 'in', 'load', 'coalesced', secs),
              (None, 'out[g] = buf[BLOCK - 1 - tid];', 'out', 'store', 'coalesced', secs)],
         sh=[(None, 'buf[tid] = in[g];', 'buf', 'store', wf),
             (None, 'out[g] = buf[BLOCK - 1 - tid];', 'buf', 'load', wf)],
         deriv='%d-B elements, consecutive per warp: global %d B per request -> %d sectors; shared accesses are processed per %s (%d lanes x %d B = 128 B, conflict-free) -> %d wavefronts per request (STS.%d / LDS.%d).'
         % (8 if mult < 4 else 16, 256 if mult < 4 else 512, secs, 'half-warp' if wf == 2 else 'quarter-warp', 16 if wf == 2 else 8, 8 if wf == 2 else 16, wf, 64 if wf == 2 else 128, 64 if wf == 2 else 128))

case('smem_double_stride2', f, 'smem_double_stride2', [4096], [256], {},
     {'in': buf(F64, N), 'out': buf(F64, N, 'zeros')}, 8, 8, sld=4, sst=4,
     acc=[(None, 'buf[2 * tid] = in[g];', 'in', 'load', 'coalesced', 8),
          (None, 'out[g] = buf[2 * (BLOCK - 1 - tid)];', 'out', 'store', 'coalesced', 8)],
     sh=[(None, 'buf[2 * tid] = in[g];', 'buf', 'store', 4),
         (None, 'out[g] = buf[2 * (BLOCK - 1 - tid)];', 'buf', 'load', 4)],
     deriv='Doubles at a 16-B stride: a half-warp (16 lanes) touches words 4t, 4t+1 (t = 0..15) spanning 256 B, so lanes t and t+8 share banks -> 2 wavefronts per half-warp, 4 per request for store and load; global double accesses contiguous -> 8 sectors.')

# ---------------------------------------------------------------- matmul.cu
f = 'matmul.cu'
NM = 512
case('matmul_naive_16x16', f, 'matmul_naive', [NM // 16, NM // 16], [16, 16], {'N': NM},
     {'A': buf(F32, NM * NM), 'B': buf(F32, NM * NM), 'C': buf(F32, NM * NM, 'zeros')}, 2, 4,
     acc=[(None, 'acc += A[row * N + k] * B[k * N + col];', 'A', 'load', 'broadcast', 2),
          (None, 'acc += A[row * N + k] * B[k * N + col];', 'B', 'load', 'coalesced', 2),
          (None, 'C[row * N + col] = acc;', 'C', 'store', 'coalesced', 4)],
     br=[(None, 'if (row < N && col < N)', 'thread')],
     deriv='Block 16x16: a warp = 16 columns x 2 rows. A[row*N + k]: 2 distinct addresses (one per row, 2 KiB apart) -> 2 sectors. B[k*N + col]: 16 consecutive floats (64 B, 64-B aligned), same for both rows -> 2 sectors. Loads average 2.0; C store: 2 rows x 64 B -> 4 sectors.')

for T in (16, 32):
    case('matmul_tiled_%d' % T, f, 'matmul_tiled', [NM // T, NM // T], [T, T], {'N': NM},
         {'A': buf(F32, NM * NM), 'B': buf(F32, NM * NM), 'C': buf(F32, NM * NM, 'zeros')}, 4, 4, sld=1, sst=1,
         targs='<%d>' % T,
         acc=[(None, 'As[ty][tx] = A[row * N + t * TILE + tx];', 'A', 'load', 'coalesced', 4),
              (None, 'Bs[ty][tx] = B[(t * TILE + ty) * N + col];', 'B', 'load', 'coalesced', 4),
              (None, 'C[row * N + col] = acc;', 'C', 'store', 'coalesced', 4)],
         sh=[(None, 'As[ty][tx] = A[row * N + t * TILE + tx];', 'As', 'store', 1),
             (None, 'Bs[ty][tx] = B[(t * TILE + ty) * N + col];', 'Bs', 'store', 1),
             (None, 'acc += As[ty][k] * Bs[k][tx];', 'As', 'load', 1),
             (None, 'acc += As[ty][k] * Bs[k][tx];', 'Bs', 'load', 1)],
         deriv=('TILE = %d. ' % T) + (
             'A warp = 2 rows x 16 columns: global tiles are 2 x 64-B aligned pieces -> 4 sectors for A, B and C. Shared stores As/Bs[ty][tx]: 32 consecutive words -> 1. As[ty][k]: 2 words (rows ty, ty+1) in banks 16 apart, each broadcast to 16 lanes -> 1; Bs[k][tx]: 16 consecutive words read by both half-warps -> 1.'
             if T == 16 else
             'A warp = one row of 32 columns: global accesses are 128 contiguous bytes -> 4 sectors. Shared stores: 32 consecutive words -> 1. As[ty][k]: one word for the whole warp (broadcast) -> 1; Bs[k][tx]: 32 consecutive words -> 1.')
         + ' Per tile step each warp issues 2 STS and 2*TILE scalar LDS in source terms. nvcc/NVRTC vectorise the unrolled As[ty][k..k+3] reads into LDS.128 (TILE/4 requests of 16 B per lane, all lanes of a half/whole warp on the same 16 B); counted as 1 wavefront each this stays 1.0, but if a 16-B load is always split into quarter-warp wavefronts the ratio becomes (4*TILE/4 + TILE)/(TILE/4 + TILE) = 1.6.')

# ---------------------------------------------------------------- reductions.cu
f = 'reductions.cu'
NR = 1 << 22
case('reduce_tree_sequential', f, 'reduce_tree', [NR // 256], [256], {'n': NR},
     {'in': buf(F32, NR), 'out': buf(F32, NR // 256, 'zeros')}, 4, 1, sld=Fr(25, 129), sst=Fr(20, 72),
     acc=[(None, 's[tid] = (i < n) ? in[i] : 0.0f;', 'in', 'load', 'coalesced', 4),
          (None, 'out[blockIdx.x] = s[0];', 'out', 'store', 'broadcast', 1)],
     sh=[(None, 's[tid] = (i < n) ? in[i] : 0.0f;', 's', 'store', 1),
         (None, 's[tid] += s[tid + stride];', 's', 'load', 1),
         (None, 's[tid] += s[tid + stride];', 's', 'store', 1),
         (None, 'out[blockIdx.x] = s[0];', 's', 'load', 1)],
     br=[(None, 'if (tid < stride)', 'thread'), (None, 'if (tid == 0)', 'thread')],
     deriv='Per block of 8 warps: initial store 8 requests; strides 128,64,32 keep 4,2,1 warps active and strides 16..1 keep (part of) warp 0 -> 12 active warp-iterations, each 2 loads (s[tid], s[tid+stride]) + 1 store, all on consecutive words -> 1 wavefront. Loads 24 + 1 (s[0]) = 25 requests / 25 wavefronts; stores 20 / 20. Global: in[i] 4 sectors; out[blockIdx.x] one lane -> 1 sector. SASS predicates the loop body (@!P1 LDS/STS), so inactive warps still issue the instructions: if counted, requests become 8*8*2 + 1 = 129 loads and 8 + 64 = 72 stores per block (ratio 25/129 = 0.19 and 20/72 = 0.28 when they produce no wavefronts). The expected sld/sst use that count: the issue defines the ratio over smsp__inst_executed_op_shared_{ld,st}.sum, which includes predicated-off issues; the final `if (tid == 0)` ends the kernel and compiles to a jump/exit, so its s[0] load is issued by one warp.')

case('reduce_tree_interleaved', f, 'reduce_interleaved', [NR // 256], [256], {'n': NR},
     {'in': buf(F32, NR), 'out': buf(F32, NR // 256, 'zeros')}, 4, 1, sld=Fr(95, 129), sst=Fr(55, 72),
     acc=[(None, 's[tid] = (i < n) ? in[i] : 0.0f;', 'in', 'load', 'coalesced', 4),
          (None, 'out[blockIdx.x] = s[0];', 'out', 'store', 'broadcast', 1)],
     sh=[(None, 's[tid] = (i < n) ? in[i] : 0.0f;', 's', 'store', 1),
         (None, 's[index] += s[index + stride];', 's', 'load', Fr(94, 24)),
         (None, 's[index] += s[index + stride];', 's', 'store', Fr(47, 12)),
         (None, 'out[blockIdx.x] = s[0];', 's', 'load', 1)],
     br=[(None, 'if (index < blockDim.x)', 'thread'), (None, 'if (tid == 0)', 'thread')],
     deriv='index = 2*stride*tid. Active warps and conflict degree per stride 1,2,4,8,16,32,64,128: warps 4,2,1,1,1,1,1,1; degree 2,4,8,8 (16 lanes),8 (8 lanes),4,2,1. Loop loads (2 per active warp): 24 requests, 2*(4*2 + 2*4 + 8 + 8 + 8 + 4 + 2 + 1) = 94 wavefronts; + final s[0] -> 95/25 = 3.8. Stores: 8 initial (1 each) + loop 12 requests / 47 wavefronts -> 55/20 = 2.75. Global as reduce_tree (4 and 1). Same predication caveat as reduce_tree_sequential: if all 8 warps issue the predicated loop LDS/STS, per block there are 129 load and 72 store instructions, i.e. 95/129 = 0.736 and 55/72 = 0.764 wavefronts per instruction; those are the expected values (ratio over all issued LDS/STS, as the issue defines it).')

case('reduce_warp_shuffle', f, 'reduce_shuffle', [1024], [256], {'n': NR},
     {'in': buf(F32, NR), 'out': buf(F32, 1, 'zeros')}, 4, None, sld=1, sst=1,
     acc=[(None, 'sum += in[i];', 'in', 'load', 'coalesced', 4)],
     sh=[(None, 'warp_sums[wid] = sum;', 'warp_sums', 'store', 1),
         (None, 'sum = (threadIdx.x < blockDim.x / 32) ? warp_sums[lane] : 0.0f;', 'warp_sums', 'load', 1)],
     br=[(None, 'if (lane == 0)', 'thread'), (None, 'if (wid == 0)', 'warp')],
     deriv='Grid-stride over 2^22 floats with 262144 threads = 16 full, aligned iterations -> 4 sectors per load. No plain global store (atomicAdd compiles to RED, excluded) -> null. Shared: each warp stores warp_sums[wid] from lane 0 (8 requests, 1 wavefront); warp 0 lanes 0..7 read 8 consecutive words (1 request, 1 wavefront) -> 1 and 1. __shfl_down_sync moves no shared memory.')

# ---------------------------------------------------------------- stencils.cu
f = 'stencils.cu'
W_full = N // 32
ld3 = Fr((W_full - 1) * 14 + 12, W_full * 3)
st3 = Fr((W_full - 1) * 5 + 4, W_full)
case('stencil_1d_3pt', f, 'stencil3_1d', [4096], [256], {'n': N},
     {'in': buf(F32, N), 'out': buf(F32, N, 'zeros')}, ld3, st3,
     acc=[(None, 'out[i] = 0.25f * in[i - 1]', 'in', 'load', 'coalesced', 4),
          (None, '+ 0.50f * in[i]', 'in', 'load', 'misaligned', 5),
          (None, '+ 0.25f * in[i + 1]', 'in', 'load', 'misaligned', 5),
          (None, 'out[i] = 0.25f * in[i - 1]', 'out', 'store', 'misaligned', 5)],
     br=[(None, 'if (i < n - 1)', 'thread')],
     deriv='i = gid + 1. Full warps: in[i-1] = in[gid] aligned (4), in[i] and in[i+1] shifted 4 and 8 B (5 each); store out[gid+1] shifted 4 B (5). The last warp has 30 live lanes (gid <= n-3) whose 120-B spans fit in 4 sectors. 32768 warps: loads (32767*14 + 12)/(3*32768) = 4.666646, stores (32767*5 + 4)/32768 = 4.999969.')

ld5 = Fr((W_full - 1) * 24 + 20, W_full * 5)
case('stencil_1d_5pt', f, 'stencil5_1d', [4096], [256], {'n': N},
     {'in': buf(F32, N), 'out': buf(F32, N, 'zeros')}, ld5, st3,
     acc=[(None, 'float c = in[i];', 'in', 'load', 'misaligned', 5),
          (None, 'float l1 = in[i - 1];', 'in', 'load', 'misaligned', 5),
          (None, 'float r1 = in[i + 1];', 'in', 'load', 'misaligned', 5),
          (None, 'float l2 = in[i - 2];', 'in', 'load', 'coalesced', 4),
          (None, 'float r2 = in[i + 2];', 'in', 'load', 'misaligned', 5),
          (None, 'out[i] = 0.4f * c', 'out', 'store', 'misaligned', 5)],
     br=[(None, 'if (i < n - R5)', 'thread')],
     deriv='i = gid + 2 (R5 = 2). Full warps: offsets gid+0 (4 sectors) and gid+1..gid+4 (5 each) -> 24 per 5 loads; store out[gid+2] shifted 8 B -> 5. Last warp: 28 live lanes, every span fits in 4 sectors (20 load sectors, store 4). Loads (32767*24 + 20)/(5*32768) = 4.799976; stores (32767*5 + 4)/32768 = 4.999969.')

ldl = Fr(30 * 22 + 2 * 21, 32 * 5)
case('stencil_2d_5pt', f, 'laplace2d', [32, 128], [32, 8], {'nx': 1024, 'ny': 1024},
     {'in': buf(F32, 1024 * 1024), 'out': buf(F32, 1024 * 1024, 'zeros')}, ldl, 4,
     acc=[(None, 'float center = in[i];', 'in', 'load', 'coalesced', 4),
          (None, 'float west = in[i - 1];', 'in', 'load', 'misaligned', 5),
          (None, 'float east = in[i + 1];', 'in', 'load', 'misaligned', 5),
          (None, 'float north = in[i - nx];', 'in', 'load', 'coalesced', 4),
          (None, 'float south = in[i + nx];', 'in', 'load', 'coalesced', 4),
          (None, 'out[i] = west + east', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1)', 'thread')],
     deriv='1024x1024, block 32x8: a warp is 32 consecutive x of one row; rows 0 and 1023 issue nothing. Interior warps: center/north/south 4 sectors, west/east 5 -> 22 per 5 loads. First-column warp (lanes 1..31): center 4, west 4, east 5, N/S 4 -> 21; last-column warp (lanes 0..30): center 4, west 5, east 4, N/S 4 -> 21. Per row (30*22 + 2*21)/(32*5) = 702/160 = 4.3875; stores are all 4 sectors (31-lane edge warps still span 4).')

case('stencil_blur3x3', f, 'blur3x3', [32, 128], [32, 8], {'width': 1024, 'pitch': 1056},
     {'in': buf(F32, 1026 * 1056), 'out': buf(F32, 1024 * 1024, 'zeros')}, Fr(42, 9), 4,
     acc=[(None, 'acc += in[(y + RADIUS + dy) * pitch + (x + RADIUS + dx)];', 'in', 'load', 'misaligned', Fr(42, 9)),
          (None, 'out[y * width + x] = acc * (1.0f / 9.0f);', 'out', 'store', 'coalesced', 4)],
     deriv='#define RADIUS 1, both loops fully unrolled (9 loads). pitch 1056 floats (128-B multiple); column offset x + RADIUS + dx = x + 0, 1, 2: 4, 5, 5 sectors -> (3*4 + 6*5)/9 = 4.6667; store 4.')

# ---------------------------------------------------------------- indirect.cu
f = 'indirect.cu'
M = 1 << 22
S = M // 8
E_big = S * (1 - (1 - 1 / S) ** 32)
E_small = 8 * (1 - (7 / 8) ** 32)
case('gather_random', f, 'gather', [4096], [256], {'n': N},
     {'in': buf(F32, M), 'idx': buf(I32, N, 'random_index:%d' % M), 'out': buf(F32, N, 'zeros')}, (4 + E_big) / 2, 4,
     acc=[(None, 'int j = idx[i];', 'idx', 'load', 'coalesced', 4),
          (None, 'out[i] = in[j];', 'in', 'load', 'indirect', E_big),
          (None, 'out[i] = in[j];', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='idx[i] contiguous -> 4 sectors. in[idx[i]] with idx uniform over 2^22 floats = 2^19 sectors: E[distinct sectors of 32 lanes] = S(1 - (1 - 1/S)^32) = 31.99905 -> loads (4 + 31.99905)/2 = 17.9995; store 4.')

case('gather_identity', f, 'gather', [4096], [256], {'n': N},
     {'in': buf(F32, N), 'idx': buf(I32, N, 'arange'), 'out': buf(F32, N, 'zeros')}, 4, 4,
     acc=[(None, 'int j = idx[i];', 'idx', 'load', 'coalesced', 4),
          (None, 'out[i] = in[j];', 'in', 'load', 'indirect', 4),
          (None, 'out[i] = in[j];', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='Same code as gather_random but idx[i] = i: the indirect load is contiguous at run time -> 4 sectors, so loads average 4.0 (a static analyzer can only call the access indirect).')

case('gather_small_table', f, 'gather', [4096], [256], {'n': N},
     {'in': buf(F32, 64), 'idx': buf(I32, N, 'random_index:64'), 'out': buf(F32, N, 'zeros')}, (4 + E_small) / 2, 4,
     acc=[(None, 'int j = idx[i];', 'idx', 'load', 'coalesced', 4),
          (None, 'out[i] = in[j];', 'in', 'load', 'indirect', E_small),
          (None, 'out[i] = in[j];', 'out', 'store', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='64-entry table = 8 sectors; 32 lanes pick uniformly: E[distinct sectors] = 8(1 - (7/8)^32) = 7.8885 -> loads (4 + 7.8885)/2 = 5.9443; store 4.')

case('scatter_random', f, 'scatter', [4096], [256], {'n': N},
     {'in': buf(F32, N), 'idx': buf(I32, N, 'random_index:%d' % M), 'out': buf(F32, M, 'zeros')}, 4, E_big,
     acc=[(None, 'float v = in[i];', 'in', 'load', 'coalesced', 4),
          (None, 'out[idx[i]] = v;', 'idx', 'load', 'coalesced', 4),
          (None, 'out[idx[i]] = v;', 'out', 'store', 'indirect', E_big)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='Loads in[i] and idx[i] contiguous -> 4. Store to out[idx[i]] with idx uniform over 2^22 floats (2^19 sectors) -> E[distinct sectors] = 31.99905 per request (duplicate indices race benignly).')

case('histogram_global_atomics', f, 'histogram_global', [M // 256], [256], {'n': M},
     {'data': buf(I32, M, 'random_index:256'), 'bins': buf('uint32', 256, 'zeros')}, 4, None,
     acc=[(None, 'atomicAdd(&bins[data[i]], 1u);', 'data', 'load', 'coalesced', 4)],
     br=[(None, 'if (i < n)', 'thread')],
     deriv='data[i] contiguous int32 -> 4 sectors per load; the only write is atomicAdd (RED), excluded from stores -> null.')

case('histogram_shared_atomics', f, 'histogram_shared', [512], [256], {'n': M},
     {'data': buf('uint8', M, 'random_index:256'), 'bins': buf('uint32', 256, 'zeros')}, 1, None, sld=1, sst=1,
     acc=[(None, 'atomicAdd(&local[data[i]], 1u);', 'data', 'load', 'coalesced', 1)],
     sh=[(None, 'local[threadIdx.x] = 0;', 'local', 'store', 1),
         (None, 'unsigned int count = local[threadIdx.x];', 'local', 'load', 1)],
     br=[(None, 'if (count > 0)', 'thread')],
     deriv='uint8 data via grid-stride (131072 threads, 32 iterations): 32 consecutive bytes per warp -> 1 sector. Shared: local[threadIdx.x] = 0 and the final read are consecutive words -> 1 wavefront each; the shared atomics (ATOMS) and global atomics (RED) are neither loads nor stores -> global store null.')

# ---------------------------------------------------------------- divergence.cu
f = 'divergence.cu'
for kid, kern, cond, uni, why in (
        ('divergence_odd_even', 'div_odd_even', 'if (threadIdx.x % 2)', 'thread', 'odd/even lanes split every warp'),
        ('divergence_warp_parity', 'div_warp_parity', 'if ((threadIdx.x / 32) % 2)', 'warp', 'whole warps alternate, no warp splits'),
        ('divergence_first_half_warp', 'div_first_half_warp', 'if (threadIdx.x < 16)', 'thread', 'only warp 0 of each block splits (lanes 0-15 vs 16-31)'),
        ('divergence_block_parity', 'div_block_parity', 'if (blockIdx.x % 2)', 'block', 'whole blocks alternate'),
        ('divergence_param', 'div_param', 'if (n > 100)', 'grid', 'the same for every thread of the launch'),
        ('divergence_data', 'div_data', 'if (v > 0.0f)', 'thread', 'depends on random data, ~half the lanes of each warp')):
    case(kid, f, kern, [4096], [256], {'n': N, 'iters': 16},
         {'in': buf(F32, N), 'out': buf(F32, N, 'zeros')}, 4, 4,
         acc=[(None, 'float v = in[i];', 'in', 'load', 'coalesced', 4),
              (None, 'out[i] = v;', 'out', 'store', 'coalesced', 4)],
         br=[(None, 'if (i >= n)', 'thread'), (None, cond, uni)],
         deriv='Contiguous load and store -> 4 sectors each. Branch `%s`: %s -> %s; each side runs 16 iterations of FP work (poly_a: FFMA, poly_b: FADD+FMUL, contracted to FFMA after the first step). The i >= n guard never fires (n = grid size) but is thread-dependent.' % (cond[4:-1], why, uni))

BUILDER.write(os.path.join(ROOT, 'manifest.json'))
print(len(CASES), 'cases')
