// Teaches: staging T×T tiles of A and B in shared memory so each global element is loaded once per block, not once per thread.
// Changed from 01_naive.cu (one thread per cell again): T×T blocks walk K a tile at a time, zero-padding tiles past an edge.
// Traffic: ts::model::count_traffic with KernelKind::Tiled predicts it (2·M·N·K/T global loads when T divides M, N and K).
#include <array>
#include <utility>

#include "kernels/common/launch_common.cuh"

namespace ts::kernels {

namespace {

// The tile width is a template parameter because __shared__ arrays need a size known at
// compile time; launch_tiled picks the instantiation for the T the user asked for.
template <typename T, int Tile, bool Batched>
__global__ void tiled_kernel(const T* a, const T* b, T* c, int m, int n, int k) {
    using namespace ts::model;
    __shared__ T as[Tile][Tile];
    __shared__ T bs[Tile][Tile];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = tiled_row(blockIdx.y, Tile, ty);
    const int col = tiled_col(blockIdx.x, Tile, tx);

    select_batch<Batched>(a, b, c, m, n, k);

    // Ghost threads (row or col outside C) do not return early: they still load their share
    // of each tile and reach every barrier, because the threads inside C need both.
    T sum = 0;
    const int phases = phase_count(k, Tile);
    for (int phase = 0; phase < phases; ++phase) {
        const int a_col = tiled_a_col(phase, Tile, tx);
        const int b_row = tiled_b_row(phase, Tile, ty);
        // A slot whose element lies outside the matrix gets 0, which adds nothing below.
        as[ty][tx] = inside(row, a_col, m, k) ? a[row_major(row, a_col, k)] : T(0);
        bs[ty][tx] = inside(b_row, col, k, n) ? b[row_major(b_row, col, n)] : T(0);
        // Without this barrier a thread could read a slot of As or Bs that another thread
        // has not written yet, and add a stale value from the previous phase.
        __syncthreads();

        for (int i = 0; i < Tile; ++i) sum += as[ty][i] * bs[i][tx];
        // Without this barrier a fast thread could start the next phase and overwrite a
        // slot that a slower thread is still reading for this one.
        __syncthreads();
    }
    if (inside(row, col, m, n)) c[row_major(row, col, n)] = sum;
}

// tiled_kernel<T, 1, Batched> ... tiled_kernel<T, kMaxTile, Batched>, indexed by T - 1.
template <typename T, bool Batched, int... Index>
constexpr std::array<MatmulKernel<T>, sizeof...(Index)> make_tiled_kernels(std::integer_sequence<int, Index...>) {
    return {&tiled_kernel<T, Index + 1, Batched>...};
}

template <typename T, bool Batched>
constexpr auto kTiledKernels = make_tiled_kernels<T, Batched>(std::make_integer_sequence<int, model::kMaxTile>{});

bool tile_has_kernel(int tile) { return tile >= 1 && tile <= model::kMaxTile; }

}  // namespace

const void* tiled_handle(const model::KernelConfig& config, const model::Problem& problem) {
    if (!tile_has_kernel(config.tile)) return nullptr;
    return kernel_handle(problem, [&](auto zero) {
        using T = decltype(zero);
        return pick_kernel<T>(kTiledKernels<T, false>[config.tile - 1], kTiledKernels<T, true>[config.tile - 1],
                              problem);
    });
}

template <typename T>
cudaError_t launch_tiled(const model::KernelConfig& config, const model::Problem& problem,
                         Operands<T> operands, cudaStream_t stream) {
    if (config.kind != model::KernelKind::Tiled) return cudaErrorInvalidValue;
    if (!tile_has_kernel(config.tile)) return cudaErrorInvalidConfiguration;
    return launch_planned<T>(kTiledKernels<T, false>[config.tile - 1], kTiledKernels<T, true>[config.tile - 1], config,
                             problem, operands, stream);
}

template cudaError_t launch_tiled<std::int32_t>(const model::KernelConfig&, const model::Problem&,
                                                Operands<std::int32_t>, cudaStream_t);
template cudaError_t launch_tiled<float>(const model::KernelConfig&, const model::Problem&, Operands<float>,
                                         cudaStream_t);
template cudaError_t launch_tiled<double>(const model::KernelConfig&, const model::Problem&, Operands<double>,
                                          cudaStream_t);

}  // namespace ts::kernels
