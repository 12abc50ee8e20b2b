#include "views/theatre/tensor_core/smem.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <memory>

#include "model/format.hpp"
#include "model/ladder_rungs.hpp"
#include "model/tensor_core/stage_record.hpp"
#include "views/common/picture_layout.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/theatre/tensor_core/fragments.hpp"
#include "views/theatre/theatre_paint.hpp"
#include "views/theatre/theatre_traces.hpp"

namespace ts::views {

using model::format_text;

namespace {

constexpr int kChunkBytes = 16;
constexpr int kLineBytes = 128;

int chunks_per_row(const model::SmemTile& tile) { return tile.row_elements * tile.element_bytes / kChunkBytes; }
int elements_per_chunk(const model::SmemTile& tile) { return kChunkBytes / tile.element_bytes; }

}  // namespace

std::optional<SmemTilePair> smem_tiles(model::KernelKind kind, bool operand_b) {
    using model::SmemLayout;
    using model::SmemTile;
    return model::with_tc_shape<std::optional<SmemTilePair>>(
        model::KernelConfig{kind},
        [&](const model::MmaShape& s) -> std::optional<SmemTilePair> {
            const SmemTile stored = operand_b ? s.b_tile() : s.a_tile();
            const int elements = operand_b ? s.bn : s.bk;
            const std::string how = s.swizzled ? "the kernel's own XOR: chunk c of row r goes to c ^ (r % 8)"
                                    : s.pad > 0 ? format_text("each row padded by {} elements ({} bytes)", s.pad,
                                                              s.pad * s.element_bytes)
                                                : std::string("row-major, nothing done to it");
            return SmemTilePair{stored, {SmemLayout::RowMajor, stored.rows, elements, s.element_bytes}, how};
        },
        [&](const model::WgmmaShape& s) -> std::optional<SmemTilePair> {
            const int rows = operand_b ? s.bk : s.bm, elements = operand_b ? s.bn : s.bk;
            return SmemTilePair{{SmemLayout::Tma, rows, elements, s.element_bytes, s.swizzle},
                                {SmemLayout::RowMajor, rows, elements, s.element_bytes},
                                format_text("TMA's {}-byte swizzle, in column slabs {} bytes wide",
                                            model::swizzle_span_bytes(s.swizzle),
                                            model::swizzle_span_bytes(s.swizzle))};
        },
        std::nullopt);
}

std::vector<SmemChunkSlot> model_slots(const model::SmemTile& tile, int lines) {
    std::vector<SmemChunkSlot> slots(static_cast<std::size_t>(lines * kSlotsPerLine));
    for (int r = 0; r < tile.rows; ++r)
        for (int c = 0; c < chunks_per_row(tile); ++c) {
            const int byte = tile.offset(r, c * elements_per_chunk(tile));
            if (byte / kLineBytes < lines) slots[static_cast<std::size_t>(byte / kChunkBytes)] = {r, c};
        }
    return slots;
}

std::vector<SmemChunkSlot> recorded_slots(const model::KernelTrace& trace, bool operand_b, int lines) {
    const model::WgmmaShape s = model::kRecordedStageShape;
    if (trace.config.kind != model::KernelKind::Wgmma ||
        trace.stage_words.size() != static_cast<std::size_t>(model::kRecordedStageWords))
        return {};
    const int first_word = operand_b ? s.a_tile_bytes() / s.element_bytes : 0;
    const int tile_bytes = operand_b ? s.b_tile_bytes() : s.a_tile_bytes();
    std::vector<SmemChunkSlot> slots(static_cast<std::size_t>(lines * kSlotsPerLine));
    for (int i = 0; i < lines * kSlotsPerLine; ++i) {
        const int byte = i * kChunkBytes;
        if (byte >= tile_bytes) break;
        const int index = first_word + byte / s.element_bytes;
        const model::StageWord w =
            model::read_stage_word(s, index, trace.stage_words[static_cast<std::size_t>(index)]);
        if (w.foreign) continue;
        slots[static_cast<std::size_t>(i)] = {w.row, w.col / (kChunkBytes / s.element_bytes), w.zero_fill};
    }
    return slots;
}

int shown_lines(const SmemTilePair& tiles) {
    int lines = kSmemShownLines;
    for (const model::SmemTile* tile : {&tiles.stored, &tiles.plain})
        for (int r = 0; r < model::kLdmatrixPhaseLanes; ++r)
            for (int c = 0; c < chunks_per_row(*tile); ++c)
                lines = std::max(lines, tile->offset(r, c * elements_per_chunk(*tile)) / kLineBytes + 1);
    return lines;
}

int picture_wavefronts(const std::vector<SmemChunkSlot>& slots, int chunk) {
    int per_column[kSlotsPerLine] = {};
    for (std::size_t i = 0; i < slots.size(); ++i)
        if (slots[i].chunk == chunk && slots[i].row >= 0 && slots[i].row < model::kLdmatrixPhaseLanes)
            ++per_column[i % kSlotsPerLine];
    return *std::max_element(std::begin(per_column), std::end(per_column));
}

int chunk_read_wavefronts(const model::SmemTile& tile, int first_row, int chunk) {
    return model::ldmatrix_rows_wavefronts(tile, first_row, chunk * elements_per_chunk(tile));
}

std::string smem_chunk_formula(const SmemTilePair& tiles, int row, int chunk) {
    const int per = elements_per_chunk(tiles.stored);
    const int plain = tiles.plain.offset(row, chunk * per), stored = tiles.stored.offset(row, chunk * per);
    const auto place = [](int byte) {
        const int slot = byte % kLineBytes / kChunkBytes;
        return format_text("byte {}: line {}, banks {}–{}", byte, byte / kLineBytes, 4 * slot, 4 * slot + 3);
    };
    std::string why;
    switch (tiles.stored.layout) {
        case model::SmemLayout::Tma: {
            const int span = model::swizzle_span_bytes(tiles.stored.mode);
            const int in_span = chunk * kChunkBytes % span / kChunkBytes;
            why = format_text("slab {} (every {} bytes of a row are a slab of their own), then the chunk XORed with the "
                              "line: {} ^ ({} % 8) = {}",
                              chunk * kChunkBytes / span, span, in_span, row, in_span ^ (row % 8));
            break;
        }
        case model::SmemLayout::XorSwizzled: why = "the chunk XORed with the row, as the kernel writes it"; break;
        default: why = "rows one after another, " + std::to_string(tiles.stored.row_elements * tiles.stored.element_bytes) +
                       " bytes each"; break;
    }
    return format_text("row {}, elements {}–{} (16 bytes)\nrow-major: {}\nas stored: {}\n({})", row, chunk * per,
                       chunk * per + per - 1, place(plain), place(stored), why);
}

std::optional<TileDescriptor> tile_descriptor(model::KernelKind kind, bool operand_b, int chunk) {
    return model::with_tc_shape<std::optional<TileDescriptor>>(
        model::KernelConfig{kind}, [](const model::MmaShape&) { return std::optional<TileDescriptor>{}; },
        [&](const model::WgmmaShape& s) -> std::optional<TileDescriptor> {
            TileDescriptor d;
            const int per_chunk = kChunkBytes / s.element_bytes;
            if (!operand_b) {
                // A K slice is 16 elements of K: 32 bytes, two chunks.
                d.k_slice = chunk * kChunkBytes / model::kWgmmaKBytes;
                d.fields = model::a_tile_descriptor(s, 0, 0, 0, d.k_slice);
                d.tile_start = static_cast<std::uint32_t>(model::a_tile_offset(s, 0));
                d.as_wgmma_a = !s.swap_ab;
            } else {
                const int slab_elements = s.span_elements();
                d.fields = model::b_tile_descriptor(s, 0, 0, chunk * per_chunk / slab_elements * slab_elements, 0);
                d.tile_start = static_cast<std::uint32_t>(model::b_tile_offset(s, 0));
                d.k_major = s.b_k_major;
                d.as_wgmma_a = s.swap_ab;
            }
            d.bits = model::encode_descriptor(d.fields);
            return d;
        },
        std::nullopt);
}

std::string descriptor_text(const TileDescriptor& d) {
    const model::SmemDescriptor& f = d.fields;
    char bits[24];
    std::snprintf(bits, sizeof bits, "0x%016llx", static_cast<unsigned long long>(d.bits));
    const std::string head =
        format_text("wgmma reads this tile as its {} operand, {}, through the descriptor {}: start byte {}{}; ",
                    d.as_wgmma_a ? "A" : "B", d.k_major ? "K-major" : "MN-major", bits, f.start_address,
                    d.k_major ? format_text(" (K slice {}: elements {}–{} of K)", d.k_slice, 16 * d.k_slice,
                                            16 * d.k_slice + 15)
                              : std::string(" (K slice 0)"));
    if (d.k_major)
        return head + format_text("SBO {} bytes, from one group of 8 rows to the next; LBO {} (unused with the "
                                  "swizzle); swizzle 128B, which the hardware undoes on each address.",
                                  f.stride_byte_offset, f.leading_byte_offset);
    return head + format_text("LBO {} bytes, from one 64-column slab to the next; SBO {} bytes, from one group of 8 "
                              "rows of K to the next; swizzle 128B.",
                              f.leading_byte_offset, f.stride_byte_offset);
}

SmemProblem smem_shown_problem(const AppState& state) {
    SmemProblem shown{state.problem, ""};
    const auto tiles = smem_tiles(state.kernel.kind, state.theatre.smem_b);
    if (!tiles) return shown;
    const model::Problem& p = state.problem;
    const bool of_b = state.theatre.smem_b;
    // The tile's rows and columns, and how many of each the problem fills.
    const std::int64_t rows = tiles->plain.rows, cols = tiles->plain.row_elements;
    const std::int64_t filled_rows = std::min(of_b ? p.k : p.m, rows), filled_cols = std::min(of_b ? p.n : p.k, cols);
    if (2 * filled_rows >= rows && 2 * filled_cols >= cols) return shown;
    model::Problem& whole = shown.problem;
    if (of_b) {
        whole.k = std::max(whole.k, rows);
        whole.n = std::max(whole.n, cols);
    } else {
        whole.m = std::max(whole.m, rows);
        whole.k = std::max(whole.k, cols);
    }
    shown.note = format_text("Shown at {}, where {}'s tile is full, so that every chunk column has its colour; your problem "
                             "{} fills {} of the {} of the tile and {} of its {}: {} zeros in the rest.",
                             model::problem_size_text(whole), of_b ? 'B' : 'A', model::problem_size_text(p),
                             filled_rows, model::counted(rows, "row"), filled_cols, model::counted(cols, "column"),
                             model::needs_sm90a(state.kernel.kind) ? "TMA writes" : "the copies write");
    return shown;
}

std::string smem_explanation(const AppState& state) {
    const auto tiles = smem_tiles(state.kernel.kind, state.theatre.smem_b);
    if (!tiles) return "";
    return format_text(
        "Each colour is one 16-byte chunk column of the tile ({} elements), each number the row it belongs to. Shared "
        "memory is drawn in 128-byte lines: a column of cells there is four of the 32 banks. Outlined: rows 0–7 of "
        "chunk {}, which one ldmatrix phase (or one of wgmma's 8-row core matrices) reads at once; under each layout, "
        "how many wavefronts that read takes (one per chunk in the same banks). Click a chunk to read its column, "
        "hover one for its addresses.",
        elements_per_chunk(tiles->plain), state.theatre.smem_chunk);
}

namespace {

// The picture's rows of text in fonts: a title and the banks over the grids, the wavefronts under;
// between the banks and the grids, room in cells for the descriptor's start arrow.
constexpr float kTitleFonts = 1.1f, kBanksFonts = 1.1f, kWavesFonts = 1.4f, kArrowCells = 0.9f;

// The grids' columns: the logical grid's chunks, two 8-slot lines of shared memory, 2 between each.
float smem_columns(const SmemTilePair& tiles) { return static_cast<float>(chunks_per_row(tiles.plain) + 2 * kSlotsPerLine) + 4.0f; }

float smem_cell(const SmemTilePair& tiles, ImVec2 avail, float font) {
    const float text = (kTitleFonts + kBanksFonts + kWavesFonts) * font;
    return std::floor(std::min(avail.x / smem_columns(tiles),
                               (avail.y - text) / (static_cast<float>(shown_lines(tiles)) + kArrowCells)));
}

// The wgmma rung's trace, where the right-hand grid is drawn from it.
const model::KernelTrace* smem_trace(const AppState& state, std::shared_ptr<const model::KernelTrace>& kept) {
    kept = tensor_core_trace(state.theatre.traces, model::KernelKind::Wgmma);
    return kept && state.kernel.kind == model::KernelKind::Wgmma ? kept.get() : nullptr;
}

}  // namespace

float tc_smem_width(const AppState& state, float height) {
    const auto tiles = smem_tiles(state.kernel.kind, state.theatre.smem_b);
    if (!tiles) return FLT_MAX;  // words alone: above
    const float cell = std::max(6.0f, smem_cell(*tiles, {1e9f, height}, ImGui::GetFontSize()));
    return cell * smem_columns(*tiles) + 1.0f;
}

void draw_tc_smem_words(TheatreState& theatre, const AppState& app, float keep) {
    ImGui::TextUnformatted("Tile:");
    ImGui::SameLine();
    if (ImGui::RadioButton("A", !theatre.smem_b)) theatre.smem_b = false;
    ImGui::SameLine();
    if (ImGui::RadioButton("B", theatre.smem_b)) theatre.smem_b = true;
    const auto tiles = smem_tiles(app.kernel.kind, theatre.smem_b);
    if (!tiles) return;
    theatre.smem_chunk = std::clamp(theatre.smem_chunk, 0, chunks_per_row(tiles->plain) - 1);
    std::shared_ptr<const model::KernelTrace> kept;
    const model::KernelTrace* trace = smem_trace(app, kept);
    const bool recorded = trace && !recorded_slots(*trace, theatre.smem_b, shown_lines(*tiles)).empty();
    if (const std::string note = smem_shown_problem(app).note; !note.empty() && !recorded)
        ImGui::TextWrapped("%s", note.c_str());
    if (recorded) {
        const auto& difference = trace_difference(kept);
        coloured_text_wrapped(difference ? colours::kWarning : colours::kPass,
                              (difference ? "The recorded stage differs from the model: " + *difference
                                          : format_text("Recorded on {} ({}, {}×{}×{}): block (0, 0)'s first stage, "
                                                        "every word where the model puts it.",
                                                        trace->device, trace->recorded_at,
                                                        trace->problem.m, trace->problem.n,
                                                        trace->problem.k))
                                  .c_str());
    }
    std::string text = format_text("Left, {}'s tile as the kernel indexes it; middle, stored row-major; right, {}: {}. ",
                                   theatre.smem_b ? 'B' : 'A',
                                   recorded ? "as the GPU stored it (recorded)" : "as the rung stores it", tiles->how);
    text += smem_explanation(app);
    if (const auto descriptor = tile_descriptor(app.kernel.kind, theatre.smem_b, theatre.smem_chunk))
        text += " " + descriptor_text(*descriptor);
    folding_muted_text(text, "What the grids show", keep);
}

void draw_tc_smem(TheatreState& theatre, PictureLayout& picture, const AppState& app) {
    const auto tiles = smem_tiles(app.kernel.kind, theatre.smem_b);
    if (!tiles) return;
    const char operand = theatre.smem_b ? 'B' : 'A';
    const int chunks = chunks_per_row(tiles->plain);
    theatre.smem_chunk = std::clamp(theatre.smem_chunk, 0, chunks - 1);
    const int rows = std::min(kSmemShownLines, tiles->plain.rows);
    const int lines = shown_lines(*tiles);

    // The right-hand grid: the GPU's own bytes where the wgmma rung has been recorded.
    std::shared_ptr<const model::KernelTrace> trace_kept;
    const model::KernelTrace* trace = smem_trace(app, trace_kept);
    std::vector<SmemChunkSlot> stored =
        trace ? recorded_slots(*trace, theatre.smem_b, lines) : std::vector<SmemChunkSlot>{};
    const bool recorded = !stored.empty();
    if (!recorded) stored = model_slots(tiles->stored, lines);
    std::vector<SmemChunkSlot> plain = model_slots(tiles->plain, lines);
    // Block (0, 0)'s first tile of the problem on show (the trace's, where drawn from one):
    // chunks past M, N or K are TMA's zeros in shared memory, as the trace shows them.
    const model::Problem problem = recorded ? trace->problem : smem_shown_problem(app).problem;
    const auto outside = [&](const SmemChunkSlot& slot) {
        const std::int64_t first = static_cast<std::int64_t>(slot.chunk) * elements_per_chunk(tiles->plain);
        return theatre.smem_b ? slot.row >= problem.k || first >= problem.n : slot.row >= problem.m || first >= problem.k;
    };
    for (SmemChunkSlot& slot : plain)
        if (!slot.empty() && outside(slot)) slot.zero_fill = true;
    if (!recorded)
        for (SmemChunkSlot& slot : stored)
            if (!slot.empty() && outside(slot)) slot.zero_fill = true;

    struct Grid {
        std::string title;
        int cols;
        const std::vector<SmemChunkSlot>* slots;  // null: the logical grid
    };
    const Grid grids[] = {{"indexed", chunks, nullptr}, {"row-major", kSlotsPerLine, &plain},
                          {recorded ? "recorded" : "stored", kSlotsPerLine, &stored}};

    const float font = ImGui::GetFontSize();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    picture.begin("theatre", origin, {origin.x + avail.x, origin.y + avail.y});
    const float cell = smem_cell(*tiles, avail, font);
    if (cell < 6.0f) return;
    // A title and the banks over the grids, the start arrow's room, the wavefronts under them.
    const float banks_y = origin.y + font * kTitleFonts;
    const float caption = font * (kTitleFonts + kBanksFonts) + cell * kArrowCells;
    ImGui::InvisibleButton("##tc_smem", avail);
    const bool hovering = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    ImFont* small = ImGui::GetFont();
    const float label_size = std::min(font, cell * 0.55f);

    // The chunk under the mouse, in any grid: outlined in all three.
    std::optional<SmemChunkSlot> hovered;
    float x = origin.x;
    const float top_y = origin.y + caption;
    for (const Grid& g : grids) {
        const float width = static_cast<float>(g.cols) * cell;
        // The title in its grid's width and the gap after it, less a space: smaller where it is
        // wider (a 4-chunk grid's "indexed" at 2× would run into the next title).
        const float title_room = width + 2.0f * cell - text_width(small, " "), title_width = text_width(small, g.title);
        const float own_size = imgui_compat::font_size(small);
        const float title_size = title_width > title_room ? own_size * title_room / title_width : own_size;
        const ImVec2 title_at{x, origin.y + own_size - title_size};
        draw->AddText(small, title_size, title_at, ImGui::GetColorU32(ImGuiCol_Text), g.title.c_str());
        picture.add_label("caption: ", g.title, title_at,
                          {x + std::min(title_width, title_room), origin.y + font});
        picture.add_matrix(g.title, {x, top_y},
                           {x + width, top_y + static_cast<float>(g.slots ? lines : rows) * cell});
        for (int line = 0; line < (g.slots ? lines : rows); ++line)
            for (int c = 0; c < g.cols; ++c) {
                SmemChunkSlot slot = g.slots ? (*g.slots)[static_cast<std::size_t>(line * kSlotsPerLine + c)]
                                             : SmemChunkSlot{line, c};
                if (!g.slots && outside(slot)) slot.zero_fill = true;
                const ImVec2 a{x + static_cast<float>(c) * cell, top_y + static_cast<float>(line) * cell};
                const ImVec2 b{a.x + cell, a.y + cell};
                if (slot.empty()) {
                    draw->AddRect(a, b, colours::kMuted);
                    continue;
                }
                draw->AddRectFilled(a, b, slot.zero_fill ? colours::kMuted : lane_colour(slot.chunk));
                const std::string label = slot.zero_fill ? "0" : std::to_string(slot.row);
                const ImVec2 size = small->CalcTextSizeA(label_size, FLT_MAX, 0.0f, label.c_str());
                if (size.x <= cell - 2.0f && label_size >= 8.0f)
                    draw->AddText(small, label_size, {a.x + (cell - size.x) * 0.5f, a.y + (cell - size.y) * 0.5f},
                                  colours::kCellValue, label.c_str());
                const bool read = slot.chunk == theatre.smem_chunk && slot.row < model::kLdmatrixPhaseLanes;
                if (read) draw->AddRect(a, b, IM_COL32(0, 0, 0, 255), 0.0f, 0, std::max(2.0f, cell * 0.12f));
                if (hovering && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y) hovered = slot;
            }
        if (g.slots) {
            // Bank groups over the columns, and the cost of the outlined read underneath.
            for (int c = 0; c < kSlotsPerLine; c += 4) {
                // "bank 16" where four cells hold it, else the bank's number alone.
                const auto bank = first_fitting({format_text("bank {}", 4 * c), std::to_string(4 * c)}, small,
                                                4.0f * cell - font * 0.3f);
                if (!bank) continue;
                const ImVec2 at{x + static_cast<float>(c) * cell, banks_y};
                text_at(draw, small, at, colours::kMuted, *bank);
                picture.add_label("banks: ", *bank, at, {at.x + text_width(small, *bank), at.y + font});
            }
            // Under the grid, ending at its right edge: the grid's width and the gap left of it.
            const int waves = picture_wavefronts(*g.slots, theatre.smem_chunk);
            if (const auto cost = first_fitting({model::counted(waves, "wavefront"), std::to_string(waves)}, small,
                                                width + 2.0f * cell)) {
                const float cost_width = text_width(small, *cost);
                const ImVec2 at{x + width - cost_width, top_y + static_cast<float>(lines) * cell + font * 0.2f};
                text_at(draw, small, at, waves <= 1 ? colours::kPass : colours::kWarning, *cost);
                picture.add_label("cost: ", *cost, at, {at.x + cost_width, at.y + font});
            }
        }
        x += width + 2.0f * cell;
    }
    // The descriptor's start and stride on the stored grid, where the rung reads through one.
    const auto descriptor = tile_descriptor(app.kernel.kind, theatre.smem_b, theatre.smem_chunk);
    if (descriptor && !stored.empty()) {
        const float stored_x = origin.x + static_cast<float>(chunks + kSlotsPerLine) * cell + 4.0f * cell;
        const int in_tile = static_cast<int>(descriptor->fields.start_address - descriptor->tile_start);
        const ImVec2 start{stored_x + (static_cast<float>(in_tile % kLineBytes / kChunkBytes) + 0.5f) * cell,
                           top_y + static_cast<float>(in_tile / kLineBytes) * cell};
        const ImU32 arrow = colours::kHighlight;
        const float thick = std::max(2.0f, cell * 0.12f);
        // In its room between the banks' labels and the grid, crossing neither.
        draw->AddLine({start.x, start.y - cell * kArrowCells}, start, arrow, thick);
        draw->AddTriangleFilled({start.x - cell * 0.25f, start.y - cell * 0.35f}, {start.x + cell * 0.25f, start.y - cell * 0.35f},
                                start, arrow);
        const int sbo_lines = static_cast<int>(descriptor->fields.stride_byte_offset) / kLineBytes;
        if (sbo_lines > 0 && sbo_lines < lines) {
            // In the gap left of the stored grid: from row 0 to row 8, the next group of 8 rows.
            const float x_line = stored_x - cell;
            const float y0 = top_y + cell * 0.5f, y1 = top_y + (static_cast<float>(sbo_lines) + 0.5f) * cell;
            draw->AddLine({x_line, y0}, {x_line, y1}, arrow, thick);
            draw->AddTriangleFilled({x_line - cell * 0.25f, y1 - cell * 0.4f}, {x_line + cell * 0.25f, y1 - cell * 0.4f},
                                    {x_line, y1}, arrow);
            // Under the arrow's head, in the gap: on one line where the gap is wide enough, else a
            // letter a line (a projector's text is wider than two cells).
            const float label = text_width(small, "SBO"), gap = 2.0f * cell - 4.0f;
            const bool stacked = label > gap && text_width(small, "W") <= gap;
            const float column = stacked ? std::max({text_width(small, "S"), text_width(small, "B"), text_width(small, "O")})
                                         : label;
            const ImVec2 at{x_line - column * 0.5f, y1 + cell * 0.1f};
            if (stacked)
                for (int i = 0; i < 3; ++i) {
                    const char letter[2] = {"SBO"[i], '\0'};
                    text_at(draw, small, {x_line - text_width(small, letter) * 0.5f, at.y + static_cast<float>(i) * font},
                            arrow, letter);
                }
            else
                text_at(draw, small, at, arrow, "SBO");
            picture.add_label("arrow: ", "SBO", at, {at.x + column, at.y + (stacked ? 3.0f : 1.0f) * font});
        }
    }
    // The hovered chunk wherever it sits, and its addresses.
    if (hovered && !hovered->zero_fill) {
        x = origin.x;
        for (const Grid& g : grids) {
            for (int line = 0; line < lines; ++line)
                for (int c = 0; c < g.cols; ++c) {
                    const SmemChunkSlot slot = g.slots ? (*g.slots)[static_cast<std::size_t>(line * kSlotsPerLine + c)]
                                                  : SmemChunkSlot{line, c};
                    if (slot.row != hovered->row || slot.chunk != hovered->chunk || (!g.slots && line >= rows)) continue;
                    const ImVec2 a{x + static_cast<float>(c) * cell, top_y + static_cast<float>(line) * cell};
                    draw->AddRect({a.x - 1.0f, a.y - 1.0f}, {a.x + cell + 1.0f, a.y + cell + 1.0f},
                                  IM_COL32(255, 255, 255, 255), 0.0f, 0, 2.0f);
                }
            x += static_cast<float>(g.cols) * cell + 2.0f * cell;
        }
        ImGui::SetTooltip("%c %s", operand, smem_chunk_formula(*tiles, hovered->row, hovered->chunk).c_str());
        if (clicked) theatre.smem_chunk = hovered->chunk;
    } else if (hovered) {
        ImGui::SetTooltip("A zero TMA wrote: row %d, chunk %d lies outside the matrix", hovered->row, hovered->chunk);
    }
}

}  // namespace ts::views
