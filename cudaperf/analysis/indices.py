"""Host facts about index arrays: what a scatter `c[idx[t]] += v` reads its addresses from.

Whether such a scatter loses updates depends on the data, not the code shape: labels shared by
many threads repeat, a permutation does not.  The one case the host code settles by itself is an
index array filled, before it is copied to the device, by one loop writing a distinct affine
function of the loop counter (`h[i] = i`, `h[i] = n - 1 - i`, `std::iota`): then `idx[j] = a*j + b`.
The device pointer passed at the launch is followed back to its `cudaMemcpy` source, through the
parameters of launcher functions to their callers in the program's files.  Anything else that may
write either array (a read from a file, `rand()`, a kernel or function taking it as non-const, a
`cudaMemset`, a reassignment) leaves the fact unknown.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from . import parse
from .ir import Access, Kernel, statements
from .parse import Node, descendants, enclosing_function, text
from .project import including_files
from .scope import function_declarator
from .symbolic import loads_in

Fill = tuple[int, int]  # idx[j] = a*j + b (b 0 where the host leaves it to a runtime value)

COPIES = frozenset({"cudaMemcpy", "cudaMemcpyAsync", "hipMemcpy"})  # (destination, source, ...)
# calls that allocate, free or print an array, never fill it
HARMLESS = frozenset({"cudaMalloc", "cudaMallocHost", "cudaMallocManaged", "cudaHostAlloc", "malloc", "calloc",
                      "cudaFree", "cudaFreeHost", "free", "printf", "fprintf"})
READ_METHODS = frozenset({"data", "begin", "end", "cbegin", "cend", "size"})
MAX_HOPS = 3  # launcher functions followed to their callers


@lru_cache(maxsize=16)
def _tree(path: Path) -> parse.Tree | None:
    try:
        return parse.parse(path.read_bytes())
    except OSError:
        return None


def _program(root: Node, path: str) -> list[Node]:
    """The analysed file's tree and those of the files of its program that include it (`main.cu`
    including `kernels.h`: where the launcher functions it defines are called) and that they
    include (where the functions they pass arrays to are defined)."""
    here = Path(path)
    if not here.is_file():
        return [root]
    here = here.resolve()
    return [root] + [t.root_node for t in map(_tree, including_files(here)) if t is not None]


def _name(function: Node | None) -> str:
    """`ns::f<T>` -> `f`."""
    if function is not None and function.type == "template_function":
        function = function.child_by_field_name("name")
    return text(function).rsplit("::", 1)[-1]


def _arguments(call: Node) -> list[Node]:
    arguments = call.child_by_field_name("arguments")
    return [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []


def _stripped(node: Node) -> Node:
    """`(int*)d`, `reinterpret_cast<int*>(d)`, `(d)`, `h.data()`, `&h[0]` -> the variable."""
    while True:
        if node.type in ("parenthesized_expression", "cast_expression"):
            node = node.named_children[-1]
        elif node.type == "call_expression" and _name(node.child_by_field_name("function")).endswith("_cast") \
                and len(_arguments(node)) == 1:
            node = _arguments(node)[0]
        elif node.type == "call_expression" and node.child_by_field_name("function").type == "field_expression" \
                and text(node.child_by_field_name("function").child_by_field_name("field")) in ("data", "begin"):
            node = node.child_by_field_name("function").child_by_field_name("argument")
        elif node.type == "pointer_expression" and text(node.child_by_field_name("operator")) == "&" and \
                node.child_by_field_name("argument").type == "subscript_expression":
            node = node.child_by_field_name("argument").child_by_field_name("argument")
        else:
            return node


def _declarator_name(node: Node | None) -> str:
    while node is not None and node.type not in ("identifier", "field_identifier", "qualified_identifier"):
        node = node.child_by_field_name("declarator")
    return text(node).rsplit("::", 1)[-1]


def _parameters(function: Node) -> list[Node]:
    declarator = function_declarator(function)
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    return [p for p in params.named_children if "parameter_declaration" in p.type] if params is not None else []


@lru_cache(maxsize=32)
def _named(root: Node) -> tuple[dict[str, list[Node]], dict[str, list[Node]]]:
    """A file's function definitions and calls (launches too) by name, gathered in one walk."""
    definitions: dict[str, list[Node]] = {}
    calls: dict[str, list[Node]] = {}
    for node in descendants(root):
        if node.type == "function_definition":
            definitions.setdefault(_declarator_name(node.child_by_field_name("declarator")), []).append(node)
        elif node.type == "call_expression":
            calls.setdefault(_name(node.child_by_field_name("function")), []).append(node)
    return definitions, calls


def _read_only(roots: list[Node], callee: str, position: int) -> bool:
    """Is parameter `position` of every definition of `callee` a pointer to const?"""
    definitions = [d for root in roots for d in _named(root)[0].get(callee, ())]
    for definition in definitions:
        params = _parameters(definition)
        if position >= len(params) or "const" not in text(params[position]).rsplit("*", 1)[0].split():
            return False
    return bool(definitions)


def _affine(node: Node, counter: str) -> tuple[int, int | None] | None:
    """(a, b) with node == a*counter + b (b None: a value the loop does not change but the host
    leaves to run time); None for anything else."""
    if node.type == "number_literal":
        try:
            return 0, int(text(node).rstrip("uUlL"), 0)
        except ValueError:
            return None
    if node.type == "identifier":
        return (1, 0) if text(node) == counter else (0, None)
    if node.type in ("parenthesized_expression", "cast_expression"):
        return _affine(node.named_children[-1], counter)
    if node.type == "unary_expression" and text(node.child_by_field_name("operator")) == "-":
        inner = _affine(node.child_by_field_name("argument"), counter)
        return None if inner is None else (-inner[0], None if inner[1] is None else -inner[1])
    if node.type != "binary_expression":
        return None
    operator = text(node.child_by_field_name("operator"))
    left = _affine(node.child_by_field_name("left"), counter)
    right = _affine(node.child_by_field_name("right"), counter)
    if left is None or right is None:
        return None
    (a1, b1), (a2, b2) = left, right
    if operator in ("+", "-"):
        sign = 1 if operator == "+" else -1
        return a1 + sign * a2, None if b1 is None or b2 is None else b1 + sign * b2
    if operator == "*" and (a1 == 0 or a2 == 0):
        (a, b), (scale_a, scale) = (left, right) if a2 == 0 else (right, left)
        if scale_a != 0 or scale is None:
            return None
        return a * scale, None if b is None else b * scale
    return None


def _loop_fill(assignment: Node, array: str) -> Fill | None:
    """`for (int i = c; i < n; i++) h[i] = a*i + b;` (a != 0) -> (a, b)."""
    left = assignment.child_by_field_name("left")
    if text(assignment.child_by_field_name("operator")) != "=":
        return None
    index = left.child_by_field_name("indices") or left.child_by_field_name("index")
    counter = text(index.named_children[0] if index is not None and index.named_children else index)
    if not counter:
        return None
    loop = assignment.parent
    while loop is not None and loop.type in ("expression_statement", "compound_statement"):
        loop = loop.parent
    if loop is None or loop.type != "for_statement" or counter not in text(loop.child_by_field_name("initializer")):
        return None
    update = text(loop.child_by_field_name("update")).replace(" ", "")
    if update not in (f"{counter}++", f"++{counter}", f"{counter}+=1", f"{counter}--", f"--{counter}",
                      f"{counter}-=1"):
        return None
    value = _affine(assignment.child_by_field_name("right"), counter)
    if value is None or value[0] == 0:
        return None
    return value[0], value[1] or 0


@lru_cache(maxsize=64)
def _identifiers(function: Node) -> dict[str, list[Node]]:
    """The identifiers in the function's body by name, in source order (every array traced in a
    function looks its uses up here instead of walking the body again)."""
    body = function.child_by_field_name("body")
    found: dict[str, list[Node]] = {}
    for node in descendants(body) if body is not None else ():
        if node.type == "identifier":
            found.setdefault(text(node), []).append(node)
    return found


def _uses(function: Node, name: str):
    """The expressions in the function's body whose value is array `name` (`h`, `h + k`, `h.data()`)."""
    for outer in _identifiers(function).get(name, ()):
        while outer.parent is not None and (
                outer.parent.type in ("parenthesized_expression", "cast_expression", "binary_expression") or
                (outer.parent.type == "field_expression" and text(outer.parent.child_by_field_name("field"))
                 in READ_METHODS and outer.parent.parent.type == "call_expression")):
            outer = outer.parent.parent if outer.parent.type == "field_expression" else outer.parent
        yield outer


def _values(roots: list[Node], function: Node, name: str, path: frozenset[tuple[str, int]],
            copied: int | None = None) -> list[Fill] | None:
    """The fills every write in `function` gives array `name` (a device array: its cudaMemcpy
    sources; a host array copied at byte `copied`: its fill loops and `std::iota`s before the copy);
    None when something else may write it."""
    device = copied is None
    fills: list[Fill] = []
    for outer in _uses(function, name):
        parent = outer.parent
        if parent.type == "pointer_expression" and text(parent.child_by_field_name("operator")) == "&":
            call = parent.parent.parent if parent.parent.type == "argument_list" else None
            if call is None or _name(call.child_by_field_name("function")) not in HARMLESS:
                return None
            continue
        if parent.type == "subscript_expression" and parent.child_by_field_name("argument") == outer:
            above = parent.parent
            if above.type == "assignment_expression" and above.child_by_field_name("left") == parent:
                fill = None if device else _loop_fill(above, name)
                if fill is None or above.start_byte > copied:
                    return None
                fills.append(fill)
            elif above.type == "update_expression" or (above.type == "pointer_expression" and
                                                         text(above.child_by_field_name("operator")) == "&"):
                return None
            continue
        if parent.type == "argument_list":
            call = parent.parent
            callee = _name(call.child_by_field_name("function"))
            position = _arguments(call).index(outer) if outer in _arguments(call) else -1
            if callee in COPIES and position == 0:
                if not device:
                    return None
                source = _stripped(_arguments(call)[1])
                found = source.type == "identifier" and _values(roots, function, text(source), path, call.start_byte)
                if not found:
                    return None
                fills += found
            elif callee == "iota" and not device and len(_arguments(call)) == 3:  # (first, last, start)
                start = _affine(_arguments(call)[2], "")
                if start is None or call.start_byte > copied:
                    return None
                fills += [(1, start[1] or 0)] * (position == 0)
            elif not (callee in COPIES or callee in HARMLESS or (callee, position) in path or
                      _read_only(roots, callee, position)):
                return None
            continue
        if parent.type in ("assignment_expression", "update_expression") and \
                (parent.child_by_field_name("left") or parent.child_by_field_name("argument")) == outer:
            return None  # `h = other`, `h++`: another array from here on
        if parent.type == "field_expression":
            return None  # a method that may change it (`push_back`, `assign`)
        if parent.type == "pointer_expression" and parent.parent.type == "assignment_expression" and \
                parent.parent.child_by_field_name("left") == parent:
            return None  # `*h = v`
    return fills


def _traced(roots: list[Node], argument: Node, path: frozenset[tuple[str, int]], hops: int) -> Fill | None:
    """The fill of the device array `argument` names, followed through launcher parameters."""
    variable = _stripped(argument)
    function = enclosing_function(variable)
    if variable.type != "identifier" or function is None:
        return None
    name = text(variable)
    params = [_declarator_name(p.child_by_field_name("declarator")) for p in _parameters(function)]
    if name in params:
        if hops >= MAX_HOPS:
            return None
        launcher = _declarator_name(function.child_by_field_name("declarator"))
        position = params.index(name)
        fills = set()
        for call in (c for root in roots for c in _named(root)[1].get(launcher, ())):
            if position < len(_arguments(call)):
                fills.add(_traced(roots, _arguments(call)[position], path | {(launcher, position)}, hops + 1))
        return fills.pop() if len(fills) == 1 else None
    fills = _values(roots, function, name, path)
    return fills[0] if fills and len(set(fills)) == 1 else None


def launch_fill(root: Node, path: str, kernel: str, line: int, position: int) -> Fill | None:
    """How the host fills the array passed as argument `position` of `kernel`'s launch at `line`
    of the file `root` was parsed from: (a, b) with `idx[j] = a*j + b`, or None when not known."""
    roots = _program(root, path)
    for node in _named(root)[1].get(kernel, ()):
        if parse.position(node)[0] == line and any(c.type == "kernel_call_syntax" for c in node.children):
            arguments = [a for a in _arguments(node) if not a.is_error and not a.type.startswith("preproc")]
            if position < len(arguments):
                return _traced(roots, arguments[position], frozenset({(kernel, position)}), 0)
    return None


def index_fills(root: Node, path: str, launches: list, kernel: Kernel) -> dict[str, Fill]:
    """The fills of the kernel's index arrays that its stores scatter through (`c[idx[t]] = ...`),
    where every launch of it in `launches` (launch.HostLaunch; `path` None: in the file `root` was
    parsed from) agrees."""
    accesses = {s.id: s for s, _ in statements(kernel) if isinstance(s, Access)}
    scattered = {accesses[load.access_id].array for a in accesses.values() if a.kind == "store"
                 for load in loads_in(a.offset) if load.access_id in accesses}
    params = [p.name for p in kernel.params]
    fills: dict[str, Fill] = {}
    for array in scattered & set(params):
        found = set()
        for host in (h for h in launches if h.kernel == kernel.name):
            tree = _tree(Path(host.path)) if host.path else None
            found.add(None if host.path and tree is None else launch_fill(
                tree.root_node if tree else root, host.path or path, kernel.name, host.line, params.index(array)))
        if len(found) == 1 and None not in found:
            fills[array] = found.pop()
    return fills
