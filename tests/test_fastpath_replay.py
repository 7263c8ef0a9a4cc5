"""Replayed fast-path calls (fastpath/replay.py) against the interpreter, on the CPU with a recording
launcher: for every translated wrapper the repository holds, a sequence of calls with varying shapes,
strides, dtypes and scalars gives the same launches (pointers named by the tensor they point into),
the same outputs and the same errors whether each call is replayed or interpreted; stale pointers,
skipped checks and skipped launches are looked for explicitly."""

from __future__ import annotations

import types
from pathlib import Path

import pytest
from conftest import declarations, load_script

from cudaperf.rewards.execution.fastpath import Fallback, translate
from cudaperf.rewards.execution.fastpath.report import read_builds
from cudaperf.rewards.execution.fastpath.split import split
from cudaperf.rewards.execution.formats import load_candidate

torch = pytest.importorskip("torch")
from cudaperf.rewards.execution.fastpath.interp import Interpreter, PlanError, Unsupported  # noqa: E402
from cudaperf.rewards.execution.fastpath.module import FastModule  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
HEAD = "#include <torch/extension.h>\n#include <cuda_runtime.h>\n"


class Launches:
    """Records launches with raw addresses; `normal` names them relative to a call's tensors."""

    def __init__(self):
        self.calls: list = []
        self.synced = 0

    def launch(self, kernel, grid, block, smem, stream, args):
        self.calls.append((kernel, grid, block, smem, stream, list(args)))

    def synchronize(self):
        self.calls.append(("sync",))


def _flat(value) -> list:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, list | tuple):
        return [t for v in value for t in _flat(v)]
    return []


def normal(calls: list, inputs: list, outputs: list) -> list:
    """Pointers as ("in"/"out", index, byte offset) when inside a given tensor, else ("tmp", k) by the
    order distinct addresses first appear (temporaries are allocated in the same order on both paths)."""
    others: dict[int, int] = {}

    def name(address: int):
        if address == 0:
            return 0
        for kind, tensors in (("in", inputs), ("out", outputs)):
            for i, t in enumerate(tensors):
                start = t.data_ptr()
                if start <= address < start + max(1, t.numel() * t.element_size()):
                    return (kind, i, address - start)
        return ("tmp", others.setdefault(address, len(others)))

    return [c if c[0] == "sync" else (*c[:5], [(code, name(v)) if code == "p" else (code, v) for code, v in c[5]])
            for c in calls]


def describe(value, inputs: list):
    if isinstance(value, torch.Tensor):
        same = next((i for i, t in enumerate(inputs) if t is value), None)
        return ("tensor", tuple(value.shape), value.stride(), value.dtype, value.device, same)
    if isinstance(value, list | tuple):
        return (type(value).__name__, [describe(v, inputs) for v in value])
    return ("value", type(value).__name__, value)


def outcome(module: FastModule, launches: Launches, name: str, args: list) -> tuple:
    inputs = _flat(args)
    launches.calls.clear()
    try:
        out = getattr(module, name)(*args)
    except (PlanError, Unsupported, ValueError, IndexError, TypeError, RuntimeError) as exc:
        return ("raised", type(exc).__name__, str(exc), normal(launches.calls, inputs, [])), None
    return ("returned", describe(out, inputs), normal(launches.calls, inputs, _flat(out))), out


# ------------------------------------------------------------------ arguments for any wrapper

SHAPES = [((64,), "float32", None), ((64,), "float32", None), ((4, 16), "float32", None),
          ((2, 8, 3), "float32", "transpose"), ((2, 3, 4, 5), "float32", None), ((64,), "float32", None),
          ((8, 8), "float32", "offset"), ((8, 8), "float64", None), ((4, 16), "float32", None),
          ((16, 16), "float32", None), ((8, 8), "float32", "offset"), ((2, 3, 4, 5), "float16", None),
          ((16, 16), "float32", None)]
SCALARS = [(3, 0.5), (3, 0.5), (7, -0.0), (1, 0.0), (3, 0.5), (3, 0.5), (2, 1e-5), (3, 0.5), (7, 0.0), (0, 2.0),
           (2, 1e-5), (5, 0.25), (0, 2.0)]


def tensor(shape: tuple, dtype: str, layout: str | None) -> torch.Tensor:
    if layout == "transpose":
        return torch.randn(*shape[:-2], shape[-1], shape[-2]).transpose(-1, -2)
    t = torch.randn(*shape, dtype=getattr(torch, dtype))
    if layout == "offset":
        return torch.randn(t.numel() + 5, dtype=t.dtype)[5:].view(shape)
    return t


def arguments(params: tuple, step: int) -> list:
    shape, dtype, layout = SHAPES[step]
    count, number = SCALARS[step]
    out = []
    for _, ctype in params:
        if ctype == "tensor":
            out.append(tensor(shape, dtype, layout))
        elif ctype == "list":
            out.append([tensor(shape, dtype, layout), tensor(shape, dtype, layout)])
        elif ctype == "sizes":
            out.append(list(shape))
        elif ctype == "bool":
            out.append(bool(count % 2))
        elif ctype in ("float", "double"):
            out.append(number)
        else:
            out.append(count)
    return out


def compare(translation, name: str) -> tuple[int, int]:
    """Run the call sequence through an interpreting and a replaying module; (recorded, replayed)."""
    plain, cached = Launches(), Launches()
    reference = FastModule(Interpreter(translation, plain, "cpu"), capacity=0)
    module = FastModule(Interpreter(translation, cached, "cpu"))
    kept = []                       # every call's inputs stay alive: a stale pointer cannot hit a new tensor
    params = translation.functions[name].params
    for step in range(len(SHAPES)):
        args = arguments(params, step)
        kept.append(args)
        want, _ = outcome(reference, plain, name, args)
        got, _ = outcome(module, cached, name, args)
        assert got == want, (name, step)
        assert (module._calls.interpreter.last_error, module._calls.interpreter.attributes) == (
            reference._calls.interpreter.last_error, reference._calls.interpreter.attributes)
    return module._calls.recorded, module._calls.replayed


def corpus_translations() -> list:
    found = []
    for directory in ("tests/kb_llm", "tests/kb_heldout", "examples/eval"):
        for path in sorted((ROOT / directory).rglob("*.py")):
            if path.name == "reference.py":
                continue
            try:
                builds = read_builds(load_candidate(path).source) or []
            except Exception:       # not a KernelBench candidate (a C task's file, a helper)
                continue
            for spec in builds:
                try:
                    found.append((f"{path.relative_to(ROOT)}", translate(spec)))
                except Fallback:
                    pass
    return found


def hand_written_wrappers() -> list:
    """Every CUDA source string in test_fastpath.py's plan tests that translates."""
    module = load_script(ROOT / "tests/test_fastpath.py")
    sources = {v for v in vars(module).values() if isinstance(v, str) and "__global__" in v}
    for fn in vars(module).values():
        if isinstance(fn, types.FunctionType):
            sources |= {c for c in fn.__code__.co_consts if isinstance(c, str) and "__global__" in c}
    found = []
    for cuda in sorted(sources):
        host = list(split(HEAD + cuda, "").host)
        try:
            found.append((cuda[:40], translate(spec(cuda, host))))
        except Fallback:
            pass
    return found


def test_replay_matches_the_interpreter_on_every_translated_wrapper():
    translations = corpus_translations() + hand_written_wrappers() + [(n, translate(spec(c, f))) for n, c, f in OWN]
    assert len(translations) >= 80, len(translations)
    recorded = replayed = 0
    for _label, translation in translations:
        for name in translation.functions:
            r, p = compare(translation, name)
            recorded, replayed = recorded + r, replayed + p
    assert replayed > 3 * len(translations) and recorded > len(translations), (recorded, replayed)


# ------------------------------------------------------------------ targeted wrappers

def spec(cuda: str, functions: list[str]) -> dict:
    return {"name": "t", "cpp_sources": declarations(cuda, functions), "cuda_sources": HEAD + cuda,
            "functions": functions}


SCALE_ADD = """
__global__ void scale_add_kernel(const float* a, const float* b, float* out, float alpha, int64_t n) {}
torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    auto out = torch::empty_like(a);
    int64_t n = a.numel();
    int blocks = (int)((n + 255) / 256);
    scale_add_kernel<<<blocks, 256>>>(a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(),
                                      (float)alpha, n);
    return out;
}
"""
CHECKED = """
__global__ void k(const float* x, float* y, int n, int rows) {}
__global__ void tail(float* y, int n) {}
torch::Tensor f(torch::Tensor x, int64_t block) {
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(block > 0, "block must be positive, got ", block);
    auto y = torch::zeros_like(x);
    const int rows = x.size(0);
    const int n = x.numel() / rows;
    for (int r = 0; r < rows; ++r)
        k<<<(n + block - 1) / block, block>>>(x.data_ptr<float>() + r * n, y.data_ptr<float>() + r * n, n, r);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "launch failed: ", cudaGetErrorString(err));
    tail<<<1, 32>>>(y.data_ptr<float>(), n);
    return y;
}
"""
VIEWS = """
__global__ void k(const float* x, float* y, int n) {}
std::vector<torch::Tensor> f(torch::Tensor x, std::vector<int64_t> shape) {
    auto xc = x.contiguous();
    auto v = xc.view(shape);
    auto t = v.transpose(0, 1).contiguous();
    auto out = torch::empty({t.size(0), t.size(1)}, t.options());
    k<<<1, 64, 0, at::cuda::getCurrentCUDAStream()>>>(t.data_ptr<float>(), out.data_ptr<float>(), t.numel());
    cudaDeviceSynchronize();
    return {out, xc};
}
"""
SMEM = """
__global__ void k(float* y) {}
torch::Tensor f(torch::Tensor x, int64_t kb) {
    size_t smem = kb * 1024;
    if (kb > 60) cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    k<<<1, 32, smem>>>(x.data_ptr<float>());
    return x;
}
"""
LAST_ERROR = """
__global__ void k(float* y) {}
torch::Tensor f(torch::Tensor x, int64_t threads) {
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "an earlier launch failed");
    k<<<1, threads>>>(x.data_ptr<float>());
    return x;
}
"""
OWN = [("scale_add", SCALE_ADD, ["scale_add"]), ("checked", CHECKED, ["f"]), ("views", VIEWS, ["f"]),
       ("smem", SMEM, ["f"]), ("last_error", LAST_ERROR, ["f"])]


def module_of(cuda: str, functions: list[str], capacity: int = 64) -> tuple[FastModule, Launches]:
    launches = Launches()
    return FastModule(Interpreter(translate(spec(cuda, functions)), launches, "cpu"), capacity), launches


def test_new_inputs_pointers_are_used_not_the_recorded_calls():
    module, launches = module_of(SCALE_ADD, ["scale_add"])
    first = [torch.randn(1000), torch.randn(1000)]
    module.scale_add(*first, 0.5)
    for _ in range(3):
        a, b = torch.randn(1000), torch.randn(1000)      # `first` is still alive: its addresses stay taken
        launches.calls.clear()
        out = module.scale_add(a, b, 0.5)
        (_, grid, _, _, _, args), = launches.calls
        assert [v for _, v in args[:3]] == [a.data_ptr(), b.data_ptr(), out.data_ptr()]
        assert out is not first[0] and grid == (4, 1, 1)
    assert (module._calls.recorded, module._calls.replayed) == (1, 3)


def test_a_changed_signature_records_again():
    module, _ = module_of(SCALE_ADD, ["scale_add"])
    base = torch.randn(64)
    calls = [(torch.randn(64), 0.5), (torch.randn(64), 0.5), (torch.randn(65), 0.5), (torch.randn(64), -0.5),
             (torch.randn(64), 0.0), (torch.randn(64), -0.0), (torch.randn(64, dtype=torch.float64), 0.5),
             (torch.randn(70)[6:], 0.5), (torch.randn(8, 8).t(), 0.5), (torch.randn(64), 0.5)]
    for x, alpha in calls:
        try:
            module.scale_add(x, base, alpha)
        except PlanError:
            pass
    # new: 64/0.5, 65, -0.5, 0.0, -0.0, float64, storage offset 6, transposed 8x8; replayed: the two repeats
    assert (module._calls.recorded, module._calls.replayed) == (8, 2)


def test_checks_and_launches_are_never_skipped_on_replay():
    """Hostile angle: a recorded passing call cannot make a later call skip a TORCH_CHECK or a launch."""
    module, launches = module_of(CHECKED, ["f"])
    x = torch.randn(3, 100)
    module.f(x, 64)
    for bad, message in ((torch.randn(100, 3).t(), "x must be contiguous"), (torch.randn(3, 100).double(),
                         "x must be float32")):
        with pytest.raises(PlanError, match=message):
            module.f(bad, 64)
    with pytest.raises(PlanError, match="block must be positive, got -1"):
        module.f(x, -1)
    launches.calls.clear()
    module.f(torch.randn(5, 100), 64)                    # more rows: more launches, never the recorded three
    assert [c[0] for c in launches.calls] == ["k"] * 5 + ["tail"]
    launches.calls.clear()
    with pytest.raises(PlanError, match="launch failed: invalid configuration"):
        module.f(x, 2048)                                # the k launches fail; tail must not run
    with pytest.raises(PlanError, match="launch failed: invalid configuration"):
        module.f(x, 2048)                                # replayed: the same error, still no launch
    assert launches.calls == [] and module._calls.replayed >= 1


def test_the_last_error_a_call_leaves_is_part_of_the_next_calls_signature():
    module, _ = module_of(LAST_ERROR, ["f"])
    x = torch.randn(4)
    module.f(x, 32)
    module.f(x, 32)                                      # replayed
    module.f(x, 2048)                                    # invalid: leaves the error set
    with pytest.raises(PlanError, match="an earlier launch failed"):
        module.f(x, 32)                                  # same arguments as the replayed call, other state
    module.f(x, 32)
    assert module._calls.recorded == 3


def test_calls_that_depend_on_more_than_the_signature_are_interpreted_every_time():
    compared = """
__global__ void k(float* y) {}
torch::Tensor f(torch::Tensor a, torch::Tensor b) {
    if (a.data_ptr<float>() == b.data_ptr<float>()) return a;
    k<<<1, 1>>>(a.data_ptr<float>());
    return b;
}
"""
    module, _ = module_of(compared, ["f"])
    x, y = torch.randn(4), torch.randn(4)
    for _ in range(3):
        assert module.f(x, y) is y
        assert module.f(x, x) is x
    assert module._calls.recorded == 0

    for reading in ("(reinterpret_cast<uintptr_t>(a.data_ptr<float>()) >> 4) % 2",   # more than the low bits
                    "reinterpret_cast<uintptr_t>(a.data_ptr<float>()) % 1024",       # beyond the allocator's 512
                    "reinterpret_cast<uintptr_t>(a.data_ptr<float>()) % 48",         # not a power of two
                    "reinterpret_cast<uintptr_t>(a.data_ptr<float>()) & 0xF0",       # not a low-bit mask
                    "reinterpret_cast<uintptr_t>(a.data_ptr<float>()) > 4096",
                    "(int)reinterpret_cast<uintptr_t>(a.data_ptr<float>()) % 16"):   # signed 32 bits: sign bit read
        module, _ = module_of(ALIGNED.replace("ALIGNMENT_TEST", reading), ["f"])
        for _ in range(3):
            module.f(torch.randn(4))
        assert module._calls.recorded == 0, reading      # an address read as an integer: interpreted each time

    class Traced(torch.Tensor):
        pass

    module, _ = module_of(SCALE_ADD, ["scale_add"])
    sub = torch.randn(8).as_subclass(Traced)
    for _ in range(3):
        module.scale_add(sub, torch.randn(8), 0.5)
    assert module._calls.recorded == 0                    # a subclass may answer shape queries as it likes
    same = torch.randn(8)
    module.scale_add(same, same, 0.5)                    # an input passed twice
    assert module._calls.recorded == 0


ALIGNED = """
__global__ void k(const float* x, float* y, int vec) {}
__global__ void k4(const float4* x, float4* y) {}
inline bool aligned16(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }
torch::Tensor f(torch::Tensor a) {
    auto x = a.contiguous();
    auto y = torch::empty_like(x);
    int vec = (ALIGNMENT_TEST) ? 1 : 0;
    if (vec && aligned16(y.data_ptr<float>()) && x.numel() % 4 == 0)
        k4<<<1, 32>>>(reinterpret_cast<const float4*>(x.data_ptr<float>()),
                      reinterpret_cast<float4*>(y.data_ptr<float>()));
    else
        k<<<1, 32>>>(x.data_ptr<float>(), y.data_ptr<float>(), vec);
    return y;
}
"""


@pytest.mark.parametrize("test", ["reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0",
                                  "((uintptr_t)x.data_ptr<float>() & 15) == 0",
                                  "((reinterpret_cast<uintptr_t>(x.data_ptr<float>()) | (uintptr_t)a.data_ptr<float>())"
                                  " % 16) == 0"])
def test_alignment_tests_replay_and_take_the_branch_the_new_pointers_take(test):
    """The vectorised kernels models write test their pointers' alignment: replayed (issue 27's float4
    candidates were interpreted on every timed call, ~0.8 ms of host time each) with the same launches
    as the interpreter, for aligned inputs and for an offset view (another signature, other branch)."""
    cuda = ALIGNED.replace("ALIGNMENT_TEST", test)
    reference, plain = module_of(cuda, ["f"], capacity=0)
    module, cached = module_of(cuda, ["f"])
    kept = []
    for x in [torch.randn(64), torch.randn(64), torch.randn(65)[1:], torch.randn(64), torch.randn(66)[1:],
              torch.randn(65)[1:]]:
        kept.append(x)
        assert outcome(module, cached, "f", [x])[0] == outcome(reference, plain, "f", [x])[0]
    assert [c[0] for c in plain.calls] == ["k"]          # the last call: an offset of 4 bytes, the scalar kernel
    assert (module._calls.recorded, module._calls.replayed) == (3, 3)


def test_a_replay_whose_alignment_guard_fails_goes_to_the_full_build():
    """Same signature (shape, strides, storage offset 0), another remainder: a tensor over memory torch's
    allocator did not place.  The replay must not launch the recorded float4 kernel on it."""
    test = "reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0"
    module, launches = module_of(ALIGNED.replace("ALIGNMENT_TEST", test), ["f"])
    module.f(torch.randn(64))
    module.f(torch.randn(64))
    assert module._calls.replayed == 1 and launches.calls[-1][0] == "k4"
    raw = bytearray(64 * 4 + 16)
    shift = (4 - torch.frombuffer(raw, dtype=torch.uint8).data_ptr()) % 16      # 4 bytes past a 16-byte line
    x = torch.frombuffer(raw, dtype=torch.float32, offset=shift, count=64)
    assert x.storage_offset() == 0 and x.data_ptr() % 16 == 4
    launches.calls.clear()
    with pytest.raises(Unsupported, match="16-byte alignment"):
        module.f(x)
    assert launches.calls == []


def test_scalars_key_on_the_converted_value():
    class Drifting:
        """An argument whose value changes each time pybind11 would read it."""

        def __init__(self):
            self.n = 0

        def __index__(self):
            self.n += 32
            return self.n

    module, launches = module_of(LAST_ERROR, ["f"])
    x, drifting = torch.randn(4), Drifting()
    blocks = []
    for _ in range(4):
        launches.calls.clear()
        module.f(x, drifting)
        blocks.append(launches.calls[0][2][0])
    assert blocks == [32, 64, 96, 128]


def test_the_cache_is_bounded():
    module, _ = module_of(SCALE_ADD, ["scale_add"], capacity=4)
    for n in range(1, 11):
        module.scale_add(torch.randn(n), torch.randn(n), 0.5)
    assert len(module._calls.cache["scale_add"]) == 4 and module._calls.recorded == 10


def test_arguments_read_straight_off_python_replay_only_what_converts_the_same():
    """The quick signature (no conversion on a hit) keys a scalar by its Python type and exact value:
    an int and a float, -0.0 and 0.0, are different calls; a numpy scalar or a bool for a double takes
    the converting way and still matches the interpreter; a call pybind11 would refuse is refused on
    every call, never replayed."""
    np = pytest.importorskip("numpy")
    (spec,) = read_builds(load_candidate(ROOT / "examples/eval/scale_add/candidate_kernelbench.py").source)
    translation = translate(spec)
    plain, cached = Launches(), Launches()
    reference = FastModule(Interpreter(translation, plain, "cpu"), capacity=0)
    module = FastModule(Interpreter(translation, cached, "cpu"))
    a, b = torch.randn(64), torch.randn(64)
    scalars = [0.5, 0.5, 2, 2, -0.0, 0.0, -0.0, np.float64(0.5), np.float64(0.5), True, "0.5", "0.5"]
    for alpha in scalars:
        want, _ = outcome(reference, plain, "scale_add", [a, b, alpha])
        got, _ = outcome(module, cached, "scale_add", [a, b, alpha])
        assert got == want, alpha
    calls = module._calls
    quick = [k for k in calls.cache["scale_add"] if k[0] == "quick"]
    assert len(quick) == 4                   # 0.5, 2, -0.0, 0.0: each a signature of its own
    assert calls.replayed == 4               # the second 0.5, 2, -0.0 and np.float64(0.5)
    assert outcome(module, cached, "scale_add", [a, b, "0.5"])[0][0] == "raised"
