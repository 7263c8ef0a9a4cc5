"""Replay of a wrapper call's effects, so a call costs about what the compiled C++ wrapper costs.

A plan's control flow and every launch argument depend only on the call's signature (each tensor's
type, shape, strides, dtype, device and storage offset, each scalar's C type and exact value) and on
the interpreter's state (last CUDA error, shared-memory attributes), never on tensor data.  The first
call with a signature is interpreted while its effects are recorded in order (torch calls that make
tensors, launches with pointers kept as "tensor k + byte offset", synchronisations, the raised error
or the returned value's structure); later calls with that signature re-run the torch calls on the new
tensors, launch with the new pointers, and raise or return the same way.  An alignment test
(`(uintptr_t)p % 16`) reads a pointer's low bits: the recording keeps a guard that the new pointer
leaves the same remainder, and a replay whose guard fails hands the call to the full build.  A call
whose outcome could depend on anything else (pointers compared, an address read otherwise, an input
passed twice, a launch the driver refused, a tensor subclass, an exception torch or the launcher
raised) is interpreted every time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .interp import Interpreter, LaunchFailure, PlanError, Ptr, Unsupported, V

MAX_SIGNATURES = 64                             # cached signatures per exported function
_PLAN_ERRORS = (PlanError, ValueError, IndexError)   # what a plan's own statements raise


class _Op:
    """A torch call that makes a tensor; tensor arguments are slots filled in at replay."""
    __slots__ = ("args", "catch", "fn", "kwargs", "only", "refs")

    def __init__(self, fn: Callable, args: tuple, refs: tuple[tuple[int, int], ...], kwargs: dict, catch: tuple):
        self.fn, self.args, self.refs, self.kwargs, self.catch = fn, args, refs, kwargs, catch
        self.only = refs[0][1] if len(args) == 1 and refs else None    # fn(tensor, **kwargs): the common case

    def run(self, slots: list) -> None:
        try:
            if self.only is not None:
                slots.append(self.fn(slots[self.only], **self.kwargs))
                return
            args = list(self.args)
            for position, slot in self.refs:
                args[position] = slots[slot]
            slots.append(self.fn(*args, **self.kwargs))
        except self.catch as exc:                  # as Interpreter._torch surfaces it
            raise PlanError(str(exc).splitlines()[0]) from None


class _Launch:
    __slots__ = ("bound", "kernel", "pointers")

    def __init__(self, bound: Callable[[Sequence[int]], None], pointers: tuple[tuple[int, int], ...], kernel: str):
        self.bound, self.pointers, self.kernel = bound, pointers, kernel

    def run(self, slots: list) -> None:
        try:
            self.bound([slots[slot].data_ptr() + offset for slot, offset in self.pointers])
        except LaunchFailure as exc:
            raise RuntimeError(f"fast path: the driver refused launch of {self.kernel} ({exc}) on replay, "
                               "though it took the same launch when the call was recorded") from None


class _Guard:
    """An alignment test's premise: the pointer leaves the recorded remainder modulo a power of two."""
    __slots__ = ("modulus", "offset", "remainder", "slot")

    def __init__(self, slot: int, offset: int, modulus: int, remainder: int):
        self.slot, self.offset, self.modulus, self.remainder = slot, offset, modulus, remainder

    def run(self, slots: list) -> None:
        if (slots[self.slot].data_ptr() + self.offset) % self.modulus != self.remainder:
            raise Unsupported(f"an address the wrapper tests for {self.modulus}-byte alignment lies otherwise than "
                              "in the recorded call")


class _Sync:
    __slots__ = ("launcher",)

    def __init__(self, launcher: Any):
        self.launcher = launcher

    def run(self, slots: list) -> None:
        self.launcher.synchronize()


def bind(launcher: Any, kernel: str, grid: tuple, block: tuple, smem: int, stream: str,
         args: list[tuple[str, Any]], patched: tuple[int, ...]) -> Callable[[Sequence[int]], None]:
    """A launch with everything but the pointers at `patched` fixed: the launcher's own `bind` where it
    has one (the driver packs the arguments once), else a call of its `launch`."""
    if hasattr(launcher, "bind"):
        return launcher.bind(kernel, grid, block, smem, stream, args, patched)

    def launch(addresses: Sequence[int]) -> None:
        values = list(args)
        for position, address in zip(patched, addresses):
            values[position] = ("p", address)
        launcher.launch(kernel, grid, block, smem, stream, values)
    return launch


class Recording:
    """The effects of one interpreted call, tensors numbered in the order they appear (inputs first)."""

    def __init__(self, inputs: list):
        self.slots: dict[int, int] = {}       # id(tensor) -> slot; `keep` holds them so ids stay unique
        self.keep: list = []
        self.steps: list = []
        self.reason: str | None = None        # why this call must not be replayed
        for t in inputs:
            self._add(t)
        if len(self.slots) < len(inputs):
            self.refuse("a tensor passed twice")

    def _add(self, t: Any) -> None:
        self.slots[id(t)] = len(self.keep)
        self.keep.append(t)

    def refuse(self, reason: str) -> None:
        self.reason = self.reason or reason

    def _slot(self, t: Any) -> int:
        slot = self.slots.get(id(t))
        if slot is None:
            self.refuse("a tensor of unknown origin")
            return -1
        return slot

    def op(self, fn: Callable, args: tuple, kwargs: dict, catch: tuple, out: Any) -> None:
        import torch

        refs = tuple((i, self._slot(a)) for i, a in enumerate(args) if isinstance(a, torch.Tensor))
        fixed = tuple(None if isinstance(a, torch.Tensor) else tuple(a) if isinstance(a, list) else a for a in args)
        self.steps.append(_Op(fn, fixed, refs, dict(kwargs), catch))
        self._add(out)

    def launch(self, launcher: Any, kernel: str, grid: tuple, block: tuple, smem: int, stream: str,
               args: list[tuple[str, Any]]) -> None:
        patched = tuple(i for i, (_, v) in enumerate(args) if isinstance(v, Ptr) and v.tensor is not None)
        pointers = tuple((self._slot(args[i][1].tensor), args[i][1].offset) for i in patched)
        fixed = [("p", 0) if isinstance(v, Ptr) else (c, v) for c, v in args]
        if self.reason is None:
            self.steps.append(_Launch(bind(launcher, kernel, grid, block, smem, stream, fixed, patched), pointers,
                                      kernel))

    def guard(self, pointer: Ptr, modulus: int) -> None:
        """The wrapper read `pointer`'s address modulo `modulus` (interp.Interpreter._alignment_test)."""
        if pointer.tensor is not None:
            self.steps.append(_Guard(self._slot(pointer.tensor), pointer.offset, modulus,
                                     pointer.address() % modulus))

    def sync(self, launcher: Any) -> None:
        self.steps.append(_Sync(launcher))

    def structure(self, value: Any) -> tuple:
        """The returned value as ("t", slot), ("l"/"u", items) or ("c", constant)."""
        import torch

        if isinstance(value, torch.Tensor):
            return ("t", self._slot(value))
        if isinstance(value, list | tuple):
            return ("l" if isinstance(value, list) else "u", tuple(self.structure(v) for v in value))
        return ("c", value)


def _build(structure: tuple, slots: list) -> Any:
    kind, value = structure
    if kind == "t":
        return slots[value]
    if kind == "c":
        return value
    items = [_build(s, slots) for s in value]
    return items if kind == "l" else tuple(items)


@dataclass(frozen=True)
class Entry:
    steps: tuple
    result: tuple | None                      # structure of the returned value
    error: tuple[type, tuple] | None          # (exception type, args) the call raises
    last_error: int
    attributes: dict[str, int]


class Calls:
    """An extension's calls: replayed when their signature was recorded before, else interpreted (and
    recorded when nothing but the signature can change the outcome)."""

    def __init__(self, interpreter: Interpreter, capacity: int = MAX_SIGNATURES):
        import torch

        self.interpreter, self.capacity = interpreter, capacity
        self.plain = (torch.Tensor, torch.nn.Parameter)
        self.strided = torch.strided
        self.cache: dict[str, dict[tuple, Entry]] = {name: {} for name in interpreter.tr.functions}
        self.recorded = self.replayed = 0

    def call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        interpreter = self.interpreter
        fn = interpreter.tr.functions[name]
        if kwargs or len(args) != len(fn.params) or not self.capacity:
            return interpreter.call(name, *args, **kwargs)     # raises the TypeError, or interprets
        values = None                     # converted only when the call is not replayed
        key = self.quick_key(fn, args)
        if key is None:
            values, key = self.signature(name, fn, args)
            if key is None:
                return interpreter.run(fn, values)
        entry = self.cache[name].get(key)
        if entry is not None:
            self.replayed += 1
            return self._replay(entry, self._inputs(fn, args))
        if values is None:
            values = [interpreter._from_python(a, ctype, name) for a, (_, ctype) in zip(args, fn.params)]
        return self._record(name, fn, key, values, self._inputs(fn, args))

    def quick_key(self, fn: Any, args: tuple) -> tuple | None:
        """The signature read straight off the Python arguments, when each is of a type whose
        conversion depends on nothing but its value (a plain strided tensor, int, float, bool, a list
        of those): a call that hits it replays without converting anything.  None sends the call the
        converting way (`signature`)."""
        interpreter, plain, tensor_key = self.interpreter, self.plain, self._tensor
        attributes = interpreter.attributes
        parts: list = ["quick", interpreter.last_error, tuple(sorted(attributes.items())) if attributes else ()]
        for a, (_, ctype) in zip(args, fn.params):
            kind = type(a)
            if ctype == "tensor":
                part = tensor_key(a) if kind in plain else None
            elif ctype in ("float", "double"):
                part = a.hex() if kind is float else (kind, a) if kind is int else None
            elif ctype in ("list", "sizes"):
                if kind is not list and kind is not tuple:
                    return None
                if ctype == "sizes":
                    part = tuple(a) if all(type(v) is int for v in a) else None
                else:
                    part = tuple(tensor_key(t) if type(t) in plain else None for t in a)
                    part = None if None in part else part
            else:
                part = (kind, a) if kind is int or kind is bool else None
            if part is None:
                return None
            parts.append(part)
        return tuple(parts)

    @staticmethod
    def _inputs(fn: Any, args: tuple) -> list:
        """The tensors a call's slots start with: its tensor arguments and the items of its tensor
        lists, in order (the very objects conversion keeps)."""
        inputs: list = []
        for a, (_, ctype) in zip(args, fn.params):
            if ctype == "tensor":
                inputs.append(a)
            elif ctype == "list":
                inputs.extend(a)
        return inputs

    def signature(self, name: str, fn: Any, args: tuple) -> tuple[list[V], tuple | None]:
        """The arguments converted as pybind11 would (each read once) and everything a plan can read of
        this call, or None for the key when a call cannot be keyed (a tensor subclass, a non-strided
        tensor)."""
        interpreter = self.interpreter
        attributes = interpreter.attributes
        parts: list = [interpreter.last_error, tuple(sorted(attributes.items())) if attributes else ()]
        values: list[V] = []
        keyed = True
        for a, (_, ctype) in zip(args, fn.params):
            v = interpreter._from_python(a, ctype, name)
            values.append(v)
            if ctype == "tensor":
                part = self._tensor(a)
                keyed = keyed and part is not None
            elif ctype == "list":
                part = tuple(self._tensor(t) for t in v.value)
                keyed = keyed and None not in part
            elif ctype in ("float", "double"):
                part = float(v.value).hex()      # tells -0.0 from 0.0, and NaN matches itself
            elif ctype == "sizes":
                part = tuple(v.value)
            else:
                part = v.value
            parts.append(ctype)
            parts.append(part)
        return values, tuple(parts) if keyed else None

    def _tensor(self, t: Any) -> tuple | None:
        if type(t) not in self.plain or t.layout is not self.strided:
            return None
        return (t.shape, t.stride(), t.dtype, t.device, t.storage_offset())

    def _record(self, name: str, fn: Any, key: tuple, values: list[V], inputs: list) -> Any:
        interpreter = self.interpreter
        tape = interpreter.tape = Recording(inputs)
        try:
            result = interpreter.run(fn, values)
        except _PLAN_ERRORS as exc:
            self._store(name, key, tape, None, (type(exc), exc.args))
            raise
        finally:
            interpreter.tape = None
        self._store(name, key, tape, tape.structure(result), None)
        return result

    def _store(self, name: str, key: tuple, tape: Recording, result: tuple | None, error: tuple | None) -> None:
        if tape.reason is not None:
            return
        cache = self.cache[name]
        if len(cache) >= self.capacity:
            del cache[next(iter(cache))]
        interpreter = self.interpreter
        cache[key] = Entry(tuple(tape.steps), result, error, interpreter.last_error, dict(interpreter.attributes))
        self.recorded += 1

    def _replay(self, entry: Entry, slots: list) -> Any:
        for step in entry.steps:
            step.run(slots)
        interpreter = self.interpreter
        interpreter.last_error = entry.last_error
        if entry.attributes != interpreter.attributes:
            interpreter.attributes = dict(entry.attributes)
        if entry.error is not None:
            kind, args = entry.error
            raise kind(*args)
        return _build(entry.result, slots)
