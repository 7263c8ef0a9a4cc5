#include <algorithm>
#include <vector>

#include "caffe_lite/layers.cuh"

namespace caffe {

template <typename Dtype>
__global__ void PReLUForward(const int n, Dtype* out, const Dtype* bias, int channels, int spatial) {
    CUDA_KERNEL_LOOP(index, n) {
        const int c = (index / spatial) % channels;
        out[index] = static_cast<Dtype>(static_cast<float>(out[index]) + static_cast<float>(bias[c]));
    }
}

template <typename Dtype>
__global__ void PReLUBackward(const int n, const Dtype* grad_output, const Dtype* self, Dtype* grad_input) {
    CUDA_KERNEL_LOOP(index, n) {
        const float g = static_cast<float>(grad_output[index]);
        const float v = static_cast<float>(self[index]);
        grad_input[index] = static_cast<Dtype>(v > 0.f ? g : 0.01f * g);
    }
}

template <typename Dtype>
__global__ void PReLUParamBackward(
    const int n,
    const Dtype* a,
    const Dtype* b,
    Dtype* out) {
    CUDA_KERNEL_LOOP(index, n) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(b[index]);
        out[index] = static_cast<Dtype>(x * y);
    }
}

template <typename Dtype>
void PReLULayer<Dtype>::Forward_gpu(const vector<Blob<Dtype>*>& bottom,
    const vector<Blob<Dtype>*>& top) {
  const Dtype* bottom_data = bottom[0]->gpu_data();
  Dtype* top_data = top[0]->mutable_gpu_data();
  const int count = bottom[0]->count();
  // NOLINT_NEXT_LINE(whitespace/operators)
  PReLUForward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, top_data, bottom_data, 64, 196);
  CUDA_POST_KERNEL_CHECK;
}

template <typename Dtype>
void PReLULayer<Dtype>::Backward_gpu(const vector<Blob<Dtype>*>& top,
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
  PReLUBackward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, top_diff, bottom_data, bottom_diff);
  // NOLINT_NEXT_LINE(whitespace/operators)
  PReLUParamBackward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, bottom_data, bottom_diff);
  CUDA_POST_KERNEL_CHECK;
}

INSTANTIATE_LAYER_GPU_FUNCS(PReLULayer);

}  // namespace caffe
