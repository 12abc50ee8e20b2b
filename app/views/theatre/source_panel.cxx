#include "source_panel.hpp"

#include <algorithm>
#include <cstdio>

#include "imgui.h"
#include "kernel_sources.hpp"
#include "views/text.hpp"
#include "views/theme.hpp"

namespace ts::views {

namespace {

constexpr std::string_view kTiledFile = "05_tiled.cu";
constexpr ImU32 kLineHighlight = IM_COL32(255, 226, 120, 255);

}  // namespace

std::string_view kernel_source(std::string_view file) {
    for (const generated::KernelSource& source : generated::kKernelSources)
        if (source.file == file) return source.text;
    return {};
}

std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        lines.push_back(text.substr(0, end));
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
    return lines;
}

std::optional<int> find_line(const std::vector<std::string_view>& lines, std::string_view needle, int from) {
    for (int i = std::max(from, 0); i < static_cast<int>(lines.size()); ++i)
        if (lines[static_cast<std::size_t>(i)].find(needle) != std::string_view::npos) return i;
    return std::nullopt;
}

std::optional<SourceLines> tiled_source_lines(const std::vector<std::string_view>& lines, model::SubStep sub) {
    // Each statement is searched after the one before it: the two barriers read the same.
    const auto load_a = find_line(lines, "as[ty][tx] =");
    if (!load_a) return std::nullopt;
    const auto load_b = find_line(lines, "bs[ty][tx] =", *load_a);
    if (!load_b) return std::nullopt;
    const auto sync1 = find_line(lines, "__syncthreads();", *load_b);
    if (!sync1) return std::nullopt;
    const auto compute = find_line(lines, "for (int i = 0; i < Tile; ++i)", *sync1);
    if (!compute) return std::nullopt;
    const auto sync2 = find_line(lines, "__syncthreads();", *compute);
    if (!sync2) return std::nullopt;
    const auto store = find_line(lines, "c[row_major(row, col, n)] = sum", *sync2);
    if (!store) return std::nullopt;
    switch (sub) {
        case model::SubStep::LoadTiles: return SourceLines{*load_a, *load_b};
        case model::SubStep::SyncAfterLoad: return SourceLines{*sync1, *sync1};
        case model::SubStep::Compute: return SourceLines{*compute, *compute};
        case model::SubStep::SyncAfterCompute: return SourceLines{*sync2, *sync2};
        case model::SubStep::Store: return SourceLines{*store, *store};
    }
    return std::nullopt;
}

std::optional<SourceLines> tiled_kernel_extent(const std::vector<std::string_view>& lines) {
    const auto signature = find_line(lines, "__global__ void tiled_kernel");
    if (!signature || *signature == 0) return std::nullopt;
    // The function's closing brace is the first line that is exactly "}" after its start.
    for (int i = *signature; i < static_cast<int>(lines.size()); ++i)
        if (lines[static_cast<std::size_t>(i)] == "}") return SourceLines{*signature - 1, i};
    return std::nullopt;
}

void draw_source_panel(model::SubStep sub) {
    const std::vector<std::string_view> lines = split_lines(kernel_source(kTiledFile));
    const auto extent = tiled_kernel_extent(lines);
    const auto current = tiled_source_lines(lines, sub);
    if (!extent || !current) {
        coloured_text_wrapped(colours::kError, "kernels/05_tiled.cu was not embedded as expected: no source to show.");
        return;
    }
    heading("kernels/05_tiled.cu");
    muted_text("The real kernel, as compiled. Highlighted: what the block executes in this step.");
    ImGui::PushFont(small_font());
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float width = ImGui::GetContentRegionAvail().x;
    for (int i = extent->first; i <= extent->last; ++i) {
        const std::string_view line = lines[static_cast<std::size_t>(i)];
        const bool lit = i >= current->first && i <= current->last;
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const ImVec2 end{at.x + width, at.y + ImGui::GetTextLineHeightWithSpacing()};
        if (lit) draw->AddRectFilled(at, end, kLineHighlight);
        // Bring the executed line into view when a step moves it off screen; otherwise the
        // reader's own scrolling stays.
        if (lit && i == current->first && !ImGui::IsRectVisible(at, end)) ImGui::SetScrollHereY(0.5f);
        char number[16];
        std::snprintf(number, sizeof number, "%3d ", i + 1);
        ImGui::PushStyleColor(ImGuiCol_Text, colours::kMuted);
        ImGui::TextUnformatted(number);
        ImGui::PopStyleColor();
        ImGui::SameLine(0.0f, 0.0f);
        ImGui::TextUnformatted(line.data(), line.data() + line.size());
    }
    ImGui::PopFont();
}

}  // namespace ts::views
