"""Expressions: names, literals, operators, members, subscripts, casts, assignments; one handler
per syntax node kind (_EXPRESSIONS)."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from ..arith import PRECISION, precision
from ..ctype import BUILTIN_TYPES, FLOAT, INT, UNKNOWN, CType
from ..ir import Branch
from ..parse import Node, text
from ..symbolic import ONE, ZERO, Const, Expr, Load, Opaque, Sym, lift, op
from .calls import Calls
from .memory import _same_place
from .synchronisation import Synchronisation
from .syntax import _condition_text, _root_identifier
from .values import Env, Group, Loc, Ptr, Scalar, UnhandledSyntax, Val, _opaque

_BUILTIN_VECTORS = {"threadIdx": "tid", "blockIdx": "bid", "blockDim": "bdim", "gridDim": "gdim"}
DOUBLE = BUILTIN_TYPES["double"]


class Expressions:
    """The lowering of expressions (a part of Lowerer)."""

    def rvalue(self, node: Node | None, env: Env, record: bool = True) -> Val:
        value = self.expr(node, env, record)
        return self._loaded(value, node, record) if isinstance(value, Loc) else value  # the usual case: no call

    def expr(self, node: Node | None, env: Env, record: bool = True) -> Val:
        if node is None:
            return _opaque("missing")
        handler = _EXPRESSIONS.get(node.type)
        if handler is None:
            if node.type in ("ERROR",) or node.has_error:
                return _opaque("syntax error")
            if self.strict:
                raise UnhandledSyntax(f"line {node.start_point[0] + 1}: unhandled expression `{node.type}`")
            for child in node.named_children:  # still record accesses inside unknown constructs
                self.rvalue(child, env, record)
            return _opaque(node.type)
        return handler(self, node, env, record)

    def _number(self, node: Node, env: Env, record: bool) -> Val:
        found = _literal(text(node))
        if not found:
            return _opaque("literal")
        value, is_int, ctype = found
        return Scalar(Const(value, is_int), ctype)

    def _identifier(self, node: Node, env: Env, record: bool) -> Val:
        name = text(node).rsplit("::", 1)[-1]
        return self.name(name, env, node)

    def name(self, name: str, env: Env, node: Node | None = None) -> Val:
        local = env.lookup(name)
        if local is not None:
            return local
        if name in self.template_args:
            tpl = self.template_args[name]
            return tpl if not isinstance(tpl, CType) else _opaque(name)
        if name == "warpSize":
            return Scalar(Const(32.0))
        if name in ("true", "false"):
            return Scalar(Const(1.0 if name == "true" else 0.0))
        array = self.scope.arrays.get(name)
        if array is not None:
            return Loc(array.space, name, ZERO, array.type)
        constant = self.scope.constants.get(name)
        if constant is not None and self.macro_depth < 8:
            self.macro_depth += 1
            try:
                return self.rvalue(constant, Env(), record=False)
            finally:
                self.macro_depth -= 1
        macro = self._macro(name, node)
        if macro is not None and macro.params is None and self.macro_depth < 8:
            return self._expand_object(macro, env, node)
        return Scalar(Opaque(name, unseen=True))

    def _field(self, node: Node, env: Env, record: bool) -> Val:
        base_node = node.child_by_field_name("argument")
        field_name = text(node.child_by_field_name("field"))
        operator = text(node.child_by_field_name("operator"))
        if base_node is not None and base_node.type == "identifier" and operator == ".":
            builtin = _BUILTIN_VECTORS.get(text(base_node))
            if builtin is not None and env.lookup(text(base_node)) is None and field_name in ("x", "y", "z"):
                symbol = f"{builtin}.{field_name}"
                self.uses.add(symbol)
                return Scalar(Sym(symbol))
        if base_node is not None and base_node.type == "identifier":
            member = env.lookup(f"{text(base_node)}.{field_name}")  # components of host dim3 values
            if member is not None:
                return member
        base = self.expr(base_node, env, record)
        if operator == "->":
            base = self._deref(base)
        if isinstance(base, Loc):
            found = base.type.field(field_name)
            if found is None:
                return _opaque(f"field {field_name}")
            offset, ftype = found
            if ftype.pointee is not None and base.space == "global" and base_node.type == "identifier" and \
                    isinstance(base.offset, Const):
                # `s->data` of a struct argument passed by pointer: one pointer per launch, its own array
                return Ptr("global", f"{text(base_node)}->{field_name}", ZERO, ftype.pointee)
            return Loc(base.space, base.array, op("+", base.offset, lift(offset)), ftype)
        if isinstance(base, Scalar) and isinstance(base.expr, Sym) and base.expr.name.startswith("arg:"):
            found = base.type.field(field_name) if base.type.fields else None
            ftype = found[1] if found else UNKNOWN  # `p.n` of a struct passed by value: one value per launch
            if ftype.pointee is not None:  # `p.result`: a pointer the launch passes, its own array
                return Ptr("global", f"{base.expr.name[4:]}.{field_name}", ZERO, ftype.pointee)
            return Scalar(Opaque(f"member {field_name}", not ftype.is_float, uniform=True), ftype)
        if isinstance(base, Scalar) and base.type.fields:
            found = base.type.field(field_name)
            ftype = found[1] if found else UNKNOWN
            return Scalar(base.expr if isinstance(base.expr, (Load, Opaque)) else Opaque("member"), ftype)
        return _opaque(f"member {field_name}")

    @staticmethod
    def _deref(value: Val) -> Val:
        if isinstance(value, Ptr):
            return Loc(value.space, value.array, value.offset, value.pointee)
        if isinstance(value, Loc) and value.type.is_array:
            return Loc(value.space, value.array, value.offset, value.type.element)
        return _opaque("dereference")

    def _subscript(self, node: Node, env: Env, record: bool) -> Val:
        base = self.expr(node.child_by_field_name("argument"), env, record)
        indices = node.child_by_field_name("indices")
        index_nodes = indices.named_children if indices is not None else []
        index = self.rvalue(index_nodes[0], env, record) if index_nodes else _opaque("index")
        idx = index.expr if isinstance(index, Scalar) else Opaque("pointer index")
        if isinstance(base, Loc) and base.type.is_array:
            base = Ptr(base.space, base.array, base.offset, base.type.element)
        if isinstance(base, Ptr):
            pointee = base.pointee
            # a row of unknown length (`T s[N][M]` with M unresolved) has an unknown stride, not 0
            size = Opaque("extent") if pointee.is_array and pointee.length is None else lift(pointee.size)
            return Loc(base.space, base.array, op("+", base.offset, op("*", op("int", idx) if not idx.is_int else idx,
                                                                            size)), base.pointee)
        if record:  # memory behind a pointer the lowering lost (`smem.getPointer()`, a cast it cannot follow)
            self._opaque_memory(node, ["unknown"], "subscript")
        return _opaque("subscript")

    def _pointer(self, node: Node, env: Env, record: bool) -> Val:
        operator = text(node.child_by_field_name("operator"))
        arg = node.child_by_field_name("argument")
        if operator == "&":
            target = self.expr(arg, env, record)
            if isinstance(target, Loc):
                return Ptr(target.space, target.array, target.offset, target.type)
            if arg.type == "identifier" and isinstance(target, Scalar):  # `f(&x)` may write x: its value is lost
                env.assign(text(arg), _opaque(f"{text(arg)} behind a pointer", target.type))
            return _opaque("address")
        target = self._deref(self.rvalue(arg, env, record))
        if record and not isinstance(target, Loc):
            self._opaque_memory(node, ["unknown"], "dereference")
        return target

    def _binary(self, node: Node, env: Env, record: bool) -> Val:
        operator = text(node.child_by_field_name("operator"))
        left = self.rvalue(node.child_by_field_name("left"), env, record)
        right = self.rvalue(node.child_by_field_name("right"), env, record)
        if isinstance(left, Ptr) and isinstance(right, Scalar) and operator in ("+", "-"):
            return _advance(left, right.expr, operator)
        if isinstance(right, Ptr) and isinstance(left, Scalar) and operator == "+":
            return _advance(right, left.expr, "+")
        if isinstance(left, Ptr) and isinstance(right, Ptr):
            if operator == "-" and left.array == right.array:
                return Scalar(op("/", op("-", left.offset, right.offset), lift(left.pointee.size)))
            return Scalar(Opaque("pointer comparison"))
        if not isinstance(left, Scalar) or not isinstance(right, Scalar):
            return _opaque("operand")
        return self._arithmetic(operator, left, right)

    def _arithmetic(self, operator: str, left: Scalar, right: Scalar) -> Scalar:
        is_float = left.type.is_float or right.type.is_float or not (left.expr.is_int and right.expr.is_int)
        ctype = (left.type if left.type.is_float else right.type) if is_float else \
            (left.type if left.type.size >= right.type.size else right.type)
        expr = op(operator, left.expr, right.expr, is_int=None if operator not in "+-*/%" else not is_float)
        if is_float and operator in "+-*/":
            prec = precision(left.type, right.type)
            if prec is not None:
                ctype = next(t for t in (left.type, right.type) if PRECISION.get(t.name) == prec)
            self.work.binary(operator, prec, left.expr, right.expr, expr, id(self.stmts))
        return Scalar(expr, INT if operator in ("<", "<=", ">", ">=", "==", "!=", "&&", "||") else ctype)

    def _unary(self, node: Node, env: Env, record: bool) -> Val:
        operator = text(node.child_by_field_name("operator"))
        value = self.rvalue(node.child_by_field_name("argument"), env, record)
        if not isinstance(value, Scalar):
            return _opaque("unary")
        if operator == "+":
            return value
        return Scalar(op(operator, value.expr), value.type if operator != "!" else INT)

    def _paren(self, node: Node, env: Env, record: bool) -> Val:
        children = node.named_children
        return self.expr(children[-1], env, record) if children else _opaque("empty")

    def _conditional(self, node: Node, env: Env, record: bool) -> Val:
        """`c ? a : b`.  Memory reads inside a side happen only for the lanes selecting it, so a
        side that reads memory becomes a (predicated) branch of kind `select`."""
        cond_node = node.child_by_field_name("condition")
        cond = self.rvalue(cond_node, env, record)
        c = cond.expr if isinstance(cond, Scalar) else Opaque("condition")
        sides: dict[str, Val] = {}
        branch = Branch(self._id(), *self._pos(node), _condition_text(cond_node), c, kind="select")

        def side(key: str) -> None:
            sides[key] = self.rvalue(node.child_by_field_name(key), env, record)

        self._sides(branch, lambda: side("consequence"), lambda: side("alternative"))
        if not branch.then and not branch.orelse:
            self.stmts.pop()  # a plain select: no memory access depends on it
        a, b = sides["consequence"], sides["alternative"]
        if isinstance(a, Scalar) and isinstance(b, Scalar):
            return Scalar(op("?:", c, a.expr, b.expr), a.type)
        if isinstance(a, Ptr) and isinstance(b, Ptr) and a.array == b.array:
            return replace(a, offset=op("?:", c, a.offset, b.offset))
        return a if isinstance(a, Ptr) else _opaque("conditional")

    def _comma(self, node: Node, env: Env, record: bool) -> Val:
        value: Val = _opaque("comma")
        for child in node.named_children:
            value = self.rvalue(child, env, record)
        return value

    def _cast(self, node: Node, env: Env, record: bool) -> Val:
        type_node = node.child_by_field_name("type")
        value = self.rvalue(node.child_by_field_name("value"), env, record)
        return self._convert(text(type_node), value)

    def _convert(self, spelling: str, value: Val) -> Val:
        is_pointer = "*" in spelling
        ctype = self.type_of(spelling.replace("*", " ").replace("&", " ")) or UNKNOWN
        if is_pointer:
            if isinstance(value, Ptr):
                return replace(value, pointee=ctype) if ctype is not UNKNOWN else value
            return _opaque("cast")
        if isinstance(value, Scalar):
            if ctype.is_float:
                return Scalar(op("float", value.expr), ctype)
            if ctype is not UNKNOWN and not ctype.fields:
                return Scalar(op("int", value.expr) if not value.expr.is_int else value.expr, ctype)
        return value

    def _sizeof(self, node: Node, env: Env, record: bool) -> Val:
        target = node.child_by_field_name("type")
        if target is not None:
            spelling = text(target)
            ctype = self.type_of(spelling)
            size = 8 if "*" in spelling else ctype.size if ctype else None
        else:
            value_node = node.child_by_field_name("value")
            named = text(value_node).strip("() ")
            ctype = self.type_of(named) if env.lookup(named) is None else None  # `sizeof(fr_t)`, a typedef
            value = self.expr(value_node, env, record=False) if ctype is None else Scalar(ZERO, ctype)
            size = value.type.size if isinstance(value, (Loc, Scalar)) else 8
        return Scalar(Const(float(size))) if size else _opaque("sizeof")

    def _assignment(self, node: Node, env: Env, record: bool) -> Val:
        operator = text(node.child_by_field_name("operator"))
        left_node = node.child_by_field_name("left")
        right = self.rvalue(node.child_by_field_name("right"), env, record)
        if left_node is not None and left_node.type == "identifier" and operator == "=" and \
                env.lookup(text(left_node)) is None and text(left_node) not in self.scope.arrays:
            # `ns::tile_t<16> t = ...` parses as `(ns::tile_t < 16) > (t = ...)`: a declaration
            env.declare(text(left_node), right)
            return right
        if left_node is not None and left_node.type == "identifier" and \
                isinstance(env.lookup(text(left_node)), (Scalar, Ptr, Group)):
            name = text(left_node)
            if operator != "=":
                current = env.lookup(name)
                right = self._combine(current, operator[:-1], right)
            old = env.lookup(name)
            if isinstance(old, Scalar) and isinstance(right, Scalar):
                right = Scalar(right.expr, old.type)
            env.assign(name, right)
            return right
        target = self.expr(left_node, env, record)
        if isinstance(target, Loc):
            if operator != "=":
                current = self._read(target, left_node, record)
                right = self._combine(current, operator[:-1], right)
            copy = self.copies.get(text(node.child_by_field_name("right")))
            if record and operator == "=" and copy is not None and copy.value is right and \
                    _same_place(copy.source, target):
                self._write_back(copy, left_node)
                return right
            if record:
                self._write(target, left_node, value=right.expr if operator == "=" and isinstance(right, Scalar)
                            else None)
            self._store_pointer_element(target, right, operator == "=")
            return right
        root = _root_identifier(left_node)
        local = env.lookup(root) if root is not None else None
        if isinstance(local, Scalar) and left_node.type != "identifier" and \
                not (root in self.copies and self.copies[root].value is local):
            # a member of a local struct whose members the lowering does not track: no longer what it was
            env.assign(root, Scalar(Opaque(f"{root} with a member assigned"), local.type))
        if operator != "=" and isinstance(target, Scalar):  # a member of a local struct: `p.x += v`
            return self._combine(target, operator[:-1], right)
        return right

    def _combine(self, current: Val | None, operator: str, right: Val) -> Val:
        if isinstance(current, Ptr) and isinstance(right, Scalar) and operator in ("+", "-"):
            return _advance(current, right.expr, operator)
        if isinstance(current, Scalar) and isinstance(right, Scalar):
            result = self._arithmetic(operator, current, right)
            return Scalar(result.expr, current.type)
        return _opaque("compound assignment")

    def _update(self, node: Node, env: Env, record: bool) -> Val:
        arg = node.child_by_field_name("argument")
        delta = Scalar(ONE)
        operator = "+" if "++" in text(node.child_by_field_name("operator")) else "-"
        if arg is not None and arg.type == "identifier" and isinstance(env.lookup(text(arg)), (Scalar, Ptr)):
            current = env.lookup(text(arg))
            env.assign(text(arg), self._combine(current, operator, delta))
            return current
        target = self.expr(arg, env, record)
        if isinstance(target, Loc) and record:
            current = self._read(target, arg, record)
            self._write(target, arg)
            return current
        return _opaque("update")

    def _initializer(self, node: Node, env: Env, record: bool) -> Val:
        for child in node.named_children:
            self.rvalue(child, env, record)
        return _opaque("initializer")


@lru_cache(maxsize=65536)
def _literal(spelled: str) -> tuple[float, bool, CType] | tuple[()]:
    """A number literal's value, whether it is an integer, and its type; () when it reads as none
    (read once per spelling: kernels repeat their literals)."""
    raw = spelled.replace("'", "")
    digits = raw.rstrip("uUlLfF") if not raw.lower().startswith("0x") else raw.rstrip("uUlL")
    try:
        if raw.lower().startswith(("0x", "0b")) or (digits.isdigit() and not raw.lower().endswith("f")):
            return (float(int(digits, 0) if not digits.startswith("0") or digits == "0"
                          or digits.lower().startswith(("0x", "0b")) else int(digits, 8)), True, INT)
        return float(digits), False, FLOAT if raw[-1:] in "fF" else DOUBLE
    except ValueError:
        return ()


def _advance(pointer: Ptr, count: Expr, operator: str) -> Ptr:
    """Pointer arithmetic: `p + count` moves by count elements of the pointee."""
    return replace(pointer, offset=op(operator, pointer.offset, op("*", count, lift(pointer.pointee.size))))


def _condition_clause(self: Expressions, node: Node, env: Env, record: bool) -> Val:
    """`switch (x)` / `while (x)` wrap their condition; a declaration there (`if (int v = f())`) stays unhandled."""
    value = node.child_by_field_name("value")
    if value is None or value.type == "declaration":
        if self.strict:
            raise UnhandledSyntax(f"line {node.start_point[0] + 1}: declaration in a condition")
        return _opaque("condition declaration")
    return self.expr(value, env, record)


_EXPRESSIONS = {
    "condition_clause": _condition_clause,
    "string_literal": lambda self, n, e, r: _opaque("string"),  # printf formats: no value to track
    "concatenated_string": lambda self, n, e, r: _opaque("string"),
    "number_literal": Expressions._number,
    "char_literal": lambda self, n, e, r: Scalar(Const(float(ord(text(n)[1:-1][:1] or "\0")))),
    "true": lambda self, n, e, r: Scalar(ONE),
    "false": lambda self, n, e, r: Scalar(ZERO),
    "null": lambda self, n, e, r: Scalar(ZERO),
    "nullptr": lambda self, n, e, r: Scalar(ZERO),
    "identifier": Expressions._identifier,
    "qualified_identifier": Expressions._identifier,
    "type_identifier": Expressions._identifier,
    "field_expression": Expressions._field,
    "subscript_expression": Expressions._subscript,
    "pointer_expression": Expressions._pointer,
    "binary_expression": Expressions._binary,
    "unary_expression": Expressions._unary,
    "parenthesized_expression": Expressions._paren,
    "conditional_expression": Expressions._conditional,
    "comma_expression": Expressions._comma,
    "cast_expression": Expressions._cast,
    "sizeof_expression": Expressions._sizeof,
    "assignment_expression": Expressions._assignment,
    "update_expression": Expressions._update,
    "call_expression": Calls._call,
    "initializer_list": Expressions._initializer,
    "compound_literal_expression": Expressions._initializer,
    "gnu_asm_expression": Synchronisation._asm,
}
