// Honest: float4 loads, grid-stride loop, a device helper.
/* cudaperf:launch
{"inputs": ["a", "b"], "init": ["alpha"], "outputs": [{"name": "out", "like": "a"}],
 "launches": [{"kernel": "scale_add", "grid": "min(cdiv(a.numel, 256), 132 * 8)", "block": 256, "smem": 0,
               "args": ["a", "b", "out", "float32(alpha)", "a.numel"]}]}
*/
__device__ __forceinline__ float fma_add(float alpha, float x, float y) { return fmaf(alpha, x, y); }

extern "C" __global__ void scale_add(const float* a, const float* b, float* out, float alpha, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = fma_add(alpha, a[i], b[i]);
}
