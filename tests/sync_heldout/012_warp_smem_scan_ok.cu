// launch: grid=64 block=128
#define WARPS 4

__global__ void warp_scan(const int* in, int* out)
{
    __shared__ int s[WARPS * 32];
    int tid = threadIdx.x;
    int lane = tid & 31;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = in[i];
    __syncwarp();
    for (int off = 1; off < 32; off <<= 1) {
        int v = (lane >= off) ? s[tid - off] : 0;
        __syncwarp();
        s[tid] += v;
        __syncwarp();
    }
    out[i] = s[tid];
}
