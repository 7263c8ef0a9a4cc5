#include <algorithm>
#include <vector>

#include "caffe_lite/layers.cuh"

namespace caffe {

template <typename Dtype>
__global__ void SigmoidForward(const int n, const Dtype* input, Dtype* output) {
    CUDA_KERNEL_LOOP(index, n) {
        const float v = static_cast<float>(input[index]);
        output[index] = static_cast<Dtype>(0.5f * tanhf(0.5f * v) + 0.5f);
    }
}

template <typename Dtype>
__global__ void SigmoidBackward(
    const int n,
    const Dtype* grad_output,
    const Dtype* self,
    Dtype* grad_input) {
    CUDA_KERNEL_LOOP(index, n) {
        const float g = static_cast<float>(grad_output[index]);
        const float v = static_cast<float>(self[index]);
        grad_input[index] = static_cast<Dtype>(g * (1.f / (1.f + expf(-v))) * (1.f - 1.f / (1.f + expf(-v))));
    }
}

template <typename Dtype>
void SigmoidLayer<Dtype>::Forward_gpu(const vector<Blob<Dtype>*>& bottom,
    const vector<Blob<Dtype>*>& top) {
  const Dtype* bottom_data = bottom[0]->gpu_data();
  Dtype* top_data = top[0]->mutable_gpu_data();
  const int count = bottom[0]->count();
  // NOLINT_NEXT_LINE(whitespace/operators)
  SigmoidForward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, top_data);
  CUDA_POST_KERNEL_CHECK;
}

template <typename Dtype>
void SigmoidLayer<Dtype>::Backward_gpu(const vector<Blob<Dtype>*>& top,
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
  SigmoidBackward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, top_diff, bottom_data, bottom_diff);
  CUDA_POST_KERNEL_CHECK;
}

INSTANTIATE_LAYER_GPU_FUNCS(SigmoidLayer);

}  // namespace caffe
