// expect: launch-spec
// No launch spec anywhere.
extern "C" __global__ void scale_add(const float* a, const float* b, float* out, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = alpha * a[i] + b[i];
}
