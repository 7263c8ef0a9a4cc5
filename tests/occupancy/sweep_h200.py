#!/usr/bin/env python3
"""Ground truth for the occupancy calculator: cudaOccupancyMaxActiveBlocksPerMultiprocessor on a real GPU.

    python3 tests/occupancy/sweep_h200.py --out DIR             # the sweep -> DIR/occupancy_h200.json
    python3 tests/occupancy/sweep_h200.py --ncu-launch --out DIR  # launch ~12 configs once each (run under ncu)
    python3 tests/occupancy/sweep_h200.py --emit-source FILE      # write the generated CUDA source (CPU only)
    bash tests/occupancy/run_h200.sh DIR                          # both passes + ncu, in one device call

The sweep generates CUDA kernels as source strings (one NVRTC module through CuPy), covering
  * register counts 16..255 pinned with __maxnreg__(N) on a kernel that wants > 255 registers
    (the cap is what ptxas uses; spills go to local memory), plus unconstrained kernels,
    and __launch_bounds__ kernels;
  * static shared memory (0 .. 48 KB, incl. sizes that are not multiples of 128 B);
  * extern dynamic shared memory (alone and with 16 KB / 48 KB static);
  * named barriers through inline PTX (`bar.sync ID`, so ptxas reports ID+1 barriers).
For every compiled function it records num_regs, shared_size_bytes, local_size_bytes (and more), then
queries the occupancy API over a designed (not full cross product) set of block sizes, dynamic shared
memory sizes, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES values and
CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT values. The attribute values recorded with each
query are read back from the driver (cuFuncGetAttribute) just before the query. CUDA errors are
recorded per query, never fatal.

CuPy is imported lazily: --help and --emit-source work on a machine without CUDA.
If nvcc is on the PATH, the same source is also compiled with `nvcc -arch=sm_90 -cubin -Xptxas -v`
and ptxas' register/barrier/smem/stack report is stored per kernel as a cross-check (barriers are
not exposed through the function attributes).
"""
import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

KB = 1024
ARCH = 'sm_90'
NVRTC_OPTIONS = ('-std=c++17',)

# Driver enums (cuda.h), used when CuPy does not export the names.
CU_FUNC_ATTRIBUTE = {
    'MAX_THREADS_PER_BLOCK': 0, 'SHARED_SIZE_BYTES': 1, 'CONST_SIZE_BYTES': 2, 'LOCAL_SIZE_BYTES': 3,
    'NUM_REGS': 4, 'PTX_VERSION': 5, 'BINARY_VERSION': 6, 'CACHE_MODE_CA': 7,
    'MAX_DYNAMIC_SHARED_SIZE_BYTES': 8, 'PREFERRED_SHARED_MEMORY_CARVEOUT': 9,
}
# Runtime device attributes (driver_types.h).
DEV_ATTRS = {
    'cudaDevAttrMaxThreadsPerBlock': 1, 'cudaDevAttrMaxSharedMemoryPerBlock': 8, 'cudaDevAttrWarpSize': 10,
    'cudaDevAttrMaxRegistersPerBlock': 12, 'cudaDevAttrMultiProcessorCount': 16,
    'cudaDevAttrMaxThreadsPerMultiProcessor': 39, 'cudaDevAttrComputeCapabilityMajor': 75,
    'cudaDevAttrComputeCapabilityMinor': 76, 'cudaDevAttrMaxSharedMemoryPerMultiprocessor': 81,
    'cudaDevAttrMaxRegistersPerMultiprocessor': 82, 'cudaDevAttrMaxSharedMemoryPerBlockOptin': 97,
    'cudaDevAttrMaxBlocksPerMultiprocessor': 106, 'cudaDevAttrReservedSharedMemoryPerBlock': 111,
}

# H200 / sm_90 limits used only to place edge cases (the sweep records what the driver says).
SMEM_SM = 228 * KB            # 233,472
SMEM_OPTIN = 227 * KB         # 232,448
SMEM_DEFAULT = 48 * KB        # static + dynamic without opt-in

# --------------------------------------------------------------------------- kernels

HEAVY_K = 256   # live floats in the register kernels: wants > 255 registers, so __maxnreg__ binds
SIG = '(const float* __restrict__ in, float* __restrict__ out, int n)'

REG_TARGETS = [16, 24, 25, 28, 31, 32, 33, 36, 39, 40, 41, 44, 47, 48, 49, 52, 56, 57, 60,
               63, 64, 65, 68, 72, 73, 79, 80, 81, 88, 89, 96, 97, 104, 105, 112, 120, 121, 127, 128,
               129, 136, 137, 144, 152, 160, 161, 168, 169, 176, 184, 192, 200, 208, 216, 224, 232,
               240, 248, 249, 254, 255]
# natural register counts (nvcc 13, sm_90): 1->10, 3->13, 5->15, 6->16, 7->19, 9->21, 11->25, 20->31, 28->35, ...
FREE_K = [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 14, 20, 28, 40, 56, 80, 112, 128, 160, 200]
STATIC_SIZES = [1, 100, 1024, 3000, 8192, 16384, 24576, 40960, 47104, 48000, 49152]
BARRIER_IDS = [1, 2, 3, 5, 7, 11, 15]   # bar.sync ID -> ID + 1 barriers (ptxas allocates 0..ID)


def _heavy_body(k):
    return '''{
    float a[%(k)d];
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int i = 0; i < %(k)d; ++i) a[i] = in[t + i];
    for (int it = 0; it < n; ++it) {
#pragma unroll
        for (int i = 0; i < %(k)d; ++i) a[i] = fmaf(a[i], a[(i + 1) %% %(k)d], a[(i + 5) %% %(k)d]);
    }
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < %(k)d; ++i) s += a[i] * (float)(i + 1);
    out[t] = s;
}
''' % {'k': k}


def _static_body(nbytes, extra=''):
    return '''{
    __shared__ unsigned char buf[%(s)d];
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = threadIdx.x; i < %(s)d; i += blockDim.x) buf[i] = (unsigned char)(i * 7 + n);
    __syncthreads();
    float v = (float)buf[(threadIdx.x * 13 + n) %% %(s)d];
%(extra)s    out[t] = v + in[t];
}
''' % {'s': nbytes, 'extra': extra}


DYN_EXTRA = '''    for (int i = threadIdx.x; i < n; i += blockDim.x) dbuf[i] = (unsigned char)(i + 3);
    __syncthreads();
    if (n > 0) v += (float)dbuf[(threadIdx.x * 5) % n];
'''


def kernel_specs():
    """List of dicts: name, source, design (what the kernel was built to exercise)."""
    specs = []
    # 1. Register sweep: capped heavy kernels.
    for r in REG_TARGETS:
        specs.append({'name': 'regs_cap%d' % r, 'group': 'regs', 'design': {'maxnreg': r, 'live_floats': HEAVY_K},
                      'source': 'extern "C" __global__ void __maxnreg__(%d) regs_cap%d%s\n%s' % (
                          r, r, SIG, _heavy_body(HEAVY_K))})
    # 2. Unconstrained kernels of growing live state (natural register counts, incl. < 16).
    specs.append({'name': 'trivial', 'group': 'regs', 'design': {},
                  'source': 'extern "C" __global__ void trivial%s\n{\n    out[blockIdx.x * blockDim.x + threadIdx.x] = (float)n;\n}\n' % SIG})
    for k in FREE_K:
        specs.append({'name': 'regs_free%d' % k, 'group': 'regs', 'design': {'live_floats': k},
                      'source': 'extern "C" __global__ void regs_free%d%s\n%s' % (k, SIG, _heavy_body(k))})
    # 3. __launch_bounds__ (max threads attribute < 1024, and min-blocks register caps).
    for mt, mb in [(256, 0), (128, 8), (1024, 1), (1024, 2), (512, 3), (96, 0)]:
        lb = '__launch_bounds__(%d%s)' % (mt, ', %d' % mb if mb else '')
        name = 'lb%d_%d' % (mt, mb)
        specs.append({'name': name, 'group': 'launch_bounds', 'design': {'max_threads': mt, 'min_blocks': mb},
                      'source': 'extern "C" __global__ void %s %s%s\n%s' % (lb, name, SIG, _heavy_body(HEAVY_K))})
    # 4. Static shared memory.
    for s in STATIC_SIZES:
        specs.append({'name': 'smem_static%d' % s, 'group': 'static_smem', 'design': {'static_smem': s},
                      'source': 'extern "C" __global__ void smem_static%d%s\n%s' % (s, SIG, _static_body(s))})
    # 5. Dynamic shared memory (extern), alone and with static.
    specs.append({'name': 'smem_dyn', 'group': 'dyn_smem', 'design': {'static_smem': 0},
                  'source': '''extern "C" __global__ void smem_dyn%s
{
    extern __shared__ unsigned char dbuf[];
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 0.f;
%s    out[t] = v + in[t];
}
''' % (SIG, DYN_EXTRA)})
    for s in (16384, 49152):
        name = 'smem_dyn_static%d' % s
        specs.append({'name': name, 'group': 'dyn_smem', 'design': {'static_smem': s},
                      'source': 'extern "C" __global__ void %s%s\n%s' % (
                          name, SIG, _static_body(s, '    extern __shared__ unsigned char dbuf[];\n' + DYN_EXTRA))})
    # Dynamic shared memory + many registers (both limiters close).
    specs.append({'name': 'smem_dyn_regs96', 'group': 'dyn_smem', 'design': {'maxnreg': 96, 'static_smem': 0},
                  'source': '''extern "C" __global__ void __maxnreg__(96) smem_dyn_regs96%s
{
    extern __shared__ unsigned char dbuf[];
    float a[%d];
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int i = 0; i < %d; ++i) a[i] = in[t + i];
    for (int i = threadIdx.x; i < n; i += blockDim.x) dbuf[i] = (unsigned char)(i + 3);
    __syncthreads();
    for (int it = 0; it < n; ++it) {
#pragma unroll
        for (int i = 0; i < %d; ++i) a[i] = fmaf(a[i], a[(i + 1) %% %d], (float)dbuf[(i * 31 + it) %% n]);
    }
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < %d; ++i) s += a[i];
    out[t] = s;
}
''' % (SIG, HEAVY_K, HEAVY_K, HEAVY_K, HEAVY_K, HEAVY_K)})
    # 6. Mixed register + static smem kernels.
    for r, s in [(40, 24576), (64, 16384), (96, 8192), (128, 40960), (168, 3000)]:
        name = 'mix_r%d_s%d' % (r, s)
        body = _heavy_body(HEAVY_K).replace(
            '    out[t] = s;\n',
            '    __shared__ unsigned char buf[%d];\n    buf[(threadIdx.x * 3) %% %d] = (unsigned char)s;\n'
            '    __syncthreads();\n    out[t] = s + (float)buf[(threadIdx.x + n) %% %d];\n' % (s, s, s))
        specs.append({'name': name, 'group': 'mixed', 'design': {'maxnreg': r, 'static_smem': s},
                      'source': 'extern "C" __global__ void __maxnreg__(%d) %s%s\n%s' % (r, name, SIG, body)})
    # 7. Named barriers (inline PTX with immediate IDs), plus a __syncthreads-only kernel (1 barrier).
    for bid in [0] + BARRIER_IDS:
        name = 'bar_id%d' % bid
        specs.append({'name': name, 'group': 'barriers', 'design': {'barriers': bid + 1, 'bar_id': bid},
                      'source': '''extern "C" __global__ void %s%s
{
    __shared__ float b[1024];
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    b[threadIdx.x] = in[t];
    asm volatile("bar.sync %d;" ::: "memory");
    out[t] = b[(threadIdx.x + n) %% blockDim.x];
}
''' % (name, SIG, bid)})
    # Barriers + registers.
    specs.append({'name': 'bar_id15_regs64', 'group': 'barriers', 'design': {'barriers': 16, 'maxnreg': 64},
                  'source': 'extern "C" __global__ void __maxnreg__(64) bar_id15_regs64%s\n%s' % (
                      SIG, _heavy_body(HEAVY_K).replace('    float s = 0.f;\n',
                                                        '    asm volatile("bar.sync 15;" ::: "memory");\n    float s = 0.f;\n'))})
    return specs


def full_source(specs):
    return '// generated by tests/occupancy/sweep_h200.py\n\n' + '\n'.join(s['source'] for s in specs)


# --------------------------------------------------------------------------- query plan

BLOCKS = [32, 64, 96, 128, 192, 256, 320, 384, 512, 640, 768, 1024]
ODD_BLOCKS = [1, 33, 100, 160, 224, 288, 480, 544, 800, 992, 1000]
BAD_BLOCKS = [0, 1025, 2048]
CARVEOUTS = [-1, 0, 25, 50, 75, 100]
# Percentages on both sides of every carveout step (8,16,32,64,100,132,164,196,228 KB of 228 KB).
CARVEOUTS_FINE = [-1, 0, 1, 3, 4, 7, 8, 10, 14, 15, 20, 25, 28, 29, 30, 40, 43, 44, 50, 57, 58, 60, 70,
                  71, 72, 75, 80, 85, 86, 90, 99, 100]
ODD_BLOCK_KERNELS = {'trivial', 'regs_free1', 'regs_cap24', 'regs_cap32', 'regs_cap33', 'regs_cap40',
                     'regs_cap41', 'regs_cap48', 'regs_cap56', 'regs_cap63', 'regs_cap64', 'regs_cap65',
                     'regs_cap72', 'regs_cap96', 'regs_cap128', 'regs_cap129', 'regs_cap168', 'regs_cap255'}
DYN_BASIC = [0, 1 * KB, 4 * KB, 16 * KB, 48 * KB, 64 * KB, 100 * KB, 160 * KB, SMEM_OPTIN]


def _dyn_edges(static):
    """Dynamic sizes around the per-block limits and the per-SM pool steps for a kernel with `static`."""
    d = set(DYN_BASIC)
    d.update([1, 127, 128, 129, 3 * KB, 7 * KB, 8 * KB, 15 * KB, 31 * KB, 32 * KB])
    lim_default = SMEM_DEFAULT - static
    lim_optin = SMEM_OPTIN - static
    d.update([lim_default - 1, lim_default, lim_default + 1, lim_optin - 1, lim_optin, lim_optin + 1])
    # per-block total (static + dyn + 1 KB) exactly dividing, and one byte over, pool sizes.
    for pool_kb in (8, 16, 32, 64, 100, 132, 164, 196, 228):
        for nblocks in (1, 2, 3, 4, 7):
            per = pool_kb * KB // nblocks
            per -= per % 128
            dyn = per - KB - static
            if dyn >= 0:
                d.update([dyn, dyn + 1])
    return sorted(x for x in d if x >= 0)


def plan(kernels, static_actual=None):
    """List of (kernel_name, block, dyn, attr_max_dyn or None, carveout or None, tag).

    static_actual: {kernel: compiled static smem}; the edges (limit, limit + 1) are placed with it
    (ptxas rounds e.g. 1 -> 16, 100 -> 112, 3000 -> 3008); without it the design sizes are used.
    """
    q = []
    by = {k['name']: k for k in kernels}
    static_actual = static_actual or {}

    def static_of(name):
        return static_actual.get(name, by[name]['design'].get('static_smem', 0))
    for k in kernels:
        name = k['name']
        # A: every kernel, every standard block size, no dynamic smem, default attributes.
        for b in BLOCKS:
            q.append((name, b, 0, None, None, 'A_blocks'))
        if k['group'] in ('launch_bounds', 'mixed', 'barriers') or name in ODD_BLOCK_KERNELS:
            for b in ODD_BLOCKS + BAD_BLOCKS:
                q.append((name, b, 0, None, None, 'B_odd_blocks'))
    # C: register kernels, small dynamic smem and carveouts at a few block sizes (regs vs smem).
    for k in kernels:
        if k['group'] != 'regs' or not (k['name'].endswith(('cap32', 'cap64', 'cap128', 'cap255', 'cap40'))
                                        or k['name'] == 'trivial'):
            continue
        for b in (32, 128, 256):
            for dyn in (1 * KB, 16 * KB):
                for c in CARVEOUTS:
                    q.append((k['name'], b, dyn, None, c, 'C_regs_smem'))
    # D: static smem kernels: dynamic sizes x carveouts, default max-dyn attribute then raised.
    for k in kernels:
        if k['group'] != 'static_smem':
            continue
        s = static_of(k['name'])
        for b in (32, 128, 1024):
            for dyn in (0, 1, 4 * KB, SMEM_DEFAULT - s, SMEM_DEFAULT - s + 1):
                for c in (CARVEOUTS if b == 128 else (-1, 0, 100)):
                    q.append((k['name'], b, dyn, None, c, 'D_static'))
        for b in (32, 256):
            for dyn in (SMEM_DEFAULT - s + 1, 64 * KB, 100 * KB, 160 * KB, SMEM_OPTIN - s, SMEM_OPTIN - s + 1):
                for c in (-1, 0, 100):
                    q.append((k['name'], b, dyn, SMEM_OPTIN - s, c, 'D_static_optin'))
        # attribute above what the device allows: expect an error on the set
        q.append((k['name'], 32, 0, SMEM_OPTIN - s + 1, None, 'D_attr_over'))
    # E: dynamic smem kernels: the main smem x carveout sweep.
    for name in ('smem_dyn', 'smem_dyn_static16384', 'smem_dyn_static49152'):
        if name not in by:
            continue
        s = static_of(name)
        edges = _dyn_edges(s)
        for attr in (None, SMEM_OPTIN - s, 100 * KB):
            for b in ((32, 256, 1024) if attr is None else (32, 640)):
                for dyn in edges:
                    q.append((name, b, dyn, attr, None, 'E_dyn'))
            if attr == SMEM_OPTIN - s:
                for dyn in (1 * KB, 3 * KB, 7 * KB, 15 * KB, 31 * KB, 63 * KB, 99 * KB, 131 * KB, 163 * KB):
                    if dyn + s <= SMEM_OPTIN:
                        for c in CARVEOUTS_FINE:
                            q.append((name, 32, dyn, attr, c, 'E_dyn_carveout'))
            for b in (96, 640):
                for dyn in (0, 4 * KB, 16 * KB):
                    for c in CARVEOUTS:
                        q.append((name, b, dyn, attr, c, 'E_dyn_carveout'))
        q.append((name, 32, 0, SMEM_OPTIN - s + 1, None, 'E_attr_over'))
        q.append((name, 32, 0, 0, None, 'E_attr_zero'))
        q.append((name, 32, 1, 0, None, 'E_attr_zero'))
    # regs96 + dyn smem.
    for attr in ((None, SMEM_OPTIN) if 'smem_dyn_regs96' in by else ()):
        for b in (32, 128, 256, 640):
            for dyn in (0, 8 * KB, 16 * KB, 32 * KB, 48 * KB, 64 * KB, 100 * KB):
                for c in (-1, 0, 50, 100):
                    q.append(('smem_dyn_regs96', b, dyn, attr, c, 'F_regs_dyn'))
    # H: semantics of CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES lowered below / raised just above
    # its default: is a launch's dynamic size above the attribute refused by the occupancy API?
    for name in ('smem_dyn', 'smem_dyn_static16384', 'smem_static8192'):
        if name not in by:
            continue
        s = static_of(name)
        dflt = SMEM_DEFAULT - s
        for attr in (0, 1024, 16384, 40000 - s, dflt - 1, dflt + 1, 64 * KB, 100 * KB):
            for b in (32, 256):
                for dyn in sorted({0, 1, 1024, 1025, 16383, 16384, 16385, 40000 - s, 40001 - s, dflt, dflt + 1,
                                   dflt + 2, 64 * KB, 64 * KB + 1, 100 * KB, 100 * KB + 1}):
                    q.append((name, b, dyn, attr, None, 'H_attr_semantics'))
    # G: mixed and barrier kernels under carveouts.
    for k in kernels:
        if k['group'] in ('mixed', 'barriers'):
            for b in (32, 256):
                for c in CARVEOUTS:
                    for dyn in (0, 8 * KB):
                        q.append((k['name'], b, dyn, None, c, 'G_mixed_bar'))
    return q


# --------------------------------------------------------------------------- CuPy helpers

def _handle(func):
    for path in (('ptr',), ('kernel', 'ptr'), ('_kernel', 'ptr')):
        obj = func
        try:
            for name in path:
                obj = getattr(obj, name)
            if obj:
                return int(obj)
        except Exception:
            continue
    return None


class Api:
    """Find the CuPy driver entry points by introspection; remember what was used."""

    def __init__(self, cp):
        self.cp = cp
        drv = cp.cuda.driver
        self.drv = drv
        self.used = {}
        self.occ = getattr(drv, 'occupancyMaxActiveBlocksPerMultiprocessor', None)
        self.set_attr = getattr(drv, 'funcSetAttribute', None)
        self.get_attr = getattr(drv, 'funcGetAttribute', None)
        self.attr = {}
        for k, v in CU_FUNC_ATTRIBUTE.items():
            self.attr[k] = int(getattr(drv, 'CU_FUNC_ATTRIBUTE_' + k, v))
        self.used['driver_names'] = sorted(n for n in dir(drv) if 'ccupancy' in n or 'uncAttr' in n
                                           or 'uncSet' in n or 'uncGet' in n)
        self.used['attr_enum'] = dict(self.attr)
        self._sig_set = None
        self._sig_get = None

    def occupancy(self, h, block, dyn):
        return int(self.occ(h, block, dyn))

    def get(self, h, name):
        a = self.attr[name]
        if self._sig_get is None:
            # cupy: funcGetAttribute(int attribute, intptr_t f); probe, verify with NUM_REGS > 0
            for sig, fn in (('(attribute, f)', lambda: self.get_attr(self.attr['MAX_THREADS_PER_BLOCK'], h)),
                            ('(f, attribute)', lambda: self.get_attr(h, self.attr['MAX_THREADS_PER_BLOCK']))):
                try:
                    v = int(fn())
                    if 1 <= v <= 1024:
                        self._sig_get = sig
                        break
                except Exception:
                    continue
            self.used['funcGetAttribute'] = self._sig_get
        if self._sig_get == '(attribute, f)':
            return int(self.get_attr(a, h))
        return int(self.get_attr(h, a))

    def set(self, h, name, value):
        a = self.attr[name]
        # cupy: funcSetAttribute(intptr_t f, int attribute, int value)
        self.set_attr(h, a, int(value))
        self.used['funcSetAttribute'] = '(f, attribute, value)'


def device_info(cp):
    rt = cp.cuda.runtime
    info = {'timestamp_utc': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()),
            'hostname': platform.node(), 'python': sys.version.split()[0], 'cupy': cp.__version__}
    for label, fn in (('runtime_version', rt.runtimeGetVersion), ('driver_version', rt.driverGetVersion)):
        try:
            info[label] = fn()
        except Exception as e:
            info[label] = repr(e)
    try:
        info['nvrtc_version'] = list(cp.cuda.nvrtc.getVersion())
    except Exception as e:
        info['nvrtc_version'] = repr(e)
    props = rt.getDeviceProperties(0)
    clean = {}
    for k, v in props.items():
        if isinstance(v, bytes):
            v = v.decode(errors='replace').rstrip('\x00')
        try:
            json.dumps(v)
        except TypeError:
            v = repr(v)
        clean[k] = v
    info['name'] = clean.get('name')
    info['cc'] = '%s.%s' % (clean.get('major'), clean.get('minor'))
    keep = ('name', 'major', 'minor', 'multiProcessorCount', 'sharedMemPerBlock', 'sharedMemPerBlockOptin',
            'sharedMemPerMultiprocessor', 'reservedSharedMemPerBlock', 'regsPerBlock', 'regsPerMultiprocessor',
            'maxThreadsPerBlock', 'maxThreadsPerMultiProcessor', 'maxBlocksPerMultiProcessor', 'warpSize',
            'l2CacheSize', 'persistingL2CacheMaxSize', 'clockRate', 'totalGlobalMem')
    info['properties'] = {k: clean[k] for k in keep if k in clean}
    info['properties_all'] = clean
    attrs = {}
    for k, v in DEV_ATTRS.items():
        code = int(getattr(rt, k, v))
        try:
            attrs[k] = rt.deviceGetAttribute(code, 0)
        except Exception as e:
            attrs[k] = repr(e)
    info['attributes'] = attrs
    return info


def ptxas_start(source, workdir):
    """Start nvcc -Xptxas -v in the background (None if there is no nvcc)."""
    nvcc = shutil.which('nvcc')
    if not nvcc:
        return None
    src = os.path.join(workdir, 'occ_kernels.cu')
    with open(src, 'w') as fh:
        fh.write(source)
    cmd = [nvcc, '-arch=' + ARCH, '-cubin', '-std=c++17', '-Xptxas', '-v', '-o',
           os.path.join(workdir, 'occ_kernels.cubin'), src]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def ptxas_report(source, workdir, proc=None):
    """{kernel: {registers, barriers, smem, stack, spill...}} from nvcc -Xptxas -v, and a status line."""
    proc = proc or ptxas_start(source, workdir)
    if proc is None:
        return None, 'nvcc not found'
    log, _ = proc.communicate()

    class P:
        returncode = proc.returncode
    p = P()
    rep, cur = {}, None
    for line in log.splitlines():
        m = re.search(r"Function properties for (\w+)", line)
        if m:
            cur = m.group(1)
            rep[cur] = {}
            continue
        if cur is None:
            continue
        m = re.search(r'(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads', line)
        if m:
            rep[cur].update(stack=int(m.group(1)), spill_stores=int(m.group(2)), spill_loads=int(m.group(3)))
        m = re.search(r'Used (\d+) registers', line)
        if m:
            rep[cur]['registers'] = int(m.group(1))
            b = re.search(r'used (\d+) barriers', line)
            rep[cur]['barriers'] = int(b.group(1)) if b else 0
            s = re.search(r'(\d+) bytes smem', line)
            rep[cur]['smem'] = int(s.group(1)) if s else 0
    return rep, ('rc=%d' % p.returncode) + ('' if p.returncode == 0 else ': ' + log[-2000:])


def compile_module(cp, specs):
    """One NVRTC module; if NVRTC rejects __maxnreg__, one module per kernel with --maxrregcount=N."""
    src = full_source(specs)
    t0 = time.time()
    try:
        mod = cp.RawModule(code=src, options=NVRTC_OPTIONS)
        mod.compile()
        funcs = {s['name']: mod.get_function(s['name']) for s in specs}
        return [mod], funcs, time.time() - t0
    except Exception as e:
        print('[compile] one-module compile failed (%s); falling back to one module per kernel'
              % str(e)[-1500:], flush=True)
    mods, funcs = [], {}
    for s in specs:
        code, opts = s['source'], list(NVRTC_OPTIONS)
        m = re.search(r'__maxnreg__\((\d+)\)', code)
        if m:
            code = code.replace(m.group(0), '')
            opts.append('--maxrregcount=%s' % m.group(1))
        try:
            mod = cp.RawModule(code=code, options=tuple(opts))
            mod.compile()
            funcs[s['name']] = mod.get_function(s['name'])
            mods.append(mod)
        except Exception as e:
            print('[compile] %s failed: %s' % (s['name'], str(e)[-500:]), flush=True)
    return mods, funcs, time.time() - t0


def kernel_attrs(api, h):
    out = {}
    for k in ('NUM_REGS', 'SHARED_SIZE_BYTES', 'LOCAL_SIZE_BYTES', 'CONST_SIZE_BYTES', 'MAX_THREADS_PER_BLOCK',
              'MAX_DYNAMIC_SHARED_SIZE_BYTES', 'PREFERRED_SHARED_MEMORY_CARVEOUT', 'PTX_VERSION', 'BINARY_VERSION'):
        try:
            out[k.lower()] = api.get(h, k)
        except Exception as e:
            out[k.lower() + '_error'] = repr(e)
    return out


# --------------------------------------------------------------------------- sweep

def run_sweep(args):
    import cupy as cp
    t_start = time.time()
    cp.cuda.Device(0).use()
    api = Api(cp)
    info = device_info(cp)
    print('[sweep] device %s cc %s, cupy %s' % (info['name'], info['cc'], cp.__version__), flush=True)
    print('[sweep] occupancy API: cupy.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor'
          '(CUfunction ptr, blockSize, dynamicSMemSize); present=%s' % (api.occ is not None), flush=True)
    print('[sweep] driver names: %s' % api.used['driver_names'], flush=True)
    specs = kernel_specs()
    tmp = tempfile.mkdtemp(prefix='occ_')
    t0 = time.time()
    proc = None if args.no_nvcc else ptxas_start(full_source(specs), tmp)   # runs beside NVRTC
    mod, funcs, ct = compile_module(cp, specs)
    print('[sweep] compiled %d kernels (one NVRTC module) in %.1fs' % (len(specs), ct), flush=True)
    ptxas, ptxas_status = (None, 'skipped') if args.no_nvcc else ptxas_report(full_source(specs), tmp, proc)
    print('[sweep] nvcc -Xptxas -v cross-check: %s (%.1fs)' % (ptxas_status, time.time() - t0), flush=True)

    specs = [s for s in specs if s['name'] in funcs]
    kernels = {}
    handles = {}
    for s in specs:
        f = funcs[s['name']]
        h = _handle(f)
        handles[s['name']] = h
        rec = {'group': s['group'], 'design': s['design'], 'handle_found': h is not None}
        for name in ('num_regs', 'shared_size_bytes', 'local_size_bytes', 'const_size_bytes',
                     'max_threads_per_block', 'max_dynamic_shared_size_bytes', 'preferred_shared_memory_carveout'):
            try:
                rec[name] = getattr(f, name)
            except Exception as e:
                rec[name + '_error'] = repr(e)
        if h is not None:
            rec['driver_attrs'] = kernel_attrs(api, h)
        if ptxas is not None:
            rec['ptxas'] = ptxas.get(s['name'])
        b = (ptxas or {}).get(s['name'], {}).get('barriers')
        rec['barriers'] = b if b is not None else s['design'].get('barriers', 0)
        rec['barriers_source'] = 'ptxas' if b is not None else 'design'
        kernels[s['name']] = rec
    api.used['func_handle'] = 'RawKernel.kernel.ptr / .ptr (int CUfunction)'

    queries = plan(specs, {n: k.get('shared_size_bytes', 0) for n, k in kernels.items()})
    print('[sweep] %d queries planned' % len(queries), flush=True)
    records = []
    # kernel -> (max-dyn attr, carveout) currently in effect; starts at the driver's defaults, read back.
    state = {}
    defaults = {}
    for name, h in handles.items():
        try:
            defaults[name] = (api.get(h, 'MAX_DYNAMIC_SHARED_SIZE_BYTES'), api.get(h, 'PREFERRED_SHARED_MEMORY_CARVEOUT'))
        except Exception:
            defaults[name] = (SMEM_DEFAULT - kernels[name].get('shared_size_bytes', 0), -1)
        state[name] = defaults[name]
        kernels[name]['default_max_dynamic_smem_attr'], kernels[name]['default_carveout'] = defaults[name]
    t0 = time.time()
    n_err = 0
    for (name, block, dyn, attr, carve, tag) in queries:
        h = handles[name]
        k = kernels[name]
        err = None
        set_errors = []
        # Bring the function attributes to the wanted state (None = driver default).
        want_attr = defaults[name][0] if attr is None else attr
        want_carve = defaults[name][1] if carve is None else carve
        cur = state[name]
        if cur[0] != want_attr:
            try:
                api.set(h, 'MAX_DYNAMIC_SHARED_SIZE_BYTES', want_attr)
            except Exception as e:
                set_errors.append('set MAX_DYNAMIC_SHARED_SIZE_BYTES=%d: %s' % (want_attr, e))
        if cur[1] != want_carve:
            try:
                api.set(h, 'PREFERRED_SHARED_MEMORY_CARVEOUT', want_carve)
            except Exception as e:
                set_errors.append('set PREFERRED_SHARED_MEMORY_CARVEOUT=%d: %s' % (want_carve, e))
        state[name] = (want_attr, want_carve)
        try:
            attr_now = api.get(h, 'MAX_DYNAMIC_SHARED_SIZE_BYTES')
            carve_now = api.get(h, 'PREFERRED_SHARED_MEMORY_CARVEOUT')
        except Exception as e:
            attr_now = carve_now = None
            set_errors.append('get: %s' % e)
        if (attr_now is not None and attr_now != want_attr) or (carve_now is not None and carve_now != want_carve):
            state[name] = (attr_now, carve_now)
        try:
            n = api.occupancy(h, block, dyn)
        except Exception as e:
            n, err = None, '%s: %s' % (type(e).__name__, e)
            n_err += 1
        records.append({
            'kernel': name, 'tag': tag,
            'registers': k.get('num_regs'), 'static_smem': k.get('shared_size_bytes'),
            'local_bytes': k.get('local_size_bytes'), 'barriers': k['barriers'],
            'block_size': block, 'dynamic_smem': dyn,
            'max_dynamic_smem_attr': attr_now,
            'max_dynamic_smem_raised': attr_now is not None and attr_now > defaults[name][0],
            'carveout': carve_now,
            'active_blocks': n, 'error': err,
            'set_error': '; '.join(set_errors) or None,
        })
    dt = time.time() - t0
    print('[sweep] %d queries in %.2fs, %d query errors, %d attribute-set errors' % (
        len(records), dt, n_err, sum(1 for r in records if r['set_error'])), flush=True)

    out = {
        'schema': 'cudaperf occupancy ground truth v1',
        'generator': 'tests/occupancy/sweep_h200.py',
        'device': info,
        'api': dict(api.used, occupancy='cupy.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(func_ptr, blockSize, dynamicSMemSize)',
                    set_attribute='cupy.cuda.driver.funcSetAttribute(func_ptr, attribute, value)',
                    get_attribute='cupy.cuda.driver.funcGetAttribute %s' % api.used.get('funcGetAttribute')),
        'compile': {'nvrtc_options': list(NVRTC_OPTIONS), 'compile_seconds': round(ct, 2),
                    'ptxas_crosscheck': ptxas_status},
        'notes': ['max_dynamic_smem_attr and carveout are read back with cuFuncGetAttribute before each query',
                  'carveout -1 = CU_SHAREDMEM_CARVEOUT_DEFAULT; a failed attribute set is in set_error '
                  '(the record then holds the value still in effect)',
                  'barriers: from ptxas -v (nvcc, same source) when barriers_source=ptxas'],
        'kernels': kernels,
        'source': full_source(specs),
        'records': records,
        'elapsed_seconds': round(time.time() - t_start, 2),
    }
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, 'occupancy_h200.json')
    with open(path, 'w') as fh:
        # compact: one record per line
        recs = out.pop('records')
        body = json.dumps(out, indent=1, sort_keys=False)
        fh.write(body[:-2] + ',\n "records": [\n')
        fh.write(',\n'.join('  ' + json.dumps(r, separators=(',', ':')) for r in recs))
        fh.write('\n ]\n}\n')
    print('[sweep] wrote %s (%d records, %.1fs total)' % (path, len(recs), time.time() - t_start), flush=True)


# --------------------------------------------------------------------------- ncu launches

# (kernel, block, dyn, max-dyn attr or None, carveout or None) -- one launch each, grid = 1 block.
NCU_CONFIGS = [
    ('trivial', 32, 0, None, None),               # blocks limit (32)
    ('trivial', 1024, 0, None, None),             # warps limit (2)
    ('regs_cap40', 256, 0, None, None),           # registers: 40 -> 48 warps -> 6
    ('regs_cap64', 128, 0, None, None),           # registers: 64 -> 32 warps -> 8
    ('regs_cap168', 96, 0, None, None),           # registers, block not a multiple of 128
    ('regs_cap255', 256, 0, None, None),          # registers: 255 -> 1
    ('smem_static16384', 128, 0, None, None),     # static smem: 13
    ('smem_dyn', 256, 64 * KB, SMEM_OPTIN, None), # dynamic smem with opt-in: 3
    ('smem_dyn', 32, 8 * KB, None, 25),           # carveout 25% -> 64 KB pool: 7
    ('smem_dyn', 32, 1 * KB, None, 0),            # carveout 0% -> 8 KB pool: 4
    ('smem_dyn', 128, SMEM_OPTIN, SMEM_OPTIN, None),  # exactly the opt-in max: 1
    ('bar_id15', 32, 0, None, None),              # 16 barriers: 4
    ('bar_id3', 64, 0, None, None),               # 4 barriers: 16
    ('mix_r96_s8192', 128, 0, None, 50),          # registers vs smem under a carveout
    ('regs_cap32', 1024, 0, None, None),          # registers: 32 -> 64 warps, warps limit 2
    ('regs_cap65', 896, 0, None, None),           # 65 regs, block = the function's max threads
    ('smem_dyn', 128, 30 * KB, SMEM_OPTIN, None), # which carveout config the driver picks by default
    ('smem_dyn', 32, 1024, 0, None),              # dynamic smem above a lowered attribute (launch may fail)
    ('bar_id7', 128, 0, None, 0),                 # barriers vs carveout 0
]


def run_ncu_launch(args):
    import cupy as cp
    cp.cuda.Device(0).use()
    api = Api(cp)
    specs = kernel_specs()
    need = {c[0] for c in NCU_CONFIGS}
    specs = [s for s in specs if s['name'] in need]
    mod, funcs, ct = compile_module(cp, specs)
    print('[ncu-launch] compiled %d kernels in %.1fs' % (len(specs), ct), flush=True)
    inp = cp.arange(4096, dtype=cp.float32) * 1e-3
    out = cp.zeros(4096, dtype=cp.float32)
    log = []
    for i, (name, block, dyn, attr, carve) in enumerate(NCU_CONFIGS):
        if name not in funcs:
            continue
        f = funcs[name]
        h = _handle(f)
        rec = {'index': i, 'kernel': name, 'block_size': block, 'dynamic_smem': dyn,
               'max_dynamic_smem_attr_requested': attr, 'carveout_requested': carve, 'error': None}
        try:
            api.set(h, 'MAX_DYNAMIC_SHARED_SIZE_BYTES',
                    attr if attr is not None else SMEM_DEFAULT - f.shared_size_bytes)
            api.set(h, 'PREFERRED_SHARED_MEMORY_CARVEOUT', -1 if carve is None else carve)
            rec['max_dynamic_smem_attr'] = api.get(h, 'MAX_DYNAMIC_SHARED_SIZE_BYTES')
            rec['carveout'] = api.get(h, 'PREFERRED_SHARED_MEMORY_CARVEOUT')
            rec['registers'] = f.num_regs
            rec['static_smem'] = f.shared_size_bytes
            rec['active_blocks_api'] = api.occupancy(h, block, dyn)
            n_arg = dyn if name.startswith('smem_dyn') else 1
            f((1,), (block,), (inp, out, cp.int32(n_arg)), shared_mem=dyn)
            cp.cuda.Device(0).synchronize()
        except Exception as e:
            rec['error'] = '%s: %s' % (type(e).__name__, e)
        print('[ncu-launch] %s' % json.dumps(rec), flush=True)
        log.append(rec)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, 'ncu_launches.json'), 'w') as fh:
        json.dump(log, fh, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--out', default='.', help='output directory (default: .)')
    ap.add_argument('--ncu-launch', action='store_true',
                    help='launch the NCU_CONFIGS once each (grid of 1 block) and write ncu_launches.json')
    ap.add_argument('--emit-source', metavar='FILE', help='write the generated CUDA source and exit (no GPU)')
    ap.add_argument('--plan', action='store_true', help='print the number of planned queries and exit (no GPU)')
    ap.add_argument('--no-nvcc', action='store_true', help='skip the nvcc -Xptxas -v cross-check')
    args = ap.parse_args()
    if args.emit_source:
        with open(args.emit_source, 'w') as fh:
            fh.write(full_source(kernel_specs()))
        print('wrote %s (%d kernels)' % (args.emit_source, len(kernel_specs())))
        return
    if args.plan:
        q = plan(kernel_specs())
        tags = {}
        for x in q:
            tags[x[5]] = tags.get(x[5], 0) + 1
        print('%d kernels, %d queries: %s' % (len(kernel_specs()), len(q), tags))
        return
    if args.ncu_launch:
        run_ncu_launch(args)
    else:
        run_sweep(args)


if __name__ == '__main__':
    main()
