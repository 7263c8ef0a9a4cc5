#include <algorithm>
#include <vector>

#include "caffe_lite/layers.cuh"

namespace caffe {

__device__ __forceinline__ float wrp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

__device__ __forceinline__ float wrp_max(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
}

// Reduces across the block; `scratch` must hold 32 floats.  All threads get the result.
__device__ __forceinline__ float blk_sum(float v, float* scratch) {
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    v = wrp_sum(v);
    __syncthreads();
    if (lane == 0) scratch[wid] = v;
    __syncthreads();
    const int nwarps = (blockDim.x + 31) >> 5;
    v = (threadIdx.x < nwarps) ? scratch[lane] : 0.f;
    if (wid == 0) v = wrp_sum(v);
    if (threadIdx.x == 0) scratch[0] = v;
    __syncthreads();
    return scratch[0];
}

__device__ __forceinline__ float blk_max(float v, float* scratch) {
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    v = wrp_max(v);
    __syncthreads();
    if (lane == 0) scratch[wid] = v;
    __syncthreads();
    const int nwarps = (blockDim.x + 31) >> 5;
    v = (threadIdx.x < nwarps) ? scratch[lane] : -3.402823466e+38f;
    if (wid == 0) v = wrp_max(v);
    if (threadIdx.x == 0) scratch[0] = v;
    __syncthreads();
    return scratch[0];
}

template <typename Dtype>
__global__ void kernel_channel_max(const Dtype* in, int64_t* out, int rows, int cols) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float best = static_cast<float>(in[r * cols]);
    int64_t arg = 0;
    for (int c = 1; c < cols; ++c) {
        const float v = static_cast<float>(in[r * cols + c]);
        if (v > best) {
            best = v;
            arg = c;
        }
    }
    out[r] = arg;
}

template <typename Dtype>
__global__ void kernel_channel_subtract(const int n, const Dtype* a, const Dtype* row, Dtype* out, int cols) {
    CUDA_KERNEL_LOOP(index, n) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(row[index % cols]);
        out[index] = static_cast<Dtype>(x - y);
    }
}

template <typename Dtype>
__global__ void kernel_exp(
    const int n,
    const Dtype* input,
    Dtype* output) {
    CUDA_KERNEL_LOOP(index, n) {
        const float v = static_cast<float>(input[index]);
        output[index] = static_cast<Dtype>(expf(v));
    }
}

template <typename Dtype>
__global__ void kernel_channel_sum(
    const Dtype* in,
    Dtype* out,
    int rows,
    int cols) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float acc = 0.f;
    for (int c = 0; c < cols; ++c) {
        acc += static_cast<float>(in[r * cols + c]);
        out[r * cols + c] = static_cast<Dtype>(acc);
    }
}

template <typename Dtype>
__global__ void kernel_channel_div(
    const int n,
    const Dtype* a,
    const Dtype* row,
    Dtype* out,
    int cols) {
    CUDA_KERNEL_LOOP(index, n) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(row[index % cols]);
        out[index] = static_cast<Dtype>(x / y);
    }
}

template <typename Dtype>
__global__ void kernel_channel_dot(
    const Dtype* grad_output,
    const Dtype* output,
    Dtype* grad_input,
    int rows,
    int cols) {
    const int row = blockIdx.x;
    if (row >= rows) return;
    const size_t base = static_cast<size_t>(row) * cols;
    __shared__ float scratch[32];
    float dot = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        dot += static_cast<float>(grad_output[base + c]) * static_cast<float>(output[base + c]);
    }
    dot = blk_sum(dot, scratch);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        const float o = static_cast<float>(output[base + c]);
        grad_input[base + c] = static_cast<Dtype>(o * (static_cast<float>(grad_output[base + c]) - dot));
    }
}

template <typename Dtype>
void SoftmaxLayer<Dtype>::Forward_gpu(const vector<Blob<Dtype>*>& bottom,
    const vector<Blob<Dtype>*>& top) {
  const Dtype* bottom_data = bottom[0]->gpu_data();
  Dtype* top_data = top[0]->mutable_gpu_data();
  const int count = bottom[0]->count();
  // NOLINT_NEXT_LINE(whitespace/operators)
  kernel_channel_max<Dtype><<<CAFFE_GET_BLOCKS(bottom[0]->shape(0)), CAFFE_CUDA_NUM_THREADS>>>(
      bottom_data, this->aux_int64_.mutable_gpu_data(), bottom[0]->shape(0), bottom[0]->shape(1));
  // NOLINT_NEXT_LINE(whitespace/operators)
  kernel_channel_subtract<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, bottom_data, top_data, bottom[0]->shape(1));
  // NOLINT_NEXT_LINE(whitespace/operators)
  kernel_exp<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, top_data);
  // NOLINT_NEXT_LINE(whitespace/operators)
  kernel_channel_sum<Dtype><<<CAFFE_GET_BLOCKS(bottom[0]->shape(0)), CAFFE_CUDA_NUM_THREADS>>>(
      bottom_data, top_data, bottom[0]->shape(0), bottom[0]->shape(1));
  // NOLINT_NEXT_LINE(whitespace/operators)
  kernel_channel_div<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, bottom_data, top_data, bottom[0]->shape(1));
  CUDA_POST_KERNEL_CHECK;
}

template <typename Dtype>
void SoftmaxLayer<Dtype>::Backward_gpu(const vector<Blob<Dtype>*>& top,
    const vector<bool>& propagate_down,
    const vector<Blob<Dtype>*>& bottom) {
  if (!propagate_down[0]) {
    return;
  }
  const Dtype* top_diff = top[0]->gpu_diff();
  const Dtype* bottom_data = bottom[0]->gpu_data();
  Dtype* bottom_diff = bottom[0]->mutable_gpu_diff();
  const int count = bottom[0]->count();
  // NOLINT_NEXT_LINE(whitespace/operators)
  kernel_channel_dot<Dtype><<<CAFFE_GET_BLOCKS(bottom[0]->shape(0)), CAFFE_CUDA_NUM_THREADS>>>(
      top_diff, bottom_data, bottom_diff, bottom[0]->shape(0), bottom[0]->shape(1));
  CUDA_POST_KERNEL_CHECK;
}

INSTANTIATE_LAYER_GPU_FUNCS(SoftmaxLayer);

}  // namespace caffe
