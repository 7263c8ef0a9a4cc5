"""Memory: what reading and writing a location records (loads, stores, atomics, cache-hinted
accesses), and local struct copies split into the pieces the hardware moves."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..ctype import UNKNOWN
from ..ir import Access, OpaqueMemory
from ..parse import Node, descendants, text
from ..symbolic import ZERO, Const, Expr, Load, Op, Opaque, Sym, lift, op, substitute
from .values import Env, Loc, Ptr, Scalar, Val, _opaque

_ATOMICS = re.compile(r"^atomic(Add|Sub|Exch|Min|Max|Inc|Dec|CAS|And|Or|Xor)(_block|_system)?$")
_CACHED_LOADS = ("__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv")
_CACHED_STORES = ("__stcg", "__stcs", "__stwb", "__stwt")


@dataclass
class _Copy:
    """A local struct copied from memory (`Particle pi = p[i];`): where from, the loads of the
    members the code reads (by piece offset), and the members it assigns (None: it may change
    any), so that storing it back (`p[i] = pi;`) writes only what changed."""

    source: Loc
    value: Val
    loads: dict[str, Load]
    modified: frozenset[str] | None


class Memory:
    """The lowering of memory accesses (a part of Lowerer)."""

    def _copied(self, name: str, place: Val, node: Node) -> Val:
        """The value of a local initialised from `place`.  A struct copied from memory loads only
        the members the code after it reads (the compiler drops the rest) and is remembered as a
        copy (see _Copy)."""
        self.copies.pop(name, None)
        if not isinstance(place, Loc) or place.type.is_array or not place.type.fields or len(_pieces(place)) < 2:
            return self._loaded(place, node, True)
        read, modified = _member_uses(name, node)
        loads: dict[str, Load] = {}
        for member, piece in _member_pieces(place):
            if read is None or member in read:
                access = self._access(piece, "load", node)
                loads[str(piece.offset)] = Load(access.id, text(node)[:60], not piece.type.is_float)
        first = next(iter(loads.values()), None)
        value = Scalar(first if first is not None else Opaque("struct copy"), place.type)
        self.copies[name] = _Copy(place, value, loads, modified)
        return value

    def _loaded(self, value: Val, node: Node | None, record: bool) -> Val:
        """What reading `value` gives: a location is loaded (an array decays to a pointer; an element of
        a local array of pointers is the pointer stored there, `_pointer_element`)."""
        if isinstance(value, Loc):
            if value.type.is_array:
                return Ptr(value.space, value.array, value.offset, value.type.element)
            read = self._read(value, node, record)
            return self._pointer_element(value) or read
        return value

    def _store_pointer_element(self, loc: Loc, value: Val, plain: bool) -> None:
        """Remember what a local array of pointers holds (`rows[i] = a + (m0 + i) * K;`, a register-blocked
        kernel's row pointers): one pointer per element offset; any other store to the array, or a second
        pointer at one offset (a swap of double buffers), and nothing is remembered of it."""
        if loc.space != "local":
            return
        held = self.pointer_elements.get(loc.array, {})
        if held is None or not plain or not isinstance(value, Ptr) or held.get(loc.offset, value) != value:
            self.pointer_elements[loc.array] = None
            return
        self.pointer_elements[loc.array] = {**held, loc.offset: value}

    def _pointer_element(self, loc: Loc) -> Ptr | None:
        """The pointer an element of a local array of pointers holds: the one stored at the same offset, or
        the one stored at `c * size` for a loop counter `c` (the loop that filled the array), with `c` read
        as the index the element is loaded at."""
        held = self.pointer_elements.get(loc.array) if loc.space == "local" else None
        if not held:
            return None
        if loc.offset in held:
            return held[loc.offset]
        if len(held) != 1:
            return None
        (offset, ptr), = held.items()
        counter, index = _scaled(offset, loc.type.size), _scaled(loc.offset, loc.type.size)
        if not isinstance(counter, Sym) or index is None:
            return None
        return Ptr(ptr.space, ptr.array, substitute(ptr.offset, {counter.name: index}), ptr.pointee)

    def _read(self, loc: Loc, node: Node | None, record: bool) -> Scalar:
        if not record or node is None:
            return Scalar(Opaque("memory"), loc.type)
        key = (loc.space, loc.array, loc.offset, loc.type.size)
        cached = self.cse.get(key)
        if cached is not None:
            return Scalar(cached, loc.type)
        first = None
        for piece in _pieces(loc):
            access = self._access(piece, "load", node)
            first = first or access
        load = Load(first.id if first else 0, text(node)[:60], not loc.type.is_float)
        self.cse[key] = load
        return Scalar(load, loc.type)

    def _access(self, loc: Loc, kind: str, node: Node, value: Expr | None = None) -> Access:
        line, column = self._pos(node)
        access = Access(self._id(), line, column, loc.space, kind, loc.array, loc.offset, loc.type.size,
                        loc.type.name, text(node)[:80], value)
        self.emit(access)
        return access

    def _write(self, loc: Loc, node: Node, kind: str = "store", value: Expr | None = None) -> None:
        pieces = _pieces(loc)
        for piece in pieces:
            self._access(piece, kind, node, value if len(pieces) == 1 else None)
        self._clobber()

    def _write_back(self, copy: _Copy, node: Node) -> None:
        """`p[i] = pi;` of a copy of p[i]: members it never assigned are stored with the value loaded
        from the same place (a write-back, which changes nothing another thread reads)."""
        for member, piece in _member_pieces(copy.source):
            unchanged = copy.modified is not None and member not in copy.modified
            self._access(piece, "store", node, copy.loads.get(str(piece.offset)) if unchanged else None)
        self._clobber()

    def _opaque_memory(self, node: Node, spaces, name: str) -> None:
        for space in sorted(set(spaces)):
            self.emit(OpaqueMemory(self._id(), *self._pos(node), space, name))
            self._clobber()

    # ---------------------------------------------------------------- calls by name (see calls._ON_ARGUMENTS)
    def _atomic(self, name: str, node: Node, arg_nodes: list[Node], env: Env, record: bool) -> Val | None:
        """`atomicAdd(&a[i], v)`: an atomic access to the location its first argument points at."""
        if not arg_nodes:
            return None
        atomic = _ATOMICS.match(name)
        target = self._deref(self.rvalue(arg_nodes[0], env, record))
        for a in arg_nodes[1:]:
            self.rvalue(a, env, record)
        if isinstance(target, Loc) and record:
            access = self._access(target, "atomic", node)
            kind = "f" if target.type.is_float else "i"
            access.operation = f"atomic{atomic.group(1)}.{kind}{target.type.size * 8}"
            access.returns = _result_read(node)
            self._clobber()
        return Scalar(Opaque(f"{name} result"), target.type if isinstance(target, Loc) else UNKNOWN)

    def _cached_load(self, name: str, node: Node, arg_nodes: list[Node], env: Env, record: bool) -> Val:
        """`__ldg(p)` and the other cache-hinted loads: a load of `*p`."""
        if arg_nodes:
            target = self._deref(self.rvalue(arg_nodes[0], env, record))
            if isinstance(target, Loc):
                return self._read(target, node, record)
        return _opaque(name)

    def _cached_store(self, name: str, node: Node, arg_nodes: list[Node], env: Env, record: bool) -> Val | None:
        """`__stcg(p, v)` and the other cache-hinted stores: a store to `*p`."""
        if len(arg_nodes) != 2:
            return None
        target = self._deref(self.rvalue(arg_nodes[0], env, record))
        self.rvalue(arg_nodes[1], env, record)
        if isinstance(target, Loc) and record:
            self._write(target, node)
        return Scalar(ZERO)


def _member_pieces(loc: Loc) -> list[tuple[str, Loc]]:
    """The pieces of a struct copy (see _pieces), each with the top-level member it belongs to."""
    return [(member, piece) for member, offset, ftype in loc.type.fields
            for piece in _pieces(Loc(loc.space, loc.array, op("+", loc.offset, lift(offset)), ftype))]


def _same_place(a: Loc, b: Loc) -> bool:
    return (a.space, a.array, str(a.offset), a.type.size) == (b.space, b.array, str(b.offset), b.type.size)


_WRITES = {"assignment_expression": "left", "update_expression": "argument"}


def _member_uses(name: str, declaration: Node) -> tuple[frozenset[str] | None, frozenset[str] | None]:
    """(members read, members assigned) of local `name` in the code after its declaration, in the
    same block; None where the whole variable is read (`p[i] = pi`, `f(pi)`) or may change (`&pi`,
    `pi = q`)."""
    anchor = declaration
    while anchor.parent is not None and anchor.parent.type in ("init_declarator", "declaration"):
        anchor = anchor.parent
    block = anchor.parent
    later = [c for c in block.children if c.start_byte >= anchor.end_byte] if block is not None else []
    read: set[str] | None = set()
    modified: set[str] | None = set()
    for use in (n for c in later for n in descendants(c) if n.type == "identifier" and text(n) == name):
        outer, member = use, None
        while outer.parent is not None and outer.parent.type in ("field_expression", "subscript_expression") and \
                outer.parent.child_by_field_name("argument") == outer:
            if member is None and outer.parent.type == "field_expression":
                member = text(outer.parent.child_by_field_name("field"))
            outer = outer.parent
        parent = outer.parent
        kind = parent.type if parent is not None else ""
        written = kind in _WRITES and parent.child_by_field_name(_WRITES[kind]) == outer
        overwritten = written and text(parent.child_by_field_name("operator")) == "="
        addressed = kind in ("pointer_expression", "argument_list")  # `&pi`, `f(pi.acc)`: may change
        if member is None or addressed:
            if written or addressed:
                modified = None
            if not overwritten:
                read = None
            continue
        if (written or addressed) and modified is not None:
            modified.add(member)
        if not overwritten and read is not None:
            read.add(member)
    return (frozenset(read) if read is not None else None, frozenset(modified) if modified is not None else None)


MAX_SPLIT_ELEMENTS = 32  # a longer array member copied whole stays one access (thousands would swamp the analyses)


def _pieces(loc: Loc) -> list[Loc]:
    """How a whole-object copy is split into memory instructions: one wide access when the type's
    alignment allows (float4, __align__(16) structs), otherwise member by member (element by
    element for an array member: `float pos[3]`)."""
    t = loc.type
    if (t.size in (1, 2, 4, 8, 16) and t.align >= t.size) or not (t.fields or (t.is_array and t.length)) or \
            (t.is_array and t.length > MAX_SPLIT_ELEMENTS):
        return [loc]
    parts = [(k * t.element.size, t.element) for k in range(t.length)] if t.is_array else \
        [(offset, ftype) for _, offset, ftype in t.fields]
    return [piece for offset, ptype in parts
            for piece in _pieces(Loc(loc.space, loc.array, op("+", loc.offset, lift(offset)), ptype))]


def _result_read(call: Node) -> bool:
    """Does the code use the value a call returns (not a statement of its own, nor cast to void)?"""
    parent = call.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    if parent is None or parent.type == "expression_statement":
        return False
    return not (parent.type == "cast_expression" and text(parent.child_by_field_name("type") or parent) == "void")


def _scaled(offset: Expr, size: int) -> Expr | None:
    """`x` of an element offset `x * size`."""
    if isinstance(offset, Op) and offset.name == "*" and len(offset.args) == 2:
        for a, b in (offset.args, reversed(offset.args)):
            if isinstance(b, Const) and b.value == size:
                return a
    return None
