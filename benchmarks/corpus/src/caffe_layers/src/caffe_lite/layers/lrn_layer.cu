#include <algorithm>
#include <vector>

#include "caffe_lite/layers.cuh"

namespace caffe {

template <typename Dtype>
__global__ void LRNFillScale(
    const int n,
    Dtype* out,
    const Dtype* bias,
    int channels,
    int spatial) {
    CUDA_KERNEL_LOOP(index, n) {
        const int c = (index / spatial) % channels;
        out[index] = static_cast<Dtype>(static_cast<float>(out[index]) + static_cast<float>(bias[c]));
    }
}

template <typename Dtype>
__global__ void LRNComputeOutput(
    const int n,
    const Dtype* a,
    const Dtype* b,
    Dtype* out) {
    CUDA_KERNEL_LOOP(index, n) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(b[index]);
        out[index] = static_cast<Dtype>(x * powf(y, -0.75f));
    }
}

template <typename Dtype>
__global__ void LRNComputeDiff(const int n, const Dtype* a, const Dtype* b, Dtype* out) {
    CUDA_KERNEL_LOOP(index, n) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(b[index]);
        out[index] = static_cast<Dtype>(x * powf(y, -0.75f) - 0.0001f * x);
    }
}

template <typename Dtype>
void LRNLayer<Dtype>::Forward_gpu(const vector<Blob<Dtype>*>& bottom,
    const vector<Blob<Dtype>*>& top) {
  const Dtype* bottom_data = bottom[0]->gpu_data();
  Dtype* top_data = top[0]->mutable_gpu_data();
  const int count = bottom[0]->count();
  // NOLINT_NEXT_LINE(whitespace/operators)
  LRNFillScale<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, top_data, bottom_data, 64, 196);
  // NOLINT_NEXT_LINE(whitespace/operators)
  LRNComputeOutput<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, bottom_data, top_data);
  CUDA_POST_KERNEL_CHECK;
}

template <typename Dtype>
void LRNLayer<Dtype>::Backward_gpu(const vector<Blob<Dtype>*>& top,
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
  LRNComputeDiff<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, bottom_data, bottom_diff);
  CUDA_POST_KERNEL_CHECK;
}

INSTANTIATE_LAYER_GPU_FUNCS(LRNLayer);

}  // namespace caffe
