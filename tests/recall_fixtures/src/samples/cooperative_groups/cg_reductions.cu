/* Sample code written for a CUDA tutorial collection.
 * Provided as-is, without warranty of any kind. */

#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

// Sum within a tile by explicit shuffles; works for any power-of-two tile size.
template <int TileSize>
__device__ float tile_sum(cg::thread_block_tile<TileSize> tile, float v)
{
    for (int offset = tile.size() / 2; offset > 0; offset /= 2) {
        v += tile.shfl_down(v, offset);
    }
    return v;
}

template <int TileSize>
__global__ void sum_with_tiles(const float *in, float *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<TileSize> tile = cg::tiled_partition<TileSize>(block);
    float v = 0.0f;
    for (int i = block.group_index().x * block.size() + block.thread_rank(); i < n; i += block.size() * gridDim.x) {
        v += in[i];
    }
    v = tile_sum<TileSize>(tile, v);
    if (tile.thread_rank() == 0) {
        atomicAdd(out, v);
    }
}

// Same thing with the library collective.
__global__ void sum_with_cg_reduce(const float *in, float *out, int n)
{
    auto block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        v += in[i];
    }
    v = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0) {
        atomicAdd(out, v);
    }
}

// One pass over the grid, then a grid-wide barrier, then the final reduction by block 0.
// Must be launched with cudaLaunchCooperativeKernel.
__global__ void grid_sync_reduce(const float *in, float *partial, float *out, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    extern __shared__ float smem[];
    float v = 0.0f;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
        v += in[i];
    }
    smem[block.thread_rank()] = v;
    block.sync();
    for (unsigned s = block.size() / 2; s > 0; s >>= 1) {
        if (block.thread_rank() < s) {
            smem[block.thread_rank()] += smem[block.thread_rank() + s];
        }
        block.sync();
    }
    if (block.thread_rank() == 0) {
        partial[blockIdx.x] = smem[0];
    }
    grid.sync();
    if (blockIdx.x == 0) {
        float total = 0.0f;
        for (unsigned b = block.thread_rank(); b < gridDim.x; b += block.size()) {
            total += partial[b];
        }
        total = cg::reduce(cg::tiled_partition<32>(block), total, cg::plus<float>());
        if (block.thread_rank() % 32 == 0) {
            atomicAdd(out, total);
        }
    }
}

// Warp-aggregated atomic increment: only the leader of the active threads touches memory.
__device__ int atomic_agg_inc(int *counter)
{
    cg::coalesced_group active = cg::coalesced_threads();
    int prev;
    if (active.thread_rank() == 0) {
        prev = atomicAdd(counter, active.size());
    }
    prev = active.thread_rank() + active.shfl(prev, 0);
    return prev;
}

__global__ void filter_positive(int *dst, int *nres, const int *src, int n)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n && src[i] > 0) {
        dst[atomic_agg_inc(nres)] = src[i];
    }
}

// Partition a warp by a key and reduce within each partition.
__global__ void segmented_by_label(const int *labels, const float *vals, float *sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    cg::coalesced_group same = cg::labeled_partition(cg::coalesced_threads(), labels[i]);
    float s = cg::reduce(same, vals[i], cg::plus<float>());
    if (same.thread_rank() == 0) {
        atomicAdd(&sums[labels[i]], s);
    }
    (void)warp;
}

// Inclusive scan of one tile with the library primitive.
template <unsigned Tile>
__global__ void tile_scan(const int *in, int *out)
{
    auto tile = cg::tiled_partition<Tile>(cg::this_thread_block());
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = cg::inclusive_scan(tile, in[i]);
}

__global__ void block_info(int *info)
{
    cg::thread_block b = cg::this_thread_block();
    if (b.thread_rank() == 0) {
        info[3 * blockIdx.x + 0] = b.size();
        info[3 * blockIdx.x + 1] = b.group_dim().x;
        info[3 * blockIdx.x + 2] = b.num_threads();
    }
}

int main()
{
    const int n = 1 << 22;
    float *d_in, *d_out, *d_partial;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, sizeof(float));
    cudaMalloc(&d_partial, 1024 * sizeof(float));
    sum_with_tiles<16><<<256, 256>>>(d_in, d_out, n);
    sum_with_tiles<32><<<256, 256>>>(d_in, d_out, n);
    sum_with_cg_reduce<<<256, 256>>>(d_in, d_out, n);
    int dev = 0, sms = 0, per_sm = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_sync_reduce, 256, 256 * sizeof(float));
    int nn = n;
    void *args[] = {&d_in, &d_partial, &d_out, &nn};
    cudaLaunchCooperativeKernel((void *)grid_sync_reduce, sms * per_sm, 256, args, 256 * sizeof(float), 0);
    int *d_i;
    cudaMalloc(&d_i, 4096 * sizeof(int));
    tile_scan<8><<<4, 64>>>(d_i, d_i + 1024);
    block_info<<<4, 128>>>(d_i);
    cudaDeviceSynchronize();
    printf("done\n");
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_partial);
    cudaFree(d_i);
    return 0;
}
