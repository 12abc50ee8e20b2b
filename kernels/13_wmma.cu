// Teaches: a tensor core multiplies whole tiles, and a warp does it together. One
// wmma::mma_sync call multiplies a 16×16 tile of A by a 16×16 tile of B into a 16×16 tile of C
// (4,096 multiply-adds); all 32 lanes of the warp take part, each holding a share of every
// fragment that CUDA does not tell you (the fragment is opaque). Here a warp owns a 64×32 tile
// of C as 4×2 such fragments.
// Changed from 12_tuned.cu: BF16 or FP16 inputs with FP32 accumulation, and the inner loop is no
// longer FMAs on registers but wmma::load_matrix_sync from shared memory and wmma::mma_sync. The
// block is 8 warps over a 128×128 tile of C, K in steps of 32 through shared memory, as 05–10
// staged it; the copies use cp.async (16 bytes each) where rows start on 16 bytes.
// What it leaves on the table: every K step waits for its copy (one stage), and the fragment
// loads read shared memory rows 80 bytes apart, which the padding keeps nearly conflict-free but
// the API does not let you check. 14 takes the instructions underneath in hand.
#include <mma.h>

#include "kernels/common/tc_common.cuh"
#include "model/tensor_core/mma.hpp"

namespace ts::kernels {

namespace {

using namespace nvcuda;

// The model's shape for this rung (model::kWmmaShape: 128×128×32, 8 warps of 64×32).
constexpr model::MmaShape kShape = model::kWmmaShape;
constexpr int kThreads = kShape.threads();
// Rows padded by 8 elements (16 bytes; the model's pad): wmma wants a leading dimension that is a
// multiple of 8 elements, and without the pad the rows of a 32-wide tile, 64 bytes apart, would
// start in the same banks two by two.
constexpr int kALd = kShape.a_tile().row_elements;
constexpr int kBLd = kShape.b_tile().row_elements;
constexpr int kFragM = kShape.wm / 16, kFragN = kShape.wn / 16;

template <typename T, bool Aligned, bool Batched>
__global__ void __launch_bounds__(kThreads) wmma_kernel(const T* a, const T* b, T* c, int m, int n, int k) {
#if TS_TENSOR_CORE_SM80
    __shared__ alignas(128) T as[kShape.bm * kALd];
    __shared__ alignas(128) T bs[kShape.bk * kBLd];
    // The epilogue's staging: one 16×16 FP32 tile per warp, to turn an opaque fragment into cells.
    __shared__ alignas(128) float staged[kShape.warps()][16 * 16];
    if constexpr (Batched) select_tc_batch(a, b, c, m, n, k);

    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int block_row = static_cast<int>(blockIdx.y) * kShape.bm, block_col = static_cast<int>(blockIdx.x) * kShape.bn;
    const model::Cell warp_origin = model::mma_warp_origin(kShape, warp);

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[kFragM][kFragN];
#pragma unroll
    for (int i = 0; i < kFragM; ++i)
#pragma unroll
        for (int j = 0; j < kFragN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < k; k0 += kShape.bk) {
        // The copy of this K step's tiles: 16-byte chunks, neighbouring threads on neighbouring
        // chunks (model::mma_copy_chunk), zeros past the matrix's edges.
#pragma unroll
        for (int i = 0; i < kShape.chunks_per_thread(); ++i) {
            const model::CopyChunk chunk = model::mma_copy_chunk(kShape, static_cast<int>(threadIdx.x), i);
            if (chunk.of_a)
                copy_chunk_of_8<Aligned>(&as[chunk.row * kALd + chunk.col], a, m, k, block_row + chunk.row,
                                         k0 + chunk.col);
            else
                copy_chunk_of_8<Aligned>(&bs[chunk.row * kBLd + chunk.col], b, k, n, k0 + chunk.row,
                                         block_col + chunk.col);
        }
        cp_async_commit();
        cp_async_wait<0>();
        // The tiles are whole only when every thread's copies have landed.
        __syncthreads();

#pragma unroll
        for (int kk = 0; kk < kShape.bk; kk += 16) {
            // B's fragments for the warp's columns, then one A fragment at a time: fewer registers
            // live at once than loading all of A first.
            wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> b_frag[kFragN];
#pragma unroll
            for (int j = 0; j < kFragN; ++j)
                wmma::load_matrix_sync(b_frag[j], &bs[kk * kBLd + warp_origin.col + 16 * j], kBLd);
#pragma unroll
            for (int i = 0; i < kFragM; ++i) {
                wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> a_frag;
                wmma::load_matrix_sync(a_frag, &as[(warp_origin.row + 16 * i) * kALd + kk], kALd);
#pragma unroll
                for (int j = 0; j < kFragN; ++j) wmma::mma_sync(acc[i][j], a_frag, b_frag[j], acc[i][j]);
            }
        }
        // Every warp is done reading the tiles before the next K step overwrites them.
        __syncthreads();
    }

    // The fragment's cells are CUDA's secret, so each goes through shared memory to be written
    // cell by cell, rounded to T, inside the matrix only.
#pragma unroll
    for (int i = 0; i < kFragM; ++i)
#pragma unroll
        for (int j = 0; j < kFragN; ++j) {
            wmma::store_matrix_sync(staged[warp], acc[i][j], 16, wmma::mem_row_major);
            // The warp's lanes read what other lanes of the warp stored.
            __syncwarp();
            for (int e = lane; e < 16 * 16; e += 32) {
                const int row = block_row + warp_origin.row + 16 * i + e / 16;
                const int col = block_col + warp_origin.col + 16 * j + e % 16;
                if (row < m && col < n) c[static_cast<std::int64_t>(row) * n + col] = from_float<T>(staged[warp][e]);
            }
            // Read before the next fragment overwrites the staging tile.
            __syncwarp();
        }
#endif
}

template <typename T>
struct WmmaRung {
    static constexpr auto pick = [](auto aligned, auto batched) {
        return wmma_kernel<T, decltype(aligned)::value, decltype(batched)::value>;
    };
    static cudaError_t launch(const model::KernelConfig&, const model::Problem& p, Operands<std::uint16_t> operands,
                              cudaStream_t stream) {
        return launch_block_tiled<T>(p, kShape.bm, kShape.bn, kThreads, 0, operands, stream, pick);
    }
    static TcKernelHandle handle(const model::Problem& p) { return block_tiled_handle(p, kThreads, 0, pick); }
};

}  // namespace

cudaError_t launch_wmma(const model::KernelConfig& config, const model::Problem& problem,
                        Operands<std::uint16_t> operands, cudaStream_t stream) {
    return launch_by_half_type<WmmaRung>(config, problem, operands, stream);
}

TcKernelHandle wmma_handle(const model::Problem& problem) { return handle_by_half_type<WmmaRung>(problem); }

}  // namespace ts::kernels
