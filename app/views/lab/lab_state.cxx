#include "views/lab/lab_state.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <future>
#include <span>

#include "gpu/clock_watch.hpp"
#include "model/format.hpp"
#include "paths/data_dir.hpp"
#include "record/utc_time.hpp"

namespace ts::views {

namespace {

bool same_point(const record::Point& a, const record::Point& b) {
    return a.config == b.config && a.m == b.m && a.n == b.n && a.k == b.k && a.batch == b.batch &&
           a.dtype == b.dtype;
}

void submit_next_of_sweep(LabMeasurements& measured) {
    if (measured.sweep.remaining.empty()) return;
    gpu::RunRequest next = measured.sweep.remaining.front();
    measured.sweep.remaining.erase(measured.sweep.remaining.begin());
    request_live(measured, "sweep", next);
}

}  // namespace

std::string measurement_label(const record::Measurement& measurement) {
    // The date alone: the time of day of a measurement tells a reader nothing.
    const std::string date = measurement.meta.date_utc.substr(0, 10);
    if (measurement.from_csv) return "from a CSV (it names no GPU or date)";
    return model::format_text("measured on {}, {}", measurement.meta.device.name, date);
}

namespace {

bool take_loaded(LabMeasurements& measured, std::variant<record::Measurement, std::string> loaded) {
    if (auto* why = std::get_if<std::string>(&loaded)) {
        measured.load_error = *why;
        return false;
    }
    measured.measurement = std::move(std::get<record::Measurement>(loaded));
    measured.measurement_label = measurement_label(*measured.measurement);
    measured.load_error.clear();
    return true;
}

}  // namespace

bool load_measurement(LabMeasurements& measured, const std::filesystem::path& file) {
    return take_loaded(measured, record::load(file));
}

void start_loading_measurement(LabMeasurements& measured, std::filesystem::path file, bool from_flag) {
    measured.loading = std::async(std::launch::async, [file = std::move(file)] {
                      return std::make_shared<std::variant<record::Measurement, std::string>>(record::load(file));
                  }).share();
    measured.loading_from_flag = from_flag;
    measured.load_flag_failed = false;
}

void poll_measurement_load(LabMeasurements& measured) {
    if (!measured.loading.valid() || measured.loading.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        return;
    const auto loaded = measured.loading.get();
    measured.loading = {};
    measured.load_flag_failed = !take_loaded(measured, std::move(*loaded)) && measured.loading_from_flag;
}

bool measurement_loading(const LabMeasurements& measured) { return measured.loading.valid(); }

void wait_for_measurement(LabMeasurements& measured) {
    if (!measured.loading.valid()) return;
    measured.loading.wait();
    poll_measurement_load(measured);
}

std::vector<std::filesystem::path> committed_measurements() {
    std::vector<std::filesystem::path> files;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(paths::data_dir() / "measurements", error))
        if (entry.path().extension() == ".json") files.push_back(entry.path());
    // Named GPU-DATE (nvidia-h200-YYYY-MM-DD): by the date the name ends with, so the newest
    // comes last whatever its GPU; one day's measurements by name.
    const auto date_of = [](const std::filesystem::path& file) {
        const std::string stem = file.stem().string();
        return stem.size() >= 10 ? stem.substr(stem.size() - 10) : std::string();
    };
    std::sort(files.begin(), files.end(), [&](const auto& a, const auto& b) {
        return std::pair(date_of(a), a.filename()) < std::pair(date_of(b), b.filename());
    });
    return files;
}

std::string yours_config(const std::string& name) { return "yours: " + name; }

std::string request_config(const gpu::RunRequest& request) {
    return request.user ? yours_config(request.user->name) : model::describe(request.kernel);
}

record::Point point_from_result(const gpu::RunResult& result) {
    const gpu::RunRequest& request = result.request;
    record::Point point;
    point.kernel = std::string(model::kernel_name(request.kernel.kind));
    point.config = request_config(request);
    if (request.user) {
        point.kernel = "yours";
    } else if (request.kernel.kind == model::KernelKind::Tiled) {
        point.tile = request.kernel.tile;
    } else if (request.kernel.kind != model::KernelKind::Cublas) {
        point.block_x = request.kernel.block_x;
        if (!model::uses_1d_blocks(request.kernel.kind)) point.block_y = request.kernel.block_y;
    }
    point.m = request.problem.m;
    point.n = request.problem.n;
    point.k = request.problem.k;
    point.batch = request.problem.batch;
    point.dtype = std::string(model::dtype_name(request.problem.dtype));
    point.mode = result.hot ? "hot" : "cold";
    point.ok = result.ok;
    point.error = result.error;
    if (model::is_fp8(request.problem.dtype))
        point.fp8_scaling = std::string(model::fp8_scaling_name(request.problem.fp8_scaling));
    if (!result.ok) return point;
    point.samples_ms = result.samples_ms;
    point.median_ms = result.median_ms;
    point.p20_ms = result.p20_ms;
    point.p80_ms = result.p80_ms;
    point.mean_ms = result.mean_ms;
    point.min_ms = result.min_ms;
    point.max_ms = result.max_ms;
    point.noise_pct = result.noise * 100.0;
    point.stop_reason = result.stop_reason;
    point.gflops = result.gflops;
    if (result.model_traffic_bytes > 0) {
        point.model_traffic_bytes = result.model_traffic_bytes;
        point.model_bandwidth_GBps = result.model_bandwidth_gbs;
    }
    point.checked = result.checked;
    point.check_passed = result.check_passed;
    if (result.checked) point.max_rel_error = result.max_rel_error;
    point.check_summary = result.check_summary;
    // The clocks, the energy and the error against FP64, which the ladder's energy bars and the
    // lab's error plot draw.
    gpu::record_beside_times(result, point);
    return point;
}

std::vector<const record::Point*> lab_points(const LabMeasurements& measured) {
    std::vector<const record::Point*> points;
    if (measured.measurement)
        for (const record::Point& p : measured.measurement->points) {
            const bool replaced = std::any_of(measured.live_points.begin(), measured.live_points.end(),
                                              [&](const record::Point& live) { return same_point(live, p); });
            if (!replaced) points.push_back(&p);
        }
    for (const record::Point& p : measured.live_points) points.push_back(&p);
    return points;
}

const record::Point* find_point(const std::vector<const record::Point*>& points, const std::string& config,
                                std::int64_t size, std::string_view dtype, std::int64_t batch) {
    const record::Point* found = nullptr;
    for (const record::Point* p : points)
        if (p->ok && p->config == config && p->m == size && p->n == size && p->k == size && p->dtype == dtype &&
            p->batch == batch && p->mode == "cold")
            found = p;
    return found;
}

void request_live(LabMeasurements& measured, const std::string& key, const gpu::RunRequest& request) {
    // A newer request under the same key replaces one not yet handed to the runner.
    std::erase_if(measured.to_submit, [&](const auto& queued) { return queued.first == key; });
    measured.to_submit.emplace_back(key, request);
}

void start_sweep(LabMeasurements& measured, std::vector<gpu::RunRequest> requests) {
    measured.sweep = Sweep{std::move(requests), 0, 0};
    measured.sweep.total = static_cast<int>(measured.sweep.remaining.size());
    submit_next_of_sweep(measured);
}

void pass_over_first_visit_sweep(LabMeasurements& measured, std::string why) {
    measured.first_visit = {false, std::move(why)};
}

void cancel_sweep(LabMeasurements& measured) {
    // The request already running finishes and is kept; nothing after it is sent.
    measured.sweep = Sweep{};
    std::erase_if(measured.to_submit, [](const auto& queued) { return queued.first == "sweep"; });
}

void take_live_result(LabMeasurements& measured, KernelPanels& panels, const gpu::RunResult& result) {
    measured.in_flight = std::max(0, measured.in_flight - 1);
    if (result.live_key == "sweep" && measured.sweep.active()) {
        ++measured.sweep.done;
        submit_next_of_sweep(measured);
    }
    if (result.superseded_by != 0) {
        ++measured.superseded;
        return;
    }
    // Measurements describe their compiled kernel too: the ladder view takes it from either.
    if (result.ok && result.occupancy && !result.request.user)
        panels.compiled_kernels[compiled_key(result.request.kernel, result.request.problem)] = {*result.occupancy,
                                                                                           result.tuned_variant};
    if (result.request.kind == gpu::RequestKind::Counters) {
        take_counters_result(panels.counter_reads, result);
        return;
    }
    if (result.request.kind == gpu::RequestKind::Roofline) {
        if (result.ok && result.roofline) measured.peaks = result.roofline;
        else measured.last_error = "roofline: " + result.error;
        return;
    }
    if (result.request.kind == gpu::RequestKind::Occupancy) {
        if (!result.ok || !result.occupancy) {
            measured.last_error =
                model::format_text("occupancy of {}: {}", model::describe(result.request.kernel), result.error);
            return;
        }
        panels.compiled_occupancy = result.occupancy;
        panels.compiled_occupancy_of = occupancy_choice(result.request.kernel, result.request.problem.dtype);
        return;
    }
    if (result.request.kind != gpu::RequestKind::Measure) return;
    note_measure_result(measured.failures, result);
    if (!result.ok) {
        measured.last_error = model::format_text("{}: {}", gpu::describe_point(result.request), result.error);
        return;
    }
    record::Point point = point_from_result(result);
    std::erase_if(measured.live_points, [&](const record::Point& p) { return same_point(p, point); });
    point.index = static_cast<int>(measured.live_points.size());
    if (measured.journal)
        if (auto why = measured.journal->append(point)) measured.last_error = *why;
    measured.live_points.push_back(std::move(point));
    ++measured.points_kept;
}

bool reopen_unfinished(LabMeasurements& measured) {
    if (!measured.unfinished) return false;
    auto loaded = record::load_journal(measured.unfinished->file);
    if (auto* why = std::get_if<std::string>(&loaded)) {
        measured.last_error = *why;
        return false;
    }
    for (record::Point& point : std::get<record::Measurement>(loaded).points) {
        std::erase_if(measured.live_points, [&](const record::Point& p) { return same_point(p, point); });
        point.index = static_cast<int>(measured.live_points.size());
        if (measured.journal) measured.journal->append(point);
        measured.live_points.push_back(std::move(point));
    }
    record::retire_journal(measured.unfinished->file);
    measured.unfinished.reset();
    return true;
}

void discard_unfinished(LabMeasurements& measured) {
    if (!measured.unfinished) return;
    record::retire_journal(measured.unfinished->file);
    measured.unfinished.reset();
}

std::string occupancy_choice(const model::KernelConfig& kernel, model::Dtype dtype) {
    return model::format_text("{} {}", model::describe(kernel), model::dtype_name(dtype));
}

std::string compiled_key(const model::KernelConfig& kernel, const model::Problem& problem) {
    const std::string choice = occupancy_choice(kernel, problem.dtype);
    if (model::is_tuned(kernel.kind) && kernel.variant < 0)
        return model::format_text("{} {}", choice, std::max({problem.m, problem.n, problem.k}));
    return choice;
}

bool start_cpu_time(LabMeasurements& measured, const model::Problem& problem) {
    if (measured.cpu_running.valid()) return false;
    // cpu_baseline measures up to about 2 s and extrapolates beyond, marking the estimate.
    measured.cpu_running = std::async(std::launch::async, [problem] {
                          return gpu::cpu_baseline(std::span<const model::Problem>(&problem, 1)).front();
                      }).share();
    return true;
}

void poll_cpu_time(LabMeasurements& measured) {
    if (!measured.cpu_running.valid() ||
        measured.cpu_running.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        return;
    take_cpu_time(measured, measured.cpu_running.get());
    measured.cpu_running = {};
}

void take_cpu_time(LabMeasurements& measured, const gpu::CpuTime& time) {
    const model::Problem& p = time.problem;
    std::erase_if(measured.cpu_times, [&](const gpu::CpuTime& t) {
        return t.problem.m == p.m && t.problem.n == p.n && t.problem.k == p.k && t.problem.batch == p.batch &&
               t.problem.dtype == p.dtype;
    });
    measured.cpu_times.push_back(time);
}

std::optional<std::string> save_session(const LabMeasurements& measured, const std::filesystem::path& file,
                                        const std::string& device_name, const std::string& host) {
    if (measured.live_points.empty()) return "nothing measured yet: measure on the GPU first";
    record::Measurement measurement;
    measurement.meta.date_utc = record::utc_now();
    measurement.meta.command_line = "tilescope (latency lab, live session)";
    measurement.meta.device.name = device_name;
    measurement.meta.device.host = host;
    measurement.points = measured.live_points;
    for (std::size_t i = 0; i < measurement.points.size(); ++i) measurement.points[i].index = static_cast<int>(i);
    return record::save_text(file, record::to_json(measurement));
}

}  // namespace ts::views
