// lab_state.hpp — the latency lab's state, in three parts: what it measured (the measurement
// loaded, the points measured live this session, the sweep in progress), what the user chose to
// see, and the kernel panels. The views read the points from here whatever their source, so a
// measurement from an H200 and a live run on this GPU draw the same way.
#pragma once

#include <cstdint>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "gpu/cpu_baseline.hpp"
#include "views/lab/counter_reads.hpp"
#include "views/lab/failures.hpp"
#include "gpu/runner.hpp"
#include "model/kernel_config.hpp"
#include "model/problem.hpp"
#include "model/rung_info.hpp"
#include "views/common/plot.hpp"
#include "record/journal.hpp"
#include "record/measurement_file.hpp"

namespace ts::views {

// The tile widths T the latency and tuning views measure the tiled kernel at.
inline constexpr int kSweptTiles[] = {1, 2, 4, 8, 16, 32};

// What the latency plot's y axis shows.
enum class LatencyAxis { LatencyLinear, LatencyLog, Gflops, Speedup };

struct LatencyControls {
    int size = 2048;           // the size measured by "Measure" (M = N = K)
    int sweep_from = 128;      // the sweep's range, powers of two
    int sweep_to = 2048;
    int naive_x = 32;          // the naive kernels' block shape
    int naive_y = 32;
    model::Dtype dtype = model::Dtype::Float32;
    int batch = 1;
    LatencyAxis axis = LatencyAxis::LatencyLog;
    // T = 1, 2, 4, 8, 16, 32: T = 32 alone at first, the tiled kernel at its best, so that the
    // plot opens with one line per idea rather than a fan of blues.
    bool tiles[6] = {false, false, false, false, false, true};
    // One flag per rung checkbox (model::lab_rungs: regtile-1d … tuned, then the tensor cores' wmma
    // … tc-tuned), ticked at first where the rung's row says so (LabPlot::On): warptile and tuned,
    // mma-async and persistent.
    std::vector<bool> rungs = model::lab_rung_defaults();
    // Your kernel, plotted beside the rungs as "yours: NAME" (the kernel editor's "Plot beside the
    // rungs"): the source as it was then; float, batch 1 only.
    std::optional<gpu::UserKernelSource> yours;
};

// A sweep measures one request after another, so that Cancel really stops it: only the
// next request is queued at any time.
struct Sweep {
    std::vector<gpu::RunRequest> remaining;
    int total = 0;
    int done = 0;
    // Started by a first visit to the lab (FirstVisitSweep), not by a button: the lab's panel
    // shows its progress, whichever lab view is open.
    bool first_visit = false;
    bool active() const { return total > 0 && done < total; }
};

// The first visit to a lab view on a usable GPU starts a quick sweep of the latency series,
// so that the live curves fill in while the user watches instead of one column of points.
// Once a session; passed over (and said why) without a GPU, when a measurement was opened
// with --load, and under --lab-benchmark, which times its own requests.
struct FirstVisitSweep {
    bool due = true;          // false once started or passed over
    std::string passed_over;  // why it did not start, for the lab's panel; empty once started
};

// What CUDA said about one compiled kernel, and for the tuned rung the candidate that ran.
struct CompiledKernel {
    gpu::KernelOccupancy occupancy;
    int tuned_variant = -1;
};

// What the lab measured and loaded: the measurement opened, the points measured live this
// session with their journal, the requests on their way to the runner, the sweep, the
// failures, the GPU's peaks and the CPU's times. Live results land here (take_live_result).
struct LabMeasurements {
    std::optional<record::Measurement> measurement;
    std::string measurement_label;  // "measured on NVIDIA H200, YYYY-MM-DD"
    std::string load_error;       // why --load failed, shown in the lab's panel
    // The measurement being read on a thread of its own (start_loading_measurement): a JSON with
    // every sample takes a while to parse, and the first frame must not wait for it. Invalid
    // when none is being read. Shared so that LabMeasurements stays copyable; the measurement
    // behind a pointer, so that taking it moves it rather than copying every sample on the UI thread.
    std::shared_future<std::shared_ptr<std::variant<record::Measurement, std::string>>> loading;
    bool loading_from_flag = false;  // the one being read was named by --load
    bool load_flag_failed = false;   // ...and could not be read: the program ends (exit 2)

    // Live results this session, as measurement points (what "Save session" writes).
    std::vector<record::Point> live_points;
    // Each live point is also appended here as it arrives (record/journal.hpp); null: none.
    std::shared_ptr<record::Journal> journal;
    // A session that ended in a crash, offered for reopening in the lab's panel.
    std::optional<record::UnfinishedSession> unfinished;
    // Requests for the main loop to hand to Runner::submit_live, keyed latest-wins.
    std::vector<std::pair<std::string, gpu::RunRequest>> to_submit;
    int in_flight = 0;
    // Counts of live results since the start, which --lab-benchmark watches: measured points
    // kept, and results dropped because a newer request of the same key replaced them.
    int points_kept = 0;
    int superseded = 0;
    Sweep sweep;
    FirstVisitSweep first_visit;
    std::string last_error;       // the latest failed live request (e.g. a launch error)
    // Measurements whose latest request failed, drawn as failed in place (failures.hpp).
    Failures failures;
    std::string save_path = "tilescope-session.json";
    std::string save_message;

    // The GPU's own peaks, once a Roofline request came back; nullopt without a GPU.
    std::optional<gpu::RooflinePeaks> peaks;
    bool peaks_requested = false;

    // The CPU's triple loop, timed on a thread of its own: it takes seconds, and the frame
    // must not wait. Shared so that LabMeasurements stays copyable.
    std::shared_future<gpu::CpuTime> cpu_running;
    std::vector<gpu::CpuTime> cpu_times;  // one per measured problem, the latest kept
};

// What the user chose to see in the lab's plots: the latency controls (sizes, series, axis),
// the ladder's size and how many of its rungs, and each plot's pan and zoom.
// What the ladder view's bars and the roofline's heights measure: speed (FLOPs over the median time)
// or work per joule (FLOPs over the joules NVML's energy counter gave, gpu/energy.hpp).
enum class LadderMetric { Speed, Energy };

// What the ladder view shows: the ladders' bars, or every 16- and 8-bit point's error against FP64
// against its speed (error_speed_view.hpp).
enum class LadderPage { Bars, Errors };

struct LadderChoices {
    LatencyControls latency;
    LadderMetric metric = LadderMetric::Speed;
    LadderPage ladder_page = LadderPage::Bars;

    // The ladder view's size (M = N = K); 0: the largest size with every rung measured.
    int ladder_size = 0;
    // How many rungs the ladder view draws, counted up the FP32 ladder and on up the tensor cores'
    // (each ladder's cuBLAS always drawn, as the mark to reach): an exported climb shows them one
    // by one. nullopt: all of them.
    std::optional<int> ladder_rungs_shown;

    // The plots keep their view (pan, zoom, hidden series) from frame to frame.
    Plot latency_plot;
    Plot roofline_plot;
    Plot roofline_energy_plot;  // its energy choice: other units, so a view of its own
    Plot error_speed_plot;      // the ladder view's error against speed
};

// The occupancy and hardware-counter panels beside the lab's plots: each one's kernel, what
// CUDA said about the kernels it compiled, and the counters read.
struct KernelPanels {
    // The occupancy panel's kernel, and the preset used when there is no GPU.
    model::KernelConfig occupancy_kernel{model::KernelKind::Tiled, 32, 32, 16};
    int preset = 0;
    // What CUDA said about the compiled kernel of the panel's choice, and which choice
    // ("tiled T=32 float") was last asked for, so a change asks again.
    std::optional<gpu::KernelOccupancy> compiled_occupancy;
    std::string compiled_occupancy_of;
    std::string occupancy_requested;
    // Every compiled kernel CUDA described this session, from Occupancy and Measure results
    // alike, by compiled_key: the ladder view shows each rung's registers and occupancy.
    std::map<std::string, CompiledKernel> compiled_kernels;
    std::vector<std::string> compiled_requested;  // keys asked for, so each is asked once

    // The counters panel's kernel (one of the roofline's), and every reading of the
    // hardware's counters this session, per kernel and size (counter_reads.hpp).
    model::KernelConfig counters_kernel{model::KernelKind::Tiled, 16, 16, 32};
    CounterReads counter_reads;
};

// The latency lab's state, by what it holds; a function takes the part it writes.
struct LabState {
    LabMeasurements measured;
    LadderChoices choices;
    KernelPanels panels;
};

// "measured on NVIDIA H200, YYYY-MM-DD"
std::string measurement_label(const record::Measurement& measurement);

// Loads `file` into the lab; false, with load_error set, when it cannot be read.
bool load_measurement(LabMeasurements& measured, const std::filesystem::path& file);

// Starts reading `file` off the UI thread; the lab's panel says "Loading measurements…" until
// poll_measurement_load takes it in. `from_flag`: named by --load, whose failure ends the program.
void start_loading_measurement(LabMeasurements& measured, std::filesystem::path file, bool from_flag = false);
// Once per frame: takes the measurement (or why it could not be read) once it is in. Never blocks.
void poll_measurement_load(LabMeasurements& measured);
// Whether a measurement is still being read (a --screenshot waits for it).
bool measurement_loading(const LabMeasurements& measured);
// Waits for the measurement being read and takes it: for runs that draw it without a frame loop
// (--lesson-walk), never for the window's frames.
void wait_for_measurement(LabMeasurements& measured);

// The committed measurements (assets/measurements/*.json), the newest (by the date in the
// file name) last.
std::vector<std::filesystem::path> committed_measurements();

// The point a live result becomes: the same fields `tilescope bench` writes.
record::Point point_from_result(const gpu::RunResult& result);
// Your kernel's curve and bar: magenta, no rung's colour.
inline constexpr ImU32 kYoursColour = IM_COL32(215, 0, 150, 255);
// "yours: mine.cu": the series and the points of your kernel (kernel "yours").
std::string yours_config(const std::string& name);
// The name a request's points go under: "tiled T=16", or yours_config for your kernel.
std::string request_config(const gpu::RunRequest& request);

// Every point to plot: the measurement's, then this session's live ones (which replace a
// recorded point of the same kernel, size and dtype).
std::vector<const record::Point*> lab_points(const LabMeasurements& measured);

// The config name cuBLAS's points carry (model::describe of a cuBLAS kernel).
inline constexpr const char* kCublasConfig = "cublas";

// The last point (live ones come last, so they win) of `config` at M = N = K = `size`.
const record::Point* find_point(const std::vector<const record::Point*>& points, const std::string& config,
                                std::int64_t size, std::string_view dtype, std::int64_t batch = 1);

// Queues a live measurement; `key` names the series and size so a newer request for the
// same point replaces an older one still waiting.
void request_live(LabMeasurements& measured, const std::string& key, const gpu::RunRequest& request);
void start_sweep(LabMeasurements& measured, std::vector<gpu::RunRequest> requests);
void cancel_sweep(LabMeasurements& measured);

// Marks the first-visit sweep as never to start this session, saying `why` in the panel.
void pass_over_first_visit_sweep(LabMeasurements& measured, std::string why);

// A finished live result: kept as a point unless superseded; feeds the sweep its next request.
void take_live_result(LabMeasurements& measured, KernelPanels& panels, const gpu::RunResult& result);

// Occupancy requests come back here too: "tiled T=32 float", the key the panel compares.
std::string occupancy_choice(const model::KernelConfig& kernel, model::Dtype dtype);

// The key of KernelPanels::compiled_kernels: occupancy_choice, and for the tuned rung left to the
// tuner (variant −1) the size too, since the size picks the shape that runs ("tuned float 4096").
std::string compiled_key(const model::KernelConfig& kernel, const model::Problem& problem);

// Starts timing the CPU's triple loop on `problem` off the UI thread; false while one runs.
bool start_cpu_time(LabMeasurements& measured, const model::Problem& problem);
// Once per frame: takes the CPU time if it has finished. Never blocks.
void poll_cpu_time(LabMeasurements& measured);
// Keeps a CPU time, replacing an older one of the same problem.
void take_cpu_time(LabMeasurements& measured, const gpu::CpuTime& time);

// Adds the points of the unfinished session to this session's live ones (journaled again)
// and stops offering it; false, with last_error set, when it cannot be read.
bool reopen_unfinished(LabMeasurements& measured);
// Stops offering the unfinished session; its journal stays on disk, renamed.
void discard_unfinished(LabMeasurements& measured);

// Writes this session's live points as a measurement JSON; nullopt on success.
std::optional<std::string> save_session(const LabMeasurements& measured, const std::filesystem::path& file,
                                        const std::string& device_name, const std::string& host = {});

}  // namespace ts::views
