#include "views/lab/tuning_view.hpp"

#include "views/lab/block_choices.hpp"
#include "views/lab/lab_view.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include "gpu/tuned_shapes.hpp"
#include "model/format.hpp"
#include "model/ladder.hpp"
#include "model/tuning_table.hpp"
#include "model/user_kernel/launch.hpp"
#include "platform/imgui_compat.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

using model::fixed;
using model::format_text;

namespace {

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

model::KernelConfig candidate_kernel(int variant) {
    model::KernelConfig kernel;
    kernel.kind = model::KernelKind::Tuned;
    kernel.variant = variant;
    return kernel;
}

// One float point of a map (defined with the requests, below).
gpu::RunRequest unchecked_request(const model::KernelConfig& kernel, int size);

// The first of `texts` (longest first) that fits `width` in `font`, else the last.
const std::string& fitting(const std::vector<std::string>& texts, ImFont* font, float size, float width) {
    for (const std::string& text : texts)
        if (font->CalcTextSizeA(size, FLT_MAX, 0, text.c_str()).x <= width) return text;
    return texts.back();
}

// The tuned rung's candidates × sizes: a row per shape, a column per size; each cell its
// GFLOP/s against the best candidate of that size (dark: the best, pale: half of it or less),
// the tuning table's pick outlined. Without points the grid is still drawn, empty, with a line
// that says how to fill it.
void draw_candidates(LabMeasurements& measured, const AppState& app, ImVec2 size) {
    const bool gpu = app.device && app.device->usable;
    const std::string gpu_name =
        gpu ? app.device->limits.name : (measured.measurement ? measured.measurement->meta.device.name : std::string());
    const CandidateData data = candidate_data(app.lab, gpu_name);
    const auto points = lab_points(measured);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float font = ImGui::GetFontSize();
    ImFont* small = small_font();
    const float small_size = imgui_compat::font_size(small);
    const ImU32 text_colour = ImGui::GetColorU32(ImGuiCol_Text);

    heading("The tuned rung's candidates (float)");
    muted_text(format_text("A cell per shape and size: darker is closer to the best candidate at that size (100 %). "
                           "Outlined: the tuner's pick for the {} ({}).",
                           data.gpu.empty() ? "any GPU" : data.gpu, data.pick_source));
    if (!data.any_measured)
        coloured_text_wrapped(colours::kWarning,
                              gpu ? "Not measured yet: Measure on this GPU (Measure the candidates, above), or load a "
                                    "measurement that has them."
                                  : "Not measured yet: Measure on a GPU, or load a measurement that has them (tilescope-cli "
                                    "bench --sweep default records them).");

    // Row names: "#1  128×256×8" and, small beneath, the rest of model::describe_shape.
    std::vector<std::string> first, rest;
    for (int v = 0; v < model::kTunedCandidateCount; ++v) {
        const std::string shape = model::describe_shape(model::kTunedCandidates[v]);
        const std::size_t comma = shape.find(", ");
        first.push_back(format_text("#{}  {}", v, shape.substr(0, comma)));
        rest.push_back(comma == std::string::npos ? std::string() : shape.substr(comma + 2));
    }
    float label_w = 0;
    for (const std::string& text : first) label_w = std::max(label_w, ImGui::CalcTextSize(text.c_str()).x);
    float rest_w = 0;
    for (const std::string& text : rest) rest_w = std::max(rest_w, small->CalcTextSizeA(small_size, FLT_MAX, 0, text.c_str()).x);
    // The shapes' second lines wrap where they would take more than 40 % of the width.
    // (2 pixels over the widest, as ImGui would otherwise wrap a line of exactly that width).
    const float wrap = std::min(rest_w + 2.0f, size.x * 0.4f);
    label_w = std::max(label_w, wrap) + font;
    const float cell_w = std::min((size.x - label_w) / static_cast<float>(data.sizes.size()), font * 13.0f);
    float row_h = font * 1.1f + small_size * 1.05f + font * 0.25f;
    for (const std::string& text : rest)
        row_h = std::max(row_h, font * 1.1f + small->CalcTextSizeA(small_size, FLT_MAX, wrap, text.c_str()).y + font * 0.25f);

    ImVec2 grid = ImGui::GetCursorScreenPos();
    const float left = grid.x;
    grid.x += label_w;
    grid.y += font * 0.3f;
    for (std::size_t s = 0; s < data.sizes.size(); ++s)
        draw->AddText(ImVec2(grid.x + s * cell_w + font * 0.3f, grid.y), text_colour,
                      format_text("{}³", data.sizes[s]).c_str());
    grid.y += font * 1.4f;

    const ImVec2 mouse = ImGui::GetIO().MousePos;
    for (int v = 0; v < model::kTunedCandidateCount; ++v) {
        const float y = grid.y + v * row_h;
        draw->AddText(ImVec2(left, y + font * 0.1f), text_colour, first[v].c_str());
        draw->AddText(small, small_size, ImVec2(left, y + font * 1.1f), colours::kMuted, rest[v].c_str(), nullptr, wrap);
        for (std::size_t s = 0; s < data.sizes.size(); ++s) {
            const CandidateCell& cell = data.at(v, static_cast<int>(s));
            const ImVec2 a(grid.x + s * cell_w, y);
            const ImVec2 b(a.x + cell_w - 3, a.y + row_h - 3);
            const bool picked = data.picks[s] == v;
            std::string tooltip;
            const auto failure = failure_at(measured, points, unchecked_request(candidate_kernel(v), cell.size));
            if (failure) {
                if (failed_box(draw, a, b, ImVec2(a.x + font * 0.3f, a.y + font * 0.1f), *failure, gpu))
                    measure_again(measured, *failure);
            } else if (cell.point) {
                // 100 % is the darkest; half the best speed or less the palest.
                const double shade = std::clamp((1.0 - cell.relative) * 2.0, 0.0, 1.0);
                draw->AddRectFilled(a, b, heat_colour(shade));
                const ImU32 ink = shade < 0.45 ? IM_COL32_WHITE : IM_COL32(30, 30, 30, 255);
                const float inner = cell_w - font * 0.8f;
                const std::string percent = format_text("{} %", fixed(cell.relative * 100.0, 0));
                draw->AddText(ImVec2(a.x + font * 0.3f, a.y + font * 0.1f), ink,
                              fitting({format_text("{} · {}", ms_text(cell.point->median_ms), percent),
                                       ms_text(cell.point->median_ms)},
                                      ImGui::GetFont(), font, inner)
                                  .c_str());
                const std::string rate = fitting({format_text("{} GFLOP/s", grouped(std::llround(cell.point->gflops))),
                                                  format_text("{} TFLOP/s", fixed(cell.point->gflops / 1000.0, 1)), percent},
                                                 small, small_size, inner);
                draw->AddText(small, small_size, ImVec2(a.x + font * 0.3f, a.y + font * 1.1f), ink, rate.c_str());
                tooltip = format_text("tuned #{} ({}) at {}³: {} median, {} GFLOP/s, {} % of the best candidate here",
                                      v, model::describe_shape(model::kTunedCandidates[v]), cell.size,
                                      ms_text(cell.point->median_ms), grouped(std::llround(cell.point->gflops)),
                                      fixed(cell.relative * 100.0, 1));
            } else {
                draw->AddRect(a, b, colours::kGhostHatch);
                draw->AddText(ImVec2(a.x + font * 0.3f, a.y + font * 0.1f), colours::kMuted, "not measured");
            }
            if (picked) {
                draw->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2), colours::kHighlight, 0, 0, 3.0f);
                const float tag_w = small->CalcTextSizeA(small_size, FLT_MAX, 0, "pick").x;
                draw->AddRectFilled(ImVec2(b.x - tag_w - font * 0.5f, b.y - small_size - font * 0.2f), b, colours::kHighlight);
                draw->AddText(small, small_size, ImVec2(b.x - tag_w - font * 0.25f, b.y - small_size - font * 0.1f),
                              IM_COL32_WHITE, "pick");
                tooltip += (tooltip.empty() ? "" : "\n") +
                           format_text("The tuner's pick at {}³ for the {} ({}).", cell.size,
                                       data.gpu.empty() ? "any GPU" : data.gpu, data.pick_source);
            }
            if (!tooltip.empty() && !failure && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y)
                ImGui::SetTooltip("%s", tooltip.c_str());
        }
    }
    ImGui::SetCursorScreenPos(ImVec2(left, grid.y + model::kTunedCandidateCount * row_h + font * 0.3f));
}

}  // namespace

CandidateData candidate_data(const LabState& lab, const std::string& gpu) {
    CandidateData data;
    data.gpu = gpu;
    data.sizes.assign(std::begin(model::kCandidateSweepSizes), std::end(model::kCandidateSweepSizes));
    const auto points = lab_points(lab.measured);
    for (int v = 0; v < model::kTunedCandidateCount; ++v)
        for (int size : data.sizes) {
            CandidateCell cell{v, size, find_point(points, model::describe(candidate_kernel(v)), size, "float")};
            // A cell whose latest request failed has no number: it neither shades nor wins.
            if (failure_at(lab.measured, points, unchecked_request(candidate_kernel(v), size))) cell.point = nullptr;
            data.any_measured = data.any_measured || cell.point;
            data.cells.push_back(cell);
        }
    for (std::size_t s = 0; s < data.sizes.size(); ++s) {
        model::Problem problem;
        problem.m = problem.n = problem.k = data.sizes[s];
        const gpu::TunedChoice choice = gpu::choose_tuned_variant(model::KernelKind::Tuned, gpu, problem);
        data.picks.push_back(choice.variant);
        data.pick_source = choice.source;
        int best = -1;
        for (int v = 0; v < model::kTunedCandidateCount; ++v) {
            const CandidateCell& cell = data.at(v, static_cast<int>(s));
            if (cell.point && (best < 0 || cell.point->gflops > data.at(best, static_cast<int>(s)).point->gflops))
                best = v;
        }
        data.best.push_back(best);
        if (best < 0) continue;
        const double top = data.at(best, static_cast<int>(s)).point->gflops;
        for (int v = 0; v < model::kTunedCandidateCount; ++v) {
            CandidateCell& cell = data.cells[static_cast<std::size_t>(v) * data.sizes.size() + s];
            if (cell.point && top > 0) cell.relative = cell.point->gflops / top;
        }
    }
    return data;
}

namespace {

// One float point of a map, M = N = K = `size`: adaptive, as the latency view's full
// measurements, but unchecked: the CPU reference is only run up to 1024³, and at 2048³ and
// above it would take longer than the whole map (`tilescope-cli check` checks every kernel).
gpu::RunRequest unchecked_request(const model::KernelConfig& kernel, int size) {
    gpu::RunRequest request;
    request.kernel = kernel;
    request.problem.m = request.problem.n = request.problem.k = size;
    request.problem.dtype = model::Dtype::Float32;
    request.adaptive = true;
    request.budget_s = 1.0;
    request.check = false;
    return request;
}

// Your kernel's point beside the tile widths: the same request, with your source.
gpu::RunRequest yours_request(const gpu::UserKernelSource& yours) {
    gpu::RunRequest request = unchecked_request({}, kTuningSize);
    request.user = yours;
    return request;
}

}  // namespace

std::vector<gpu::RunRequest> candidate_requests() {
    std::vector<gpu::RunRequest> requests;
    for (int v = 0; v < model::kTunedCandidateCount; ++v)
        for (int size : model::kCandidateSweepSizes) requests.push_back(unchecked_request(candidate_kernel(v), size));
    return requests;
}

TuningData tuning_data(const LabState& lab) {
    TuningData data;
    const auto points = lab_points(lab.measured);
    for (int x : kBlockX)
        for (int y : kBlockY) {
            TuningCell cell{x, y, x * y, nullptr};
            const model::KernelConfig naive{model::KernelKind::Naive, x, y, 16};
            // A shape whose latest request failed has no number: it neither shades nor wins.
            if (cell.threads <= kMaxThreads && !failure_at(lab.measured, points, unchecked_request(naive, kTuningSize)))
                cell.point = find_point(points, model::describe(naive), kTuningSize, "float");
            data.cells.push_back(cell);
        }
    for (int t : kSweptTiles) {
        const model::KernelConfig tiled{model::KernelKind::Tiled, 16, 16, t};
        const bool failed = failure_at(lab.measured, points, unchecked_request(tiled, kTuningSize)).has_value();
        data.tiles.push_back({t, failed ? nullptr : find_point(points, model::describe(tiled), kTuningSize, "float")});
    }
    if (const auto& yours = lab.choices.latency.yours) {
        data.has_yours = true;
        data.yours_name = yours_config(yours->name);
        const model::Problem at{kTuningSize, kTuningSize, kTuningSize, 1, model::Dtype::Float32};
        if (!failure_at(lab.measured, points, yours_request(*yours)))
            data.yours = find_point(points, data.yours_name, kTuningSize, "float");
        const auto shape = model::resolve_launch(yours->launch, at);
        data.yours_launch = std::holds_alternative<model::UserLaunchShape>(shape)
                                ? model::describe_launch(std::get<model::UserLaunchShape>(shape))
                                : "its launch has no value here: " + std::get<std::string>(shape);
    }
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

std::vector<gpu::RunRequest> tuning_requests(const std::optional<gpu::UserKernelSource>& yours) {
    std::vector<gpu::RunRequest> requests;
    const auto add = [&](const model::KernelConfig& kernel) { requests.push_back(unchecked_request(kernel, kTuningSize)); };
    for (int x : kBlockX)
        for (int y : kBlockY)
            if (x * y <= kMaxThreads) add({model::KernelKind::Naive, x, y, 16});
    for (int t : kSweptTiles) add({model::KernelKind::Tiled, 16, 16, t});
    if (yours) requests.push_back(yours_request(*yours));
    return requests;
}

void draw_tuning_view(LabMeasurements& measured, const AppState& app, ImVec2 size) {
    const bool gpu = app.device && app.device->usable;
    if (gpu) {
        // Live points replace the recorded ones of the same shape (lab_points), so the map
        // fills in with this GPU's numbers as the sweep goes.
        if (!draw_sweep_progress(measured)) {
            if (ImGui::Button("Measure this grid"))
                start_sweep(measured, tuning_requests(app.lab.choices.latency.yours));
            ImGui::SameLine();
            if (ImGui::Button("Measure the candidates")) start_sweep(measured, candidate_requests());
        }
    }
    const TuningData data = tuning_data(app.lab);
    const auto points = lab_points(measured);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float font = ImGui::GetFontSize();
    const ImVec2 origin = ImGui::GetCursorScreenPos();

    heading(format_text("Naive kernel at {}³ (float): latency by block shape", kTuningSize).c_str());
    muted_text("Each cell is one launch shape, blockDim.x × blockDim.y. Darker is faster; the best is outlined.");

    // The heat map: block_x across, block_y down, so a row is one blockDim.y.
    const float label_w = font * 5.5f;
    const float cell_w = std::min((size.x - label_w) / 4.0f, font * 11.0f);
    // Compact enough that the candidates' map below fits a 1000-pixel window at 1× too.
    const float cell_h = font * 2.0f;
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
        // The point's latest request failed: said in its cell, above any older number.
        const auto failure = c.threads > kMaxThreads
                                 ? std::nullopt
                                 : failure_at(measured, points, unchecked_request({model::KernelKind::Naive, c.block_x, c.block_y, 16},
                                                                             kTuningSize));
        double shade = 1.0;  // 0: the fastest, 1: the slowest or not measured
        if (c.point && slowest > fastest) shade = std::log(c.point->median_ms / fastest) / std::log(slowest / fastest);
        else if (c.point) shade = 0.0;
        if (c.threads > kMaxThreads) {
            draw->AddRectFilled(a, b, colours::kGhostFill);
            draw->PushClipRect(a, b, true);
            for (float x = a.x; x < b.x + cell_h; x += 8) draw->AddLine(ImVec2(x, a.y), ImVec2(x - cell_h, b.y), colours::kGhostHatch);
            draw->PopClipRect();
            // The count where the cell has room for it (2× text: the tooltip has it).
            text = first_fitting({format_text("invalid: {} threads", c.threads)}, ImGui::GetFont(), b.x - a.x - 12)
                       .value_or("invalid");
            tooltip = format_text("{}×{} = {} threads per block: CUDA allows at most {}, so this launch fails with "
                             "\"invalid configuration argument\".", c.block_x, c.block_y, c.threads, kMaxThreads);
        } else if (failure) {
            if (failed_box(draw, a, b, ImVec2(a.x + 6, a.y + (cell_h - font) * 0.45f), *failure, gpu))
                measure_again(measured, *failure);
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
        draw->PushClipRect(a, b, true);
        draw->AddText(ImVec2(a.x + 6, a.y + (cell_h - font) * 0.45f), dark ? IM_COL32_WHITE : IM_COL32(30, 30, 30, 255),
                      text.c_str());
        draw->PopClipRect();
        if (i == data.best_cell) {
            draw->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2), colours::kHighlight, 0, 0, 3.0f);
            // "best" beside the time where both fit; the outline and the line under the map say it anyway.
            const float best_w = ImGui::CalcTextSize("best").x;
            if (6 + ImGui::CalcTextSize(text.c_str()).x + font * 0.6f + best_w + font * 0.3f <= b.x - a.x)
                draw->AddText(ImVec2(b.x - font * 0.3f - best_w, a.y + (cell_h - font) * 0.45f), IM_COL32_WHITE, "best");
        }
        if (!tooltip.empty() && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y)
            ImGui::SetTooltip("%s", tooltip.c_str());
    }
    ImGui::SetCursorScreenPos(ImVec2(origin.x, grid.y + 6 * cell_h + font * 0.5f));
    if (data.best_cell >= 0) {
        const TuningCell& best = data.cells[data.best_cell];
        ImGui::TextWrapped("Best naive shape: %d×%d, %s. Grey cells would launch more than 1024 threads per block.",
                           best.block_x, best.block_y, ms_text(best.point->median_ms).c_str());
    }

    // The tiled kernel: one bar per T, its length the throughput, so longer is better.
    ImGui::Spacing();
    heading(format_text("Tiled kernel at {}³ (float): throughput by tile width T", kTuningSize).c_str());
    double top = 0;
    for (const TuningTile& t : data.tiles)
        if (t.point) top = std::max(top, t.point->gflops);
    if (data.yours) top = std::max(top, data.yours->gflops);
    const ImVec2 bars = ImGui::GetCursorScreenPos();
    const float bar_h = font * 1.15f;
    // The values after the bars (the best one's with "best"), and the bars short enough to leave
    // the widest of them room before the view's edge.
    const auto tile_value = [&](int i) {
        const TuningTile& t = data.tiles[i];
        return format_text("{} GFLOP/s, {}{}", fixed(t.point->gflops, 0), ms_text(t.point->median_ms),
                           i == data.best_tile ? "   best" : "");
    };
    const auto yours_value = [&] {
        return format_text("{} GFLOP/s, {}", fixed(data.yours->gflops, 0), ms_text(data.yours->median_ms));
    };
    float value_w = 0.0f;
    for (int i = 0; i < static_cast<int>(data.tiles.size()); ++i)
        if (data.tiles[i].point) value_w = std::max(value_w, ImGui::CalcTextSize(tile_value(i).c_str()).x);
    if (data.yours) value_w = std::max(value_w, ImGui::CalcTextSize(yours_value().c_str()).x);
    const float bar_max = std::max(size.x - label_w - value_w - font * 1.5f, font * 6.0f);
    for (int i = 0; i < static_cast<int>(data.tiles.size()); ++i) {
        const TuningTile& t = data.tiles[i];
        const float y = bars.y + i * (bar_h + 3);
        draw->AddText(ImVec2(bars.x, y + 1), IM_COL32_BLACK, format_text("T = {}", t.tile).c_str());
        if (const auto failure =
                failure_at(measured, points, unchecked_request({model::KernelKind::Tiled, 16, 16, t.tile}, kTuningSize))) {
            // A failed bar spans the row, outlined in red, so that it cannot pass for a slow one.
            const ImVec2 a(bars.x + label_w, y);
            if (failed_box(draw, a, ImVec2(a.x + bar_max, y + bar_h), ImVec2(a.x + font * 0.4f, y + 2), *failure, gpu))
                measure_again(measured, *failure);
            continue;
        }
        if (!t.point) {
            draw->AddText(ImVec2(bars.x + label_w, y + 2), colours::kMuted, "not measured");
            continue;
        }
        const float w = top > 0 ? static_cast<float>(t.point->gflops / top) * bar_max : 0;
        const ImVec2 a(bars.x + label_w, y);
        const ImVec2 b(a.x + std::max(w, 2.0f), y + bar_h);
        draw->AddRectFilled(a, b, i == data.best_tile ? colours::kA.line : colours::kA.fill);
        if (i == data.best_tile) draw->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2), colours::kHighlight, 0, 0, 3.0f);
        draw->AddText(ImVec2(b.x + 8, y + 2), IM_COL32_BLACK, tile_value(i).c_str());
        if (mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y)
            ImGui::SetTooltip("tiled T=%d: %s median, p20–p80 %s – %s", t.tile, ms_text(t.point->median_ms).c_str(),
                              ms_text(t.point->p20_ms).c_str(), ms_text(t.point->p80_ms).c_str());
    }
    int rows = static_cast<int>(data.tiles.size());
    // Your kernel under the tiles, on the same scale, in its own colour; not a candidate for "best".
    if (data.has_yours) {
        const float y = bars.y + rows * (bar_h + 3);
        ++rows;
        draw->AddText(ImVec2(bars.x, y + 1), kYoursColour, "yours");
        const ImVec2 a(bars.x + label_w, y);
        if (!data.yours) {
            draw->AddText(ImVec2(a.x, y + 2), colours::kMuted, "not measured");
        } else {
            const float w = top > 0 ? static_cast<float>(data.yours->gflops / top) * bar_max : 0;
            const ImVec2 b(a.x + std::max(w, 2.0f), y + bar_h);
            draw->AddRectFilled(a, b, kYoursColour);
            // The name is in the sentence under the bars; the bar keeps its numbers short, as the tiles' do.
            draw->AddText(ImVec2(b.x + 8, y + 2), IM_COL32_BLACK, yours_value().c_str());
            if (mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y)
                ImGui::SetTooltip("%s at %d³: %s", data.yours_name.c_str(), kTuningSize, data.yours_launch.c_str());
        }
    }
    ImGui::SetCursorScreenPos(ImVec2(bars.x, bars.y + rows * (bar_h + 3) + font * 0.3f));
    muted_text("T = 1 and 2 reuse almost nothing and pay a barrier per element; T = 64 would need 4096 threads per "
               "block and cannot launch.");
    if (data.has_yours) {
        const TuningTile* best = data.best_tile >= 0 ? &data.tiles[static_cast<std::size_t>(data.best_tile)] : nullptr;
        if (!data.yours)
            muted_text(format_text("{}: not measured at {}³ (Measure this grid measures it too).", data.yours_name,
                                   kTuningSize));
        else
            muted_text(format_text("{}: {} GFLOP/s at {}³{} ({}).", data.yours_name, fixed(data.yours->gflops, 0),
                                   kTuningSize,
                                   best ? format_text(", {}× the best tile width's (T = {})",
                                                      fixed(data.yours->gflops / best->point->gflops, 2), best->tile)
                                        : std::string(),
                                   data.yours_launch));
    }

    ImGui::Spacing();
    draw_candidates(measured, app, size);
    ImGui::Dummy(ImVec2(size.x, 1));
}

}  // namespace ts::views
