#include "views/theatre/block/warp_panel.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "imgui.h"
#include "model/format.hpp"
#include "model/thread_map.hpp"
#include "views/theatre/theatre_logic.hpp"
#include "views/theatre/theatre_paint.hpp"
#include "views/stage/stage_view.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

using model::format_text;
using model::WarpMapping;

namespace {

model::Index2 block_dim(const model::KernelConfig& config) {
    if (config.kind == model::KernelKind::Tiled) return {config.tile, config.tile};
    return {config.block_x, config.block_y};
}

}  // namespace

int shown_warp(const AppState& state, std::optional<model::Cell> cell) {
    if (!cell) return 0;
    const auto id = model::thread_of_cell(played_config(state), state.problem, *cell);
    return id && id->block == state.theatre.block ? id->warp : 0;
}

WarpComparison compare_warp_access(const AppState& state, int warp) {
    WarpComparison out;
    const model::KernelConfig config = played_config(state);
    const model::KernelStep step = current_step(state);
    const model::Index2 block = state.theatre.block;
    const int z = state.theatre.batch_z;
    const WarpMapping mappings[2] = {WarpMapping::Coalesced, WarpMapping::XIsRow};
    if (step.sub == model::SubStep::Store) {
        out.any = false;
        out.what = "none: the store writes C, one element per thread (neighbouring lanes, neighbouring columns)";
        return out;
    }
    if (config.kind == model::KernelKind::Tiled) {
        out.what = format_text("phase {}'s tile loads (made at its load step)", step.phase);
        for (int i = 0; i < 2; ++i) {
            out.a[i] = model::tiled_load_access(state.problem, config.tile, block, step.phase, model::Operand::A, warp,
                                                mappings[i], z);
            out.b[i] = model::tiled_load_access(state.problem, config.tile, block, step.phase, model::Operand::B, warp,
                                                mappings[i], z);
        }
        return out;
    }
    const model::KRange range = step_k_range(theatre_timeline(state), state.problem, step);
    out.any = range.begin < range.end;
    out.what = out.any ? format_text("the reads at k = {}", range.begin) : "nothing: the naive loop has ended";
    for (int i = 0; i < 2; ++i) {
        out.a[i] = model::naive_read_access(state.problem, block_dim(config), block, range.begin, model::Operand::A,
                                            warp, mappings[i], z);
        out.b[i] = model::naive_read_access(state.problem, block_dim(config), block, range.begin, model::Operand::B,
                                            warp, mappings[i], z);
    }
    return out;
}

std::string lane_addresses(const model::WarpAccess& access) {
    std::vector<std::int64_t> offsets;
    for (const std::int64_t o : access.offsets)
        if (o >= 0) offsets.push_back(o);
    if (offsets.empty()) return "no lane loads anything";
    if (offsets.size() == 1) return format_text("{} (the one lane)", offsets[0]);
    if (std::all_of(offsets.begin(), offsets.end(), [&](auto o) { return o == offsets[0]; }))
        return format_text("{} (all {} lanes: one broadcast)", offsets[0], offsets.size());
    // Runs of neighbours in lane order, at most four of them written out.
    std::string text;
    int runs = 0;
    for (std::size_t i = 0; i < offsets.size();) {
        std::size_t j = i;
        while (j + 1 < offsets.size() && offsets[j + 1] == offsets[j] + 1) ++j;
        if (runs == 4) {
            text += ", …";
            break;
        }
        text += format_text(runs ? ", {}" : "{}", offsets[i]);
        if (j > i) text += format_text("..{}", offsets[j]);
        ++runs;
        i = j + 1;
    }
    return text;
}

std::string penalty_text(const std::optional<CoalescingPenalty>& penalty) {
    if (!penalty) return "Measured penalty: not measured yet (the latency lab measures naive and naive-row on a GPU).";
    return format_text("Measured on a GPU: naive-row (threadIdx.x → row) took {}× the naive kernel's time ({}).",
                  model::fixed(penalty->ratio, 1), penalty->measured);
}

namespace {

// The 32 lanes in two rows of 16, each lane coloured by the sector it reads (a new colour
// per sector, in lane order), lanes without an access hatched grey.
void lane_strip(const model::WarpAccess& access, std::size_t element_size) {
    const float width = ImGui::GetContentRegionAvail().x;
    const float lane = std::min(width / 16.0f, 22.0f);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    std::map<std::int64_t, int> sector_index;
    for (int i = 0; i < model::kWarpSize; ++i) {
        const Rect box{{at.x + lane * static_cast<float>(i % 16), at.y + lane * static_cast<float>(i / 16)},
                       {at.x + lane * static_cast<float>(i % 16 + 1), at.y + lane * static_cast<float>(i / 16 + 1)}};
        const std::int64_t offset = access.offsets[static_cast<std::size_t>(i)];
        if (offset < 0) {
            draw_hatched(draw, box, 4.0f);
        } else {
            const std::int64_t sector = offset * static_cast<std::int64_t>(element_size) / model::kSectorBytes;
            const int index = sector_index.emplace(sector, static_cast<int>(sector_index.size())).first->second;
            draw->AddRectFilled(box.min, box.max, warp_colour_strong(index));
        }
        draw->AddRect(box.min, box.max, IM_COL32_WHITE);
    }
    ImGui::Dummy(ImVec2(lane * 16.0f, lane * 2.0f));
}

void access_cell(const model::WarpAccess& access, std::size_t element_size) {
    lane_strip(access, element_size);
    const std::int64_t data = access.bytes_distinct(element_size), moved = access.bytes_moved();
    // Wasteful: more than twice the sectors that the data itself would fill.
    const std::int64_t ideal = std::max<std::int64_t>(model::ceil_div64(data, model::kSectorBytes), 1);
    ImGui::PushStyleColor(ImGuiCol_Text, access.sectors > 2 * ideal ? colours::kError : colours::kPass);
    ImGui::TextWrapped("%s", format_text("{}: {} B moved for {} B of data", model::counted(access.sectors, "sector"),
                                         moved, data)
                                 .c_str());
    ImGui::PopStyleColor();
    ImGui::PushFont(small_font());
    ImGui::TextWrapped("%s", lane_addresses(access).c_str());
    ImGui::PopFont();
}

}  // namespace

void draw_warp_panel(const AppState& state, std::optional<model::Cell> cell) {
    const model::KernelConfig config = played_config(state);
    const model::Index2 dim = block_dim(config);
    const int warps = model::ceil_div(dim.x * dim.y, model::kWarpSize);
    const int warp = shown_warp(state, cell);
    const int first = warp * model::kWarpSize, last = std::min(first + model::kWarpSize, dim.x * dim.y) - 1;
    ImGui::PushFont(heading_font());
    ImGui::TextUnformatted(format_text("Warp {} of {} in block ({}, {})", warp, warps, state.theatre.block.x,
                                  state.theatre.block.y)
                               .c_str());
    ImGui::PopFont();
    muted_text(format_text("Threads {}..{} (x fastest): threadIdx ({},{}) to ({},{}); coloured by warp on the canvas. "
                      "Pin a cell of C to pick its warp.",
                      first, last, first % dim.x, first / dim.x, last % dim.x, last / dim.x));
    const WarpComparison cmp = compare_warp_access(state, warp);
    const std::size_t size = model::dtype_size(state.problem.dtype);
    if (!cmp.any) {
        ImGui::TextWrapped("%s", format_text("Its global-memory reads now: {}.", cmp.what).c_str());
        muted_text(penalty_text(measured_coalescing_penalty(state.lab)));
        return;
    }
    ImGui::TextWrapped("%s", format_text("Its global reads now: {}, {} of {} bytes. Memory serves a warp in 32-byte "
                                    "sectors; one colour per sector, lanes 0..15 above 16..31.",
                                    cmp.what, model::dtype_name(state.problem.dtype), size)
                                 .c_str());
    constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchSame;
    if (ImGui::BeginTable("##warp_access", 2, kFlags)) {
        ImGui::TableSetupColumn("x → column (as compiled)");
        ImGui::TableSetupColumn("x → row (swapped)");
        ImGui::TableHeadersRow();
        for (const auto& [name, accesses] : {std::pair{"A", cmp.a}, std::pair{"B", cmp.b}})
            for (int i = 0; i < 2; ++i) {
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(format_text("{}:", name).c_str());
                access_cell(accesses[i], size);
            }
        ImGui::EndTable();
    }
    const int kernel = cmp.a[0].sectors + cmp.b[0].sectors, swapped = cmp.a[1].sectors + cmp.b[1].sectors;
    if (kernel > 0)
        ImGui::TextWrapped("%s", format_text("A and B together: {} sectors as compiled, {} with threadIdx.x as the row "
                                        "({}× the memory traffic for the same data).",
                                        kernel, swapped, model::fixed(static_cast<double>(swapped) / kernel, 1))
                                     .c_str());
    muted_text(penalty_text(measured_coalescing_penalty(state.lab)));
}

}  // namespace ts::views
