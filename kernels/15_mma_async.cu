// Teaches: the Ampere recipe, and where it stops on Hopper. Two changes to 14:
// - The tiles are XOR-swizzled rather than padded (model::xor_swizzled_offset): each 16-byte chunk
//   of a row moves to chunk ^ (row's line), so the 8 rows an ldmatrix phase reads land in 8
//   different bank quads without a byte of padding, and every cp.async still writes 16 whole bytes.
// - Four stages of shared memory, filled by cp.async three K steps ahead: while the warps multiply
//   one stage, the copies of the next ones are in flight, and one barrier a K step is enough.
// What it leaves on the table: on Ampere and Ada this is how the fastest hand-written kernels reach
// cuBLAS, but not on Hopper: mma.sync keeps the warps busy issuing instructions and moving
// fragments through registers that wgmma reads from shared memory by itself (16 on).
// Changed from 14_mma.cu: the layout of As and Bs, the ring of stages with cp.async groups, and
// dynamic shared memory (64 KiB).
#include "kernels/common/tc_common.cuh"
#include "model/tensor_core/mma.hpp"

namespace ts::kernels {

namespace {

constexpr model::MmaShape kShape = model::kMmaAsyncShape;
constexpr int kThreads = kShape.threads();
constexpr int kStageBytes = model::mma_stage_bytes(kShape);
constexpr int kSharedBytes = model::mma_shared_bytes(kShape);

// The copies of K step `step` into stage step % stages: this thread's 16-byte chunks.
template <bool Aligned, typename T>
__device__ __forceinline__ void copy_step(unsigned char* smem, const T* a, const T* b, int m, int n, int k,
                                          int block_row, int block_col, int step) {
    unsigned char* as = smem + (step % kShape.stages) * kStageBytes;
    unsigned char* bs = as + kShape.a_tile().bytes();
    const int k0 = step * kShape.bk;
#pragma unroll
    for (int i = 0; i < kShape.chunks_per_thread(); ++i) {
        const model::CopyChunk chunk = model::mma_copy_chunk(kShape, static_cast<int>(threadIdx.x), i);
        if (chunk.of_a)
            copy_chunk_of_8<Aligned>(reinterpret_cast<T*>(as + kShape.a_tile().offset(chunk.row, chunk.col)), a, m, k,
                                     block_row + chunk.row, k0 + chunk.col);
        else
            copy_chunk_of_8<Aligned>(reinterpret_cast<T*>(bs + kShape.b_tile().offset(chunk.row, chunk.col)), b, k, n,
                                     k0 + chunk.row, block_col + chunk.col);
    }
}

template <typename T, bool Aligned, bool Batched>
__global__ void __launch_bounds__(kThreads) mma_async_kernel(const T* a, const T* b, T* c, int m, int n, int k) {
#if TS_TENSOR_CORE_SM80
    extern __shared__ __align__(128) unsigned char smem[];
    if constexpr (Batched) select_tc_batch(a, b, c, m, n, k);

    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int block_row = static_cast<int>(blockIdx.y) * kShape.bm, block_col = static_cast<int>(blockIdx.x) * kShape.bn;
    const model::Cell warp_origin = model::mma_warp_origin(kShape, warp);
    const int k_steps = model::mma_k_steps(kShape, k);

    MmaAccumulators<kShape> acc = {};

    // The first stages - 1 K steps in flight before any math; a group per step, empty or not, so
    // that "wait until at most stages - 2 groups are pending" always means "step s has landed".
    for (int s = 0; s < kShape.stages - 1; ++s) {
        if (s < k_steps) copy_step<Aligned>(smem, a, b, m, n, k, block_row, block_col, s);
        cp_async_commit();
    }
    for (int step = 0; step < k_steps; ++step) {
        cp_async_wait<kShape.stages - 2>();
        // This step's stage is whole for every thread, and every warp is done with the previous
        // step's stage, which the copy below refills.
        __syncthreads();
        const int ahead = step + kShape.stages - 1;
        if (ahead < k_steps) copy_step<Aligned>(smem, a, b, m, n, k, block_row, block_col, ahead);
        cp_async_commit();

        const std::uint32_t as_address = shared_address(smem + (step % kShape.stages) * kStageBytes);
        const std::uint32_t bs_address = as_address + kShape.a_tile().bytes();
        mma_warp_step<kShape, T>(acc, as_address, bs_address, warp_origin, lane);
    }
    // No copy is left in flight when the block ends (the last groups are empty).
    cp_async_wait<0>();

    store_mma_tiles<kShape, T>(acc, c, m, n, block_row, block_col, warp, lane);
#endif
}

template <typename T>
struct MmaAsyncRung {
    static constexpr auto pick = [](auto aligned, auto batched) {
        return mma_async_kernel<T, decltype(aligned)::value, decltype(batched)::value>;
    };
    static cudaError_t launch(const model::KernelConfig&, const model::Problem& p, Operands<std::uint16_t> operands,
                              cudaStream_t stream) {
        return launch_block_tiled<T>(p, kShape.bm, kShape.bn, kThreads, kSharedBytes, operands, stream, pick);
    }
    static TcKernelHandle handle(const model::Problem& p) { return block_tiled_handle(p, kThreads, kSharedBytes, pick); }
};

}  // namespace

cudaError_t launch_mma_async(const model::KernelConfig& config, const model::Problem& problem,
                             Operands<std::uint16_t> operands, cudaStream_t stream) {
    return launch_by_half_type<MmaAsyncRung>(config, problem, operands, stream);
}

TcKernelHandle mma_async_handle(const model::Problem& problem) { return handle_by_half_type<MmaAsyncRung>(problem); }

}  // namespace ts::kernels
