// plot.cxx — the plot module (plot.hpp). Sections, in order:
//   Text and drawing helpers      numbers, titles, dashes, markers, failed requests' marks
//   Legend names                  what a series' row says in its column
//   Transforms and input          pixels from values, pan, zoom, fit
//   Axes and the x title          grid, tick labels, titles in lines
//   Series and the tooltip        lines, whiskers, markers, the hovered point
//   The legend and Export…        rows measured, then drawn (shrunk or scrolled to fit)
//   Ranges and draw_plot          what is shown, and the whole plot
//   CSV and PNG export
#include "views/common/plot.hpp"

#include <algorithm>
#include <cstdio>
#include <tuple>
#include <utility>

#include "record/measurement_file.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

namespace {

constexpr ImU32 kAreaFill = IM_COL32(255, 255, 255, 255);
constexpr ImU32 kAreaBorder = IM_COL32(160, 160, 160, 255);
constexpr ImU32 kGrid = IM_COL32(225, 225, 225, 255);
constexpr ImU32 kAxisText = IM_COL32(60, 60, 60, 255);
// The legend's row for failed requests' marks.
constexpr const char* kFailedLegend = "failed: hover the mark for why, click it to measure again";

// ---- Text and drawing helpers ---------------------------------------------------------------

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

std::string with_unit(const std::string& value, const PlotAxis& axis) {
    return axis.unit.empty() ? value : value + " " + axis.unit;
}

std::string axis_title(const PlotAxis& axis) {
    return axis.unit.empty() ? axis.label : axis.label + " (" + axis.unit + ")";
}

bool has_spread(const PlotPoint& p) { return std::isfinite(p.y_low) && std::isfinite(p.y_high); }

ImU32 series_colour(const PlotSeries& s) { return s.faded ? faded_colour(s.colour) : s.colour; }

// A polyline in dashes, the pattern carried on across the corners so that short segments
// (a log axis's last octaves) still show gaps.
void dashed_polyline(ImDrawList* draw, const std::vector<ImVec2>& points, ImU32 colour, float thickness, float dash,
                     float gap) {
    const float period = dash + gap;
    float along = 0.0f;  // distance from the first point to the start of this segment
    for (std::size_t i = 1; i < points.size(); ++i) {
        const ImVec2 a = points[i - 1];
        const ImVec2 b = points[i];
        const float length = std::hypot(b.x - a.x, b.y - a.y);
        if (length <= 0.0f) continue;
        const auto point_at = [&](float distance) {
            const float t = (distance - along) / length;
            return ImVec2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
        };
        for (float start = std::floor(along / period) * period; start < along + length; start += period) {
            const float from = std::max(start, along);
            const float to = std::min(start + dash, along + length);
            if (to > from) draw->AddLine(point_at(from), point_at(to), colour, thickness);
        }
        along += length;
    }
}

// A marker: a dot, or for a faded series a ring around the plot's white, so that a live
// dot on top of it stays the one that catches the eye.
void draw_marker(ImDrawList* draw, ImVec2 at, float radius, const PlotSeries& s, ImU32 colour) {
    if (!s.faded) {
        draw->AddCircleFilled(at, radius, colour);
        return;
    }
    // A little larger than a dot: a ring of a paler colour must still be found from the back.
    draw->AddCircleFilled(at, radius * 1.25f, kAreaFill);
    draw->AddCircle(at, radius * 1.25f, colour, 0, std::max(1.5f, radius * 0.45f));
}

// A failed request's mark: a red × in a white disc ringed in its series' colour.
void draw_failure_mark(ImDrawList* draw, ImVec2 at, float font, ImU32 ring) {
    const float radius = font * 0.42f;
    const float arm = radius * 0.55f;
    draw->AddCircleFilled(at, radius, kAreaFill);
    draw->AddCircle(at, radius, ring, 0, 2.0f);
    draw->AddLine(ImVec2(at.x - arm, at.y - arm), ImVec2(at.x + arm, at.y + arm), colours::kError, 2.5f);
    draw->AddLine(ImVec2(at.x - arm, at.y + arm), ImVec2(at.x + arm, at.y - arm), colours::kError, 2.5f);
}

// Where each failure's mark goes: on the bottom edge at its x, the second at one x above the
// first, and so on; nullopt where the x is outside the view.
std::vector<std::optional<ImVec2>> failure_positions(const Plot& plot, const AxisTransform& x, ImVec2 area_min,
                                                     ImVec2 area_max, float font) {
    std::vector<std::optional<ImVec2>> at;
    for (std::size_t i = 0; i < plot.failures.size(); ++i) {
        const auto px = x.to_pixel(plot.failures[i].x);
        if (!px || *px < area_min.x || *px > area_max.x) {
            at.emplace_back();
            continue;
        }
        int below = 0;
        for (std::size_t j = 0; j < i; ++j) below += plot.failures[j].x == plot.failures[i].x;
        at.emplace_back(ImVec2(static_cast<float>(*px), area_max.y - font * (0.55f + 1.0f * below)));
    }
    return at;
}

// ---- Legend names ---------------------------------------------------------------------------

// The name, or where it does not fit a column `width` pixels wide, the shorter legend_name.
const std::string& legend_text(const PlotSeries& s, float width) {
    if (s.legend_name.empty() || ImGui::CalcTextSize(s.name.c_str()).x <= width) return s.name;
    return s.legend_name;
}

std::vector<std::string> wrapped_lines(const std::string& text, float width);

// What the legend writes for `name` in a column `width` pixels wide: the name, or when it
// is too long, broken before its last " (" ("tiled T=16\n(H200, YYYY-MM-DD)"), or where
// that is not enough (presenter mode's large text), between words.
std::string legend_label(const std::string& name, float width) {
    const std::size_t at = name.rfind(" (");
    if (ImGui::CalcTextSize(name.c_str()).x <= width) return name;
    if (at != std::string::npos && ImGui::CalcTextSize(name.substr(0, at).c_str()).x <= width &&
        ImGui::CalcTextSize(name.substr(at + 1).c_str()).x <= width)
        return name.substr(0, at) + "\n" + name.substr(at + 1);
    std::string lines;
    for (const std::string& line : wrapped_lines(name, width)) lines += (lines.empty() ? "" : "\n") + line;
    return lines;
}

// `text` in lines no wider than `width` where its words allow (a word longer than that is a
// line of its own): a long axis title at presenter mode's large text.
std::vector<std::string> wrapped_lines(const std::string& text, float width) {
    std::vector<std::string> lines;
    std::string line;
    std::size_t from = 0;
    while (from <= text.size()) {
        const std::size_t space = std::min(text.find(' ', from), text.size());
        const std::string word = text.substr(from, space - from);
        const std::string longer = line.empty() ? word : line + " " + word;
        if (!line.empty() && ImGui::CalcTextSize(longer.c_str()).x > width) {
            lines.push_back(line);
            line = word;
        } else {
            line = longer;
        }
        from = space + 1;
    }
    lines.push_back(line);
    return lines;
}

std::vector<PlotImageRequest>& image_requests() {
    static std::vector<PlotImageRequest> requests;
    return requests;
}

// ---- Transforms and input -------------------------------------------------------------------

// Both transforms for an area; y runs up from the area's bottom.
AxisTransform x_transform(const Plot& plot, ImVec2 area_min, ImVec2 area_max) {
    return {shown_x_range(plot), plot.x.scale, area_min.x, area_max.x};
}
AxisTransform y_transform(const Plot& plot, ImVec2 area_min, ImVec2 area_max) {
    return {shown_y_range(plot), plot.y.scale, area_max.y, area_min.y};
}

std::optional<ImVec2> to_screen(const AxisTransform& x, const AxisTransform& y, double vx, double vy) {
    const auto px = x.to_pixel(vx);
    const auto py = y.to_pixel(vy);
    if (!px || !py) return std::nullopt;
    return ImVec2(static_cast<float>(*px), static_cast<float>(*py));
}

// Pan with the left button held, zoom with the wheel, fit again on a double-click.
void handle_input(Plot& plot, const AxisTransform& x, const AxisTransform& y, ImVec2 area_min, ImVec2 area_max,
                  bool hovered, bool active) {
    const ImGuiIO& io = ImGui::GetIO();
    const double width = area_max.x - area_min.x;
    const double height = area_max.y - area_min.y;
    if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
        plot.x_view.reset();
        plot.y_view.reset();
        return;
    }
    if (active && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0.0f) && (io.MouseDelta.x != 0 || io.MouseDelta.y != 0)) {
        plot.x_view = pan(x.range(), x.scale(), io.MouseDelta.x, width);
        // Screen y grows downwards; values grow upwards.
        plot.y_view = pan(y.range(), y.scale(), -io.MouseDelta.y, height);
    }
    if (hovered && io.MouseWheel != 0.0f) {
        const double factor = std::pow(0.8, io.MouseWheel);
        plot.x_view = zoom(x.range(), x.scale(), x.to_value(io.MousePos.x), factor);
        plot.y_view = zoom(y.range(), y.scale(), y.to_value(io.MousePos.y), factor);
    }
}

// ---- Axes and the x title -------------------------------------------------------------------

void draw_axes(ImDrawList* draw, const Plot& plot, const AxisTransform& x, const AxisTransform& y,
               const std::vector<Tick>& x_ticks, const std::vector<Tick>& y_ticks, ImVec2 area_min, ImVec2 area_max,
               ImVec2 origin) {
    const float font = ImGui::GetFontSize();
    draw->AddRectFilled(area_min, area_max, kAreaFill);
    for (const Tick& tick : x_ticks) {
        const auto px = x.to_pixel(tick.value);
        if (!px) continue;
        const float at = static_cast<float>(*px);
        draw->AddLine(ImVec2(at, area_min.y), ImVec2(at, area_max.y), kGrid);
        const float w = ImGui::CalcTextSize(tick.label.c_str()).x;
        draw->AddText(ImVec2(at - w / 2, area_max.y + font * 0.2f), kAxisText, tick.label.c_str());
    }
    for (const Tick& tick : y_ticks) {
        const auto py = y.to_pixel(tick.value);
        if (!py) continue;
        const float at = static_cast<float>(*py);
        draw->AddLine(ImVec2(area_min.x, at), ImVec2(area_max.x, at), kGrid);
        const float w = ImGui::CalcTextSize(tick.label.c_str()).x;
        draw->AddText(ImVec2(area_min.x - w - font * 0.3f, at - font / 2), kAxisText, tick.label.c_str());
    }
    draw->AddRect(area_min, area_max, kAreaBorder);
    // The y title above the axis: ImGui draws no rotated text.
    draw->AddText(ImVec2(origin.x, origin.y), kAxisText, axis_title(plot.y).c_str());
}

// The x title's lines, each line centred under the data area but kept between the plot's left
// edge and the area's right (the legend's column begins there); returns the lines' extent.
std::pair<ImVec2, ImVec2> draw_x_title(ImDrawList* draw, const std::vector<std::string>& lines, ImVec2 area_min,
                                       ImVec2 area_max, ImVec2 origin, ImVec2 size) {
    const float font = ImGui::GetFontSize();
    float y = origin.y + size.y - font * static_cast<float>(lines.size());
    ImVec2 min(area_max.x, y), max(origin.x, origin.y + size.y);
    for (const std::string& line : lines) {
        const float w = ImGui::CalcTextSize(line.c_str()).x;
        const float x = std::max(origin.x, std::min((area_min.x + area_max.x - w) / 2, area_max.x - w));
        draw->AddText(ImVec2(x, y), kAxisText, line.c_str());
        min.x = std::min(min.x, x);
        max.x = std::max(max.x, x + w);
        y += font;
    }
    return {min, max};
}

// ---- Series and the tooltip -----------------------------------------------------------------

void draw_series(ImDrawList* draw, const PlotSeries& s, const AxisTransform& x, const AxisTransform& y, float font) {
    const float radius = font * 0.22f;
    const float cap = font * 0.2f;
    const ImU32 colour = series_colour(s);
    std::vector<ImVec2> run;  // joined points; a point the axes cannot show breaks the line
    auto flush = [&] {
        if (s.lines && run.size() > 1) {
            if (s.faded)
                dashed_polyline(draw, run, colour, 2.0f, font * 0.45f, font * 0.3f);
            else
                draw->AddPolyline(run.data(), static_cast<int>(run.size()), colour, 0, 2.0f);
        }
        run.clear();
    };
    for (const PlotPoint& p : s.points) {
        const auto at = to_screen(x, y, p.x, p.y);
        if (!at) {
            flush();
            continue;
        }
        run.push_back(*at);
        if (has_spread(p)) {
            const auto low = y.to_pixel(p.y_low);
            const auto high = y.to_pixel(p.y_high);
            if (low && high) {
                const float lo = static_cast<float>(*low);
                const float hi = static_cast<float>(*high);
                draw->AddLine(ImVec2(at->x, lo), ImVec2(at->x, hi), colour, 1.0f);
                draw->AddLine(ImVec2(at->x - cap, lo), ImVec2(at->x + cap, lo), colour, 1.0f);
                draw->AddLine(ImVec2(at->x - cap, hi), ImVec2(at->x + cap, hi), colour, 1.0f);
            }
        }
    }
    flush();
    if (!s.markers) return;
    for (const PlotPoint& p : s.points)
        if (const auto at = to_screen(x, y, p.x, p.y)) draw_marker(draw, *at, radius, s, colour);
}

std::optional<PlotHover> hovered_point(const Plot& plot, const AxisTransform& x, const AxisTransform& y,
                                       ImVec2 area_min, ImVec2 area_max, ImVec2 mouse) {
    std::vector<ScreenPoint> candidates;
    for (std::size_t si = 0; si < plot.series.size(); ++si) {
        const PlotSeries& s = plot.series[si];
        if (!s.visible) continue;
        for (std::size_t pi = 0; pi < s.points.size(); ++pi) {
            const auto at = to_screen(x, y, s.points[pi].x, s.points[pi].y);
            if (!at || at->x < area_min.x || at->x > area_max.x || at->y < area_min.y || at->y > area_max.y) continue;
            candidates.push_back({static_cast<int>(si), static_cast<int>(pi), at->x, at->y});
        }
    }
    const auto hit = nearest_point(candidates, mouse.x, mouse.y, ImGui::GetFontSize() * 0.8);
    if (!hit) return std::nullopt;
    return PlotHover{hit->series, hit->index};
}

void point_tooltip(const Plot& plot, const PlotHover& hover) {
    const PlotSeries& s = plot.series[static_cast<std::size_t>(hover.series)];
    const PlotPoint& p = s.points[static_cast<std::size_t>(hover.index)];
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(s.name.c_str());
    if (!s.legend_group.empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colours::kMuted), "%s", s.legend_group.c_str());
    ImGui::Text("%s: %s", plot.x.label.c_str(), with_unit(number(p.x), plot.x).c_str());
    ImGui::Text("%s: %s", plot.y.label.c_str(), with_unit(number(p.y), plot.y).c_str());
    if (has_spread(p))
        ImGui::Text("spread (p20–p80): %s – %s", number(p.y_low).c_str(), with_unit(number(p.y_high), plot.y).c_str());
    if (!p.note.empty()) ImGui::TextUnformatted(p.note.c_str());
    ImGui::EndTooltip();
}

// ---- The legend and Export… -----------------------------------------------------------------

// The height of the legend's rows below, `width` wide, in the current font: the same steps,
// measured without drawing.
float legend_rows_height(const Plot& plot, float width) {
    const float font = ImGui::GetFontSize();
    const ImGuiStyle& style = ImGui::GetStyle();
    const auto wrapped = [&](const std::string& text, float wrap) {
        return ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y + style.ItemSpacing.y;
    };
    float height = 0.0f;
    const std::string* group = nullptr;
    for (const PlotSeries& s : plot.series) {
        if (!s.in_legend) continue;
        if (group && *group != s.legend_group) height += font * 0.4f;
        if ((!group || *group != s.legend_group) && !s.legend_group.empty()) height += wrapped(s.legend_group, width);
        group = &s.legend_group;
        const std::string label = legend_label(legend_text(s, width - font * 1.5f), width - font * 1.5f);
        height += ImGui::GetFrameHeight() +
                  static_cast<float>(std::count(label.begin(), label.end(), '\n')) * ImGui::GetTextLineHeight();
    }
    if (!plot.failures.empty())
        height += font * 0.4f + style.FramePadding.y / 2 + wrapped(kFailedLegend, width - font * 1.5f);
    if (!plot.faded_legend.empty())
        height += font * 0.4f + style.FramePadding.y / 2 + wrapped(plot.faded_legend, width - font * 1.5f);
    return height;
}

// The legend, then Export… and the last export's outcome under it, all inside the plot: a
// legend taller than the room beside the data area (many series, or presenter mode's large
// text) takes the small font, and where even that is too tall, scrolls. Returns the bottom
// right of what it drew.
ImVec2 legend_and_export(Plot& plot, ImVec2 at, float width, ImVec2 rect_min, ImVec2 rect_max) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float export_height =
        ImGui::GetFontSize() * 0.5f + ImGui::GetFrameHeight() + style.ItemSpacing.y +
        (plot.export_message->empty()
             ? 0.0f
             : ImGui::CalcTextSize(plot.export_message->c_str(), nullptr, false, width).y + style.ItemSpacing.y);
    const float room = std::max(rect_max.y - at.y - export_height, ImGui::GetFrameHeight());
    const float legend_top = at.y;
    const bool small = legend_rows_height(plot, width) > room;
    if (small) ImGui::PushFont(small_font());
    const bool scroll = legend_rows_height(plot, width) > room;
    if (scroll) {
        ImGui::SetCursorScreenPos(at);
        ImGui::BeginChild("##legend", ImVec2(width, room), false, ImGuiWindowFlags_NoBackground);
        at = ImGui::GetCursorScreenPos();
        width -= style.ScrollbarSize;
    }
    const float font = ImGui::GetFontSize();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const std::string* group = nullptr;
    for (std::size_t i = 0; i < plot.series.size(); ++i) {
        PlotSeries& s = plot.series[i];
        if (!s.in_legend) continue;
        if (group && *group != s.legend_group) at.y += font * 0.4f;  // a gap between groups
        if ((!group || *group != s.legend_group) && !s.legend_group.empty()) {
            ImGui::SetCursorScreenPos(at);
            push_wrap_at_screen_x(at.x + width);
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colours::kMuted), "%s", s.legend_group.c_str());
            ImGui::PopTextWrapPos();
            at.y = ImGui::GetCursorScreenPos().y;
        }
        group = &s.legend_group;
        ImGui::SetCursorScreenPos(at);
        const ImU32 swatch = s.visible ? series_colour(s) : colours::kMuted;
        const float mid = at.y + font / 2 + ImGui::GetStyle().FramePadding.y / 2;
        if (s.lines) {
            const std::vector<ImVec2> line{ImVec2(at.x, mid), ImVec2(at.x + font * 1.2f, mid)};
            if (s.faded) dashed_polyline(draw, line, swatch, 2.0f, font * 0.35f, font * 0.2f);
            else draw->AddLine(line[0], line[1], swatch, 2.0f);
        }
        if (s.markers) draw_marker(draw, ImVec2(at.x + font * 0.6f, mid), font * 0.22f, s, swatch);
        ImGui::SetCursorScreenPos(ImVec2(at.x + font * 1.5f, at.y));
        const bool shown = s.visible;  // the click below may change it
        if (!shown) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::PushID(static_cast<int>(i));
        // Clicking hides a series (to see the ones behind it) and shows it again.
        const std::string label = legend_label(legend_text(s, width - font * 1.5f), width - font * 1.5f);
        if (ImGui::Selectable(label.c_str(), false, 0, ImVec2(width - font * 1.5f, 0))) s.visible = !shown;
        ImGui::PopID();
        if (!shown) ImGui::PopStyleColor();
        const auto extra_lines = std::count(label.begin(), label.end(), '\n');
        at.y += ImGui::GetFrameHeight() + static_cast<float>(extra_lines) * ImGui::GetTextLineHeight();
    }
    if (!plot.failures.empty()) {
        at.y += font * 0.4f;
        draw_failure_mark(draw, ImVec2(at.x + font * 0.6f, at.y + font / 2 + ImGui::GetStyle().FramePadding.y / 2), font,
                          colours::kError);
        ImGui::SetCursorScreenPos(ImVec2(at.x + font * 1.5f, at.y + ImGui::GetStyle().FramePadding.y / 2));
        push_wrap_at_screen_x(at.x + width);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colours::kError), "%s", kFailedLegend);
        ImGui::PopTextWrapPos();
        at.y = ImGui::GetCursorScreenPos().y;
    }
    if (!plot.faded_legend.empty()) {
        at.y += font * 0.4f;
        const float mid = at.y + font / 2 + ImGui::GetStyle().FramePadding.y / 2;
        const PlotSeries sample{"", colours::kMuted, {}, true, true, true, true};
        dashed_polyline(draw, {ImVec2(at.x, mid), ImVec2(at.x + font * 1.2f, mid)}, faded_colour(colours::kMuted), 2.0f,
                        font * 0.35f, font * 0.2f);
        draw_marker(draw, ImVec2(at.x + font * 0.6f, mid), font * 0.22f, sample, faded_colour(colours::kMuted));
        ImGui::SetCursorScreenPos(ImVec2(at.x + font * 1.5f, at.y + ImGui::GetStyle().FramePadding.y / 2));
        push_wrap_at_screen_x(at.x + width);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colours::kMuted), "%s", plot.faded_legend.c_str());
        ImGui::PopTextWrapPos();
        at.y = ImGui::GetCursorScreenPos().y;
    }
    if (scroll) {
        ImGui::EndChild();
        at.y = legend_top + room;
        width += style.ScrollbarSize;
    }
    if (small) ImGui::PopFont();
    ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + font * 0.5f));
    if (ImGui::Button("Export…")) ImGui::OpenPopup("export");
    if (ImGui::BeginPopup("export")) {
        char path[512];
        std::snprintf(path, sizeof path, "%s", plot.export_path.c_str());
        ImGui::SetNextItemWidth(font * 18);
        if (ImGui::InputText("file (without extension)", path, sizeof path)) plot.export_path = path;
        if (ImGui::Button("Save CSV")) {
            const std::string file = plot.export_path + ".csv";
            const auto why = export_csv(plot, file);
            *plot.export_message = why ? *why : "saved " + file;
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Save PNG")) {
            const std::string file = plot.export_path + ".png";
            *plot.export_message = "saving " + file + "…";
            image_requests().push_back({file, rect_min, rect_max, plot.export_message});
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    }
    if (!plot.export_message->empty()) {
        ImGui::SetCursorScreenPos(ImVec2(at.x, ImGui::GetCursorScreenPos().y));
        push_wrap_at_screen_x(at.x + width);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colours::kMuted), "%s", plot.export_message->c_str());
        ImGui::PopTextWrapPos();
    }
    return ImVec2(at.x + width, ImGui::GetCursorScreenPos().y - style.ItemSpacing.y);
}

}  // namespace

// ---- Ranges and draw_plot -------------------------------------------------------------------

ImU32 faded_colour(ImU32 colour) {
    // Half way to white: still a hue a projector shows, plainly behind the solid ones.
    const auto towards_white = [&](int shift) {
        const ImU32 c = (colour >> shift) & 0xFF;
        return c + (255 - c) / 2;
    };
    return IM_COL32(towards_white(IM_COL32_R_SHIFT), towards_white(IM_COL32_G_SHIFT), towards_white(IM_COL32_B_SHIFT),
                    (colour >> IM_COL32_A_SHIFT) & 0xFF);
}

AxisRange shown_x_range(const Plot& plot) {
    if (plot.x_view) return *plot.x_view;
    std::vector<double> xs;
    for (const PlotSeries& s : plot.series)
        if (s.visible)
            for (const PlotPoint& p : s.points) xs.push_back(p.x);
    for (const PlotFailure& f : plot.failures) xs.push_back(f.x);
    return fit_range(xs, plot.x.scale).value_or(default_range(plot.x.scale));
}

AxisRange shown_y_range(const Plot& plot) {
    if (plot.y_view) return *plot.y_view;
    std::vector<double> ys;
    for (const PlotSeries& s : plot.series)
        if (s.visible)
            for (const PlotPoint& p : s.points) {
                ys.push_back(p.y);
                if (has_spread(p)) {
                    ys.push_back(p.y_low);
                    ys.push_back(p.y_high);
                }
            }
    return fit_range(ys, plot.y.scale).value_or(default_range(plot.y.scale));
}

PlotFrame draw_plot(const char* id, Plot& plot, ImVec2 size) {
    ImGui::PushID(id);
    PlotFrame frame;
    const float font = ImGui::GetFontSize();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    frame.min = origin;
    frame.max = ImVec2(origin.x + size.x, origin.y + size.y);

    // The legend column: wide enough for the longest name, at most a third of the plot; past
    // that, names break before their last " (" (legend_label), so take the longer line.
    float legend = ImGui::CalcTextSize("Export…").x + font;
    for (const PlotSeries& s : plot.series) {
        if (!s.in_legend) continue;
        const std::string& text = legend_text(s, size.x / 3 - font * 2.5f);
        float name = ImGui::CalcTextSize(text.c_str()).x;
        if (const std::size_t at = text.rfind(" ("); at != std::string::npos && name + font * 2.5f > size.x / 3)
            name = std::max(ImGui::CalcTextSize(text.substr(0, at).c_str()).x,
                            ImGui::CalcTextSize(text.substr(at + 1).c_str()).x);
        legend = std::max(legend, name + font * 2.5f);
    }
    legend = std::min(legend, size.x / 3);

    // Tick labels decide the left margin, and the margin the area: measure with the height
    // the area will have (it does not depend on the margin).
    // The x title under the tick labels, in as many lines as the width beside the legend needs.
    const std::vector<std::string> x_title = wrapped_lines(axis_title(plot.x), size.x - legend - font * 0.8f);
    const float top = origin.y + font * 1.5f;
    const float bottom = origin.y + size.y - font * (1.4f + static_cast<float>(x_title.size()));
    const int y_tick_count = std::max(2, static_cast<int>((bottom - top) / (font * 2.5f)));
    std::vector<Tick> y_ticks = make_ticks(shown_y_range(plot), plot.y.scale, y_tick_count);
    float label_width = font * 2;
    for (const Tick& t : y_ticks) label_width = std::max(label_width, ImGui::CalcTextSize(t.label.c_str()).x);
    frame.area_min = ImVec2(origin.x + label_width + font * 0.6f, top);
    frame.area_max = ImVec2(origin.x + size.x - legend - font * 0.8f, bottom);
    const ImVec2 area_size(frame.area_max.x - frame.area_min.x, frame.area_max.y - frame.area_min.y);

    // Input first, so this frame already draws the panned or zoomed view.
    ImGui::SetCursorScreenPos(frame.area_min);
    ImGui::InvisibleButton("##area", ImVec2(std::max(area_size.x, 1.0f), std::max(area_size.y, 1.0f)));
    const bool hovered = ImGui::IsItemHovered();
    const bool active = ImGui::IsItemActive();
    handle_input(plot, x_transform(plot, frame.area_min, frame.area_max), y_transform(plot, frame.area_min, frame.area_max),
                 frame.area_min, frame.area_max, hovered, active);
    frame.x = x_transform(plot, frame.area_min, frame.area_max);
    frame.y = y_transform(plot, frame.area_min, frame.area_max);
    y_ticks = make_ticks(frame.y.range(), plot.y.scale, y_tick_count);
    const int x_tick_count = std::max(2, static_cast<int>(area_size.x / (font * 4.5f)));
    const std::vector<Tick> x_ticks = make_ticks(frame.x.range(), plot.x.scale, x_tick_count);

    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw_axes(draw, plot, frame.x, frame.y, x_ticks, y_ticks, frame.area_min, frame.area_max, origin);
    std::tie(frame.x_title_min, frame.x_title_max) =
        draw_x_title(draw, x_title, frame.area_min, frame.area_max, origin, size);
    draw->PushClipRect(frame.area_min, frame.area_max, true);
    // Faded series first, so that every solid one is drawn over them.
    for (bool faded : {true, false})
        for (const PlotSeries& s : plot.series)
            if (s.visible && s.faded == faded) draw_series(draw, s, frame.x, frame.y, font);
    // Failed requests over the series, so that a curve never hides one.
    const auto failure_at = failure_positions(plot, frame.x, frame.area_min, frame.area_max, font);
    for (std::size_t i = 0; i < plot.failures.size(); ++i)
        if (failure_at[i]) draw_failure_mark(draw, *failure_at[i], font, plot.failures[i].colour);
    if (hovered && !ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        for (std::size_t i = 0; i < plot.failures.size() && !frame.hovered_failure; ++i)
            if (failure_at[i] && std::hypot(mouse.x - failure_at[i]->x, mouse.y - failure_at[i]->y) <= font * 0.6f)
                frame.hovered_failure = static_cast<int>(i);
        if (frame.hovered_failure && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) frame.clicked_failure = frame.hovered_failure;
        if (!frame.hovered_failure)
            frame.hovered = hovered_point(plot, frame.x, frame.y, frame.area_min, frame.area_max, mouse);
        if (frame.hovered_failure)
            draw->AddCircle(*failure_at[static_cast<std::size_t>(*frame.hovered_failure)], font * 0.6f,
                            colours::kHighlight, 0, 2.0f);
        if (frame.hovered) {
            const PlotSeries& s = plot.series[static_cast<std::size_t>(frame.hovered->series)];
            const PlotPoint& p = s.points[static_cast<std::size_t>(frame.hovered->index)];
            draw->AddCircle(*to_screen(frame.x, frame.y, p.x, p.y), font * 0.45f, colours::kHighlight, 0, 2.0f);
        }
    }
    draw->PopClipRect();
    if (frame.hovered) point_tooltip(plot, *frame.hovered);
    if (frame.hovered_failure) {
        const PlotFailure& f = plot.failures[static_cast<std::size_t>(*frame.hovered_failure)];
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(font * 34.0f);
        ImGui::TextUnformatted(f.name.c_str());
        ImGui::Text("%s: %s", plot.x.label.c_str(), with_unit(number(f.x), plot.x).c_str());
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colours::kError), "%s", "failed");
        if (!f.note.empty()) ImGui::TextUnformatted(f.note.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }

    frame.legend_min = ImVec2(frame.area_max.x + font * 0.8f, frame.area_min.y);
    frame.legend_max = legend_and_export(plot, frame.legend_min, legend, frame.min, frame.max);

    // Leave the cursor below the plot, as for any other widget of this size.
    ImGui::SetCursorScreenPos(origin);
    ImGui::Dummy(size);
    ImGui::PopID();
    return frame;
}

// ---- CSV and PNG export ---------------------------------------------------------------------

std::string plot_csv(const Plot& plot) {
    const AxisRange xr = shown_x_range(plot);
    const AxisRange yr = shown_y_range(plot);
    const auto field = [](const std::string& text) {
        if (text.find_first_of(",\"\n") == std::string::npos) return text;
        std::string quoted = "\"";
        for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
        return quoted + "\"";
    };
    const auto value = [](double v) {
        if (!std::isfinite(v)) return std::string();
        char text[32];
        std::snprintf(text, sizeof text, "%.10g", v);
        return std::string(text);
    };
    const std::string y_title = axis_title(plot.y);
    std::string csv = "series," + field(axis_title(plot.x)) + "," + field(y_title) + "," + field(y_title + " low") + "," +
                      field(y_title + " high") + "\n";
    const auto inside = [](double v, AxisRange r, AxisScale scale) {
        return plottable(v, scale) && v >= r.min && v <= r.max;
    };
    for (const PlotSeries& s : plot.series) {
        if (!s.visible) continue;
        for (const PlotPoint& p : s.points)
            if (inside(p.x, xr, plot.x.scale) && inside(p.y, yr, plot.y.scale))
                csv += field(s.name) + "," + value(p.x) + "," + value(p.y) + "," + value(p.y_low) + "," +
                       value(p.y_high) + "\n";
    }
    return csv;
}

std::optional<std::string> export_csv(const Plot& plot, const std::filesystem::path& file) {
    return record::save_text(file, plot_csv(plot));
}

std::vector<PlotImageRequest> take_plot_image_requests() { return std::exchange(image_requests(), {}); }

}  // namespace ts::views
