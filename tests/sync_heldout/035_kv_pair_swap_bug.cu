// launch: grid=100 block=64
// dynamic shared memory: 64 * sizeof(KV) = 512 bytes
struct KV {
    int key;
    float val;
};

__global__ void pair_min(const KV* in, KV* out)
{
    extern __shared__ KV kv[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    kv[t] = in[i];
    KV o = kv[t ^ 1];
    KV mine = kv[t];
    out[i] = (o.key < mine.key) ? o : mine;
}
