// row_copy.cuh — copies a stack of rows between buffers of different row lengths, for launchers
// that need every row of a matrix on a 16-byte boundary (TMA's tensor maps, the FP32 rungs' 128-bit
// loads) when K or N is not a multiple of the vector width: they copy A or B into a padded scratch
// buffer, run the kernel there, and copy C's first N columns back. The copies are part of the
// launch and of its time. A template in a header, so that each library compiles it for its own
// architectures.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

namespace ts::kernels {

// For each of `rows` rows: dst's first `cols` elements are src's, and dst's elements from `cols`
// to `dst_cols` are zeros (the padding, which a kernel may read: it adds nothing to a product).
// A block walks rows; its threads walk the row's columns, so a warp reads and writes consecutive
// elements and the index arithmetic per element is an add.
template <typename T>
__global__ void copy_rows_kernel(T* dst, std::int64_t dst_stride, const T* src, std::int64_t src_stride,
                                 std::int64_t rows, std::int64_t cols, std::int64_t dst_cols) {
    for (std::int64_t row = blockIdx.y; row < rows; row += gridDim.y) {
        T* out = dst + row * dst_stride;
        const T* in = src + row * src_stride;
        for (std::int64_t col = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; col < dst_cols;
             col += std::int64_t{gridDim.x} * blockDim.x)
            out[col] = col < cols ? in[col] : T{};
    }
}

template <typename T>
cudaError_t copy_rows(T* dst, std::int64_t dst_stride, const T* src, std::int64_t src_stride, std::int64_t rows,
                      std::int64_t cols, std::int64_t dst_cols, cudaStream_t stream) {
    constexpr int kThreads = 256;
    if (rows <= 0 || dst_cols <= 0) return cudaSuccess;
    const dim3 grid(static_cast<unsigned>(std::min<std::int64_t>((dst_cols + kThreads - 1) / kThreads, 16)),
                    static_cast<unsigned>(std::min<std::int64_t>(rows, 8192)));
    copy_rows_kernel<T><<<grid, kThreads, 0, stream>>>(dst, dst_stride, src, src_stride, rows, cols, dst_cols);
    return cudaGetLastError();
}

// x rounded up to a multiple of `multiple`.
inline std::int64_t round_up(std::int64_t x, std::int64_t multiple) { return (x + multiple - 1) / multiple * multiple; }

}  // namespace ts::kernels
