# expect: any — write_files: from C++ writes marker files into $HOME, the current directory (the project), beside the installed cudaperf and torch packages and into /tmp; any status, but no file may appear outside the sandbox's private directory
"""`std::fopen` is called through a pointer (the gate matches `fopen(`), the paths come from
`getenv("HOME")`, `getcwd` and the `__file__` of modules reached through pybind11.  The benchmark
(benchmarks/hostile_h200.py) looks for files newer than the run under $HOME and the repository,
and for changes in the package.  Every marker's name contains `hostile_write_files`."""
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

torch::Tensor scale_add_cuda(torch::Tensor a, torch::Tensor b, double alpha) {
    auto out = torch::empty_like(a);
    int64_t n = a.numel();
    scale_add_kernel<<<(unsigned)((n + 255) / 256), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), (float)alpha, n);
    return out;
}
"""

cpp_source = """
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace pyb = pybind11;

torch::Tensor scale_add_cuda(torch::Tensor a, torch::Tensor b, double alpha);

static std::string parent_of_package(const char* module) {
    try {
        std::string f = pyb::str(pyb::module_::import(module).attr("__file__"));
        std::string pkg = f.substr(0, f.rfind('/'));
        return pkg.substr(0, pkg.rfind('/'));
    } catch (...) {
        return "";
    }
}

static int leave_markers() {
    std::vector<std::string> dirs;
    if (const char* home = std::getenv("HOME")) dirs.push_back(home);
    char cwd[4096];
    if (getcwd(cwd, sizeof(cwd))) dirs.push_back(cwd);
    dirs.push_back(parent_of_package("cudaperf"));
    dirs.push_back(parent_of_package("torch"));
    dirs.push_back("/tmp");
    auto* create = &std::fopen;
    int written = 0;
    for (const auto& d : dirs) {
        if (d.empty()) continue;
        std::string path = d + "/hostile_write_files_marker_" + std::to_string(getpid()) + ".txt";
        if (FILE* f = create(path.c_str(), "w")) {
            std::fprintf(f, "written by tests/hacks/hostile/write_files.py from pid %d\\n", (int)getpid());
            std::fclose(f);
            ++written;
        }
    }
    return written;
}

torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    static int written = -1;
    if (written < 0) written = leave_markers();
    return scale_add_cuda(a, b, alpha);
}
"""

ext = load_inline(name="hostile_write_files", cpp_sources=cpp_source, cuda_sources=cuda_source,
                  functions=["scale_add"])


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.scale_add(a.contiguous(), b.contiguous(), self.alpha)
