"""Declarations of locals: scalars, pointers (and where they point), local and shared arrays."""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from ..ctype import INT, UNKNOWN, CType, array_of
from ..ir import SharedArray
from ..parse import Node, text
from ..scope import array_dims, template_params
from ..symbolic import ONE, ZERO, Opaque, op
from .values import Env, Group, Loc, Ptr, Scalar, Val, _opaque


class Declarations:
    """The lowering of declarations (a part of Lowerer)."""

    def _declaration(self, node: Node, env: Env) -> None:
        quals = {text(c) for c in node.children if c.type in ("type_qualifier", "storage_class_specifier")}
        type_node = node.child_by_field_name("type")
        if type_node is not None and type_node.type == "enum_specifier":  # `enum Dir { UP, DOWN } d;`
            self._enumerators(type_node, env)
        base = self.type_of(text(type_node)) or UNKNOWN
        for declarator in node.children_by_field_name("declarator"):
            value_node = None
            target = declarator
            if declarator.type == "init_declarator":
                target = declarator.child_by_field_name("declarator")
                value_node = declarator.child_by_field_name("value")
            pointer = 0
            while target is not None and target.type in ("pointer_declarator", "reference_declarator"):
                pointer += target.type == "pointer_declarator"
                target = target.child_by_field_name("declarator")
            if target is None:
                continue
            if target.type == "array_declarator":
                self._array_declaration(target, base, quals, env)
                continue
            name = text(target)
            if "__shared__" in quals and not pointer:  # a shared scalar is memory, not a register
                self.shared.append(SharedArray(name, base, "extern" in quals, self._pos(target)[0]))
                env.declare(name, Loc("shared", name, ZERO, base))
                continue
            if value_node is None:
                env.declare(name, _opaque("uninitialised", base) if not pointer else
                            Ptr("global", "?", ZERO, base))
                continue
            if value_node.type in ("initializer_list", "argument_list"):
                items = value_node.named_children
                value = self.rvalue(items[0], env) if len(items) == 1 else _opaque("aggregate", base)
            elif not pointer:
                value = self._copied(name, self.expr(value_node, env), value_node)
            else:
                value = self.rvalue(value_node, env)
            if isinstance(value, Group):
                pass
            elif pointer and isinstance(value, Ptr) and value.pointee.size != base.size and base is not UNKNOWN:
                value = replace(value, pointee=base)
            elif not pointer and isinstance(value, Scalar) and not base.is_float and base is not UNKNOWN \
                    and not value.expr.is_int and base.size <= 8 and not base.fields:
                value = Scalar(op("int", value.expr), base)
            elif isinstance(value, Scalar) and base is not UNKNOWN:
                value = Scalar(value.expr, base)
            if pointer and isinstance(value, Scalar) and value_node.type == "call_expression":
                value = self._pointer_from_call(value_node, name, base, value)
            if pointer and "volatile" in quals and isinstance(value, Ptr):
                self.volatile.add(value.array)
            env.declare(name, value)
            if name in self.copies:
                self.copies[name].value = value

    def _enumerators(self, specifier: Node, env: Env) -> None:
        """A local `enum { TILE = 16, PAD };`: each enumerator a constant of the enclosing block (the
        one before plus one where no value is written)."""
        body = specifier.child_by_field_name("body")
        previous = None
        for enumerator in body.named_children if body is not None else []:
            name, value_node = enumerator.child_by_field_name("name"), enumerator.child_by_field_name("value")
            if enumerator.type != "enumerator" or name is None:
                continue
            if value_node is not None:
                value = self.rvalue(value_node, env, record=False)
                previous = value.expr if isinstance(value, Scalar) else Opaque(f"enumerator {text(name)}")
            else:
                previous = op("+", previous, ONE) if previous is not None else ZERO
            env.declare(text(name), Scalar(previous, INT))

    def _pointer_from_call(self, call: Node, name: str, base: CType, value: Scalar) -> Val:
        """`T* s = SharedMemory<T>();`: a helper struct whose conversion operator returns its
        `extern __shared__` array (the cuda-samples idiom) is that dynamic shared array.  Any other
        call the lowering cannot follow leaves the pointer unknown, and says so."""
        callee = call.child_by_field_name("function")
        if callee is not None and callee.type == "template_function":
            callee = callee.child_by_field_name("name")
        helper = text(callee).rsplit("::", 1)[-1] if callee is not None else ""
        array = _shared_helpers(self.scope.source.data).get(helper)
        if array is not None:
            if all(s.name != array for s in self.shared):
                self.shared.append(SharedArray(array, array_of(base, None), True, self._pos(call)[0]))
            return Ptr("shared", array, ZERO, base)
        line, column = self._pos(call)
        self.warnings.append((line, column, f"pointer {name} comes from {text(call)[:60]}, which is not followed: "
                                            "accesses through it are not analysed"))
        return value

    def _array_declaration(self, declarator: Node, base: CType, quals: set[str], env: Env) -> None:
        name, dims = array_dims(declarator)
        ctype = base
        sizes = [self.const_int(d, env) if d is not None else None for d in dims]
        for size in reversed(sizes):
            ctype = array_of(ctype, size)
        if "__shared__" in quals:
            dynamic = "extern" in quals or any(s is None for s in sizes)
            self.shared.append(SharedArray(name, ctype, dynamic, self._pos(declarator)[0]))
            env.declare(name, Loc("shared", name, ZERO, ctype))
        else:
            env.declare(name, Loc("local", name, ZERO, ctype))


_STRUCT_HEAD = re.compile(rb"\b(?:struct|class)\s+(\w+)\s*(?:<[^{};]*>)?\s*\{")
_EXTERN_SHARED = re.compile(rb"extern\s+__shared__\s+[\w\s]+?\s(\w+)\s*\[\s*\]")


@functools.cache
def _shared_helpers(data: bytes) -> dict[str, str]:
    """Structs and classes whose body declares an `extern __shared__` array: name -> array."""
    helpers: dict[str, str] = {}
    if b"__shared__" not in data:
        return helpers
    for head in _STRUCT_HEAD.finditer(data):
        depth, end = 0, len(data)
        for i in range(head.end() - 1, len(data)):
            depth += {ord("{"): 1, ord("}"): -1}.get(data[i], 0)
            if depth == 0:
                end = i
                break
        found = _EXTERN_SHARED.search(data, head.end(), end)
        if found:
            helpers.setdefault(head.group(1).decode(), found.group(1).decode())
    return helpers


def _declare_unbound_constants(definition: Node, env: Env, bound) -> None:
    """A value template parameter no argument gave: unknown, but one compile-time constant for the
    whole grid."""
    names, kinds, _ = template_params(definition)
    for name, kind in zip(names, kinds):
        if kind == "value" and name not in bound:
            env.declare(name, Scalar(Opaque(name, uniform=True)))
