// frame_time.cxx — see frame_time.hpp.
#include "frame_time.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <vector>

#include "frame.hpp"
#include "views/lab/lab_benchmark.hpp"

namespace ts::app {

namespace {

// When the program started (static initialisation): how long after it the first frame was on screen.
const auto g_process_start = std::chrono::steady_clock::now();

}  // namespace

int time_frames(platform::Window& window, gpu::Runner& runner, views::AppState& state, int frames) {
    using Clock = std::chrono::steady_clock;
    std::vector<double> ms;
    double first_ms = 0.0;
    double first_shown_s = 0.0;
    bool probe_done_at_first_frame = false;
    for (int i = 0; i < kSettleFrames + frames; ++i) {
        const auto start = Clock::now();
        draw_frame(window, state, {.runner = &runner, .before_draw = [&] {
                                       if (i == 0) probe_done_at_first_frame = state.device.has_value();
                                   }});
        window.present();
        window.finish();
        const double elapsed = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        if (i == 0) {
            first_ms = elapsed;
            first_shown_s = std::chrono::duration<double>(Clock::now() - g_process_start).count();
        }
        if (i >= kSettleFrames) ms.push_back(elapsed);
    }
    const views::Spread spread = views::spread(ms);
    // Textures built: one per heat map however many frames, unless they are rebuilt per frame.
    const auto* heatmaps = window.heatmap_painter();
    char line[256];
    std::snprintf(line, sizeof line,
                  "frame time at %lld×%lld×%lld: median %.3f ms, p90 %.3f ms over %d frames (first frame %.1f ms, "
                  "heat-map textures built: %llu)\n",
                  static_cast<long long>(state.problem.m), static_cast<long long>(state.problem.n),
                  static_cast<long long>(state.problem.k), spread.median, spread.p90, frames, first_ms,
                  static_cast<unsigned long long>(heatmaps ? heatmaps->uploads() : 0));
    std::cout << line << "renderer: " << window.renderer() << "\n";
    std::snprintf(line, sizeof line, "first frame shown %.3f s after start (GPU probe %s by then)\n", first_shown_s,
                  probe_done_at_first_frame ? "answered" : "not yet answered");
    std::cout << line;
    return 0;
}

}  // namespace ts::app
