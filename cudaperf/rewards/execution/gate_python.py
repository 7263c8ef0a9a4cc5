"""Gate rules over KernelBench-format Python candidates, read with `ast` (nothing is executed).

The "forward path" is what runs on each call: `forward` and what it reaches (gate_torch); `__init__`,
its helpers, autograd `backward` and copies of the harness (`get_inputs`, which the engine ignores:
the reference's harness is used) are not.  Names are resolved through the file's imports, so
`import torch.nn.functional as F; F.relu` and `from torch import cuda; cuda.Stream` are seen for
what they are.

Torch in the forward path: computing on the forward's own inputs with torch (`F.gelu(x)`,
`self.conv(x)`, `torch.matmul(A, B)`, `x.exp_()`, a loop calling a ModuleList of torch layers on x)
is `torch-op`: the task's operation handed to torch.  Torch applied to the candidate's own results
(a final `mean`, a classifier layer after its own convolutions) is a tail, flagged `torch-tail`, and
the worker's measured work share decides (`torch-fallback`)."""

from __future__ import annotations

import ast
import re

from . import gate_cuda, gate_flags, gate_torch
from .gate_rules import Violation
from .pysource import parse as parse_python

MODULE_RULES = {
    "threads": ("threading", "_thread", "multiprocessing", "concurrent", "asyncio"),
    "process-escape": ("subprocess", "ctypes", "cffi", "socket", "signal", "pty", "resource", "mmap", "psutil",
                       "pynvml", "atexit", "faulthandler"),
    "dynamic-code": ("importlib", "inspect", "gc", "builtins", "sys", "code", "codeop", "runpy", "marshal", "dis",
                     "types", "weakref", "cudaperf"),
    "file-access": ("pickle", "shelve", "io", "pathlib", "shutil", "tempfile", "glob", "urllib", "http",
                    "requests", "sqlite3", "dbm"),
    "harness-override": ("__main__", "cudaperf_reference", "cudaperf_candidate"),   # the worker's module names
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
]
TORCH_COMPUTE = ("torch.ops", "torch.nn.functional", "torch.linalg", "torch.fft", "torch.special")
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
PASS_THROUGH = {"contiguous", "view", "reshape", "clone", "float", "double", "to", "flatten", "permute", "transpose",
                "squeeze", "unsqueeze", "expand", "expand_as", "detach", "t", "cuda", "type", "view_as", "reshape_as",
                "narrow", "unflatten", "movedim", "requires_grad_", "data", "T", "mT"}   # still the input itself
JOINS = {"cat", "concat", "concatenate", "stack", "hstack", "vstack"}
_CUDA_HINT = re.compile(r"__global__|#\s*include|torch::|at::|<<<")
_REFERENCE_LOW = re.compile(r"float16|bfloat16|\bhalf\b", re.I)


class _Checker(ast.NodeVisitor):
    def __init__(self, tree: ast.Module, reference: str | None):
        self.found: list[Violation] = []
        self.reference = reference or ""
        self.reference_state = gate_torch.reference_state(reference) if reference else set()
        self.aliases: dict[str, str] = {}
        self.module_names: set[str] = set()
        self.extensions: set[str] = set()
        self.nn_attributes: dict[str, str] = {}        # self.<attr> -> the torch.nn layer it holds
        self.holders: dict[str, set[str]] = {}         # self.<attr> -> torch.nn layers inside a container
        self.elements: dict[str, set[str]] = {}        # forward locals bound to a container's elements
        self.module_layers: dict[str, str] = {}        # module-level name -> the torch.nn layer it holds
        self.forward_ids: set[int] = set()
        self.own_functions: set[str] = set()
        self.raw: list[set[str]] = []                  # per forward method: names still holding its inputs
        self.extension_only: set[str] = set()
        self._extension_objects: set[str] = set()
        self._extension_functions: set[str] = set()
        self.function_stack: list[tuple[ast.AST, set[str]]] = []
        self.forward_calls_extension = False
        self.has_builder = False
        self._collect(tree)

    # -- pre-pass: imports, module-level names, extension objects, nn layers held by __init__ --
    def _collect(self, tree: ast.Module) -> None:
        self.aliases = gate_torch.aliases(tree)
        self.forward_ids = gate_torch.forward_functions(tree)
        self.own_functions = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
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
                self.module_layers.update({t.id: self.qualname(node.value.func) or ""
                                           for t in node.targets if isinstance(t, ast.Name)})
        self._collect_layers(tree)

    def _collect_layers(self, tree: ast.Module) -> None:
        """torch layers held on `self` by code off the forward path (`__init__`, `_make_layer`): one layer
        per attribute, or containers (ModuleList, Sequential, lists, helper results) and what they hold."""
        builders = {fn.name: self._layers_in(fn, {}) for fn in ast.walk(tree)
                    if isinstance(fn, ast.FunctionDef) and id(fn) not in self.forward_ids}
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef) or id(fn) in self.forward_ids:
                continue
            local: dict[str, set[str]] = {}
            for sub in ast.walk(fn):
                if isinstance(sub, ast.Assign | ast.AugAssign):
                    targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
                    value = sub.value
                elif isinstance(sub, ast.Expr) and isinstance(sub.value, ast.Call) and isinstance(
                        sub.value.func, ast.Attribute) and sub.value.func.attr in ("append", "extend", "add_module"):
                    targets, value = [sub.value.func.value], sub.value
                else:
                    continue
                layers = self._layers_in(value, local, builders)
                single = isinstance(value, ast.Call) and self._is_layer(value.func)
                for t in targets:
                    if isinstance(t, ast.Name) and layers:
                        local.setdefault(t.id, set()).update(layers)
                    elif isinstance(t, ast.Attribute) and _root(t) == "self" and isinstance(t.value, ast.Name):
                        if single and isinstance(sub, ast.Assign):
                            self.nn_attributes[t.attr] = self.qualname(value.func) or ""
                        elif layers:
                            self.holders.setdefault(t.attr, set()).update(layers)

    def _layers_in(self, node: ast.AST, local: dict[str, set[str]], builders: dict | None = None) -> set[str]:
        """torch.nn layers constructed anywhere in `node`, by locals that hold some, or by own helpers."""
        found: set[str] = set()
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call) and self._is_layer(sub.func):
                found.add(self.qualname(sub.func) or "")
            elif isinstance(sub, ast.Name) and sub.id in local:
                found |= local[sub.id]
            elif builders and isinstance(sub, ast.Call):
                name = sub.func.attr if isinstance(sub.func, ast.Attribute) else getattr(sub.func, "id", None)
                found |= builders.get(name, set()) if name else set()
        return found

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
        """`func` names a torch.nn layer class (nn.GELU, nn.Conv2d), not a holder like nn.Parameter or a
        container like nn.ModuleList (whose contents are looked at instead)."""
        q = (self.qualname(func) or "").split(".")
        return len(q) == 3 and q[:2] == ["torch", "nn"] and q[2][:1].isupper() and q[2] not in NN_HOLDERS \
            and q[2] not in ("Sequential", "ModuleList", "ModuleDict")

    def _is_extension_value(self, value: ast.AST) -> bool:
        if isinstance(value, ast.Call):
            q = self.qualname(value.func) or ""
            if q in EXTENSION_BUILDERS or q.endswith((".load_inline", "cpp_extension.load")):
                self.has_builder = True
                return True
            # a function returning the extension (`_get()`); `ext.f(x)` returns a tensor, no extension
            return isinstance(value.func, ast.Name) and self._is_extension_value(value.func)
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
        return gate_torch.qualname(self.aliases, node)

    def add(self, rule: str, node: ast.AST, message: str) -> None:
        self.found.append(Violation(rule, getattr(node, "lineno", 1), message))

    @property
    def in_forward(self) -> bool:
        """Inside a function on the forward path (a module-level lambda counts: it may be called)."""
        if not self.function_stack:
            return False
        outer = self.function_stack[0][0]
        return isinstance(outer, ast.Lambda) or id(outer) in self.forward_ids

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
            elif node.id in ("open", "input") and not self._local(node.id) and node.id not in self.module_names:
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
            elif q.startswith(TORCH_COMPUTE):
                self._torch(node, q, node.args)
            elif q.startswith("torch."):
                rest = q[len("torch."):]
                if rest not in TORCH_ALLOWED and rest.split(".")[0] not in ("cuda", "nn", "utils") \
                        and not rest.startswith("nn.init"):
                    self._torch(node, q, node.args)
            elif q.startswith("numpy.") and q.split(".")[1] not in NUMPY_ALLOWED:
                self.add("torch-op", node, f"computes with {q} in forward")
            return
        layer = func.value if isinstance(func, ast.Attribute) and func.attr == "forward" else func
        layers = self._layer_call(layer)
        if layers is not None:
            self._torch(node, f"the torch layer {ast.unparse(layer)}", node.args, layers)
            return
        if isinstance(func, ast.Attribute):
            method = func.attr[:-1] if func.attr.endswith("_") and not func.attr.endswith("__") else func.attr
            own = isinstance(func.value, ast.Name) and func.value.id == "self" and func.attr in self.own_functions
            if method in COMPUTE_METHODS and not own:
                self._torch(node, f".{func.attr}()", [func.value, *node.args])
            elif func.attr in MUTATORS and self._persistent(func.value):
                self.add("result-cache", node, f"mutates persistent state with .{func.attr}() in forward")

    def _layer_call(self, target: ast.AST) -> set[str] | None:
        """The torch layers a call target runs (`self.conv`, `self.blocks[i]`, `self.seq`, a loop variable
        over a container, a module-level layer), None when it is no torch layer."""
        if isinstance(target, ast.Name):
            if target.id in self.elements:
                return self.elements[target.id]
            if target.id in self.module_layers and not self._local(target.id):
                return {self.module_layers[target.id]}
            return None
        attr = target.value if isinstance(target, ast.Subscript) else target
        if isinstance(attr, ast.Attribute) and isinstance(attr.value, ast.Name) and attr.value.id == "self":
            if attr.attr in self.nn_attributes and attr is target:
                return {self.nn_attributes[attr.attr]}
            if attr.attr in self.holders:
                return self.holders[attr.attr]
        return None

    def _torch(self, node: ast.AST, what: str, operands: list[ast.AST], layers: set[str] | None = None) -> None:
        """A torch computation in forward: on the forward's inputs it is `torch-op`, else a tail."""
        classes = {c for c in (gate_torch.layer_class(q) for q in layers) if c} if layers is not None \
            else {c for c in [gate_torch.heavy_class(what.strip(".()"))] if c}
        heavy = f" ({', '.join(sorted(classes))})" if classes else ""
        if any(self._is_raw(a) for a in [*operands, *(k.value for k in getattr(node, "keywords", []))]):
            self.add("torch-op", node, f"computes {what}{heavy} on the forward's input with torch")
        else:
            self.add("torch-tail", node, f"torch computes {what}{heavy} on the candidate's results")

    def _is_raw(self, node: ast.AST) -> bool:
        """`node` is still one of the forward's inputs (through views, copies and casts)."""
        if not self.raw:
            return False
        while True:
            if isinstance(node, ast.Name):
                return node.id in self.raw[-1]
            if isinstance(node, ast.BinOp):   # torch arithmetic on an input is computing on it too
                return self._is_raw(node.left) or self._is_raw(node.right)
            if isinstance(node, ast.Tuple | ast.List):
                return any(self._is_raw(e) for e in node.elts)
            if isinstance(node, ast.Call) and (self.qualname(node.func) or "").split(".")[-1] in JOINS and node.args:
                return self._is_raw(node.args[0])   # torch.cat((x, h)) still holds the input
            if isinstance(node, ast.UnaryOp):
                node = node.operand
            elif isinstance(node, ast.Starred | ast.Subscript) or (
                    isinstance(node, ast.Attribute) and node.attr in PASS_THROUGH):
                node = node.value
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in PASS_THROUGH:
                node = node.func.value
            elif isinstance(node, ast.Call) and (self.qualname(node.func) or "").split(".")[-1] in PASS_THROUGH \
                    and node.args:
                node = node.args[0]
            else:
                return False

    def _persistent(self, node: ast.AST) -> bool:
        root = _root(node)
        if root == "self":
            return True
        return root is not None and root in self.module_names and not self._local(root)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if isinstance(node.op, ast.MatMult) and self.in_forward:
            self._torch(node, "matmul (the @ operator)", [node.left, node.right])
        self.generic_visit(node)

    def visit_For(self, node: ast.For) -> None:
        """`for layer in self.blocks:` (also through enumerate, zip, reversed, .values()): the loop
        variable runs the container's torch layers when called."""
        source = node.iter
        while isinstance(source, ast.Call) and (getattr(source.func, "id", None) in ("enumerate", "zip", "reversed",
                                                                                       "list", "iter")
                                                or getattr(source.func, "attr", None) in ("values", "children",
                                                                                          "modules")):
            source = source.args[0] if source.args else source.func.value
        layers = self._layer_call(source) if self.in_forward else None
        if layers:
            for name in ast.walk(node.target):
                if isinstance(name, ast.Name):
                    self.elements[name.id] = layers
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
                and not (isinstance(target, ast.Attribute) and self._is_extension_object(value)) \
                and not self._reference_state(target):   # a lazy build; state the reference keeps too
            self.add("result-cache", node, f"stores {ast.unparse(target)} across calls")
        elif isinstance(target, ast.Name) and target.id == "__name__":
            self.add("dynamic-code", node, "rebinds __name__")
        elif isinstance(target, ast.Name) and target.id in self.aliases and not self.function_stack \
                and target.id != "ModelNew":
            self.add("monkey-patch", node, f"rebinds the imported name {target.id}")

    def _reference_state(self, target: ast.AST) -> bool:
        """`self.hidden = ...` where the reference's forward also stores `self.hidden` (an RNN's state)."""
        return isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
            and target.value.id == "self" and target.attr in self.reference_state

    def visit_Assign(self, node: ast.Assign) -> None:
        for t in node.targets:
            self._store(t, node, node.value)
        self.generic_visit(node)
        if self.in_forward:
            raw, layers = self._is_raw(node.value), self._layer_call(node.value)
            for t in node.targets:
                if isinstance(t, ast.Name) and self.raw:
                    if raw:
                        self.raw[-1].add(t.id)
                    else:
                        self.raw[-1].discard(t.id)
                if isinstance(t, ast.Name) and layers and isinstance(node.value, ast.Subscript):
                    self.elements[t.id] = layers

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
        if HARNESS_NAMES & set(kept):
            self.add("harness-override", node, f"rebinds {', '.join(sorted(HARNESS_NAMES & set(kept)))} at run time")
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
            if isinstance(node, ast.AsyncFunctionDef):
                self.add("threads", node, "async functions")
        entry = isinstance(node, ast.FunctionDef) and node.name in gate_torch.ENTRY_METHODS and self.in_forward_of(node)
        if entry:   # the forward's own inputs: its arguments after self / ctx
            args = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
            self.raw.append(set(args[1:] if args and args[0] in ("self", "ctx", "cls") else args))
        self.function_stack.append((node, names))
        self.generic_visit(node)
        self.function_stack.pop()
        if entry:
            self.raw.pop()

    def in_forward_of(self, node: ast.AST) -> bool:
        return id(node) in self.forward_ids and not self.function_stack

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
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


def _init_arguments(tree: ast.Module, cls: str) -> ast.arguments | None:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            init = next((i for i in node.body if isinstance(i, ast.FunctionDef) and i.name == "__init__"), None)
            return init.args if init else ast.arguments(posonlyargs=[], args=[ast.arg("self")], kwonlyargs=[],
                                                        kw_defaults=[], defaults=[])
    return None


def _signature_problem(ref: ast.arguments, cand: ast.arguments) -> str | None:
    """Why ModelNew(*get_init_inputs()) would not build what Model(...) does, None when it would: the
    harness passes the reference's init values by position, so names may differ and extra parameters
    are fine with a default; a reference default (used when get_init_inputs leaves it out) must be
    the same value."""
    ref_args = [a.arg for a in [*ref.posonlyargs, *ref.args]][1:]
    cand_args = [a.arg for a in [*cand.posonlyargs, *cand.args]][1:]
    if len(cand_args) < len(ref_args) and cand.vararg is None:
        return f"ModelNew.__init__ takes {cand_args}, fewer than Model.__init__ {ref_args}"
    required = len(cand_args) - len(cand.defaults)
    if required > len(ref_args):
        return f"ModelNew.__init__ requires {cand_args[:required]}, more than Model.__init__ {ref_args}"
    if any(d is None for d in cand.kw_defaults):
        return "ModelNew.__init__ has keyword-only arguments without a default"
    first_default = len(ref_args) - len(ref.defaults)
    for i, default in enumerate(ref.defaults):
        j = first_default + i - required
        if i + first_default >= len(cand_args):
            break
        if j < 0 or ast.dump(cand.defaults[j]) != ast.dump(default):
            return (f"ModelNew.__init__ argument {cand_args[first_default + i]!r} does not default to "
                    f"{ast.unparse(default)} as Model.__init__'s {ref_args[first_default + i]!r} does")
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


def _main_guard(node: ast.stmt) -> bool:
    """`if __name__ == "__main__":` - a self-test models append; the engine imports the candidate under
    another name, so it never runs (rebinding `__name__` is `dynamic-code`)."""
    test = node.test if isinstance(node, ast.If) else None
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__" \
        and len(test.comparators) == 1 and isinstance(test.comparators[0], ast.Constant) \
        and test.comparators[0].value == "__main__" and not node.orelse


def check(source: str, reference: str | None = None) -> list[Violation]:
    tree = parse_python(source)
    tree.body = [node for node in tree.body if not _main_guard(node)]
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
            ref_args = _init_arguments(parse_python(reference), "Model")
        except SyntaxError:
            ref_args = None
        cand_args = _init_arguments(tree, "ModelNew")
        problem = _signature_problem(ref_args, cand_args) if ref_args is not None and cand_args is not None else None
        if problem:
            line = next((n.lineno for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == "ModelNew"), 1)
            found.append(Violation("signature-change", line, problem))
    found.extend(gate_flags.check(tree))
    texts = cuda_strings(tree)
    found.extend(gate_cuda.check_sources(texts, reference or ""))
    if texts and not checker.forward_calls_extension and not any(v.rule == "no-cuda-kernel" for v in found):
        found.append(Violation("decoy-kernel", 1, "forward never calls the compiled extension"
                               if checker.has_builder else "the CUDA source is never compiled (no load_inline)"))
    return found
