// launch: grid=16 block=128
#define WARPS 4
#define SLICE 32

__global__ void warp_diff(const float* in, float* out) {
    __shared__ float s[WARPS * 33];
    int lane = threadIdx.x & 31;
    int w = threadIdx.x >> 5;
    float* slice = s + w * SLICE;
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    slice[lane] = in[g];
    if (lane == 0)
        slice[32] = in[g + 32];
    __syncwarp();
    out[g] = slice[lane + 1] - slice[lane];
}
