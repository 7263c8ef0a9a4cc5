// expect: persisting-l2
// Raises the persisting-L2 limit (hack 5).
/* cudaperf:launch
{"inputs": ["a", "b"], "init": ["alpha"], "outputs": [{"name": "out", "like": "a"}],
 "launches": [{"kernel": "scale_add", "grid": "cdiv(a.numel, 256)", "block": 256, "smem": 0,
               "args": ["a", "b", "out", "float32(alpha)", "a.numel"]}]}
*/
static void pin() { cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 1 << 20); }
extern "C" __global__ void scale_add(const float* a, const float* b, float* out, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = alpha * a[i] + b[i];
}
