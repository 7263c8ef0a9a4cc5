#!/usr/bin/env python3
"""Collect ground truth for the calibration corpus on a real GPU (written for an H200).

Each case of tests/corpus/manifest.json is compiled with NVRTC (through CuPy),
its buffers are filled on the host with a seeded RNG and copied to the device
(memcpy only, so a profiler sees nothing but the corpus kernels), and the kernel
is launched exactly once with the case's grid/block/smem/args.

    python3 tests/corpus/measure_h200.py --out DIR [--only ID,...] [--time | --no-time]
    python3 tests/corpus/measure_h200.py --summarize DIR     # join DIR/ncu_raw.csv with the manifest
    python3 tests/corpus/measure_h200.py --list [--shared-only]

Writes DIR/launch_order.json, DIR/attributes.json, DIR/device.json and, with
--time, DIR/timings.json (CUDA events, 3 warm-up launches, median of 20).
Run it under `ncu` with --no-time (the default) so each kernel is launched once;
tests/corpus/measure_h200.sh drives the whole collection.

The ncu metric list, NVRTC options and buffer initialisation are cudaperf's own
(cudaperf.analysis.dynamic, which `cudaperf profile` uses too); the repository
root is put on sys.path for them, and they need neither tree-sitter nor a GPU.
cupy (and numpy) are imported lazily so --help, --list and --summarize work on a
machine without a GPU.
"""
import argparse
import csv
import datetime
import json
import os
import platform
import re
import statistics
import sys
import time
import traceback
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from cudaperf.analysis.dynamic.buffers import BufferSpec, host_array  # noqa: E402
from cudaperf.analysis.dynamic.counters import METRICS as NCU_METRICS  # noqa: E402
from cudaperf.analysis.dynamic.gpu import NVRTC_OPTIONS  # noqa: E402

DEFAULT_MANIFEST = os.path.join(HERE, 'manifest.json')

BUFFER_DTYPES = ('float16', 'float32', 'float64', 'int32', 'int64', 'uint8', 'int16', 'uint32')
INIT_KINDS = ('random', 'zeros', 'arange', 'random_index')


# --------------------------------------------------------------------------- source parsing

def _strip_comments(src):
    src = re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), src, flags=re.S)
    return re.sub(r'//[^\n]*', '', src)


def _split_top_level(text, sep=','):
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in '(<[{':
            depth += 1
        elif ch in ')>]}':
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(''.join(cur))
            cur = []
        else:
            cur.append(ch)
    if ''.join(cur).strip():
        parts.append(''.join(cur))
    return [p.strip() for p in parts]


def find_kernel(src, kernel):
    """Return (param_text, body_text, start_offset) of `__global__ ... kernel(...) {...}`."""
    clean = _strip_comments(src)
    pat = re.compile(r'__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+'
                     r'(?:__launch_bounds__\s*\([^)]*\)\s*)?' + re.escape(kernel) + r'\s*\(')
    m = pat.search(clean)
    if not m:
        return None
    i = m.end()
    depth = 1
    j = i
    while depth and j < len(clean):
        if clean[j] == '(':
            depth += 1
        elif clean[j] == ')':
            depth -= 1
        j += 1
    params = clean[i:j - 1]
    k = clean.index('{', j)
    depth, e = 1, k + 1
    while depth and e < len(clean):
        if clean[e] == '{':
            depth += 1
        elif clean[e] == '}':
            depth -= 1
        e += 1
    return params, clean[k:e], m.start()


def parse_params(param_text):
    """[(name, type_text, is_pointer)] from a parameter list."""
    out = []
    text = param_text.strip()
    if not text or text == 'void':
        return out
    for p in _split_top_level(text):
        p = re.sub(r'\s+', ' ', p).strip()
        p = p.split('=')[0].strip()
        m = re.match(r'^(.*?)([A-Za-z_]\w*)\s*((?:\[[^\]]*\])*)$', p)
        if not m:
            raise ValueError('cannot parse parameter %r' % p)
        typ, name, arr = m.group(1).strip(), m.group(2), m.group(3)
        is_ptr = '*' in typ or bool(arr)
        out.append((name, typ, is_ptr))
    return out


_SCALAR_TYPES = {
    'int': 'int32', 'signed': 'int32', 'signed int': 'int32', 'int32_t': 'int32',
    'unsigned': 'uint32', 'unsigned int': 'uint32', 'uint32_t': 'uint32',
    'long': 'int64', 'long int': 'int64', 'long long': 'int64', 'long long int': 'int64',
    'int64_t': 'int64', 'ptrdiff_t': 'int64',
    'unsigned long': 'uint64', 'unsigned long int': 'uint64', 'unsigned long long': 'uint64',
    'unsigned long long int': 'uint64', 'uint64_t': 'uint64', 'size_t': 'uint64',
    'short': 'int16', 'short int': 'int16', 'int16_t': 'int16',
    'unsigned short': 'uint16', 'unsigned short int': 'uint16', 'uint16_t': 'uint16',
    'char': 'int8', 'signed char': 'int8', 'int8_t': 'int8',
    'unsigned char': 'uint8', 'uint8_t': 'uint8',
    'bool': 'bool',
    'float': 'float32', 'double': 'float64', '__half': 'float16', 'half': 'float16',
}


def scalar_dtype_name(type_text):
    t = re.sub(r'\b(const|volatile|__restrict__|__restrict|restrict|struct)\b', ' ', type_text)
    t = re.sub(r'\bstd::', '', t)
    t = re.sub(r'\s+', ' ', t).strip()
    if t not in _SCALAR_TYPES:
        raise ValueError('unsupported scalar parameter type %r' % type_text)
    return _SCALAR_TYPES[t]


def kernel_params(src, kernel):
    found = find_kernel(src, kernel)
    if found is None:
        raise ValueError('kernel %r not found' % kernel)
    return parse_params(found[0])


def load_manifest(path):
    with open(path) as fh:
        return json.load(fh)


def name_expression(case):
    return case['kernel'] + (case.get('template_args') or '')


def case_uses_shared(case, manifest_dir):
    e = case.get('expect') or {}
    if e.get('shared_load_wavefronts_per_request') is not None or \
            e.get('shared_store_wavefronts_per_request') is not None:
        return True
    with open(os.path.join(manifest_dir, case['file'])) as fh:
        found = find_kernel(fh.read(), case['kernel'])
    return bool(found and '__shared__' in found[1])


# --------------------------------------------------------------------------- GPU side

def _jsonable(v):
    if isinstance(v, bytes):
        return v.decode('utf-8', 'replace').rstrip('\x00')
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (int, float, str, bool)) or v is None:
        return v
    try:
        return v.item()
    except Exception:
        return repr(v)


def device_info(cp):
    info = {'timestamp_utc': datetime.datetime.now(datetime.UTC).isoformat(),
            'hostname': platform.node(), 'python': sys.version, 'platform': platform.platform()}
    try:
        info['properties'] = _jsonable(cp.cuda.runtime.getDeviceProperties(0))
    except Exception as e:
        info['properties_error'] = repr(e)
    for key, fn in (('runtime_version', lambda: cp.cuda.runtime.runtimeGetVersion()),
                    ('driver_version', lambda: cp.cuda.runtime.driverGetVersion()),
                    ('nvrtc_version', lambda: cp.cuda.nvrtc.getVersion()),
                    ('cupy_version', lambda: cp.__version__),
                    ('numpy_version', lambda: __import__('numpy').__version__),
                    ('compute_capability', lambda: cp.cuda.Device(0).compute_capability),
                    ('cuda_visible_devices', lambda: os.environ.get('CUDA_VISIBLE_DEVICES'))):
        try:
            info[key] = _jsonable(fn())
        except Exception as e:
            info[key + '_error'] = repr(e)
    try:
        import pynvml
        pynvml.nvmlInit()
        h = pynvml.nvmlDeviceGetHandleByIndex(0)
        nv = {'name': _jsonable(pynvml.nvmlDeviceGetName(h)),
              'driver': _jsonable(pynvml.nvmlSystemGetDriverVersion())}
        for label, fn in (
                ('clock_sm_mhz', lambda: pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM)),
                ('clock_mem_mhz', lambda: pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_MEM)),
                ('max_clock_sm_mhz', lambda: pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_SM)),
                ('max_clock_mem_mhz', lambda: pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_MEM)),
                ('memory_total_bytes', lambda: pynvml.nvmlDeviceGetMemoryInfo(h).total),
                ('power_limit_mw', lambda: pynvml.nvmlDeviceGetPowerManagementLimit(h)),
                ('temperature_c', lambda: pynvml.nvmlDeviceGetTemperature(h, pynvml.NVML_TEMPERATURE_GPU)),
                ('mig_mode', lambda: pynvml.nvmlDeviceGetMigMode(h))):
            try:
                nv[label] = _jsonable(fn())
            except Exception as e:
                nv[label + '_error'] = repr(e)
        info['nvml'] = nv
        pynvml.nvmlShutdown()
    except Exception as e:
        info['nvml_error'] = repr(e)
    return info


def _function_handle(func):
    """CUfunction handle of a cupy RawKernel / cupy.cuda.Function (attribute names vary by version)."""
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


def occupancy(cp, func, block_threads, smem):
    errors = []
    handle = _function_handle(func)
    if handle is None:
        return None, None, ['no CUfunction handle found on %s' % type(func).__name__]
    for label, call in (
            ('driver', lambda: cp.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(
                handle, block_threads, smem)),
            ('driver_flags', lambda: cp.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                handle, block_threads, smem, 0))):
        try:
            return int(call()), label, errors
        except Exception as e:
            errors.append('%s: %r' % (label, e))
    return None, None, errors


def function_attributes(func):
    attrs = {}
    for name in ('num_regs', 'shared_size_bytes', 'const_size_bytes', 'local_size_bytes',
                 'max_threads_per_block', 'max_dynamic_shared_size_bytes', 'ptx_version',
                 'binary_version', 'cache_mode_ca', 'preferred_shared_memory_carveout'):
        try:
            attrs[name] = _jsonable(getattr(func, name))
        except Exception as e:
            attrs[name + '_error'] = repr(e)
    return attrs


def run(args):
    import cupy as cp
    import numpy as np

    manifest_path = os.path.abspath(args.manifest)
    manifest_dir = os.path.dirname(manifest_path)
    cases = load_manifest(manifest_path)
    if args.only:
        wanted = [x.strip() for x in args.only.split(',') if x.strip()]
        by_id = {c['id']: c for c in cases}
        missing = [w for w in wanted if w not in by_id]
        if missing:
            print('unknown case ids: %s' % ', '.join(missing), file=sys.stderr)
            return 2
        cases = [by_id[w] for w in wanted]
    os.makedirs(args.out, exist_ok=True)

    dev = cp.cuda.Device(0)
    dev.use()
    dinfo = device_info(cp)
    with open(os.path.join(args.out, 'device.json'), 'w') as fh:
        json.dump(dinfo, fh, indent=1)
    props = dinfo.get('properties', {})
    max_threads_per_sm = props.get('maxThreadsPerMultiProcessor')
    sm_count = props.get('multiProcessorCount')

    # One NVRTC module per source file, holding every name expression used from it.
    sources, modules, module_errors = {}, {}, {}
    exprs_by_file = {}
    for c in cases:
        exprs_by_file.setdefault(c['file'], [])
        ne = name_expression(c)
        if ne not in exprs_by_file[c['file']]:
            exprs_by_file[c['file']].append(ne)
    for rel, exprs in exprs_by_file.items():
        with open(os.path.join(manifest_dir, rel)) as fh:
            sources[rel] = fh.read()
        t0 = time.time()
        try:
            mod = cp.RawModule(code=sources[rel], options=NVRTC_OPTIONS, name_expressions=exprs)
            mod.compile()
            modules[rel] = mod
            print('[compile] %-28s %d kernels in %.1fs' % (rel, len(exprs), time.time() - t0), flush=True)
        except Exception as e:
            module_errors[rel] = '%s: %s' % (type(e).__name__, e)
            print('[compile] %s FAILED: %s' % (rel, module_errors[rel]), flush=True)

    launch_order, attributes, timings = [], [], []
    ncu_index = 0
    pool = cp.get_default_memory_pool()
    for c in cases:
        cid, rel = c['id'], c['file']
        rec = {'id': cid, 'kernel': c['kernel'], 'name_expression': name_expression(c),
               'file': rel, 'launched': False, 'ok': False, 'error': None, 'ncu_index': None}
        arec = {'id': cid, 'kernel': c['kernel'], 'name_expression': name_expression(c)}
        t_case = time.time()
        func = None
        try:
            if rel not in modules:
                raise RuntimeError('module not compiled: %s' % module_errors.get(rel))
            func = modules[rel].get_function(name_expression(c))
            params = kernel_params(sources[rel], c['kernel'])
            seed = zlib.crc32(cid.encode())
            kargs, host_bytes = [], 0
            device_bufs = []
            for k, (pname, ptype, is_ptr) in enumerate(params):
                if is_ptr:
                    spec = c['buffers'][pname]
                    h = host_array(BufferSpec(pname, spec['dtype'], int(spec['count']), spec.get('init', 'random')),
                                   seed + 7919 * (k + 1))
                    host_bytes += h.nbytes
                    d = cp.asarray(h)
                    device_bufs.append(d)
                    kargs.append(d)
                else:
                    dt = scalar_dtype_name(ptype)
                    val = c['args'][pname]
                    kargs.append(np.dtype(dt).type(val))
            grid = tuple(int(x) for x in c['grid'])
            block = tuple(int(x) for x in c['block'])
            smem = int(c.get('smem') or 0)
            block_threads = block[0] * block[1] * block[2]
            arec.update(function_attributes(func))
            occ, occ_api, occ_err = occupancy(cp, func, block_threads, smem)
            arec['occupancy_blocks_per_sm'] = occ
            arec['occupancy_api'] = occ_api
            if occ_err and occ is None:
                arec['occupancy_errors'] = occ_err
            if occ is not None and max_threads_per_sm:
                arec['occupancy_theoretical_pct'] = 100.0 * occ * block_threads / max_threads_per_sm
            arec.update({'grid': list(grid), 'block': list(block), 'smem_dynamic': smem,
                         'block_threads': block_threads, 'sm_count': sm_count,
                         'buffer_bytes': host_bytes})
            cp.cuda.Device().synchronize()
            func(grid, block, tuple(kargs), shared_mem=smem)
            rec['launched'] = True
            rec['ncu_index'] = ncu_index
            ncu_index += 1
            cp.cuda.Device().synchronize()
            rec['ok'] = True
            if args.time:
                for _ in range(3):
                    func(grid, block, tuple(kargs), shared_mem=smem)
                cp.cuda.Device().synchronize()
                samples = []
                start, end = cp.cuda.Event(), cp.cuda.Event()
                for _ in range(20):
                    start.record()
                    func(grid, block, tuple(kargs), shared_mem=smem)
                    end.record()
                    end.synchronize()
                    samples.append(cp.cuda.get_elapsed_time(start, end) * 1000.0)
                timings.append({'id': cid, 'kernel': c['kernel'], 'median_us': statistics.median(samples),
                                'min_us': min(samples), 'mean_us': statistics.fmean(samples),
                                'samples_us': samples, 'warmup': 3, 'repeats': 20})
            del device_bufs, kargs
        except Exception as e:
            rec['error'] = '%s: %s' % (type(e).__name__, e)
            rec['traceback'] = traceback.format_exc(limit=4)
            arec.setdefault('error', rec['error'])
        finally:
            try:
                pool.free_all_blocks()
            except Exception:
                pass
        rec['wall_s'] = round(time.time() - t_case, 3)
        status = 'ok' if rec['ok'] else ('LAUNCHED-FAILED' if rec['launched'] else 'ERROR')
        extra = ''
        if args.time and timings and timings[-1]['id'] == cid:
            extra = ' %.1f us' % timings[-1]['median_us']
        print('[case] %-34s %-16s %s%s' % (cid, status, rec['error'] or '', extra), flush=True)
        launch_order.append(rec)
        attributes.append(arec)

    with open(os.path.join(args.out, 'launch_order.json'), 'w') as fh:
        json.dump(launch_order, fh, indent=1)
    with open(os.path.join(args.out, 'attributes.json'), 'w') as fh:
        json.dump(attributes, fh, indent=1)
    if args.time:
        with open(os.path.join(args.out, 'timings.json'), 'w') as fh:
            json.dump(timings, fh, indent=1)
    n_ok = sum(1 for r in launch_order if r['ok'])
    print('%d/%d cases ran' % (n_ok, len(launch_order)), flush=True)
    return 0 if n_ok == len(launch_order) else 1


# --------------------------------------------------------------------------- summary (CPU only)

def _num(s):
    if s is None:
        return None
    s = s.strip().replace(',', '')
    if s in ('', 'n/a', 'N/A', 'nan'):
        return None
    try:
        return float(s)
    except ValueError:
        return None


def read_ncu_csv(path):
    """Rows of `ncu --csv --page raw` (header row, then a units row, then one row per kernel)."""
    with open(path, newline='', errors='replace') as fh:
        lines = fh.read().splitlines()
    start = None
    for k, line in enumerate(lines):
        if line.startswith('"ID"') or line.startswith('ID,'):
            start = k
            break
    if start is None:
        return [], []
    rows = list(csv.reader(lines[start:]))
    header = rows[0]
    body = []
    for r in rows[1:]:
        if len(r) != len(header):
            continue
        d = dict(zip(header, r))
        if not re.match(r'^\d+$', d.get('ID', '').strip()):
            continue  # units row or noise
        body.append(d)
    return header, body


def summarize(out_dir, manifest_path):
    cases = {c['id']: c for c in load_manifest(manifest_path)}
    with open(os.path.join(out_dir, 'launch_order.json')) as fh:
        order = json.load(fh)
    header, rows = read_ncu_csv(os.path.join(out_dir, 'ncu_raw.csv'))
    launched = [r for r in order if r.get('launched')]
    result = {'n_ncu_rows': len(rows), 'n_launched': len(launched), 'cases': []}
    if len(rows) != len(launched):
        result['warning'] = 'ncu rows (%d) != launched kernels (%d); mapping by order may be off' % (
            len(rows), len(launched))

    def ratio(row, a, b):
        x, y = _num(row.get(a)), _num(row.get(b))
        if x is None or y is None or y == 0:
            return None
        return x / y

    for rec, row in zip(launched, rows):
        c = cases.get(rec['id'])
        if c is None:
            continue
        name = row.get('Kernel Name', '')
        if c['kernel'] not in name:
            result.setdefault('name_mismatches', []).append({'id': rec['id'], 'ncu_kernel': name})
        def shared_ratio(op):
            wf = 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum' % op
            r = ratio(row, wf, 'smsp__inst_executed_op_shared_%s_pred_on_any.sum' % op)
            return r if r is not None else ratio(row, wf, 'smsp__inst_executed_op_shared_%s.sum' % op)

        # Shared ratios divide by warp instructions with >= 1 predicated-on thread (falls back
        # to all executed LDS/STS if that metric is missing); *_per_instruction divide by all.
        measured = {
            'global_load_sectors_per_request': ratio(row, 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum',
                                                     'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum'),
            'global_store_sectors_per_request': ratio(row, 'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum',
                                                      'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum'),
            'shared_load_wavefronts_per_request': shared_ratio('ld'),
            'shared_store_wavefronts_per_request': shared_ratio('st'),
        }
        measured_alt = {
            'shared_load_wavefronts_per_instruction': ratio(
                row, 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', 'smsp__inst_executed_op_shared_ld.sum'),
            'shared_store_wavefronts_per_instruction': ratio(
                row, 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum', 'smsp__inst_executed_op_shared_st.sum'),
        }
        raw = {m: _num(row.get(m)) for m in NCU_METRICS if m in row}
        entry = {'id': rec['id'], 'kernel': c['kernel'], 'ncu_kernel_name': name, 'measured': measured,
                 'measured_alt': measured_alt, 'expected': {k: c['expect'].get(k) for k in measured}, 'raw': raw}
        result['cases'].append(entry)
    with open(os.path.join(out_dir, 'summary.json'), 'w') as fh:
        json.dump(result, fh, indent=1)

    def fmt(v):
        return '    -   ' if v is None else '%8.3f' % v
    print('%-34s %s' % ('case', '   gld exp/meas     gst exp/meas     sld exp/meas     sst exp/meas'))
    for e in result['cases']:
        cols = []
        for k in ('global_load_sectors_per_request', 'global_store_sectors_per_request',
                  'shared_load_wavefronts_per_request', 'shared_store_wavefronts_per_request'):
            ex, me = e['expected'][k], e['measured'][k]
            flag = ' '
            if ex is not None and me is not None and abs(ex - me) > 0.02 * max(1.0, abs(ex)):
                flag = '*'
            cols.append('%s%s%s' % (fmt(ex), fmt(me), flag))
        print('%-34s %s' % (e['id'], ' '.join(cols)))
    if 'warning' in result:
        print('WARNING:', result['warning'])
    return 0


# --------------------------------------------------------------------------- main

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog='\n\n'.join(__doc__.split('\n\n')[1:]))
    ap.add_argument('--out', help='output directory')
    ap.add_argument('--only', help='comma-separated case ids to run (default: all, in manifest order)')
    ap.add_argument('--manifest', default=DEFAULT_MANIFEST, help='path to manifest.json')
    g = ap.add_mutually_exclusive_group()
    g.add_argument('--time', dest='time', action='store_true',
                   help='after the single launch, time each case with CUDA events (3 warm-up, median of 20)')
    g.add_argument('--no-time', dest='time', action='store_false',
                   help='launch each kernel exactly once (the default; use under ncu / compute-sanitizer)')
    ap.set_defaults(time=False)
    ap.add_argument('--summarize', metavar='DIR',
                    help='join DIR/ncu_raw.csv with DIR/launch_order.json and the manifest; write DIR/summary.json')
    ap.add_argument('--list', action='store_true', help='print the case ids (comma-separated) and exit')
    ap.add_argument('--shared-only', action='store_true', help='with --list: only cases whose kernel uses shared memory')
    ap.add_argument('--metrics', action='store_true', help='print the ncu metric list (comma-separated) and exit')
    args = ap.parse_args(argv)

    if args.metrics:
        print(','.join(NCU_METRICS))
        return 0
    if args.list:
        mpath = os.path.abspath(args.manifest)
        cases = load_manifest(mpath)
        if args.shared_only:
            cases = [c for c in cases if case_uses_shared(c, os.path.dirname(mpath))]
        print(','.join(c['id'] for c in cases))
        return 0
    if args.summarize:
        return summarize(args.summarize, os.path.abspath(args.manifest))
    if not args.out:
        ap.error('--out is required')
    return run(args)


if __name__ == '__main__':
    sys.exit(main())
