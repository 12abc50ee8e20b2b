#include "views/common/picture_layout.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace ts::views {

float PictureBox::area() const { return std::max(0.0f, max.x - min.x) * std::max(0.0f, max.y - min.y); }

void PictureLayout::clear() {
    view.clear();
    canvas_min = canvas_max = ImVec2(0.0f, 0.0f);
    matrices.clear();
    labels.clear();
}

void PictureLayout::begin(std::string_view shown, ImVec2 min, ImVec2 max) {
    clear();
    view = shown;
    canvas_min = min;
    canvas_max = max;
}

void PictureLayout::add_matrix(std::string_view name, ImVec2 min, ImVec2 max) {
    if (wanted) matrices.push_back({std::string(name), min, max});
}

void PictureLayout::add_label(std::string_view kind, std::string_view text, ImVec2 min, ImVec2 max) {
    if (wanted) labels.push_back({std::string(kind) + std::string(text), min, max});
}

ImVec2 product_picture_cells(const model::Problem& problem, float tile) {
    return {static_cast<float>(problem.k + problem.n) + tile, static_cast<float>(problem.k + problem.m) + tile};
}

namespace {

// The height the names above B and below C take, about a line each.
float names_height() { return 2.0f * ImGui::GetTextLineHeightWithSpacing(); }

}  // namespace

float words_beside_width(ImVec2 room, ImVec2 cells) {
    if (cells.x <= 0.0f || cells.y <= 0.0f) return 0.0f;
    return words_beside_picture(room, (room.y - names_height()) * cells.x / cells.y);
}

float words_beside_picture(ImVec2 room, float picture_width, float most) {
    const float words = room.x - picture_width - ImGui::GetStyle().ItemSpacing.x;
    if (words < kNarrowestWordsFonts * ImGui::GetFontSize()) return 0.0f;
    return std::min(words, room.x * most);
}

void draw_picture_beside_words(ImVec2 room, float words_width, const std::function<void()>& picture,
                               const std::function<void()>& words) {
    ImGui::BeginChild("##picture", ImVec2(room.x - words_width - ImGui::GetStyle().ItemSpacing.x, room.y), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    picture();
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("##words", ImVec2(0.0f, room.y), false);
    words();
    ImGui::EndChild();
}

float picture_keeps(ImVec2 room, ImVec2 cells) {
    if (cells.x <= 0.0f || cells.y <= 0.0f || room.y <= 0.0f) return 0.6f;
    return std::clamp((room.x * cells.y / cells.x + names_height()) / room.y, 0.5f, 0.75f);
}

float matrices_cover(const PictureLayout& layout) {
    const float canvas = PictureBox{"", layout.canvas_min, layout.canvas_max}.area();
    if (canvas <= 0.0f || layout.matrices.empty()) return 0.0f;
    PictureBox box = layout.matrices.front();
    for (const PictureBox& m : layout.matrices) {
        box.min = {std::min(box.min.x, m.min.x), std::min(box.min.y, m.min.y)};
        box.max = {std::max(box.max.x, m.max.x), std::max(box.max.y, m.max.y)};
    }
    // What lies outside the canvas is not on the picture.
    box.min = {std::max(box.min.x, layout.canvas_min.x), std::max(box.min.y, layout.canvas_min.y)};
    box.max = {std::min(box.max.x, layout.canvas_max.x), std::min(box.max.y, layout.canvas_max.y)};
    return box.area() / canvas;
}

std::optional<std::pair<PictureBox, PictureBox>> colliding_labels(const PictureLayout& layout, float slack) {
    for (std::size_t i = 0; i < layout.labels.size(); ++i)
        for (std::size_t j = i + 1; j < layout.labels.size(); ++j) {
            const PictureBox& a = layout.labels[i];
            const PictureBox& b = layout.labels[j];
            const float overlap_x = std::min(a.max.x, b.max.x) - std::max(a.min.x, b.min.x);
            const float overlap_y = std::min(a.max.y, b.max.y) - std::max(a.min.y, b.min.y);
            if (overlap_x > slack && overlap_y > slack) return std::make_pair(a, b);
        }
    return std::nullopt;
}

std::optional<PictureBox> clipped_box(const PictureLayout& layout, float slack) {
    for (const auto* list : {&layout.matrices, &layout.labels})
        for (const PictureBox& b : *list)
            if (b.min.x < layout.canvas_min.x - slack || b.min.y < layout.canvas_min.y - slack ||
                b.max.x > layout.canvas_max.x + slack || b.max.y > layout.canvas_max.y + slack)
                return b;
    return std::nullopt;
}

std::string picture_layout_json(const PictureLayout& layout) {
    using Json = nlohmann::json;
    const auto box = [](ImVec2 min, ImVec2 max) { return Json::array({min.x, min.y, max.x, max.y}); };
    const auto boxes = [&](const std::vector<PictureBox>& list) {
        Json out = Json::array();
        for (const PictureBox& b : list) out.push_back({{"name", b.name}, {"box", box(b.min, b.max)}});
        return out;
    };
    Json json{{"view", layout.view},
              {"canvas", box(layout.canvas_min, layout.canvas_max)},
              {"matrices", boxes(layout.matrices)},
              {"labels", boxes(layout.labels)},
              {"cover", matrices_cover(layout)}};
    const auto collision = colliding_labels(layout);
    json["collision"] = collision ? collision->first.name + " and " + collision->second.name : std::string();
    const auto clipped = clipped_box(layout);
    json["clipped"] = clipped ? clipped->name : std::string();
    return json.dump(2) + "\n";
}

}  // namespace ts::views
