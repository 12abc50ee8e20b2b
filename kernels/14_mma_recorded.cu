// Teaches: what ldmatrix really hands each lane, and when each block's K steps ran. The theatre
// colours one mma's A and B by the lanes whose registers the GPU filled (the Who holds what tab),
// and the SMs tab draws the timeline; a gpu test checks the registers against the model
// (model/tensor_core/stage_record.hpp, compare_fragment_words).
// Changed from 14_mma.cu: the same copies, barriers, ldmatrix and mma.sync, in BF16 for one
// matrix, plus three records. At K step 0, once the tiles are whole, warp 0 of block (0, 0) issues
// once more the first ldmatrix.x4 of A and ldmatrix.x4.trans of B that its mma step issues, at the
// same addresses, and every lane writes out the 16 halves it received; thread 0 stamps each K step
// from its copies to the end of its mmas; each block says which SM it ran on. The recorder fills A
// and B with element numbers rather than values, so that every half says which element it is; C is
// computed but not checked.
// Traffic: 14's copies, plus the records' stores, so the clocks show order and overlap, not the
// kernel's speed.
#include "kernels/common/launchers.hpp"
#include "kernels/common/recording.cuh"
#include "kernels/common/tc_common.cuh"
#include "model/tensor_core/stage_record.hpp"

namespace ts::kernels {

namespace {

constexpr model::MmaShape kShape = model::kRecordedFragmentShape;
static_assert(kShape == model::kMmaShape, "the trace is of 14's own shape");
constexpr int kThreads = kShape.threads();

#if TS_TENSOR_CORE_SM80
// The first x4 loads of A and B warp 0's mma step makes (kk = 0, mi = 0, nj = 0), again, and each
// lane's halves written to the record, low half first (model::fragment_word_slot).
__device__ void record_fragments(std::uint32_t as_address, std::uint32_t bs_address, model::Cell warp_origin, int lane,
                                 std::uint16_t* words) {
    std::uint32_t a_regs[4], b_regs[4];
    const model::Cell a_row = model::ldmatrix_x4_a_row(lane);
    ldmatrix_x4(a_regs, as_address + kShape.a_tile().offset(warp_origin.row + a_row.row, a_row.col));
    const model::Cell b_row = model::ldmatrix_x4_trans_b_row(lane);
    ldmatrix_x4_trans(b_regs, bs_address + kShape.b_tile().offset(b_row.row, warp_origin.col + b_row.col));
    for (int reg = 0; reg < 4; ++reg)
        for (int half = 0; half < 2; ++half) {
            words[model::fragment_word_slot(lane, false, reg, half)] = static_cast<std::uint16_t>(a_regs[reg] >> (16 * half));
            words[model::fragment_word_slot(lane, true, reg, half)] = static_cast<std::uint16_t>(b_regs[reg] >> (16 * half));
        }
}
#endif

template <bool Aligned>
__global__ void __launch_bounds__(kThreads) mma_recorded_kernel(const __nv_bfloat16* a, const __nv_bfloat16* b,
                                                                __nv_bfloat16* c, int m, int n, int k, TraceBuffers trace) {
#if TS_TENSOR_CORE_SM80
    __shared__ alignas(128) unsigned char as[kShape.a_tile().bytes()];
    __shared__ alignas(128) unsigned char bs[kShape.b_tile().bytes()];

    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int block_row = static_cast<int>(blockIdx.y) * kShape.bm, block_col = static_cast<int>(blockIdx.x) * kShape.bn;
    const int block = model::block_linear(static_cast<int>(blockIdx.x), static_cast<int>(blockIdx.y),
                                          static_cast<int>(gridDim.x));
    const int k_steps = model::mma_k_steps(kShape, k);
    const model::Cell warp_origin = model::mma_warp_origin(kShape, warp);
    const std::uint32_t as_address = shared_address(as), bs_address = shared_address(bs);
    if (threadIdx.x == 0) trace.block_sm[block] = current_sm();

    MmaAccumulators<kShape> acc = {};
    for (int step = 0; step < k_steps; ++step) {
        const int k0 = step * kShape.bk;
        model::PhaseClock& clock = trace.clocks[model::phase_clock_slot(block, k_steps, step)];
        if (threadIdx.x == 0) stamp_start(clock);
#pragma unroll
        for (int i = 0; i < kShape.chunks_per_thread(); ++i) {
            const model::CopyChunk chunk = model::mma_copy_chunk(kShape, static_cast<int>(threadIdx.x), i);
            if (chunk.of_a)
                copy_chunk_of_8<Aligned>(reinterpret_cast<__nv_bfloat16*>(as + kShape.a_tile().offset(chunk.row, chunk.col)),
                                         a, m, k, block_row + chunk.row, k0 + chunk.col);
            else
                copy_chunk_of_8<Aligned>(reinterpret_cast<__nv_bfloat16*>(bs + kShape.b_tile().offset(chunk.row, chunk.col)),
                                         b, k, n, k0 + chunk.row, block_col + chunk.col);
        }
        cp_async_commit();
        cp_async_wait<0>();
        // The tiles are whole only when every thread's copies have landed.
        __syncthreads();
        if (step == 0 && block == 0 && warp == 0 && trace.fragment_words != nullptr)
            record_fragments(as_address, bs_address, warp_origin, lane, trace.fragment_words);

        mma_warp_step<kShape, __nv_bfloat16>(acc, as_address, bs_address, warp_origin, lane);
        if (threadIdx.x == 0) stamp_end(clock);
        // Every warp is done reading the tiles before the next K step overwrites them.
        __syncthreads();
    }

    store_mma_tiles<kShape, __nv_bfloat16>(acc, c, m, n, block_row, block_col, warp, lane);
#endif
}

}  // namespace

cudaError_t launch_mma_recorded(const model::Problem& problem, Operands<std::uint16_t> operands, TraceBuffers trace,
                                cudaStream_t stream) {
    if (problem.dtype != model::Dtype::BFloat16 || problem.batch != 1) return cudaErrorInvalidValue;
    // As 14's launch is, where the GPU has no BF16 mma (compute capability below 8.0).
    if (tensor_core_rung_unavailable(model::KernelKind::Mma)) return cudaErrorNoKernelImageForDevice;
    const Operands<__nv_bfloat16> o = typed<__nv_bfloat16>(operands);
    const dim3 grid(static_cast<unsigned>(model::ceil_div(problem.n, kShape.bn)),
                    static_cast<unsigned>(model::ceil_div(problem.m, kShape.bm)));
    const int m = static_cast<int>(problem.m), n = static_cast<int>(problem.n), k = static_cast<int>(problem.k);
    return with_edge_form(problem, [&](auto aligned, auto) {
        mma_recorded_kernel<decltype(aligned)::value><<<grid, kThreads, 0, stream>>>(o.a, o.b, o.c, m, n, k, trace);
        return cudaGetLastError();
    });
}

}  // namespace ts::kernels
