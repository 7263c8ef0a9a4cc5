#!/usr/bin/env python3
"""Consistency checks for tests/corpus/manifest.json (CPU only, no GPU needed).

    python3 tests/corpus/check_manifest.py [--no-compile] [--sass]

Checks: JSON structure and enums; each case's file exists and defines the kernel;
every pointer parameter has a buffer and every scalar parameter an arg (and
nothing extra); scalar types are supported by measure_h200.py; launch shapes are
legal; access/branch line numbers point at lines that contain the array / an
`if`; kernels without `__shared__` expect no shared-memory ratios.  With nvcc on
PATH every kernel file is compiled for sm_90 (-std=c++17) together with the
template instantiations the manifest names.  --sass (needs cuobjdump) prints the
global/shared memory instructions of each instantiated kernel, which shows where
the compiler vectorised or predicated accesses.

Buffer bounds are not proven here; run `compute-sanitizer --tool memcheck` over
measure_h200.py on a GPU (measure_h200.sh's `sanitize` phase does).
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import measure_h200 as mh  # noqa: E402  (no GPU imports at module level)

PATTERNS = {'coalesced', 'strided', 'misaligned', 'broadcast', 'indirect'}
UNIFORMITY = {'thread', 'warp', 'block', 'grid'}
KINDS = {'load', 'store'}
RATIO_KEYS = ('global_load_sectors_per_request', 'global_store_sectors_per_request',
              'shared_load_wavefronts_per_request', 'shared_store_wavefronts_per_request')
MAX_BUFFER_BYTES = 256 << 20
DTYPE_BYTES = {'float16': 2, 'float32': 4, 'float64': 8, 'int32': 4, 'int64': 8,
               'uint8': 1, 'int16': 2, 'uint32': 4}


def check(manifest_path):
    errors = []
    root = os.path.dirname(os.path.abspath(manifest_path))
    cases = mh.load_manifest(manifest_path)
    if not isinstance(cases, list):
        return ['manifest is not a list'], []
    seen = set()
    sources = {}
    for c in cases:
        cid = c.get('id', '?')

        def err(msg):
            errors.append('%s: %s' % (cid, msg))

        for key in ('id', 'file', 'kernel', 'template_args', 'grid', 'block', 'smem', 'args', 'buffers',
                    'expect', 'derivation'):
            if key not in c:
                err('missing key %s' % key)
        if not re.match(r'^[a-z][a-z0-9_]*$', cid):
            err('id is not snake_case')
        if cid in seen:
            err('duplicate id')
        seen.add(cid)
        path = os.path.join(root, c['file'])
        if not os.path.exists(path):
            err('file %s missing' % c['file'])
            continue
        if path not in sources:
            with open(path) as fh:
                sources[path] = fh.read()
        src = sources[path]
        lines = src.split('\n')
        found = mh.find_kernel(src, c['kernel'])
        if found is None:
            err('kernel %s not found in %s' % (c['kernel'], c['file']))
            continue
        params = mh.parse_params(found[0])
        body = found[1]
        is_template = bool(re.search(r'template\s*<[^;{]*>\s*__global__[^;{]*\b' + re.escape(c['kernel']) + r'\s*\(',
                                     mh._strip_comments(src)))
        if is_template and not c.get('template_args'):
            err('template kernel without template_args')
        if not is_template and c.get('template_args'):
            err('template_args given for a non-template kernel')
        ptr_names = {p for p, _, isp in params if isp}
        scal_names = {p for p, _, isp in params if not isp}
        if set(c['buffers']) != ptr_names:
            err('buffers %s != pointer params %s' % (sorted(c['buffers']), sorted(ptr_names)))
        if set(c['args']) != scal_names:
            err('args %s != scalar params %s' % (sorted(c['args']), sorted(scal_names)))
        for p, t, isp in params:
            if not isp:
                try:
                    mh.scalar_dtype_name(t)
                except ValueError as e:
                    err(str(e))
        for bname, b in c['buffers'].items():
            if b.get('dtype') not in DTYPE_BYTES:
                err('buffer %s: bad dtype %r' % (bname, b.get('dtype')))
                continue
            init = b.get('init', '')
            if not (init in ('random', 'zeros', 'arange') or re.match(r'^random_index:\d+$', init)):
                err('buffer %s: bad init %r' % (bname, init))
            if not isinstance(b.get('count'), int) or b['count'] <= 0:
                err('buffer %s: bad count' % bname)
            elif b['count'] * DTYPE_BYTES[b['dtype']] > MAX_BUFFER_BYTES:
                err('buffer %s larger than 256 MB' % bname)
        g, bl = c['grid'], c['block']
        if len(g) != 3 or len(bl) != 3 or any((not isinstance(x, int)) or x < 1 for x in g + bl):
            err('grid/block must be 3 positive ints')
        elif bl[0] * bl[1] * bl[2] > 1024 or bl[2] > 64 or g[1] > 65535 or g[2] > 65535:
            err('illegal launch shape')
        if not isinstance(c['smem'], int) or c['smem'] < 0 or c['smem'] > 48 * 1024:
            err('smem must be an int in [0, 49152] (no opt-in attribute is set)')
        if c['smem'] and 'extern __shared__' not in body:
            err('dynamic smem given but kernel has no extern __shared__')
        e = c['expect']
        for k in RATIO_KEYS:
            if k not in e:
                err('expect.%s missing' % k)
            elif e[k] is not None and not isinstance(e[k], (int, float)):
                err('expect.%s not a number/null' % k)
        if '__shared__' not in body and (e.get('shared_load_wavefronts_per_request') is not None
                                         or e.get('shared_store_wavefronts_per_request') is not None):
            err('shared ratios given but the kernel uses no __shared__')
        for a in e.get('access_patterns', []):
            if a.get('kind') not in KINDS:
                err('access kind %r' % a.get('kind'))
            if a.get('pattern') not in PATTERNS:
                err('access pattern %r' % a.get('pattern'))
            if a.get('array') not in c['buffers']:
                err('access array %r is not a buffer' % a.get('array'))
            ln = a.get('line', 0)
            if not (1 <= ln <= len(lines)):
                err('access line %r out of range' % ln)
            elif a.get('expr') and a['expr'] not in lines[ln - 1]:
                err('line %d does not contain %r' % (ln, a['expr']))
        for s in e.get('shared_accesses', []):
            ln = s.get('line', 0)
            if s.get('kind') not in KINDS:
                err('shared access kind %r' % s.get('kind'))
            if not (1 <= ln <= len(lines)) or s['array'] not in lines[ln - 1]:
                err('shared access line %r does not mention %s' % (ln, s.get('array')))
        for b in e.get('branches', []):
            ln = b.get('line', 0)
            if b.get('uniformity') not in UNIFORMITY:
                err('branch uniformity %r' % b.get('uniformity'))
            if not (1 <= ln <= len(lines)) or not re.search(r'\bif\b', lines[ln - 1]):
                err('branch line %r has no `if`' % ln)
        if not isinstance(c.get('derivation'), str) or len(c['derivation']) < 20:
            err('derivation missing')
    return errors, cases


def instantiation_tu(path, exprs):
    body = ['#include "%s"' % path, 'void __corpus_force_instantiations() {']
    for x in exprs:
        body.append('    (void)&%s;' % x)
    body.append('}')
    return '\n'.join(body) + '\n'


def compile_all(cases, root, sass=False):
    nvcc = shutil.which('nvcc')
    if not nvcc:
        print('nvcc not found: skipping compilation')
        return []
    errors = []
    by_file = collections.OrderedDict()
    for c in cases:
        by_file.setdefault(c['file'], [])
        x = mh.name_expression(c)
        if x not in by_file[c['file']]:
            by_file[c['file']].append(x)
    cuobjdump = shutil.which('cuobjdump')
    with tempfile.TemporaryDirectory() as td:
        for rel, exprs in by_file.items():
            path = os.path.join(root, rel)
            tu = os.path.join(td, 'tu.cu')
            with open(tu, 'w') as fh:
                fh.write(instantiation_tu(path, [x for x in exprs if '<' in x]))
            cub = os.path.join(td, 'tu.cubin')
            for src_file in (path, tu):
                r = subprocess.run([nvcc, '-arch=sm_90', '-cubin', '-std=c++17', '-lineinfo', '-o', cub, src_file],
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    errors.append('%s: nvcc failed:\n%s' % (rel if src_file == path else rel + ' (instantiated)',
                                                            r.stderr[-2000:]))
            print('compiled %-28s (%d kernels)' % (rel, len(exprs)))
            if sass and cuobjdump and os.path.exists(cub):
                r = subprocess.run([cuobjdump, '-sass', cub], capture_output=True, text=True)
                print_sass_summary(rel, r.stdout)
    return errors


def print_sass_summary(rel, sass):
    func = None
    counts = collections.OrderedDict()
    for line in sass.splitlines():
        m = re.search(r'Function : (\S+)', line)
        if m:
            func = m.group(1)
            counts[func] = collections.Counter()
            continue
        m = re.search(r'(@!?U?P\w+\s+)?\b(LDG|STG|LDS|STS|ATOMS|ATOMG|REDG|RED|ATOM|LDSM)(\.[A-Z0-9_.]+)?\b', line)
        if m and func:
            op = m.group(2) + (m.group(3) or '')
            op = re.sub(r'\.(E|CONSTANT|STRONG\.GPU|STRONG\.SYS|EF|EL|LU|EU|NA)\b', '', op)
            if m.group(1):
                op = 'pred:' + op
            counts[func][op] += 1
    print('  SASS memory instructions in %s:' % rel)
    for f, cnt in counts.items():
        print('    %-60s %s' % (f[:60], ', '.join('%s x%d' % kv for kv in sorted(cnt.items()))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--manifest', default=os.path.join(HERE, 'manifest.json'))
    ap.add_argument('--no-compile', action='store_true')
    ap.add_argument('--sass', action='store_true', help='print SASS memory-instruction summaries (needs cuobjdump)')
    args = ap.parse_args()
    errors, cases = check(args.manifest)
    if not args.no_compile:
        errors += compile_all(cases, os.path.dirname(os.path.abspath(args.manifest)), sass=args.sass)
    files = sorted({c['file'] for c in cases})
    print('%d cases, %d files, %d kernels' % (len(cases), len(files),
                                             len({(c['file'], mh.name_expression(c)) for c in cases})))
    for e in errors:
        print('ERROR', e)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
