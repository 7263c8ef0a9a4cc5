"""Gate rules over KernelBench-format Python candidates, read with `ast` (nothing is executed).

The "forward path" is every function body except `__init__` methods: what runs on each call.  Names
are resolved through the file's imports, so `import torch.nn.functional as F; F.relu` and
`from torch import cuda; cuda.Stream` are seen for what they are."""

from __future__ import annotations

import ast
import re

from . import gate_cuda, gate_flags
from .gate import Violation

MODULE_RULES = {
    "threads": ("threading", "_thread", "multiprocessing", "concurrent", "asyncio"),
    "process-escape": ("subprocess", "ctypes", "cffi", "socket", "signal", "pty", "resource", "mmap", "psutil",
                       "pynvml", "atexit", "faulthandler"),
    "dynamic-code": ("importlib", "inspect", "gc", "builtins", "sys", "code", "codeop", "runpy", "marshal", "dis",
                     "types", "weakref", "cudaperf"),
    "file-access": ("pickle", "shelve", "io", "pathlib", "shutil", "tempfile", "glob", "urllib", "http",
                    "requests", "sqlite3", "dbm"),
}
OS_ALLOWED = {"environ", "path", "getenv", "cpu_count", "sep"}
QUALIFIED_RULES = [  # (rule, qualified-name prefixes)
    ("side-stream", ("torch.cuda.Stream", "torch.cuda.stream", "torch.cuda.set_stream", "torch.cuda.ExternalStream",
                     "torch.cuda.StreamContext", "torch.cuda.streams", "torch.Stream", "cupy.cuda.Stream",
                     "cupy.cuda.ExternalStream")),
    ("cuda-graph", ("torch.cuda.graph", "torch.cuda.CUDAGraph", "torch.cuda.make_graphed_callables",
                    "torch.cuda.graphs", "torch.cuda.graph_pool_handle", "cupy.cuda.graph")),
    ("torch-compiler", ("torch.compile", "torch.jit", "torch._dynamo", "torch._inductor", "torch.fx", "torch.export")),
    ("precision-flags", ("torch.backends", "torch.set_float32_matmul_precision", "torch.set_default_dtype",
                         "torch.set_default_tensor_type", "torch.set_flush_denormal")),
    ("lazy-output", ("torch.Tensor._make_subclass", "torch.Tensor._make_wrapper_subclass", "torch.Tensor.as_subclass",
                     "torch.utils._python_dispatch", "torch.overrides")),
    ("file-access", ("torch.save", "torch.load", "numpy.save", "numpy.load", "numpy.fromfile", "numpy.memmap",
                     "torch.hub", "torch.from_file")),
    ("try-fallback", ("contextlib.suppress",)),
    ("result-cache", ("functools.lru_cache", "functools.cache", "functools.cached_property")),
    ("torch-op", ("torch.ops", "torch.nn.functional", "torch.linalg", "torch.fft", "torch.special")),
]
TORCH_ALLOWED = {"empty", "empty_like", "empty_strided", "zeros", "zeros_like", "ones", "ones_like", "full",
                 "full_like", "tensor", "as_tensor", "device", "dtype", "Size", "is_tensor", "numel", "finfo", "iinfo",
                 "no_grad", "inference_mode", "get_default_dtype", "is_floating_point", "cat", "stack", "split",
                 "chunk", "narrow", "flatten", "reshape", "transpose", "permute", "squeeze", "unsqueeze",
                 "broadcast_to", "manual_seed", "cuda.current_device", "cuda.synchronize", "cuda.is_available",
                 "cuda.device", "cuda.get_device_properties", "cuda.get_device_capability", "nn.Parameter",
                 "nn.init", "contiguous_format", "channels_last"}
NN_HOLDERS = {"Parameter", "ParameterList", "ParameterDict", "Module", "ModuleList", "ModuleDict", "Identity",
              "Buffer"}
COMPUTE_METHODS = {"matmul", "mm", "bmm", "addmm", "baddbmm", "mv", "dot", "conv1d", "conv2d", "conv3d", "relu",
                   "relu_", "gelu", "silu", "softmax", "log_softmax", "sigmoid", "tanh", "sum", "mean", "amax", "amin",
                   "argmax", "argmin", "prod", "cumsum", "cumprod", "norm", "exp", "log", "sqrt", "rsqrt", "pow",
                   "clamp", "clamp_", "add", "add_", "sub", "sub_", "mul", "mul_", "div", "div_", "where", "sort",
                   "topk", "var", "std", "maximum", "minimum", "masked_fill", "masked_fill_", "index_select",
                   "gather", "scatter", "scatter_", "tril", "triu", "einsum", "abs", "neg", "reciprocal", "logsumexp",
                   "matrix_power", "outer", "cross", "kron", "fill_diagonal_"}
NUMPY_ALLOWED = {"prod", "ceil", "floor", "dtype"}
LOW_PRECISION = {"half", "bfloat16", "float16"}
EXTENSION_BUILDERS = ("torch.utils.cpp_extension.load_inline", "torch.utils.cpp_extension.load",
                      "cupy.RawKernel", "cupy.RawModule", "torch.cuda._compile_kernel")
DYNAMIC_BUILTINS = {"eval", "exec", "compile", "__import__", "globals", "vars", "locals", "breakpoint"}
DUNDER_ESCAPES = {"__dict__", "__globals__", "__code__", "__closure__", "__builtins__", "__subclasses__", "__bases__",
                  "__class__", "__getattribute__", "__setattr__", "__delattr__", "__mro__", "__import__", "__func__",
                  "__self__", "__wrapped__", "__reduce__", "__reduce_ex__"}
MUTATORS = {"append", "extend", "insert", "update", "setdefault", "add", "__setitem__", "pop", "popitem", "clear"}
HARNESS_NAMES = {"Model", "get_inputs", "get_init_inputs"}
_CUDA_HINT = re.compile(r"__global__|#\s*include|torch::|at::|<<<")
_REFERENCE_LOW = re.compile(r"float16|bfloat16|\bhalf\b", re.I)


class _Checker(ast.NodeVisitor):
    def __init__(self, tree: ast.Module, reference: str | None):
        self.found: list[Violation] = []
        self.reference = reference or ""
        self.aliases: dict[str, str] = {}
        self.module_names: set[str] = set()
        self.extensions: set[str] = set()
        self.nn_attributes: set[str] = set()
        self.module_layers: set[str] = set()
        self.extension_only: set[str] = set()
        self._extension_objects: set[str] = set()
        self._extension_functions: set[str] = set()
        self.function_stack: list[tuple[ast.AST, set[str]]] = []
        self.forward_calls_extension = False
        self.has_builder = False
        self._collect(tree)

    # -- pre-pass: imports, module-level names, extension objects, nn layers held by __init__ --
    def _collect(self, tree: ast.Module) -> None:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    self.aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for a in node.names:
                    self.aliases[a.asname or a.name] = f"{node.module}.{a.name}"
        for node in tree.body:
            for target in _assigned(node):
                self.module_names.add(target)
        changed = True
        while changed:  # names bound to builders, or to attributes/calls of extension names; functions returning them
            changed = False
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef) and node.name not in self.extensions and any(
                        isinstance(r, ast.Return) and r.value is not None and self._is_extension_value(r.value)
                        for r in ast.walk(node)):
                    self.extensions.add(node.name)
                    changed = True
                if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
                    continue
                if self._is_extension_value(node.value):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for t in targets:
                        name = t.id if isinstance(t, ast.Name) else (
                            "self." + t.attr if isinstance(t, ast.Attribute) and _root(t) == "self" else None)
                        if name and name not in self.extensions:
                            self.extensions.add(name)
                            changed = True
        self._collect_extension_only(tree)
        for node in tree.body:  # torch layers held at module level (`_gelu = nn.GELU()`)
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and self._is_layer(node.value.func):
                self.module_layers.update(t.id for t in node.targets if isinstance(t, ast.Name))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "__init__":
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Assign) and isinstance(sub.value, ast.Call):
                        q = self.qualname(sub.value.func) or ""
                        if q.startswith("torch.nn.") and q.split(".")[2] not in NN_HOLDERS:
                            for t in sub.targets:
                                if isinstance(t, ast.Attribute) and _root(t) == "self":
                                    self.nn_attributes.add(t.attr)

    def _collect_extension_only(self, tree: ast.Module) -> None:
        """Names every binding of which is `= None` or the compiled extension module itself (a builder call,
        a call of a function returning one, or another such name): a lazily built extension, not a result."""
        objects, functions = self._extension_objects, self._extension_functions
        is_object = self._is_extension_object

        changed = True
        while changed:
            changed = False
            for node in ast.walk(tree):
                if isinstance(node, ast.Assign | ast.AnnAssign) and is_object(node.value):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    new = {t.id for t in targets if isinstance(t, ast.Name)} - objects
                elif isinstance(node, ast.FunctionDef) and any(
                        isinstance(r, ast.Return) and is_object(r.value) for r in ast.walk(node)):
                    new = {node.name} - functions
                    functions.update(new)
                    changed = changed or bool(new)
                    continue
                else:
                    continue
                objects.update(new)
                changed = changed or bool(new)
        good_targets = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None and (
                    is_object(node.value) or (isinstance(node.value, ast.Constant) and node.value.value is None)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                good_targets.update(id(t) for t in targets if isinstance(t, ast.Name))
        stores: dict[str, bool] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                stores[node.id] = stores.get(node.id, True) and id(node) in good_targets
        self.extension_only = {n for n, good in stores.items() if good and n in objects}

    def _is_extension_object(self, value: ast.AST | None) -> bool:
        if isinstance(value, ast.Call):
            q = self.qualname(value.func) or ""
            return q in EXTENSION_BUILDERS or q.endswith((".load_inline", "cpp_extension.load")) or (
                isinstance(value.func, ast.Name) and value.func.id in self._extension_functions)
        return isinstance(value, ast.Name) and value.id in self._extension_objects

    def _is_layer(self, func: ast.AST) -> bool:
        """`func` names a torch.nn layer class (nn.GELU, nn.LayerNorm), not a holder like nn.Parameter."""
        q = (self.qualname(func) or "").split(".")
        return len(q) == 3 and q[:2] == ["torch", "nn"] and q[2][:1].isupper() and q[2] not in NN_HOLDERS

    def _is_extension_value(self, value: ast.AST) -> bool:
        if isinstance(value, ast.Call):
            q = self.qualname(value.func) or ""
            if q in EXTENSION_BUILDERS or q.endswith((".load_inline", "cpp_extension.load")):
                self.has_builder = True
                return True
            return self._is_extension_value(value.func)
        if isinstance(value, ast.Attribute):
            return self._refers_to_extension(value)
        if isinstance(value, ast.Name):
            return value.id in self.extensions
        return False

    def _refers_to_extension(self, node: ast.AST) -> bool:
        while isinstance(node, ast.Attribute | ast.Call | ast.Subscript):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self" \
                    and "self." + node.attr in self.extensions:
                return True
            node = node.func if isinstance(node, ast.Call) else node.value
        return isinstance(node, ast.Name) and node.id in self.extensions

    def qualname(self, node: ast.AST) -> str | None:
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.aliases:
            return None
        base = self.aliases[node.id]
        base = {"np": "numpy", "cp": "cupy"}.get(base, base)
        return ".".join([base, *reversed(parts)])

    def add(self, rule: str, node: ast.AST, message: str) -> None:
        self.found.append(Violation(rule, getattr(node, "lineno", 1), message))

    @property
    def in_forward(self) -> bool:
        return bool(self.function_stack) and not any(
            isinstance(f, ast.FunctionDef) and f.name == "__init__" for f, _ in self.function_stack)

    def _local(self, name: str) -> bool:
        return any(name in names for _, names in self.function_stack)

    # -- visitors --
    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            self._module(a.name, node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module:
            self._module(node.module, node)
            for a in node.names:
                self._qualified(f"{node.module}.{a.name}", node)

    def _module(self, name: str, node: ast.AST) -> None:
        top = name.split(".")[0]
        for rule, modules in MODULE_RULES.items():
            if top in modules:
                self.add(rule, node, f"imports {name}")

    def _qualified(self, q: str, node: ast.AST) -> None:
        for rule, prefixes in QUALIFIED_RULES:
            if any(q == p or q.startswith(p + ".") for p in prefixes):
                if rule == "torch-op" and not self.in_forward:
                    continue
                self.add(rule, node, f"uses {q}")
        if q.startswith("os.") and q.split(".")[1] not in OS_ALLOWED:
            self.add("process-escape", node, f"uses {q}")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        q = self.qualname(node)
        if q is not None and isinstance(node.ctx, ast.Load):
            self._qualified(q, node)
        if node.attr in DUNDER_ESCAPES:
            self.add("dynamic-code", node, f"reaches {node.attr}")
        if node.attr in ("data_ptr", "_version", "_cdata", "untyped_storage", "storage"):
            self.add("result-cache", node, f"reads tensor identity ({node.attr})")
        if node.attr in ("as_subclass", "_make_subclass", "_make_wrapper_subclass"):
            self.add("lazy-output", node, f"creates a tensor subclass ({node.attr})")
        if node.attr in LOW_PRECISION and not _REFERENCE_LOW.search(self.reference):
            self.add("precision-downgrade", node, f"converts to {node.attr}")
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            if node.id in DYNAMIC_BUILTINS:
                self.add("dynamic-code", node, f"uses {node.id}")
            elif node.id in ("setattr", "delattr"):
                self.add("monkey-patch", node, f"uses {node.id}")
            elif node.id in ("open", "input"):
                self.add("file-access", node, f"uses {node.id}")
            elif node.id in ("id", "hash") and not self._local(node.id):
                self.add("result-cache", node, f"uses {node.id}() (object identity)")
            elif node.id == "Model" and "Model" not in self.module_names:
                self.add("inherits-reference", node, "uses the reference class Model")

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "getattr" and (
                len(node.args) < 2 or not isinstance(node.args[1], ast.Constant)):
            self.add("dynamic-code", node, "getattr with a computed name")
        if self.in_forward:
            self._forward_call(node)
        self.generic_visit(node)

    def _forward_call(self, node: ast.Call) -> None:
        func = node.func
        if self._refers_to_extension(func):
            self.forward_calls_extension = True
            return
        q = self.qualname(func)
        if q is not None:
            if self._is_layer(func):
                self.add("torch-op", node, f"builds the torch layer {q} in forward")
            elif q.startswith("torch.") and not q.startswith(("torch.nn.functional", "torch.ops")):
                rest = q[len("torch."):]
                if rest not in TORCH_ALLOWED and rest.split(".")[0] not in ("cuda", "nn", "utils") \
                        and not rest.startswith("nn.init"):
                    self.add("torch-op", node, f"calls {q} in forward")
            elif q.startswith("numpy.") and q.split(".")[1] not in NUMPY_ALLOWED:
                self.add("torch-op", node, f"computes with {q} in forward")
            return
        layer = func.value if isinstance(func, ast.Attribute) else func  # _gelu(x) or _gelu.forward(x)
        if isinstance(layer, ast.Name) and layer.id in self.module_layers and not self._local(layer.id):
            self.add("torch-op", node, f"calls the torch layer {layer.id} in forward")
            return
        if isinstance(func, ast.Attribute):
            target = func.value  # self.layer.forward(x) or self.layer(x)
            method = func.attr[:-1] if func.attr.endswith("_") and not func.attr.endswith("__") else func.attr
            if isinstance(func.value, ast.Name) and func.value.id == "self" and func.attr in self.nn_attributes:
                self.add("torch-op", node, f"calls the torch layer self.{func.attr} in forward")
            elif isinstance(target, ast.Attribute) and _root(target) == "self" and target.attr in self.nn_attributes:
                self.add("torch-op", node, f"calls the torch layer self.{target.attr} in forward")
            elif method in COMPUTE_METHODS:
                self.add("torch-op", node, f"calls .{func.attr}() in forward")
            elif func.attr in MUTATORS and self._persistent(func.value):
                self.add("result-cache", node, f"mutates persistent state with .{func.attr}() in forward")

    def _persistent(self, node: ast.AST) -> bool:
        root = _root(node)
        if root == "self":
            return True
        return root is not None and root in self.module_names and not self._local(root)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if isinstance(node.op, ast.MatMult) and self.in_forward:
            self.add("torch-op", node, "uses the @ operator in forward")
        self.generic_visit(node)

    def _store(self, target: ast.AST, node: ast.AST, value: ast.AST | None = None) -> None:
        if isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self._store(element, node)
            return
        if isinstance(target, ast.Starred):
            self._store(target.value, node)
            return
        root = _root(target)
        if isinstance(target, ast.Subscript) and self.qualname(target.value) == "os.environ":
            return  # setting TORCH_CUDA_ARCH_LIST and the like is common and harmless
        if isinstance(target, ast.Attribute | ast.Subscript) and root in self.aliases:
            self.add("monkey-patch", node, f"assigns to {ast.unparse(target)}")
            q = self.qualname(target) if isinstance(target, ast.Attribute) else None
            if q and q.startswith("torch.backends"):
                self.add("precision-flags", node, f"sets {q}")
        elif self.in_forward and isinstance(target, ast.Attribute | ast.Subscript) and self._persistent(target) \
                and not (isinstance(target, ast.Attribute) and self._is_extension_object(value)):  # lazy build
            self.add("result-cache", node, f"stores {ast.unparse(target)} across calls")
        elif isinstance(target, ast.Name) and target.id in HARNESS_NAMES and not self.function_stack:
            self.add("harness-override", node, f"rebinds {target.id}")
        elif isinstance(target, ast.Name) and target.id in self.aliases and not self.function_stack \
                and target.id != "ModelNew":
            self.add("monkey-patch", node, f"rebinds the imported name {target.id}")

    def visit_Assign(self, node: ast.Assign) -> None:
        for t in node.targets:
            self._store(t, node, node.value)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._store(node.target, node)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._store(node.target, node)
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for t in node.targets:
            self._store(t, node)
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        kept = [n for n in node.names if n not in self.extension_only]  # a lazily built extension is no result
        if kept:
            self.add("result-cache", node, f"global {', '.join(kept)} keeps state across calls")

    def visit_Nonlocal(self, node: ast.Nonlocal) -> None:
        self.add("result-cache", node, f"nonlocal {', '.join(node.names)} keeps state across calls")

    def visit_Try(self, node: ast.Try) -> None:
        if node.handlers:
            self.add("try-fallback", node, "try/except can fall back to another implementation")
        self.generic_visit(node)

    visit_TryStar = visit_Try

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        names = {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
        names |= {a.arg for a in (node.args.vararg, node.args.kwarg) if a}
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                names.add(sub.id)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name in ("__torch_function__", "__torch_dispatch__"):
                self.add("lazy-output", node, f"defines {node.name}")
            if node.name in HARNESS_NAMES and not self.function_stack:
                self.add("harness-override", node, f"defines {node.name}")
            if isinstance(node, ast.AsyncFunctionDef):
                self.add("threads", node, "async functions")
        self.function_stack.append((node, names))
        self.generic_visit(node)
        self.function_stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if node.name in HARNESS_NAMES and not self.function_stack:
            self.add("harness-override", node, f"defines {node.name}")
        for base in node.bases:
            q = self.qualname(base) or ""
            if q == "torch.Tensor" or q.startswith("torch.Tensor"):
                self.add("lazy-output", node, f"class {node.name} subclasses torch.Tensor")
        self.generic_visit(node)


def _root(node: ast.AST) -> str | None:
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _assigned(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.Assign):
        return [n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    if isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    if isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef):
        return [node.name]
    return []


def _init_signature(tree: ast.Module, cls: str) -> tuple | None:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    a = item.args
                    return ([x.arg for x in [*a.posonlyargs, *a.args]][1:], [ast.dump(d) for d in a.defaults],
                            [x.arg for x in a.kwonlyargs], bool(a.vararg), bool(a.kwarg))
            return [], [], [], False, False
    return None


def cuda_strings(tree: ast.Module) -> list[tuple[str, int]]:
    """String constants (and constant parts of f-strings) that look like CUDA/C++, with their line."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _CUDA_HINT.search(node.value):
            out.append((node.value, node.lineno))
        elif isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else " 0 " for v in node.values)
            if _CUDA_HINT.search(text):
                out.append((text, node.lineno))
    return out


def check(source: str, reference: str | None = None) -> list[Violation]:
    tree = ast.parse(source)
    checker = _Checker(tree, reference)
    checker.visit(tree)
    found = checker.found
    classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    if "ModelNew" not in classes:
        bound = "ModelNew" in checker.module_names
        found.append(Violation("inherits-reference" if bound else "missing-modelnew", 1,
                               "ModelNew is not a class defined here" if bound else "no class ModelNew"))
    if reference is not None and "ModelNew" in classes:
        try:
            ref_sig = _init_signature(ast.parse(reference), "Model")
        except SyntaxError:
            ref_sig = None
        cand_sig = _init_signature(tree, "ModelNew")
        if ref_sig is not None and cand_sig != ref_sig:
            found.append(Violation("signature-change", 1, f"ModelNew.__init__ arguments {cand_sig[0]} differ "
                                                          f"from Model.__init__ {ref_sig[0]}"))
    found.extend(gate_flags.check(tree))
    texts = cuda_strings(tree)
    found.extend(gate_cuda.check_sources(texts, reference or ""))
    if texts and not checker.forward_calls_extension and not any(v.rule == "no-cuda-kernel" for v in found):
        found.append(Violation("decoy-kernel", 1, "forward never calls the compiled extension"
                               if checker.has_builder else "the CUDA source is never compiled (no load_inline)"))
    return found
