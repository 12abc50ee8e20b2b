// gpu_panel.hpp — where the GPU work runs: this machine, or a server (through ssh or Slurm), with a
// Test button that connects without switching, and the choice applied once nothing is pending.
// The status bar shows the connection as it goes (status_bar.hpp).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "gpu/runner.hpp"
#include "gpu/worker_target.hpp"

namespace ts::views {

struct GpuChoice {
    bool on_server = false;   // the choice shown: this machine, or `server`
    std::string server;       // as typed: "ssh://ana@gpu1", "slurm:class" (settings remember it)
    std::string in_use = "local";  // the target the runner works with now (gpu::describe)
    std::string problem;      // why the typed server is refused, or why switching waits
    // Asked by the panel; the frame's exchange with the runner switches (apply_gpu_choice).
    std::optional<gpu::WorkerTarget> switch_to;
    // The backend for a target: the supervisor with its options (run_window sets it; tests give
    // a fake worker's). Null: the panel offers no choice.
    std::function<gpu::RunnerBackend(const gpu::WorkerTarget&)> backend_for;
    // The Test button's connection: a runner of its own that only probes, and what it found.
    std::shared_ptr<gpu::Runner> test;
    std::string tested;       // the target being or last tested
    std::string test_result;  // "NVIDIA H100 80GB HBM3 on gpu1: driver 13.0, CUDA 13.0, queue /tmp/…", or why not
    bool test_ok = false;
    double test_started = 0.0;
    int pending = 0;          // the runner's requests queued or running, as of this frame
};

// The panel: writes `choice` (edits, Test, Use).
void draw_gpu_panel(GpuChoice& choice, double now);

// Once per frame, beside the runner: takes the Test button's answer, and switches the runner to
// the chosen target once nothing is pending (the device is probed anew).
void apply_gpu_choice(GpuChoice& choice, std::optional<gpu::DeviceInfo>& device, gpu::Runner& runner);

// One line for a probed device: "NVIDIA H100 80GB HBM3 on gpu1: driver 13.0, CUDA 13.0, GPU queue
// /tmp/tilescope-gpu-locks/GPU-….lock", or its reason when not usable.
std::string describe_connection(const gpu::DeviceInfo& device);

}  // namespace ts::views
