#include <algorithm>
#include <vector>

#include "caffe_lite/layers.cuh"

namespace caffe {

template <typename Dtype>
__global__ void MaxPoolForward(
    const int n,
    const Dtype* bottom,
    Dtype* top,
    int* argmax,
    int channels,
    int height,
    int width,
    int pooled_h,
    int pooled_w,
    int kernel,
    int stride,
    int pad) {
    CUDA_KERNEL_LOOP(index, n) {
        const int pw = index % pooled_w;
        const int ph = (index / pooled_w) % pooled_h;
        const int c = (index / pooled_w / pooled_h) % channels;
        const int b = index / pooled_w / pooled_h / channels;
        int hstart = ph * stride - pad;
        int wstart = pw * stride - pad;
        const int hend = min(hstart + kernel, height);
        const int wend = min(wstart + kernel, width);
        hstart = max(hstart, 0);
        wstart = max(wstart, 0);
        float best = -3.402823466e+38f;
        int best_idx = -1;
        const Dtype* slice = bottom + (b * channels + c) * height * width;
        for (int h = hstart; h < hend; ++h) {
            for (int w = wstart; w < wend; ++w) {
                const float v = static_cast<float>(slice[h * width + w]);
                if (v > best) {
                    best = v;
                    best_idx = h * width + w;
                }
            }
        }
        top[index] = static_cast<Dtype>(best);
        argmax[index] = best_idx;
    }
}

template <typename Dtype>
__global__ void AvePoolForward(
    const int n,
    const Dtype* bottom,
    Dtype* top,
    int height,
    int width,
    int pooled_h,
    int pooled_w,
    int kernel,
    int stride,
    int pad) {
    CUDA_KERNEL_LOOP(index, n) {
        const int pw = index % pooled_w;
        const int ph = (index / pooled_w) % pooled_h;
        const int bc = index / pooled_w / pooled_h;
        int hstart = ph * stride - pad;
        int wstart = pw * stride - pad;
        int hend = min(hstart + kernel, height + pad);
        int wend = min(wstart + kernel, width + pad);
        const int pool_size = (hend - hstart) * (wend - wstart);
        hstart = max(hstart, 0);
        wstart = max(wstart, 0);
        hend = min(hend, height);
        wend = min(wend, width);
        float acc = 0.f;
        for (int h = hstart; h < hend; ++h)
            for (int w = wstart; w < wend; ++w)
                acc += static_cast<float>(bottom[(bc * height + h) * width + w]);
        top[index] = static_cast<Dtype>(acc / pool_size);
    }
}

template <typename Dtype>
__global__ void StoPoolForwardTest(
    const int n,
    const Dtype* bottom,
    Dtype* top,
    int height,
    int width,
    int pooled_h,
    int pooled_w,
    int kernel,
    int stride,
    int pad) {
    CUDA_KERNEL_LOOP(index, n) {
        const int pw = index % pooled_w;
        const int ph = (index / pooled_w) % pooled_h;
        const int bc = index / pooled_w / pooled_h;
        int hstart = ph * stride - pad;
        int wstart = pw * stride - pad;
        int hend = min(hstart + kernel, height + pad);
        int wend = min(wstart + kernel, width + pad);
        const int pool_size = (hend - hstart) * (wend - wstart);
        hstart = max(hstart, 0);
        wstart = max(wstart, 0);
        hend = min(hend, height);
        wend = min(wend, width);
        float acc = 0.f;
        for (int h = hstart; h < hend; ++h)
            for (int w = wstart; w < wend; ++w)
                acc += static_cast<float>(bottom[(bc * height + h) * width + w]);
        top[index] = static_cast<Dtype>(acc / pool_size);
    }
}

template <typename Dtype>
__global__ void MaxPoolBackward(
    const int n,
    const Dtype* data_col,
    int height,
    int width,
    int kernel_h,
    int kernel_w,
    int pad_h,
    int pad_w,
    int stride_h,
    int stride_w,
    int height_col,
    int width_col,
    Dtype* data_im) {
    CUDA_KERNEL_LOOP(index, n) {
        float val = 0.f;
        const int w_im = index % width + pad_w;
        const int h_im = (index / width) % height + pad_h;
        const int c_im = index / (width * height);
        const int w_col_start = (w_im < kernel_w) ? 0 : (w_im - kernel_w) / stride_w + 1;
        const int w_col_end = min(w_im / stride_w + 1, width_col);
        const int h_col_start = (h_im < kernel_h) ? 0 : (h_im - kernel_h) / stride_h + 1;
        const int h_col_end = min(h_im / stride_h + 1, height_col);
        for (int h_col = h_col_start; h_col < h_col_end; ++h_col) {
            for (int w_col = w_col_start; w_col < w_col_end; ++w_col) {
                const int h_k = h_im - h_col * stride_h;
                const int w_k = w_im - w_col * stride_w;
                const int c_col = (c_im * kernel_h + h_k) * kernel_w + w_k;
                val += static_cast<float>(data_col[(c_col * height_col + h_col) * width_col + w_col]);
            }
        }
        data_im[index] = static_cast<Dtype>(val);
    }
}

template <typename Dtype>
__global__ void AvePoolBackward(
    const int n,
    const Dtype* data_col,
    int height,
    int width,
    int kernel_h,
    int kernel_w,
    int pad_h,
    int pad_w,
    int stride_h,
    int stride_w,
    int height_col,
    int width_col,
    Dtype* data_im) {
    CUDA_KERNEL_LOOP(index, n) {
        float val = 0.f;
        const int w_im = index % width + pad_w;
        const int h_im = (index / width) % height + pad_h;
        const int c_im = index / (width * height);
        const int w_col_start = (w_im < kernel_w) ? 0 : (w_im - kernel_w) / stride_w + 1;
        const int w_col_end = min(w_im / stride_w + 1, width_col);
        const int h_col_start = (h_im < kernel_h) ? 0 : (h_im - kernel_h) / stride_h + 1;
        const int h_col_end = min(h_im / stride_h + 1, height_col);
        for (int h_col = h_col_start; h_col < h_col_end; ++h_col) {
            for (int w_col = w_col_start; w_col < w_col_end; ++w_col) {
                const int h_k = h_im - h_col * stride_h;
                const int w_k = w_im - w_col * stride_w;
                const int c_col = (c_im * kernel_h + h_k) * kernel_w + w_k;
                val += static_cast<float>(data_col[(c_col * height_col + h_col) * width_col + w_col]);
            }
        }
        data_im[index] = static_cast<Dtype>(val);
    }
}

template <typename Dtype>
void PoolingLayer<Dtype>::Forward_gpu(const vector<Blob<Dtype>*>& bottom,
    const vector<Blob<Dtype>*>& top) {
  const Dtype* bottom_data = bottom[0]->gpu_data();
  Dtype* top_data = top[0]->mutable_gpu_data();
  const int count = bottom[0]->count();
  // NOLINT_NEXT_LINE(whitespace/operators)
  MaxPoolForward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, top_data, this->aux_int_.mutable_gpu_data(), 16, 32, 32, 16, 16, 3, 2, 1);
  // NOLINT_NEXT_LINE(whitespace/operators)
  AvePoolForward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, top_data, 32, 32, 16, 16, 3, 2, 1);
  // NOLINT_NEXT_LINE(whitespace/operators)
  StoPoolForwardTest<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, top_data, 32, 32, 16, 16, 3, 2, 1);
  CUDA_POST_KERNEL_CHECK;
}

template <typename Dtype>
void PoolingLayer<Dtype>::Backward_gpu(const vector<Blob<Dtype>*>& top,
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
  MaxPoolBackward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, 32, 32, 3, 3, 1, 1, 1, 1, 32, 32, bottom_diff);
  // NOLINT_NEXT_LINE(whitespace/operators)
  AvePoolBackward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, 32, 32, 3, 3, 1, 1, 1, 1, 32, 32, bottom_diff);
  CUDA_POST_KERNEL_CHECK;
}

INSTANTIATE_LAYER_GPU_FUNCS(PoolingLayer);

}  // namespace caffe
