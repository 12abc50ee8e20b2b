// error_speed_view.cxx — the ladder view's error against speed (error_speed_view.hpp).
//
// [SECTION] The marks: the lab's 16- and 8-bit points with their error against FP64
// [SECTION] The caption: the price of each step in speed
// [SECTION] The names beside the markers
// [SECTION] The view
#include "views/lab/error_speed_view.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "model/format.hpp"
#include "platform/imgui_compat.hpp"
#include "views/common/plot.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/lab/roofline_view.hpp"

namespace ts::views {

using model::fixed;
using model::format_text;

namespace {

// "1.1e-03": two significant digits are what an error figure is read for.
std::string error_text(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1e", value);
    return text;
}

std::string size_text(const record::Point& p) {
    std::string text = p.m == p.n && p.n == p.k ? format_text("{}³", p.m) : format_text("{}×{}×{}", p.m, p.n, p.k);
    if (p.batch > 1) text += format_text(" ×{}", p.batch);
    return text;
}

// The series a point goes in: its type, FP8 by its scaling; empty for other types.
std::string type_of(const record::Point& p) {
    if (p.dtype == "bf16" || p.dtype == "fp16") return p.dtype;
    if (p.dtype != "fp8") return {};
    return p.fp8_scaling.value_or("tensor") == "block" ? "fp8 block" : "fp8 per tensor";
}

std::string rung_of(const record::Point& p) {
    if (p.config != kCublasConfig) return p.config;
    return p.dtype == "fp8" ? "cuBLASLt" : "cuBLAS";  // FP8's GEMM is cuBLASLt's
}

}  // namespace

// ---- [SECTION] The marks: the lab's 16- and 8-bit points with their error against FP64 ----------

ImU32 error_speed_colour(const std::string& dtype) {
    // The tensor cores' warm colours for the 16-bit types (as on the ladder), blues for FP8.
    if (dtype == "bf16") return IM_COL32(205, 95, 30, 255);
    if (dtype == "fp16") return IM_COL32(150, 60, 150, 255);
    if (dtype == "fp8 per tensor") return IM_COL32(20, 130, 150, 255);
    return IM_COL32(30, 70, 190, 255);  // fp8 block
}

ErrorSpeedData error_speed_data(const LabMeasurements& measured) {
    ErrorSpeedData data;
    for (const record::Point* p : lab_points(measured)) {
        const std::string type = type_of(*p);
        if (type.empty() || !p->ok || p->gflops <= 0.0) continue;
        if (!p->error_vs_fp64_rms || !(*p->error_vs_fp64_rms > 0.0)) {
            ++data.left_out;
            continue;
        }
        ErrorSpeedMark mark;
        mark.rung = rung_of(*p);
        mark.dtype = type;
        mark.size = size_text(*p);
        mark.work = p->m * p->n * p->k * p->batch;
        mark.hot = p->mode == "hot";
        mark.tflops = p->gflops / 1e3;
        mark.error_max = p->error_vs_fp64_max.value_or(0.0);
        mark.error_rms = *p->error_vs_fp64_rms;
        mark.colour = error_speed_colour(type);
        data.marks.push_back(std::move(mark));
    }
    return data;
}

// ---- [SECTION] The caption: the price of each step in speed -------------------------------------

std::string error_speed_caption(const ErrorSpeedData& data) {
    if (data.marks.empty()) return {};
    // The size with the most types measured (the larger one where two tie), and there each type's
    // fastest point.
    std::map<std::int64_t, std::set<std::string>> types_at;
    for (const ErrorSpeedMark& mark : data.marks) types_at[mark.work].insert(mark.dtype);
    std::int64_t work = 0;
    std::size_t most = 0;
    for (const auto& [at, types] : types_at)
        if (types.size() >= most) {
            most = types.size();
            work = at;
        }
    std::map<std::string, const ErrorSpeedMark*> fastest;
    for (const ErrorSpeedMark& mark : data.marks)
        if (mark.work == work && (!fastest.contains(mark.dtype) || mark.tflops > fastest[mark.dtype]->tflops))
            fastest[mark.dtype] = &mark;
    std::vector<const ErrorSpeedMark*> steps;
    for (const auto& [type, mark] : fastest) steps.push_back(mark);
    std::sort(steps.begin(), steps.end(), [](const auto* a, const auto* b) { return a->tflops < b->tflops; });

    const ErrorSpeedMark& first = *steps.front();
    const std::string first_text = format_text("{} in {}, {} TFLOP/s at an RMS error of {}", first.rung, first.dtype,
                                               fixed(first.tflops, 0), error_text(first.error_rms));
    if (steps.size() == 1)
        return format_text("At {} only {} has the error: {}. Measure another type at this size to see what a step in "
                           "speed costs.",
                           first.size, first.dtype, first_text);
    std::string text = format_text("The price of each step in speed, at {} (the fastest point of each type): {}", first.size,
                                   first_text);
    for (std::size_t i = 1; i < steps.size(); ++i) {
        const ErrorSpeedMark &before = *steps[i - 1], &step = *steps[i];
        const double error_ratio = step.error_rms / before.error_rms;
        text += format_text("; then {} in {}, {} TFLOP/s ({}× the speed) at {} ({}× the error)", step.rung, step.dtype,
                            fixed(step.tflops, 0), fixed(step.tflops / before.tflops, 2), error_text(step.error_rms),
                            fixed(error_ratio, error_ratio < 10.0 ? 1 : 0));
    }
    return text + ".";
}

std::string error_speed_empty_text(const ErrorSpeedData& data, bool usable_gpu) {
    std::string text = "No 16- or 8-bit point with its error against FP64 to draw";
    if (data.left_out > 0)
        text += format_text(" ({} left out: measured before TileScope recorded the error, or not checked)",
                            model::counted(data.left_out, "point"));
    text += ". Measure them, then open the file with --load:\n"
            "  tilescope-cli bench --dtype bf16 --kernel tc-ladder --size 4096 --check-all --json bf16.json\n"
            "  tilescope-cli bench --dtype fp8 --kernel tc-ladder --scaling tensor,block --size 4096 --check-all "
            "--json fp8.json";
    if (usable_gpu)
        text += "\nOr, on this GPU: a ladder size of 1024 or less, then \"Measure the ladders on this GPU\": the lab checks "
                "its points, and so measures their error, up to 1024³.";
    return text;
}

bool draw_ladder_page_choice(LadderPage& page) {
    const LadderPage before = page;
    ImGui::TextUnformatted("show:");
    ImGui::SameLine();
    if (ImGui::RadioButton("bars", page == LadderPage::Bars)) page = LadderPage::Bars;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The ladders: a bar per rung against cuBLAS.");
    ImGui::SameLine();
    if (ImGui::RadioButton("error against speed", page == LadderPage::Errors)) page = LadderPage::Errors;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Every 16- and 8-bit point: its error against FP64 against its TFLOP/s, what each step in "
                          "speed costs in accuracy.");
    return page != before;
}

namespace {

// ---- [SECTION] The names beside the markers -----------------------------------------------------

// Each marker's rung beside it in its type's colour, on a pale box, placed as the roofline places its
// names (place_roofline_labels); with the size too where the marks span several sizes. Returns how
// many names found no room.
int draw_names(const PlotFrame& frame, const Plot& plot, const std::vector<ErrorSpeedMark>& marks) {
    std::set<std::int64_t> sizes;
    for (const ErrorSpeedMark& mark : marks) sizes.insert(mark.work);
    ImFont* font = small_font();
    const float font_size = imgui_compat::font_size(font);
    std::vector<ImVec2> anchors, extents;
    std::vector<std::string> names;
    std::vector<ImU32> colours;
    for (const ErrorSpeedMark& mark : marks) {
        const auto series =
            std::find_if(plot.series.begin(), plot.series.end(), [&](const PlotSeries& s) { return s.name == mark.dtype; });
        if (series == plot.series.end() || !series->visible) continue;
        const auto x = frame.x.to_pixel(mark.tflops);
        const auto y = frame.y.to_pixel(mark.error_rms);
        if (!x || !y || *x < frame.area_min.x || *x > frame.area_max.x || *y < frame.area_min.y || *y > frame.area_max.y)
            continue;
        names.push_back(sizes.size() > 1 ? mark.rung + " " + mark.size : mark.rung);
        anchors.push_back(ImVec2(static_cast<float>(*x), static_cast<float>(*y)));
        extents.push_back(font->CalcTextSizeA(font_size, FLT_MAX, 0, names.back().c_str()));
        colours.push_back(mark.colour);
    }
    const float gap = ImGui::GetFontSize() * 0.15f;
    const std::vector<RooflineLabel> labels = place_roofline_labels(anchors, extents, frame.area_min, frame.area_max, gap);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(frame.area_min, frame.area_max, true);
    int unnamed = 0;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const RooflineLabel& label = labels[i];
        if (!label.shown) {
            ++unnamed;
            continue;
        }
        const ImVec2 near_end(label.min.x > label.anchor.x ? label.min.x - gap : label.max.x + gap,
                              std::clamp(label.anchor.y, label.min.y, label.max.y));
        if (std::abs(near_end.y - label.anchor.y) > 1.0f || std::abs(near_end.x - label.anchor.x) > ImGui::GetFontSize())
            draw->AddLine(label.anchor, near_end, colours[i], 1.0f);
        draw->AddRectFilled(ImVec2(label.min.x - gap, label.min.y), ImVec2(label.max.x + gap, label.max.y),
                            IM_COL32(255, 255, 255, 210), gap);
        draw->AddText(font, font_size, label.min, colours[i], names[i].c_str());
    }
    draw->PopClipRect();
    return unnamed;
}

// One series per type, a marker per point, no lines (the points are of different kernels and sizes);
// each keeps whether the user hid it.
void set_error_series(Plot& plot, const std::vector<ErrorSpeedMark>& marks) {
    std::vector<PlotSeries> series;
    for (const char* type : kErrorSpeedTypes) {
        PlotSeries s;
        s.name = type;
        s.colour = error_speed_colour(type);
        s.lines = false;
        for (const ErrorSpeedMark& mark : marks)
            if (mark.dtype == type)
                s.points.push_back({mark.tflops, mark.error_rms, kNaN, kNaN,
                                    format_text("{} at {}{}\nlargest relative error against FP64: {}", mark.rung, mark.size,
                                                mark.hot ? " (hot: L2 warm)" : "", error_text(mark.error_max))});
        if (s.points.empty()) continue;
        for (const PlotSeries& old : plot.series)
            if (old.name == s.name) s.visible = old.visible;
        series.push_back(std::move(s));
    }
    plot.series = std::move(series);
}

}  // namespace

// ---- [SECTION] The view -------------------------------------------------------------------------

void draw_error_speed_view(LabState& lab, const AppState& app, ImVec2 size) {
    heading("What each step in speed costs in accuracy: error against FP64, against TFLOP/s");
    const ErrorSpeedData data = error_speed_data(lab.measured);
    if (data.marks.empty()) {
        ImGui::Spacing();
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x);
        ImGui::TextUnformatted(error_speed_empty_text(data, app.device && app.device->usable).c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    Plot& plot = lab.choices.error_speed_plot;
    plot.x = {"speed", "TFLOP/s", AxisScale::Linear};
    plot.y = {"RMS relative error against FP64", "", AxisScale::Log10};
    plot.export_path = "tilescope_error_against_speed";
    set_error_series(plot, data.marks);

    const std::string caption = error_speed_caption(data);
    const std::string notes[] = {
        "Error against FP64: ‖C − exact‖ / ‖exact‖, where exact is the FP64 product of the FP32 values every type's "
        "inputs start as. BF16 and FP16 round them to 16 bits, FP8 quantises them to e4m3 with scales (per tensor, or "
        "A per 1×128 and B per 128×128 block), so the inputs' rounding counts with the kernel's sums and C's store. "
        "Hover a marker for its size and largest relative error.",
        data.left_out > 0 ? format_text("{} left out: measured before TileScope recorded the error against FP64, or "
                                        "not checked.",
                                        model::counted(data.left_out, "16- or 8-bit point"))
                          : std::string()};
    const float wrap = size.x;
    float text_height = 0.0f;  // the notes under the plot (the caption above it is in the cursor's y)
    for (const std::string& note : notes)
        text_height += ImGui::CalcTextSize(note.c_str(), nullptr, false, wrap).y + ImGui::GetStyle().ItemSpacing.y;
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
    ImGui::TextUnformatted(caption.c_str());
    ImGui::PopTextWrapPos();
    // The notes below take what they need; the plot keeps at least 60 % of the height.
    const float plot_height = std::max({size.y - text_height - ImGui::GetCursorPosY(), size.y * 0.6f, 200.0f});
    const PlotFrame frame = draw_plot("##error_speed", plot, ImVec2(size.x, plot_height));
    const int unnamed = draw_names(frame, plot, data.marks);
    if (unnamed > 0)
        muted_text(format_text("{} left unnamed for room: hover a marker for its rung.", model::counted(unnamed, "point")));
    for (const std::string& note : notes)
        if (!note.empty()) muted_text(note);
}

}  // namespace ts::views
