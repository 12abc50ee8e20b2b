#include "views/experiments/wrong_map.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "model/format.hpp"
#include "model/index_math.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/stage/stage_heatmap.hpp"
#include "views/theatre/theatre_paint.hpp"

namespace ts::views {

using model::format_text;

namespace {

// The heat map: white where a cell was never wrong, to dark red where it was wrong every run.
constexpr ImU32 kNeverWrong = IM_COL32(255, 255, 255, 255);
constexpr ImU32 kAlwaysWrong = IM_COL32(150, 0, 25, 255);

int g_images_built = 0;

// The texels of a map at most `max_side` a side, and how many bins each pools.
struct WrongMapSize {
    int rows = 0, cols = 0;
    int pool_rows = 1, pool_cols = 1;
};

WrongMapSize wrong_map_size(const model::WrongCellMap& map, int max_side) {
    WrongMapSize size;
    if (map.rows <= 0 || map.cols <= 0) return size;
    size.pool_rows = model::ceil_div(map.rows, max_side);
    size.pool_cols = model::ceil_div(map.cols, max_side);
    size.rows = model::ceil_div(map.rows, size.pool_rows);
    size.cols = model::ceil_div(map.cols, size.pool_cols);
    return size;
}

// Images drawn without the painter, by key, newest first: a page shows a few maps, each built
// once per result (and size), not once per frame.
struct KeptImage {
    std::string key;
    HeatmapImage image;
};
constexpr std::size_t kKeptImages = 8;
std::vector<KeptImage> g_kept;

const HeatmapImage& kept_image(const std::string& key, const model::WrongCellMap& map, int runs, int max_side) {
    const auto found = std::find_if(g_kept.begin(), g_kept.end(), [&](const KeptImage& k) { return k.key == key; });
    if (found != g_kept.end()) {
        std::rotate(g_kept.begin(), found, found + 1);
        return g_kept.front().image;
    }
    if (g_kept.size() >= kKeptImages) g_kept.pop_back();
    g_kept.insert(g_kept.begin(), KeptImage{key, wrong_map_image(map, runs, max_side)});
    return g_kept.front().image;
}

}  // namespace

int wrong_map_images_built() { return g_images_built; }

float wrong_share_value(int wrong, int runs) {
    if (wrong <= 0 || runs <= 0) return 0.0f;
    return 0.35f + 0.65f * std::min(1.0f, static_cast<float>(wrong) / static_cast<float>(runs));
}

HeatmapImage wrong_map_image(const model::WrongCellMap& map, int runs, int max_side) {
    ++g_images_built;
    HeatmapImage image;
    if (map.rows <= 0 || map.cols <= 0) return image;
    image.box_rows = 1;
    image.box_cols = 1;
    const WrongMapSize size = wrong_map_size(map, max_side);
    const int pool_rows = size.pool_rows, pool_cols = size.pool_cols;
    image.rows = size.rows;
    image.cols = size.cols;
    image.texels.assign(static_cast<std::size_t>(image.rows) * image.cols, 0.0f);
    for (int r = 0; r < map.rows; ++r)
        for (int c = 0; c < map.cols; ++c) {
            const int wrong = map.wrong_runs[static_cast<std::size_t>(r) * map.cols + c];
            float& texel = image.texels[static_cast<std::size_t>(r / pool_rows) * image.cols + c / pool_cols];
            texel = std::max(texel, wrong_share_value(wrong, runs));
        }
    return image;
}

void draw_wrong_map(const ExperimentOutcome& outcome, float side) {
    const model::ExperimentRun& run = *outcome.run;
    const model::WrongCellMap& map = run.map;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    if (map.rows <= 0 || map.cols <= 0 || map.wrong_runs.empty()) {
        muted_text("No heat map in this result.");
        return;
    }
    // Cells square: the longer side of C gets `side` pixels.
    const float cell = side / static_cast<float>(std::max(map.rows, map.cols));
    const ImVec2 size{cell * static_cast<float>(map.cols), cell * static_cast<float>(map.rows)};
    ImGui::PushFont(small_font());
    ImGui::TextUnformatted(format_text("C, {} × {}: how often each cell came out wrong{}", run.c.problem.m, run.c.problem.n,
                                       map.bin_rows > 1 || map.bin_cols > 1
                                           ? format_text(" (a square per {} × {} cells)", map.bin_rows, map.bin_cols)
                                           : std::string())
                               .c_str());
    ImGui::PopFont();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::Dummy(size);
    const Rect area{at, {at.x + size.x, at.y + size.y}};
    HeatmapPainter* painter = heatmap_painter();
    // A texel per pixel at most; without the GPU's painter (the tests) fewer, drawn as rectangles.
    const int max_side = std::clamp(static_cast<int>(side), 16, painter ? model::kMaxHeatSide : 160);
    const WrongMapSize texels = wrong_map_size(map, max_side);
    HeatmapQuad quad;
    // One key per result (an outcome's serial is new with each) and size: the image behind it is
    // built when the painter has no texture of the key (inside paint(): the map outlives it), or
    // here when there is no painter.
    quad.key = format_text("experiment {} wrong cells, {} texels", outcome.serial, max_side);
    quad.image = [&map, runs = run.runs, max_side] { return wrong_map_image(map, runs, max_side); };
    quad.min = area.min;
    quad.max = area.max;
    quad.rows = quad.grid_rows = texels.rows;
    quad.cols = quad.grid_cols = texels.cols;
    quad.low = 0.0f;
    quad.high = 1.0f;
    quad.low_colour = kNeverWrong;
    quad.high_colour = kAlwaysWrong;
    quad.line_colour = IM_COL32(200, 200, 200, 255);
    // The thread blocks, when a texel is a whole number of them apart.
    const int tile = outcome.c.kernel.kind == model::KernelKind::Tiled ? outcome.c.kernel.tile : 0;
    const int texel_rows = map.bin_rows * model::ceil_div(map.rows, texels.rows);
    const int texel_cols = map.bin_cols * model::ceil_div(map.cols, texels.cols);
    if (tile > 0 && tile % texel_rows == 0 && tile % texel_cols == 0) {
        quad.block_rows = tile / texel_rows;
        quad.block_cols = tile / texel_cols;
    }
    if (painter) {
        painter->paint(draw, quad);
    } else {
        const HeatmapImage& image = kept_image(quad.key, map, run.runs, max_side);
        // Runs of equal texels along a row as one rectangle each: most of C is one white run.
        const float w = size.x / static_cast<float>(image.cols), h = size.y / static_cast<float>(image.rows);
        for (int r = 0; r < image.rows; ++r) {
            int c = 0;
            while (c < image.cols) {
                const float value = image.texels[static_cast<std::size_t>(r) * image.cols + c];
                int end = c + 1;
                while (end < image.cols && image.texels[static_cast<std::size_t>(r) * image.cols + end] == value) ++end;
                draw->AddRectFilled({area.min.x + w * static_cast<float>(c), area.min.y + h * static_cast<float>(r)},
                                    {area.min.x + w * static_cast<float>(end), area.min.y + h * static_cast<float>(r + 1)},
                                    heat_colour(quad, value));
                c = end;
            }
        }
    }
    draw->AddRect(area.min, area.max, colours::kC.line, 0.0f, 0, 1.5f);
}

void draw_wrong_map_legend(int runs, float width) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float box = ImGui::GetFontSize();
    HeatmapQuad quad;
    quad.low_colour = kNeverWrong;
    quad.high_colour = kAlwaysWrong;
    ImVec2 at = ImGui::GetCursorScreenPos();
    const float start = at.x;
    draw->AddRectFilled(at, {at.x + box, at.y + box}, kNeverWrong);
    draw->AddRect(at, {at.x + box, at.y + box}, colours::kMuted);
    ImGui::Dummy({box, box});
    ImGui::SameLine();
    ImGui::TextUnformatted("never wrong");
    ImGui::SameLine();
    at = ImGui::GetCursorScreenPos();
    const std::string last = format_text("{} runs", runs);
    const float labels = text_width(small_font(), "1 run") + text_width(small_font(), last) + box;
    // As wide as the map leaves after "never wrong" and "wrong", but never too short for its labels.
    const float bar = std::max(start + width - at.x - ImGui::CalcTextSize(" wrong").x, labels);
    const ImU32 from = heat_colour(quad, wrong_share_value(1, std::max(runs, 1)));
    draw->AddRectFilledMultiColor(at, {at.x + bar, at.y + box}, from, kAlwaysWrong, kAlwaysWrong, from);
    draw->AddRect(at, {at.x + bar, at.y + box}, colours::kMuted);
    plate_text(draw, small_font(), {at.x + 2.0f, at.y + (box - imgui_compat::font_size(small_font())) * 0.5f},
               colours::kCellValue, "1 run");
    text_at(draw, small_font(),
            {at.x + bar - text_width(small_font(), last) - 3.0f, at.y + (box - imgui_compat::font_size(small_font())) * 0.5f},
            IM_COL32_WHITE, last);
    ImGui::Dummy({bar, box});
    ImGui::SameLine();
    ImGui::TextUnformatted("wrong");
}

}  // namespace ts::views
