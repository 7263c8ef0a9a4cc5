/* Sample code written for a CUDA tutorial collection.
 * Provided as-is, without warranty of any kind. */

// Texture and surface objects, managed memory and a captured CUDA graph.
#include <cstdio>
#include <cuda_runtime.h>

__managed__ int g_iterations = 0;
__device__ float g_scale = 1.0f;
__constant__ float c_weights[9];

__global__ void tex_sample_bilinear(cudaTextureObject_t tex, float *out, int w, int h, float zoom)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        out[y * w + x] = tex2D<float>(tex, (x + 0.5f) / zoom, (y + 0.5f) / zoom) * g_scale;
}

__global__ void tex_fetch_1d(cudaTextureObject_t tex, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(tex, i);
}

__global__ void surf_write_grad(cudaSurfaceObject_t surf, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        surf2Dwrite(float(x + y), surf, x * (int)sizeof(float), y);
}

__global__ void tex_convolve3x3(cudaTextureObject_t tex, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float s = 0.0f;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            s += c_weights[(dy + 1) * 3 + dx + 1] * tex2D<float>(tex, x + dx + 0.5f, y + dy + 0.5f);
    out[y * w + x] = s;
}

__global__ void managed_counter(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] += 1;
    if (i == 0)
        atomicAdd(&g_iterations, 1);
}

__global__ void graph_step_a(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * 0.5f + 1.0f;
}

__global__ void graph_step_b(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += x[i];
}

int main()
{
    const int w = 512, h = 512, n = w * h;
    cudaArray_t arr;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaMallocArray(&arr, &desc, w, h, cudaArraySurfaceLoadStore);
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = cudaAddressModeClamp;
    td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex = 0;
    cudaCreateTextureObject(&tex, &res, &td, nullptr);
    cudaSurfaceObject_t surf = 0;
    cudaCreateSurfaceObject(&surf, &res);
    float *out;
    cudaMalloc(&out, n * sizeof(float));
    dim3 block(16, 16), grid(w / 16, h / 16);
    surf_write_grad<<<grid, block>>>(surf, w, h);
    tex_sample_bilinear<<<grid, block>>>(tex, out, w, h, 2.0f);
    tex_convolve3x3<<<grid, block>>>(tex, out, w, h);
    int *m;
    cudaMallocManaged(&m, n * sizeof(int));
    managed_counter<<<n / 256, 256>>>(m, n);
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    graph_step_a<<<n / 256, 256, 0, s>>>(out, n);
    graph_step_b<<<n / 256, 256, 0, s>>>(out, out, n);
    cudaStreamEndCapture(s, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    for (int k = 0; k < 10; ++k)
        cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    printf("iterations: %d\n", g_iterations);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(s);
    cudaDestroyTextureObject(tex);
    cudaDestroySurfaceObject(surf);
    cudaFreeArray(arr);
    cudaFree(out);
    cudaFree(m);
    return 0;
}
