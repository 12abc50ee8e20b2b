#include "views/experiments/accumulator_panel.hpp"

#include <algorithm>

#include "imgui.h"
#include "model/format.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

using model::format_text;

namespace {

constexpr const char* kDtypes[] = {"all", "fp8", "bf16", "fp16"};
constexpr ImU32 kSeriesColours[] = {IM_COL32(200, 60, 40, 255), IM_COL32(40, 90, 170, 255), IM_COL32(40, 140, 70, 255)};

void draw_finding(const char* what, const model::AccumulatorFinding& finding) {
    ImGui::BulletText("%s: %s", what, model::describe_bits(finding).c_str());
    if (finding.ran && finding.ladder_bits_other_half != finding.ladder_bits)
        muted_text(format_text("with the small product in the other half of K: {} bits", finding.ladder_bits_other_half));
}

}  // namespace

std::optional<gpu::RunRequest> next_accumulator_request(AccumulatorPanelState& state) {
    if (!state.submit) return std::nullopt;
    state.submit = false;
    gpu::RunRequest request;
    request.kind = gpu::RequestKind::Accumulator;
    request.accumulator_input = state.dtype;
    return request;
}

void accumulator_submitted(AccumulatorPanelState& state, std::uint64_t id) { state.in_flight = id; }

bool take_accumulator_result(AccumulatorPanelState& state, const gpu::RunResult& result) {
    if (result.request.kind != gpu::RequestKind::Accumulator) return false;
    if (result.id == state.in_flight) state.in_flight = 0;
    if (result.ok && result.accumulator) {
        state.error.clear();
        show_accumulator_report(state, *result.accumulator);
    } else {
        state.error = result.error;
    }
    return true;
}

void show_accumulator_report(AccumulatorPanelState& state, model::AccumulatorReport report) {
    Plot& plot = state.plot;
    plot.x = {"K (products summed)", "", AxisScale::Log2};
    plot.y = {"max relative error against the exact sum", "", AxisScale::Log10};
    plot.export_path = "tilescope_accumulator";
    plot.series.clear();
    for (std::size_t i = 0; i < report.types.size(); ++i) {
        const model::AccumulatorTypeReport& t = report.types[i];
        const ImU32 colour = kSeriesColours[std::min<std::size_t>(i, std::size(kSeriesColours) - 1)];
        PlotSeries never{format_text("{} never promoted", model::accumulator_input_title(t.input)), colour, {}};
        PlotSeries promoted{format_text("{} promoted every 128", model::accumulator_input_title(t.input)), colour, {}};
        promoted.faded = true;
        promoted.legend_group = never.legend_group = model::accumulator_input_title(t.input);
        for (const model::GrowthPoint& p : t.growth) {
            // A log axis has no 0: an exact sum is drawn at 1e-10, and the tooltip says so.
            const auto point = [&](double error) {
                PlotPoint at;
                at.x = static_cast<double>(p.k);
                at.y = std::max(error, 1e-10);
                if (error <= 0.0) at.note = "exact";
                return at;
            };
            never.points.push_back(point(p.never_max));
            promoted.points.push_back(point(p.promoted_max));
        }
        plot.series.push_back(std::move(never));
        plot.series.push_back(std::move(promoted));
    }
    plot.x_view.reset();
    plot.y_view.reset();
    state.report = std::move(report);
}

void draw_accumulator_panel(AccumulatorPanelState& state, const std::optional<std::string>& why_no_gpu) {
    heading("The tensor cores' accumulator, measured");
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(
        "How many mantissa bits do the tensor cores keep when they add FP8, BF16 or FP16 products? "
        "DeepSeek-V3 reports about 14 for FP8 on the H800; others report 22. The probes answer it exactly "
        "for this GPU.");
    ImGui::PopTextWrapPos();
    folding_muted_text(model::accumulator_method_text(), "How the probes work");

    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
    if (ImGui::BeginCombo("input type", state.dtype.c_str())) {
        for (const char* d : kDtypes)
            if (ImGui::Selectable(d, state.dtype == d)) state.dtype = d;
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    const bool running = state.in_flight != 0 || state.submit;
    ImGui::BeginDisabled(why_no_gpu.has_value() || running);
    if (ImGui::Button(running ? "Measuring…" : "Measure on the GPU")) state.submit = true;
    ImGui::EndDisabled();
    if (why_no_gpu && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", why_no_gpu->c_str());
    if (why_no_gpu) muted_text("No run here: " + *why_no_gpu);
    if (!state.error.empty()) coloured_text_wrapped(colours::kWarning, state.error.c_str());

    int fp8_bits = -1;
    if (state.report) {
        ImGui::Separator();
        if (!state.report->device.empty()) muted_text("measured on the " + state.report->device);
        for (const model::AccumulatorTypeReport& t : state.report->types) {
            heading(model::accumulator_input_title(t.input));
            if (!t.identity_passed)
                coloured_text_wrapped(colours::kWarning,
                                      ("The identity check failed, so these bits are not to be trusted: " + t.identity_note).c_str());
            else if (t.layout_swapped)
                muted_text("The identity check passed only with LBO and SBO traded in the descriptors.");
            draw_finding("inside one wgmma", t.inside);
            draw_finding("across k-steps", t.across);
            if (t.input == model::AccumulatorInput::Fp8E4m3 && t.across.explained) fp8_bits = t.across.fraction_bits;
        }
        if (!state.plot.series.empty()) {
            const float height = std::max(ImGui::GetFontSize() * 14.0f, ImGui::GetContentRegionAvail().y * 0.5f);
            draw_plot("##accumulator_growth", state.plot, ImVec2(ImGui::GetContentRegionAvail().x, height));
        }
    }
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(model::promotion_explanation(fp8_bits).c_str());
    ImGui::PopTextWrapPos();
}

}  // namespace ts::views
