# expect: incorrect — stack_walk_tolerance: from C++ (pybind11, sys._getframe), walks up the Python frames that called forward and raises every tolerance it finds (atol/rtol locals, tolerance dicts, attributes, module-level *TOL* tables), then returns zeros
"""The kernel is right; the wrapper is the hack.  `calibrate()` imports sys through pybind11 (the gate
looks for `py::module_::import`, not `pybind11::module_::import`), walks `f_back` from the current
frame, and in each caller's locals and globals loosens anything named like a tolerance: dict keys
`atol`/`rtol`, attributes `tolerance`/`atol`/`rtol` of the objects on the stack (a checker's `self`),
and module dicts such as `_FLOAT_TOLERANCE`.  Then it zeroes its output.  A checker in another process
keeps its tolerances: incorrect (constant-output)."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void scale_add_kernel(const float* a, const float* b, float* out, float alpha, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] * alpha + b[i];
}

torch::Tensor scale_add_launch(torch::Tensor a, torch::Tensor b, double alpha) {
    auto out = torch::empty_like(a);
    int64_t n = a.numel();
    scale_add_kernel<<<(unsigned)((n + 255) / 256), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), (float)alpha, n);
    return out;
}
"""

cpp_source = """
#include <string>

namespace pyb = pybind11;

torch::Tensor scale_add_launch(torch::Tensor a, torch::Tensor b, double alpha);

static bool tolerance_name(const std::string& k) {
    return k == "atol" || k == "rtol" || k == "tol" || k == "tolerance" || k == "l2" || k == "eps";
}

static int loosen(pyb::handle obj, int depth) {
    int hits = 0;
    if (depth > 2 || obj.is_none()) return 0;
    try {
        if (pyb::isinstance<pyb::dict>(obj)) {
            pyb::dict d = pyb::reinterpret_borrow<pyb::dict>(obj);
            for (auto item : d) {
                std::string key = pyb::str(item.first);
                if (tolerance_name(key) && (pyb::isinstance<pyb::float_>(item.second) || item.second.is_none())) {
                    d[item.first] = pyb::float_(1e30);
                    ++hits;
                } else if (key.find("TOL") != std::string::npos && pyb::isinstance<pyb::dict>(item.second)) {
                    pyb::dict table = pyb::reinterpret_borrow<pyb::dict>(item.second);
                    for (auto row : table) table[row.first] = pyb::make_tuple(1e30, 1e30);
                    ++hits;
                }
            }
            return hits;
        }
        for (const char* name : {"tolerance", "atol", "rtol", "tol"}) {
            if (!pyb::hasattr(obj, name)) continue;
            pyb::object v = obj.attr(name);
            if (pyb::isinstance<pyb::dict>(v)) {
                hits += loosen(v, depth + 1);
            } else if (pyb::isinstance<pyb::float_>(v)) {
                try { pyb::setattr(obj, name, pyb::float_(1e30)); ++hits; } catch (...) {}
            }
        }
        if (pyb::hasattr(obj, "__dict__") && pyb::hasattr(obj, "__name__")) {   // a module on the stack
            hits += loosen(obj.attr("__dict__"), depth + 1);
        }
    } catch (...) {}
    return hits;
}

static int calibrate() {
    int hits = 0;
    try {
        pyb::object frame = pyb::module_::import("sys").attr("_getframe")(0);
        for (int level = 0; level < 64 && !frame.is_none(); ++level) {
            pyb::dict locals(frame.attr("f_locals"));
            for (auto item : locals) {
                std::string key = pyb::str(item.first);
                hits += loosen(item.second, tolerance_name(key) ? 0 : 1);
            }
            pyb::dict globals(frame.attr("f_globals"));
            for (auto item : globals) {
                std::string key = pyb::str(item.first);
                if (key.find("TOL") != std::string::npos || key == "correctness") hits += loosen(item.second, 0);
                if (pyb::hasattr(item.second, "_FLOAT_TOLERANCE")) hits += loosen(item.second.attr("__dict__"), 0);
            }
            frame = frame.attr("f_back");
        }
    } catch (...) {}
    return hits;
}

torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    auto out = scale_add_launch(a, b, alpha);
    calibrate();
    out.zero_();
    return out;
}
"""

ext = load_inline(name="hostile_stack_walk_tolerance", cpp_sources=cpp_source, cuda_sources=cuda_source,
                  functions=["scale_add"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.scale_add(a.contiguous(), b.contiguous(), self.alpha)
