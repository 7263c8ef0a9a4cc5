# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_kernel = """
#include <torch/extension.h>

__global__ void rowwise_fused(const float* x, const float* w, float* out, int in_f, int hid, float factor) {
    // block = one batch row; each warp handles hidden units, lanes split the dot product
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
    const float* xr = x + (size_t)blockIdx.x * in_f;
    float total = 0.f;
    for (int j = warp; j < hid; j += warps) {
        const float* wr = w + (size_t)j * in_f;
        float d = 0.f;
        for (int k = lane; k < in_f; k += 32) d += xr[k] * wr[k];
        for (int o = 16; o; o >>= 1) d += __shfl_xor_sync(0xffffffff, d, o);
        total += d;
    }
    __shared__ float per_warp[32];
    if (lane == 0) per_warp[warp] = total;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.f;
        for (int i = 0; i < warps; ++i) s += per_warp[i];
        out[blockIdx.x] = s * factor;
    }
}

torch::Tensor rowwise(torch::Tensor x, torch::Tensor w, double scale) {
    auto out = torch::empty({x.size(0), 1}, x.options());
    rowwise_fused<<<x.size(0), 512>>>(x.data_ptr<float>(), w.data_ptr<float>(), out.data_ptr<float>(), x.size(1),
                                      w.size(0), (float)(scale / 2.0));
    return out;
}
"""

rowwise_ext = load_inline(name="rowwise_fused", cpp_sources="torch::Tensor rowwise(torch::Tensor x, torch::Tensor w, "
                                                            "double scale);",
                          cuda_sources=cuda_kernel, functions=["rowwise"])


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, scaling_factor):
        super(ModelNew, self).__init__()
        self.weight = nn.Parameter(torch.randn(hidden_size, input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        return rowwise_ext.rowwise(x.contiguous(), self.weight, self.scaling_factor)


batch_size = 256
input_size = 2048
hidden_size = 2048
scaling_factor = 1.5


def get_inputs():
    return [torch.randn(batch_size, input_size).cuda()]


def get_init_inputs():
    return [input_size, hidden_size, scaling_factor]


if __name__ == "__main__":
    # quick self-test against the PyTorch formula
    model = ModelNew(*get_init_inputs()).cuda()
    x = get_inputs()[0]
    expected = torch.sum(torch.matmul(x, model.weight.T) / 2, dim=1, keepdim=True) * scaling_factor
    print("max abs diff:", (model(x) - expected).abs().max().item())
