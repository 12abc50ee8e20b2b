// error_speed_view.hpp — what each step in speed costs in accuracy: the ladder view's second page
// (--ladder-page errors). Every 16- and 8-bit point the lab has, each rung and cuBLAS in BF16, FP16,
// FP8 scaled per tensor and FP8 block-scaled, at its speed (TFLOP/s, x) and its error against FP64
// (log y): ‖C − exact‖ / ‖exact‖ with `exact` the FP64 product of the FP32 values every type's
// inputs start as (gpu::RunResult::error_vs_fp64_rms), so the rounding of the inputs to 16 or 8
// bits counts with the kernel's own. One marker per point, named by its rung; hovering one gives its
// type, size, speed and both errors (the largest and the RMS). The caption takes the size where the
// most types were measured and walks the fastest point of each type there, slowest first: how much
// faster each step is, and how much more error it brings. Points measured before TileScope recorded
// the error are left out, and counted. Points come from lab_points: the loaded measurement, with
// this session's live points.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "imgui.h"
#include "views/window/app_state.hpp"

namespace ts::views {

struct ErrorSpeedMark {
    std::string rung;         // "wgmma", "tc-tuned", "cuBLAS" (cuBLASLt for FP8)
    std::string dtype;        // the series: "bf16", "fp16", "fp8 per tensor" or "fp8 block"
    std::string size;         // "4096³", "4099×4095×4097", "1024³ ×8"
    std::int64_t work = 0;    // M·N·K·batch: the size, to group points by
    bool hot = false;         // measured hot (L2 warm), said in the tooltip
    double tflops = 0.0;
    double error_max = 0.0;   // record::Point::error_vs_fp64_max
    double error_rms = 0.0;   // record::Point::error_vs_fp64_rms: the y
    ImU32 colour = 0;         // its type's
};

struct ErrorSpeedData {
    std::vector<ErrorSpeedMark> marks;  // in lab_points' order
    // 16- and 8-bit points measured without the error against FP64 (recorded before TileScope measured
    // it, or not checked), or with an RMS error of exactly 0, which a log axis cannot show: left out.
    int left_out = 0;
};

// The series, in the order the legend lists them, and each one's colour.
inline constexpr const char* kErrorSpeedTypes[] = {"bf16", "fp16", "fp8 per tensor", "fp8 block"};
ImU32 error_speed_colour(const std::string& dtype);

// The marks of every measured 16- and 8-bit point in the lab (lab_points).
ErrorSpeedData error_speed_data(const LabMeasurements& measured);

// The caption: at the size where the most types were measured, the fastest point of each type,
// slowest first, each with its speed-up over the one before and how much more error it brings.
// Empty without marks.
std::string error_speed_caption(const ErrorSpeedData& data);

// What to run to have points to draw, said where there are none.
std::string error_speed_empty_text(const ErrorSpeedData& data, bool usable_gpu);

// The ladder view's page: "Bars" or "Error against speed", as a row of radio buttons. True when it changed.
bool draw_ladder_page_choice(LadderPage& page);

// The plot, `size` pixels large, at the cursor, with its caption, or what to run where no point has the
// error. Writes the plot's view (pan, zoom, hidden types).
void draw_error_speed_view(LabState& lab, const AppState& app, ImVec2 size);

}  // namespace ts::views
