#include "roofline_view.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "model/format.hpp"
#include "model/traffic.hpp"
#include "text.hpp"
#include "theme.hpp"

namespace ts::views {

using model::format_text;

namespace {

using model::fixed;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kSize = 2048;

// Published peaks (NVIDIA's data sheets: HBM/GDDR bandwidth, FP32 without tensor cores),
// for a roofline without a GPU to measure. Matched on the GPU's name.
struct DataSheet {
    const char* name_part;
    double bandwidth_gbs;
    double fp32_gflops;
};
constexpr DataSheet kDataSheets[] = {
    {"H200", 4800, 67000},      {"H100", 3350, 67000},     {"A100", 1555, 19500},
    {"3090", 936, 35600},       {"V100", 900, 15700},      {"TITAN X", 336.5, 6600},
};

struct KernelMark {
    model::KernelConfig kernel;
    ImU32 colour;
};

}  // namespace

RooflinePeaksShown roofline_peaks(const AppState& state) {
    RooflinePeaksShown shown;
    if (state.lab.peaks) {
        shown.bandwidth_gbs = state.lab.peaks->bandwidth_gbs;
        shown.fp32_gflops = state.lab.peaks->fp32_gflops;
        shown.source = "measured on this GPU: " + state.lab.peaks->bandwidth_label + "; " + state.lab.peaks->fp32_label;
        return shown;
    }
    std::string name = "NVIDIA H200";
    if (state.lab.recording) name = state.lab.recording->meta.device.name;
    else if (state.device && state.device->usable) name = state.device->limits.name;
    for (const DataSheet& sheet : kDataSheets)
        if (name.find(sheet.name_part) != std::string::npos) {
            shown.bandwidth_gbs = sheet.bandwidth_gbs;
            shown.fp32_gflops = sheet.fp32_gflops;
            shown.source = format_text("data sheet of the {}, model", name);
            return shown;
        }
    shown.bandwidth_gbs = kDataSheets[0].bandwidth_gbs;
    shown.fp32_gflops = kDataSheets[0].fp32_gflops;
    shown.source = "data sheet of the NVIDIA H200, model";
    return shown;
}

void draw_roofline_view(AppState& state, ImVec2 size) {
    LabState& lab = state.lab;
    const bool gpu = state.device && state.device->usable;
    // The GPU's own peaks, measured once per session.
    if (gpu && !lab.peaks && !lab.peaks_requested) {
        gpu::RunRequest request;
        request.kind = gpu::RequestKind::Roofline;
        request_live(lab, "roofline", request);
        lab.peaks_requested = true;
    }
    const RooflinePeaksShown peaks = roofline_peaks(state);

    Plot& plot = lab.roofline_plot;
    plot.x = {"arithmetic intensity, model: FLOPs per byte requested before caches", "FLOP/B", AxisScale::Log10};
    plot.y = {"achieved throughput", "GFLOP/s", AxisScale::Log10};
    plot.export_path = "tilescope_roofline";

    std::vector<PlotSeries> series;
    const double knee = peaks.fp32_gflops / peaks.bandwidth_gbs;
    char roof_name[96];
    std::snprintf(roof_name, sizeof roof_name, "roof: %.0f GB/s, %.1f TFLOP/s FP32", peaks.bandwidth_gbs,
                  peaks.fp32_gflops / 1000.0);
    PlotSeries roof{roof_name, IM_COL32(20, 20, 20, 255), {}, true, true, false};
    roof.points = {{0.05, 0.05 * peaks.bandwidth_gbs, kNaN, kNaN, "memory roof"},
                   {knee, peaks.fp32_gflops, kNaN, kNaN, "ridge point"},
                   {100.0, peaks.fp32_gflops, kNaN, kNaN, "FP32 peak"}};
    series.push_back(std::move(roof));

    const LatencyControls& c = lab.latency;
    const KernelMark marks[] = {
        {{model::KernelKind::Naive, c.naive_x, c.naive_y, 16}, IM_COL32(205, 60, 40, 255)},
        {{model::KernelKind::NaiveRowFromX, c.naive_x, c.naive_y, 16}, IM_COL32(150, 60, 170, 255)},
        {{model::KernelKind::Tiled, 16, 16, 8}, IM_COL32(70, 140, 210, 255)},
        {{model::KernelKind::Tiled, 16, 16, 16}, IM_COL32(25, 80, 160, 255)},
        {{model::KernelKind::Tiled, 16, 16, 32}, IM_COL32(10, 50, 120, 255)},
    };
    model::Problem problem;
    problem.m = problem.n = problem.k = kSize;
    const auto points = lab_points(lab);
    for (const KernelMark& mark : marks) {
        const std::string config = model::describe(mark.kernel);
        const record::Point* p = find_point(points, config, kSize, "float");
        if (!p) continue;
        const model::Traffic traffic = model::count_traffic(mark.kernel, problem);
        const double intensity = traffic.arithmetic_intensity(4);
        // The model's traffic over the measured time: the bandwidth the kernel would need if
        // every requested byte came from DRAM, against what the GPU's DRAM gives.
        const double needed_gbs = double(traffic.global_bytes(4)) / (p->median_ms * 1e6);
        const std::string note =
            format_text("{} FLOP/B (model), {} GFLOP/s measured at 2048³\n"
                   "model traffic {} in {} ms: {} GB/s, {}× the {} GB/s peak",
                   fixed(intensity, 3), fixed(p->gflops, 0), model::human_bytes(traffic.global_bytes(4)),
                   fixed(p->median_ms, 3), fixed(needed_gbs, 0), fixed(needed_gbs / peaks.bandwidth_gbs, 2),
                   fixed(peaks.bandwidth_gbs, 0));
        series.push_back({config, mark.colour, {{intensity, p->gflops, kNaN, kNaN, note}}, true, false, true});
    }
    // cuBLAS's traffic is not modelled, so it has no x: a level line instead of a point.
    if (const record::Point* cublas = find_point(points, "cublas", kSize, "float"))
        series.push_back({format_text("cuBLAS (level only: traffic not modelled)"), IM_COL32(120, 120, 120, 255),
                          {{0.05, cublas->gflops, kNaN, kNaN, ""}, {100.0, cublas->gflops, kNaN, kNaN, ""}}, true, true,
                          false});
    for (PlotSeries& s : series)
        for (const PlotSeries& old : plot.series)
            if (old.name == s.name) s.visible = old.visible;
    plot.series = std::move(series);

    heading("Roofline at 2048³, float");
    if (!lab.peaks) {
        muted_text(format_text("Peaks: {} ({}). {}", gpu ? "being measured on this GPU…" : "not measured (no GPU)",
                          peaks.source, lab.recording ? "Points: " + lab.recording_label + "." : ""));
    } else {
        muted_text("Peaks " + peaks.source);
    }
    const float note_height = ImGui::GetTextLineHeightWithSpacing() * 3.5f;
    draw_plot("##roofline", plot, ImVec2(size.x, std::max(size.y - note_height - ImGui::GetCursorPosY(), 200.0f)));
    muted_text("Why can naive sit above its memory roof? The model counts every byte the kernel requests from global "
               "memory, before caches. Neighbouring threads read the same elements of A and B, and L1 and L2 serve "
               "most of those requests, so far fewer bytes come from DRAM than the model's intensity assumes.");
}

}  // namespace ts::views
