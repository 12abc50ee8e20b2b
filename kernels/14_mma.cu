// Teaches: what wmma hides. The tensor core's own instruction, mma.sync.m16n8k16, multiplies a
// 16×16 tile of A by a 16×8 tile of B, and the PTX ISA says exactly which lane holds which
// element (model::mma_a_cell, mma_b_cell, mma_c_cell). ldmatrix fills those registers straight
// from shared memory: each lane names one 16-byte row, and the hardware hands every lane the
// elements the mma wants it to have. A warp keeps its 64×32 tile of C as 4×4 mma tiles, 64 FP32
// accumulators a thread, and writes them to C straight from registers.
// Changed from 13_wmma.cu: wmma's fragments became ldmatrix.x4 (A, 16×16 a time) and
// ldmatrix.x4.trans (B, stored K×N, 16×16 a time: two n8 fragments), mma.sync on them, and the
// epilogue needs no staging because the layout of C is known. The block and warp tiles are 13's
// (model/tc_mma.hpp says why not larger warp tiles).
// What it leaves on the table: one stage, so every K step waits for its copies; 15 overlaps them.
#include "kernels/tc_common.cuh"
#include "model/tc_mma.hpp"

namespace ts::kernels {

namespace {

constexpr model::MmaShape kShape = model::kMmaShape;
constexpr int kThreads = kShape.threads();
constexpr int kMTiles = kShape.m_tiles(), kNTiles = kShape.n_tiles();

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

    float acc[kMTiles][kNTiles][model::kMmaCRegisters] = {};

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

#pragma unroll
        for (int kk = 0; kk < kShape.bk; kk += model::kMmaK) {
            std::uint32_t a_frag[kMTiles][4];
            std::uint32_t b_frag[kNTiles / 2][4];  // one x4.trans: the two n8 fragments of 16 columns
#pragma unroll
            for (int mi = 0; mi < kMTiles; ++mi) {
                const model::Cell row = model::ldmatrix_x4_a_row(lane);
                ldmatrix_x4(a_frag[mi], as_address + kShape.a_tile().offset(warp_origin.row + model::kMmaM * mi + row.row,
                                                                            kk + row.col));
            }
#pragma unroll
            for (int nj = 0; nj < kNTiles / 2; ++nj) {
                const model::Cell row = model::ldmatrix_x4_trans_b_row(lane);
                ldmatrix_x4_trans(b_frag[nj],
                                  bs_address + kShape.b_tile().offset(kk + row.row, warp_origin.col + 16 * nj + row.col));
            }
#pragma unroll
            for (int mi = 0; mi < kMTiles; ++mi)
#pragma unroll
                for (int ni = 0; ni < kNTiles; ++ni)
                    // Registers 0, 1 of the x4 are n8 fragment 2·nj, registers 2, 3 fragment 2·nj + 1.
                    mma_m16n8k16<T>(acc[mi][ni], a_frag[mi], b_frag[ni / 2][2 * (ni % 2)],
                                    b_frag[ni / 2][2 * (ni % 2) + 1]);
        }
        // Every warp is done reading the tiles before the next K step overwrites them.
        __syncthreads();
    }

    // Each accumulator's cell is known (model::mma_block_cell): straight from registers to C.
#pragma unroll
    for (int mi = 0; mi < kMTiles; ++mi)
#pragma unroll
        for (int ni = 0; ni < kNTiles; ++ni)
#pragma unroll
            for (int r = 0; r < model::kMmaCRegisters; ++r) {
                const model::Cell cell = model::mma_block_cell(kShape, warp, lane, mi, ni, r);
                const int row = block_row + cell.row, col = block_col + cell.col;
                if (row < m && col < n) c[static_cast<std::int64_t>(row) * n + col] = from_float<T>(acc[mi][ni][r]);
            }
#endif
}

template <typename T>
struct MmaRung {
    static cudaError_t launch(const model::KernelConfig&, const model::Problem& p, Operands<std::uint16_t> operands,
                              cudaStream_t stream) {
        const Operands<T> o = typed<T>(operands);
        const dim3 grid(static_cast<unsigned>(model::ceil_div(p.n, kShape.bn)),
                        static_cast<unsigned>(model::ceil_div(p.m, kShape.bm)), static_cast<unsigned>(p.batch));
        const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.k);
        return with_edge_form(p, [&](auto aligned, auto batched) {
            mma_kernel<T, decltype(aligned)::value, decltype(batched)::value>
                <<<grid, kThreads, 0, stream>>>(o.a, o.b, o.c, m, n, k);
            return cudaGetLastError();
        });
    }
    static TcKernelHandle handle(const model::Problem& p) {
        return with_edge_form(p, [](auto aligned, auto batched) {
            return TcKernelHandle{
                reinterpret_cast<const void*>(mma_kernel<T, decltype(aligned)::value, decltype(batched)::value>), kThreads, 0};
        });
    }
};

}  // namespace

cudaError_t launch_mma(const model::KernelConfig& config, const model::Problem& problem,
                       Operands<std::uint16_t> operands, cudaStream_t stream) {
    return launch_by_half_type<MmaRung>(config, problem, operands, stream);
}

TcKernelHandle mma_handle(const model::Problem& problem) { return handle_by_half_type<MmaRung>(problem); }

}  // namespace ts::kernels
