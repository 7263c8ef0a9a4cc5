// expect: no-cuda-kernel
// No __global__ function.
/* cudaperf:launch
{"inputs": ["a", "b"], "init": ["alpha"], "outputs": [{"name": "out", "like": "a"}],
 "launches": [{"kernel": "scale_add", "grid": "cdiv(a.numel, 256)", "block": 256, "smem": 0,
               "args": ["a", "b", "out", "float32(alpha)", "a.numel"]}]}
*/
__device__ float f(float x) { return x; }
