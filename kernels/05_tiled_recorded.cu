// Teaches: what the tiled kernel really does on a GPU, thread by thread: the player replays
// this trace "as recorded on <GPU>", and a gpu test checks it against the model.
// Changed from 05_tiled.cu: the same index math and loop, plus three records. Each thread
// writes down the element it loads into As and Bs in every phase (or that it wrote padding);
// thread (0, 0) stamps the start and end of every phase and the SM the block runs on.
// Traffic: 05's loads, plus the records' global stores, so the times show order and overlap,
// not the kernel's speed.
#include <array>
#include <utility>

#include "kernels/common/launch_common.cuh"
#include "kernels/common/recording.cuh"

namespace ts::kernels {

namespace {

template <int Tile>
__global__ void tiled_recorded_kernel(const float* a, const float* b, float* c, int m, int n, int k,
                                      TraceBuffers trace) {
    using namespace ts::model;
    __shared__ float as[Tile][Tile];
    __shared__ float bs[Tile][Tile];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = tiled_row(blockIdx.y, Tile, ty);
    const int col = tiled_col(blockIdx.x, Tile, tx);
    const int block = block_linear(blockIdx.x, blockIdx.y, gridDim.x);
    const bool stamps = tx == 0 && ty == 0;
    if (stamps) trace.block_sm[block] = current_sm();

    float sum = 0;
    const int phases = phase_count(k, Tile);
    for (int phase = 0; phase < phases; ++phase) {
        PhaseClock& clock = trace.clocks[phase_clock_slot(block, phases, phase)];
        if (stamps) stamp_start(clock);
        const int a_col = tiled_a_col(phase, Tile, tx);
        const int b_row = tiled_b_row(phase, Tile, ty);
        const bool a_inside = inside(row, a_col, m, k);
        const bool b_inside = inside(b_row, col, k, n);
        as[ty][tx] = a_inside ? a[row_major(row, a_col, k)] : 0.0f;
        bs[ty][tx] = b_inside ? b[row_major(b_row, col, n)] : 0.0f;
        if (trace.loads) {
            const int slot = ty * Tile + tx;
            trace.loads[tiled_load_slot(block, phases, phase, 0, Tile, tx, ty)] =
                RecordedLoad{row, a_col, slot, a_inside ? RecordedLoad::kLoaded : RecordedLoad::kPadding};
            trace.loads[tiled_load_slot(block, phases, phase, 1, Tile, tx, ty)] =
                RecordedLoad{b_row, col, slot, b_inside ? RecordedLoad::kLoaded : RecordedLoad::kPadding};
        }
        // Every slot of As and Bs must be written before any thread reads it below.
        __syncthreads();

        for (int i = 0; i < Tile; ++i) sum += as[ty][i] * bs[i][tx];
        // No thread may overwrite As or Bs for the next phase while another still reads them;
        // after this barrier the whole block has finished the phase, so the stamp is its end.
        __syncthreads();
        if (stamps) stamp_end(clock);
    }
    if (inside(row, col, m, n)) c[row_major(row, col, n)] = sum;
}

template <int... Index>
constexpr auto make_recorded_kernels(std::integer_sequence<int, Index...>) {
    using Kernel = void (*)(const float*, const float*, float*, int, int, int, TraceBuffers);
    return std::array<Kernel, sizeof...(Index)>{&tiled_recorded_kernel<Index + 1>...};
}

constexpr auto kRecordedKernels = make_recorded_kernels(std::make_integer_sequence<int, model::kMaxTile>{});

}  // namespace

cudaError_t launch_tiled_recorded(const model::KernelConfig& config, const model::Problem& problem,
                                  Operands<float> operands, TraceBuffers trace, cudaStream_t stream) {
    if (config.kind != model::KernelKind::Tiled || problem.batch != 1) return cudaErrorInvalidValue;
    if (config.tile < 1 || config.tile > model::kMaxTile) return cudaErrorInvalidConfiguration;
    const model::LaunchGeometry g = model::plan_launch(config, problem);
    const dim3 grid(static_cast<unsigned>(g.grid.x), static_cast<unsigned>(g.grid.y));
    const dim3 block(static_cast<unsigned>(g.block.x), static_cast<unsigned>(g.block.y));
    kRecordedKernels[config.tile - 1]<<<grid, block, 0, stream>>>(
        operands.a, operands.b, operands.c, static_cast<int>(problem.m), static_cast<int>(problem.n),
        static_cast<int>(problem.k), trace);
    return cudaGetLastError();
}

}  // namespace ts::kernels
