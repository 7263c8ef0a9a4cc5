// Candidate (C-to-CUDA): the names in the launch spec are the harness's argument names.
/* cudaperf:launch
{"launches": [{"kernel": "saxpy", "grid": "cdiv(n, 256)", "block": 256, "args": ["n", "a", "x", "y"]}]}
*/
extern "C" __global__ void saxpy(int n, float a, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
