#include "views/window/run_panel.hpp"

#include <cstdio>

#include "gpu/clock_watch.hpp"
#include "model/format.hpp"
#include "model/launch_geometry.hpp"
#include "model/traffic.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

using model::format_text;

namespace {

void show_result(const gpu::RunResult& result) {
    const model::Problem& p = result.request.problem;
    muted_text(format_text("last run: {}, M×N×K = {}×{}×{}", model::describe(result.request.kernel), p.m, p.n, p.k));
    if (!result.ok) {
        coloured_text_wrapped(colours::kError, ("Run failed: " + result.error).c_str());
        return;
    }
    if (ImGui::BeginTable("##result", 2, ImGuiTableFlags_SizingFixedFit)) {
        const auto row = [](const char* name, const std::string& value) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(name);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(value.c_str());
        };
        ImGui::PushFont(heading_font());
        row("median latency", model::human_seconds(result.median_ms * 1e-3));
        ImGui::PopFont();
        char gflops[32];
        std::snprintf(gflops, sizeof gflops, "%.1f GFLOP/s", result.gflops);
        row("throughput", gflops);
        row("samples", format_text("{} (after {} warm-up)", result.samples_ms.size(), result.request.warmup_launches));
        if (result.p80_ms > 0.0) {
            row("20–80th pct.", format_text("{} – {}", model::human_seconds(result.p20_ms * 1e-3),
                                       model::human_seconds(result.p80_ms * 1e-3)));
            char noise[32];
            std::snprintf(noise, sizeof noise, "%.1f %% (stdev / mean)", result.noise * 100.0);
            row("noise", noise);
        }
        if (result.model_bandwidth_gbs > 0.0) {
            char bandwidth[48];
            std::snprintf(bandwidth, sizeof bandwidth, "%.0f GB/s (model traffic)", result.model_bandwidth_gbs);
            row("bandwidth", bandwidth);
        }
        // With unlocked clocks the time depends on the clock the power cap allowed.
        if (result.clocks.readings > 0) {
            std::string clock = gpu::sm_clock_text(result.clocks);
            if (const std::string limits = gpu::clock_limit_names(result.clocks.limits); !limits.empty())
                clock += " (held back by " + limits + ")";
            row("clock", clock);
        }
        ImGui::EndTable();
    }
    if (!result.timing_warning.empty()) coloured_text_wrapped(colours::kWarning, result.timing_warning.c_str());
    if (!result.checked) {
        muted_text("not checked against the CPU reference");
    } else {
        const ImU32 colour = result.check_passed ? colours::kPass : colours::kError;
        ImGui::PushFont(heading_font());
        coloured_text_wrapped(colour, result.check_passed ? "check passed" : "check FAILED");
        ImGui::PopFont();
        coloured_text_wrapped(colour, result.check_summary.c_str());
    }
}

// The model's count of global-memory reads for both kernels at the current size: the number
// that explains why tiling pays.
void traffic_table(const AppState& state) {
    ImGui::PushFont(heading_font());
    ImGui::TextUnformatted("Global memory reads (model)");
    ImGui::PopFont();

    model::KernelConfig naive = state.kernel;
    naive.kind = model::KernelKind::Naive;
    model::KernelConfig tiled = state.kernel;
    tiled.kind = model::KernelKind::Tiled;
    const std::size_t element = model::dtype_size(state.problem.dtype);
    const model::Traffic naive_traffic = model::count_traffic(naive, state.problem);
    // A tile the model rejects (T = 64) has no kernel to count.
    const bool tiled_valid = !model::check_config(tiled);

    if (ImGui::BeginTable("##traffic", 3, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
        ImGui::TableSetupColumn("kernel");
        ImGui::TableSetupColumn("elements");
        ImGui::TableSetupColumn("bytes");
        ImGui::TableHeadersRow();
        const auto row = [element](const std::string& name, const model::Traffic& traffic) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(name.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(grouped(traffic.global_loads()).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(model::human_bytes(traffic.global_loads() * static_cast<std::int64_t>(element)).c_str());
        };
        row("naive", naive_traffic);
        // The kernel on the stage, when it is neither of the two above.
        const model::KernelKind kind = state.kernel.kind;
        if (kind != model::KernelKind::Naive && kind != model::KernelKind::Tiled && model::is_modelled(kind) &&
            !model::check_config(state.kernel))
            row(model::describe(state.kernel), model::count_traffic(state.kernel, state.problem));
        if (tiled_valid) row(format_text("tiled T={}", tiled.tile), model::count_traffic(tiled, state.problem));
        ImGui::EndTable();
    }
    if (!tiled_valid) {
        muted_text(format_text("tiled: T = {} cannot launch, so there is nothing to count", tiled.tile));
        return;
    }
    const model::Traffic tiled_traffic = model::count_traffic(tiled, state.problem);
    if (tiled_traffic.global_loads() > 0)
        ImGui::Text("tiled reads %.1f× fewer elements than naive",
                    static_cast<double>(naive_traffic.global_loads()) / static_cast<double>(tiled_traffic.global_loads()));
}

}  // namespace

void draw_run_panel(bool& run_requested, const AppState& app) {
    heading("Run");
    const auto why_not = why_no_run(app);
    ImGui::BeginDisabled(why_not.has_value());
    if (ImGui::Button("Run on GPU", ImVec2(ImGui::GetFontSize() * 9.0f, 0.0f))) run_requested = true;
    ImGui::EndDisabled();
    if (why_not && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", why_not->c_str());

    if (app.run.pending_id != 0) {
        ImGui::SameLine();
        ImGui::Text("running… %.0f s", ImGui::GetTime() - app.run.pending_since);
    } else if (why_not) {
        muted_text("Unavailable: " + *why_not);
    }
    if (app.run.last) show_result(*app.run.last);

    ImGui::Spacing();
    traffic_table(app);
}

}  // namespace ts::views
