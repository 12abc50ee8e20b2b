#include "settings.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <span>
#include <sstream>
#include <system_error>

namespace ts::settings {

namespace {

constexpr std::string_view kLayoutSection = "[imgui]";
constexpr std::string_view kViews[] = {"stage", "latency", "tuning", "roofline", "theatre", "ladder", "experiment"};
constexpr std::string_view kPanels[] = {"source", "thread", "warp"};
constexpr std::string_view kKeys[] = {"window_width", "window_height", "window_x", "window_y",
                                      "fullscreen",   "presenter",     "font_scale", "palette",
                                      "view",         "theatre_panel", "latency_rungs", "gpu_server",
                                      "gpu_on_server"};

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

std::string joined(std::span<const std::string_view> words) {
    std::string text;
    for (const std::string_view word : words) text += (text.empty() ? "" : ", ") + std::string(word);
    return text;
}

// Text the file may hold: UTF-8 without control characters (a tab is fine).
bool readable(std::string_view line) {
    for (std::size_t i = 0; i < line.size();) {
        const auto byte = static_cast<unsigned char>(line[i]);
        if (byte < 0x80) {
            if (byte < 0x20 && byte != '\t' && byte != '\r') return false;
            if (byte == 0x7F) return false;
            ++i;
            continue;
        }
        const int length = byte >= 0xF0 && byte <= 0xF4 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 && byte < 0xE0 ? 2 : 0;
        if (length == 0 || i + length > line.size()) return false;
        for (int j = 1; j < length; ++j)
            if ((static_cast<unsigned char>(line[i + j]) & 0xC0) != 0x80) return false;
        i += length;
    }
    return true;
}

std::optional<int> parse_int(std::string_view text, int low, int high) {
    int value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc{} || stop != end || value < low || value > high) return std::nullopt;
    return value;
}

std::optional<bool> parse_bool(std::string_view text) {
    if (text == "true") return true;
    if (text == "false") return false;
    return std::nullopt;
}

std::optional<float> parse_scale(std::string_view text) {
    float value = 0.0f;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc{} || stop != end || !(value >= kMinFontScale && value <= kMaxFontScale))
        return std::nullopt;
    return value;
}

std::string int_range(int low, int high) {
    return "expected a whole number from " + std::to_string(low) + " to " + std::to_string(high);
}

// Applies one `key = value`; returns why it cannot, or nullopt.
std::optional<std::string> apply(Settings& s, std::string_view key, std::string_view value) {
    const auto bad = [&](const std::string& expected) {
        return std::string(key) + " = " + std::string(value) + ": " + expected;
    };
    // Window sizes as --width and --height accept them; positions within any desktop.
    constexpr int kMaxSide = 16384, kMaxOffset = 32768;
    if (key == "window_width") {
        const auto v = parse_int(value, 320, kMaxSide);
        if (!v) return bad(int_range(320, kMaxSide));
        s.window_width = *v;
    } else if (key == "window_height") {
        const auto v = parse_int(value, 240, kMaxSide);
        if (!v) return bad(int_range(240, kMaxSide));
        s.window_height = *v;
    } else if (key == "window_x" || key == "window_y") {
        const auto v = parse_int(value, -kMaxOffset, kMaxOffset);
        if (!v) return bad(int_range(-kMaxOffset, kMaxOffset));
        (key == "window_x" ? s.window_x : s.window_y) = *v;
    } else if (key == "fullscreen" || key == "presenter" || key == "gpu_on_server") {
        const auto v = parse_bool(value);
        if (!v) return bad("expected true or false");
        (key == "fullscreen" ? s.fullscreen : key == "presenter" ? s.presenter : s.gpu_on_server) = *v;
    } else if (key == "gpu_server") {
        // Checked as --gpu is when it is used; here only that it is one short line of text.
        if (value.size() > 256) return bad("longer than 256 characters");
        if (std::any_of(value.begin(), value.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }))
            return bad("a control character");
        s.gpu_server = std::string(value);
    } else if (key == "font_scale") {
        const auto v = parse_scale(value);
        if (!v) {
            char range[64];
            std::snprintf(range, sizeof range, "expected a number from %g to %g", kMinFontScale, kMaxFontScale);
            return bad(range);
        }
        s.font_scale = *v;
    } else if (key == "palette") {
        const auto v = parse_palette(value);
        if (!v) return bad("expected default, high-contrast or colour-blind");
        s.palette = *v;
    } else if (key == "view") {
        if (std::find(std::begin(kViews), std::end(kViews), value) == std::end(kViews))
            return bad("expected one of " + joined(kViews));
        s.view = value;
    } else if (key == "theatre_panel") {
        if (std::find(std::begin(kPanels), std::end(kPanels), value) == std::end(kPanels))
            return bad("expected one of " + joined(kPanels));
        s.theatre_panel = value;
    } else if (key == "latency_rungs") {
        // Names separated by commas, each once, in any order; kept in the ladder's. Empty: none.
        std::vector<std::string> rungs;
        for (std::size_t from = 0; !value.empty() && from <= value.size();) {
            const std::size_t comma = std::min(value.find(',', from), value.size());
            const std::string_view name = trim(value.substr(from, comma - from));
            from = comma + 1;
            if (std::find(std::begin(kLadderRungNames), std::end(kLadderRungNames), name) == std::end(kLadderRungNames))
                return bad("\"" + std::string(name) + "\" is no rung; expected names from " + joined(kLadderRungNames) +
                           ", separated by commas");
            if (std::find(rungs.begin(), rungs.end(), name) != rungs.end())
                return bad(std::string(name) + " is named twice");
            rungs.emplace_back(name);
        }
        std::vector<std::string> ordered;
        for (const std::string_view name : kLadderRungNames)
            if (std::find(rungs.begin(), rungs.end(), name) != rungs.end()) ordered.emplace_back(name);
        s.latency_rungs = std::move(ordered);
    } else {
        return "unknown key \"" + std::string(key) + "\" (known: " + joined(kKeys) + ")";
    }
    return std::nullopt;
}

std::string error_text(const std::error_code& error) { return error.message(); }

}  // namespace

std::string_view palette_name(Palette palette) {
    switch (palette) {
        case Palette::Default: return "default";
        case Palette::HighContrast: return "high-contrast";
        case Palette::ColourBlind: return "colour-blind";
    }
    return "default";
}

std::optional<Palette> parse_palette(std::string_view text) {
    if (text == "default") return Palette::Default;
    if (text == "high-contrast") return Palette::HighContrast;
    if (text == "colour-blind" || text == "color-blind") return Palette::ColourBlind;
    return std::nullopt;
}

float step_font_scale(float current, int direction) {
    if (direction > 0) {
        for (const float scale : kFontScales)
            if (scale > current + 1e-3f) return scale;
    } else if (direction < 0) {
        for (auto it = std::rbegin(kFontScales); it != std::rend(kFontScales); ++it)
            if (*it < current - 1e-3f) return *it;
    }
    return current;
}

std::variant<Settings, std::string> parse(std::string_view text, const std::string& file) {
    Settings s;
    std::array<int, std::size(kKeys)> first_line{};  // where each key was set; 0: not yet
    int number = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        const std::string_view raw = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        ++number;
        const auto fail = [&](const std::string& what) { return file + ":" + std::to_string(number) + ": " + what; };
        if (!readable(raw)) return fail("unreadable line: not UTF-8 text, or it holds control characters");
        const std::string_view line = trim(raw);
        if (line.empty() || line.front() == '#' || line.front() == ';') continue;
        if (line == kLayoutSection) {
            // Dear ImGui checks its own text; ours ends here.
            s.imgui_layout = text;
            break;
        }
        if (line.front() == '[') return fail("unknown section " + std::string(line) + " (only [imgui] is known)");
        const std::size_t equals = line.find('=');
        if (equals == std::string_view::npos) return fail("expected \"key = value\", found \"" + std::string(line) + "\"");
        const std::string_view key = trim(line.substr(0, equals));
        const std::string_view value = trim(line.substr(equals + 1));
        const auto known = std::find(std::begin(kKeys), std::end(kKeys), key);
        if (known != std::end(kKeys)) {
            int& first = first_line[static_cast<std::size_t>(known - std::begin(kKeys))];
            if (first != 0) return fail(std::string(key) + " is set twice (first on line " + std::to_string(first) + ")");
            first = number;
        }
        if (const auto why = apply(s, key, value)) return fail(*why);
    }
    return s;
}

std::string to_text(const Settings& s) {
    std::ostringstream out;
    out << "# TileScope's settings, written when a setting changes and on exit. Edit freely while\n"
           "# TileScope is closed; a file it cannot read is set aside (.corrupt) and the defaults used.\n";
    out << "window_width = " << s.window_width << "\n";
    out << "window_height = " << s.window_height << "\n";
    if (s.window_x) out << "window_x = " << *s.window_x << "\n";
    if (s.window_y) out << "window_y = " << *s.window_y << "\n";
    out << "fullscreen = " << (s.fullscreen ? "true" : "false") << "\n";
    out << "presenter = " << (s.presenter ? "true" : "false") << "\n";
    char scale[32];
    std::snprintf(scale, sizeof scale, "%g", s.font_scale);
    out << "font_scale = " << scale << "\n";
    out << "palette = " << palette_name(s.palette) << "\n";
    out << "view = " << s.view << "\n";
    out << "theatre_panel = " << s.theatre_panel << "\n";
    if (s.latency_rungs) {
        out << "latency_rungs =";
        for (std::size_t i = 0; i < s.latency_rungs->size(); ++i) out << (i ? ", " : " ") << (*s.latency_rungs)[i];
        out << "\n";
    }
    if (!s.gpu_server.empty()) out << "gpu_server = " << s.gpu_server << "\n";
    if (s.gpu_on_server) out << "gpu_on_server = true\n";
    if (!s.imgui_layout.empty()) out << kLayoutSection << "\n" << s.imgui_layout;
    return out.str();
}

Loaded load(const std::filesystem::path& path) {
    Loaded loaded;
    std::error_code error;
    if (!std::filesystem::exists(path, error)) return loaded;
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    if (!in || in.bad()) {
        loaded.problem = path.string() + ": cannot read it; using the default settings";
        return loaded;
    }
    auto parsed = parse(text.str(), path.string());
    if (auto* settings = std::get_if<Settings>(&parsed)) {
        loaded.settings = std::move(*settings);
        return loaded;
    }
    std::string problem = std::get<std::string>(parsed);
    std::filesystem::path aside = path;
    aside += ".corrupt";
    in.close();
    std::filesystem::rename(path, aside, error);
    if (error)
        problem += "; could not set it aside as " + aside.string() + " (" + error_text(error) + ")";
    else
        problem += "; set aside as " + aside.string();
    loaded.problem = problem + "; using the default settings";
    return loaded;
}

std::optional<std::string> save(const std::filesystem::path& path, const Settings& settings) {
    std::error_code error;
    if (path.has_parent_path()) {
        std::filesystem::create_directories(path.parent_path(), error);
        if (error) return "cannot create " + path.parent_path().string() + ": " + error_text(error);
    }
    std::filesystem::path temporary = path;
    temporary += ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) return "cannot write " + temporary.string() + ": " + std::strerror(errno);
        out << to_text(settings);
        out.flush();
        if (!out) return "cannot write " + temporary.string() + " (disk full?)";
    }
    std::filesystem::rename(temporary, path, error);
    if (error) {
        std::filesystem::remove(temporary, error);
        return "cannot replace " + path.string() + ": " + error_text(error);
    }
    return std::nullopt;
}

std::filesystem::path default_path(const char* xdg_config_home, const char* home) {
    // The XDG base directory specification ignores a relative $XDG_CONFIG_HOME.
    if (xdg_config_home && xdg_config_home[0] == '/')
        return std::filesystem::path(xdg_config_home) / "tilescope" / "settings.ini";
    if (home && home[0] != '\0') return std::filesystem::path(home) / ".config" / "tilescope" / "settings.ini";
    return {};
}

}  // namespace ts::settings
