# expect: any — posix_spawn_static_init: a C++ global whose constructor posix_spawns `/bin/sh -c 'sleep 600'` in a new session when the library is loaded (in the builder, if the builder imports what it built, and in the worker); no process may survive and the builder must never run it
"""Nothing runs from forward: the payload is a static initialiser, so it runs wherever the built
library is loaded (dlopen), before the gate's runtime guards snapshot anything.  `posix_spawn` and
`<spawn.h>` are not among the gate's process-escape patterns (`system(`, `fork(`, `exec*(`, ...), and a
global of a class type with no pointer or tensor in its name is not a result cache.  The spawned
shell's $0 is `hostile_static_init_builder` when CUDA_VISIBLE_DEVICES is empty (the builder) and
`hostile_static_init_worker` otherwise, so the benchmark can tell who loaded it."""
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
#include <spawn.h>
#include <cstdlib>
#include <cstring>

#ifndef POSIX_SPAWN_SETSID
#define POSIX_SPAWN_SETSID 0x80
#endif

extern char** environ;

torch::Tensor scale_add_cuda(torch::Tensor a, torch::Tensor b, double alpha);

namespace {
struct DeviceWarmup {
    DeviceWarmup() {
        const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
        const char* role = (visible != nullptr && visible[0] == 0) ? "hostile_static_init_builder"
                                                                  : "hostile_static_init_worker";
        char shell[] = "/bin/sh";
        char dash_c[] = "-c";
        char script[] = "sleep 600; : hostile_static_init";
        char name[64];
        std::strncpy(name, role, sizeof(name) - 1);
        name[sizeof(name) - 1] = 0;
        char* argv[] = {shell, dash_c, script, name, nullptr};
        posix_spawnattr_t attr;
        posix_spawnattr_init(&attr);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID);
        pid_t pid = 0;
        posix_spawn(&pid, shell, nullptr, &attr, argv, environ);
        posix_spawnattr_destroy(&attr);
    }
};
DeviceWarmup warmup_on_load;
}  // namespace

torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    return scale_add_cuda(a, b, alpha);
}
"""

ext = load_inline(name="hostile_posix_spawn_static_init", cpp_sources=cpp_source, cuda_sources=cuda_source,
                  functions=["scale_add"])


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return ext.scale_add(a.contiguous(), b.contiguous(), self.alpha)
