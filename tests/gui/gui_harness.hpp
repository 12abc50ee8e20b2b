// gui_harness.hpp — running the tilescope binary in a window (under xvfb-run when there is no
// display) and reading back its screenshots, for the GUI tests.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include "imgui.h"

namespace ts::test {

struct Rgb {
    int r, g, b;
    bool operator==(const Rgb&) const = default;
};

// An ImGui colour (the theme's) as the RGB a screenshot holds.
inline Rgb rgb(ImU32 colour) {
    return {static_cast<int>((colour >> IM_COL32_R_SHIFT) & 0xFF), static_cast<int>((colour >> IM_COL32_G_SHIFT) & 0xFF),
            static_cast<int>((colour >> IM_COL32_B_SHIFT) & 0xFF)};
}

struct Image {
    int width = 0;
    int height = 0;
    std::vector<unsigned char> pixels;  // RGB, top row first

    Rgb at(int x, int y) const {
        const unsigned char* p = &pixels[(static_cast<std::size_t>(y) * width + x) * 3];
        return {p[0], p[1], p[2]};
    }
    // Pixels of exactly `colour` in the box [x0, x1) × [y0, y1), given as fractions of the size.
    int count(Rgb colour, float x0 = 0, float y0 = 0, float x1 = 1, float y1 = 1) const {
        return count_if([&](Rgb p) { return p == colour; }, x0, y0, x1, y1);
    }
    // Pixels within `tolerance` of `colour` in every channel: for text, whose anti-aliased
    // glyphs have few pixels of exactly their colour (fewer still with ImGui 1.90's fonts).
    int count_near(Rgb colour, int tolerance, float x0 = 0, float y0 = 0, float x1 = 1, float y1 = 1) const {
        const auto near = [&](Rgb p) {
            return std::abs(p.r - colour.r) <= tolerance && std::abs(p.g - colour.g) <= tolerance &&
                   std::abs(p.b - colour.b) <= tolerance;
        };
        return count_if(near, x0, y0, x1, y1);
    }
    // Pixels for which `predicate` holds in the box [x0, x1) × [y0, y1), given as fractions
    // of the size.
    template <typename Predicate>
    int count_if(Predicate predicate, float x0 = 0, float y0 = 0, float x1 = 1, float y1 = 1) const {
        int n = 0;
        for (int y = static_cast<int>(y0 * height); y < static_cast<int>(y1 * height); ++y)
            for (int x = static_cast<int>(x0 * width); x < static_cast<int>(x1 * width); ++x)
                if (predicate(at(x, y))) ++n;
        return n;
    }
};

// How many different colours the picture holds: a blank or half-drawn frame has a handful,
// any view drawn has hundreds.
int distinct_colours(const Image& image);

// `name` in the test's build directory.
std::string out_path(const std::string& name);

// Runs `prefix tilescope args` (prefix: e.g. "env -u DISPLAY "); its stdout and stderr go
// to `output`. Returns the exit status.
int run(const std::string& prefix, const std::string& args, std::string& output);

// Runs `tilescope args` in a window; its stdout and stderr go to `output`. Returns the exit
// status.
int run_in_window(const std::string& args, std::string& output);

// The PNG at `path` as RGB; a test failure (with `context`, e.g. what the app printed) when it
// cannot be read.
Image load_png(const std::string& path, const std::string& context = "");

// Runs `tilescope --screenshot ... args` and loads the picture; a test failure when either
// fails. `output` (optional) receives what it printed.
Image screenshot(const std::string& name, const std::string& args, std::string* output = nullptr);

}  // namespace ts::test
