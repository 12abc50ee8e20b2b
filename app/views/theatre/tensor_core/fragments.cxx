#include "views/theatre/tensor_core/fragments.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <memory>
#include <optional>

#include "model/format.hpp"
#include "model/tensor_core/fragments.hpp"
#include "model/tensor_core/stage_record.hpp"
#include "views/common/picture_layout.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/theatre/theatre_paint.hpp"
#include "views/theatre/theatre_traces.hpp"

namespace ts::views {

using model::format_text;

namespace {

// The accumulators shown of a wgmma: 32 columns, four 8-column blocks, enough to see the pattern
// repeat (registers 4 apart per block) and still read a cell at 1080p.
constexpr int kWgmmaShownCols = 32;

const char* half_name(int half) { return half == 0 ? "low half" : "high half"; }

// The lane whose address ldmatrix.x4 reads the 16-byte row holding A[row][col] from: the one
// model::ldmatrix_x4_a_row points at the row's first element.
int address_lane(int row, int col) {
    for (int lane = 0; lane < 32; ++lane)
        if (model::ldmatrix_x4_a_row(lane) == model::Cell{row, col - col % 8}) return lane;
    return 0;
}

}  // namespace

// Steps of the golden ratio round the colour wheel, light enough that the lane's number reads on
// them. (ImGui::ColorConvertFloat4ToU32, not GetColorU32: no style alpha, no context needed.)
ImU32 lane_colour(int lane) {
    const float hue = std::fmod(static_cast<float>(lane % 32) * 0.618034f, 1.0f);
    float r = 0, g = 0, b = 0;
    ImGui::ColorConvertHSVtoRGB(hue, 0.42f, 0.97f, r, g, b);
    return ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, 1.0f));
}

std::vector<FragmentGrid> fragment_grids(model::KernelKind kind) {
    using model::KernelKind;
    switch (kind) {
        case KernelKind::Wmma:
        case KernelKind::Mma:
        case KernelKind::MmaAsync:
            return {{FragmentOperand::MmaA, model::kMmaM, model::kMmaK, "A, 16×16", 0, "A"},
                    {FragmentOperand::MmaB, model::kMmaK, model::kMmaN, "B, 16×8", 0, "B"},
                    {FragmentOperand::MmaC, model::kMmaM, model::kMmaN, "C, 16×8, FP32", 0, "C"},
                    {FragmentOperand::LdmatrixA, model::kMmaM, model::kMmaK,
                     "A's tile in shared memory, by the lane that gives each row's address", 1,
                     "A in shared memory"}};
        case KernelKind::Wgmma:
        case KernelKind::WarpSpecialized:
        case KernelKind::Persistent:
        case KernelKind::TcTuned:
            return {{FragmentOperand::WgmmaD, model::kWgmmaM, kWgmmaShownCols,
                     "D, 64 rows × the first 32 of N columns, FP32", 0, "D, 64 × 32"}};
        // e4m3's m64nNk32 reads 32 of K a wgmma, and its D is laid out as the 16-bit one's.
        case KernelKind::Fp8:
        case KernelKind::Fp8Blocks:
            return {{FragmentOperand::WgmmaD, model::kWgmmaM, kWgmmaShownCols,
                     "D of an m64nNk32 on e4m3, 64 rows × the first 32 of N columns, FP32 (the same layout as "
                     "the 16-bit wgmma's)",
                     0, "D, 64 × 32"}};
        default: return {};
    }
}

int fragment_holder(FragmentOperand operand, int row, int col) {
    switch (operand) {
        case FragmentOperand::MmaA: return model::mma_a_slot(row, col).lane;
        case FragmentOperand::MmaB: return model::mma_b_slot(row, col).lane;
        case FragmentOperand::MmaC: return model::mma_c_slot(row, col).lane;
        case FragmentOperand::WgmmaD: return model::wgmma_accumulator_slot(row, col).thread;
        case FragmentOperand::LdmatrixA: return address_lane(row, col);
    }
    return 0;
}

std::string fragment_register(FragmentOperand operand, int row, int col) {
    switch (operand) {
        case FragmentOperand::MmaA: {
            const model::FragmentSlot s = model::mma_a_slot(row, col);
            return format_text("a{}, {}", s.reg, half_name(s.half));
        }
        case FragmentOperand::MmaB: {
            const model::FragmentSlot s = model::mma_b_slot(row, col);
            return format_text("b{}, {}", s.reg, half_name(s.half));
        }
        case FragmentOperand::MmaC: return format_text("c{}", model::mma_c_slot(row, col).reg);
        case FragmentOperand::WgmmaD: return format_text("d{}", model::wgmma_accumulator_slot(row, col).reg);
        case FragmentOperand::LdmatrixA: {
            const int lane = address_lane(row, col);
            return format_text("row {} of matrix {}", model::ldmatrix_address_row(lane), model::ldmatrix_address_matrix(lane));
        }
    }
    return "";
}

std::string fragment_formula(FragmentOperand operand, int row, int col) {
    switch (operand) {
        case FragmentOperand::MmaA: {
            const model::FragmentSlot s = model::mma_a_slot(row, col);
            const int g = model::mma_group(s.lane), t = model::mma_thread_in_group(s.lane);
            return format_text(
                "A[{}][{}] is held by lane {}, register a{} ({}): element a{} of the PTX ISA's fragment.\n"
                "groupID = lane >> 2 = {}, threadID_in_group = lane % 4 = {}\n"
                "row = groupID + 8·(reg % 2) = {} + 8·{} = {}\n"
                "col = 2·threadID_in_group + half + 8·(reg / 2) = 2·{} + {} + 8·{} = {}\n"
                "Each lane holds 8 values of A in 4 registers: a0 top left, a1 bottom left, a2 top right, a3 bottom right.",
                row, col, s.lane, s.reg, half_name(s.half), 2 * s.reg + s.half, g, t, g, s.reg & 1, row, t, s.half,
                s.reg >> 1, col);
        }
        case FragmentOperand::MmaB: {
            const model::FragmentSlot s = model::mma_b_slot(row, col);
            const int g = model::mma_group(s.lane), t = model::mma_thread_in_group(s.lane);
            return format_text(
                "B[{}][{}] is held by lane {}, register b{} ({}): element b{} of the PTX ISA's fragment.\n"
                "groupID = lane >> 2 = {}, threadID_in_group = lane % 4 = {}\n"
                "row = 2·threadID_in_group + half + 8·reg = 2·{} + {} + 8·{} = {}\n"
                "col = groupID = {}\n"
                "A lane's two halves are neighbours along K, not along N: ldmatrix .trans puts them there from a "
                "K×N tile.",
                row, col, s.lane, s.reg, half_name(s.half), 2 * s.reg + s.half, g, t, t, s.half, s.reg, row, col);
        }
        case FragmentOperand::MmaC: {
            const model::FragmentSlot s = model::mma_c_slot(row, col);
            const int g = model::mma_group(s.lane), t = model::mma_thread_in_group(s.lane);
            return format_text(
                "C[{}][{}] is held by lane {}, register c{} (FP32).\n"
                "groupID = lane >> 2 = {}, threadID_in_group = lane % 4 = {}\n"
                "row = groupID + 8·(reg / 2) = {} + 8·{} = {}\n"
                "col = 2·threadID_in_group + reg % 2 = 2·{} + {} = {}\n"
                "Each lane owns two pairs of neighbours, eight rows apart: one 8-byte store per pair.",
                row, col, s.lane, s.reg, g, t, g, s.reg >> 1, row, t, s.reg & 1, col);
        }
        case FragmentOperand::WgmmaD: {
            const model::AccumulatorSlot s = model::wgmma_accumulator_slot(row, col);
            const int warp = s.thread >> 5, lane = s.thread & 31;
            const int g = model::mma_group(lane), t = model::mma_thread_in_group(lane);
            return format_text(
                "D[{}][{}] is held by thread {} of the warpgroup (warp {}, lane {}), register d{} (FP32).\n"
                "Warp w owns rows 16·w … 16·w + 15; in them each 8-column block is laid out as mma's C:\n"
                "row = 16·warp + groupID + 8·((reg / 2) % 2) = 16·{} + {} + 8·{} = {}\n"
                "col = 8·(reg / 4) + 2·threadID_in_group + reg % 2 = 8·{} + 2·{} + {} = {}\n"
                "(groupID = lane >> 2 = {}, threadID_in_group = lane % 4 = {}). A thread holds N/2 of these: 128 "
                "for m64n256k16.",
                row, col, s.thread, warp, lane, s.reg, warp, g, (s.reg >> 1) & 1, row, s.reg >> 2, t, s.reg & 1, col, g,
                t);
        }
        case FragmentOperand::LdmatrixA: {
            const int giver = address_lane(row, col), matrix = model::ldmatrix_address_matrix(giver);
            const model::Cell first = model::ldmatrix_x4_a_row(giver);
            const model::FragmentSlot to = model::ldmatrix_receiver(matrix, row % 8, col % 8, false);
            return format_text(
                "A[{}][{}…{}], 16 bytes, is row {} of 8×8 matrix {}: lane {} gives its address (lanes 8·m … 8·m + 7 "
                "give matrix m's rows; lane & 15 = {} is the row, 8·(lane >> 4) = {} the first column).\n"
                "ldmatrix hands A[{}][{}] to lane {} = 4·(row % 8) + (col % 8) / 2, register {} (matrix {}), {}: "
                "a{} of mma's A fragment above, where the instruction wants it.",
                first.row, first.col, first.col + 7, model::ldmatrix_address_row(giver), matrix, giver, first.row,
                first.col, row, col, to.lane, to.reg, matrix, half_name(to.half), 2 * to.reg + to.half);
        }
    }
    return "";
}

namespace {

bool of_wgmma(const std::vector<FragmentGrid>& grids) { return grids.front().operand == FragmentOperand::WgmmaD; }

// A caption of one line above each line of an mma's grids; a wgmma's caption stands right of its
// one grid, above its warps' names, and leaves the grid the whole height.
float caption_height(const std::vector<FragmentGrid>& grids, float font) { return of_wgmma(grids) ? 0.0f : font * 1.5f; }

// Room right of a wgmma's grid for its warps' names ("warp 3"), else a few pixels.
float names_width(const std::vector<FragmentGrid>& grids, float font) { return of_wgmma(grids) ? font * 4.2f : 4.0f; }

// The grids' extent in cells: the widest line (two cells between grids) and every line's rows.
ImVec2 grid_cells(const std::vector<FragmentGrid>& grids) {
    const int lines = grids.back().line + 1;
    std::vector<float> widths(static_cast<std::size_t>(lines), -2.0f);
    std::vector<int> rows(static_cast<std::size_t>(lines), 0);
    for (const FragmentGrid& g : grids) {
        widths[static_cast<std::size_t>(g.line)] += static_cast<float>(g.cols) + 2.0f;
        rows[static_cast<std::size_t>(g.line)] = std::max(rows[static_cast<std::size_t>(g.line)], g.rows);
    }
    float widest = 0.0f, tall = 0.0f;
    for (int l = 0; l < lines; ++l) {
        widest = std::max(widest, widths[static_cast<std::size_t>(l)]);
        tall += static_cast<float>(rows[static_cast<std::size_t>(l)]);
    }
    return {widest, tall};
}

}  // namespace

float fragments_width(model::KernelKind kind, float height, float font) {
    const std::vector<FragmentGrid> grids = fragment_grids(kind);
    if (grids.empty()) return 0.0f;
    const ImVec2 cells = grid_cells(grids);
    const float lines = static_cast<float>(grids.back().line + 1);
    const float cell = std::floor((height - caption_height(grids, font) * lines) / cells.y);
    // A pixel over, so that the picture's window, this wide, fits the same cells.
    return std::max(cell, 4.0f) * cells.x + names_width(grids, font) + 1.0f;
}

FragmentLayout layout_fragments(const std::vector<FragmentGrid>& grids, ImVec2 origin, ImVec2 avail, float font) {
    FragmentLayout layout;
    if (grids.empty() || avail.x < 200.0f || avail.y < 200.0f) return layout;
    const int lines = grids.back().line + 1;
    // Each line's height in rows: its tallest grid's.
    std::vector<int> rows(static_cast<std::size_t>(lines), 0);
    for (const FragmentGrid& g : grids)
        rows[static_cast<std::size_t>(g.line)] = std::max(rows[static_cast<std::size_t>(g.line)], g.rows);
    const ImVec2 cells = grid_cells(grids);
    const float cell = std::floor(std::min((avail.x - names_width(grids, font)) / cells.x,
                                           (avail.y - caption_height(grids, font) * static_cast<float>(lines)) / cells.y));
    if (cell < 4.0f) return layout;
    layout.cell = cell;
    float x = origin.x, y = origin.y + caption_height(grids, font);
    int line = 0;
    for (const FragmentGrid& g : grids) {
        if (g.line != line) {
            y += static_cast<float>(rows[static_cast<std::size_t>(line)]) * cell + caption_height(grids, font);
            x = origin.x;
            line = g.line;
        }
        layout.tops.push_back({x, y});
        x += (static_cast<float>(g.cols) + 2.0f) * cell;
    }
    return layout;
}

namespace {

std::shared_ptr<const model::KernelTrace> fragment_trace(const AppState& state) {
    if (state.kernel.kind != model::KernelKind::Mma) return nullptr;
    auto trace = tensor_core_trace(state.theatre.traces, model::KernelKind::Mma);
    return trace && trace->fragment_words.size() == static_cast<std::size_t>(model::kRecordedFragmentWords) ? trace
                                                                                                          : nullptr;
}

std::string recorded_fragment_text(const model::KernelTrace& trace, FragmentOperand operand, int row, int col) {
    if (operand != FragmentOperand::MmaA && operand != FragmentOperand::MmaB) return {};
    const bool of_b = operand == FragmentOperand::MmaB;
    const char name = of_b ? 'B' : 'A';
    const auto holder = model::recorded_holder(trace.fragment_words, of_b, row, col);
    if (!holder)
        return format_text("Recorded: no lane received {}[{}][{}] (outside the matrix: the copies wrote 0 there).", name,
                           row, col);
    return format_text("Recorded on {}: lane {} received {}[{}][{}] in register {}{} of its ldmatrix.x4{}, {}.",
                       trace.device, holder->lane, name, row, col, of_b ? "b" : "a", holder->reg,
                       of_b ? ".trans" : "", half_name(holder->half));
}

}  // namespace

void draw_tc_fragments_words(TheatreState& theatre, const AppState& app, float keep) {
    const std::vector<FragmentGrid> grids = fragment_grids(app.kernel.kind);
    if (grids.empty()) return;
    const bool wgmma = grids.front().operand == FragmentOperand::WgmmaD;
    // The mma rung's trace: A and B coloured by the lanes whose registers the GPU filled.
    if (const auto trace = fragment_trace(app)) {
        ImGui::Checkbox("the trace's registers", &theatre.traces.replay);
        const auto& difference = trace_difference(trace);
        coloured_text_wrapped(
            difference ? colours::kWarning : colours::kPass,
            (difference ? "The recorded registers differ from the model: " + *difference
                        : format_text("Recorded on {} ({}, 14_mma_recorded.cu): A and B are coloured by the lanes whose "
                                      "registers received each element from warp 0's first ldmatrix.x4 and .x4.trans "
                                      "(grey: outside the matrix, the copies' zero fill); all {} halves are where the "
                                      "PTX ISA's layout puts them.",
                                      trace->device, trace->recorded_at, trace->fragment_words.size()))
                .c_str());
    }
    const std::string what =
        wgmma ? "D, the accumulators of one wgmma m64nNk16: its 64 rows and the first 32 of its N columns, FP32, each "
                "element in the colour of the thread of the warpgroup that holds it. Warp w (threads 32·w … 32·w + 31) "
                "owns rows 16·w … 16·w + 15, laid out in each 8-column block as mma's C."
              : "Top: one mma.sync.m16n8k16. A is 16×16 (rows m, columns k), B 16×8 (rows k), C 16×8 in FP32; each "
                "element is in the colour of the lane of the warp that holds it, and marked with its number. Below: "
                "A's 16×16 tile as shared memory stores it, each 16-byte row in the colour of the lane that gives "
                "ldmatrix.x4 its address (not the lane that receives its values).";
    const int pinned = theatre.pinned_lane;
    const std::string foot =
        pinned >= 0 ? format_text("{} {} pinned (outlined, its registers written in); click it again to let go.",
                                  wgmma ? "Thread" : "Lane", pinned)
                    : format_text("Each colour is one {}; hover an element for its register and the PTX ISA's formula, "
                                  "click to pin that {}.",
                                  wgmma ? "lane of a warp (the four warps repeat the colours, each in its own 16 rows)"
                                        : "lane of the warp (0–31)",
                                  wgmma ? "thread" : "lane");
    folding_muted_text(what + " " + foot, "What the colours are", keep);
}

void draw_tc_fragments(TheatreState& theatre, PictureLayout& picture, const AppState& app) {
    const std::vector<FragmentGrid> grids = fragment_grids(app.kernel.kind);
    if (grids.empty()) return;
    const bool wgmma = grids.front().operand == FragmentOperand::WgmmaD;
    int& pinned = theatre.pinned_lane;
    if (pinned >= (wgmma ? model::kWarpgroupSize : 32)) pinned = -1;
    // The mma rung's trace: A and B coloured by the lanes whose registers the GPU filled.
    const auto trace = fragment_trace(app);
    const model::KernelTrace* recorded = trace && theatre.traces.replay ? trace.get() : nullptr;
    // Who received each element of A and of B, by the record: one pass over it a frame.
    std::array<model::FragmentHolders, 2> holders{};
    if (recorded)
        for (const bool of_b : {false, true})
            holders[of_b ? 1 : 0] = model::recorded_holders(recorded->fragment_words, of_b);

    const float font = ImGui::GetFontSize();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    picture.begin("theatre", origin, {origin.x + avail.x, origin.y + avail.y});
    const FragmentLayout layout = layout_fragments(grids, origin, avail, font);
    if (layout.cell <= 0.0f) return;
    const float cell = layout.cell;
    ImGui::InvisibleButton("##tc_fragments", avail);
    const bool hovering = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    ImFont* small = ImGui::GetFont();

    for (std::size_t i = 0; i < grids.size(); ++i) {
        const FragmentGrid& g = grids[i];
        const ImVec2 top = layout.tops[i];
        // A line's last grid may take the rest of the width for its caption; one line, the longest
        // form that fits.
        const bool last_of_line = i + 1 == grids.size() || grids[i + 1].line != g.line;
        const float right = top.x + static_cast<float>(g.cols) * cell + font * 0.5f;
        const float caption_room = wgmma          ? origin.x + avail.x - right
                                   : last_of_line ? origin.x + avail.x - top.x
                                                  : static_cast<float>(g.cols + 2) * cell - font * 0.5f;
        if (const auto title = first_fitting({g.title, g.short_title, g.short_title.substr(0, 1)}, small, caption_room)) {
            const ImVec2 at = wgmma ? ImVec2{right, top.y} : ImVec2{top.x, top.y - caption_height(grids, font)};
            text_at(draw, small, at, ImGui::GetColorU32(ImGuiCol_Text), *title);
            picture.add_label("caption: ", *title, at, {at.x + text_width(small, *title), at.y + font});
        }
        picture.add_matrix(g.title, top, {top.x + static_cast<float>(g.cols) * cell, top.y + static_cast<float>(g.rows) * cell});
        // ldmatrix reads 16-byte rows: one label per 8 elements, over the whole row piece.
        const int span = g.operand == FragmentOperand::LdmatrixA ? 8 : 1;
        // Drawn after the cells, which would otherwise paint over a label wider than one.
        struct Label {
            ImVec2 at;
            std::string text;
        };
        std::vector<Label> labels;
        for (int r = 0; r < g.rows; ++r)
            for (int c = 0; c < g.cols; ++c) {
                const ImVec2 a{top.x + static_cast<float>(c) * cell, top.y + static_cast<float>(r) * cell};
                const ImVec2 b{a.x + cell, a.y + cell};
                // With a trace, A's and B's holders are the lanes the GPU's registers name (−1:
                // none received the element).
                int holder = fragment_holder(g.operand, r, c);
                if (recorded && (g.operand == FragmentOperand::MmaA || g.operand == FragmentOperand::MmaB)) {
                    const auto& gpu = holders[g.operand == FragmentOperand::MmaB ? 1 : 0][static_cast<std::size_t>(r * 16 + c)];
                    holder = gpu ? gpu->lane : -1;
                }
                const int lane = holder < 0 ? -1 : holder % 32;
                // An element no lane received (outside the matrix): grey, as the zero fill it is.
                draw->AddRectFilled(a, b, lane < 0 ? colours::kMuted : lane_colour(lane));
                const bool mine = pinned >= 0 && holder == pinned;
                const bool over = hovering && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y;
                // The lane's number where it fits; with a lane pinned, that lane's registers instead.
                std::string label = lane < 0   ? std::string()
                                    : mine     ? fragment_register(g.operand, r, c)
                                    : span > 1 ? format_text("lane {}", lane)
                                               : std::to_string(wgmma ? holder : lane);
                if (mine) label.resize(std::min(label.size(), label.find(',')));  // "a3", not "a3, low half"
                // Smaller than the text around it where the cells are small (2× on a projector).
                const float size = std::min(font, cell * 0.55f);
                const ImVec2 text = small->CalcTextSizeA(size, FLT_MAX, 0.0f, label.c_str());
                const float room = cell * static_cast<float>(span);
                if (c % span == 0 && text.x <= room - 2.0f && size >= 8.0f)
                    labels.push_back({{a.x + (room - text.x) * 0.5f, a.y + (cell - text.y) * 0.5f}, label});
                if (mine) draw->AddRect(a, b, IM_COL32(0, 0, 0, 255), 0.0f, 0, std::max(2.0f, cell * 0.08f));
                if (over) {
                    draw->AddRect(a, b, IM_COL32(0, 0, 0, 255), 0.0f, 0, 1.5f);
                    const std::string gpu = recorded ? recorded_fragment_text(*recorded, g.operand, r, c) : "";
                    ImGui::SetTooltip("%s", (gpu.empty() ? fragment_formula(g.operand, r, c)
                                                         : gpu + "\nThe model:\n" + fragment_formula(g.operand, r, c))
                                                .c_str());
                    if (clicked) pinned = pinned == holder ? -1 : holder;
                }
            }
        const float size = std::min(font, cell * 0.55f);
        for (const Label& l : labels) draw->AddText(small, size, l.at, colours::kCellValue, l.text.c_str());
        // Lines between the 8×8 quarters: the registers' boundaries; between a wgmma's warps (16
        // rows each, the same colours again) thicker, each warp named beside its rows.
        for (int q = 8; q < g.rows; q += 8) {
            const bool warp_edge = g.operand == FragmentOperand::WgmmaD && q % 16 == 0;
            draw->AddLine({top.x, top.y + static_cast<float>(q) * cell},
                          {top.x + static_cast<float>(g.cols) * cell, top.y + static_cast<float>(q) * cell},
                          IM_COL32(40, 40, 40, warp_edge ? 255 : 200), warp_edge ? std::max(2.5f, cell * 0.2f) : 1.0f);
        }
        if (g.operand == FragmentOperand::WgmmaD)
            for (int w = 0; w < g.rows / 16; ++w) {
                const std::string name = format_text("warp {}", w);
                const ImVec2 at{top.x + static_cast<float>(g.cols) * cell + font * 0.5f,
                                top.y + (static_cast<float>(16 * w) + 8.0f) * cell - font * 0.5f};
                text_at(draw, small, at, ImGui::GetColorU32(ImGuiCol_Text), name);
                picture.add_label("name: ", name, at, {at.x + text_width(small, name), at.y + font});
            }
        for (int q = 8; q < g.cols; q += 8)
            draw->AddLine({top.x + static_cast<float>(q) * cell, top.y},
                          {top.x + static_cast<float>(q) * cell, top.y + static_cast<float>(g.rows) * cell},
                          IM_COL32(40, 40, 40, 200), 1.0f);
    }
}

}  // namespace ts::views
