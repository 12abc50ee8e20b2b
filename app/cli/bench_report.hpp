// bench_report.hpp — what `tilescope bench` prints and records, built from the runner's
// answers. Separate from running, so the formats are tested without a GPU.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpu/cpu_baseline.hpp"
#include "gpu/runner.hpp"
#include "model/device_limits.hpp"
#include "record/measurement_file.hpp"

namespace ts::cli {

// `text` left-aligned in `width` columns, counting code points ("×" is one); one space
// after it at least.
std::string padded(const std::string& text, int width);

record::Device device_record(const gpu::DeviceInfo& device);
// The timing settings every point of a run shares, read from one of its requests.
record::Timing timing_record(const gpu::RunRequest& request);
// One point; `cpu` is the CPU triple loop's time for its problem, when taken.
record::Point point_record(int index, const gpu::RunResult& result, const std::optional<gpu::CpuTime>& cpu);

// A point's type as the tables write it: "bf16", "fp8" (scaled per tensor), "fp8 block".
std::string dtype_text(const std::string& dtype, const std::optional<std::string>& fp8_scaling);

// The terminal table of a sweep: a header line, then one line per point.
std::string table_header();
std::string table_row(const record::Point& point);

// "[ 12/117] tiled T=16  2048×2048×2048 float" (before the point runs).
std::string progress_start(int index, int count, const gpu::RunRequest& request);
// "SM 1,690 MHz (1,650–1,755), 655 W; held back by the power cap": the clock while the samples
// ran, or why it was not read.
std::string clock_text(const gpu::ClockSummary& clocks);

// "1.93 ms ±0.3 % (214 samples)" or "failed: ..." (after it ran).
std::string progress_result(const gpu::RunResult& result);

// The kernel a result ran: its request's, with the tuned rung's variant filled in where
// the runner chose it (RunResult::tuned_variant).
model::KernelConfig kernel_that_ran(const gpu::RunResult& result);

// "8 blocks/SM (limited by threads per SM, and equally by registers), 100 % occupancy,
// 18.96 waves; 32 registers/thread": the model's occupancy with the registers CUDA reports
// for the compiled kernel, and CUDA's own count where it differs. Empty when the result
// has no occupancy (cuBLAS, a failed run).
std::string occupancy_text(const gpu::RunResult& result, const model::DeviceLimits& limits);

// Each kernel against cuBLAS where a run measured both at the same size and type (as
// `--kernel ladder` does): median over median in %, with the kernel's registers, spills and
// occupancy (occupancy_text). Empty when no size has cuBLAS and another kernel.
std::string versus_cublas(const std::vector<gpu::RunResult>& results, const model::DeviceLimits& limits);

// The energy of every point that measured it (gpu/energy.hpp): joules per matmul, TFLOP/J, watts and
// the SM clock while it ran back to back, and where cuBLAS ran at the same size, type and mode, the
// kernel's joules over cuBLAS's. Points that asked and could not say why, once. Empty when no point
// asked for the energy.
std::string energy_table(const std::vector<gpu::RunResult>& results);

// "max rel. error 3.10e-03, RMS rel. error 1.20e-03 against FP64 on the FP32 inputs before rounding
// to bf16": a result's error against FP64 (gpu::has_error_vs_fp64), with what it was measured on
// for its type (the same FP32 inputs; before rounding to 16 bits; before quantisation).
std::string error_vs_fp64_text(const gpu::RunResult& result);

// The error against FP64 of every point that measured it (gpu::has_error_vs_fp64): kernel, size,
// type, TFLOP/s, and the largest and the RMS relative error. Empty when no point has it.
std::string error_table(const std::vector<gpu::RunResult>& results);

// The command line that started this process, as typed (from /proc/self/cmdline), or
// `fallback` where that cannot be read.
std::string own_command_line(const std::string& fallback);

// "1.930 ms", "142.2 ms", "12.3 µs": four significant digits for a duration in ms.
std::string ms_text(double ms);

}  // namespace ts::cli
