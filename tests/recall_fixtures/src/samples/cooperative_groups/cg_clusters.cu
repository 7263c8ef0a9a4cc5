/* Sample code written for a CUDA tutorial collection.
 * Provided as-is, without warranty of any kind. */

// Thread block clusters (compute capability 9.0): distributed shared memory and
// cluster-wide barriers.
#include <cstdio>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// Histogram whose bins are spread over the shared memory of all blocks in the cluster.
__global__ void __cluster_dims__(2, 1, 1)
cluster_histogram(int *bins, const int *input, int n, int nbins, int bins_per_block)
{
    extern __shared__ int smem[];
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) {
        smem[i] = 0;
    }
    cluster.sync();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int b = input[i];
        b = b < 0 ? 0 : (b >= nbins ? nbins - 1 : b);
        const int owner = b / bins_per_block;
        int *dst = cluster.map_shared_rank(smem, owner);
        atomicAdd(dst + b % bins_per_block, 1);
    }
    cluster.sync();
    int *out = bins + blockIdx.x / cluster.num_blocks() * nbins + rank * bins_per_block;
    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) {
        atomicAdd(&out[i], smem[i]);
    }
}

// Neighbour exchange: every block reads the first element of the next block's shared array.
__global__ void __cluster_dims__(4, 1, 1) ring_exchange(float *out)
{
    __shared__ float mine[128];
    auto cluster = cg::this_cluster();
    mine[threadIdx.x] = blockIdx.x * 1000.0f + threadIdx.x;
    cluster.sync();
    const unsigned next = (cluster.block_rank() + 1) % cluster.num_blocks();
    float *theirs = cluster.map_shared_rank(mine, next);
    out[blockIdx.x * blockDim.x + threadIdx.x] = theirs[threadIdx.x];
    cluster.sync();
}

// Cluster size chosen at launch time (no compile-time attribute).
__global__ void cluster_sum_runtime(const float *in, float *out)
{
    __shared__ float acc;
    auto cluster = cg::this_cluster();
    if (threadIdx.x == 0) {
        acc = 0.0f;
    }
    cluster.sync();
    float *leader = cluster.map_shared_rank(&acc, 0);
    atomicAdd(leader, in[blockIdx.x * blockDim.x + threadIdx.x]);
    cluster.sync();
    if (cluster.block_rank() == 0 && threadIdx.x == 0) {
        out[blockIdx.x / cluster.num_blocks()] = acc;
    }
}

__global__ void __launch_bounds__(128, 1) __cluster_dims__(2, 1, 1) cluster_ids(int *ids)
{
    cg::cluster_group c = cg::this_cluster();
    if (threadIdx.x == 0) {
        ids[2 * blockIdx.x] = c.block_rank();
        ids[2 * blockIdx.x + 1] = c.num_blocks();
    }
}

int main()
{
    int *d_bins, *d_in, *d_ids;
    float *d_f, *d_o;
    cudaMalloc(&d_bins, 1024 * sizeof(int));
    cudaMalloc(&d_in, 1 << 20);
    cudaMalloc(&d_ids, 1024 * sizeof(int));
    cudaMalloc(&d_f, 1 << 20);
    cudaMalloc(&d_o, 1 << 20);
    cluster_histogram<<<16, 256, 128 * sizeof(int)>>>(d_bins, d_in, 1 << 18, 256, 128);
    ring_exchange<<<8, 128>>>(d_f);
    cluster_ids<<<8, 128>>>(d_ids);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(16);
    cfg.blockDim = dim3(128);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = 4;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    cudaLaunchKernelEx(&cfg, cluster_sum_runtime, (const float *)d_f, d_o);
    cudaDeviceSynchronize();
    cudaFree(d_bins);
    cudaFree(d_in);
    cudaFree(d_ids);
    cudaFree(d_f);
    cudaFree(d_o);
    return 0;
}
