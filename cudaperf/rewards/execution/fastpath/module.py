"""What `load_inline` returns on the fast path: the exported functions as attributes, each call going
through `replay.Calls` (replayed when its signature was seen, else interpreted)."""

from __future__ import annotations

from typing import Any

from .interp import ArgumentError, Interpreter, Unsupported
from .replay import MAX_SIGNATURES, Calls

# what a call may raise as the compiled extension would (its C++ exceptions as pybind11 maps them, torch's
# errors, pybind11's refusal of the arguments); anything else a call raises (KeyError, AttributeError, a
# TypeError of ours...) is a bug of the interpreter's, never the candidate's error: the engine runs the
# full build instead
_AS_THE_EXTENSION = (Unsupported, RuntimeError, ValueError, IndexError, ArgumentError, MemoryError)


class FastModule:
    """The exported functions, looked up in a table of their own, so an exported name cannot replace
    anything of this object's.  `capacity=0` interprets every call (the reference the tests compare)."""

    def __init__(self, interpreter: Interpreter, capacity: int = MAX_SIGNATURES):
        self._calls = Calls(interpreter, capacity)
        self._functions = {name: self._bound(name) for name in interpreter.tr.functions}

    def __getattr__(self, name: str) -> Any:
        functions = self.__dict__.get("_functions", {})
        if name in functions:
            return functions[name]
        raise AttributeError(f"module has no attribute {name!r}")

    def __dir__(self) -> list[str]:
        return sorted(self._functions)

    def _bound(self, name: str):
        call = self._calls.call

        def function(*args: Any, **kwargs: Any) -> Any:
            try:
                return call(name, *args, **kwargs)
            except _AS_THE_EXTENSION:
                raise
            except Exception as exc:
                raise Unsupported(f"the interpreter failed on {name}: {type(exc).__name__}: {exc}"[:300]) from exc
        function.__name__ = name
        return function
