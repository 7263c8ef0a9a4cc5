# expect: pass
"""The extension is built by a helper function; forward reshapes to 1-D and back."""
import torch
import torch.nn as nn
import torch.utils.cpp_extension


def _build_extension():
    cuda_source = """
    #include <torch/extension.h>
    #include <cuda_runtime.h>

    __global__ void gelu_scale_1d(const float* __restrict__ x, float* __restrict__ y, const float s, const int n) {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
            const float v = x[i];
            y[i] = s * 0.5f * v * (1.0f + erff(v * 0.70710678f));  // exact GELU, not the tanh form
        }
    }

    torch::Tensor gelu_scale_1d_launch(torch::Tensor x, double s) {
        auto y = torch::empty({x.size(0)}, x.options());
        const int n = static_cast<int>(x.size(0));
        gelu_scale_1d<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), (float)s, n);
        return y;
    }
    """
    return torch.utils.cpp_extension.load_inline(
        name="gelu_scale_1d",
        cpp_sources="torch::Tensor gelu_scale_1d_launch(torch::Tensor x, double s);",
        cuda_sources=cuda_source,
        functions=["gelu_scale_1d_launch"],
        extra_cuda_cflags=["-O3", "-lineinfo"],
    )


gelu_ext = _build_extension()


class ModelNew(nn.Module):
    def __init__(self, scale_factor):
        super(ModelNew, self).__init__()
        self.scale_factor = scale_factor

    def forward(self, x):
        shape = x.shape
        y = gelu_ext.gelu_scale_1d_launch(x.reshape(-1), self.scale_factor)
        return y.view(shape)
