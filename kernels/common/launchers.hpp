// launchers.hpp — host functions that launch TileScope's kernels.
//
// Plain C++ can include this header: the runner (app/gpu/runner_cuda.cxx) is compiled by
// the host compiler and never sees device code, which lives in the .cu files next to it.
// Every launcher takes device pointers, computes its grid with ts::model::plan_launch (the
// same numbers the app draws), launches on `stream` and returns cudaGetLastError(), so a
// rejected launch ("invalid configuration argument") comes back to the caller as an error
// code instead of being lost.
//
// The launchers are templates on the element type; each .cu file instantiates them for
// std::int32_t, float and double. cuBLAS, the reference line, is not a kernel of ours: the
// runner calls it (app/gpu/cublas_library.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "model/kernel_config.hpp"
#include "model/kernel_trace.hpp"
#include "model/problem.hpp"

namespace ts::kernels {

// `batch` row-major matrices of each operand, stored one after another: A is batch×M×K,
// B is batch×K×N, C is batch×M×N. Block z of the grid works on batch z.
template <typename T>
struct Operands {
    const T* a = nullptr;
    const T* b = nullptr;
    T* c = nullptr;
};

// 01_naive.cu: config.kind == Naive, blockDim = (block_x, block_y).
template <typename T>
cudaError_t launch_naive(const model::KernelConfig& config, const model::Problem& problem,
                         Operands<T> operands, cudaStream_t stream);

// 02_naive_row_from_x.cu: config.kind == NaiveRowFromX, blockDim = (block_x, block_y).
template <typename T>
cudaError_t launch_naive_row_from_x(const model::KernelConfig& config, const model::Problem& problem,
                                    Operands<T> operands, cudaStream_t stream);

// 03_row_per_thread.cu: config.kind == RowPerThread, 1-D blocks of block_x threads.
template <typename T>
cudaError_t launch_row_per_thread(const model::KernelConfig& config, const model::Problem& problem,
                                  Operands<T> operands, cudaStream_t stream);

// 04_column_per_thread.cu: config.kind == ColumnPerThread, 1-D blocks of block_x threads.
template <typename T>
cudaError_t launch_column_per_thread(const model::KernelConfig& config, const model::Problem& problem,
                                     Operands<T> operands, cudaStream_t stream);

// 05_tiled.cu: config.kind == Tiled, blockDim = (T, T) for T in 1..32. Any other T has no
// compiled kernel and returns cudaErrorInvalidConfiguration without launching.
template <typename T>
cudaError_t launch_tiled(const model::KernelConfig& config, const model::Problem& problem,
                         Operands<T> operands, cudaStream_t stream);

// 06_regtile_1d.cu and 07_regtile_2d.cu, the ladder's register-tiled rungs: config.kind ==
// RegTile1d or RegTile2d; their block and tile shapes are fixed (model/ladder.hpp).
template <typename T>
cudaError_t launch_regtile_1d(const model::KernelConfig& config, const model::Problem& problem,
                              Operands<T> operands, cudaStream_t stream);
template <typename T>
cudaError_t launch_regtile_2d(const model::KernelConfig& config, const model::Problem& problem,
                              Operands<T> operands, cudaStream_t stream);

// 08_vectorized.cu to 12_tuned.cu, the float rungs (float4 loads; float only): config.kind
// names the rung; the tuned rung runs candidate config.variant of model::kTunedCandidates
// (candidate 0 for −1). Pipelined and tuned use dynamic shared memory, which the launcher
// asks CUDA for.
cudaError_t launch_vectorized(const model::KernelConfig& config, const model::Problem& problem,
                              Operands<float> operands, cudaStream_t stream);
cudaError_t launch_conflict_free(const model::KernelConfig& config, const model::Problem& problem,
                                 Operands<float> operands, cudaStream_t stream);
cudaError_t launch_warptile(const model::KernelConfig& config, const model::Problem& problem,
                            Operands<float> operands, cudaStream_t stream);
cudaError_t launch_pipelined(const model::KernelConfig& config, const model::Problem& problem,
                             Operands<float> operands, cudaStream_t stream);
cudaError_t launch_tuned(const model::KernelConfig& config, const model::Problem& problem, Operands<float> operands,
                         cudaStream_t stream);

// 13_wmma.cu to 19_tc_tuned.cu, the tensor-core rungs: A, B and C hold 16-bit values,
// BF16 or FP16 as problem.dtype says (cudaErrorInvalidValue for any other type), accumulated in
// FP32. Any M, N, K and batch. Wgmma, warp-specialized, persistent and tc-tuned are compiled for sm_90a alone: on any
// other GPU they return cudaErrorNoKernelImageForDevice without launching (tc_rung_unavailable
// says why in words first).
cudaError_t launch_wmma(const model::KernelConfig& config, const model::Problem& problem,
                        Operands<std::uint16_t> operands, cudaStream_t stream);
cudaError_t launch_mma(const model::KernelConfig& config, const model::Problem& problem,
                       Operands<std::uint16_t> operands, cudaStream_t stream);
cudaError_t launch_mma_async(const model::KernelConfig& config, const model::Problem& problem,
                             Operands<std::uint16_t> operands, cudaStream_t stream);
cudaError_t launch_wgmma(const model::KernelConfig& config, const model::Problem& problem,
                         Operands<std::uint16_t> operands, cudaStream_t stream);
cudaError_t launch_warp_specialized(const model::KernelConfig& config, const model::Problem& problem,
                                    Operands<std::uint16_t> operands, cudaStream_t stream);
cudaError_t launch_persistent(const model::KernelConfig& config, const model::Problem& problem,
                              Operands<std::uint16_t> operands, cudaStream_t stream);
// 19_tc_tuned.cu: 18's kernel in candidate config.variant of model::kTcTunedCandidates (candidate 0,
// 18's own shape, for −1).
cudaError_t launch_tc_tuned(const model::KernelConfig& config, const model::Problem& problem,
                            Operands<std::uint16_t> operands, cudaStream_t stream);
// 20_fp8.cu and 21_fp8_blocks.cu, the FP8 rungs: A (batch×M×K) and B (batch×N×K) as e4m3 codes,
// their scales as problem.fp8_scaling lays them out (model/fp8_values.hpp; fp8 takes one per
// tensor, fp8-blocks block scales, batch 1), C (batch×M×N) as BF16 bits: C = A·Bᵀ times the
// scales, accumulated in FP32. Any M, N, K. cudaErrorInvalidValue for another type or scaling;
// compiled for sm_90a alone, as 16 to 19.
struct ScaledFp8Operands {
    const std::uint8_t* a = nullptr;
    const std::uint8_t* b = nullptr;
    const float* a_scales = nullptr;
    const float* b_scales = nullptr;
    std::uint16_t* c = nullptr;
};
cudaError_t launch_fp8(const model::KernelConfig& config, const model::Problem& problem, ScaledFp8Operands operands,
                       cudaStream_t stream);
cudaError_t launch_fp8_blocks(const model::KernelConfig& config, const model::Problem& problem,
                              ScaledFp8Operands operands, cudaStream_t stream);
// Why the current device cannot run the tensor-core rung `kind`, in words, or null when it can (or
// when `kind` is not a tensor-core rung).
const char* tensor_core_rung_unavailable(model::KernelKind kind);

// Where a recorded kernel writes (device pointers, sized by model::load_records and
// model::clock_records; the slots are kernel_trace.hpp's). loads may be null: then only the
// SMs and the clocks are recorded.
struct TraceBuffers {
    model::RecordedLoad* loads = nullptr;
    model::PhaseClock* clocks = nullptr;
    std::uint32_t* block_sm = nullptr;
    // 16_wgmma_recorded.cu: stage 0 of block (0, 0), model::kRecordedStageWords words; may be null.
    std::uint16_t* stage_words = nullptr;
    // 17_warp_specialized_recorded.cu: model::role_clock_records clocks; may be null elsewhere.
    model::RoleClock* role_clocks = nullptr;
    // 14_mma_recorded.cu: warp 0's registers after its first ldmatrix of A and B,
    // model::kRecordedFragmentWords words; may be null.
    std::uint16_t* fragment_words = nullptr;
};

// 01_naive_recorded.cu and 05_tiled_recorded.cu: the naive (config.kind == Naive; config.tile
// chunks K into phases) and tiled kernels with records, in float, for one matrix (batch 1).
cudaError_t launch_naive_recorded(const model::KernelConfig& config, const model::Problem& problem,
                                  Operands<float> operands, TraceBuffers trace, cudaStream_t stream);
cudaError_t launch_tiled_recorded(const model::KernelConfig& config, const model::Problem& problem,
                                  Operands<float> operands, TraceBuffers trace, cudaStream_t stream);

// 07_regtile_2d_recorded.cu and 10_warptile_recorded.cu: two ladder rungs with records
// (config.kind == RegTile2d or Warptile; one record per load instruction, kernel_trace.hpp's
// ladder_load_record_slot; a phase is a K step), in float, for one matrix (batch 1). Warptile
// runs the form launch_warptile would: 128-bit loads when K and N are multiples of 4.
cudaError_t launch_regtile_2d_recorded(const model::KernelConfig& config, const model::Problem& problem,
                                       Operands<float> operands, TraceBuffers trace, cudaStream_t stream);
cudaError_t launch_warptile_recorded(const model::KernelConfig& config, const model::Problem& problem,
                                     Operands<float> operands, TraceBuffers trace, cudaStream_t stream);
// 14_mma_recorded.cu: the mma rung with records (a clock per block and K step, each block's SM, and
// warp 0 of block (0, 0)'s registers after its first ldmatrix.x4 of A and B), BF16, one matrix; A
// and B should hold element numbers (model::stage_element_number). Refused below compute
// capability 8.0 as 14 is.
cudaError_t launch_mma_recorded(const model::Problem& problem, Operands<std::uint16_t> operands, TraceBuffers trace,
                                cudaStream_t stream);
// 16_wgmma_recorded.cu: the wgmma rung with records (a clock per block and K step, each block's SM,
// and block (0, 0)'s first stage as TMA wrote it), BF16, one matrix; A and B should hold element
// numbers (model::stage_element_number). Refused off sm_90a as 16 is.
cudaError_t launch_wgmma_recorded(const model::Problem& problem, Operands<std::uint16_t> operands, TraceBuffers trace,
                                  cudaStream_t stream);
// 17_warp_specialized_recorded.cu: the warp-specialized rung with records (each role's wait, ready
// and done per K step on the SM's cycle counter, consumer 0's K steps on the global timer, each
// block's SM), BF16, one matrix. Refused off sm_90a as 17 is.
cudaError_t launch_warp_specialized_recorded(const model::Problem& problem, Operands<std::uint16_t> operands,
                                             TraceBuffers trace, cudaStream_t stream);

// What CUDA knows about the kernel a launcher would run for `config` and `problem` (the
// instantiation for its element type, plain or batched): the compiled kernel's resources
// (cudaFuncGetAttributes) and how many of its blocks, of the shape plan_launch gives, fit
// on one SM of the current device (cudaOccupancyMaxActiveBlocksPerMultiprocessor).
struct KernelAttributes {
    int registers_per_thread = 0;
    int static_shared_bytes = 0;
    int local_bytes_per_thread = 0;
    int max_threads_per_block = 0;
    int blocks_per_sm = 0;
};

// cudaErrorInvalidValue for cuBLAS (not a kernel of ours) and for a float rung asked for
// another element type, cudaErrorInvalidConfiguration for a tile outside 1..32 (no such
// kernel), else what CUDA answers. static_shared_bytes counts dynamic shared memory too.
cudaError_t kernel_attributes(const model::KernelConfig& config, const model::Problem& problem,
                              KernelAttributes& attributes);

// cudaSuccess when this build holds kernel code the current device can run; otherwise
// the error a launch would give (cudaErrorNoKernelImageForDevice on a GPU older than the
// architectures TileScope was compiled for).
cudaError_t kernel_image_status();

}  // namespace ts::kernels
