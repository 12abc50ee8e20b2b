// roofline.hpp — `tilescope roofline`: the GPU's peaks as TileScope measures them (copy
// bandwidth, cuBLAS SGEMM rate) and every kernel as a point under them: arithmetic
// intensity from the model, GFLOP/s measured, and its occupancy. FP32 only: the roof is
// the FP32 rate. No ImGui, no GL.
#pragma once

#include <iosfwd>
#include <string>

#include "gpu/runner.hpp"
#include "model/device_limits.hpp"
#include "sweep.hpp"

namespace CLI {
class App;
}

namespace ts::cli {

struct RooflineOptions {
    // --kernel (default all), --size (2048), --tile (16,32), --block, --threads; --dtype and
    // the rectangular and batch lists are not offered: the roof is FP32 and square.
    SweepLists lists;
    bool peaks_only = false;   // --peaks: measure the peaks, no kernels
};

CLI::App* add_roofline_command(CLI::App& app, RooflineOptions& options);

// Runs it. 0 on success, 1 when a measurement failed, 2 for bad arguments or no usable GPU.
int run_roofline(const RooflineOptions& options, std::ostream& out, std::ostream& err);

// ---- The report, separate from running so it is tested without a GPU ------------------

// The two peaks with their labels, and the ridge point.
std::string peaks_text(const gpu::RooflinePeaks& peaks);

// The attainable rate at `intensity` FLOP/byte: min(FP32 peak, intensity × bandwidth); the
// bandwidth slope alone when there is no FP32 peak.
double roof_gflops(const gpu::RooflinePeaks& peaks, double intensity);

// FLOP per byte for a point: the model's requested global traffic for TileScope's kernels;
// for cuBLAS (not modelled) the compulsory traffic, A and B read once and C written once,
// with `compulsory` set.
double point_intensity(const gpu::RunRequest& request, bool& compulsory);

std::string roofline_header();
std::string roofline_row(const gpu::RunResult& result, const gpu::RooflinePeaks& peaks,
                         const model::DeviceLimits& limits);

}  // namespace ts::cli
