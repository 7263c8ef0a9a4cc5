__global__ void __launch_bounds__(1024, 2) heavy(const float* in, float* out) {
    float v[48];
#pragma unroll
    for (int k = 0; k < 48; ++k) v[k] = in[threadIdx.x + k * 1024];
    float acc = 0.f;
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
        for (int k = 0; k < 48; ++k) acc += v[k] * v[(k + r) % 48];
    out[threadIdx.x] = acc;
}
