#include "soak.hpp"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "model/format.hpp"
#include "views/experiments/experiment_state.hpp"
#include "views/experiments/experiment_view.hpp"
#include "views/lab/latency_view.hpp"
#include "views/window/setup_panel.hpp"
#include "views/lessons/lesson_state.hpp"
#include "views/lab/tuning_view.hpp"

namespace ts::app {

using model::format_text;

std::int64_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::int64_t size = 0, resident = 0;
    if (!(statm >> size >> resident)) return 0;
    return resident * sysconf(_SC_PAGESIZE);
}

// /proc/self/status's split of resident memory: anonymous (heap, mmaps), file-backed (the
// program and its libraries, as far as they have been touched), shared memory.
std::string resident_kinds() {
    std::ifstream status("/proc/self/status");
    std::string line, text;
    while (std::getline(status, line))
        if (line.rfind("RssAnon:", 0) == 0 || line.rfind("RssFile:", 0) == 0 || line.rfind("RssShmem:", 0) == 0) {
            line.erase(std::remove(line.begin(), line.end(), '\t'), line.end());
            text += (text.empty() ? "" : ", ") + line;
        }
    return text;
}

// The allocator's bytes in use (large blocks are mapped on their own, hblkhd, and are in use
// while mapped) and the bytes it holds: beside the resident memory, growth in one but not the
// other is the allocator's or a driver's, not ours.
std::int64_t heap_in_use() {
    const struct mallinfo2 heap = mallinfo2();
    return static_cast<std::int64_t>(heap.uordblks + heap.hblkhd);
}
std::int64_t heap_held() {
    const struct mallinfo2 heap = mallinfo2();
    return static_cast<std::int64_t>(heap.arena + heap.hblkhd);
}

Soak::Soak(double seconds, std::uint64_t seed) : m_seconds(seconds), m_random(seed) {}

void Soak::ask_memory(gpu::Runner& runner) {
    gpu::RunRequest request;
    request.kind = gpu::RequestKind::Memory;
    m_memory_request = runner.submit(request);
}

void Soak::change_something(views::AppState& state) {
    const auto pick = [&](auto const& choices) { return choices[m_random() % std::size(choices)]; };
    ++m_changes;
    switch (m_random() % 9) {
        case 0: state.view = pick(kSoakViews); break;
        case 1: {  // sizes as the setup panel takes them (typed 0 becomes 1), up to its largest
            constexpr std::array<std::int64_t, 9> typed{0, 1, 4, 7, 40, 128, 333, 1024, 99999};
            for (std::int64_t* size : {&state.problem.m, &state.problem.n, &state.problem.k}) {
                const std::int64_t value = pick(typed);
                *size = std::clamp<std::int64_t>(value, 1, views::kMaxTypedSize);
                if (value != *size) ++m_invalid;
            }
            break;
        }
        case 2: {  // kernel and its shape; T = 64 and a 64×32 block are refused by any GPU
            constexpr std::array kinds{model::KernelKind::Naive, model::KernelKind::NaiveRowFromX,
                                       model::KernelKind::RowPerThread, model::KernelKind::ColumnPerThread,
                                       model::KernelKind::Tiled, model::KernelKind::Cublas};
            constexpr std::array tiles{1, 2, 4, 8, 16, 32, 64};
            constexpr std::array blocks{8, 16, 32, 64};
            state.kernel.kind = pick(kinds);
            state.kernel.tile = pick(tiles);
            state.kernel.block_x = pick(blocks);
            state.kernel.block_y = pick(blocks);
            if (state.kernel.tile == 64 || state.kernel.block_x * state.kernel.block_y > 1024) ++m_invalid;
            break;
        }
        case 3: {  // a lesson step
            const auto lessons = views::list_lessons();
            if (lessons.empty()) break;
            const auto& entry = lessons[m_random() % lessons.size()];
            if (!entry.error.empty()) break;
            auto lesson = views::load_lesson(entry.file);
            if (auto* loaded = std::get_if<lessons::Lesson>(&lesson))
                views::open_lesson(state, *loaded, static_cast<int>(m_random() % 8));
            break;
        }
        case 4: state.run_requested = true; break;  // Run on GPU (refused politely if invalid)
        case 5:
            state.lab.choices.latency.size = static_cast<int>(pick(std::array{64, 256, 1000, 2048}));
            views::measure_latency_now(state.lab);
            break;
        case 6:
            if (!state.lab.measured.sweep.active() && m_random() % 4 == 0) views::start_sweep(state.lab.measured, views::tuning_requests());
            break;
        case 7: {  // the Experiments view's page: another experiment, a guess, and on a GPU a few runs of its cases
            views::ExperimentState& experiments = state.experiments;
            experiments.experiment = pick(model::kAllExperiments);
            views::ExperimentPage& page = views::page_of(experiments, experiments.experiment);
            page.prediction = static_cast<int>(m_random() % views::prediction_choices(experiments.experiment).size());
            page.runs = 5;
            // Not no-bounds-check: it writes past C on purpose, and a fault restarts the worker,
            // which the soak counts as a failure.
            if (state.device && state.device->usable && experiments.experiment != model::Experiment::NoBoundsCheck &&
                m_random() % 4 == 0)
                views::start_experiment_batch(experiments, experiments.experiment);
            break;
        }
        default: state.theatre.player.step = static_cast<int>(m_random() % 20); break;
    }
    // TILESCOPE_SOAK_LOG=1: each state on stderr, so that a failure can be replayed by hand,
    // and the memory every 10 s.
    static const bool log = std::getenv("TILESCOPE_SOAK_LOG") != nullptr;
    if (log)
        std::fprintf(stderr, "soak %d: view %s, %lldx%lldx%lld, %s, lesson %s step %d\n", m_changes,
                     std::string(views::view_name(state.view)).c_str(), static_cast<long long>(state.problem.m),
                     static_cast<long long>(state.problem.n), static_cast<long long>(state.problem.k),
                     model::describe(state.kernel).c_str(), state.lesson.lesson ? state.lesson.lesson->name.c_str() : "-",
                     state.lesson.step);
}

bool Soak::Floor::measure(double now) {
    if (now < began + kSettleSeconds) return false;
    if (!trimmed) {
        malloc_trim(0);  // freed memory the allocator still holds goes back to the system
        trimmed = true;
    }
    const std::int64_t rss = resident_bytes();
    if (resident == 0 || rss < resident) {
        resident = rss;
        heap = heap_in_use();
    }
    return now >= began + kSettleSeconds + kSampleSeconds;
}

void Soak::restore_baseline(views::AppState& state) const {
    state.problem = m_baseline->problem;
    state.kernel = m_baseline->kernel;
    state.view = m_baseline->view;
    state.lesson = {};
}

void Soak::step(views::AppState& state, gpu::Runner& runner, double now) {
    ++m_frame;
    if (!state.device) return;  // the probe first: the figures at the start include it
    const bool gpu = state.device->usable;
    // The figures at the start are taken after a warm-up, once the views' caches (heat-map
    // textures, lesson files, glyphs) have seen most of what the changes bring.
    const double warm_up = std::min(60.0, 0.2 * m_seconds);
    if (!m_baseline) {
        m_baseline = Baseline{state.problem, state.kernel, state.view};
        // The Experiments view reads the committed measurements once a session, on its first
        // visit: read them now, before the figures at the start, so they do not count as growth.
        views::load_committed_experiments(state.experiments);
    }
    if (!m_started && now >= warm_up) {
        // Both figures are taken in the state the soak began in: what one random state needs
        // (a 99999-wide heat map, say) is not growth.
        if (!m_floor) {
            restore_baseline(state);
            m_floor.emplace(now);
        }
        if (!m_floor->measure(now)) return;
        m_started = true;
        m_rss_start = m_floor->resident;
        m_heap_start = m_floor->heap;
        m_floor.reset();
        if (gpu) ask_memory(runner);
    }
    if (state.memory && state.memory->id == m_memory_request && state.memory->ok) {
        const std::int64_t used = state.memory->device_total_bytes - state.memory->device_free_bytes;
        (m_ending ? m_gpu_used_end : m_gpu_used_start) = used;
    }
    static const bool log = std::getenv("TILESCOPE_SOAK_LOG") != nullptr;
    if (log && now >= m_next_memory_log) {
        std::fprintf(stderr, "soak at %.0f s: resident %s (%s), heap in use %s, heap held %s\n", now,
                     model::human_bytes(resident_bytes()).c_str(), resident_kinds().c_str(),
                     model::human_bytes(heap_in_use()).c_str(), model::human_bytes(heap_held()).c_str());
        m_next_memory_log = now + 10.0;
    }
    if (!m_ending) {
        if (now < m_seconds) {
            if (m_frame % 6 == 0) change_something(state);
            return;
        }
        // Stop changing; what is queued finishes, then the figures are taken.
        m_ending = true;
        m_end_asked = now;
        m_memory_request = 0;
        state.lab.measured.sweep = {};
        views::cancel_experiment_batch(state.experiments);
        restore_baseline(state);
    }
    const bool drained = runner.pending() == 0 || now - m_end_asked > 120.0;
    if (!drained) return;
    if (gpu && !m_gpu_used_end && now - m_end_asked < 150.0) {
        if (m_memory_request == 0) ask_memory(runner);
        return;
    }
    if (!m_floor) m_floor.emplace(now);
    if (!m_floor->measure(now)) return;
    m_rss_end = m_floor->resident;
    m_heap_end = m_floor->heap;
    m_finished = true;
}

std::string Soak::report(const views::AppState& state) const {
    const auto growth = [](double start, double end) { return start > 0 ? 100.0 * (end - start) / start : 0.0; };
    std::string text = format_text("soak: {} s, {} changes ({} invalid on purpose), {} requests done, {} failed "
                                   "({} of them because the GPU worker stopped)\n",
                                   model::fixed(m_seconds, 0), m_changes, m_invalid, state.results.done,
                                   state.results.failed, state.results.worker_stopped);
    text += format_text("app resident memory: {} at start, {} at end ({} %)\n", model::human_bytes(m_rss_start),
                        model::human_bytes(m_rss_end), model::fixed(growth(double(m_rss_start), double(m_rss_end)), 1));
    text += "  resident at the end: " + resident_kinds() + "\n";
    text += format_text("heap in use: {} at start, {} at end ({} %)\n", model::human_bytes(m_heap_start),
                        model::human_bytes(m_heap_end), model::fixed(growth(double(m_heap_start), double(m_heap_end)), 1));
    if (m_gpu_used_start && m_gpu_used_end)
        text += format_text("GPU memory used: {} at start, {} at end ({} %)\n", model::human_bytes(*m_gpu_used_start),
                            model::human_bytes(*m_gpu_used_end),
                            model::fixed(growth(double(*m_gpu_used_start), double(*m_gpu_used_end)), 1));
    else
        text += "GPU memory: not measured (" +
                (state.device && !state.device->usable ? state.device->why_not : std::string("no answer")) + ")\n";
    return text;
}

int Soak::exit_code(const views::AppState& state) const {
    const bool rss_grew = m_rss_start > 0 && m_rss_end > m_rss_start + m_rss_start / 20;
    const bool gpu_grew = m_gpu_used_start && m_gpu_used_end && *m_gpu_used_end > *m_gpu_used_start + *m_gpu_used_start / 20;
    return rss_grew || gpu_grew || state.results.worker_stopped > 0 ? 1 : 0;
}

}  // namespace ts::app
