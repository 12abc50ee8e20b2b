#include "naive_vs_tiled.hpp"

#include <algorithm>

#include "model/format.hpp"
#include "theatre_logic.hpp"
#include "theatre_paint.hpp"
#include "thread_inspector.hpp"
#include "views/text.hpp"
#include "views/theme.hpp"

namespace ts::views {

using model::format;
using model::KernelKind;
using model::Operand;

SideBySideCounts side_by_side_counts(const AppState& state) {
    const StepSource& source = *state.theatre.source;
    const int tile = state.kernel.tile;
    const model::Timeline timeline = theatre_timeline(state);
    const model::KernelStep now = model::step_at(timeline, state.theatre.player.step);
    const model::KernelStep end = model::step_at(timeline, timeline.count() - 1);
    SideBySideCounts c;
    c.naive = source.traffic(KernelKind::Naive, state.problem, tile, now);
    c.tiled = source.traffic(KernelKind::Tiled, state.problem, tile, now);
    c.naive_reads_a = source.element_reads(KernelKind::Naive, state.problem, tile, end, Operand::A, 0, 0);
    c.tiled_reads_a = source.element_reads(KernelKind::Tiled, state.problem, tile, end, Operand::A, 0, 0);
    c.naive_reads_b = source.element_reads(KernelKind::Naive, state.problem, tile, end, Operand::B, 0, 0);
    c.tiled_reads_b = source.element_reads(KernelKind::Tiled, state.problem, tile, end, Operand::B, 0, 0);
    return c;
}

std::string comparison_sentence(const SideBySideCounts& c) {
    const std::int64_t naive = c.naive.global_loads(), tiled = c.tiled.global_loads();
    std::string text = format("Global loads so far: naive {}, tiled {}", grouped(naive), grouped(tiled));
    if (naive > 0 && tiled > 0)
        text += format(" (naive ÷ tiled = {}×)", model::fixed(static_cast<double>(naive) / static_cast<double>(tiled), 1));
    text += format(". In all, each A element is read {} times naive (N) and {} times tiled (grid.x); each B element "
                   "{} times (M) and {} (grid.y).",
                   c.naive_reads_a, c.tiled_reads_a, c.naive_reads_b, c.tiled_reads_b);
    return text;
}

namespace {

ImU32 mix(ImU32 from, ImU32 to, float t) {
    const ImVec4 a = ImGui::ColorConvertU32ToFloat4(from), b = ImGui::ColorConvertU32ToFloat4(to);
    return ImGui::ColorConvertFloat4ToU32(
        {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, 1.0f});
}

struct Half {
    KernelKind kind;
    StageLayout layout;
};

// A or B shaded by reads so far. The count depends on the k index alone (the model says
// so, and its tests check it), so the matrix is drawn as runs of k with one count each:
// a handful of rectangles whatever the size.
void draw_reads(ImDrawList* draw, const AppState& state, KernelKind kind, Operand operand, const Rect& area,
                std::int64_t most) {
    const bool of_a = operand == Operand::A;
    const int m = static_cast<int>(state.problem.m), n = static_cast<int>(state.problem.n),
              k = static_cast<int>(state.problem.k);
    const int rows = of_a ? m : k, cols = of_a ? k : n;
    const MatrixColours& palette = of_a ? colours::kA : colours::kB;
    const model::KernelStep step = current_step(state);
    const auto reads = [&](int kk) {
        return state.theatre.source->element_reads(kind, state.problem, state.kernel.tile, step, operand,
                                                   of_a ? 0 : kk, of_a ? kk : 0);
    };
    for (int begin = 0; begin < k;) {
        const std::int64_t value = reads(begin);
        int end = begin + 1;
        while (end < k && reads(end) == value) ++end;
        const Rect run = of_a ? cells_rect(area, rows, cols, 0, begin, rows, end)
                              : cells_rect(area, rows, cols, begin, 0, end, cols);
        const float t = most > 0 ? static_cast<float>(value) / static_cast<float>(most) : 0.0f;
        draw->AddRectFilled(run.min, run.max, mix(IM_COL32_WHITE, palette.line, t));
        const std::string label = value > 0 ? format("×{}", value) : "0";
        ImFont* font = ImGui::GetFont();
        if (text_width(font, label) + 6.0f < run.width() && font->FontSize + 4.0f < run.height())
            plate_text(draw, font, {centre(run).x - text_width(font, label) * 0.5f, centre(run).y - font->FontSize * 0.5f},
                       palette.text, label);
        begin = end;
    }
    draw_cell_grid(draw, area, rows, cols, with_alpha(palette.line, 40));
    draw->AddRect(area.min, area.max, palette.line, 0.0f, 0, 2.0f);
}

void draw_c(ImDrawList* draw, const AppState& state, KernelKind kind, const Rect& area) {
    const int m = static_cast<int>(state.problem.m), n = static_cast<int>(state.problem.n),
              k = static_cast<int>(state.problem.k);
    const model::KRange acc = model::accumulated_at(state.problem, state.kernel.tile, current_step(state));
    const float share = static_cast<float>(acc.end) / static_cast<float>(k);
    // Every cell holds the same share of K (all blocks in lockstep): one shade for all of C,
    // from C's light fill (nothing summed) to its dark green (all of K).
    draw->AddRectFilled(area.min, area.max, mix(colours::kC.fill, colours::kC.line, share));
    draw_cell_grid(draw, area, m, n, with_alpha(colours::kC.line, 50));
    if (kind == KernelKind::Tiled) {
        // The tiled kernel's blocks: each loads its own tiles, so the reuse is per block.
        const int tile = state.kernel.tile;
        for (int r = tile; r < m; r += tile) {
            const float y = cells_rect(area, m, n, r, 0, r, 0).min.y;
            draw->AddLine({area.min.x, y}, {area.max.x, y}, colours::kC.line, 2.0f);
        }
        for (int c = tile; c < n; c += tile) {
            const float x = cells_rect(area, m, n, 0, c, 0, c).min.x;
            draw->AddLine({x, area.min.y}, {x, area.max.y}, colours::kC.line, 2.0f);
        }
    }
    draw->AddRect(area.min, area.max, colours::kC.line, 0.0f, 0, 2.0f);
    const std::string caption = acc.end == 0 ? "C: nothing of K summed yet" : format("C: every cell has k 0..{} of {}", acc.end - 1, k);
    plate_text(draw, ImGui::GetFont(), {area.min.x, area.max.y + 4.0f}, colours::kC.text, caption);
}

void draw_half(ImDrawList* draw, const AppState& state, const Half& half, const Rect& region,
               const SideBySideCounts& counts) {
    const bool tiled = half.kind == KernelKind::Tiled;
    const model::TrafficSoFar& t = tiled ? counts.tiled : counts.naive;
    const StageLayout& l = half.layout;
    ImFont* heading = heading_font();
    text_at(draw, heading, region.min, tiled ? colours::kC.text : colours::kCellValue,
            tiled ? format("Tiled, T = {}: tiles staged in shared memory", state.kernel.tile)
                  : std::string("Naive: every thread reads global memory"));
    const std::int64_t most_a = std::max(counts.naive_reads_a, counts.tiled_reads_a);
    const std::int64_t most_b = std::max(counts.naive_reads_b, counts.tiled_reads_b);
    draw_reads(draw, state, half.kind, Operand::A, l.a, most_a);
    draw_reads(draw, state, half.kind, Operand::B, l.b, most_b);
    draw_c(draw, state, half.kind, l.c);
    ImFont* small = small_font();
    text_at(draw, small, {l.a.min.x, l.a.min.y - small->FontSize - 4.0f}, colours::kA.text, "A: reads of each element so far");
    text_at(draw, small, {l.b.min.x, l.b.min.y - small->FontSize - 4.0f}, colours::kB.text, "B: reads so far");

    const auto& insp = inspected(state);
    const auto outline = [&](const Rect& r) { draw->AddRect(r.min, r.max, colours::kHighlight, 0.0f, 0, 3.0f); };
    const int m = static_cast<int>(state.problem.m), n = static_cast<int>(state.problem.n),
              k = static_cast<int>(state.problem.k);
    if (insp.a) outline(cells_rect(l.a, m, k, insp.a->row, insp.a->col, insp.a->row + 1, insp.a->col + 1));
    if (insp.b) outline(cells_rect(l.b, k, n, insp.b->row, insp.b->col, insp.b->row + 1, insp.b->col + 1));

    ImFont* body = ImGui::GetFont();
    const float line = body->FontSize * 1.35f;
    float y = region.max.y - 3.0f * line;
    const auto row = [&](const std::string& text, ImU32 colour) {
        text_at(draw, body, {region.min.x, y}, colour, text);
        y += line;
    };
    row(format("global loads so far: {}  (A {}, B {})", grouped(t.global_loads()), grouped(t.global_loads_a),
               grouped(t.global_loads_b)),
        colours::kCellValue);
    row(tiled ? format("shared memory: {} stores, {} loads", grouped(t.shared_stores), grouped(t.shared_loads))
              : std::string("shared memory: none"),
        colours::kMuted);
    row(format("each A element read {}× in all, each B element {}×", tiled ? counts.tiled_reads_a : counts.naive_reads_a,
               tiled ? counts.tiled_reads_b : counts.naive_reads_b),
        tiled ? colours::kPass : colours::kError);
}

}  // namespace

void draw_naive_vs_tiled(AppState& state, const Rect& region, bool hovering, bool clicked) {
    const float line = heading_font()->FontSize;
    const float gap = line;
    const float footer = 3.2f * ImGui::GetFontSize();
    const float half_w = (region.width() - gap) * 0.5f;
    const model::KernelConfig tiled{KernelKind::Tiled, state.kernel.tile, state.kernel.tile, state.kernel.tile};
    // Both halves use the tiled grid's geometry, so the two pictures line up cell for cell.
    const BlockTiling tiling = block_tiling(tiled, state.problem);
    Rect halves[2];
    Half drawn[2];
    for (int i = 0; i < 2; ++i) {
        const float x0 = region.min.x + static_cast<float>(i) * (half_w + gap);
        halves[i] = {{x0, region.min.y}, {x0 + half_w, region.max.y - footer}};
        const Rect stage{{x0, region.min.y + 2.6f * line}, {x0 + half_w, halves[i].max.y - 4.6f * ImGui::GetFontSize()}};
        drawn[i] = {i == 0 ? KernelKind::Naive : KernelKind::Tiled, layout_stage(state.problem, tiling, stage, line)};
    }

    const int m = static_cast<int>(state.problem.m), n = static_cast<int>(state.problem.n),
              k = static_cast<int>(state.problem.k);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    state.theatre.hovered = {};
    if (hovering)
        for (const Half& half : drawn) {
            if (!state.theatre.hovered.a) state.theatre.hovered.a = cell_at(half.layout.a, m, k, mouse);
            if (!state.theatre.hovered.b) state.theatre.hovered.b = cell_at(half.layout.b, k, n, mouse);
        }
    if (clicked && (state.theatre.hovered.a || state.theatre.hovered.b)) {
        state.theatre.pinned_a = state.theatre.hovered.a;
        state.theatre.pinned_b = state.theatre.hovered.b;
    }

    const SideBySideCounts counts = side_by_side_counts(state);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(region.min, region.max, true);
    for (int i = 0; i < 2; ++i) draw_half(draw, state, drawn[i], halves[i], counts);
    const float divider = region.min.x + half_w + gap * 0.5f;
    draw->AddLine({divider, region.min.y}, {divider, region.max.y - footer}, with_alpha(colours::kMuted, 90), 1.0f);
    draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(), {region.min.x, region.max.y - footer + 4.0f},
                  colours::kCellValue, comparison_sentence(counts).c_str(), nullptr, region.width());
    draw->PopClipRect();

    std::string tip;
    if (state.theatre.hovered.a) tip = element_report(state, Operand::A, *state.theatre.hovered.a);
    if (state.theatre.hovered.b) tip = element_report(state, Operand::B, *state.theatre.hovered.b);
    if (!tip.empty()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 38.0f);
        ImGui::TextUnformatted((tip + "\n(click to pin)").c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

}  // namespace ts::views
