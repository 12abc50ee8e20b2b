#include "views/lab/counters_panel.hpp"

#include <algorithm>
#include <cmath>

#include "model/format.hpp"
#include "model/ladder_rungs.hpp"
#include "model/launch_geometry.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

using model::fixed;
using model::format_text;

namespace {

bool same_kernel(const model::KernelConfig& a, const model::KernelConfig& b) {
    return model::describe(a) == model::describe(b);
}

// 33554432 → "33.6 M": three digits read aloud; the tooltip has every digit.
std::string short_count(double value) {
    const auto three_digits = [](double x, const char* unit) {
        return fixed(x, x >= 100 ? 0 : x >= 10 ? 1 : 2) + unit;
    };
    const double v = std::abs(value);
    if (v >= 1e12) return three_digits(value / 1e12, " T");
    if (v >= 1e9) return three_digits(value / 1e9, " G");
    if (v >= 1e6) return three_digits(value / 1e6, " M");
    if (v >= 1e4) return three_digits(value / 1e3, " k");
    return grouped(std::llround(value));
}

std::string exact_text(model::Counter counter, double value) {
    if (counter == model::Counter::AchievedOccupancy) return fixed(value, 2) + " %";
    return grouped(std::llround(value)) + " " + std::string(model::counter_info(counter).unit);
}

std::string metrics_text(const model::CounterInfo& info) {
    std::string text;
    for (std::string_view metric : info.metrics) text += (text.empty() ? "" : " + ") + std::string(metric);
    return text;
}

void reading_tooltip(const model::CounterReading& reading) {
    const model::CounterInfo& info = model::counter_info(reading.counter);
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    ImGui::TextUnformatted(std::string(info.label).c_str());
    ImGui::TextUnformatted(std::string(info.meaning).c_str());
    ImGui::TextUnformatted(format_text("Nsight Compute: {}", metrics_text(info)).c_str());
    ImGui::TextUnformatted(format_text("measured: {}", exact_text(reading.counter, reading.measured)).c_str());
    if (reading.model)
        ImGui::TextUnformatted(
            format_text("model: {} ({})", exact_text(reading.counter, *reading.model), reading.model_basis).c_str());
    else
        ImGui::TextUnformatted(
            format_text("model: no prediction{}", reading.model_basis.empty() ? "" : " (" + reading.model_basis + ")")
                .c_str());
    if (const auto ratio = model::counter_ratio(reading))
        ImGui::TextUnformatted(format_text("measured / model = {}", fixed(*ratio, 3)).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

void readings_table(const model::CounterReport& report) {
    constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH;
    if (!ImGui::BeginTable("##counters", 4, kFlags)) return;
    ImGui::TableSetupColumn("counter", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("measured");
    ImGui::TableSetupColumn("model");
    ImGui::TableSetupColumn("ratio");
    ImGui::TableHeadersRow();
    for (const model::CounterReading& reading : report.readings) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushID(static_cast<int>(reading.counter));
        // The whole row answers the mouse: its tooltip says what the counter is and how the
        // model got its number.
        ImGui::Selectable(std::string(model::counter_info(reading.counter).label).c_str(), false,
                          ImGuiSelectableFlags_SpanAllColumns);
        const bool hovered = ImGui::IsItemHovered();
        ImGui::PopID();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(counter_value_text(reading.counter, reading.measured).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(reading.model ? counter_value_text(reading.counter, *reading.model).c_str() : "—");
        ImGui::TableNextColumn();
        if (const auto ratio = model::counter_ratio(reading))
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ratio_colour(*ratio)), "%s",
                               (fixed(*ratio, *ratio < 10 ? 2 : 1) + "×").c_str());
        else
            ImGui::TextUnformatted("—");
        if (hovered) reading_tooltip(reading);
    }
    ImGui::EndTable();
}

// CUPTI's refusal is the driver's setting, not a fault: say what to do, in the runner's own
// words, in the colour of advice rather than of an error.
void permission_guidance(const std::string& error) {
    ImGui::PushStyleColor(ImGuiCol_Text, colours::kWarning);
    ImGui::TextWrapped("%s", "The driver does not let this user read the GPU's counters. To allow it:");
    ImGui::PopStyleColor();
    ImGui::TextWrapped("%s", error.c_str());
    muted_text("Everything else in TileScope works without it; the model's counts are still shown in the ladder and "
               "roofline views.");
}

}  // namespace

std::vector<model::KernelConfig> counters_kernels(const LabState& lab) {
    const LatencyControls& c = lab.choices.latency;
    std::vector<model::KernelConfig> kernels = {
        {model::KernelKind::Naive, c.naive_x, c.naive_y, 16},
        {model::KernelKind::NaiveRowFromX, c.naive_x, c.naive_y, 16},
        {model::KernelKind::Tiled, 16, 16, 8},
        {model::KernelKind::Tiled, 16, 16, 16},
    };
    for (const model::LadderRung& rung : model::ladder_rungs()) kernels.push_back(rung.kernel);
    return kernels;
}

bool offers_counters_for(const LabState& lab, const model::KernelConfig& kernel) {
    const auto kernels = counters_kernels(lab);
    return std::any_of(kernels.begin(), kernels.end(), [&](const model::KernelConfig& k) { return same_kernel(k, kernel); });
}

ImU32 ratio_colour(double ratio) {
    const double off = ratio > 0.0 ? std::max(ratio, 1.0 / ratio) : INFINITY;
    if (off >= 2.0) return colours::kError;
    if (off >= 1.25) return colours::kWarning;
    return ImGui::GetColorU32(ImGuiCol_Text);
}

std::string counter_value_text(model::Counter counter, double value) {
    if (counter == model::Counter::AchievedOccupancy) return fixed(value, 1) + " %";
    if (counter == model::Counter::DramBytes) return model::human_bytes(std::llround(value));
    return short_count(value);
}

std::optional<std::string> why_no_counters(const AppState& app, const model::KernelConfig& kernel,
                                           const model::Problem& problem) {
    if (!app.device) return "still probing for a CUDA GPU";
    if (!app.device->usable) return "reading counters needs a CUDA GPU: " + app.device->why_not;
    const auto read = app.lab.panels.counter_reads.find(counters_key(kernel, problem));
    if (read != app.lab.panels.counter_reads.end() && read->second.pending) return "the counters are being read";
    if (auto why = model::check_config(kernel)) return "this launch would fail: " + *why;
    if (auto why = model::check_launch(kernel, problem, app.device->limits)) return "this launch would fail: " + *why;
    return std::nullopt;
}

void read_counters_now(LabState& lab, const model::KernelConfig& kernel, const model::Problem& problem) {
    request_live(lab.measured, "counters/" + counters_key(kernel, problem), counters_request(kernel, problem));
    lab.panels.counter_reads[counters_key(kernel, problem)].pending = true;
}

void draw_counters_panel(LabState& lab, const AppState& app, const model::Problem& problem) {
    model::KernelConfig& kernel = lab.panels.counters_kernel;
    heading("Hardware counters");
    muted_text(format_text("What the GPU itself counts in one launch, read through CUPTI (the counters Nsight Compute "
                           "reads), beside what the model predicts, at {}×{}×{} {}.",
                           problem.m, problem.n, problem.k, model::dtype_name(problem.dtype)));

    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.0f);
    if (ImGui::BeginCombo("kernel##counters", model::describe(kernel).c_str())) {
        for (const model::KernelConfig& offered : counters_kernels(lab))
            if (ImGui::Selectable(model::describe(offered).c_str(), same_kernel(offered, kernel))) kernel = offered;
        ImGui::EndCombo();
    }

    const std::string key = counters_key(kernel, problem);
    const auto why_not = why_no_counters(app, kernel, problem);
    ImGui::BeginDisabled(why_not.has_value());
    if (ImGui::Button("Read the counters (one launch)")) {
        read_counters_now(lab, kernel, problem);
    }
    ImGui::EndDisabled();
    if (why_not && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", why_not->c_str());

    const auto found = lab.panels.counter_reads.find(key);
    const CounterRead* read = found == lab.panels.counter_reads.end() ? nullptr : &found->second;
    if (read && read->pending)
        muted_text(format_text("Reading the counters of {} on {}…", model::describe(kernel),
                               app.device ? app.device->limits.name : std::string("the GPU")));
    else if (why_not)
        muted_text("Unavailable: " + *why_not + ".");

    if (read && !read->error.empty()) {
        if (is_permission_error(read->error))
            permission_guidance(read->error);
        else
            coloured_text_wrapped(colours::kError, ("Could not read the counters: " + read->error).c_str());
    }
    if (!read || !read->report) return;
    const model::CounterReport& report = *read->report;
    if (!read->error.empty()) muted_text("The reading before that failure:");
    readings_table(report);
    std::string source = format_text("{}, {}×{}×{}; CUPTI replayed the launch {} to collect every counter",
                                     report.device, report.problem.m, report.problem.n, report.problem.k,
                                     model::counted(report.passes, "time"));
    if (!report.note.empty()) source += "; " + report.note;
    muted_text(source + ". Hover a row for what it counts and how the model got its number.");
}

}  // namespace ts::views
