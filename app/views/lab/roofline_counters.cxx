#include "views/lab/roofline_counters.hpp"

#include <algorithm>
#include <limits>

#include "model/format.hpp"
#include "model/traffic.hpp"

namespace ts::views {

using model::fixed;
using model::format_text;

namespace {

// Orange: no kernel on the roofline has it (naive red and purple, tiled blue, the ladder green).
constexpr ImU32 kMeasuredColour = IM_COL32(235, 125, 0, 255);

double roof_at(double intensity, double bandwidth_gbs, double fp32_gflops) {
    return std::min(intensity * bandwidth_gbs, fp32_gflops);
}

std::optional<double> measured_dram_bytes(const model::CounterReport& report) {
    for (const model::CounterReading& reading : report.readings)
        if (reading.counter == model::Counter::DramBytes && reading.measured > 0.0) return reading.measured;
    return std::nullopt;
}

}  // namespace

std::vector<MeasuredDramPoint> measured_dram_points(const AppState& app, int size, double bandwidth_gbs,
                                                    double fp32_gflops) {
    std::vector<MeasuredDramPoint> points;
    const auto lab_measured = lab_points(app.lab.measured);
    for (const auto& [key, read] : app.lab.panels.counter_reads) {
        if (!read.report) continue;
        const model::CounterReport& report = *read.report;
        const model::Problem& p = report.problem;
        if (p.m != size || p.n != size || p.k != size || p.batch != 1 || p.dtype != model::Dtype::Float32) continue;
        const model::Traffic traffic = model::count_traffic(report.kernel, p);
        const auto dram = measured_dram_bytes(report);
        // cuBLAS has no model point to stand beside.
        if (!traffic.modelled || !dram || traffic.global_bytes(4) <= 0) continue;
        MeasuredDramPoint point;
        point.name = model::describe(report.kernel);
        point.flops = static_cast<double>(traffic.flops);
        point.model_bytes = static_cast<double>(traffic.global_bytes(4));
        point.dram_bytes = *dram;
        point.model_intensity = traffic.arithmetic_intensity(4);
        point.measured_intensity = point.flops / point.dram_bytes;
        if (const record::Point* timed = find_point(lab_measured, point.name, size, "float")) {
            point.timed = true;
            point.gflops = point.model_gflops = timed->gflops;
        } else {
            point.gflops = roof_at(point.measured_intensity, bandwidth_gbs, fp32_gflops);
            point.model_gflops = roof_at(point.model_intensity, bandwidth_gbs, fp32_gflops);
        }
        points.push_back(std::move(point));
    }
    return points;
}

void add_measured_dram_series(std::vector<PlotSeries>& series, const std::vector<MeasuredDramPoint>& points) {
    if (points.empty()) return;
    PlotSeries measured;
    measured.name = kMeasuredDramSeries;
    measured.colour = kMeasuredColour;
    measured.lines = false;
    for (const MeasuredDramPoint& p : points) {
        std::string note = format_text(
            "{}: {} FLOP/B from the DRAM bytes the counters measured ({} read + written in one launch), against {} "
            "FLOP/B from the model's {} requested before caches: the caches kept {}× of the requested bytes away "
            "from DRAM",
            p.name, fixed(p.measured_intensity, 2), model::human_bytes(static_cast<std::int64_t>(p.dram_bytes)),
            fixed(p.model_intensity, 2), model::human_bytes(static_cast<std::int64_t>(p.model_bytes)),
            fixed(p.model_bytes / p.dram_bytes, 1));
        note += p.timed ? format_text("\n{} GFLOP/s as measured in the lab", fixed(p.gflops, 0))
                        : std::string("\nno timing: placed on the roof (measure this kernel at this size to place it)");
        measured.points.push_back({p.measured_intensity, p.gflops, kNaN, kNaN, std::move(note)});
    }
    series.push_back(std::move(measured));
}

namespace {

bool measured_dram_shown(const Plot& plot) {
    const auto shown = std::find_if(plot.series.begin(), plot.series.end(),
                                    [](const PlotSeries& s) { return s.name == kMeasuredDramSeries; });
    return shown != plot.series.end() && shown->visible;
}

std::optional<ImVec2> pixel(const PlotFrame& frame, double x, double y) {
    const auto px = frame.x.to_pixel(x);
    const auto py = frame.y.to_pixel(y);
    if (!px || !py) return std::nullopt;
    return ImVec2(static_cast<float>(*px), static_cast<float>(*py));
}

}  // namespace

void draw_measured_dram_links(const PlotFrame& frame, const Plot& plot, const std::vector<MeasuredDramPoint>& points) {
    if (!measured_dram_shown(plot)) return;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(frame.area_min, frame.area_max, true);
    for (const MeasuredDramPoint& p : points) {
        const auto model = pixel(frame, p.model_intensity, p.model_gflops);
        const auto measured = pixel(frame, p.measured_intensity, p.gflops);
        if (model && measured) draw->AddLine(*model, *measured, kMeasuredColour, 1.0f);
    }
    draw->PopClipRect();
}

void draw_measured_dram_points(const PlotFrame& frame, const Plot& plot, const std::vector<MeasuredDramPoint>& points) {
    if (!measured_dram_shown(plot)) return;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(frame.area_min, frame.area_max, true);
    const float radius = ImGui::GetFontSize() * 0.22f;
    for (const MeasuredDramPoint& p : points)
        if (const auto measured = pixel(frame, p.measured_intensity, p.gflops)) {
            draw->AddCircleFilled(*measured, radius + 1.5f, IM_COL32_WHITE);
            draw->AddCircleFilled(*measured, radius, kMeasuredColour);
        }
    draw->PopClipRect();
}

}  // namespace ts::views
