"""What the lowering tracks for a name: a scalar expression, a pointer, a memory location or a
cooperative group; the scopes holding them (Env), and the errors lowering raises."""

from __future__ import annotations

from dataclasses import dataclass

from ..ctype import INT, UNKNOWN, CType
from ..symbolic import Expr, Opaque


@dataclass(frozen=True)
class Scalar:
    expr: Expr
    type: CType = INT


@dataclass(frozen=True)
class Ptr:
    space: str
    array: str
    offset: Expr  # bytes
    pointee: CType


@dataclass(frozen=True)
class Loc:
    space: str
    array: str
    offset: Expr  # bytes
    type: CType


@dataclass(frozen=True)
class Group:
    """A cooperative-groups handle: a thread block (size None), a tile of `size` threads (an opaque
    size where the source does not fix it), the whole grid, or the kernel's thread-block cluster (`cluster`:
    its blocks per axis, from `__cluster_dims__`; its barrier is taken as a block's)."""

    size: Expr | None
    grid: bool = False
    cluster: tuple[int, int, int] | None = None


Val = Scalar | Ptr | Loc | Group


def _opaque(reason: str, ctype: CType = UNKNOWN) -> Scalar:
    return Scalar(Opaque(reason, not ctype.is_float), ctype)


class Env:
    """Lexical scopes of local variables; assignment updates the scope that declared the name."""

    def __init__(self, frames: list[dict[str, Val]] | None = None):
        self.frames = frames if frames is not None else [{}]

    def push(self) -> None:
        self.frames.append({})

    def pop(self) -> None:
        self.frames.pop()

    def lookup(self, name: str) -> Val | None:
        for frame in reversed(self.frames):
            if name in frame:
                return frame[name]
        return None

    def declare(self, name: str, value: Val) -> None:
        self.frames[-1][name] = value

    def assign(self, name: str, value: Val) -> bool:
        for frame in reversed(self.frames):
            if name in frame:
                frame[name] = value
                return True
        return False

    def copy(self) -> Env:
        return Env([dict(f) for f in self.frames])


class LoweringError(Exception):
    pass


class UnhandledSyntax(LoweringError):
    """Strict mode only: a construct the lowering would otherwise skip or make opaque."""
