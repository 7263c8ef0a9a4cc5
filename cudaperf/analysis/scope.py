"""What a translation unit declares at namespace scope: types, integer constants, device
functions (for inlining) and device arrays, gathered with the queries in ``grammars/``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import parse
from .ctype import CType, TypeTable, array_of, struct_of
from .macros import expand
from .parse import Node, text
from .source import SourceFile


@dataclass
class DeviceArray:
    name: str
    space: str  # global | constant | shared
    type: CType


@dataclass
class FileScope:
    source: SourceFile
    root: Node
    types: TypeTable = field(default_factory=TypeTable)
    constants: dict[str, Node] = field(default_factory=dict)  # name -> initializer expression
    device_functions: dict[str, list[Node]] = field(default_factory=dict)
    arrays: dict[str, DeviceArray] = field(default_factory=dict)
    kernels: list[Node] = field(default_factory=list)


def function_declarator(definition: Node) -> Node | None:
    """The `name(params)` part of a definition, under any pointer/reference/attribute wrappers."""
    declarator = definition.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    return declarator


def function_name(definition: Node) -> str:
    declarator = function_declarator(definition)
    if declarator is None:
        return ""
    name = text(declarator.child_by_field_name("declarator"))
    return name.rsplit("::", 1)[-1]


_ATTRIBUTE_WORDS = {"__launch_bounds__", "__attribute__", "__align__", "alignas", "__declspec", "__maxnreg__",
                    "__cluster_dims__", "decltype", "noexcept", "requires"}


def kernel_name(definition: Node, macros: dict) -> str:
    """The kernel's name as the compiler sees it: template arguments of an explicit
    specialisation dropped (`specialised<double>` -> `specialised`), a name built by a macro
    (`KERNEL_NAME(relu)`) expanded."""
    name = function_name(definition)
    if re.fullmatch(r"[A-Za-z_]\w*", name):
        return name
    name = expand(name, macros).split("<", 1)[0].strip().rsplit("::", 1)[-1]
    if re.fullmatch(r"[A-Za-z_]\w*", name):
        return name
    # a declarator the grammar could not read (unknown attribute macros around the name): the
    # last identifier opening a parenthesis at the top level of the signature
    body = definition.child_by_field_name("body")
    signature = text(definition)[: (body.start_byte - definition.start_byte) if body is not None else None]
    candidates, depth = [], 0
    for m in re.finditer(r"([A-Za-z_]\w*)?\s*([()])", signature):
        if m.group(2) == "(":
            if depth == 0 and m.group(1) and m.group(1) not in _ATTRIBUTE_WORDS:
                candidates.append(m.group(1))
            depth += 1
        else:
            depth -= 1
    return candidates[-1] if candidates else name


def _qualifiers(node: Node) -> set[str]:
    found = set()
    for child in node.children:
        if child.type in ("type_qualifier", "storage_class_specifier"):
            found.add(text(child))
        elif not child.is_named:
            found.add(child.type)
    return found


def declared_type(types: TypeTable, type_node: Node | None) -> CType | None:
    if type_node is None:
        return None
    return types.lookup(text(type_node))


def array_dims(declarator: Node) -> tuple[str, list[Node | None]]:
    """Name and size expressions of ``a[X][Y]`` (outermost first)."""
    dims: list[Node | None] = []
    node = declarator
    while node is not None and node.type == "array_declarator":
        dims.append(node.child_by_field_name("size"))
        node = node.child_by_field_name("declarator")
    dims.reverse()
    while node is not None and node.type not in ("identifier", "field_identifier", "type_identifier"):
        node = node.child_by_field_name("declarator")
    return text(node), dims


def _struct(types: TypeTable, name: str, body: Node, evaluate_size, align: int | None) -> CType:
    members: list[tuple[str, CType]] = []
    for decl in body.named_children:
        if decl.type != "field_declaration":
            continue
        base = declared_type(types, decl.child_by_field_name("type"))
        for declarator in decl.children_by_field_name("declarator"):
            ftype = base
            if declarator.type == "pointer_declarator":
                single = declarator.child_by_field_name("declarator")
                single = single is not None and single.type != "pointer_declarator"
                ftype = CType("pointer", 8, 8, pointee=base if single and base is not None else None)
            fname, dims = array_dims(declarator)
            if ftype is None:
                ftype = CType("?", 4, 4)
            for dim in reversed(dims):
                ftype = array_of(ftype, evaluate_size(dim))
            members.append((fname or text(declarator), ftype))
    return struct_of(name, members, align)


def collect(source: SourceFile, root: Node, evaluate_size, scope: FileScope | None = None) -> FileScope:
    """Gather namespace-scope facts into `scope` (a new one by default).  ``evaluate_size`` turns an
    array-size node into an int, with what has been gathered so far."""
    scope = scope or FileScope(source, root)
    aligns = {offset: int(args[0]) for offset, name, args in source.attributes
              if name == "__align__" and args and args[0].isdigit()}
    for m in parse.matches("types", root):
        if "array" in m:  # typedef float vec2[2];
            name, dims = array_dims(m["array"][0])
            target = declared_type(scope.types, m["type"][0])
            for dim in reversed(dims):
                target = target and array_of(target, evaluate_size(dim))
            if target is not None:
                scope.types.user[name] = target
            continue
        name = text(m["name"][0])
        if "struct" in m:
            node = m["struct"][0]
            align = next((a for off, a in aligns.items() if node.start_byte <= off < m["body"][0].start_byte), None)
            scope.types.user[name] = _struct(scope.types, name, m["body"][0], evaluate_size, align)
        else:
            target = declared_type(scope.types, m["type"][0])
            if target is not None:
                scope.types.user[name] = target
    for m in parse.matches("functions", root):
        if "kernel" in m:
            scope.kernels.append(m["kernel"][0])
        elif "device_function" in m:
            node = m["device_function"][0]
            scope.device_functions.setdefault(function_name(node), []).append(node)
        elif _device_qualifier(source.macros.get(text(m["qualifier"][0]))):
            node = m["qualified_function"][0]
            scope.device_functions.setdefault(function_name(node), []).append(node)
    device = _macro_qualified(source, root)
    for node in device:
        if node.type == "function_definition":
            found = scope.device_functions.setdefault(function_name(node), [])
            if node not in found:
                found.append(node)
    declared = {node.start_byte for node in device if node.type == "declaration"}
    for m in parse.matches("globals", root):
        decl = m["declaration"][0]
        _global_declaration(scope, decl, evaluate_size, {"__device__"} if decl.start_byte in declared else set())
    return scope


_BLANK_OR_COMMENT = re.compile(rb"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.DOTALL)
_HEAD_ENDS = frozenset({"function_definition", "declaration", "compound_statement", "translation_unit"})


def _macro_qualified(source: SourceFile, root: Node) -> list[Node]:
    """Functions and namespace-scope variables whose `__device__` came from a macro that
    source.mend_macro_uses blanked (`DEV static int f(...)`, `DEV float table[256];`)."""
    found = []
    for at in source.device_qualifiers:
        head = _BLANK_OR_COMMENT.match(source.data, at).end()  # the token after the blank: a type or storage
        node = root.descendant_for_byte_range(head, head)
        while node is not None and node.type not in _HEAD_ENDS:
            node = node.parent
        if node is None or node.type not in ("function_definition", "declaration"):
            continue
        declarator = function_declarator(node) if node.type == "function_definition" else \
            node.child_by_field_name("declarator")
        if declarator is not None and declarator.start_byte >= head:
            found.append(node)
    return found


def _device_qualifier(macro) -> bool:
    """`#define DEVICE __device__` (or `__host__ __device__ __forceinline__`): a device function's qualifier."""
    return macro is not None and macro.params is None and "__device__" in macro.body.split() and \
        "__global__" not in macro.body


def _global_declaration(scope: FileScope, decl: Node, evaluate_size, hidden: set[str]) -> None:
    quals = _qualifiers(decl) | hidden  # `hidden`: qualifiers of a blanked macro (_macro_qualified)
    base = declared_type(scope.types, decl.child_by_field_name("type"))
    for declarator in decl.children_by_field_name("declarator"):
        if declarator.type == "init_declarator":
            name_node = declarator.child_by_field_name("declarator")
            value = declarator.child_by_field_name("value")
            if value is not None and value.type in ("argument_list", "initializer_list") and \
                    len(value.named_children) == 1:  # `constexpr int N(1024);`, `const int N{1024};`
                value = value.named_children[0]
            if name_node is not None and name_node.type == "identifier" and value is not None and \
                    ({"const", "constexpr"} & quals) and (base is None or not base.is_float):
                scope.constants[text(name_node)] = value
            continue
        if declarator.type == "array_declarator" and base is not None:
            space = "constant" if "__constant__" in quals else "shared" if "__shared__" in quals else \
                "global" if ({"__device__", "__managed__"} & quals) else None
            if space is None:
                continue
            name, dims = array_dims(declarator)
            ctype = base
            for dim in reversed(dims):
                ctype = array_of(ctype, evaluate_size(dim) if dim is not None else None)
            scope.arrays[name] = DeviceArray(name, space, ctype)


def template_params(definition: Node) -> tuple[list[str], list[str], dict[str, str]]:
    """(names, "type" | "value" per name, defaults) of the template a definition belongs to."""
    parent = definition.parent
    names, kinds, defaults = [], [], {}
    if parent is None or parent.type != "template_declaration":
        return names, kinds, defaults
    plist = parent.child_by_field_name("parameters")
    for p in plist.named_children if plist is not None else []:
        is_type = p.type in ("type_parameter_declaration", "optional_type_parameter_declaration",
                             "variadic_type_parameter_declaration")
        name_node = p.child_by_field_name("name") or p.child_by_field_name("declarator") or \
            next((c for c in p.named_children if c.type in ("type_identifier", "identifier")), None)
        name = text(name_node)
        names.append(name)
        kinds.append("type" if is_type else "value")
        default = p.child_by_field_name("default_type") or p.child_by_field_name("default_value")
        if default is not None:
            defaults[name] = text(default)
    return names, kinds, defaults


_NAMESPACE_SCOPES = ("translation_unit", "namespace_definition", "declaration_list", "linkage_specification")


def explicit_instances(root: Node) -> dict[str, list[str]]:
    """Template arguments of each function's first explicit instantiation at namespace scope
    (`template __global__ void block_sum<256>(const float*, float*, int);`): the instance nvcc
    compiles, which a kernel no launch names is analysed as."""
    found: dict[str, list[str]] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        for child in reversed(node.named_children):
            if child.type in _NAMESPACE_SCOPES:
                stack.append(child)
            elif child.type == "template_instantiation":
                declarator = child.child_by_field_name("declarator")
                function = declarator.child_by_field_name("declarator") if declarator is not None and \
                    declarator.type == "function_declarator" else None
                arguments = function.child_by_field_name("arguments") if function is not None and \
                    function.type == "template_function" else None
                if arguments is not None:
                    name = text(function.child_by_field_name("name")).rsplit("::", 1)[-1]
                    found.setdefault(name, [text(a) for a in arguments.named_children])
    return found
