#include "views/theatre/block/naive_vs_tiled.hpp"

#include <algorithm>
#include <initializer_list>
#include <sstream>
#include <vector>

#include "model/format.hpp"
#include "views/theatre/theatre_logic.hpp"
#include "views/theatre/theatre_paint.hpp"
#include "views/theatre/block/thread_inspector.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "platform/imgui_compat.hpp"

namespace ts::views {

using model::format_text;
using model::KernelKind;
using model::Operand;

SideBySideCounts side_by_side_counts(const AppState& state) {
    const StepSource& source = *state.theatre.source;
    const int tile = state.kernel.tile;
    const model::Timeline timeline = theatre_timeline(state);
    const model::KernelStep now = model::step_at(timeline, state.theatre.player.step);
    const model::KernelStep end = model::step_at(timeline, timeline.count() - 1);
    const auto reads = [&](KernelKind kind, Operand operand) {
        return source.element_reads(kind, state.problem, tile, end, operand, 0, 0);
    };
    return {source.traffic(KernelKind::Naive, state.problem, tile, now), source.traffic(KernelKind::Tiled, state.problem, tile, now),
            reads(KernelKind::Naive, Operand::A), reads(KernelKind::Tiled, Operand::A),
            reads(KernelKind::Naive, Operand::B), reads(KernelKind::Tiled, Operand::B)};
}

namespace {

// "4.0×": naive's global loads over tiled's, or "" while either has loaded nothing.
std::string ratio(const SideBySideCounts& c) {
    const std::int64_t naive = c.naive.global_loads(), tiled = c.tiled.global_loads();
    if (naive <= 0 || tiled <= 0) return "";
    return model::fixed(static_cast<double>(naive) / static_cast<double>(tiled), 1) + "×";
}

// The first sentence of comparison_sentence(); alone, it is the short summary.
std::string loads_sentence(const SideBySideCounts& c) {
    std::string text = format_text("Global loads so far: naive {}, tiled {}", grouped(c.naive.global_loads()),
                              grouped(c.tiled.global_loads()));
    if (const std::string r = ratio(c); !r.empty()) text += format_text(" (naive ÷ tiled = {})", r);
    return text + ".";
}

ImU32 mix(ImU32 from, ImU32 to, float t) {
    const ImVec4 a = ImGui::ColorConvertU32ToFloat4(from), b = ImGui::ColorConvertU32ToFloat4(to);
    return ImGui::ColorConvertFloat4ToU32(
        {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, 1.0f});
}

// Text broken into lines no wider than a width, so that its height is known before it is
// drawn. It breaks at spaces only: ImGui's wrapping also breaks after commas, as in "1,536".
struct Paragraph {
    ImFont* font = nullptr;
    ImU32 colour = 0;
    std::vector<std::string> lines;
    float height() const { return font ? imgui_compat::font_size(font) * static_cast<float>(lines.size()) : 0.0f; }
    // Draws it with its top-left corner at `pos`; returns the y under it.
    float draw(ImDrawList* draw, ImVec2 pos) const {
        for (const std::string& line : lines) {
            text_at(draw, font, pos, colour, line);
            pos.y += imgui_compat::font_size(font);
        }
        return pos.y;
    }
};

Paragraph wrap(ImFont* font, ImU32 colour, const std::string& text, float width) {
    Paragraph p{font, colour, {}};
    std::string line;
    std::istringstream words(text);
    for (std::string word; words >> word;) {
        if (!line.empty() && text_width(font, line + " " + word) > width) {
            p.lines.push_back(line);  // the word starts the next line
            line = word;
        } else {
            line = line.empty() ? word : line + " " + word;
        }
    }
    if (!line.empty()) p.lines.push_back(line);
    return p;
}

// A matrix's label at `at`: the longest of `variants` that fits across `stage`, moved left
// (not past the stage) as far as it must to end inside it, so that it never runs into the
// other half; if none fits, none is drawn.
void matrix_label(ImDrawList* draw, ImFont* font, ImU32 colour, const Rect& stage, ImVec2 at,
                  std::initializer_list<std::string> variants) {
    for (const std::string& v : variants) {
        const float width = text_width(font, v);
        if (width > stage.width() - 8.0f) continue;  // a plate reaches 4 px past its text
        plate_text(draw, font, {std::max(stage.min.x + 4.0f, std::min(at.x, stage.max.x - 4.0f - width)), at.y}, colour, v);
        return;
    }
}

// How much the view says. Large fonts on a small canvas leave no room for every line: each
// level drops or shortens one more thing, the one a class can best spare first. The counts
// that carry the lesson (global loads, and their ratio) stay at every level.
enum Detail { kAll, kShortSummary, kNoSharedLine, kShortHeadings, kNoReadsLine, kLeast };

// What one half says, wrapped to `width`: its heading, then its counters. No-break spaces
// (U+00A0) keep "T = 4" and "A 1,536" whole.
std::vector<Paragraph> half_text(const AppState& state, const SideBySideCounts& c, bool tiled, int detail, float width) {
    const model::TrafficSoFar& t = tiled ? c.tiled : c.naive;
    std::string heading = tiled ? format_text("Tiled, T\u00A0=\u00A0{}", state.kernel.tile) : std::string("Naive");
    if (detail < kShortHeadings) heading += tiled ? ": tiles staged in shared memory" : ": every thread reads global memory";
    std::vector<Paragraph> out{wrap(heading_font(), tiled ? colours::kC.text : colours::kCellValue, heading, width)};
    const auto add = [&](ImU32 colour, const std::string& text) { out.push_back(wrap(ImGui::GetFont(), colour, text, width)); };
    if (detail == kLeast) {  // no summary at this level, so its ratio moves next to the tiled count
        const std::string fewer = tiled && !ratio(c).empty() ? format_text(" ({} fewer)", ratio(c)) : "";
        add(colours::kCellValue, format_text("global loads so far: {}{}", grouped(t.global_loads()), fewer));
        return out;
    }
    add(colours::kCellValue, format_text("global loads so far: {} (A\u00A0{}, B\u00A0{})", grouped(t.global_loads()),
                                    grouped(t.global_loads_a), grouped(t.global_loads_b)));
    if (detail < kNoSharedLine)
        add(colours::kMuted, tiled ? format_text("shared memory: {} stores, {} loads", grouped(t.shared_stores), grouped(t.shared_loads))
                                   : std::string("shared memory: none"));
    if (detail < kNoReadsLine)
        add(tiled ? colours::kPass : colours::kError,
            format_text("each A element read {}× in all, each B element {}×", tiled ? c.tiled_reads_a : c.naive_reads_a,
                   tiled ? c.tiled_reads_b : c.naive_reads_b));
    return out;
}

// layout_stage() leaves margins for the labels (5.2 lines across, 2.5 lines along) and widens
// a matrix to at least 2.5 lines: a smaller stage cannot hold the picture at that line height.
constexpr float kStageLinesHigh = 10.2f, kStageLinesWide = 7.5f;

// Where everything goes at one level of detail, the text above the matrices or beside them:
// every text is wrapped to the width it is drawn at and measured, then the matrices get the rest.
struct Plan {
    std::vector<Paragraph> text[2];  // heading, then counters, from each half's top-left corner
    Paragraph summary;               // across both halves, under the matrices
    float heading_h = 0.0f;          // the taller heading: both halves' counters line up
    bool fits = false;               // whether the text fits above the summary
    Rect halves[2];                  // the two columns, above the summary
    Rect stages[2];                  // the matrices' share of each column
    StageLayout layouts[2];
    float label_line = 0.0f;  // the line height the stages are laid out with
    bool labelled = false;    // whether the labels of A, B and C fit in that line
    float summary_y = 0.0f;
    bool pictured = false;  // a stage under two lines of text shows nothing readable: left empty
    float picture_area() const {
        const StageLayout& l = layouts[0];
        return pictured ? (l.grid.max.x - l.a.min.x) * (l.grid.max.y - l.b.min.y) : 0.0f;
    }
};

float pad() { return 0.5f * ImGui::GetFontSize(); }       // between the blocks of text and the stage
float line_gap() { return 0.2f * ImGui::GetFontSize(); }  // between two counters

Plan make_plan(const AppState& state, const SideBySideCounts& counts, const Rect& region, int detail, bool beside) {
    ImFont* body = ImGui::GetFont();
    const float column_gap = 2.0f * imgui_compat::font_size(body);  // the divider runs down its middle
    const float half_w = (region.width() - column_gap) * 0.5f;
    const float text_w = beside ? half_w * 0.6f : half_w;
    const float stage_w = beside ? half_w - text_w - pad() : half_w;
    Plan p;
    if (detail < kLeast)
        p.summary = wrap(body, colours::kCellValue,
                         detail >= kShortSummary ? loads_sentence(counts) : comparison_sentence(counts), region.width());
    const float bottom = region.max.y - (p.summary.lines.empty() ? 0.0f : p.summary.height() + pad());
    float lines_h = 0.0f;
    for (int i = 0; i < 2; ++i) {
        p.text[i] = half_text(state, counts, i == 1, detail, text_w);
        p.heading_h = std::max(p.heading_h, p.text[i][0].height());
        float h = 0.0f;
        for (std::size_t j = 1; j < p.text[i].size(); ++j) h += (j > 1 ? line_gap() : 0.0f) + p.text[i][j].height();
        lines_h = std::max(lines_h, h);
    }
    const float text_bottom = region.min.y + p.heading_h + pad() + lines_h;
    p.fits = text_bottom <= bottom;
    const float top = beside ? region.min.y : std::min(bottom, text_bottom + pad());
    p.pictured = bottom - top >= 2.0f * imgui_compat::font_size(body);
    // The least line whose margins hold the labels (B's and A's in the small font in 1.6 and 1.8
    // lines, C's in the body font in 1.8) leaves the most to the matrices; a stage too short
    // even for that gets a smaller line, and no labels.
    const float needed = std::max((imgui_compat::font_size(small_font()) + 4.0f) / 1.6f, (imgui_compat::font_size(body) + 6.0f) / 1.8f);
    p.label_line = std::max(1.0f, std::min({needed, (bottom - top) / kStageLinesHigh, stage_w / kStageLinesWide}));
    p.labelled = p.label_line >= needed;
    // Both halves use the tiled grid's geometry, so the two pictures line up cell for cell.
    const int tile = state.kernel.tile;
    const BlockTiling tiling = block_tiling({KernelKind::Tiled, tile, tile, tile}, state.problem);
    for (int i = 0; i < 2; ++i) {
        const float x0 = region.min.x + static_cast<float>(i) * (half_w + column_gap);
        p.halves[i] = {{x0, region.min.y}, {x0 + half_w, bottom}};
        p.stages[i] = {{x0 + half_w - stage_w, top}, {x0 + half_w, bottom}};
        StageLayout& l = p.layouts[i] = layout_stage(state.problem, tiling, p.stages[i], p.label_line);
        // layout_stage() centres the picture; lift it to just under B's label instead, so the
        // spare room (if any) is left at the bottom, not between the text and the matrices.
        const float lift = l.b.min.y - (top + 1.6f * p.label_line);
        for (Rect* r : {&l.a, &l.b, &l.c, &l.grid}) *r = {{r->min.x, r->min.y - lift}, {r->max.x, r->max.y - lift}};
        p.summary_y = std::min(bottom, std::max(text_bottom, bottom - 2.0f * lift)) + pad();
    }
    return p;
}

// The richest level whose text fits, whose labels fit and whose picture keeps at least ~3/4
// of the size (each way) it has with the fewest words; else the fewest words. At each level
// the text goes above the matrices or beside them, whichever leaves the bigger picture.
Plan choose_plan(const AppState& state, const SideBySideCounts& counts, const Rect& region) {
    const auto best = [&](int detail) {
        Plan above = make_plan(state, counts, region, detail, false);
        Plan beside = make_plan(state, counts, region, detail, true);
        const bool pick_beside = beside.fits != above.fits ? beside.fits : beside.picture_area() > above.picture_area();
        return pick_beside ? beside : above;
    };
    const Plan least = best(kLeast);
    for (int detail = kAll; detail < kLeast; ++detail) {
        Plan p = best(detail);
        if (p.fits && p.labelled && p.picture_area() >= 0.56f * least.picture_area()) return p;
    }
    return least;
}

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
        const std::string label = value > 0 ? format_text("×{}", value) : "0";
        ImFont* font = ImGui::GetFont();
        if (text_width(font, label) + 6.0f < run.width() && imgui_compat::font_size(font) + 4.0f < run.height())
            plate_text(draw, font, {centre(run).x - text_width(font, label) * 0.5f, centre(run).y - imgui_compat::font_size(font) * 0.5f},
                       palette.text, label);
        begin = end;
    }
    draw_cell_grid(draw, area, rows, cols, with_alpha(palette.line, 40));
    draw->AddRect(area.min, area.max, palette.line, 0.0f, 0, outline_width(2.0f));
}

void draw_c(ImDrawList* draw, const AppState& state, KernelKind kind, const Rect& area, int summed) {
    const int m = static_cast<int>(state.problem.m), n = static_cast<int>(state.problem.n);
    const float share = static_cast<float>(summed) / static_cast<float>(state.problem.k);
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
    draw->AddRect(area.min, area.max, colours::kC.line, 0.0f, 0, outline_width(2.0f));
}

void draw_half(ImDrawList* draw, const AppState& state, const Plan& plan, int i, const SideBySideCounts& counts) {
    const KernelKind kind = i == 1 ? KernelKind::Tiled : KernelKind::Naive;
    const Rect& half = plan.halves[i];
    const std::vector<Paragraph>& text = plan.text[i];
    // The heading, then the counters, at the heights the plan measured.
    text[0].draw(draw, half.min);
    float y = half.min.y + plan.heading_h + pad();
    for (std::size_t j = 1; j < text.size(); ++j) y = text[j].draw(draw, {half.min.x, y}) + line_gap();
    if (!plan.pictured) return;

    const StageLayout& l = plan.layouts[i];
    const int m = static_cast<int>(state.problem.m), n = static_cast<int>(state.problem.n),
              k = static_cast<int>(state.problem.k);
    const model::KRange acc = model::accumulated_at(state.problem, state.kernel.tile, current_step(state));
    draw_reads(draw, state, kind, Operand::A, l.a, std::max(counts.naive_reads_a, counts.tiled_reads_a));
    draw_reads(draw, state, kind, Operand::B, l.b, std::max(counts.naive_reads_b, counts.tiled_reads_b));
    draw_c(draw, state, kind, l.c, acc.end);

    // Labels sit in the stage's margins: B's above B, A's above A, C's under C.
    if (plan.labelled) {
        ImFont* small = small_font();
        const Rect& stage = plan.stages[i];
        matrix_label(draw, small, colours::kA.text, stage, {l.a.min.x, l.a.min.y - imgui_compat::font_size(small) - 4.0f},
                     {"A: reads of each element so far", "A: reads so far", "A"});
        matrix_label(draw, small, colours::kB.text, stage, {l.b.min.x, l.b.min.y - imgui_compat::font_size(small) - 4.0f}, {"B: reads so far", "B"});
        const std::string summed = acc.end == 0 ? "" : format_text("k 0..{} of {}", acc.end - 1, k);
        matrix_label(draw, ImGui::GetFont(), colours::kC.text, stage, {l.c.min.x, l.c.max.y + 4.0f},
                     {summed.empty() ? "C: nothing of K summed yet" : "C: every cell has " + summed,
                      summed.empty() ? "C: nothing summed" : "C: " + summed, "C"});
    }

    const auto& insp = inspected(state);
    const auto outline = [&](const Rect& r) { draw->AddRect(r.min, r.max, colours::kHighlight, 0.0f, 0, emphasis_width(3.0f)); };
    if (insp.a) outline(cells_rect(l.a, m, k, insp.a->row, insp.a->col, insp.a->row + 1, insp.a->col + 1));
    if (insp.b) outline(cells_rect(l.b, k, n, insp.b->row, insp.b->col, insp.b->row + 1, insp.b->col + 1));
}

}  // namespace

std::string comparison_sentence(const SideBySideCounts& c) {
    return loads_sentence(c) +
           format_text(" In all, each A element is read {} times naive (N) and {} times tiled (grid.x); each B element "
                  "{} times (M) and {} (grid.y).",
                  c.naive_reads_a, c.tiled_reads_a, c.naive_reads_b, c.tiled_reads_b);
}

void draw_naive_vs_tiled(TheatreState& theatre, const AppState& app, const Rect& region, bool hovering, bool clicked) {
    const SideBySideCounts counts = side_by_side_counts(app);
    const Plan plan = choose_plan(app, counts, region);

    const int m = static_cast<int>(app.problem.m), n = static_cast<int>(app.problem.n),
              k = static_cast<int>(app.problem.k);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    theatre.hovered = {};
    if (hovering && plan.pictured)
        for (const StageLayout& l : plan.layouts) {
            if (!theatre.hovered.a) theatre.hovered.a = cell_at(l.a, m, k, mouse);
            if (!theatre.hovered.b) theatre.hovered.b = cell_at(l.b, k, n, mouse);
        }
    if (clicked && (theatre.hovered.a || theatre.hovered.b)) {
        theatre.pinned_a = theatre.hovered.a;
        theatre.pinned_b = theatre.hovered.b;
    }

    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(region.min, region.max, true);
    for (int i = 0; i < 2; ++i) draw_half(draw, app, plan, i, counts);
    const float divider = (region.min.x + region.max.x) * 0.5f;
    draw->AddLine({divider, region.min.y}, {divider, plan.summary_y - pad()}, with_alpha(colours::kMuted, 90), 1.0f);
    plan.summary.draw(draw, {region.min.x, plan.summary_y});
    draw->PopClipRect();

    draw_hover_tooltip(app, theatre.hovered);
}

}  // namespace ts::views
