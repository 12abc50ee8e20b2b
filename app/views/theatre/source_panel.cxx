#include "views/theatre/source_panel.hpp"

#include <algorithm>
#include <cstdio>

#include "imgui.h"
#include "kernel_sources.hpp"
#include "model/format.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

namespace {

constexpr ImU32 kLineHighlight = IM_COL32(255, 226, 120, 255);

// The line that opens each kernel's function (its template line is the one above), and for
// the ladder's rungs the statements of each sub-step, searched in order. Rungs 08–10 share
// vector_ladder_kernel (common/ladder_vector.cuh); 11 and 12 share pipeline_body (11_pipelined.cuh),
// whose one barrier per step waits for the next step's copies.
struct RungSource {
    model::KernelKind kind;
    std::string_view signature;
    std::string_view load, sync1, compute, sync2, store;
};
constexpr RungSource kRungSources[] = {
    {model::KernelKind::RegTile1d, "__global__ void __launch_bounds__(model::kRegTile1dShape", "load_ladder_tiles<T, s>(",
     "__syncthreads();", "for (int i = 0; i < s.bk; ++i)", "__syncthreads();", "if (inside(row + r, col, m, n))"},
    {model::KernelKind::RegTile2d, "__global__ void __launch_bounds__(model::kRegTile2dShape", "load_ladder_tiles<T, s>(",
     "__syncthreads();", "for (int i = 0; i < s.bk; ++i)", "__syncthreads();", "if (inside(row + r, col + j, m, n))"},
    {model::KernelKind::Vectorized, "__global__ void __launch_bounds__(Shape::value.threads()) vector_ladder_kernel",
     "load_vector_tiles<S, Aligned>(", "__syncthreads();", "accumulate_step<S>(", "__syncthreads();",
     "store_vector_tiles<S, Aligned>(c, sums"},
    {model::KernelKind::Pipelined, "__device__ __forceinline__ void pipeline_body(",
     "if constexpr (decltype(refill)::value) copy_step(", "wait_for_copies<S.stages - 2>();",
     "products_loading<S>(a_even, b_even, sums, as, bs, thread, i + 1", "__syncthreads();",
     "store_vector_tiles<S, Aligned>(c, sums"},
};

const RungSource* rung_source(model::KernelKind kind) {
    using K = model::KernelKind;
    // 09 and 10 run 08's kernel with another shape; 12 runs 11's.
    if (kind == K::ConflictFree || kind == K::Warptile) kind = K::Vectorized;
    if (kind == K::Tuned) kind = K::Pipelined;
    for (const RungSource& source : kRungSources)
        if (source.kind == kind) return &source;
    return nullptr;
}

std::string_view signature_of(model::KernelKind kind) {
    if (const RungSource* rung = rung_source(kind)) return rung->signature;
    // The tensor-core rungs (their sub-steps: tensor_core/source_tab.cxx). 18 and 19 share persistent_kernel.
    switch (kind) {
        case model::KernelKind::Wmma: return "__launch_bounds__(kThreads) wmma_kernel(";
        case model::KernelKind::Mma: return "__launch_bounds__(kThreads) mma_kernel(";
        case model::KernelKind::MmaAsync: return "__launch_bounds__(kThreads) mma_async_kernel(";
        case model::KernelKind::Wgmma: return "__launch_bounds__(kThreads) wgmma_kernel(";
        case model::KernelKind::WarpSpecialized: return ") warp_specialized_kernel(";
        case model::KernelKind::Persistent:
        case model::KernelKind::TcTuned: return "__global__ void __cluster_dims__(ShapeType::value.cluster_m";
        // 20 and 21 share fp8_kernel (20_fp8.cuh).
        case model::KernelKind::Fp8:
        case model::KernelKind::Fp8Blocks: return "    fp8_kernel(const __grid_constant__ CUtensorMap a_map";
        default: break;
    }
    return kind == model::KernelKind::Tiled ? "__global__ void tiled_kernel" : "__global__ void naive_kernel";
}

// The lines of a tiled kernel's statements, found: the tiles' loads (first to last) and the
// one line of each barrier, the compute loop and the store.
struct TiledStatements {
    int load_first, load_last, sync1, compute, sync2, store;
};

std::optional<SourceLines> sub_step_lines(const TiledStatements& at, model::SubStep sub) {
    switch (sub) {
        case model::SubStep::LoadTiles: return SourceLines{at.load_first, at.load_last};
        case model::SubStep::SyncAfterLoad: return SourceLines{at.sync1, at.sync1};
        case model::SubStep::Compute: return SourceLines{at.compute, at.compute};
        case model::SubStep::SyncAfterCompute: return SourceLines{at.sync2, at.sync2};
        case model::SubStep::Store: return SourceLines{at.store, at.store};
    }
    return std::nullopt;
}

std::optional<SourceLines> rung_lines(const RungSource& source, const std::vector<std::string_view>& lines,
                                        model::SubStep sub) {
    const auto start = find_line(lines, source.signature);
    if (!start) return std::nullopt;
    const auto load = find_line(lines, source.load, *start);
    if (!load) return std::nullopt;
    // The pipeline waits for its copies after issuing the next ones; the others wait right
    // after their loads.
    const auto sync1 = find_line(lines, source.sync1, *load);
    if (!sync1) return std::nullopt;
    const auto compute = find_line(lines, source.compute, *start);
    if (!compute) return std::nullopt;
    const auto sync2 = find_line(lines, source.sync2, std::max(*compute, *sync1));
    if (!sync2) return std::nullopt;
    const auto store = find_line(lines, source.store, *sync2);
    if (!store) return std::nullopt;
    return sub_step_lines({.load_first = *load, .load_last = *load, .sync1 = *sync1, .compute = *compute,
                           .sync2 = *sync2, .store = *store},
                          sub);
}

// Each statement is searched after the one before it: the two barriers read the same.
std::optional<SourceLines> tiled_lines(const std::vector<std::string_view>& lines, model::SubStep sub) {
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
    return sub_step_lines({.load_first = *load_a, .load_last = *load_b, .sync1 = *sync1, .compute = *compute,
                           .sync2 = *sync2, .store = *store},
                          sub);
}

std::optional<SourceLines> naive_lines(const std::vector<std::string_view>& lines, model::SubStep sub) {
    const auto signature = find_line(lines, signature_of(model::KernelKind::Naive));
    if (!signature) return std::nullopt;
    const auto compute = find_line(lines, "for (int i = 0; i < k; ++i) sum +=", *signature);
    if (!compute) return std::nullopt;
    const auto store = find_line(lines, "c[row_major(row, col, n)] = sum", *compute);
    if (!store) return std::nullopt;
    if (sub == model::SubStep::Compute) return SourceLines{*compute, *compute};
    if (sub == model::SubStep::Store) return SourceLines{*store, *store};
    return std::nullopt;
}

}  // namespace

std::string_view kernel_source(std::string_view file) {
    for (const generated::KernelSource& source : generated::kKernelSources)
        if (source.file == file) return source.text;
    return {};
}

KernelFile kernel_file(model::KernelKind kind) {
    for (const generated::KernelSource& source : generated::kKernelSources)
        if (source.text.find(signature_of(kind)) != std::string_view::npos) return {source.file, source.text};
    return {};
}

std::optional<int> find_line(const std::vector<std::string_view>& lines, std::string_view needle, int from) {
    for (int i = std::max(from, 0); i < static_cast<int>(lines.size()); ++i)
        if (lines[static_cast<std::size_t>(i)].find(needle) != std::string_view::npos) return i;
    return std::nullopt;
}

std::optional<SourceLines> source_lines(model::KernelKind kind, const std::vector<std::string_view>& lines,
                                        model::SubStep sub) {
    if (const RungSource* rung = rung_source(kind)) return rung_lines(*rung, lines, sub);
    return kind == model::KernelKind::Tiled ? tiled_lines(lines, sub) : naive_lines(lines, sub);
}

std::optional<SourceLines> kernel_extent(model::KernelKind kind, const std::vector<std::string_view>& lines) {
    const auto signature = find_line(lines, signature_of(kind));
    if (!signature || *signature == 0) return std::nullopt;
    // The function's closing brace is the first line that is exactly "}" after its start.
    for (int i = *signature; i < static_cast<int>(lines.size()); ++i)
        if (lines[static_cast<std::size_t>(i)] == "}") return SourceLines{*signature - 1, i};
    return std::nullopt;
}

void draw_source_panel(model::KernelKind kind, model::SubStep sub, const SourceFlag* flag) {
    const KernelFile file = kernel_file(kind);
    const std::vector<std::string_view> lines = split_lines(file.text);
    const auto extent = kernel_extent(kind, lines);
    const auto current = source_lines(kind, lines, sub);
    const bool has_step = kind == model::KernelKind::Tiled || model::is_ladder(kind) || sub == model::SubStep::Compute ||
                          sub == model::SubStep::Store;
    if (!extent || (has_step && !current)) {
        coloured_text_wrapped(colours::kError,
                              model::format_text("The {} kernel was not embedded as expected: no source to show.",
                                            model::kernel_name(kind))
                                  .c_str());
        return;
    }
    heading(model::format_text("kernels/{}", file.file).c_str());
    muted_text(has_step ? "The real kernel, as compiled. Highlighted: what the block executes in this step."
                        : "The real kernel, as compiled. It has no shared memory and no barrier: nothing to do in "
                          "this step.");
    const auto flagged = flag ? source_lines(kind, lines, flag->statement) : std::nullopt;
    draw_source_lines(lines, *extent, current, flagged ? flagged->first : -1, flag ? flag->note : std::string());
}

namespace {

std::optional<SourceLines> user_tiled_lines(const std::vector<std::string_view>& lines, model::SubStep sub) {
    const auto load_a = find_line(lines, "A[");
    if (!load_a) return std::nullopt;
    auto load_b = find_line(lines, "B[", *load_a);
    if (!load_b) return std::nullopt;
    while (*load_b + 1 < static_cast<int>(lines.size()) &&
           lines[static_cast<std::size_t>(*load_b + 1)].find("B[") != std::string_view::npos)
        ++*load_b;
    const auto sync1 = find_line(lines, "__syncthreads", *load_b);
    const auto compute = sync1 ? find_line(lines, "+=", *sync1) : std::nullopt;
    const auto sync2 = compute ? find_line(lines, "__syncthreads", *compute) : std::nullopt;
    const auto store = find_line(lines, "C[", sync2 ? *sync2 : *load_b);
    const auto one = [](std::optional<int> line) {
        return line ? std::optional<SourceLines>(SourceLines{*line, *line}) : std::nullopt;
    };
    switch (sub) {
        case model::SubStep::LoadTiles: return SourceLines{*load_a, *load_b};
        case model::SubStep::SyncAfterLoad: return one(sync1);
        case model::SubStep::Compute: return one(compute);
        case model::SubStep::SyncAfterCompute: return one(sync2);
        case model::SubStep::Store: return one(store);
    }
    return std::nullopt;
}

}  // namespace

void draw_user_source_panel(const model::KernelTrace& trace, model::SubStep sub) {
    const std::vector<std::string_view> lines = split_lines(trace.source);
    heading(trace.label.c_str());
    muted_text("Your kernel, as recorded. Highlighted: the lines of this step, found by what they touch (A[ and B[, "
               "the barriers, +=, C[).");
    if (lines.empty()) return;
    draw_source_lines(lines, SourceLines{0, static_cast<int>(lines.size()) - 1}, user_tiled_lines(lines, sub), -1,
                      std::string());
}

void draw_source_lines(const std::vector<std::string_view>& lines, SourceLines extent, std::optional<SourceLines> current,
                       int flagged_line, const std::string& note) {
    ImGui::PushFont(small_font());
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float width = ImGui::GetContentRegionAvail().x;
    for (int i = extent.first; i <= extent.last; ++i) {
        const std::string_view line = lines[static_cast<std::size_t>(i)];
        const bool lit = current && i >= current->first && i <= current->last;
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const ImVec2 end{at.x + width, at.y + ImGui::GetTextLineHeightWithSpacing()};
        if (lit) draw->AddRectFilled(at, end, kLineHighlight);
        if (i == flagged_line) draw->AddRectFilled(at, end, IM_COL32(255, 215, 215, 255));
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
        if (i == flagged_line) {
            // Struck through: the statement the experiment's variant does not have.
            const ImVec2 text_min = ImGui::GetItemRectMin(), text_max = ImGui::GetItemRectMax();
            const float mid = (text_min.y + text_max.y) * 0.5f;
            draw->AddLine({text_min.x, mid}, {text_max.x, mid}, colours::kError, 2.0f);
            ImGui::SameLine();
            ImGui::PushStyleColor(ImGuiCol_Text, colours::kError);
            ImGui::TextUnformatted(note.c_str());
            ImGui::PopStyleColor();
        }
    }
    ImGui::PopFont();
}

}  // namespace ts::views
