// tc_common.cuh — what the tensor-core rungs (13 on) share: the 16-bit element types, the PTX
// instructions they are built from (ldmatrix, mma.sync, cp.async), and the launch by element type.
//
// A, B and C hold BF16 or FP16, as problem.dtype says; the launchers take them as raw 16-bit
// words (Operands<std::uint16_t>) so that plain C++ never needs CUDA's types, and each rung is
// instantiated for __nv_bfloat16 and __half. Accumulation is FP32 in every rung; C is rounded to
// the 16-bit type once, at the store.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "kernels/common/launch_common.cuh"
#include "kernels/common/launchers.hpp"
#include "model/index_math.hpp"
#include "model/tensor_core/fragments.hpp"
#include "model/tensor_core/mma.hpp"

// cp.async and mma.sync with BF16 exist from sm_80 on. A build that also targets sm_75 compiles the
// wmma and mma kernels' bodies out there (an empty kernel), and tensor_core_rung_unavailable
// refuses their launch on such a GPU first.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define TS_TENSOR_CORE_SM80 1
#else
#define TS_TENSOR_CORE_SM80 0
#endif

namespace ts::kernels {

template <typename T>
inline constexpr bool kIsBf16 = std::is_same_v<T, __nv_bfloat16>;

template <typename T>
__device__ __forceinline__ T from_float(float x) {
    if constexpr (kIsBf16<T>) return __float2bfloat16_rn(x);
    else return __float2half_rn(x);
}

// Block z of a batched launch works on matrix z of each stack (as launch_common.cuh's select_batch,
// with 64-bit offsets: a stack of 16-bit matrices may pass 2^31 elements).
template <typename T>
__device__ __forceinline__ void select_tc_batch(const T*& a, const T*& b, T*& c, int m, int n, int k) {
    a += static_cast<std::int64_t>(blockIdx.z) * m * k;
    b += static_cast<std::int64_t>(blockIdx.z) * k * n;
    c += static_cast<std::int64_t>(blockIdx.z) * m * n;
}

// The shared-window address of a pointer into shared memory, as ldmatrix and cp.async take it.
__device__ __forceinline__ std::uint32_t shared_address(const void* p) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// ---- ldmatrix --------------------------------------------------------------------------------

// Four 8×8 matrices of 16-bit elements: lane l gives the address of one 16-byte row (rows 0–7 of
// matrix 0 from lanes 0–7, and so on), and receives two elements of each matrix, one register
// each (model::ldmatrix_element). .trans delivers each matrix transposed.
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], std::uint32_t row_address) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(row_address));
}
__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&r)[4], std::uint32_t row_address) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(row_address));
}

// ---- mma.sync.aligned.m16n8k16 -----------------------------------------------------------------

// d += a·b for one 16×8 tile of C over 16 of K: a is 16×16 (4 registers of two elements), b 16×8
// (2 registers), d 16×8 FP32 (4 registers), laid out per lane as model::mma_a_cell, mma_b_cell
// and mma_c_cell say.
template <typename T>
__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                             std::uint32_t b1) {
    if constexpr (kIsBf16<T>) {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
            "{%0, %1, %2, %3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    } else {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
            "{%0, %1, %2, %3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    }
}

// ---- A warp tile of mma.sync (14, 15) ------------------------------------------------------------

template <model::MmaShape Shape>
using MmaAccumulators = float[Shape.m_tiles()][Shape.n_tiles()][model::kMmaCRegisters];

// One K step of a warp's tile, from the stage's As and Bs at these shared-window addresses: per
// 16 of K, an ldmatrix.x4 for each 16 rows of A and an ldmatrix.x4.trans for each 16 columns of B
// (two n8 fragments), then every mma of the tile. Where each lane points is the model's
// (ldmatrix_x4_a_row, ldmatrix_x4_trans_b_row, the tiles' offset).
template <model::MmaShape Shape, typename T>
__device__ __forceinline__ void mma_warp_step(MmaAccumulators<Shape>& acc, std::uint32_t as_address,
                                              std::uint32_t bs_address, model::Cell warp_origin, int lane) {
    constexpr int kMTiles = Shape.m_tiles(), kNTiles = Shape.n_tiles();
#pragma unroll
    for (int kk = 0; kk < Shape.bk; kk += model::kMmaK) {
        std::uint32_t a_frag[kMTiles][4];
        std::uint32_t b_frag[kNTiles / 2][4];  // one x4.trans: the two n8 fragments of 16 columns
#pragma unroll
        for (int mi = 0; mi < kMTiles; ++mi) {
            const model::Cell row = model::ldmatrix_x4_a_row(lane);
            ldmatrix_x4(a_frag[mi],
                        as_address + Shape.a_tile().offset(warp_origin.row + model::kMmaM * mi + row.row, kk + row.col));
        }
#pragma unroll
        for (int nj = 0; nj < kNTiles / 2; ++nj) {
            const model::Cell row = model::ldmatrix_x4_trans_b_row(lane);
            ldmatrix_x4_trans(b_frag[nj],
                              bs_address + Shape.b_tile().offset(kk + row.row, warp_origin.col + 16 * nj + row.col));
        }
#pragma unroll
        for (int mi = 0; mi < kMTiles; ++mi)
#pragma unroll
            for (int ni = 0; ni < kNTiles; ++ni)
                // Registers 0, 1 of the x4 are n8 fragment 2·nj, registers 2, 3 fragment 2·nj + 1.
                mma_m16n8k16<T>(acc[mi][ni], a_frag[mi], b_frag[ni / 2][2 * (ni % 2)], b_frag[ni / 2][2 * (ni % 2) + 1]);
    }
}

// Each accumulator's cell is known (model::mma_block_cell): straight from registers to C, rounded
// to T, inside the matrix only.
template <model::MmaShape Shape, typename T>
__device__ __forceinline__ void store_mma_tiles(const MmaAccumulators<Shape>& acc, T* c, int m, int n, int block_row,
                                                int block_col, int warp, int lane) {
#pragma unroll
    for (int mi = 0; mi < Shape.m_tiles(); ++mi)
#pragma unroll
        for (int ni = 0; ni < Shape.n_tiles(); ++ni)
#pragma unroll
            for (int r = 0; r < model::kMmaCRegisters; ++r) {
                const model::Cell cell = model::mma_block_cell(Shape, warp, lane, mi, ni, r);
                const int row = block_row + cell.row, col = block_col + cell.col;
                if (row < m && col < n) c[static_cast<std::int64_t>(row) * n + col] = from_float<T>(acc[mi][ni][r]);
            }
}

// ---- cp.async ----------------------------------------------------------------------------------

// 16 bytes from global to shared without passing through registers. src_bytes < 16 copies that
// many and fills the rest with zeros: 0 at the matrix's edge, so no branch leaves a stale tile.
__device__ __forceinline__ void cp_async_16(std::uint32_t shared, const void* global, int src_bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared), "l"(global), "r"(src_bytes));
}
// Closes the group of copies issued since the last commit; wait<N> returns when at most N groups
// are still in flight (this thread's copies only: a barrier must follow before others read them).
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

// ---- Edges -------------------------------------------------------------------------------------

// 8 consecutive 16-bit elements of row `row` from column `col` of a rows × cols row-major matrix
// into shared memory at `shared`, zeros past the edges. With `aligned` (cols a multiple of 8, so
// every row starts on 16 bytes) one cp.async does it; otherwise element by element.
template <bool Aligned, typename T>
__device__ __forceinline__ void copy_chunk_of_8(T* shared, const T* matrix, int rows, int cols, int row, int col) {
    if constexpr (Aligned) {
        const bool inside = row < rows && col < cols;
        // Outside, the address stays a valid one (the matrix's start) and 0 bytes are read.
        const T* from = inside ? matrix + static_cast<std::int64_t>(row) * cols + col : matrix;
        cp_async_16(shared_address(shared), from, inside ? 16 : 0);
    } else {
        const T zero = from_float<T>(0.0f);
#pragma unroll
        for (int i = 0; i < 8; ++i)
            shared[i] = row < rows && col + i < cols ? matrix[static_cast<std::int64_t>(row) * cols + col + i] : zero;
    }
}

// The 16-bit words the runner holds, as the element type a rung is instantiated for.
template <typename T>
Operands<T> typed(Operands<std::uint16_t> operands) {
    return {reinterpret_cast<const T*>(operands.a), reinterpret_cast<const T*>(operands.b),
            reinterpret_cast<T*>(operands.c)};
}

// Calls `use(aligned, batched)` with two std::bool_constant naming the form of a kernel a problem
// needs, for the kernel's template arguments, and returns what it returns. Aligned: K and N
// multiples of 8, so every row of A and B starts on 16 bytes and cp.async can copy it; batched:
// blockIdx.z picks the matrix. The launch and the attribute query both pick with this.
template <typename Use>
auto with_edge_form(const model::Problem& p, Use use) {
    const bool aligned = p.k % 8 == 0 && p.n % 8 == 0;
    if (aligned && p.batch == 1) return use(std::true_type{}, std::false_type{});
    if (aligned) return use(std::true_type{}, std::true_type{});
    if (p.batch == 1) return use(std::false_type{}, std::false_type{});
    return use(std::false_type{}, std::true_type{});
}

// The launch of a rung whose blocks each own a BM×BN tile of C (13 to 15): one block per tile per
// batch, `threads` threads, `shared_bytes` of dynamic shared memory (allowed first where past
// 48 KiB). `pick(aligned, batched)` names the kernel's instantiation (with_edge_form's two
// std::bool_constant); the attribute query takes the same pick.
template <typename T, typename Pick>
cudaError_t launch_block_tiled(const model::Problem& p, int bm, int bn, int threads, int shared_bytes,
                               Operands<std::uint16_t> operands, cudaStream_t stream, Pick pick) {
    const Operands<T> o = typed<T>(operands);
    const dim3 grid(static_cast<unsigned>(model::ceil_div(p.n, bn)), static_cast<unsigned>(model::ceil_div(p.m, bm)),
                    static_cast<unsigned>(p.batch));
    const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.k);
    return with_edge_form(p, [&](auto aligned, auto batched) {
        const auto kernel = pick(aligned, batched);
        if (const cudaError_t e = allow_dynamic_shared(reinterpret_cast<const void*>(kernel), shared_bytes);
            e != cudaSuccess)
            return e;
        kernel<<<grid, threads, shared_bytes, stream>>>(o.a, o.b, o.c, m, n, k);
        return cudaGetLastError();
    });
}
template <typename Pick>
TcKernelHandle block_tiled_handle(const model::Problem& p, int threads, int shared_bytes, Pick pick) {
    return with_edge_form(p, [&](auto aligned, auto batched) {
        return TcKernelHandle{reinterpret_cast<const void*>(pick(aligned, batched)), threads, shared_bytes};
    });
}

// Dispatch a rung's kernel handle (kernel_attributes.cu) on the 16-bit type problem.dtype names.
template <template <typename> class Rung>
TcKernelHandle handle_by_half_type(const model::Problem& problem) {
    if (problem.dtype == model::Dtype::BFloat16) return Rung<__nv_bfloat16>::handle(problem);
    if (problem.dtype == model::Dtype::Float16) return Rung<__half>::handle(problem);
    return {};
}

// Dispatch a rung's launcher template on the 16-bit type problem.dtype names.
template <template <typename> class Rung>
cudaError_t launch_by_half_type(const model::KernelConfig& config, const model::Problem& problem,
                                Operands<std::uint16_t> operands, cudaStream_t stream) {
    if (problem.dtype == model::Dtype::BFloat16) return Rung<__nv_bfloat16>::launch(config, problem, operands, stream);
    if (problem.dtype == model::Dtype::Float16) return Rung<__half>::launch(config, problem, operands, stream);
    return cudaErrorInvalidValue;
}

}  // namespace ts::kernels
