// launch: grid=64 block=32x4
struct Particle { float x, y, z; int id; };

__global__ void mirror(const Particle* in, Particle* out) {
    __shared__ Particle s[4][32];
    int lane = threadIdx.x;
    int row = threadIdx.y;
    int g = (blockIdx.x * 4 + row) * 32 + lane;
    s[row][lane] = in[g];
    __syncwarp();
    Particle p = s[row][31 - lane];
    p.id = in[g].id;
    out[g] = p;
}
