#include "views/lab/occupancy_panel.hpp"

#include <cstdio>
#include <variant>

#include "model/format.hpp"
#include "model/launch_geometry.hpp"
#include "model/occupancy.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/lab/block_choices.hpp"

namespace ts::views {

using model::format_text;

namespace {

constexpr int kOccupancyTiles[] = {1, 2, 4, 8, 16, 32, 64};

bool int_combo(const char* label, int& value, const int* options, int count) {
    bool changed = false;
    if (ImGui::BeginCombo(label, std::to_string(value).c_str())) {
        for (int i = 0; i < count; ++i)
            if (ImGui::Selectable(std::to_string(options[i]).c_str(), options[i] == value)) {
                value = options[i];
                changed = true;
            }
        ImGui::EndCombo();
    }
    return changed;
}

void row(const char* name, const std::string& value) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(name);
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", value.c_str());  // "8 (CUDA's occupancy API; limit: …)" outgrows the panel
}

}  // namespace

model::DeviceLimits occupancy_limits(const AppState& app) {
    if (app.device && app.device->usable) return app.device->limits;
    const auto presets = model::device_presets();
    const int preset = app.lab.panels.preset;
    const int index = preset >= 0 && preset < static_cast<int>(presets.size()) ? preset : 0;
    return presets[index];
}

void draw_occupancy_panel(LabState& lab, const AppState& app) {
    model::KernelConfig& kernel = lab.panels.occupancy_kernel;
    heading("Occupancy");

    const bool gpu = app.device && app.device->usable;
    if (gpu) {
        muted_text(format_text("limits of {} (this GPU)", app.device->limits.name));
    } else {
        const auto presets = model::device_presets();
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16.0f);
        if (ImGui::BeginCombo("GPU (model)", presets[lab.panels.preset].name.c_str())) {
            for (int i = 0; i < static_cast<int>(presets.size()); ++i)
                if (ImGui::Selectable(presets[i].name.c_str(), i == lab.panels.preset)) lab.panels.preset = i;
            ImGui::EndCombo();
        }
    }

    int kind = kernel.kind == model::KernelKind::Tiled ? 1 : 0;
    ImGui::RadioButton("naive", &kind, 0);
    ImGui::SameLine();
    ImGui::RadioButton("tiled", &kind, 1);
    kernel.kind = kind == 1 ? model::KernelKind::Tiled : model::KernelKind::Naive;
    const float combo_width = ImGui::GetFontSize() * 4.5f;
    if (kernel.kind == model::KernelKind::Tiled) {
        ImGui::SetNextItemWidth(combo_width);
        int_combo("T (tile width)", kernel.tile, kOccupancyTiles, static_cast<int>(std::size(kOccupancyTiles)));
    } else {
        ImGui::SetNextItemWidth(combo_width);
        int_combo("block x", kernel.block_x, kBlockX, static_cast<int>(std::size(kBlockX)));
        ImGui::SameLine();
        ImGui::SetNextItemWidth(combo_width);
        int_combo("block y", kernel.block_y, kBlockY, static_cast<int>(std::size(kBlockY)));
    }

    model::Problem problem;
    problem.m = problem.n = problem.k = lab.choices.latency.size;
    problem.dtype = lab.choices.latency.dtype;
    problem.batch = lab.choices.latency.batch;
    const model::DeviceLimits limits = occupancy_limits(app);

    // An invalid choice is taught first: the model's reason, then (on a GPU) what CUDA says.
    std::optional<std::string> why = model::check_config(kernel);
    if (!why) why = model::check_launch(kernel, problem, limits);
    if (why) {
        coloured_text_wrapped(colours::kError, ("This launch would fail. " + *why).c_str());
        if (gpu && ImGui::Button("Try it on the GPU")) {
            gpu::RunRequest request;
            request.kernel = kernel;
            request.problem = problem;
            request.check = false;
            request_live(lab.measured, "occupancy-try", request);
        }
        return;
    }

    // On a GPU, ask CUDA about the compiled kernel once per choice; until it answers (or
    // without a GPU) the model's estimate is shown, labelled as such.
    const std::string choice = occupancy_choice(kernel, problem.dtype);
    if (gpu && lab.panels.occupancy_requested != choice) {
        gpu::RunRequest request;
        request.kind = gpu::RequestKind::Occupancy;
        request.kernel = kernel;
        request.problem = problem;
        request_live(lab.measured, "occupancy/" + model::describe(kernel), request);
        lab.panels.occupancy_requested = choice;
    }
    const gpu::KernelOccupancy* compiled = gpu && lab.panels.compiled_occupancy && lab.panels.compiled_occupancy_of == choice
                                               ? &*lab.panels.compiled_occupancy
                                               : nullptr;

    const auto occupancy = model::kernel_occupancy(
        kernel, problem, limits, compiled ? std::optional<int>(compiled->registers_per_thread) : std::nullopt);
    if (const auto* reason = std::get_if<std::string>(&occupancy)) {
        coloured_text_wrapped(colours::kError, reason->c_str());
        return;
    }
    const model::Occupancy& o = std::get<model::Occupancy>(occupancy);
    if (ImGui::BeginTable("##occupancy", 2)) {
        // Names keep their width; the values take the rest and wrap.
        ImGui::TableSetupColumn("resource", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
        row("threads / block", format_text("{} ({} warps)", o.block.threads, o.warps_per_block));
        row("shared memory / block", model::human_bytes(o.block.shared_bytes));
        row("registers / thread", format_text("{} ({})", o.block.registers_per_thread,
                                         o.block.registers_measured ? "from the compiled kernel" : "model estimate"));
        if (compiled)
            row("blocks / SM", format_text("{} (CUDA's occupancy API; limit: {})", compiled->blocks_per_sm,
                                      model::limit_name(o.limited_by)));
        else
            row("blocks / SM", format_text("{} (model estimate; limit: {})", o.blocks_per_sm, model::limit_name(o.limited_by)));
        char occupancy_text[48];
        std::snprintf(occupancy_text, sizeof occupancy_text, "%.0f %% (%d of %d warps)", o.occupancy * 100.0,
                      o.active_warps_per_sm, o.max_warps_per_sm);
        row("occupancy", occupancy_text);
        char waves[64];
        std::snprintf(waves, sizeof waves, "%.2f (%lld blocks, %d SMs)", o.waves, static_cast<long long>(o.grid_blocks),
                      limits.sm_count);
        row("waves", waves);
        ImGui::EndTable();
    }
    muted_text(format_text("at {}³, {}; {}", problem.m, model::dtype_name(problem.dtype),
                      gpu ? "the GPU's limits" : "model: limits from a preset, no GPU"));
}

}  // namespace ts::views
