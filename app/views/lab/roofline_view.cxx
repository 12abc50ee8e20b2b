#include "views/lab/roofline_view.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cstdio>
#include <limits>
#include <optional>

#include "views/lab/ladder_view.hpp"
#include "model/format.hpp"
#include "model/traffic.hpp"
#include "platform/imgui_compat.hpp"
#include "views/lab/roofline_counters.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

using model::format_text;

namespace {

using model::fixed;

constexpr int kSize = kRooflineSize;

// Published peaks (NVIDIA's data sheets: HBM/GDDR bandwidth, FP32 without tensor cores),
// for a roofline without a GPU to measure. Matched on the GPU's name.
// The tensor cores' dense BF16 (FP16 on the V100, which has no BF16) with FP32 accumulation; 0
// where the GPU has none.
struct DataSheet {
    const char* name_part;
    double bandwidth_gbs;
    double fp32_gflops;
    double bf16_gflops;
};
constexpr DataSheet kDataSheets[] = {
    {"H200", 4800, 67000, 989000}, {"H100", 3350, 67000, 989000}, {"A100", 1555, 19500, 312000},
    {"3090", 936, 35600, 71000},   {"V100", 900, 15700, 125000},  {"TITAN X", 336.5, 6600, 0},
};

// Right of the intensities of the FP32 rungs (up to about 43 FLOP/B) and of the tensor cores' ridge
// (about 300 FLOP/B on an H100) and rungs (up to 128), so that their labels have room.
constexpr double kRoofEnd = 1000.0;
constexpr const char* kLadderSeries = "kernel ladder";
constexpr const char* kTensorCoreSeries = "tensor-core ladder (BF16)";

struct KernelMark {
    model::KernelConfig kernel;
    ImU32 colour;
};

// The naive kernels and the smaller tiles in the latency view's colours: the kernels the
// roofline shows beside the ladder's rungs.
std::vector<KernelMark> other_kernels(const LatencyControls& c) {
    return {
        {{model::KernelKind::Naive, c.naive_x, c.naive_y, 16}, kernel_curve_colour(model::KernelKind::Naive)},
        {{model::KernelKind::NaiveRowFromX, c.naive_x, c.naive_y, 16}, kernel_curve_colour(model::KernelKind::NaiveRowFromX)},
        {{model::KernelKind::Tiled, 16, 16, 8}, IM_COL32(70, 140, 210, 255)},
        {{model::KernelKind::Tiled, 16, 16, 16}, IM_COL32(25, 80, 160, 255)},
    };
}

// The roofline's kernels whose latest request at kSize failed, as marks on the plot's bottom
// edge at the model's intensity (they have no throughput); `failed` receives each one's
// failure in the same order, for a click to measure it again. cuBLAS has no intensity, so
// the ladder view says when it failed.
void fill_roofline_failures(Plot& plot, const AppState& app, std::vector<Failure>& failed) {
    const bool gpu = app.device && app.device->usable;
    const auto points = lab_points(app.lab.measured);
    const model::Problem problem{kSize, kSize, kSize, 1, model::Dtype::Float32};
    const std::vector<gpu::RunRequest> rungs = ladder_requests(kSize);  // as the ladder measures, cuBLAS last
    plot.failures.clear();
    const auto add = [&](const std::string& name, const model::KernelConfig& shown, const gpu::RunRequest& request,
                         ImU32 colour) {
        auto failure = failure_at(app.lab.measured, points, request);
        if (!failure) return;
        const double intensity = model::count_traffic(shown, problem).arithmetic_intensity(4);
        plot.failures.push_back({intensity, name, colour, failure_tooltip(*failure, gpu)});
        failed.push_back(std::move(*failure));
    };
    for (const KernelMark& mark : other_kernels(app.lab.choices.latency)) {
        gpu::RunRequest request = rungs.front();
        request.kernel = mark.kernel;
        add(model::describe(mark.kernel), mark.kernel, request, mark.colour);
    }
    const LadderData ladder = ladder_data(app, kSize);
    for (std::size_t i = 0; i < ladder.bars.size(); ++i)
        if (!ladder.bars[i].is_cublas) add(ladder.bars[i].name, ladder.bars[i].kernel, rungs[i], ladder.bars[i].colour);
    // The tensor-core rungs at their blocks' intensity (model::rung_counts).
    const std::vector<gpu::RunRequest> tc_rungs = ladder_requests(kSize, Ladder::TensorCores);
    const LadderData tensor_cores = ladder_data(app, kSize, Ladder::TensorCores);
    for (std::size_t i = 0; i < tensor_cores.bars.size(); ++i) {
        const LadderBar& bar = tensor_cores.bars[i];
        if (bar.is_cublas) continue;
        auto failure = failure_at(app.lab.measured, points, tc_rungs[i]);
        if (!failure) continue;
        plot.failures.push_back({bar.counts.intensity, bar.name, bar.colour, failure_tooltip(*failure, gpu)});
        failed.push_back(std::move(*failure));
    }
}

// A point's work per joule in GFLOP/J, 0 where it has no energy figure.
double gflop_per_joule(const record::Point& p) { return p.tflop_per_j.value_or(0.0) * 1e3; }

// Each kernel's name beside its point, in its colour, on a pale box so that lines behind it
// do not cut through the letters; a thin line back to the point where the label had to move.
// Returns how many names found no room.
int draw_labels(const PlotFrame& frame, const Plot& plot, const std::vector<RooflineMark>& marks, bool energy) {
    // The small font: thirteen names must share the plot with its points, large text or not.
    ImFont* font = small_font();
    const float font_size = imgui_compat::font_size(font);
    std::vector<ImVec2> anchors;
    std::vector<ImVec2> sizes;
    std::vector<const RooflineMark*> shown;
    for (const RooflineMark& mark : marks) {
        const std::string in = mark.rung ? kLadderSeries : mark.tensor_cores ? kTensorCoreSeries : mark.name;
        const auto series =
            std::find_if(plot.series.begin(), plot.series.end(), [&](const PlotSeries& s) { return s.name == in; });
        if (series == plot.series.end() || !series->visible) continue;
        const auto x = frame.x.to_pixel(mark.intensity);
        const auto y = frame.y.to_pixel(energy ? mark.gflop_per_j : mark.gflops);
        if (energy && mark.gflop_per_j <= 0) continue;
        if (!x || !y || *x < frame.area_min.x || *x > frame.area_max.x || *y < frame.area_min.y || *y > frame.area_max.y)
            continue;
        anchors.push_back(ImVec2(static_cast<float>(*x), static_cast<float>(*y)));
        sizes.push_back(font->CalcTextSizeA(font_size, FLT_MAX, 0, mark.name.c_str()));
        shown.push_back(&mark);
    }
    const std::vector<RooflineLabel> labels =
        place_roofline_labels(anchors, sizes, frame.area_min, frame.area_max, ImGui::GetFontSize() * 0.15f);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(frame.area_min, frame.area_max, true);
    const float pad = ImGui::GetFontSize() * 0.15f;
    int hidden = 0;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const RooflineLabel& label = labels[i];
        if (!label.shown) {
            ++hidden;
            continue;
        }
        const ImVec2 near_end(label.min.x > label.anchor.x ? label.min.x - pad : label.max.x + pad,
                              std::clamp(label.anchor.y, label.min.y, label.max.y));
        if (std::abs(near_end.y - label.anchor.y) > 1.0f || std::abs(near_end.x - label.anchor.x) > ImGui::GetFontSize())
            draw->AddLine(label.anchor, near_end, shown[i]->colour, 1.0f);
        draw->AddRectFilled(ImVec2(label.min.x - pad, label.min.y), ImVec2(label.max.x + pad, label.max.y),
                            IM_COL32(255, 255, 255, 210), pad);
        draw->AddText(font, font_size, label.min, shown[i]->colour, shown[i]->name.c_str());
    }
    draw->PopClipRect();
    return hidden;
}

// Your kernel's mark, where it was measured at kSize and recorded (the same source both times).
std::optional<RooflineMark> yours_mark(const AppState& app, const std::vector<const record::Point*>& points) {
    const auto& yours = app.lab.choices.latency.yours;
    const gpu::RunResult* recorded = yours ? last_trace_of(app.kernel_editor, yours->source) : nullptr;
    if (!recorded) return std::nullopt;
    const record::Point* p = find_point(points, yours_config(yours->name), kSize, "float");
    const model::UserCounts& counts = recorded->user_trace->counts;
    const model::Problem& at = recorded->request.problem;
    if (!p || at.m <= 0 || at.n <= 0 || at.k <= 0) return std::nullopt;
    const double size = kSize;
    const double loads = static_cast<double>(counts.loads_a + counts.loads_b) * size * size * size /
                         (static_cast<double>(at.m) * static_cast<double>(at.n) * static_cast<double>(at.k));
    const double stores = static_cast<double>(counts.stores_c) * size * size / (static_cast<double>(at.m) * static_cast<double>(at.n));
    const double bytes = 4.0 * (loads + stores);
    if (bytes <= 0) return std::nullopt;
    RooflineMark mark{yours_config(yours->name), kYoursColour, 2.0 * size * size * size / bytes, p->gflops,
                      p->median_ms, bytes};
    mark.intensity_source = format_text("recorded at {}, scaled", model::problem_size_text(at));
    mark.gflop_per_j = gflop_per_joule(*p);
    return mark;
}

}  // namespace

std::vector<RooflineLabel> place_roofline_labels(std::span<const ImVec2> anchors, std::span<const ImVec2> sizes,
                                                 ImVec2 area_min, ImVec2 area_max, float gap) {
    // Greedily, from the highest point down: each label takes the nearest free place beside its
    // point, right of it by choice, one label height further up or down at a time, so that a
    // column of rungs at one intensity stacks in the order of its points; the other side costs
    // a label height and a half (the tensor-core rungs near the plot's top, in presenter mode,
    // would not fit on one side). Free: inside the plot, clear of the labels placed so far and
    // of every point. A label with no free place is not shown (a plot too small for every name:
    // presenter mode beside the side panel).
    const float offset = gap * 4.0f + 4.0f;
    const float dot = gap * 2.0f + 2.0f;  // half a point's size
    // Not shown until placed: a label counts as an obstacle once it is.
    std::vector<RooflineLabel> labels(anchors.size(), RooflineLabel{ImVec2(), ImVec2(), ImVec2(), false});
    std::vector<std::size_t> order(anchors.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return anchors[a].y < anchors[b].y; });
    const auto apart = [](ImVec2 a0, ImVec2 a1, ImVec2 b0, ImVec2 b1) {
        return a1.x <= b0.x || b1.x <= a0.x || a1.y <= b0.y || b1.y <= a0.y;
    };
    constexpr int kReach = 5;  // label heights up or down: further, a line back to the point would cross the plot
    struct Place {
        float cost;
        bool right;
        int k;
    };
    for (const std::size_t i : order) {
        const ImVec2 anchor = anchors[i], size = sizes[i];
        const float step = size.y + gap;
        const bool right_fits = anchor.x + offset + size.x <= area_max.x;
        std::array<Place, 2 * (2 * kReach + 1)> places{};
        std::size_t count = 0;
        for (int k = -kReach; k <= kReach; ++k)
            for (const bool right : {true, false}) {
                if (right && !right_fits) continue;
                // Below before above at the same distance: the lower point's label stays the lower.
                const float cost = static_cast<float>(std::abs(k)) + (k < 0 ? 0.25f : 0.0f) + (right == right_fits ? 0.0f : 1.5f);
                places[count++] = {cost, right, k};
            }
        std::stable_sort(places.begin(), places.begin() + static_cast<std::ptrdiff_t>(count),
                         [](const Place& a, const Place& b) { return a.cost < b.cost; });
        RooflineLabel& label = labels[i];
        label.anchor = anchor;
        // Where it would go with no other label about; where it stays, not shown, without a free place.
        label.min = ImVec2(right_fits ? anchor.x + offset : anchor.x - offset - size.x, anchor.y - size.y * 0.5f);
        label.max = ImVec2(label.min.x + size.x, label.min.y + size.y);
        for (std::size_t n = 0; n < count && !label.shown; ++n) {
            const Place& place = places[n];
            const ImVec2 min(place.right ? anchor.x + offset : anchor.x - offset - size.x,
                             anchor.y - size.y * 0.5f + static_cast<float>(place.k) * step);
            const ImVec2 max(min.x + size.x, min.y + size.y);
            if (min.x < area_min.x || max.x > area_max.x || min.y < area_min.y || max.y > area_max.y) continue;
            const ImVec2 lo(min.x - gap, min.y - gap), hi(max.x + gap, max.y + gap);
            bool clear = true;
            for (std::size_t j = 0; j < labels.size() && clear; ++j)
                clear = !labels[j].shown || apart(lo, hi, labels[j].min, labels[j].max);
            for (std::size_t j = 0; j < anchors.size() && clear; ++j)
                clear = apart(lo, hi, ImVec2(anchors[j].x - dot, anchors[j].y - dot), ImVec2(anchors[j].x + dot, anchors[j].y + dot));
            if (!clear) continue;
            label.min = min;
            label.max = max;
            label.shown = true;
        }
    }
    return labels;
}

RooflinePeaksShown roofline_peaks(const AppState& app) {
    RooflinePeaksShown shown;
    if (app.lab.measured.peaks) {
        shown.bandwidth_gbs = app.lab.measured.peaks->bandwidth_gbs;
        shown.fp32_gflops = app.lab.measured.peaks->fp32_gflops;
        shown.bf16_gflops = app.lab.measured.peaks->bf16_gflops;
        shown.source =
            "measured on this GPU: " + app.lab.measured.peaks->bandwidth_label + "; " + app.lab.measured.peaks->fp32_label;
        if (!app.lab.measured.peaks->bf16_label.empty()) shown.source += "; " + app.lab.measured.peaks->bf16_label;
        return shown;
    }
    std::string name = "NVIDIA H200";
    if (app.lab.measured.measurement) name = app.lab.measured.measurement->meta.device.name;
    else if (app.device && app.device->usable) name = app.device->limits.name;
    for (const DataSheet& sheet : kDataSheets)
        if (name.find(sheet.name_part) != std::string::npos) {
            shown.bandwidth_gbs = sheet.bandwidth_gbs;
            shown.fp32_gflops = sheet.fp32_gflops;
            shown.bf16_gflops = sheet.bf16_gflops;
            shown.source = format_text("data sheet of the {}, model", name);
            return shown;
        }
    shown.bandwidth_gbs = kDataSheets[0].bandwidth_gbs;
    shown.fp32_gflops = kDataSheets[0].fp32_gflops;
    shown.bf16_gflops = kDataSheets[0].bf16_gflops;
    shown.source = "data sheet of the NVIDIA H200, model";
    return shown;
}

std::vector<RooflineMark> roofline_marks(const AppState& app) {
    std::vector<RooflineMark> marks;
    const auto points = lab_points(app.lab.measured);
    model::Problem problem;
    problem.m = problem.n = problem.k = kSize;
    const auto add = [&](const std::string& name, const model::KernelConfig& kernel, const record::Point* p,
                         ImU32 colour, bool rung) {
        if (!p) return;
        const model::Traffic traffic = model::count_traffic(kernel, problem);
        marks.push_back({name, colour, traffic.arithmetic_intensity(4), p->gflops, p->median_ms,
                         static_cast<double>(traffic.global_bytes(4)), rung});
        marks.back().gflop_per_j = gflop_per_joule(*p);
    };
    for (const KernelMark& mark : other_kernels(app.lab.choices.latency)) {
        const std::string config = model::describe(mark.kernel);
        add(config, mark.kernel, find_point(points, config, kSize, "float"), mark.colour, false);
    }
    // Every rung of the ladder, as the ladder view names and colours it (the tuned rung with
    // the candidate it runs at this size).
    // (Your kernel's bar has no model traffic: yours_mark places it.)
    for (const LadderBar& bar : ladder_data(app, kSize).bars)
        if (!bar.is_cublas && !bar.is_yours) add(bar.name, bar.kernel, bar.point, bar.colour, true);
    // The tensor-core rungs in BF16: their blocks' intensity (2-byte elements), their own series.
    // The FP8 rungs stay off this plot: its roof is BF16's, and theirs is twice as high.
    for (const LadderBar& bar : ladder_data(app, kSize, Ladder::TensorCores).bars)
        if (!bar.is_cublas && bar.point && !model::fp8_rung_scaling(bar.kernel.kind)) {
            marks.push_back({bar.name, bar.colour, bar.counts.intensity, bar.point->gflops, bar.point->median_ms,
                             2.0 * static_cast<double>(bar.counts.global_loads), false, true});
            marks.back().gflop_per_j = gflop_per_joule(*bar.point);
        }
    if (auto yours = yours_mark(app, points)) marks.push_back(std::move(*yours));
    return marks;
}

namespace {

// The roofline's marks (roofline_marks) but those whose latest request failed: those are marked
// failed on the bottom edge (fill_roofline_failures, which fills `failed` in the same order) instead of
// showing an older (or recorded) point as if it were this GPU's answer.
std::vector<RooflineMark> marks_not_failed(Plot& plot, const AppState& app, std::vector<Failure>& failed) {
    fill_roofline_failures(plot, app, failed);
    std::vector<RooflineMark> marks = roofline_marks(app);
    std::erase_if(marks, [&](const RooflineMark& mark) {
        return std::any_of(plot.failures.begin(), plot.failures.end(),
                           [&](const PlotFailure& f) { return f.name == mark.name; });
    });
    return marks;
}

// The marks as series, each point from `point_of`: every other kernel a series of its own, then the
// rungs of each ladder as one series, joined in the order of the climb (its path up the roofline, and
// straight up where rungs share an intensity). Each point is named on the plot.
template <typename PointOf>
void add_mark_series(std::vector<PlotSeries>& series, const std::vector<RooflineMark>& marks, PointOf point_of) {
    PlotSeries ladder;
    ladder.name = kLadderSeries;
    ladder.colour = ladder_colour(model::KernelKind::ConflictFree);
    PlotSeries tc_ladder;
    tc_ladder.name = kTensorCoreSeries;
    tc_ladder.colour = ladder_colour(model::KernelKind::Wgmma);
    for (const RooflineMark& mark : marks) {
        PlotPoint point = point_of(mark);
        if (mark.rung || mark.tensor_cores) {
            (mark.rung ? ladder : tc_ladder).points.push_back(std::move(point));
            continue;
        }
        PlotSeries alone;
        alone.name = mark.name;
        alone.colour = mark.colour;
        alone.lines = false;
        alone.points = {std::move(point)};
        series.push_back(std::move(alone));
    }
    if (!ladder.points.empty()) series.push_back(std::move(ladder));
    if (!tc_ladder.points.empty()) series.push_back(std::move(tc_ladder));
}

// cuBLAS's traffic is not modelled, so it has no x: a level line instead of a point, in float and in
// BF16, at `level_of` its point where it was measured (nullopt: no line).
template <typename LevelOf>
void add_cublas_levels(std::vector<PlotSeries>& series, const LabMeasurements& measured, LevelOf level_of) {
    const auto add = [&](std::string_view dtype, const char* name, ImU32 colour) {
        const record::Point* cublas = find_point(lab_points(measured), "cublas", kSize, dtype);
        if (!cublas) return;
        const std::optional<double> level = level_of(*cublas);
        if (!level) return;
        PlotSeries line;
        line.name = name;
        line.colour = colour;
        line.markers = false;
        line.points = {{0.05, *level, kNaN, kNaN, ""}, {kRoofEnd, *level, kNaN, kNaN, ""}};
        series.push_back(std::move(line));
    };
    add("float", "cuBLAS (level only: traffic not modelled)", IM_COL32(120, 120, 120, 255));
    add("bf16", "cuBLAS BF16 (level only)", IM_COL32(150, 110, 90, 255));
}

// The plot's series from now on, each keeping whether the user hid it (the legend's toggle).
void set_series(Plot& plot, std::vector<PlotSeries> series) {
    for (PlotSeries& s : series)
        for (const PlotSeries& old : plot.series)
            if (old.name == s.name) s.visible = old.visible;
    plot.series = std::move(series);
}

// The roofline with energy instead of time: each kernel at the model's intensity and the work one
// joule bought it. No roof: the GPU's peaks are rates, and no joules per byte or per FLOP are
// measured to draw one from.
void draw_energy_roofline(LabState& lab, const AppState& app, ImVec2 size) {
    Plot& plot = lab.choices.roofline_energy_plot;
    plot.x = {"arithmetic intensity, model: FLOPs per byte requested before caches", "FLOP/B", AxisScale::Log10};
    plot.y = {"work per joule, launches back to back", "GFLOP/J", AxisScale::Log10};
    plot.export_path = "tilescope_roofline_energy";
    std::vector<Failure> failed;
    std::vector<RooflineMark> marks = marks_not_failed(plot, app, failed);
    const auto without = std::erase_if(marks, [](const RooflineMark& m) { return m.gflop_per_j <= 0; });
    std::vector<PlotSeries> series;
    add_mark_series(series, marks, [](const RooflineMark& mark) {
        return PlotPoint{mark.intensity, mark.gflop_per_j, kNaN, kNaN,
                         format_text("{}{} FLOP/B ({}), {} GFLOP/J measured at {}³{}: {} J per matmul",
                                     mark.rung || mark.tensor_cores ? mark.name + ": " : std::string(),
                                     fixed(mark.intensity, 3), mark.intensity_source, fixed(mark.gflop_per_j, 1), kSize,
                                     mark.tensor_cores ? " in BF16" : "",
                                     fixed(2.0 * kSize * kSize * static_cast<double>(kSize) / (mark.gflop_per_j * 1e9), 4))};
    });
    add_cublas_levels(series, lab.measured, [](const record::Point& cublas) -> std::optional<double> {
        if (gflop_per_joule(cublas) <= 0) return std::nullopt;
        return gflop_per_joule(cublas);
    });
    set_series(plot, std::move(series));

    heading("Roofline at 2048³ in energy: the work one joule buys");
    draw_metric_choice(lab.choices.metric);
    const std::string notes[] = {
        "Each kernel at the model's intensity, and up the FLOPs per joule of the board's energy (NVML's counter, read "
        "around launches back to back after the timed samples). No roof is drawn: the peaks are rates, and joules per "
        "byte moved or per FLOP are not measured here.",
        "Why does a tensor-core rung buy more work per joule than the FP32 ones? A tensor-core instruction does "
        "hundreds of multiply-adds for one fetch and decode, and each byte read from memory feeds more of them.",
        without > 0 ? format_text("{} without an energy figure: Measure the ladders (ladder view) or bench with energy "
                                  "records one.",
                                  model::counted(without, "kernel"))
                    : std::string()};
    float notes_height = 0;
    for (const std::string& note : notes)
        notes_height += ImGui::CalcTextSize(note.c_str(), nullptr, false, size.x).y + ImGui::GetStyle().ItemSpacing.y;
    const float plot_height = std::max({size.y - notes_height - ImGui::GetCursorPosY(), size.y * 0.6f, 200.0f});
    const PlotFrame frame = draw_plot("##roofline-energy", plot, ImVec2(size.x, plot_height));
    if (frame.clicked_failure && app.device && app.device->usable)
        measure_again(lab.measured, failed[static_cast<std::size_t>(*frame.clicked_failure)]);
    const int unnamed = draw_labels(frame, plot, marks, true);
    if (unnamed > 0)
        muted_text(format_text("{} left unnamed for room: hover a point for its kernel.", model::counted(unnamed, "point")));
    for (const std::string& note : notes)
        if (!note.empty()) muted_text(note);
}

}  // namespace

void draw_roofline_view(LabState& lab, const AppState& app, ImVec2 size) {
    if (lab.choices.metric == LadderMetric::Energy) {
        draw_energy_roofline(lab, app, size);
        return;
    }
    const bool gpu = app.device && app.device->usable;
    // The GPU's own peaks, measured once per session.
    if (gpu && !lab.measured.peaks && !lab.measured.peaks_requested) {
        gpu::RunRequest request;
        request.kind = gpu::RequestKind::Roofline;
        request_live(lab.measured, "roofline", request);
        lab.measured.peaks_requested = true;
    }
    const RooflinePeaksShown peaks = roofline_peaks(app);

    Plot& plot = lab.choices.roofline_plot;
    plot.x = {"arithmetic intensity, model: FLOPs per byte requested before caches", "FLOP/B", AxisScale::Log10};
    plot.y = {"achieved throughput", "GFLOP/s", AxisScale::Log10};
    plot.export_path = "tilescope_roofline";

    std::vector<PlotSeries> series;
    const double knee = peaks.fp32_gflops / peaks.bandwidth_gbs;
    char roof_name[96];
    std::snprintf(roof_name, sizeof roof_name, "roof: %.0f GB/s, %.1f TFLOP/s FP32", peaks.bandwidth_gbs,
                  peaks.fp32_gflops / 1000.0);
    PlotSeries roof;
    roof.name = roof_name;
    roof.colour = IM_COL32(20, 20, 20, 255);
    roof.markers = false;
    roof.points = {{0.05, 0.05 * peaks.bandwidth_gbs, kNaN, kNaN, "memory roof"},
                   {knee, peaks.fp32_gflops, kNaN, kNaN, "ridge point"},
                   {kRoofEnd, peaks.fp32_gflops, kNaN, kNaN, "FP32 peak"}};
    series.push_back(std::move(roof));
    // The tensor cores' roof over the same memory roof: the ridge moves about 15 times to the right.
    if (peaks.bf16_gflops > 0) {
        const double tc_knee = peaks.bf16_gflops / peaks.bandwidth_gbs;
        char tc_name[96];
        std::snprintf(tc_name, sizeof tc_name, "tensor-core roof: %.0f TFLOP/s BF16", peaks.bf16_gflops / 1000.0);
        PlotSeries tc_roof;
        tc_roof.name = tc_name;
        tc_roof.colour = ladder_colour(model::KernelKind::Persistent);
        tc_roof.markers = false;
        tc_roof.points = {{knee, peaks.fp32_gflops, kNaN, kNaN, "FP32 ridge"},
                          {tc_knee, peaks.bf16_gflops, kNaN, kNaN, "tensor cores' ridge point"},
                          {kRoofEnd, peaks.bf16_gflops, kNaN, kNaN, "BF16 tensor-core peak"}};
        series.push_back(std::move(tc_roof));
    }

    std::vector<Failure> failed;
    std::vector<RooflineMark> marks = marks_not_failed(plot, app, failed);
    add_mark_series(series, marks, [&](const RooflineMark& mark) {
        // The model's traffic over the measured time: the bandwidth the kernel would need if
        // every requested byte came from DRAM, against what the GPU's DRAM gives.
        const double needed_gbs = mark.model_bytes / (mark.median_ms * 1e6);
        return PlotPoint{mark.intensity, mark.gflops, kNaN, kNaN,
                         format_text("{}{} FLOP/B ({}), {} GFLOP/s measured at {}³{}\n"
                                     "{} traffic {} in {} ms: {} GB/s, {}× the {} GB/s peak",
                                     mark.rung || mark.tensor_cores ? mark.name + ": " : std::string(),
                                     fixed(mark.intensity, 3), mark.intensity_source,
                                     fixed(mark.gflops, 0), kSize, mark.tensor_cores ? " in BF16" : "",
                                     mark.intensity_source == "model" ? "model" : "its",
                                     model::human_bytes(static_cast<std::int64_t>(mark.model_bytes)),
                                     fixed(mark.median_ms, 3), fixed(needed_gbs, 0),
                                     fixed(needed_gbs / peaks.bandwidth_gbs, 2), fixed(peaks.bandwidth_gbs, 0))};
    });
    // Kernels whose counters were read: where the GPU's DRAM traffic puts them (roofline_counters.hpp).
    const std::vector<MeasuredDramPoint> measured_dram =
        measured_dram_points(app, kSize, peaks.bandwidth_gbs, peaks.fp32_gflops);
    add_measured_dram_series(series, measured_dram);
    add_cublas_levels(series, lab.measured,
                      [](const record::Point& cublas) -> std::optional<double> { return cublas.gflops; });
    set_series(plot, std::move(series));

    heading("Roofline at 2048³: FP32, and the tensor cores in BF16");
    draw_metric_choice(lab.choices.metric);
    if (!lab.measured.peaks) {
        muted_text(format_text("Peaks: {} ({}). {}", gpu ? "being measured on this GPU…" : "not measured (no GPU)",
                          peaks.source, lab.measured.measurement ? "Points: " + lab.measured.measurement_label + "." : ""));
    } else {
        muted_text("Peaks " + peaks.source);
    }
    // The rungs with 128×128 tiles, as counted: one x for all five.
    const model::Traffic shared_shape =
        model::count_traffic({model::KernelKind::RegTile2d}, {kSize, kSize, kSize, 1, model::Dtype::Float32});
    const std::string notes[] = {
        format_text("The ladder's rungs from regtile-2d to pipelined share 128×128 block tiles, so the model gives them "
                    "one intensity ({} FLOP/B): what lifts each above the one before happens inside the SM (fewer "
                    "shared-memory instructions, no bank conflicts, memory latency hidden), which a roofline of global "
                    "memory cannot see. Hover the ladder view's bars for each step.",
                    fixed(shared_shape.arithmetic_intensity(4), 1)),
        "Why can naive sit above its memory roof? The model counts every byte the kernel requests from global memory, "
        "before caches. Neighbouring threads read the same elements of A and B, and L1 and L2 serve most of those "
        "requests, so far fewer bytes come from DRAM than the model's intensity assumes.",
        "The tensor-core rungs are placed by their block tiles (128×128 up to 18's clusters of 128×256 that share B): "
        "the blocks running at once read the same rows of A and columns of B, which L2 serves, so they too can pass "
        "the DRAM slope. Their own roof is the tensor cores' BF16 peak, about 15 times the FP32 one."};
    // The notes below take what they need, but the plot keeps at least 60 % of the height
    // (with large text the notes then scroll into view).
    float notes_height = 0;
    for (const std::string& note : notes)
        notes_height += ImGui::CalcTextSize(note.c_str(), nullptr, false, size.x).y + ImGui::GetStyle().ItemSpacing.y;
    const float plot_height = std::max({size.y - notes_height - ImGui::GetCursorPosY(), size.y * 0.6f, 200.0f});
    const PlotFrame frame = draw_plot("##roofline", plot, ImVec2(size.x, plot_height));
    if (frame.clicked_failure && gpu)
        measure_again(lab.measured, failed[static_cast<std::size_t>(*frame.clicked_failure)]);
    draw_measured_dram_links(frame, plot, measured_dram);
    const int unnamed = draw_labels(frame, plot, marks, false);
    draw_measured_dram_points(frame, plot, measured_dram);
    if (unnamed > 0)
        muted_text(format_text("{} left unnamed for room: hover a point for its kernel, or fold the side "
                               "panel (Ctrl+B) for a larger plot.",
                               model::counted(unnamed, "point")));
    for (const std::string& note : notes) muted_text(note);
    // Your kernel, plotted beside the rungs but not placed here: what is missing.
    if (const auto& yours = lab.choices.latency.yours) {
        const std::string name = yours_config(yours->name);
        const bool placed =
            std::any_of(marks.begin(), marks.end(), [&](const RooflineMark& mark) { return mark.name == name; });
        if (!placed)
            muted_text(format_text("{} is placed here once it is measured at {}³ and recorded (Your kernel, Ctrl+8: "
                                   "Record): the model does not know its code, so its intensity comes from the loads "
                                   "and stores its trace counted.",
                                   name, kSize));
    }
}

}  // namespace ts::views
