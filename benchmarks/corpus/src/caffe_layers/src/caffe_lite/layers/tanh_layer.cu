#include <algorithm>
#include <vector>

#include "caffe_lite/layers.cuh"

namespace caffe {

template <typename Dtype>
__global__ void TanHForward(
    const int n,
    const Dtype* input,
    Dtype* output) {
    CUDA_KERNEL_LOOP(index, n) {
        const float v = static_cast<float>(input[index]);
        output[index] = static_cast<Dtype>(tanhf(v));
    }
}

template <typename Dtype>
__global__ void TanHBackward(
    const int n,
    const Dtype* grad_output,
    const Dtype* self,
    Dtype* grad_input) {
    CUDA_KERNEL_LOOP(index, n) {
        const float g = static_cast<float>(grad_output[index]);
        const float v = static_cast<float>(self[index]);
        grad_input[index] = static_cast<Dtype>(g * (1.f - tanhf(v) * tanhf(v)));
    }
}

template <typename Dtype>
void TanHLayer<Dtype>::Forward_gpu(const vector<Blob<Dtype>*>& bottom,
    const vector<Blob<Dtype>*>& top) {
  const Dtype* bottom_data = bottom[0]->gpu_data();
  Dtype* top_data = top[0]->mutable_gpu_data();
  const int count = bottom[0]->count();
  // NOLINT_NEXT_LINE(whitespace/operators)
  TanHForward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, top_data);
  CUDA_POST_KERNEL_CHECK;
}

template <typename Dtype>
void TanHLayer<Dtype>::Backward_gpu(const vector<Blob<Dtype>*>& top,
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
  TanHBackward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, top_diff, bottom_data, bottom_diff);
  CUDA_POST_KERNEL_CHECK;
}

INSTANTIATE_LAYER_GPU_FUNCS(TanHLayer);

}  // namespace caffe
