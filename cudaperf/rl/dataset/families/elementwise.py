"""Elementwise activations: y = f(x), f(x + y), f(x * y) over a flat array and f(x + b[col]) over a
matrix.  Implementations: one element per thread, per-thread chunks (uncoalesced), a grid-stride
loop, 16-byte vector accesses; the matrix variant also a column-major thread mapping and a 2-D grid."""

from __future__ import annotations

from collections.abc import Iterator

from ..kit import Impl, Signature, Task, Tensor, both_kinds, build

# name -> (expression of `a` in ACC, as CUDA and C both read it; the same in torch on a float tensor)
OPS = {
    "relu": ("a > CA(0) ? a : CA(0)", "torch.relu(a)"),
    "leaky_relu": ("a > CA(0) ? a : CA(0.01) * a", "F.leaky_relu(a, 0.01)"),
    "gelu": ("CA(0.5) * a * (CA(1) + erf(a * CA(0.7071067811865476)))", "F.gelu(a)"),
    "gelu_tanh": ("CA(0.5) * a * (CA(1) + tanh(CA(0.7978845608028654) * (a + CA(0.044715) * a * a * a)))",
                  "F.gelu(a, approximate='tanh')"),
    "silu": ("a / (CA(1) + exp(-a))", "F.silu(a)"),
    "sigmoid": ("CA(1) / (CA(1) + exp(-a))", "torch.sigmoid(a)"),
    "tanh": ("tanh(a)", "torch.tanh(a)"),
    "softplus": ("a > CA(20) ? a : log1p(exp(a))", "F.softplus(a)"),
    "elu": ("a > CA(0) ? a : expm1(a)", "F.elu(a)"),
    "selu": ("CA(1.0507009873554805) * (a > CA(0) ? a : CA(1.6732632423543772) * expm1(a))", "F.selu(a)"),
    "hardswish": ("a * fmin(fmax(a + CA(3), CA(0)), CA(6)) / CA(6)", "F.hardswish(a)"),
    "hardsigmoid": ("fmin(fmax(a + CA(3), CA(0)), CA(6)) / CA(6)", "F.hardsigmoid(a)"),
    "mish": ("a * tanh(a > CA(20) ? a : log1p(exp(a)))", "F.mish(a)"),
    "softsign": ("a / (CA(1) + fabs(a))", "F.softsign(a)"),
    "hardtanh": ("fmin(fmax(a, CA(-1)), CA(1))", "F.hardtanh(a)"),
    "relu6": ("fmin(fmax(a, CA(0)), CA(6))", "F.relu6(a)"),
    "logsigmoid": ("fmin(a, CA(0)) - log1p(exp(-fabs(a)))", "F.logsigmoid(a)"),
    "tanhshrink": ("a - tanh(a)", "F.tanhshrink(a)"),
    "square": ("a * a", "a * a"),
    "abs": ("fabs(a)", "torch.abs(a)"),
    "exp": ("exp(a)", "torch.exp(a)"),
    "sin": ("sin(a)", "torch.sin(a)"),
}

# variant -> (input names, how the values combine into `a`, C and torch forms)
FLAT = {"unary": (("x",), "v0", "x.float()", "x"),
        "add": (("x", "y"), "v0 + v1", "x.float() + y.float()", "x + y"),
        "mul": (("x", "y"), "v0 * v1", "x.float() * y.float()", "x * y")}
FLAT_SIZES = {"c2cuda": [{"n": 1 << 18}, {"n": 1 << 20}, {"n": 1 << 22}],
              "torch2cuda": [{"n": 1 << 20}, {"n": 1 << 22}, {"n": 1 << 24}]}
BIAS_SIZES = {"c2cuda": [{"rows": 512, "cols": 512}, {"rows": 1024, "cols": 1024}, {"rows": 2048, "cols": 1024}],
              "torch2cuda": [{"rows": 1024, "cols": 1024}, {"rows": 4096, "cols": 1024},
                             {"rows": 8192, "cols": 2048}]}

OP_FN = "__device__ __forceinline__ ACC op(ACC a) { return $EXPR; }\n"


def _flat_impls(names: tuple[str, ...], vec: int) -> list[Impl]:
    params = ", ".join(f"const T* __restrict__ {n}" for n in names) + ", T* __restrict__ out, int n"
    loads = " ".join(f"ACC v{k} = ld({n}[i]);" for k, n in enumerate(names))
    vloads = " ".join(f"uint4 r{k} = reinterpret_cast<const uint4*>({n})[q]; "
                      f"const T* e{k} = reinterpret_cast<const T*>(&r{k});" for k, n in enumerate(names))
    vk = " ".join(f"ACC v{k} = ld(e{k}[k]);" for k in range(len(names)))
    head = OP_FN + f"extern \"C\" __global__ void $KERNEL({params}) {{\n"
    args = [*names, "out", "n"]
    step = f"{loads} out[i] = st(op($COMBINE));"
    return [
        Impl("naive", ("naive",), "one element per thread",
             head + f"    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) {{ {step} }}\n}}\n",
             "cdiv(n, 256)", "256", args),
        Impl("chunked", ("naive", "uncoalesced"), "eight consecutive elements per thread (strided warp accesses)",
             head + "    int base = (blockIdx.x * blockDim.x + threadIdx.x) * 8;\n"
                    f"    for (int k = 0; k < 8; ++k) {{\n        int i = base + k;\n        if (i < n) {{ {step} }}\n"
                    "    }\n}\n",
             "cdiv(n, 2048)", "256", args),
        Impl("grid_stride", ("grid-stride", "coalesced"), "one wave of blocks looping over the array",
             head + "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {\n"
                    f"        {step}\n    }}\n}}\n",
             "min(cdiv(n, 256), 1056)", "256", args),
        Impl("vectorised", ("vectorised", "coalesced"), "16-byte loads and stores, VEC elements per thread",
             head + "    int q = blockIdx.x * blockDim.x + threadIdx.x;\n    int i0 = q * VEC;\n"
                    f"    if (i0 + VEC <= n) {{\n        {vloads}\n"
                    "        uint4 ro; T* eo = reinterpret_cast<T*>(&ro);\n#pragma unroll\n"
                    f"        for (int k = 0; k < VEC; ++k) {{ {vk} eo[k] = st(op($COMBINE)); }}\n"
                    "        reinterpret_cast<uint4*>(out)[q] = ro;\n"
                    f"    }} else {{\n        for (int i = i0; i < n; ++i) {{ {step} }}\n    }}\n}}\n",
             f"cdiv(n, {256 * vec})", "256", args),
    ]


def _bias_impls(vec: int) -> list[Impl]:
    head = OP_FN + ("extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, const T* __restrict__ b, "
                    "T* __restrict__ out, int rows, int cols) {\n")
    args = ["x", "b", "out", "rows", "cols"]
    return [
        Impl("naive", ("naive", "coalesced"), "one element per thread over the flat matrix",
             head + "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "    if (i < rows * cols) out[i] = st(op(ld(x[i]) + ld(b[i % cols])));\n}\n",
             "cdiv(rows * cols, 256)", "256", args),
        Impl("column_major", ("naive", "uncoalesced"), "consecutive threads walk down a column",
             head + "    int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "    if (t < rows * cols) {\n        int r = t % rows, j = t / rows;\n"
                    "        out[r * cols + j] = st(op(ld(x[r * cols + j]) + ld(b[j])));\n    }\n}\n",
             "cdiv(rows * cols, 256)", "256", args),
        Impl("grid2d", ("coalesced", "2d-grid"), "a 32x8 block per tile, x along columns",
             head + "    int j = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;\n"
                    "    if (r < rows && j < cols) out[r * cols + j] = st(op(ld(x[r * cols + j]) + ld(b[j])));\n}\n",
             ["cdiv(cols, 32)", "cdiv(rows, 8)"], ["32", "8"], args),
        Impl("vectorised", ("vectorised", "coalesced"), "16-byte loads of x and b, VEC elements per thread",
             head + "    int q = blockIdx.x * blockDim.x + threadIdx.x;\n    int i0 = q * VEC;\n"
                    "    if (i0 >= rows * cols) return;\n    int j0 = i0 % cols;\n"
                    "    if (cols % VEC == 0) {\n"
                    "        uint4 rx = reinterpret_cast<const uint4*>(x)[q];\n"
                    "        uint4 rb = *reinterpret_cast<const uint4*>(b + j0);\n"
                    "        const T* ex = reinterpret_cast<const T*>(&rx); const T* eb = reinterpret_cast<const T*>(&rb);\n"
                    "        uint4 ro; T* eo = reinterpret_cast<T*>(&ro);\n#pragma unroll\n"
                    "        for (int k = 0; k < VEC; ++k) eo[k] = st(op(ld(ex[k]) + ld(eb[k])));\n"
                    "        reinterpret_cast<uint4*>(out)[q] = ro;\n"
                    "    } else {\n        for (int i = i0; i < i0 + VEC && i < rows * cols; ++i)\n"
                    "            out[i] = st(op(ld(x[i]) + ld(b[i % cols])));\n    }\n}\n",
             f"cdiv(rows * cols, {256 * vec})", "256", args),
    ]


def tasks() -> Iterator[Task]:
    for op, (expr, torch_expr) in OPS.items():
        for kind, dtype in both_kinds():
            vec = 16 // {"float32": 4, "float64": 8, "float16": 2, "bfloat16": 2}[dtype]
            for variant, (names, combine, torch_a, text) in FLAT.items():
                sig = Signature(("n",), tuple(Tensor(n, ("n",)) for n in names), (Tensor("out", ("n",)),))
                loads = " ".join(f"ACC v{k} = CA({n}[i]);" for k, n in enumerate(names))
                yield build(family="elementwise", variant=f"{op}-{variant}", kind=kind, dtype=dtype,
                            description=f"out = {op}({text}) elementwise over {dtype} arrays of n elements",
                            sig=sig, configs=FLAT_SIZES[kind], check={"n": 5003}, impls=_flat_impls(names, vec),
                            c_body=f"    for (int i = 0; i < n; ++i) {{ {loads} ACC a = {combine}; "
                                   f"out[i] = (T)({expr}); }}",
                            torch_forward=f"a = {torch_a}\nreturn ({torch_expr}).to(x.dtype)",
                            values={"EXPR": expr, "COMBINE": combine})
            sig = Signature(("rows", "cols"), (Tensor("x", ("rows", "cols")), Tensor("b", ("cols",))),
                            (Tensor("out", ("rows", "cols")),))
            yield build(family="elementwise", variant=f"{op}-bias", kind=kind, dtype=dtype,
                        description=f"out = {op}(x + b) for a {dtype} matrix x (rows, cols) and a bias b (cols) "
                                    f"broadcast over its rows",
                        sig=sig, configs=BIAS_SIZES[kind], check={"rows": 7, "cols": 96}, impls=_bias_impls(vec),
                        c_body="    for (int r = 0; r < rows; ++r)\n        for (int j = 0; j < cols; ++j) {\n"
                               f"            ACC a = CA(x[r * cols + j]) + CA(b[j]);\n"
                               f"            out[r * cols + j] = (T)({expr});\n        }}",
                        torch_forward=f"a = x.float() + b.float()\nreturn ({torch_expr}).to(x.dtype)",
                        values={"EXPR": expr})

