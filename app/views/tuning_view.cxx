#include "tuning_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/format.hpp"
#include "text.hpp"
#include "theme.hpp"

namespace ts::views {

using model::format_text;

namespace {

constexpr int kBlockX[] = {8, 16, 32, 64};
constexpr int kBlockY[] = {1, 2, 4, 8, 16, 32};
constexpr int kTiles[] = {1, 2, 4, 8, 16, 32};
constexpr int kMaxThreads = 1024;  // per block, on every CUDA GPU

// Fast is dark green, slow is pale: the eye finds the best region first.
ImU32 heat_colour(double t) {
    const auto mix = [t](int fast, int slow) { return static_cast<int>(std::lround(fast + (slow - fast) * t)); };
    return IM_COL32(mix(30, 235), mix(120, 240), mix(70, 215), 255);
}

std::string ms_text(double ms) {
    char text[32];
    std::snprintf(text, sizeof text, ms < 10 ? "%.2f ms" : "%.1f ms", ms);
    return text;
}

}  // namespace

TuningData tuning_data(const LabState& lab) {
    TuningData data;
    const auto points = lab_points(lab);
    for (int x : kBlockX)
        for (int y : kBlockY) {
            TuningCell cell{x, y, x * y, nullptr};
            if (cell.threads <= kMaxThreads)
                cell.point = find_point(points, model::describe({model::KernelKind::Naive, x, y, 16}), kTuningSize, "float");
            data.cells.push_back(cell);
        }
    for (int t : kTiles)
        data.tiles.push_back({t, find_point(points, model::describe({model::KernelKind::Tiled, 16, 16, t}), kTuningSize,
                                            "float")});
    for (int i = 0; i < static_cast<int>(data.cells.size()); ++i)
        if (data.cells[i].point &&
            (data.best_cell < 0 || data.cells[i].point->median_ms < data.cells[data.best_cell].point->median_ms))
            data.best_cell = i;
    for (int i = 0; i < static_cast<int>(data.tiles.size()); ++i)
        if (data.tiles[i].point &&
            (data.best_tile < 0 || data.tiles[i].point->median_ms < data.tiles[data.best_tile].point->median_ms))
            data.best_tile = i;
    return data;
}

std::vector<gpu::RunRequest> tuning_requests() {
    std::vector<gpu::RunRequest> requests;
    const auto add = [&](const model::KernelConfig& kernel) {
        gpu::RunRequest request;
        request.kernel = kernel;
        request.problem.m = request.problem.n = request.problem.k = kTuningSize;
        request.problem.dtype = model::Dtype::Float32;
        // As the latency view's full measurements, but unchecked: the CPU reference is only
        // run up to 1024³, and at 2048³ it would take longer than the whole grid.
        request.adaptive = true;
        request.budget_s = 1.0;
        request.check = false;
        requests.push_back(request);
    };
    for (int x : kBlockX)
        for (int y : kBlockY)
            if (x * y <= kMaxThreads) add({model::KernelKind::Naive, x, y, 16});
    for (int t : kTiles) add({model::KernelKind::Tiled, 16, 16, t});
    return requests;
}

void draw_tuning_view(AppState& state, ImVec2 size) {
    LabState& lab = state.lab;
    if (state.device && state.device->usable) {
        // Live points replace the recorded ones of the same shape (lab_points), so the map
        // fills in with this GPU's numbers as the sweep goes.
        if (lab.sweep.active()) {
            ImGui::ProgressBar(float(lab.sweep.done) / float(lab.sweep.total), ImVec2(ImGui::GetFontSize() * 12.0f, 0),
                               format_text("{} of {}", lab.sweep.done, lab.sweep.total).c_str());
            ImGui::SameLine();
            if (ImGui::Button("Cancel")) cancel_sweep(lab);
        } else if (ImGui::Button("Measure this grid")) {
            start_sweep(lab, tuning_requests());
        }
    }
    const TuningData data = tuning_data(lab);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float font = ImGui::GetFontSize();
    const ImVec2 origin = ImGui::GetCursorScreenPos();

    heading(format_text("Naive kernel at {}³ (float): latency by block shape", kTuningSize).c_str());
    muted_text("Each cell is one launch shape, blockDim.x × blockDim.y. Darker is faster; the best is outlined.");

    // The heat map: block_x across, block_y down, so a row is one blockDim.y.
    const float label_w = font * 5.5f;
    const float cell_w = std::min((size.x - label_w) / 4.0f, font * 11.0f);
    const float cell_h = font * 2.6f;
    ImVec2 grid = ImGui::GetCursorScreenPos();
    grid.x += label_w;
    grid.y += font * 2.8f;
    draw->AddText(ImVec2(grid.x, grid.y - font * 2.7f), colours::kMuted, "blockDim.x (threads across)");
    draw->AddText(ImVec2(grid.x - label_w, grid.y - font * 1.35f), colours::kMuted, "blockDim.y");

    double fastest = 0, slowest = 0;
    for (const TuningCell& c : data.cells)
        if (c.point) {
            fastest = fastest == 0 ? c.point->median_ms : std::min(fastest, c.point->median_ms);
            slowest = std::max(slowest, c.point->median_ms);
        }
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    for (int i = 0; i < static_cast<int>(data.cells.size()); ++i) {
        const TuningCell& c = data.cells[i];
        const int col = i / 6;
        const int row = i % 6;
        const ImVec2 a(grid.x + col * cell_w, grid.y + row * cell_h);
        const ImVec2 b(a.x + cell_w - 3, a.y + cell_h - 3);
        if (row == 0) draw->AddText(ImVec2(a.x + cell_w * 0.45f, grid.y - font * 1.35f), IM_COL32_BLACK,
                                    std::to_string(c.block_x).c_str());
        if (col == 0) draw->AddText(ImVec2(grid.x - font * 2.0f, a.y + cell_h * 0.3f), IM_COL32_BLACK,
                                    std::to_string(c.block_y).c_str());
        std::string text;
        std::string tooltip;
        double shade = 1.0;  // 0: the fastest, 1: the slowest or not measured
        if (c.point && slowest > fastest) shade = std::log(c.point->median_ms / fastest) / std::log(slowest / fastest);
        else if (c.point) shade = 0.0;
        if (c.threads > kMaxThreads) {
            draw->AddRectFilled(a, b, colours::kGhostFill);
            draw->PushClipRect(a, b, true);
            for (float x = a.x; x < b.x + cell_h; x += 8) draw->AddLine(ImVec2(x, a.y), ImVec2(x - cell_h, b.y), colours::kGhostHatch);
            draw->PopClipRect();
            text = format_text("invalid: {} threads", c.threads);
            tooltip = format_text("{}×{} = {} threads per block: CUDA allows at most {}, so this launch fails with "
                             "\"invalid configuration argument\".", c.block_x, c.block_y, c.threads, kMaxThreads);
        } else if (c.point) {
            draw->AddRectFilled(a, b, heat_colour(shade));
            text = ms_text(c.point->median_ms);
            tooltip = format_text("naive {}×{} ({} threads): {} median, p20–p80 {} – {}\n{}", c.block_x, c.block_y, c.threads,
                             ms_text(c.point->median_ms), ms_text(c.point->p20_ms), ms_text(c.point->p80_ms),
                             c.point->checked && c.point->check_passed ? "check passed" : "not checked");
        } else {
            draw->AddRect(a, b, colours::kGhostHatch);
            text = "not measured";
        }
        const bool dark = c.point && shade < 0.45;  // white text on the dark cells
        draw->AddText(ImVec2(a.x + 6, a.y + (cell_h - font) * 0.45f), dark ? IM_COL32_WHITE : IM_COL32(30, 30, 30, 255),
                      text.c_str());
        if (i == data.best_cell) {
            draw->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2), colours::kHighlight, 0, 0, 3.0f);
            draw->AddText(ImVec2(b.x - font * 2.6f, a.y + (cell_h - font) * 0.45f), IM_COL32_WHITE, "best");
        }
        if (!tooltip.empty() && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y)
            ImGui::SetTooltip("%s", tooltip.c_str());
    }
    ImGui::SetCursorScreenPos(ImVec2(origin.x, grid.y + 6 * cell_h + font * 0.5f));
    if (data.best_cell >= 0) {
        const TuningCell& best = data.cells[data.best_cell];
        ImGui::Text("Best naive shape: %d×%d, %s. Grey cells would launch more than 1024 threads per block.",
                    best.block_x, best.block_y, ms_text(best.point->median_ms).c_str());
    }

    // The tiled kernel: one bar per T, its length the throughput, so longer is better.
    ImGui::Spacing();
    heading(format_text("Tiled kernel at {}³ (float): throughput by tile width T", kTuningSize).c_str());
    double top = 0;
    for (const TuningTile& t : data.tiles)
        if (t.point) top = std::max(top, t.point->gflops);
    const ImVec2 bars = ImGui::GetCursorScreenPos();
    const float bar_h = font * 1.5f;
    const float bar_max = std::max(size.x - label_w - font * 16.0f, font * 10.0f);
    for (int i = 0; i < static_cast<int>(data.tiles.size()); ++i) {
        const TuningTile& t = data.tiles[i];
        const float y = bars.y + i * (bar_h + 4);
        draw->AddText(ImVec2(bars.x, y + 2), IM_COL32_BLACK, format_text("T = {}", t.tile).c_str());
        if (!t.point) {
            draw->AddText(ImVec2(bars.x + label_w, y + 2), colours::kMuted, "not measured");
            continue;
        }
        const float w = top > 0 ? static_cast<float>(t.point->gflops / top) * bar_max : 0;
        const ImVec2 a(bars.x + label_w, y);
        const ImVec2 b(a.x + std::max(w, 2.0f), y + bar_h);
        draw->AddRectFilled(a, b, i == data.best_tile ? colours::kA.line : colours::kA.fill);
        if (i == data.best_tile) draw->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2), colours::kHighlight, 0, 0, 3.0f);
        char value[96];
        std::snprintf(value, sizeof value, "%.0f GFLOP/s, %s%s", t.point->gflops, ms_text(t.point->median_ms).c_str(),
                      i == data.best_tile ? "   best" : "");
        draw->AddText(ImVec2(b.x + 8, y + 2), IM_COL32_BLACK, value);
        if (mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y)
            ImGui::SetTooltip("tiled T=%d: %s median, p20–p80 %s – %s", t.tile, ms_text(t.point->median_ms).c_str(),
                              ms_text(t.point->p20_ms).c_str(), ms_text(t.point->p80_ms).c_str());
    }
    ImGui::SetCursorScreenPos(ImVec2(bars.x, bars.y + 6 * (bar_h + 4) + font * 0.3f));
    muted_text("T = 1 and 2 reuse almost nothing from shared memory and pay a barrier per element; T = 64 would need "
               "4096 threads per block and cannot launch.");
    ImGui::Dummy(ImVec2(size.x, 1));
}

}  // namespace ts::views
