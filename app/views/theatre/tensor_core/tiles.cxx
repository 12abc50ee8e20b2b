#include "views/theatre/tensor_core/tiles.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <optional>

#include "model/format.hpp"
#include "model/ladder_rungs.hpp"
#include "views/common/picture_layout.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/theatre/tensor_core/fragments.hpp"
#include "views/theatre/theatre_paint.hpp"

namespace ts::views {

using model::format_text;

namespace {

// Past this many tiles a side the grid is not drawn (cells of a few pixels, too small to read or
// hover); the counts still are.
constexpr int kMostDrawnTilesPerSide = 64;

int group_rows_of(bool plain) { return plain ? 1 : model::kPersistentGroupRows; }

// "rows 256–511" of one cluster tile's part of C (clipped at the matrix's edge).
std::string span_words(const char* what, std::int64_t first, std::int64_t size, std::int64_t limit) {
    return format_text("{} {}–{}", what, first, std::min(first + size, limit) - 1);
}

}  // namespace

int tile_order_sm_count(const AppState& state, std::string& source) {
    const model::DeviceLimits limits = launch_limits(state);
    if (!limits.is_preset && limits.compute_major == 9) {
        source = format_text("{}'s {} SMs", limits.name, limits.sm_count);
        return limits.sm_count;
    }
    source = "an H100's 132 SMs (no Hopper GPU here)";
    return 132;
}

TileProblem shown_tile_problem(const AppState& state) {
    TileProblem shown{state.problem, ""};
    const std::optional<model::WgmmaShape> shape = model::wgmma_shape_of(state.kernel);
    if (!shape || !model::is_persistent(state.kernel.kind)) return shown;
    std::string sms;
    const model::PersistentLaunch own = model::persistent_launch(*shape, state.problem, tile_order_sm_count(state, sms));
    if (own.rounds > 1 || own.tiles == 0) return shown;
    shown.problem.m = shown.problem.n = shown.problem.k = kShownTileProblem;
    shown.problem.batch = 1;
    shown.note = format_text("Shown at {} so that the tile order has tiles to order; your problem {} has {}{}.",
                             model::problem_size_text(shown.problem), model::problem_size_text(state.problem),
                             model::counted(own.tiles, "tile"),
                             own.tiles > 1 ? ", all taken in one round" : "");
    return shown;
}

std::optional<model::PersistentLaunch> shown_tile_launch(const AppState& state) {
    const std::optional<model::WgmmaShape> shape = model::wgmma_shape_of(state.kernel);
    if (!shape || !model::is_persistent(state.kernel.kind)) return std::nullopt;
    std::string sms;
    return model::persistent_launch(*shape, shown_tile_problem(state).problem, tile_order_sm_count(state, sms));
}

std::string round_words(const model::WgmmaShape& s, const model::Problem& p, const model::PersistentLaunch& launch,
                        int round, bool plain) {
    const model::RoundFootprint f = model::round_footprint(s, p, launch, round, group_rows_of(plain));
    const model::RoundFootprint other = model::round_footprint(s, p, launch, round, group_rows_of(!plain));
    const bool fits = f.bytes() <= model::kHopperL2Bytes;
    std::string text = format_text(
        "Round {} of {}: {}, read together along K: {} of A ({}) and {} of B ({}), {} in all, {} "
        "the 50 MiB of an H100's or H200's L2. ",
        round + 1, launch.rounds, model::counted(f.tiles, "tile"), model::counted(f.a_panels, "panel"),
        model::human_bytes(f.a_bytes), f.b_panels, model::human_bytes(f.b_bytes), model::human_bytes(f.bytes()),
        fits ? "within" : "more than");
    text += fits ? "So a panel comes from DRAM about once and every further tile that reads it finds it in L2. "
                 : "So panels are evicted before every tile that reads them has, and come from DRAM again. ";
    text += format_text("{} order, the same round would read {} of A and {} of B: {}.",
                        plain ? "In the kernels' own" : "Row by row, the plain", model::counted(other.a_panels, "panel"),
                        other.b_panels, model::human_bytes(other.bytes()));
    return text;
}

namespace {

// The grid's margins in fonts: B's strip and its name above, A's strip left, "C" right.
constexpr float kStripFonts = 1.2f, kGapFonts = 0.4f, kNameFonts = 1.3f;

}  // namespace

float tc_tiles_width(const AppState& state, float height) {
    const auto launch = shown_tile_launch(state);
    if (!launch || launch->tiles == 0) return FLT_MAX;  // words alone: above
    const float font = ImGui::GetFontSize();
    const float cell = std::max(2.0f, std::floor((height - font * (kNameFonts + kStripFonts + kGapFonts)) /
                                                 static_cast<float>(launch->cluster_rows)));
    return font * (kStripFonts + 2.0f * kGapFonts + 1.0f) + cell * static_cast<float>(launch->cols) + 1.0f;
}

void draw_tc_tiles_words(TheatreState& theatre, const AppState& app, float keep) {
    const std::optional<model::WgmmaShape> shape = model::wgmma_shape_of(app.kernel);
    if (!shape || !model::is_persistent(app.kernel.kind)) {
        ImGui::TextWrapped("%s", "This rung launches one block per tile of C and the GPU starts them in blockIdx order as "
                                 "SMs come free (17 maps blockIdx to tiles in groups of 8 block rows, as 18 does). The "
                                 "persistent rungs, 18 and 19, choose the order themselves: pick one of them to see "
                                 "it round by round.");
        return;
    }
    const model::WgmmaShape& s = *shape;
    const TileProblem shown = shown_tile_problem(app);
    const model::Problem& p = shown.problem;
    std::string sms;
    const model::PersistentLaunch launch = model::persistent_launch(s, p, tile_order_sm_count(app, sms));
    if (launch.tiles == 0) {
        ImGui::TextWrapped("%s", "No tiles: C is empty or too large to count its tiles.");
        return;
    }
    theatre.tile_round = std::clamp(theatre.tile_round, 0, launch.rounds - 1);
    const std::int64_t tile_rows = std::int64_t{s.bm} * s.cluster_m;
    if (!shown.note.empty()) ImGui::TextWrapped("%s", shown.note.c_str());
    // The round and the order first, then what the round reads: beside the picture the column
    // scrolls, and a projector (or an exported frame, one a round) shows its first lines.
    // At most 12 lines wide, and never past the column with its label.
    ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 12.0f, ImGui::GetContentRegionAvail().x -
                                                                      ImGui::CalcTextSize("round").x -
                                                                      ImGui::GetStyle().ItemInnerSpacing.x));
    int shown_round = theatre.tile_round + 1;
    if (ImGui::SliderInt("round", &shown_round, 1, launch.rounds)) theatre.tile_round = shown_round - 1;
    int order = theatre.tile_order_plain ? 1 : 0;
    ImGui::RadioButton("the kernels' order", &order, 0);
    ImGui::RadioButton("row by row", &order, 1);
    theatre.tile_order_plain = order == 1;
    folding_muted_text(round_words(s, p, launch, theatre.tile_round, theatre.tile_order_plain),
                       "What the round reads against L2", keep);
    // Each cluster takes every clusters-th tile of the order: every tile, where there is one cluster.
    const std::string share = launch.clusters > 1 ? format_text("every {} tile", model::ordinal(launch.clusters))
                                                  : std::string("every tile");
    folding_muted_text(
        format_text("{} on {}: C is {} × {} tiles of {}×{}{}; {}{} at a time, each taking {} of the order, so the "
                    "tiles go in {}. In the picture grey tiles are done; the numbers are the clusters of this round, "
                    "each on its own {}; lit on the left and on top are the panels of A and B it reads. The kernels' "
                    "order takes 8 cluster rows at a time, then moves right; the plain one goes row by row.{}",
                    model::problem_size_text(p), sms, launch.cluster_rows, launch.cols, tile_rows, s.bn,
                    s.cluster_m > 1 ? format_text(" (a cluster's {} CTAs, {} rows each)", s.cluster_m, s.bm)
                                    : std::string(),
                    model::counted(launch.clusters, "cluster"),
                    s.cluster_m > 1 ? format_text(" of {} CTAs", s.cluster_m) : std::string(), share,
                    model::counted(launch.rounds, "round"), s.cluster_m > 1 ? "pair of SMs" : "SM",
                    p.batch > 1 ? format_text(" The picture shows matrix 0 of {}; the counts take every one.", p.batch)
                                : std::string()),
        "What the picture shows", keep);
}

void draw_tc_tiles(TheatreState& theatre, PictureLayout& picture, const AppState& app) {
    const std::optional<model::WgmmaShape> shape = model::wgmma_shape_of(app.kernel);
    if (!shape || !model::is_persistent(app.kernel.kind)) return;
    const model::WgmmaShape& s = *shape;
    const model::Problem p = shown_tile_problem(app).problem;
    std::string sms;
    const model::PersistentLaunch launch = model::persistent_launch(s, p, tile_order_sm_count(app, sms));
    if (launch.tiles == 0) return;
    theatre.tile_round = std::clamp(theatre.tile_round, 0, launch.rounds - 1);
    const int group_rows = group_rows_of(theatre.tile_order_plain);
    const std::int64_t tile_rows = std::int64_t{s.bm} * s.cluster_m;

    const float font = ImGui::GetFontSize();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    picture.begin("theatre", origin, {origin.x + avail.x, origin.y + avail.y});
    const float strip = font * kStripFonts, gap = font * kGapFonts, label = font * kNameFonts;
    const int rows = launch.cluster_rows, cols = launch.cols;
    const float cell = std::floor(std::min((avail.x - strip - 2.0f * gap - font) / static_cast<float>(cols),
                                           (avail.y - label - strip - gap) / static_cast<float>(rows)));
    const bool drawn = rows <= kMostDrawnTilesPerSide && cols <= kMostDrawnTilesPerSide && cell >= 2.0f;
    const float grid_height = drawn ? strip + gap + label + cell * static_cast<float>(rows) : 0.0f;

    if (drawn) {
        ImGui::InvisibleButton("##tc_tiles", ImVec2(avail.x, grid_height));
        const bool hovering = ImGui::IsItemHovered();
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        ImDrawList* draw = ImGui::GetWindowDrawList();
        ImFont* small = ImGui::GetFont();
        const ImVec2 c0{origin.x + strip + gap, origin.y + label + strip + gap};
        text_at(draw, small, {c0.x, origin.y}, ImGui::GetColorU32(ImGuiCol_Text), "B's panels");
        picture.add_label("name: ", "B's panels", {c0.x, origin.y}, {c0.x + text_width(small, "B's panels"), origin.y + font});
        // Tiles of matrix 0 in the order, up to the end of the round on show: earlier rounds grey,
        // this one in its clusters' colours and numbered; later tiles are left open. The panels of
        // A and B this round reads are lit in the strips.
        std::array<bool, kMostDrawnTilesPerSide> a_lit{}, b_lit{};
        const float label_size = std::min(font, cell * 0.5f);
        const auto cell_corner = [&](int row, int col) {
            return ImVec2{c0.x + static_cast<float>(col) * cell, c0.y + static_cast<float>(row) * cell};
        };
        const int shown = std::min(rows * cols, (theatre.tile_round + 1) * launch.clusters);
        for (int index = 0; index < shown; ++index) {
            const model::OrderedTile t = model::ordered_tile(launch, index, group_rows);
            const ImVec2 a = cell_corner(t.tile.cluster_row, t.tile.col), b{a.x + cell, a.y + cell};
            if (t.round < theatre.tile_round) {
                draw->AddRectFilled(a, b, with_alpha(colours::kMuted, 90));
                continue;
            }
            a_lit[static_cast<std::size_t>(t.tile.cluster_row)] = true;
            b_lit[static_cast<std::size_t>(t.tile.col)] = true;
            draw->AddRectFilled(a, b, lane_colour(t.cluster));
            const std::string number = std::to_string(t.cluster);
            const ImVec2 size = small->CalcTextSizeA(label_size, FLT_MAX, 0.0f, number.c_str());
            if (size.x <= cell - 2.0f && label_size >= 8.0f)
                draw->AddText(small, label_size, {a.x + (cell - size.x) * 0.5f, a.y + (cell - size.y) * 0.5f},
                              colours::kCellValue, number.c_str());
        }
        for (int c = 0; c < cols; ++c) {
            const ImVec2 a{c0.x + static_cast<float>(c) * cell, c0.y - strip - gap};
            draw->AddRectFilled(a, {a.x + cell - 1.0f, a.y + strip},
                                b_lit[static_cast<std::size_t>(c)] ? colours::kB.line : colours::kB.fill);
        }
        for (int r = 0; r < rows; ++r) {
            const ImVec2 a{origin.x, c0.y + static_cast<float>(r) * cell};
            draw->AddRectFilled(a, {a.x + strip, a.y + cell - 1.0f},
                                a_lit[static_cast<std::size_t>(r)] ? colours::kA.line : colours::kA.fill);
        }
        // The grid, and within each cluster row the line between its CTAs' tiles (stacked along M).
        const ImVec2 end = cell_corner(rows, cols);
        const ImU32 grid = with_alpha(colours::kMuted, 160);
        for (int r = 0; r <= rows; ++r) draw->AddLine(cell_corner(r, 0), {end.x, cell_corner(r, 0).y}, grid);
        for (int c = 0; c <= cols; ++c) draw->AddLine(cell_corner(0, c), {cell_corner(0, c).x, end.y}, grid);
        for (int r = 0; r < rows && cell >= 8.0f; ++r)
            for (int cta = 1; cta < s.cluster_m; ++cta) {
                const float y = cell_corner(r, 0).y + cell * static_cast<float>(cta) / static_cast<float>(s.cluster_m);
                draw->AddLine({c0.x, y}, {end.x, y}, with_alpha(colours::kMuted, 120));
            }
        draw->AddText(small, font, {end.x + gap, c0.y}, colours::kMuted, "C");
        picture.add_label("name: ", "C", {end.x + gap, c0.y}, {end.x + gap + text_width(small, "C"), c0.y + font});
        picture.add_matrix("C", c0, end);
        picture.add_matrix("A's panels", {origin.x, c0.y}, {origin.x + strip, end.y});
        picture.add_matrix("B's panels", {c0.x, c0.y - strip - gap}, {end.x, c0.y - gap});
        // The tile under the mouse, and where it stands in the order (only while the mouse is over
        // the picture: elsewhere it may be anywhere, or nowhere at all).
        const float over_row = (mouse.y - c0.y) / cell, over_col = (mouse.x - c0.x) / cell;
        if (hovering && over_row >= 0.0f && over_row < static_cast<float>(rows) && over_col >= 0.0f &&
            over_col < static_cast<float>(cols)) {
            const int hover_row = static_cast<int>(over_row), hover_col = static_cast<int>(over_col);
            model::OrderedTile found;
            for (int index = 0; index < rows * cols; ++index) {
                found = model::ordered_tile(launch, index, group_rows);
                if (found.tile.cluster_row == hover_row && found.tile.col == hover_col) break;
            }
            const std::int64_t first_row = hover_row * tile_rows, first_col = std::int64_t{hover_col} * s.bn;
            const std::string rows_text = span_words("rows", first_row, tile_rows, p.m),
                              cols_text = span_words("columns", first_col, s.bn, p.n);
            ImGui::SetTooltip("%s", format_text("cluster tile ({}, {}): C {}, {}\ntaken by cluster {} in round {} of {}\n"
                                                "reads A {} and B {}, all {} of K",
                                                hover_row, hover_col, rows_text, cols_text, found.cluster,
                                                found.round + 1, launch.rounds, rows_text, cols_text, p.k)
                                        .c_str());
        }
    } else {
        ImGui::TextWrapped("%s", format_text("C has {} × {} tiles: too many to draw here; the counts beside still hold.",
                                             rows, cols)
                                     .c_str());
    }
}

}  // namespace ts::views
