// Teaches: what wmma hides. The tensor core's own instruction, mma.sync.m16n8k16, multiplies a
// 16×16 tile of A by a 16×8 tile of B, and the PTX ISA says exactly which lane holds which
// element (model::mma_a_cell, mma_b_cell, mma_c_cell). ldmatrix fills those registers straight
// from shared memory: each lane names one 16-byte row, and the hardware hands every lane the
// elements the mma wants it to have. A warp keeps its 64×32 tile of C as 4×4 mma tiles, 64 FP32
// accumulators a thread, and writes them to C straight from registers.
// Changed from 13_wmma.cu: wmma's fragments became ldmatrix.x4 (A, 16×16 a time) and
// ldmatrix.x4.trans (B, stored K×N, 16×16 a time: two n8 fragments), mma.sync on them, and the
// epilogue needs no staging because the layout of C is known. The block and warp tiles are 13's
// (model/tensor_core/mma.hpp says why not larger warp tiles).
// What it leaves on the table: one stage, so every K step waits for its copies; 15 overlaps them.
#include "kernels/common/tc_common.cuh"
#include "model/tensor_core/mma.hpp"

namespace ts::kernels {

namespace {

constexpr model::MmaShape kShape = model::kMmaShape;
constexpr int kThreads = kShape.threads();

template <typename T, bool Aligned, bool Batched>
__global__ void __launch_bounds__(kThreads) mma_kernel(const T* a, const T* b, T* c, int m, int n, int k) {
#if TS_TENSOR_CORE_SM80
    __shared__ alignas(128) unsigned char as[kShape.a_tile().bytes()];
    __shared__ alignas(128) unsigned char bs[kShape.b_tile().bytes()];
    if constexpr (Batched) select_tc_batch(a, b, c, m, n, k);

    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int block_row = static_cast<int>(blockIdx.y) * kShape.bm, block_col = static_cast<int>(blockIdx.x) * kShape.bn;
    const model::Cell warp_origin = model::mma_warp_origin(kShape, warp);
    const std::uint32_t as_address = shared_address(as), bs_address = shared_address(bs);

    MmaAccumulators<kShape> acc = {};

    for (int k0 = 0; k0 < k; k0 += kShape.bk) {
#pragma unroll
        for (int i = 0; i < kShape.chunks_per_thread(); ++i) {
            const model::CopyChunk chunk = model::mma_copy_chunk(kShape, static_cast<int>(threadIdx.x), i);
            if (chunk.of_a)
                copy_chunk_of_8<Aligned>(reinterpret_cast<T*>(as + kShape.a_tile().offset(chunk.row, chunk.col)), a, m,
                                         k, block_row + chunk.row, k0 + chunk.col);
            else
                copy_chunk_of_8<Aligned>(reinterpret_cast<T*>(bs + kShape.b_tile().offset(chunk.row, chunk.col)), b, k,
                                         n, k0 + chunk.row, block_col + chunk.col);
        }
        cp_async_commit();
        cp_async_wait<0>();
        // The tiles are whole only when every thread's copies have landed.
        __syncthreads();

        mma_warp_step<kShape, T>(acc, as_address, bs_address, warp_origin, lane);
        // Every warp is done reading the tiles before the next K step overwrites them.
        __syncthreads();
    }

    // Each accumulator's cell is known: straight from registers to C (store_mma_tiles).
    store_mma_tiles<kShape, T>(acc, c, m, n, block_row, block_col, warp, lane);
#endif
}

template <typename T>
struct MmaRung {
    static constexpr auto pick = [](auto aligned, auto batched) {
        return mma_kernel<T, decltype(aligned)::value, decltype(batched)::value>;
    };
    static cudaError_t launch(const model::KernelConfig&, const model::Problem& p, Operands<std::uint16_t> operands,
                              cudaStream_t stream) {
        return launch_block_tiled<T>(p, kShape.bm, kShape.bn, kThreads, 0, operands, stream, pick);
    }
    static TcKernelHandle handle(const model::Problem& p) { return block_tiled_handle(p, kThreads, 0, pick); }
};

}  // namespace

cudaError_t launch_mma(const model::KernelConfig& config, const model::Problem& problem,
                       Operands<std::uint16_t> operands, cudaStream_t stream) {
    return launch_by_half_type<MmaRung>(config, problem, operands, stream);
}

TcKernelHandle mma_handle(const model::Problem& problem) { return handle_by_half_type<MmaRung>(problem); }

}  // namespace ts::kernels
