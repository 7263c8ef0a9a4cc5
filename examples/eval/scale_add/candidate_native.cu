// Candidate (native format): extern "C" kernels plus a launch spec, compiled with NVRTC.
/* cudaperf:launch
{
  "inputs": ["a", "b"],
  "init": ["alpha"],
  "outputs": [{"name": "out", "like": "a"}],
  "launches": [{"kernel": "scale_add", "grid": "cdiv(a.numel, 4 * 256)", "block": 256,
                "args": ["a", "b", "out", "float32(alpha)", "a.numel"]}]
}
*/
extern "C" __global__ void scale_add(const float4* a, const float4* b, float4* out, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;       // one float4 per thread; n is a multiple of 4
    if (4 * i < n) {
        float4 x = a[i], y = b[i];
        out[i] = make_float4(alpha * x.x + y.x, alpha * x.y + y.y, alpha * x.z + y.z, alpha * x.w + y.w);
    }
}
