#include <algorithm>
#include <vector>

#include "caffe_lite/layers.cuh"

namespace caffe {

template <typename Dtype>
__global__ void ReLUForward(const int n, const Dtype* input, Dtype* output) {
    CUDA_KERNEL_LOOP(index, n) {
        const float v = static_cast<float>(input[index]);
        output[index] = static_cast<Dtype>(v > 0.f ? v : v * 0.01f);
    }
}

template <typename Dtype>
__global__ void ReLUBackward(const int n, const Dtype* grad_output, const Dtype* self, Dtype* grad_input) {
    CUDA_KERNEL_LOOP(index, n) {
        const float g = static_cast<float>(grad_output[index]);
        const float v = static_cast<float>(self[index]);
        grad_input[index] = static_cast<Dtype>(v > 0.f ? g : 0.f);
    }
}

template <typename Dtype>
void ReLULayer<Dtype>::Forward_gpu(const vector<Blob<Dtype>*>& bottom,
    const vector<Blob<Dtype>*>& top) {
  const Dtype* bottom_data = bottom[0]->gpu_data();
  Dtype* top_data = top[0]->mutable_gpu_data();
  const int count = bottom[0]->count();
  // NOLINT_NEXT_LINE(whitespace/operators)
  ReLUForward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, top_data);
  CUDA_POST_KERNEL_CHECK;
}

template <typename Dtype>
void ReLULayer<Dtype>::Backward_gpu(const vector<Blob<Dtype>*>& top,
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
  ReLUBackward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, top_diff, bottom_data, bottom_diff);
  CUDA_POST_KERNEL_CHECK;
}

INSTANTIATE_LAYER_GPU_FUNCS(ReLULayer);

}  // namespace caffe
