"""The CUDA driver API through ctypes: count devices, load a cubin, launch its kernels on torch's
current stream, reset persisting-L2 lines.  No CuPy: the worker needs only torch and the driver,
and the parent can count GPUs without creating a context."""

from __future__ import annotations

import ctypes
from functools import cache

_DYNAMIC_SMEM_ATTRIBUTE = 8          # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
_PERSISTING_L2_LIMIT = 0x06          # CU_LIMIT_PERSISTING_L2_CACHE_SIZE
_CC_MAJOR, _CC_MINOR = 75, 76        # CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_{MAJOR,MINOR}
_DEFAULT_SMEM = 48 * 1024
_CTYPES = {"i": ctypes.c_int32, "q": ctypes.c_int64, "I": ctypes.c_uint32, "Q": ctypes.c_uint64,
           "f": ctypes.c_float, "d": ctypes.c_double, "p": ctypes.c_void_p, "b": ctypes.c_bool,
           "s": lambda packed: ctypes.create_string_buffer(packed, len(packed))}   # a struct passed by value


class CudaError(RuntimeError):
    def __init__(self, code: int, what: str):
        self.code = code
        super().__init__(f"{what}: {error_name(code)} ({code})")


@cache
def _lib() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None


def error_name(code: int) -> str:
    lib, name = _lib(), ctypes.c_char_p()
    if lib is None or lib.cuGetErrorName(code, ctypes.byref(name)) != 0 or not name.value:
        return "CUDA_ERROR"
    return name.value.decode()


def _check(result: int, what: str) -> None:
    if result != 0:
        raise CudaError(result, what)


def device_count() -> int:
    """GPUs the driver sees (0 without a driver); creates no context."""
    lib = _lib()
    count = ctypes.c_int(0)
    if lib is None or lib.cuInit(0) != 0 or lib.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return 0
    return count.value


def capability(index: int = 0) -> tuple[int, int] | None:
    lib = _lib()
    if lib is None or lib.cuInit(0) != 0:
        return None
    device, major, minor = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    if lib.cuDeviceGet(ctypes.byref(device), index) != 0:
        return None
    lib.cuDeviceGetAttribute(ctypes.byref(major), _CC_MAJOR, device)
    lib.cuDeviceGetAttribute(ctypes.byref(minor), _CC_MINOR, device)
    return major.value, minor.value


class Module:
    """A loaded cubin in the current (torch's primary) context."""

    def __init__(self, image: bytes):
        lib = _lib()
        if lib is None:
            raise CudaError(100, "libcuda.so.1 not found")
        self._lib = lib
        self._handle = ctypes.c_void_p()
        self._image = ctypes.create_string_buffer(image, len(image))
        _check(lib.cuModuleLoadData(ctypes.byref(self._handle), self._image), "cuModuleLoadData")
        self._functions: dict[str, ctypes.c_void_p] = {}

    def function(self, name: str) -> ctypes.c_void_p:
        if name not in self._functions:
            handle = ctypes.c_void_p()
            result = self._lib.cuModuleGetFunction(ctypes.byref(handle), self._handle, name.encode())
            if result != 0:
                raise KeyError(f"kernel {name!r} not found in the module (declare it extern \"C\")")
            self._functions[name] = handle
        return self._functions[name]

    def parameter_sizes(self, name: str) -> list[int] | None:
        """Byte size of each kernel parameter (cuFuncGetParamInfo, CUDA 12.4+), None if unsupported."""
        getter = getattr(self._lib, "cuFuncGetParamInfo", None)
        if getter is None:
            return None
        sizes, offset, size = [], ctypes.c_size_t(), ctypes.c_size_t()
        while len(sizes) < 4096:
            if getter(self.function(name), ctypes.c_size_t(len(sizes)), ctypes.byref(offset), ctypes.byref(size)):
                break
            sizes.append(size.value)
        return sizes or None  # no parameters, or a driver that cannot say: not checked

    def variable(self, name: str) -> tuple[int, int]:
        """(device address, bytes) of the module's global variable `name` (cuModuleGetGlobal)."""
        address, size = ctypes.c_uint64(), ctypes.c_size_t()
        _check(self._lib.cuModuleGetGlobal_v2(ctypes.byref(address), ctypes.byref(size), self._handle, name.encode()),
               f"cuModuleGetGlobal {name}")
        return address.value, size.value

    def copy(self, destination: int, source: int, count: int, stream: int) -> None:
        """`count` bytes device to device, in order on `stream` (cuMemcpyDtoDAsync)."""
        _check(self._lib.cuMemcpyDtoDAsync_v2(ctypes.c_uint64(destination), ctypes.c_uint64(source),
                                              ctypes.c_size_t(count), ctypes.c_void_p(stream)), "cuMemcpyDtoDAsync")

    def max_active_blocks(self, name: str, threads: int, smem: int) -> int:
        """cuOccupancyMaxActiveBlocksPerMultiprocessor: blocks of kernel `name` one SM holds at once."""
        blocks = ctypes.c_int(0)
        _check(self._lib.cuOccupancyMaxActiveBlocksPerMultiprocessor(ctypes.byref(blocks), self.function(name),
                                                                     ctypes.c_int(threads), ctypes.c_size_t(smem)),
               f"occupancy of {name}")
        return blocks.value

    def launch(self, name: str, grid: tuple[int, int, int], block: tuple[int, int, int], smem: int,
               stream: int, args: list[tuple[str, int | float]]) -> None:
        """`args` are (code, value): code `p` a device pointer, else a struct-module scalar letter."""
        self.bind(name, grid, block, smem, args, ())(stream, ())

    def bind(self, name: str, grid: tuple[int, int, int], block: tuple[int, int, int], smem: int,
             args: list[tuple[str, int | float]], patched: tuple[int, ...]) -> BoundLaunch:
        """A launch packed once; the pointers at positions `patched` are given at each launch."""
        return BoundLaunch(self, name, grid, block, smem, args, patched)


class BoundLaunch:
    """One kernel launch with its configuration and argument array built once (ctypes packing costs
    microseconds per argument); a call patches the changing pointers in and launches."""

    def __init__(self, module: Module, name: str, grid: tuple[int, int, int], block: tuple[int, int, int],
                 smem: int, args: list[tuple[str, int | float]], patched: tuple[int, ...]):
        self.name, self.grid, self.block, self.smem = name, grid, block, smem
        self._lib = module._lib
        self._func = module.function(name)
        self._values = [_CTYPES[code](value) for code, value in args]
        self._params = (ctypes.c_void_p * max(1, len(self._values)))(
            *[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in self._values])
        self._patched = [self._values[i] for i in patched]
        self._config = (self._func, *grid, *block, ctypes.c_uint(smem))

    def __call__(self, stream: int, addresses: list[int] | tuple[int, ...]) -> None:
        for value, address in zip(self._patched, addresses):
            value.value = address
        if self.smem > _DEFAULT_SMEM:
            _check(self._lib.cuFuncSetAttribute(self._func, _DYNAMIC_SMEM_ATTRIBUTE, self.smem),
                   f"{self.name}: dynamic smem {self.smem}")
        result = self._lib.cuLaunchKernel(*self._config, ctypes.c_void_p(stream), self._params, None)
        if result:
            raise CudaError(result, f"launch of {self.name} grid {self.grid} block {self.block} smem {self.smem}")


def reset_persisting_l2() -> None:
    """Drop persisting lines and set the carveout to 0 so no input stays pinned in L2 between trials."""
    lib = _lib()
    if lib is not None:
        lib.cuCtxResetPersistingL2Cache()
        lib.cuCtxSetLimit(_PERSISTING_L2_LIMIT, ctypes.c_size_t(0))
