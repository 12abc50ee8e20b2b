// Teaches: what a missing barrier does, thread by thread. This is the tiled kernel with the
// first, the second or neither barrier taken out, run on inputs whose every element says
// where it is (model::watched_value: A[r][c] = r·K + c + 1, B[r][c] = r·N + c + 1). Each thread
// compares every value it reads from As and Bs with the element the phase should hold there,
// and writes down each mismatch (a model::StaleRead: block, phase, slot, reader, clock, the
// value expected and the value got); each thread also stamps the SM clock of its own stores
// into As and Bs, so the host can say when the slot's writer stored it. The host then works
// out which phase's element the reader got (experiment_runner.cxx).
// Changed from 05_tiled.cu: the barriers are template parameters (Keeps…), the reads of As
// and Bs are compared and stamped, the stores are stamped; the index math and the sum are the
// same. Why a kernel of its own: the stamps and checks cost time and change how the warps
// interleave, so it shows what a race looks like, not how often the plain broken variants
// (05_tiled_missing_first_sync.cu, 05_tiled_missing_second_sync.cu) lose it.
// Float only, T = 8, 16 and 32, one matrix. Keeping both barriers is the control: the tests
// check that it never records a stale read.
#include <type_traits>

#include "kernels/experiments/experiment_launchers.hpp"
#include "kernels/common/launch_common.cuh"

namespace ts::kernels {

namespace {

// The kernel writes the records in place, field by field; the host copies them back as bytes.
static_assert(std::is_trivially_copyable_v<model::StaleRead>, "stale reads are copied back from the GPU as bytes");

// clock64() with a memory clobber: the compiler may not move a shared-memory load or store
// across it, so the stamp comes after the access it stamps was issued.
__device__ __forceinline__ long long watch_clock() {
    long long now;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(now)::"memory");
    return now;
}

// One mismatch: counted always, kept while its half of the buffer has room (phase 0's
// reads in the first half, the later phases' in the second).
__device__ void record_stale(const WatchBuffers& watch, int phase, char operand, int slot_row, int slot_col,
                             long long read_clock, float expected, float got) {
    atomicAdd(&watch.counts[0], 1ull);
    const int half = phase == 0 ? 0 : 1;
    const unsigned long long place = atomicAdd(&watch.counts[2 + half], 1ull);
    if (place >= static_cast<unsigned long long>(kWatchHalf)) return;
    model::StaleRead& read = watch.reads[half * kWatchHalf + place];
    read.block_x = static_cast<int>(blockIdx.x);
    read.block_y = static_cast<int>(blockIdx.y);
    read.phase = phase;
    read.operand = operand;
    read.slot_row = slot_row;
    read.slot_col = slot_col;
    read.reader_x = static_cast<int>(threadIdx.x);
    read.reader_y = static_cast<int>(threadIdx.y);
    read.read_clock = read_clock;
    read.expected = expected;
    read.got = got;
    // The host fills these in from the value and the store clocks.
    read.value_phase = -1;
    read.writer_x = read.writer_y = 0;
    read.write_clock = 0;
}

template <int Tile, bool KeepsFirst, bool KeepsSecond>
__global__ void tiled_watched_kernel(const float* a, const float* b, float* c, int m, int n, int k,
                                     WatchBuffers watch) {
    using namespace ts::model;
    __shared__ float as[Tile][Tile];
    __shared__ float bs[Tile][Tile];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = tiled_row(blockIdx.y, Tile, ty);
    const int col = tiled_col(blockIdx.x, Tile, tx);
    const int block = block_linear(blockIdx.x, blockIdx.y, gridDim.x);
    long long* const clocks = block < watch.clock_blocks ? watch.store_clocks : nullptr;

    float sum = 0;
    const int phases = phase_count(k, Tile);
    for (int phase = 0; phase < phases; ++phase) {
        const int a_col = tiled_a_col(phase, Tile, tx);
        const int b_row = tiled_b_row(phase, Tile, ty);
        as[ty][tx] = inside(row, a_col, m, k) ? a[row_major(row, a_col, k)] : 0.0f;
        if (clocks) clocks[watched_clock_slot(block, phases, phase, 0, Tile, ty, tx)] = watch_clock();
        bs[ty][tx] = inside(b_row, col, k, n) ? b[row_major(b_row, col, n)] : 0.0f;
        if (clocks) clocks[watched_clock_slot(block, phases, phase, 1, Tile, ty, tx)] = watch_clock();
        if constexpr (KeepsFirst) {
            // Every slot of As and Bs must be written before any thread reads it below.
            __syncthreads();
        }
        // Without KeepsFirst the barrier is missing on purpose: a read below may come before
        // the slot's thread has stored this phase's element (missing-first-sync).

        for (int i = 0; i < Tile; ++i) {
            const float a_got = as[ty][i];
            const long long a_clock = watch_clock();
            const float b_got = bs[i][tx];
            const long long b_clock = watch_clock();
            // What the slots hold in this phase when every store came before every read: the
            // element of this phase's tiles, or the zero padding outside the matrices.
            const float a_expected = watched_value(row, tiled_a_col(phase, Tile, i), m, k);
            const float b_expected = watched_value(tiled_b_row(phase, Tile, i), col, k, n);
            if (a_got != a_expected) record_stale(watch, phase, 'A', ty, i, a_clock, a_expected, a_got);
            if (b_got != b_expected) record_stale(watch, phase, 'B', i, tx, b_clock, b_expected, b_got);
            sum += a_got * b_got;
        }
        if constexpr (KeepsSecond) {
            // No thread may overwrite As or Bs for the next phase while another still reads them.
            __syncthreads();
        }
        // Without KeepsSecond the barrier is missing on purpose: a fast thread may store the
        // next phase's element into a slot a slow thread still reads (missing-second-sync).
    }
    atomicAdd(&watch.counts[1], 2ull * Tile * static_cast<unsigned long long>(phases));
    if (inside(row, col, m, n)) c[row_major(row, col, n)] = sum;
}

using WatchedKernel = void (*)(const float*, const float*, float*, int, int, int, WatchBuffers);

template <bool KeepsFirst, bool KeepsSecond>
constexpr WatchedKernel kernel_for(int tile) {
    return tile == 8 ? &tiled_watched_kernel<8, KeepsFirst, KeepsSecond>
         : tile == 16 ? &tiled_watched_kernel<16, KeepsFirst, KeepsSecond>
         : tile == 32 ? &tiled_watched_kernel<32, KeepsFirst, KeepsSecond>
                      : nullptr;
}

WatchedKernel watched_kernel(WatchedBarriers barriers, int tile) {
    switch (barriers) {
        case WatchedBarriers::FirstMissing: return kernel_for<false, true>(tile);
        case WatchedBarriers::SecondMissing: return kernel_for<true, false>(tile);
        case WatchedBarriers::BothKept: return kernel_for<true, true>(tile);
    }
    return nullptr;
}

}  // namespace

cudaError_t launch_tiled_watched(WatchedBarriers barriers, const model::KernelConfig& config,
                                 const model::Problem& problem, Operands<float> operands, WatchBuffers watch,
                                 cudaStream_t stream) {
    if (config.kind != model::KernelKind::Tiled || problem.batch != 1 || problem.dtype != model::Dtype::Float32 ||
        watch.reads == nullptr || watch.counts == nullptr)
        return cudaErrorInvalidValue;
    const WatchedKernel kernel = watched_kernel(barriers, config.tile);
    if (kernel == nullptr) return cudaErrorInvalidConfiguration;
    const model::LaunchGeometry g = model::plan_launch(config, problem);
    const dim3 grid(static_cast<unsigned>(g.grid.x), static_cast<unsigned>(g.grid.y));
    const dim3 block(static_cast<unsigned>(g.block.x), static_cast<unsigned>(g.block.y));
    kernel<<<grid, block, 0, stream>>>(operands.a, operands.b, operands.c, static_cast<int>(problem.m),
                                       static_cast<int>(problem.n), static_cast<int>(problem.k), watch);
    return cudaGetLastError();
}

}  // namespace ts::kernels
