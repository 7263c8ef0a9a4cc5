// expect-status: runtime_error
// Writes far outside its output: a sticky CUDA error.
/* cudaperf:launch
{"inputs": ["a", "b"], "init": ["alpha"], "outputs": [{"name": "out", "like": "a"}],
 "launches": [{"kernel": "scale_add", "grid": "cdiv(a.numel, 256)", "block": 256, "smem": 0,
               "args": ["a", "b", "out", "float32(alpha)", "a.numel"]}]}
*/
extern "C" __global__ void scale_add(const float* a, const float* b, float* out, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i + (1LL << 36)] = alpha * a[i] + b[i];
}
