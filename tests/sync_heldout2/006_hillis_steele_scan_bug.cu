// launch: grid=1 block=256
__global__ void scan256(const int* in, int* out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int off = 1; off < 256; off <<= 1) {
        int v = 0;
        if (t >= off) v = s[t - off];
        s[t] += v;
        __syncthreads();
    }
    out[t] = s[t];
}
