#ifndef _KMEANS_KERNELS_CU_
#define _KMEANS_KERNELS_CU_

#define ASSIGN_THREADS 256
#define MAX_CLUSTERS 32
#define MAX_FEATURES 64

__constant__ float c_centroids[MAX_CLUSTERS * MAX_FEATURES];

/* features arrive point-major; the assignment kernel wants them feature-major */
__global__ void transpose_features(const float *in, float *out, int npoints, int nfeatures)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	int f;
	if (p < npoints) {
		for (f = 0; f < nfeatures; f++)
			out[f * npoints + p] = in[p * nfeatures + f];
	}
}

__global__ void
assign_clusters(const float *features, int *membership, int *changed, int npoints, int nclusters, int nfeatures)
{
	const int p = blockIdx.x * ASSIGN_THREADS + threadIdx.x;
	__shared__ int block_changes;
	if (threadIdx.x == 0)
		block_changes = 0;
	__syncthreads();
	if (p < npoints) {
		float best = 3.0e38f;
		int best_c = 0, c, f;
		for (c = 0; c < nclusters; c++) {
			float d = 0.0f;
			for (f = 0; f < nfeatures; f++) {
				float diff = features[f * npoints + p] - c_centroids[c * nfeatures + f];
				d += diff * diff;
			}
			if (d < best) {
				best = d;
				best_c = c;
			}
		}
		if (membership[p] != best_c) {
			atomicAdd(&block_changes, 1);
			membership[p] = best_c;
		}
	}
	__syncthreads();
	if (threadIdx.x == 0 && block_changes)
		atomicAdd(changed, block_changes);
}

#endif
