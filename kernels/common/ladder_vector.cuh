// ladder_vector.cuh — what the float rungs (08 on) share: loads of four floats at a time,
// the outer products of one K step from registers, and the store of a thread's tiles.
//
// Each function walks the thread's work with the model's index functions (model/ladder.hpp)
// for the rung's shape, so the three rungs that use vector_ladder_kernel below (08, 09, 10)
// differ only in their LadderShape: which cells a thread owns, how As is laid out, how big
// the tiles are. Their files say what that changes and why.
#pragma once

#include <cstdint>

#include "kernels/common/ladder_common.cuh"

namespace ts::kernels {

// Four floats of row `row` of a rows × cols row-major matrix, from column `col` (a multiple
// of 4), zeros for those outside. Aligned: cols is a multiple of 4, so the four lie wholly
// inside or wholly outside, and every row starts on 16 bytes: one 128-bit load. Otherwise
// four guarded 32-bit loads.
template <bool Aligned>
__device__ __forceinline__ float4 load_four(const float* matrix, int row, int col, int rows, int cols) {
    using namespace ts::model;
    if constexpr (Aligned) {
        if (row < rows && col < cols) return *reinterpret_cast<const float4*>(&matrix[row_major(row, col, cols)]);
        return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    } else {
        float v[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) v[j] = inside(row, col + j, rows, cols) ? matrix[row_major(row, col + j, cols)] : 0.0f;
        return make_float4(v[0], v[1], v[2], v[3]);
    }
}

// The loads of one K step: thread t takes vectors t, t + threads, ... of the BM×BK tile of A
// and of the BK×BN tile of B (ladder_load_row/col with vec = 4). A vector of A is a piece of
// one row of A; in the transposed As its four values go down one column, a slot each.
template <model::LadderShape S, bool Aligned>
__device__ __forceinline__ void load_vector_tiles(const float* a, const float* b, float* as, float* bs, int m, int n,
                                                  int k, int block_row, int block_col, int step) {
    using namespace ts::model;
    static_assert(S.vec == 4 && S.as_transposed);
    const int thread = threadIdx.x;
#pragma unroll
    for (int i = 0; i < S.a_loads_per_thread(); ++i) {
        const int r = ladder_load_row(thread, i, S.threads(), S.bk, 4);
        const int c = ladder_load_col(thread, i, S.threads(), S.bk, 4);
        const float4 v = load_four<Aligned>(a, block_row + r, step * S.bk + c, m, k);
        as[ladder_as_slot(S, r, c + 0)] = v.x;
        as[ladder_as_slot(S, r, c + 1)] = v.y;
        as[ladder_as_slot(S, r, c + 2)] = v.z;
        as[ladder_as_slot(S, r, c + 3)] = v.w;
    }
#pragma unroll
    for (int i = 0; i < S.b_loads_per_thread(); ++i) {
        const int r = ladder_load_row(thread, i, S.threads(), S.bn, 4);
        const int c = ladder_load_col(thread, i, S.threads(), S.bn, 4);
        *reinterpret_cast<float4*>(&bs[row_major(r, c, S.bn)]) =
            load_four<Aligned>(b, step * S.bk + r, block_col + c, k, n);
    }
}

// A thread's fragments for one k: with 128-bit loads, the TM values of column k of As for
// each of its sub-tile rows and the TN values of row k of Bs for each sub-tile column.
// Piece p is one of those loads: first the wm_iter · TM/4 of As, then the wn_iter · TN/4 of Bs.
template <model::LadderShape S>
__host__ __device__ constexpr int fragment_pieces() {
    return S.wm_iter * S.tm / 4 + S.wn_iter * S.tn / 4;
}
template <model::LadderShape S>
__device__ __forceinline__ void load_fragment_piece(const float* as, const float* bs, int thread, int i, int piece,
                                                    float (&a_regs)[S.wm_iter][S.tm],
                                                    float (&b_regs)[S.wn_iter][S.tn]) {
    using namespace ts::model;
    constexpr int a_pieces = S.wm_iter * S.tm / 4;
    if (piece < a_pieces) {
        const int sub_i = piece / (S.tm / 4), r = piece % (S.tm / 4) * 4;
        const float4 v =
            *reinterpret_cast<const float4*>(&as[ladder_as_slot(S, ladder_tile_row(S, thread, sub_i) + r, i)]);
        a_regs[sub_i][r] = v.x, a_regs[sub_i][r + 1] = v.y, a_regs[sub_i][r + 2] = v.z, a_regs[sub_i][r + 3] = v.w;
    } else {
        const int sub_j = (piece - a_pieces) / (S.tn / 4), c = (piece - a_pieces) % (S.tn / 4) * 4;
        const float4 v = *reinterpret_cast<const float4*>(&bs[row_major(i, ladder_tile_col(S, thread, sub_j) + c, S.bn)]);
        b_regs[sub_j][c] = v.x, b_regs[sub_j][c + 1] = v.y, b_regs[sub_j][c + 2] = v.z, b_regs[sub_j][c + 3] = v.w;
    }
}
template <model::LadderShape S>
__device__ __forceinline__ void load_fragments(const float* as, const float* bs, int thread, int i,
                                               float (&a_regs)[S.wm_iter][S.tm], float (&b_regs)[S.wn_iter][S.tn]) {
#pragma unroll
    for (int piece = 0; piece < fragment_pieces<S>(); ++piece) load_fragment_piece<S>(as, bs, thread, i, piece, a_regs, b_regs);
}

// The products of one k, from one set of fragment registers.
template <model::LadderShape S>
__device__ __forceinline__ void outer_products(const float (&a_regs)[S.wm_iter][S.tm],
                                               const float (&b_regs)[S.wn_iter][S.tn],
                                               float (&sums)[S.cells_per_thread()]) {
    using namespace ts::model;
#pragma unroll
    for (int sub_i = 0; sub_i < S.wm_iter; ++sub_i)
#pragma unroll
        for (int sub_j = 0; sub_j < S.wn_iter; ++sub_j)
#pragma unroll
            for (int r = 0; r < S.tm; ++r)
#pragma unroll
                for (int c = 0; c < S.tn; ++c)
                    sums[ladder_step_of_place(S, {sub_i, sub_j, r, c})] += a_regs[sub_i][r] * b_regs[sub_j][c];
}

// One K step of outer products: for each k, the fragments, then every product from
// registers. The sums are kept in the thread's step order (ladder_step_of_place).
template <model::LadderShape S>
__device__ __forceinline__ void accumulate_step(const float* as, const float* bs, int thread,
                                                float (&sums)[S.cells_per_thread()]) {
    static_assert(S.vec == 4 && S.as_transposed && S.tm % 4 == 0 && S.tn % 4 == 0);
    float a_regs[S.wm_iter][S.tm];
    float b_regs[S.wn_iter][S.tn];
#pragma unroll
    for (int i = 0; i < S.bk; ++i) {
        load_fragments<S>(as, bs, thread, i, a_regs, b_regs);
        outer_products<S>(a_regs, b_regs, sums);
    }
}

// The products of one k from one set of fragment registers, with the loads of another k's
// fragments (from `as` and `bs`, into the other set) spread evenly among them: one 128-bit
// load every cells / pieces products, so that shared memory serves a warp a little at a
// time instead of all of it in a burst that leaves the multiply-adds waiting (the pipelined
// rungs, 11 and 12). next_i < 0: no loads.
template <model::LadderShape S>
__device__ __forceinline__ void products_loading(const float (&a_regs)[S.wm_iter][S.tm],
                                                 const float (&b_regs)[S.wn_iter][S.tn],
                                                 float (&sums)[S.cells_per_thread()], const float* as, const float* bs,
                                                 int thread, int next_i, float (&a_next)[S.wm_iter][S.tm],
                                                 float (&b_next)[S.wn_iter][S.tn]) {
    using namespace ts::model;
    constexpr int every = S.cells_per_thread() / fragment_pieces<S>();
    static_assert(every >= 1);
#pragma unroll
    for (int q = 0; q < S.cells_per_thread(); ++q) {
        if (next_i >= 0 && q % every == 0 && q / every < fragment_pieces<S>())
            load_fragment_piece<S>(as, bs, thread, next_i, q / every, a_next, b_next);
        // The order of the products: column by column of each register tile, down one
        // column and back up the next. Each product reads three registers; where two of them
        // (not kept from the product before) sit in the same register bank, it waits for a
        // second read, which ncu counts as "dispatch stall". The compiler places the sums,
        // and the order decides how often that happens: of row by row, column by column and
        // serpentine versions of both, this one runs the 128×256 tuned shape fastest
        // (docs/notes/kernels-common.md).
        const int tile = q / (S.tm * S.tn), w = q % (S.tm * S.tn), c = w / S.tm;
        const int r = c % 2 == 0 ? w % S.tm : S.tm - 1 - w % S.tm;
        const LadderCellPlace p{tile / S.wn_iter, tile % S.wn_iter, r, c};
        const int step = ladder_step_of_place(S, p);
        sums[step] += a_regs[p.sub_i][p.r] * b_regs[p.sub_j][p.c];
    }
}

// Writes the thread's cells of C: four at a time where the rows of C start on 16 bytes
// (Aligned), one at a time otherwise; never outside C.
template <model::LadderShape S, bool Aligned>
__device__ __forceinline__ void store_vector_tiles(float* c, const float (&sums)[S.cells_per_thread()], int m, int n) {
    using namespace ts::model;
    const int thread = threadIdx.x;
#pragma unroll
    for (int sub_i = 0; sub_i < S.wm_iter; ++sub_i)
#pragma unroll
        for (int sub_j = 0; sub_j < S.wn_iter; ++sub_j)
#pragma unroll
            for (int r = 0; r < S.tm; ++r) {
                const int row = ladder_row(S, blockIdx.y, thread, sub_i) + r;
                const int col = ladder_col(S, blockIdx.x, thread, sub_j);
                const float* from = &sums[ladder_step_of_place(S, {sub_i, sub_j, r, 0})];
#pragma unroll
                for (int j = 0; j < S.tn; j += 4) {
                    if constexpr (Aligned) {
                        if (row < m && col + j < n)
                            *reinterpret_cast<float4*>(&c[row_major(row, col + j, n)]) =
                                make_float4(from[j], from[j + 1], from[j + 2], from[j + 3]);
                    } else {
#pragma unroll
                        for (int q = j; q < j + 4; ++q)
                            if (inside(row, col + q, m, n)) c[row_major(row, col + q, n)] = from[q];
                    }
                }
            }
}

// A shape as a type: nvcc cannot name a __global__ template instantiated on a class-type
// value (its host stubs fail to parse), so kernels take `Shape` with Shape::value the shape.
template <const model::LadderShape& S>
struct ShapeOf {
    static constexpr model::LadderShape value = S;
};

// The kernel of rungs 08 to 10: per K step, vector loads into shared memory, a barrier, the
// outer products, a barrier.
template <typename Shape, bool Batched, bool Aligned>
__global__ void __launch_bounds__(Shape::value.threads()) vector_ladder_kernel(const float* a, const float* b,
                                                                                 float* c, int m, int n, int k) {
    using namespace ts::model;
    constexpr LadderShape S = Shape::value;
    __shared__ alignas(16) float as[S.as_slots()];
    __shared__ alignas(16) float bs[S.bs_slots()];
    select_batch<Batched>(a, b, c, m, n, k);

    float sums[S.cells_per_thread()] = {};
    for (int step = 0; step < ladder_steps(S, k); ++step) {
        load_vector_tiles<S, Aligned>(a, b, as, bs, m, n, k, blockIdx.y * S.bm, blockIdx.x * S.bn, step);
        // Without this barrier a thread could read a slot of As or Bs that another thread
        // has not written yet.
        __syncthreads();
        accumulate_step<S>(as, bs, threadIdx.x, sums);
        // Without this barrier a fast thread could overwrite As or Bs with the next step's
        // tiles while a slower thread still reads this step's.
        __syncthreads();
    }
    store_vector_tiles<S, Aligned>(c, sums, m, n);
}

// The four compiled forms of a float rung's kernel: plain (mm) or batched (bmm), aligned
// (128-bit loads) or not.
struct FloatRungKernels {
    MatmulKernel<float> plain, batched, plain_aligned, batched_aligned;

    MatmulKernel<float> pick(const model::Problem& problem, bool aligned) const {
        return aligned ? pick_kernel<float>(plain_aligned, batched_aligned, problem)
                       : pick_kernel<float>(plain, batched, problem);
    }
};

template <typename S>
constexpr FloatRungKernels vector_ladder_kernels() {
    return {&vector_ladder_kernel<S, false, false>, &vector_ladder_kernel<S, true, false>,
            &vector_ladder_kernel<S, false, true>, &vector_ladder_kernel<S, true, true>};
}

// 128-bit loads and stores need every row of A, B and C to start on 16 bytes: K and N
// multiples of 4 (then M·K, K·N and M·N are too, so every matrix of a batch does) and the
// buffers themselves aligned (cudaMalloc's are, to 256 bytes). A rung that copies A 4 bytes at a
// time needs less (pipelined_rows_aligned, 11_pipelined.cuh): the launchers take the rule.
using RowsAligned = bool (*)(const model::Problem&);
inline bool rows_aligned(const model::Problem& problem) { return problem.k % 4 == 0 && problem.n % 4 == 0; }
inline bool vector_aligned(const model::Problem& problem, Operands<float> operands, RowsAligned rows = rows_aligned) {
    const auto address = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
    return rows(problem) && (address(operands.a) | address(operands.b) | address(operands.c)) % 16 == 0;
}

// The handle kernel_attributes asks CUDA about: the form a launch of `problem` runs (with
// cudaMalloc'ed buffers, aligned exactly when the sizes are); nullptr for other types.
inline const void* float_rung_handle(const FloatRungKernels& kernels, const model::Problem& problem,
                                     RowsAligned rows = rows_aligned) {
    if (problem.dtype != model::Dtype::Float32) return nullptr;
    return reinterpret_cast<const void*>(kernels.pick(problem, rows(problem)));
}

// Launches the float rung `kind` in the form `problem` and the buffers allow
// (launch_on_plan: grid, block and dynamic shared memory from the model's plan).
inline cudaError_t launch_float_rung(const FloatRungKernels& kernels, model::KernelKind kind,
                                     const model::KernelConfig& config, const model::Problem& problem,
                                     Operands<float> operands, cudaStream_t stream, RowsAligned rows = rows_aligned) {
    if (config.kind != kind) return cudaErrorInvalidValue;
    return launch_on_plan(kernels.pick(problem, vector_aligned(problem, operands, rows)), config, problem, operands,
                          stream);
}

}  // namespace ts::kernels
