#include "views/window/setup_panel.hpp"

#include <algorithm>
#include <string>

#include "model/format.hpp"
#include "model/ladder.hpp"
#include "model/ladder_rungs.hpp"
#include "model/launch_geometry.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

using model::format_text;

namespace {

void size_input(const char* label, std::int64_t& value) {
    const std::int64_t step = 1, fast_step = 16;
    // Clamp only what the user typed: a larger size given on the command line stays.
    if (ImGui::InputScalar(label, ImGuiDataType_S64, &value, &step, &fast_step))
        value = std::clamp<std::int64_t>(value, 1, kMaxTypedSize);
}

// A tuned rung (12, 19) runs the tuner's choice for the GPU and size (variant -1), or one candidate.
void tuned_shape_combo(model::KernelConfig& config) {
    const auto name = [&](int variant) {
        return variant < 0 ? std::string("tuner's pick for GPU, size")
                           : format_text("#{}: {}", variant, model::describe_candidate(config.kind, variant));
    };
    // As wide as the panel allows; the list itself widens to the longest shape.
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 13.0f);
    if (!ImGui::BeginCombo("shape", name(config.variant).c_str())) return;
    for (int variant = -1; variant < model::tuned_candidate_count(config.kind); ++variant)
        if (ImGui::Selectable(name(variant).c_str(), variant == config.variant)) config.variant = variant;
    ImGui::EndCombo();
}

void kernel_combo(model::KernelConfig& config) {
    const std::string current(model::kernel_name(config.kind));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 11.0f);  // room for "column-per-thread"
    if (!ImGui::BeginCombo("kernel", current.c_str())) return;
    for (const model::RungInfo& row : model::rung_table()) {
        const model::KernelKind kind = row.kind;
        const std::string name(row.name);
        // A candidate of one tuned rung means nothing to another: a new kind starts at the tuner's pick.
        if (ImGui::Selectable(name.c_str(), kind == config.kind) && kind != config.kind) {
            config.kind = kind;
            config.variant = -1;
        }
    }
    ImGui::EndCombo();
}

struct Example {
    const char* label;
    std::int64_t m, n, k;
    int tile;
};

// Set-ups worth showing a class: the textbook's 4×4 example with 2×2 blocks, the first-launch
// default, sizes that are not multiples of T (ghost threads and padding), and a size where
// only the measurement is interesting.
constexpr Example kExamples[] = {
    {"PMPP 4×4, T=2", 4, 4, 4, 2},
    {"12×16×8, T=4", 12, 16, 8, 4},
    {"40×28×36, T=8", 40, 28, 36, 8},
    {"4096³, T=16", 4096, 4096, 4096, 16},
};

void example_buttons(model::Problem& problem, model::KernelConfig& kernel) {
    ImGui::TextUnformatted("Examples:");
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    for (const Example& example : kExamples) {
        const float width = ImGui::CalcTextSize(example.label).x + 2 * ImGui::GetStyle().FramePadding.x;
        // Keep buttons on one line while they fit, and wrap when they do not.
        ImGui::SameLine();
        if (ImGui::GetCursorScreenPos().x + width > right) ImGui::NewLine();
        if (ImGui::SmallButton(example.label)) {
            problem.m = example.m;
            problem.n = example.n;
            problem.k = example.k;
            kernel.kind = model::KernelKind::Tiled;
            kernel.tile = example.tile;
        }
    }
}

void launch_summary(const AppState& state) {
    const model::LaunchGeometry launch = model::plan_launch(state.kernel, state.problem);
    if (!launch.modelled) {
        muted_text(std::string(model::unmodelled_reason(state.kernel.kind)) + ".");
        return;
    }
    ImGui::Text("grid (%lld, %lld) blocks of (%lld, %lld) threads", static_cast<long long>(launch.grid.x),
                static_cast<long long>(launch.grid.y), static_cast<long long>(launch.block.x),
                static_cast<long long>(launch.block.y));
    ImGui::Text("%s threads, %s of them ghosts", grouped(launch.threads()).c_str(),
                grouped(launch.ghost_threads).c_str());
    if (launch.shared_bytes > 0) {
        // The pipelined rungs hold several K steps' tiles at once.
        const int stages = model::is_ladder(state.kernel.kind) ? model::ladder_shape(state.kernel).stages : 1;
        if (stages > 1)
            ImGui::Text("shared memory: %s per block, %d stages", model::human_bytes(launch.shared_bytes).c_str(),
                        stages);
        else
            ImGui::Text("shared memory: %s per block (a tile of A and of B)",
                        model::human_bytes(launch.shared_bytes).c_str());
    }
    if (state.kernel.kind == model::KernelKind::Tiled)
        ImGui::Text("phases along K: %d", model::phase_count(static_cast<int>(state.problem.k), state.kernel.tile));
    else if (model::is_ladder(state.kernel.kind))
        ImGui::Text("K steps: %d", model::ladder_steps(model::ladder_shape(state.kernel),
                                                       static_cast<int>(state.problem.k)));
}

}  // namespace

void draw_setup_panel(model::Problem& problem, model::KernelConfig& kernel, const AppState& app) {
    heading("Setup");
    ImGui::PushItemWidth(ImGui::GetFontSize() * 8.0f);
    size_input("M  rows of A and C", problem.m);
    size_input("N  columns of B and C", problem.n);
    size_input("K  columns of A, rows of B", problem.k);
    kernel_combo(kernel);
    if (kernel.kind == model::KernelKind::Tiled) {
        if (ImGui::InputInt("T  tile width", &kernel.tile, 1, 4))
            kernel.tile = std::clamp(kernel.tile, 1, kMaxTypedTile);
    } else if (model::uses_1d_blocks(kernel.kind)) {
        if (ImGui::InputInt("blockDim.x  threads per block", &kernel.block_x, 1, 32))
            kernel.block_x = std::clamp(kernel.block_x, 1, 1024);
    } else if (model::is_ladder(kernel.kind)) {
        // A rung's shape is fixed in its kernel file: shown, not typed.
        if (model::is_tuned(kernel.kind)) tuned_shape_combo(kernel);
        const model::LadderShape s = model::ladder_shape(kernel);
        muted_text(format_text("{} threads; block tile {}×{}, K step {}; {} cells per thread ({})", s.threads(), s.bm,
                               s.bn, s.bk, s.cells_per_thread(), model::describe_shape(s)));
    } else if (model::is_tuned(kernel.kind)) {  // tc-tuned: a tuned rung off the FP32 ladder
        tuned_shape_combo(kernel);
    } else if (model::is_modelled(kernel.kind)) {
        int block[2] = {kernel.block_x, kernel.block_y};
        if (ImGui::InputInt2("blockDim (x, y)", block)) {
            kernel.block_x = std::clamp(block[0], 1, 1024);
            kernel.block_y = std::clamp(block[1], 1, 1024);
        }
    }
    ImGui::PopItemWidth();
    muted_text(format_text("element type: {}", model::dtype_name(problem.dtype)));
    example_buttons(problem, kernel);

    ImGui::Spacing();
    if (const auto why = launch_error(app)) {
        coloured_text_wrapped(colours::kError, ("Cannot launch: " + *why).c_str());
    } else {
        launch_summary(app);
    }
    muted_text("checked against: " + launch_limits(app).name);
}

}  // namespace ts::views
