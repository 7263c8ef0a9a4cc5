"""C and CUDA value types: sizes, alignments and field offsets.

Coalescing and bank-conflict estimates depend on how many bytes each thread moves and where a
field sits inside its element, so the analyzer needs the layout of scalars, CUDA vector types
(``float4``, ``int2`` ...) and user structs.  Sizes follow the CUDA Programming Guide's table
of built-in vector types (alignment = size for 2- and 4-component types up to 16 bytes).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CType:
    name: str
    size: int
    align: int
    is_float: bool = False
    fields: tuple[tuple[str, int, CType], ...] = ()
    element: CType | None = None  # for arrays: the element type
    length: int | None = None  # for arrays: the number of elements (None = unknown/extern)
    pointee: CType | None = None  # for a pointer member of a struct (`int *result;`): what it points to

    def field(self, name: str) -> tuple[int, CType] | None:
        for fname, offset, ftype in self.fields:
            if fname == name:
                return offset, ftype
        return None

    @property
    def is_array(self) -> bool:
        return self.element is not None


def array_of(element: CType, length: int | None) -> CType:
    size = element.size * length if length is not None else 0
    return CType(f"{element.name}[{length if length is not None else ''}]", size, element.align,
                 element.is_float, element=element, length=length)


def struct_of(name: str, members: list[tuple[str, CType]], align: int | None = None) -> CType:
    """Lay out members in order with natural alignment, as nvcc does for device structs."""
    offset, max_align, laid = 0, 1, []
    for fname, ftype in members:
        offset = -(-offset // ftype.align) * ftype.align
        laid.append((fname, offset, ftype))
        offset += ftype.size
        max_align = max(max_align, ftype.align)
    max_align = max(max_align, align or 1)
    size = -(-offset // max_align) * max_align if offset else 0
    return CType(name, size, max_align, fields=tuple(laid))


# Scalars: (size, is_float).  Aliases map spellings onto these.
_SCALARS: dict[str, tuple[int, bool]] = {
    "bool": (1, False), "char": (1, False), "signed char": (1, False), "unsigned char": (1, False),
    "short": (2, False), "unsigned short": (2, False), "int": (4, False), "unsigned int": (4, False),
    "unsigned": (4, False), "long": (8, False), "unsigned long": (8, False),
    "long long": (8, False), "unsigned long long": (8, False),
    "float": (4, True), "double": (8, True), "long double": (16, True),
    "half": (2, True), "__half": (2, True), "__nv_bfloat16": (2, True), "nv_bfloat16": (2, True),
    "__nv_fp8_e4m3": (1, True), "__nv_fp8_e5m2": (1, True),
    "int8_t": (1, False), "uint8_t": (1, False), "int16_t": (2, False), "uint16_t": (2, False),
    "int32_t": (4, False), "uint32_t": (4, False), "int64_t": (8, False), "uint64_t": (8, False),
    "size_t": (8, False), "ptrdiff_t": (8, False), "intptr_t": (8, False), "uintptr_t": (8, False),
    "dim3": (12, False), "uint": (4, False),
}

# Vector component types: CUDA name prefix -> scalar spelling.
_VECTOR_BASES = {
    "char": "char", "uchar": "unsigned char", "short": "short", "ushort": "unsigned short",
    "int": "int", "uint": "unsigned int", "long": "long", "ulong": "unsigned long",
    "longlong": "long long", "ulonglong": "unsigned long long", "float": "float", "double": "double",
}
# Two-component half types: size 4, align 4.
_PAIRS = {"half2": "__half", "__half2": "__half", "__nv_bfloat162": "__nv_bfloat16", "nv_bfloat162": "__nv_bfloat16"}
_COMPONENTS = ("x", "y", "z", "w")


def _scalar(name: str) -> CType:
    size, is_float = _SCALARS[name]
    return CType(name, size, size if size <= 16 else 16, is_float)


def _vector(name: str, base: CType, n: int, align: int) -> CType:
    fields = tuple((_COMPONENTS[i], i * base.size, base) for i in range(n))
    return CType(name, base.size * n, align, base.is_float, fields=fields)


def _builtin_table() -> dict[str, CType]:
    table = {name: _scalar(name) for name in _SCALARS}
    for prefix, scalar in _VECTOR_BASES.items():
        base = table[scalar]
        for n in (1, 2, 3, 4):
            size = base.size * n
            align = base.size if n in (1, 3) else min(size, 16)
            table[f"{prefix}{n}"] = _vector(f"{prefix}{n}", base, n, align)
    for suffix, align in (("_16a", 16), ("_32a", 32)):
        for prefix in ("double", "long", "ulong", "longlong", "ulonglong"):
            base = table[_VECTOR_BASES[prefix]]
            table[f"{prefix}4{suffix}"] = _vector(f"{prefix}4{suffix}", base, 4, align)
    for name, scalar in _PAIRS.items():
        table[name] = _vector(name, table[scalar], 2, 4)
    return table


BUILTIN_TYPES: dict[str, CType] = _builtin_table()
INT = BUILTIN_TYPES["int"]
FLOAT = BUILTIN_TYPES["float"]
UNKNOWN = CType("?", 4, 4)

_QUALIFIERS = {"const", "volatile", "__restrict__", "restrict", "__restrict", "signed", "struct", "typename",
               "__shared__", "__constant__", "__device__", "static", "extern", "register", "__grid_constant__"}


def normalize(spelling: str) -> str:
    """'const unsigned int' -> 'unsigned int'; drops qualifiers and namespaces (``std::int32_t``)."""
    words = [w.split("::")[-1] for w in spelling.replace("*", " ").replace("&", " ").split()]
    words = [w for w in words if w not in _QUALIFIERS]
    text = " ".join(words)
    if text in ("unsigned long int", "long int"):
        text = text.replace(" int", "")
    if text in ("unsigned long long int", "long long int", "short int", "unsigned short int"):
        text = text.rsplit(" ", 1)[0]
    return text


@dataclass
class TypeTable:
    """Built-in types plus the structs, typedefs and template arguments of one translation unit."""

    user: dict[str, CType] = field(default_factory=dict)

    def lookup(self, spelling: str) -> CType | None:
        name = normalize(spelling)
        return self.user.get(name) or BUILTIN_TYPES.get(name)
