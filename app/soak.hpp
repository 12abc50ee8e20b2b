// soak.hpp — `tilescope --soak SECONDS`: drives the window as a restless user would, for
// that long, and reports whether anything grew or broke. Every few frames it changes one
// thing at random: the view, the sizes, the kernel and tile, a lesson step, a run on the
// GPU, a measurement in the lab, an experiment (and a few runs of it on a GPU); some of these
// are invalid on purpose (a size of 0 or over 2^31 elements, T = 64, a 64×32 block), through
// the same limits as the setup panel's fields.
// It prints the app's resident memory and the GPU's used memory after a warm-up (a fifth of
// the time, at most 60 s) and at the end, both in the state it began in (resident memory:
// its lowest over two seconds there, so one frame's transient buffers do not count), and
// the requests done and failed; the exit code is 1 when a worker stopped or either memory
// grew more than 5 %.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>

#include "gpu/runner.hpp"
#include "views/window/app_state.hpp"

namespace ts::app {

// The views the soak switches between: every view of the window.
inline constexpr views::ViewId kSoakViews[] = {views::ViewId::Stage,   views::ViewId::Latency,
                                                views::ViewId::Tuning,  views::ViewId::Roofline,
                                                views::ViewId::Theatre, views::ViewId::Ladder,
                                                views::ViewId::Experiment};

class Soak {
public:
    Soak(double seconds, std::uint64_t seed);
    // Before the frame is drawn: maybe one change. `now` in seconds since the start.
    void step(views::AppState& state, gpu::Runner& runner, double now);
    bool finished() const { return m_finished; }
    // The figures, and the exit code (0: nothing grew past 5 %, no worker stopped).
    std::string report(const views::AppState& state) const;
    int exit_code(const views::AppState& state) const;

private:
    void change_something(views::AppState& state);
    void ask_memory(gpu::Runner& runner);
    void restore_baseline(views::AppState& state) const;

    // What the soak began with; the memory figures are taken with it restored.
    struct Baseline {
        model::Problem problem;
        model::KernelConfig kernel;
        views::ViewId view;
    };
    // The memory of the baseline state: drawn for kSettleSeconds (a software renderer frees
    // the last large textures and buffers some frames late), then the lowest resident memory
    // over kSampleSeconds, sampled every frame; the heap in use is read with it.
    struct Floor {
        static constexpr double kSettleSeconds = 3.0;
        static constexpr double kSampleSeconds = 2.0;
        explicit Floor(double now) : began(now) {}
        bool measure(double now);  // true once the figures are taken
        double began;
        bool trimmed = false;
        std::int64_t resident = 0, heap = 0;
    };

    double m_seconds;
    std::mt19937_64 m_random;
    int m_frame = 0;
    int m_changes = 0;
    int m_invalid = 0;  // changes that were invalid on purpose
    bool m_started = false;
    bool m_ending = false;
    bool m_finished = false;
    double m_end_asked = 0.0;
    double m_next_memory_log = 0.0;
    std::optional<Baseline> m_baseline;
    std::optional<Floor> m_floor;  // while the baseline's figures are being taken
    std::int64_t m_rss_start = 0, m_rss_end = 0;
    std::int64_t m_heap_start = 0, m_heap_end = 0;
    std::optional<std::int64_t> m_gpu_used_start, m_gpu_used_end;
    std::uint64_t m_memory_request = 0;
};

// This process's resident memory in bytes (/proc/self/statm), 0 where unknown.
std::int64_t resident_bytes();

}  // namespace ts::app
