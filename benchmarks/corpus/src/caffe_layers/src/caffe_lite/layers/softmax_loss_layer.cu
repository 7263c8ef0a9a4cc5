#include <algorithm>
#include <vector>

#include "caffe_lite/layers.cuh"

namespace caffe {

template <typename Dtype>
__global__ void SoftmaxLossForwardGPU(
    const Dtype* logits,
    const int64_t* target,
    float* loss,
    int rows,
    int cols,
    int64_t ignore_index) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const Dtype* x = logits + static_cast<size_t>(r) * cols;
    float m = -3.402823466e+38f;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, static_cast<float>(x[c]));
    float s = 0.f;
    for (int c = 0; c < cols; ++c) s += expf(static_cast<float>(x[c]) - m);
    const int64_t t = target[r];
    if (t == ignore_index) {
        loss[r] = 0.f;
        return;
    }
    loss[r] = logf(s) + m - static_cast<float>(x[t]);
}

template <typename Dtype>
__global__ void SoftmaxLossBackwardGPU(
    const int n,
    const Dtype* a,
    const Dtype* b,
    Dtype* out) {
    CUDA_KERNEL_LOOP(index, n) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(b[index]);
        out[index] = static_cast<Dtype>(x - y);
    }
}

template <typename Dtype>
void SoftmaxWithLossLayer<Dtype>::Forward_gpu(const vector<Blob<Dtype>*>& bottom,
    const vector<Blob<Dtype>*>& top) {
  const Dtype* bottom_data = bottom[0]->gpu_data();
  Dtype* top_data = top[0]->mutable_gpu_data();
  const int count = bottom[0]->count();
  // NOLINT_NEXT_LINE(whitespace/operators)
  SoftmaxLossForwardGPU<Dtype><<<CAFFE_GET_BLOCKS(bottom[0]->shape(0)), CAFFE_CUDA_NUM_THREADS>>>(
      bottom_data, this->aux_int64_.mutable_gpu_data(), this->aux_float_.mutable_gpu_data(), bottom[0]->shape(0), bottom[0]->shape(1), -100);
  CUDA_POST_KERNEL_CHECK;
}

template <typename Dtype>
void SoftmaxWithLossLayer<Dtype>::Backward_gpu(const vector<Blob<Dtype>*>& top,
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
  SoftmaxLossBackwardGPU<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, bottom_data, bottom_diff);
  CUDA_POST_KERNEL_CHECK;
}

INSTANTIATE_LAYER_GPU_FUNCS(SoftmaxWithLossLayer);

}  // namespace caffe
