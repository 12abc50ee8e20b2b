// Teaches: what the tiled kernel's inside() tests are for. A grid of whole T×T tiles covers
// more than C whenever M, N or K is not a multiple of T, and without the tests every thread
// loads and stores by its index alone, row-major, as if the matrices were wider and longer:
// - a load of A at a column ≥ K reads the next row's first elements; a row ≥ M (and the
//   last row's columns ≥ K) reads past A's end;
// - a load of B at a row ≥ K reads past B's end (every column of it); a column ≥ N reads the
//   next row's first elements;
// - a thread outside C stores anyway: at a column ≥ N onto cell (row + 1, col − N) of the
//   next row, racing with that cell's own thread; at a row ≥ M past C's end.
// Why it is safe to run: the runner surrounds A, B and C with guard zones of
// model::guard_elements() elements filled with a NaN (model::kGuardPoisonBits), so what is read
// past an end shows up as NaN in C and what is stored past C's end is found in the guard zone.
// Without the guard zones the same accesses would read and overwrite whatever lies next to the
// matrices, or fault.
// Changed from 05_tiled.cu: the three inside() tests are gone (loads and the store); the
// ghost threads still load and reach every barrier. Float only, T = 8, 16 and 32, one matrix
// (experiment no-bounds-check).
#include "kernels/experiments/experiment_launchers.hpp"
#include "kernels/experiments/tiled_variant.cuh"

namespace ts::kernels {

namespace {

template <int Tile>
__global__ void tiled_no_bounds_check_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
    using namespace ts::model;
    __shared__ float as[Tile][Tile];
    __shared__ float bs[Tile][Tile];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = tiled_row(blockIdx.y, Tile, ty);
    const int col = tiled_col(blockIdx.x, Tile, tx);
    (void)m;  // the real kernel tests rows against M; this one never does

    float sum = 0;
    const int phases = phase_count(k, Tile);
    for (int phase = 0; phase < phases; ++phase) {
        const int a_col = tiled_a_col(phase, Tile, tx);
        const int b_row = tiled_b_row(phase, Tile, ty);
        // No inside(): no zero padding either. Indices past a row run on into the next row,
        // indices past the last row run off the matrix.
        as[ty][tx] = a[row_major(row, a_col, k)];
        bs[ty][tx] = b[row_major(b_row, col, n)];
        // Every slot of As and Bs must be written before any thread reads it below.
        __syncthreads();

        for (int i = 0; i < Tile; ++i) sum += as[ty][i] * bs[i][tx];
        // No thread may overwrite As or Bs for the next phase while another still reads them.
        __syncthreads();
    }
    // No inside(): every thread of the grid stores, the ghost threads too.
    c[row_major(row, col, n)] = sum;
}

constexpr MatmulKernel<float> kernel_for(int tile) {
    return tile == 8 ? &tiled_no_bounds_check_kernel<8>
         : tile == 16 ? &tiled_no_bounds_check_kernel<16>
         : tile == 32 ? &tiled_no_bounds_check_kernel<32>
                      : nullptr;
}

}  // namespace

cudaError_t launch_tiled_no_bounds_check(const model::KernelConfig& config, const model::Problem& problem,
                                         Operands<float> operands, cudaStream_t stream) {
    return launch_tiled_variant(kernel_for(config.tile), config, problem, operands, stream);
}

}  // namespace ts::kernels
