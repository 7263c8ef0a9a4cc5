"""What a KernelBench candidate's Python hands to torch, read with `ast` (used by gate_python).

- Which functions run on each call (`forward_functions`): `forward` of the classes the file uses and
  everything they reach by name.  `__init__` and its helpers (`_make_layer`), autograd `backward`
  and copies of the harness (`get_inputs`) run on no call, so what torch does there is no hack.
- Heavy operations (`heavy_class`, `layer_class`): matrix products, convolutions, recurrent cells,
  by torch function, tensor method, C++ name or nn layer; named in the gate's messages, and in C++
  (which the gate does not follow) taken as the task's main operation.
- What the reference itself keeps on `self` between calls (`reference_state`), which a candidate
  may keep too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from .pysource import parse as parse_python

HEAVY_NAMES = {
    "gemm": {"matmul", "mm", "bmm", "addmm", "baddbmm", "addbmm", "einsum", "tensordot", "mv", "addmv", "linear",
             "bilinear", "scaled_dot_product_attention", "multi_head_attention_forward", "chain_matmul",
             "_scaled_dot_product_attention", "_scaled_dot_product_flash_attention",
             "_scaled_dot_product_efficient_attention", "addr"},
    "conv": {"conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
             "convolution", "_convolution", "cudnn_convolution", "cudnn_convolution_transpose", "conv_tbc"},
    "rnn": {"lstm", "gru", "rnn_tanh", "rnn_relu", "lstm_cell", "gru_cell", "rnn_tanh_cell", "rnn_relu_cell"},
}
HEAVY_LAYERS = {
    "gemm": {"Linear", "Bilinear", "LazyLinear", "MultiheadAttention", "Transformer", "TransformerEncoder",
             "TransformerDecoder", "TransformerEncoderLayer", "TransformerDecoderLayer"},
    "conv": {"Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "LazyConv1d",
             "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d"},
    "rnn": {"LSTM", "GRU", "RNN", "LSTMCell", "GRUCell", "RNNCell"},
}
ENTRY_METHODS = ("forward", "__call__")


def heavy_class(name: str) -> str | None:
    """'gemm', 'conv' or 'rnn' for a torch function, method or C++ name (last dotted part), else None."""
    last = name.rsplit(".", 1)[-1].rsplit("::", 1)[-1]
    return next((cls for cls, names in HEAVY_NAMES.items() if last in names), None)


def layer_class(qualname: str) -> str | None:
    """The heavy class of a torch.nn layer constructor (`torch.nn.Conv2d`), else None."""
    parts = qualname.split(".")
    if len(parts) != 3 or parts[:2] != ["torch", "nn"]:
        return None
    return next((cls for cls, names in HEAVY_LAYERS.items() if parts[2] in names), None)


def aliases(tree: ast.Module) -> dict[str, str]:
    """Local name -> what it imports (`F` -> torch.nn.functional, `nn` -> torch.nn)."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def qualname(names: dict[str, str], node: ast.AST) -> str | None:
    """The dotted name `node` refers to through the imports, None for local names."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in names:
        return None
    base = {"np": "numpy", "cp": "cupy"}.get(names[node.id], names[node.id])
    return ".".join([base, *reversed(parts)])


def _methods(tree: ast.Module) -> list[tuple[str | None, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """(enclosing class or None, function) for module-level functions and methods of module-level
    (and nested) classes."""
    out: list[tuple[str | None, ast.FunctionDef | ast.AsyncFunctionDef]] = []

    def gather(body: Iterable[ast.stmt], cls: str | None) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                out.append((cls, node))
            elif isinstance(node, ast.ClassDef):
                gather(node.body, node.name)
    gather(tree.body, None)
    return out


def forward_functions(tree: ast.Module, every_class: bool = False) -> set[int]:
    """ids of the functions that can run on a call of ModelNew: `forward`/`__call__` of ModelNew and of
    every class the file refers to (`every_class`: of all classes), functions referred to as values
    (hooks, callbacks), and whatever those call by name (methods matched by name alone, which
    over-approximates)."""
    functions = _methods(tree)
    call_targets = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    referred: set[str] = set()
    as_values: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            referred.add(node.id)
            if id(node) not in call_targets:
                as_values.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and id(node) not in call_targets:
            as_values.add(node.attr)
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):   # `super(Model, self)` inside
        inside = sum(isinstance(n, ast.Name) and n.id == cls.name for n in ast.walk(cls))   # Model is no use
        outside = sum(isinstance(n, ast.Name) and n.id == cls.name and isinstance(n.ctx, ast.Load)
                      for n in ast.walk(tree))
        if outside <= inside:
            referred.discard(cls.name)
    by_name: dict[str, list[ast.AST]] = {}
    for _, fn in functions:
        by_name.setdefault(fn.name, []).append(fn)
    todo = [fn for cls, fn in functions
            if (fn.name in ENTRY_METHODS and cls is not None and (every_class or cls == "ModelNew" or cls in referred))
            or (fn.name in as_values and fn.name != "__init__")]
    reached: set[int] = set()
    while todo:
        fn = todo.pop()
        if id(fn) in reached:
            continue
        reached.add(id(fn))
        for node in ast.walk(fn):
            name = node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else \
                node.func.attr if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) else \
                node.id if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) else None
            todo.extend(f for f in by_name.get(name or "", []) if getattr(f, "name", "") != "__init__")
    return reached


def reference_state(source: str) -> set[str]:
    """Attributes the reference's forward path stores on `self` (an RNN's hidden state): state a
    candidate may keep between calls too."""
    try:
        tree = parse_python(source)
    except SyntaxError:
        return set()
    forward = forward_functions(tree, every_class=True)
    return {t.attr for fn in ast.walk(tree) if id(fn) in forward for node in ast.walk(fn)
            if isinstance(node, ast.Assign | ast.AugAssign) for t in
            (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
