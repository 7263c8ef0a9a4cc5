"""The C++ wrapper of a `load_inline` extension, read at the sizes of one call: which tensor sizes
its size queries (`x.size(0)`, `x.numel()`, `x.sizes()[1]`, `x.dim()`, `x.stride(1)`) take, the
values of the integer locals computed from them, the shape of the tensor it returns, and the
kernels it launches.  `bind` substitutes the queries with literals, so the analyzer's host resolver
evaluates the `<<<grid, block>>>` arithmetic and the kernel's scalar arguments from them.

Only the wrapper's straight-line declarations are evaluated (what models write: `int n =
x.numel(); int blocks = (n + 255) / 256;`); anything else stays unknown and is reported so."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

_WRAPPER = re.compile(r"(?:torch::Tensor|at::Tensor|std::vector<torch::Tensor>|void)\s+(\w+)\s*\(([^)]*)\)\s*\{")
_DECL = re.compile(r"^\s*(?:const\s+)?(?:auto|int|int64_t|long(?:\s+long)?|unsigned(?:\s+int)?|size_t|uint32_t|"
                   r"int32_t|float|double)\s+(.+?);\s*$", re.S)
_ALLOC = re.compile(r"^\s*(?:const\s+)?(?:auto|torch::Tensor|at::Tensor)\s+(\w+)\s*=\s*(.+?);\s*$", re.S)
_LIKE = re.compile(r"^(?:torch|at)::(?:empty|zeros|ones|full)_like\(\s*(\w+)")
_NEW = re.compile(r"^(?:torch|at)::(?:empty|zeros|ones|full)\(\s*\{([^}]*)\}")
_NEW_SIZES = re.compile(r"^(?:torch|at)::(?:empty|zeros|ones)\(\s*(\w+)\.sizes\(\)")
_SAME = re.compile(r"^(\w+)\.(?:contiguous|clone)\(\)$")
_RESHAPE = re.compile(r"^(\w+)\.(?:view|reshape)\(\s*\{([^}]*)\}\s*\)$")
_FILL = re.compile(r"^(?:torch|at)::(?:zeros|ones|full)")
_RETURN = re.compile(r"\breturn\s+(\w+)\s*;")
_RETURN_MANY = re.compile(r"\breturn\s+(?:std::make_tuple\s*\(|(?:std::vector<[^>]*>|std::tuple<[^>]*>)?\s*\{)"
                          r"([\w\s,]*)[)}]\s*;")
_LAUNCH = re.compile(r"\b(\w+)\s*(?:<[^<>;]*>)?\s*<<<")
_ASSIGNED = re.compile(r"(?<![\w.>])(\w+)\s*(?:[+\-*/%&|^]|<<|>>)?=(?!=)")
_STEPPED = re.compile(r"(?:\+\+|--)\s*(\w+)|(?<![\w.>])(\w+)\s*(?:\+\+|--)")
_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)[ \t]+([^\n]+?)\s*$", re.M)
_FOR = re.compile(r"\bfor\s*\(\s*(?:int|int64_t|long|size_t)\s+(\w+)\s*=\s*([^;]+);\s*\1\s*<\s*([^;]+);")


@dataclass(frozen=True)
class Wrapper:
    name: str
    params: tuple[tuple[str, str], ...]      # (type, name)
    start: int                               # offsets of the body (inside the braces) in the text
    end: int

    def tensors(self) -> list[str]:
        return [n for t, n in self.params if "Tensor" in t]


@dataclass
class Bound:
    """One call of a wrapper, evaluated: `sizes` every integer the wrapper computed (name -> value,
    what the report calls inferred), `text` the CUDA source with this call's size queries as
    literals, `scalars` the scalar parameters' values, `output` the returned shape (None: unknown),
    `launches` kernel -> launches per call, `unknown` the locals a launch configuration uses that
    could not be evaluated."""

    text: str
    sizes: dict[str, int] = field(default_factory=dict)
    scalars: dict[str, float] = field(default_factory=dict)
    output: list[int] | None = None
    outputs: list[list[int]] | None = None    # every returned tensor's shape (a std::vector / tuple return)
    launches: dict[str, int] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)
    filled: int = 0           # elements of torch::zeros / ones / full allocations (a fill kernel each)


def wrappers(text: str) -> dict[str, Wrapper]:
    """Host functions taking or returning tensors, by name."""
    found = {}
    for m in _WRAPPER.finditer(text):
        params = []
        for p in _split(m.group(2)):
            words = p.replace("&", " ").replace("*", " ").split()
            if len(words) >= 2:
                params.append((" ".join(words[:-1]), words[-1]))
        end = _closing(text, m.end())
        if end is not None and (any("Tensor" in t for t, _ in params) or "Tensor" in m.group(0)):
            found[m.group(1)] = Wrapper(m.group(1), tuple(params), m.end(), end)
    return found


def _closing(text: str, start: int) -> int | None:
    depth = 1
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return None


def _split(s: str) -> list[str]:
    out, depth, cur = [], 0, []
    for ch in s:
        if ch in "({[<":
            depth += 1
        elif ch in ")}]>":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def _statements(body: str) -> list[str]:
    """Statements of a body, in order (the braces of loops and ifs flattened, those inside
    parentheses, as in `torch::empty({n}, ...)`, kept)."""
    out, depth, cur = [], 0, []
    for ch in body:
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch in ";{}":
            if "".join(cur).strip():
                out.append("".join(cur).strip() + ";")
            cur = []
        else:
            cur.append(ch)
    return out


def _queries(shapes: dict[str, list[int]]):
    """Regex substitutions of size queries of known tensors by their values."""
    def size(m: re.Match) -> str:
        shape, k = shapes[m.group(1)], int(m.group(2))
        return str(shape[k]) if -len(shape) <= k < len(shape) else m.group(0)

    def stride(m: re.Match) -> str:
        shape, k = shapes[m.group(1)], int(m.group(2))
        return str(math.prod(shape[k + 1:] if k >= 0 else shape[len(shape) + k + 1:])) if -len(shape) <= k < len(
            shape) else m.group(0)

    names = "|".join(map(re.escape, sorted(shapes, key=len, reverse=True))) or r"(?!x)x"
    return [
        (re.compile(rf"\b({names})\s*(?:\.|->)\s*size\(\s*(-?\d+)\s*\)"), size),
        (re.compile(rf"\b({names})\s*\.\s*sizes\(\)\s*\[\s*(-?\d+)\s*\]"), size),
        (re.compile(rf"\b({names})\s*\.\s*shape\(\)\s*\[\s*(-?\d+)\s*\]"), size),
        (re.compile(rf"\b({names})\s*\.\s*stride\(\s*(-?\d+)\s*\)"), stride),
        (re.compile(rf"\b({names})\s*\.\s*numel\(\)"), lambda m: str(math.prod(shapes[m.group(1)]))),
        (re.compile(rf"\b({names})\s*\.\s*dim\(\)"), lambda m: str(len(shapes[m.group(1)]))),
    ]


def _substitute(s: str, shapes: dict[str, list[int]]) -> str:
    for pattern, replace in _queries(shapes):
        s = pattern.sub(replace, s)
    return s


_CASTS = re.compile(r"\(\s*(?:long long|long|int|int64_t|size_t|unsigned|unsigned int|float|double)\s*\)|"
                    r"static_cast<[^>]+>")
_FLOAT = re.compile(r"(\d+\.\d*|\.\d+|\d+)[fF]\b")


def evaluate(expr: str, env: dict[str, float]) -> float | None:
    """A C integer expression of known names (integer division truncates); None when unknown."""
    e = _CASTS.sub("", expr).strip().replace("std::min", "min").replace("std::max", "max").replace("sizeof(float)", "4")
    e = e.replace("sizeof(double)", "8").replace("sizeof(int)", "4").replace("&&", " and ").replace("||", " or ")
    e = _FLOAT.sub(r"\1", e)
    if "?" in e or not re.fullmatch(r"[\w\s+\-*/%().,<>=!]*", e):
        return None
    floats = "." in e
    if not floats:
        e = re.sub(r"(?<![/])/(?![/])", "//", e)
    try:
        value = eval(compile(e, "<c>", "eval"), {"__builtins__": {}, "min": min, "max": max}, dict(env))
    except Exception:
        return None
    return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else None


def bind(text: str, wrapper: Wrapper, args: list) -> Bound:
    """One call of `wrapper` with `args` (a shape list for a tensor, a number for a scalar, None
    when unknown), read as described in the module docstring."""
    shapes: dict[str, list[int]] = {}
    env: dict[str, float] = {}
    scalars: dict[str, float] = {}
    for (ptype, pname), value in zip(wrapper.params, args):
        if "Tensor" in ptype and isinstance(value, list):
            shapes[pname] = value
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            env[pname] = value
            scalars[pname] = float(value)
    for name, value in _DEFINE.findall(text):       # object-like macros: #define TILE 16
        if evaluate(value, env) is not None:
            env.setdefault(name, evaluate(value, env))
    body = text[wrapper.start:wrapper.end]
    sizes: dict[str, int] = {}
    unknown: list[str] = []
    filled = 0
    statements = _statements(body)
    changed = {m.group(1) for stmt in statements if not _DECL.match(stmt) and not _ALLOC.match(stmt)
               for m in _ASSIGNED.finditer(stmt)} | {a or b for a, b in _STEPPED.findall(body)}
    dims: set[str] = set()     # dim3 locals whose every component is known
    for stmt in statements:
        stmt = _substitute(stmt, shapes)
        dim = _DIM3.match(stmt)
        if dim:
            parts = _split(next(g for g in dim.groups()[1:] if g is not None))
            if parts and all(evaluate(p, env) is not None for p in parts):
                dims.add(dim.group(1))
            continue
        alloc = _ALLOC.match(stmt)
        if alloc and re.search(r"(?:torch|at)::|\.\w+\(", alloc.group(2)):
            _tensor_local(alloc.group(1), alloc.group(2).strip(), shapes, env)
            if alloc.group(1) in shapes:
                if _FILL.match(alloc.group(2).strip()):
                    filled += math.prod(shapes[alloc.group(1)])
                continue
        decl = _DECL.match(stmt)
        if decl and "<<<" not in stmt:
            for part in _split(decl.group(1)):
                name, _, expr = part.partition("=")
                name = name.strip()
                if not re.fullmatch(r"\w+", name) or not expr:
                    continue
                value = evaluate(expr, env) if name not in changed else None
                if value is None:
                    unknown.append(f"{name} = {expr.strip()}" + (" (changed later)" if name in changed else ""))
                else:
                    env[name] = value
                    sizes[name] = int(value) if float(value).is_integer() else value
    new_body = _substitute(body, shapes)
    launched = " ".join(" ".join(_split(c)[:2]) for c in re.findall(r"<<<(.*?)>>>", body, re.S))
    for m in _LAUNCH_CALL.finditer(body):      # and the launches' arguments
        close = _closing_paren(body, m.end())
        launched += " " + body[m.end():close if close is not None else m.end()]
    unknown = [u for u in unknown if re.search(rf"\b{re.escape(u.split(' =', 1)[0])}\b", launched)]
    bound = Bound(text[:wrapper.start] + new_body + text[wrapper.end:], sizes, scalars, unknown=unknown, filled=filled)
    ret = _RETURN.findall(body)
    bound.output = list(shapes[ret[-1]]) if ret and ret[-1] in shapes else None
    many = _RETURN_MANY.findall(body)
    names = [n.strip() for n in _split(many[-1])] if many else []
    if names and all(n in shapes for n in names):
        bound.outputs = [list(shapes[n]) for n in names]
    elif bound.output is not None:
        bound.outputs = [bound.output]
    bound.launches = _launch_counts(new_body, env)
    bound.unknown += [u for u in _unknown_launch_values(new_body, env, set(shapes) | dims) if u not in bound.unknown]
    return bound


_DIM3 = re.compile(r"^\s*(?:const\s+)?dim3\s+(\w+)\s*"
                   r"(?:\((.*)\)|=\s*dim3\s*\((.*)\)|=\s*\{(.*)\}|\{(.*)\}|=\s*(.+?))\s*;$", re.S)
_LAUNCH_CALL = re.compile(r"\b(\w+)\s*(?:<[^<>;]*>)?\s*<<<(.*?)>>>\s*\(", re.S)
_POINTERISH = re.compile(r"data_ptr|nullptr|NULL|\*\s*\)|^\s*\(?\s*\w+\s*\+|reinterpret_cast|static_cast<[^>]*\*>")


def _unknown_launch_values(body: str, env: dict[str, float], tensors: set[str]) -> list[str]:
    """The grid, block and scalar arguments of each launch that the wrapper's known values do not
    decide: whatever the analyzer assumes for them is a guess."""
    out = []
    for m in _LAUNCH_CALL.finditer(body):
        close = _closing_paren(body, m.end())
        if close is None:
            continue
        config = _split(m.group(2))[:2]
        for what, expr in zip(("grid", "block"), config):
            if _names(expr, env, tensors) and evaluate(expr, env) is None:
                out.append(f"{m.group(1)}: {what} {' '.join(expr.split())}")
        for expr in _split(body[m.end():close]):
            if _POINTERISH.search(expr) or expr.strip() in tensors:
                continue
            if _names(expr, env, tensors) and evaluate(expr, env) is None:
                out.append(f"{m.group(1)}: argument {' '.join(expr.split())}")
    return out


def _names(expr: str, env: dict[str, float], tensors: set[str]) -> list[str]:
    """Identifiers of `expr` that are neither known values, nor tensors, nor C keywords or casts."""
    words = re.findall(r"(?<![\w.])([A-Za-z_]\w*)(?!\s*\()", _CASTS.sub("", expr))
    return [w for w in words if w not in env and w not in tensors and w not in _C_WORDS]


_C_WORDS = {"sizeof", "float", "double", "int", "long", "unsigned", "size_t", "int64_t", "true", "false", "dim3",
            "const", "std", "min", "max"}


def _closing_paren(text: str, start: int) -> int | None:
    depth = 1
    for i in range(start, len(text)):
        depth += (text[i] == "(") - (text[i] == ")")
        if depth == 0:
            return i
    return None


def _tensor_local(name: str, expr: str, shapes: dict[str, list[int]], env: dict[str, float]) -> None:
    """Shape of a tensor the wrapper allocates or derives (empty_like, empty({...}), contiguous, view)."""
    for pattern in (_LIKE, _NEW_SIZES, _SAME):
        m = pattern.match(expr)
        if m and m.group(1) in shapes:
            shapes[name] = list(shapes[m.group(1)])
            return
    m = _NEW.match(expr) or _RESHAPE.match(expr)
    if m:
        dims = [evaluate(d, env) for d in _split(m.groups()[-1])]
        if dims and all(d is not None for d in dims):
            shapes[name] = [int(d) for d in dims]


def _launch_counts(body: str, env: dict[str, float]) -> dict[str, int]:
    """Kernel -> launches per call: each `<<<` once, times the trip count of enclosing `for` loops
    with evaluable bounds (a loop over batches launching one kernel per batch)."""
    counts: dict[str, int] = {}
    loops = [(m.start(), _closing(body, body.find("{", m.end()) + 1) if body.find("{", m.end()) >= 0 else None,
              evaluate(m.group(2), env), evaluate(m.group(3), env)) for m in _FOR.finditer(body)]
    for m in _LAUNCH.finditer(body):
        times = 1
        for start, end, lo, hi in loops:
            if end is not None and start < m.start() < end and lo is not None and hi is not None:
                times *= max(0, int(hi - lo))
        counts[m.group(1)] = counts.get(m.group(1), 0) + times
    return counts
