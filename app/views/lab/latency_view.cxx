#include "views/lab/latency_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>

#include "model/format.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

using model::format_text;

namespace {

constexpr int kSizes[] = {128, 256, 512, 1024, 2048, 4096};
// The first visit's quick sweep: enough sizes to show each curve's shape, few enough to be
// done in seconds (4096³ alone would take longer than the rest together).
constexpr int kQuickSweepSizes[] = {256, 512, 1024, 2048};

// The naive kernels, the tiled kernel and cuBLAS in their rows' colours (theme's kernel_curve_colour);
// blues getting darker with T, the darkest the tiled kernel's own.
constexpr ImU32 kNaiveColour = kernel_curve_colour(model::KernelKind::Naive);
constexpr ImU32 kNaiveRowColour = kernel_curve_colour(model::KernelKind::NaiveRowFromX);
constexpr ImU32 kTileColours[] = {IM_COL32(150, 190, 230, 255), IM_COL32(110, 165, 220, 255),
                                  IM_COL32(70, 140, 210, 255),  IM_COL32(40, 110, 190, 255),
                                  IM_COL32(25, 80, 160, 255),   kernel_curve_colour(model::KernelKind::Tiled)};
constexpr ImU32 kCublasColour = kernel_curve_colour(model::KernelKind::Cublas);
constexpr ImU32 kCpuColour = IM_COL32(150, 110, 40, 255);

struct SeriesSpec {
    model::KernelConfig kernel;
    std::string config;  // the measurement's name for it: "naive 32×32", "yours: mine.cu"
    std::string label;   // the legend's: "cuBLAS" for "cublas"
    ImU32 colour;
    std::optional<gpu::UserKernelSource> user{};  // your kernel's series
};

// The series the controls choose, in the ladder's order; kernels with no version for the
// chosen dtype are left out (the controls show the rungs disabled, with the reason): in bf16 and
// fp16 only the tensor-core rungs and cuBLAS, in the other types none of those rungs.
std::vector<SeriesSpec> series_specs(const LatencyControls& c) {
    std::vector<SeriesSpec> specs;
    const auto add = [&](model::KernelConfig kernel, ImU32 colour) {
        if (model::dtype_unsupported(kernel.kind, c.dtype)) return;
        const std::string config = model::describe(kernel);
        specs.push_back({kernel, config, config == "cublas" ? "cuBLAS" : config, colour});
    };
    add({model::KernelKind::Naive, c.naive_x, c.naive_y, 16}, kNaiveColour);
    add({model::KernelKind::NaiveRowFromX, c.naive_x, c.naive_y, 16}, kNaiveRowColour);
    for (int i = 0; i < 6; ++i)
        if (c.tiles[i]) add({model::KernelKind::Tiled, 16, 16, kSweptTiles[i]}, kTileColours[i]);
    const std::vector<model::RungInfo> rungs = model::lab_rungs();
    for (std::size_t i = 0; i < rungs.size() && i < c.rungs.size(); ++i)
        if (c.rungs[i]) add({rungs[i].kind, 16, 16, 16}, rung_curve_colour(rungs[i].colour));
    add({model::KernelKind::Cublas, 16, 16, 16}, kCublasColour);
    if (c.yours && c.dtype == model::Dtype::Float32 && c.batch == 1) {
        const std::string config = yours_config(c.yours->name);
        specs.push_back({{}, config, config, kYoursColour, c.yours});
    }
    return specs;
}

// "H200" for "NVIDIA H200": every GPU TileScope runs on is NVIDIA's, and the legend is narrow.
std::string short_gpu_name(std::string name) {
    if (name.starts_with("NVIDIA ")) name.erase(0, 7);
    return name;
}

// "H200, YYYY-MM-DD": a recorded series' tag in the legend, short enough for a projector.
std::string measurement_tag(const record::Measurement& measurement) {
    if (measurement.from_csv) return "from a CSV";
    return format_text("{}, {}", short_gpu_name(measurement.meta.device.name), measurement.meta.date_utc.substr(0, 10));
}

double flops(const record::Point& p) { return 2.0 * double(p.m) * double(p.n) * double(p.k) * double(p.batch); }

std::string point_note(const record::Point& p) {
    char text[64];
    std::snprintf(text, sizeof text, "%lld samples, noise %.1f %%",
                  static_cast<long long>(record::sample_count(p)), p.noise_pct);
    std::string note = text;
    // The clock it ran at: two points apart in time may be apart in clock too (the power cap).
    if (p.sm_clock_mhz) {
        note += format_text("\nSM {} MHz", *p.sm_clock_mhz);
        if (p.clock_limits && !p.clock_limits->empty()) note += ", held back by " + *p.clock_limits;
    }
    // On a GPU elsewhere or shared by several: where, how long it waited, and whether it had the GPU alone.
    if (p.gpu_host) note += "\non " + *p.gpu_host;
    if (p.gpu_wait_s && *p.gpu_wait_s >= 0.05) note += format_text("\nwaited {} s for the GPU", model::fixed(*p.gpu_wait_s, 1));
    if (p.gpu_shared && *p.gpu_shared) note += "\nGPU shared: " + p.gpu_shared_note.value_or("another process used it");
    if (!p.checked) return note + "\nnot checked";
    return note + (p.check_passed ? "\ncheck passed" : "\ncheck FAILED: " + p.check_summary);
}

// y of one point on the chosen axis, with its p20–p80 spread.
PlotPoint to_plot_point(const record::Point& p, LatencyAxis axis, const record::Point* naive) {
    const double x = static_cast<double>(p.m);
    switch (axis) {
        case LatencyAxis::LatencyLinear:
        case LatencyAxis::LatencyLog:
            return {x, p.median_ms, p.p20_ms, p.p80_ms, point_note(p)};
        case LatencyAxis::Gflops:
            // The slower samples give the lower rate.
            return {x, flops(p) / (p.median_ms * 1e6), flops(p) / (p.p80_ms * 1e6), flops(p) / (p.p20_ms * 1e6),
                    point_note(p)};
        case LatencyAxis::Speedup:
            if (!naive) return {x, kNaN, kNaN, kNaN, ""};
            return {x, naive->median_ms / p.median_ms, kNaN, kNaN,
                    format_text("{} over {}\n{}", p.config, naive->config, point_note(p))};
    }
    return {};
}

bool finite_point(const PlotPoint& p) { return std::isfinite(p.y); }

// The plot holds, per series, this session's live points drawn solid and the measurement's
// drawn faded beside them, so the lab is never an empty frame while a GPU measures:
// - A recorded point stays until a live point of the same kernel and size replaces it
//   (point by point, as lab_points does), so the faded curve keeps the sizes not yet
//   measured here and no size ever shows two values of one kernel. The faded line breaks
//   where a live point took over, rather than drawing a recorded slope straight through it.
// - With no live point at all (no GPU), the measurement is all there is: it is drawn solid,
//   still labelled with its GPU and date, as the brightest thing on a projector should be.
// Returns the live series' legend header ("live on H100"), empty when none is plotted.
std::string fill_plot(Plot& plot, const AppState& app) {
    const LabMeasurements& measured = app.lab.measured;
    const LatencyControls& c = app.lab.choices.latency;
    plot.x = {"matrix size M = N = K", "", AxisScale::Log2};
    switch (c.axis) {
        case LatencyAxis::LatencyLinear: plot.y = {"kernel latency (median)", "ms", AxisScale::Linear}; break;
        case LatencyAxis::LatencyLog: plot.y = {"kernel latency (median)", "ms", AxisScale::Log10}; break;
        case LatencyAxis::Gflops: plot.y = {"throughput", "GFLOP/s", AxisScale::Log10}; break;
        case LatencyAxis::Speedup: plot.y = {"speed-up over the naive kernel", "×", AxisScale::Linear}; break;
    }
    plot.export_path = "tilescope_latency";

    std::vector<const record::Point*> recorded;
    std::vector<const record::Point*> live;
    if (measured.measurement)
        for (const record::Point& p : measured.measurement->points) recorded.push_back(&p);
    for (const record::Point& p : measured.live_points) live.push_back(&p);
    const std::string dtype(model::dtype_name(c.dtype));
    const std::string naive_config = model::describe({model::KernelKind::Naive, c.naive_x, c.naive_y, 16});
    const std::string tag = measured.measurement ? measurement_tag(*measured.measurement) : "";

    std::vector<PlotSeries> live_series;
    std::vector<PlotSeries> recorded_series;
    PlotSeries failed{"check FAILED", colours::kError, {}, true, false, true};
    PlotSeries cpu{"CPU, one thread (i-j-k loop)", kCpuColour, {}};
    for (const SeriesSpec& spec : series_specs(c)) {
        if (c.axis == LatencyAxis::Speedup && spec.config == naive_config) continue;
        PlotSeries now{spec.label, spec.colour, {}};
        PlotSeries before{format_text("{} ({})", spec.label, tag), spec.colour, {}};
        for (int size : kSizes) {
            const record::Point* live_point = find_point(live, spec.config, size, dtype, c.batch);
            const record::Point* recorded_point = find_point(recorded, spec.config, size, dtype, c.batch);
            // A speed-up compares kernels measured on one GPU: live over live, recorded over recorded.
            if (live_point) {
                now.points.push_back(to_plot_point(*live_point, c.axis, find_point(live, naive_config, size, dtype, c.batch)));
                if (live_point->checked && !live_point->check_passed) failed.points.push_back(now.points.back());
            }
            if (!recorded_point) continue;
            if (live_point) {
                before.points.push_back({double(size), kNaN, kNaN, kNaN, ""});  // breaks the faded line
            } else {
                before.points.push_back(
                    to_plot_point(*recorded_point, c.axis, find_point(recorded, naive_config, size, dtype, c.batch)));
                if (recorded_point->checked && !recorded_point->check_passed) failed.points.push_back(before.points.back());
            }
            // The measurement's CPU time for this size, taken once, from whichever kernel has it.
            const record::Point* p = recorded_point;
            if (p->cpu_triple_loop_ms && cpu.points.size() < std::size(kSizes) &&
                (cpu.points.empty() || cpu.points.back().x < size) && c.axis != LatencyAxis::Speedup) {
                const double ms = *p->cpu_triple_loop_ms;
                const double y = c.axis == LatencyAxis::Gflops ? flops(*p) / (ms * 1e6) : ms;
                cpu.points.push_back({double(size), y, kNaN, kNaN, p->cpu_is_estimate.value_or(false)
                                                                       ? "estimated from " + p->cpu_estimated_from
                                                                       : "measured"});
            }
        }
        if (std::any_of(now.points.begin(), now.points.end(), finite_point)) live_series.push_back(std::move(now));
        if (std::any_of(before.points.begin(), before.points.end(), finite_point))
            recorded_series.push_back(std::move(before));
    }
    // The legend: recorded series under a header naming the measurement's GPU and date (each
    // name says it too, "tiled T=32 (H200, YYYY-MM-DD)", where the column is wide enough).
    // Once live points are in, one row per kernel, so that it fits beside the plot at
    // presenter sizes: the live series under a header naming this GPU, a kernel only
    // recorded so far under the measurement's; a recorded curve beside a live one of its
    // kernel shares that row's colour (and its show/hide click), and the last row says that
    // faded means recorded, and where and when.
    plot.faded_legend.clear();
    const std::string recorded_group =
        measured.measurement && !measured.measurement->from_csv ? "measured on " + tag : "from a CSV";
    for (PlotSeries& s : recorded_series) {
        s.legend_group = recorded_group;
        s.legend_name = s.name.substr(0, s.name.size() - tag.size() - 3);
    }
    if (!live_series.empty()) {
        const std::string live_group = app.device && app.device->usable
                                           ? "live on " + short_gpu_name(app.device->limits.name)
                                           : std::string("measured this session");
        for (PlotSeries& s : live_series) s.legend_group = live_group;
        for (PlotSeries& s : recorded_series) {
            s.faded = true;
            s.legend_group = recorded_group + " (faded)";
            s.in_legend = std::none_of(live_series.begin(), live_series.end(),
                                       [&](const PlotSeries& l) { return l.name == s.legend_name; });
        }
        if (!recorded_series.empty())
            plot.faded_legend = "faded: " + recorded_group;
    }
    const std::string live_group = live_series.empty() ? "" : live_series.front().legend_group;
    std::vector<PlotSeries> series = std::move(live_series);
    for (PlotSeries& s : recorded_series) series.push_back(std::move(s));
    // This session's CPU times replace the measurement's at the same size.
    for (const gpu::CpuTime& t : measured.cpu_times) {
        const model::Problem& p = t.problem;
        if (c.axis == LatencyAxis::Speedup || p.dtype != c.dtype || p.batch != c.batch || p.m != p.n || p.m != p.k)
            continue;
        const double size = double(p.m);
        std::erase_if(cpu.points, [size](const PlotPoint& q) { return q.x == size; });
        const double f = 2.0 * double(p.m) * double(p.n) * double(p.k) * double(p.batch);
        const double y = c.axis == LatencyAxis::Gflops ? f / (t.ms * 1e6) : t.ms;
        cpu.points.push_back({size, y, kNaN, kNaN,
                              t.estimate ? format_text("estimate, scaled from {}³ measured on this CPU", t.basis.m)
                                         : "measured on this CPU"});
    }
    std::sort(cpu.points.begin(), cpu.points.end(), [](const PlotPoint& a, const PlotPoint& b) { return a.x < b.x; });
    if (!cpu.points.empty()) series.push_back(std::move(cpu));
    if (!failed.points.empty()) series.push_back(std::move(failed));
    // Keep what the legend hid when the data is refreshed; a recorded curve without a row of
    // its own follows its kernel's live row.
    for (PlotSeries& s : series)
        for (const PlotSeries& old : plot.series)
            if (old.name == s.name) s.visible = old.visible;
    for (PlotSeries& s : series)
        if (!s.in_legend)
            for (const PlotSeries& live : series)
                if (live.in_legend && live.name == s.legend_name) s.visible = live.visible;
    plot.series = std::move(series);
    return live_group;
}

// How carefully a point is measured. A slider change must show its point at once (the
// issue asks for 150 ms at 2048³), so it first gets a quick preview: one warm-up and three
// timed launches, checked against the CPU reference only where that takes milliseconds. A
// full measurement (adaptive, checked) follows under its own key and replaces the preview.
// The first visit's quick sweep takes a third kind: adaptive within a quarter of a second,
// checked only where the CPU reference is quick, as the tuning grid's sweep.
enum class Care { Preview, Full, Quick };

gpu::RunRequest measure_request(const SeriesSpec& spec, const LatencyControls& c, int size, Care care) {
    gpu::RunRequest request;
    request.kernel = spec.kernel;
    request.user = spec.user;
    request.problem.m = request.problem.n = request.problem.k = size;
    request.problem.batch = c.batch;
    request.problem.dtype = c.dtype;
    if (care == Care::Preview) {
        request.warmup_launches = 1;
        request.timed_launches = 3;
        request.check = size <= 512;
    } else if (care == Care::Quick) {
        request.adaptive = true;
        request.budget_s = 0.25;
        request.min_time_s = 0.1;
        request.check = size <= 1024;
    } else {
        request.adaptive = true;
        request.budget_s = 1.0;
    }
    return request;
}

// The requests of the plotted series that failed, as marks on the plot's bottom edge
// (PlotFailure); `failed` receives each one's failure, in the same order, for a click to
// measure it again.
void fill_failures(Plot& plot, const AppState& app, std::vector<Failure>& failed) {
    const LatencyControls& c = app.lab.choices.latency;
    const bool gpu = app.device && app.device->usable;
    const auto points = lab_points(app.lab.measured);
    const std::string naive_config = model::describe({model::KernelKind::Naive, c.naive_x, c.naive_y, 16});
    plot.failures.clear();
    for (const SeriesSpec& spec : series_specs(c)) {
        if (c.axis == LatencyAxis::Speedup && spec.config == naive_config) continue;
        for (int size : kSizes)
            if (auto failure = failure_at(app.lab.measured, points, measure_request(spec, c, size, Care::Full))) {
                plot.failures.push_back({double(size), spec.label, spec.colour, failure_tooltip(*failure, gpu)});
                failed.push_back(std::move(*failure));
            }
    }
}

// Checkboxes in rows as wide as the panel: the ladder's names do not fit in one.
class CheckboxFlow {
public:
    bool checkbox(const char* label, bool* value) {
        const ImGuiStyle& style = ImGui::GetStyle();
        const float width = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
        if (m_count++ > 0) {
            ImGui::SameLine();
            if (ImGui::GetCursorPosX() + width > ImGui::GetContentRegionMax().x) ImGui::NewLine();
        }
        return ImGui::Checkbox(label, value);
    }

private:
    int m_count = 0;
};

bool size_combo(const char* label, int& value) {
    bool changed = false;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.0f);
    if (ImGui::BeginCombo(label, std::to_string(value).c_str())) {
        for (int size : kSizes)
            if (ImGui::Selectable(std::to_string(size).c_str(), size == value)) {
                value = size;
                changed = true;
            }
        ImGui::EndCombo();
    }
    return changed;
}

}  // namespace

std::vector<gpu::RunRequest> first_visit_requests(const LatencyControls& controls) {
    // Size by size, every series at each, so the curves grow from the left together.
    std::vector<gpu::RunRequest> requests;
    for (int size : kQuickSweepSizes)
        for (const SeriesSpec& spec : series_specs(controls))
            requests.push_back(measure_request(spec, controls, size, Care::Quick));
    return requests;
}

void start_first_visit_sweep(LabMeasurements& measured, const AppState& app) {
    if (!measured.first_visit.due || !plots_measurements(app.view) || !app.device) return;
    if (!app.device->usable) {
        pass_over_first_visit_sweep(measured, app.device->why_not);
        return;
    }
    // A sweep already under way was asked for (--run in the tuning view, a button): keep it.
    if (measured.sweep.active()) {
        pass_over_first_visit_sweep(measured, "another sweep was already measuring");
        return;
    }
    start_sweep(measured, first_visit_requests(app.lab.choices.latency));
    measured.sweep.first_visit = true;
    measured.first_visit = {false, ""};
}

std::vector<std::string> shown_rung_names(const LatencyControls& controls) {
    std::vector<std::string> names;
    const std::vector<model::RungInfo> rungs = model::lab_rungs();
    for (std::size_t i = 0; i < rungs.size() && i < controls.rungs.size(); ++i)
        if (controls.rungs[i]) names.emplace_back(rungs[i].name);
    return names;
}

void show_rungs(LatencyControls& controls, const std::vector<std::string>& names) {
    const std::vector<model::RungInfo> rungs = model::lab_rungs();
    controls.rungs.assign(rungs.size(), false);
    for (std::size_t i = 0; i < rungs.size(); ++i)
        controls.rungs[i] = std::find(names.begin(), names.end(), rungs[i].name) != names.end();
}

void measure_latency_now(LabState& lab) {
    const std::vector<SeriesSpec> specs = series_specs(lab.choices.latency);
    for (const SeriesSpec& spec : specs)
        request_live(lab.measured, format_text("latency/preview/{}", spec.config),
                     measure_request(spec, lab.choices.latency, lab.choices.latency.size, Care::Preview));
    for (const SeriesSpec& spec : specs)
        request_live(lab.measured, format_text("latency/full/{}", spec.config),
                     measure_request(spec, lab.choices.latency, lab.choices.latency.size, Care::Full));
}

void draw_latency_controls(LabState& lab, const AppState& app) {
    LatencyControls& c = lab.choices.latency;
    heading("Latency against size");
    bool changed = false;

    ImGui::TextUnformatted("y axis");
    int axis = static_cast<int>(c.axis);
    ImGui::RadioButton("latency (linear)", &axis, 0);
    ImGui::SameLine();
    ImGui::RadioButton("latency (log)", &axis, 1);
    ImGui::RadioButton("GFLOP/s", &axis, 2);
    ImGui::SameLine();
    ImGui::RadioButton("speed-up over naive", &axis, 3);
    c.axis = static_cast<LatencyAxis>(axis);

    ImGui::TextUnformatted("naive block shape");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
    changed |= ImGui::InputInt("block x", &c.naive_x, 8, 32);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
    changed |= ImGui::InputInt("block y", &c.naive_y, 1, 8);
    c.naive_x = std::clamp(c.naive_x, 1, 1024);
    c.naive_y = std::clamp(c.naive_y, 1, 1024);

    if (c.yours) {
        bool shown = true;
        const std::string label = yours_config(c.yours->name) + " (float, batch 1)";
        if (ImGui::Checkbox(label.c_str(), &shown) && !shown) c.yours.reset();
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Your kernel from the editor (Ctrl+8), as it was when you plotted it");
    }
    ImGui::TextUnformatted("tiled kernel, T =");
    for (int i = 0; i < 6; ++i) {
        if (i > 0) ImGui::SameLine();
        changed |= ImGui::Checkbox(std::to_string(kSweptTiles[i]).c_str(), &c.tiles[i]);
    }
    bool disabled = false;  // some rungs have no version for this dtype
    const std::vector<model::RungInfo> rungs = model::lab_rungs();
    c.rungs.resize(rungs.size(), false);
    const auto rung_checkboxes = [&](const char* title, model::Ladder ladder) {
        ImGui::TextUnformatted(title);
        CheckboxFlow flow;
        for (std::size_t i = 0; i < rungs.size(); ++i) {
            if (rungs[i].ladder != ladder) continue;
            const auto why_not = model::dtype_unsupported(rungs[i].kind, c.dtype);
            ImGui::BeginDisabled(why_not.has_value());
            bool shown = c.rungs[i];
            changed |= flow.checkbox(std::string(rungs[i].name).c_str(), &shown);
            c.rungs[i] = shown;
            ImGui::EndDisabled();
            if (why_not && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
                ImGui::SetTooltip("%s", why_not->c_str());
            disabled |= why_not.has_value();
        }
    };
    rung_checkboxes("kernel ladder, rungs", model::Ladder::Fp32);
    rung_checkboxes("tensor cores, rungs", model::Ladder::TensorCores);
    if (disabled)
        muted_text(model::is_fp8(c.dtype)
                       ? "fp8 (e4m3 in, C = A·Bᵀ in BF16, one scale per matrix) runs on cuBLAS alone so far."
                   : model::is_half_precision(c.dtype)
                       ? "bf16 and fp16 run on the tensor-core rungs and cuBLAS only: choose float for the CUDA-core "
                         "kernels."
                       : "The tensor-core rungs take bf16 or fp16, and from vectorized on the FP32 rungs are float only "
                         "(four floats per 128-bit load): choose the dtype to measure or plot them.");
    int dtype = static_cast<int>(c.dtype);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
    // In model::Dtype's order: the index is the enum's value.
    changed |= ImGui::Combo("dtype", &dtype, "int32\0float\0double\0bf16\0fp16\0fp8\0");
    c.dtype = static_cast<model::Dtype>(dtype);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
    changed |= ImGui::InputInt("batch", &c.batch, 1, 4);
    c.batch = std::clamp(c.batch, 1, 64);

    ImGui::Spacing();
    const bool gpu = app.device && app.device->usable;
    if (!gpu) {
        // The lab's panel says why above (draw_source); here only what it means for these buttons.
        muted_text(app.device ? "Measure and Sweep need a usable CUDA GPU: the curves come from the measurement."
                                : "probing for a CUDA GPU…");
        return;
    }
    changed |= size_combo("size", c.size);
    ImGui::SameLine();
    if (ImGui::Button("Measure")) changed = true;
    ImGui::SameLine();
    // The triple loop takes seconds, so it runs on a thread of its own (start_cpu_time).
    if (lab.measured.cpu_running.valid()) {
        muted_text("timing the CPU…");
    } else if (ImGui::Button("CPU (one thread)")) {
        start_cpu_time(lab.measured, {c.size, c.size, c.size, c.batch, c.dtype});
    }
    // Every change measures the chosen size at once; submit_live drops what is now stale.
    if (changed) measure_latency_now(lab);

    size_combo("sweep from", c.sweep_from);
    ImGui::SameLine();
    size_combo("to", c.sweep_to);
    // The first visit's sweep shows its progress in the lab's panel (lab_view.cxx); this
    // button replaces it with the chosen range.
    if (lab.measured.sweep.active() && !lab.measured.sweep.first_visit) {
        const float fraction = float(lab.measured.sweep.done) / float(lab.measured.sweep.total);
        ImGui::ProgressBar(fraction, ImVec2(ImGui::GetFontSize() * 12.0f, 0),
                           format_text("{} of {}", lab.measured.sweep.done, lab.measured.sweep.total).c_str());
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) cancel_sweep(lab.measured);
    } else if (ImGui::Button("Sweep the sizes")) {
        std::vector<gpu::RunRequest> requests;
        for (int size : kSizes)
            if (size >= c.sweep_from && size <= c.sweep_to)
                for (const SeriesSpec& spec : series_specs(c))
                    requests.push_back(measure_request(spec, c, size, Care::Full));
        start_sweep(lab.measured, std::move(requests));
    }
    if (lab.measured.in_flight > 0)
        muted_text(format_text("{} running…", model::counted(lab.measured.in_flight, "measurement")));
    if (!lab.measured.last_error.empty()) coloured_text_wrapped(colours::kError, lab.measured.last_error.c_str());
}

void draw_latency_plot(LabState& lab, const AppState& app, ImVec2 size) {
    poll_cpu_time(lab.measured);
    const std::string live = fill_plot(lab.choices.latency_plot, app);
    std::vector<Failure> failed;
    fill_failures(lab.choices.latency_plot, app, failed);
    // Where the curves come from, in words, above them: the legend's headers say it again.
    const auto& series = lab.choices.latency_plot.series;
    const bool faded = std::any_of(series.begin(), series.end(), [](const PlotSeries& s) { return s.faded; });
    const float top = ImGui::GetCursorPosY();
    if (!live.empty() && faded)
        muted_text(
            format_text("Solid: {}. Faded: {}, at sizes not yet measured here.", live, lab.measured.measurement_label));
    else if (!live.empty())
        muted_text(format_text("Solid: {}. Hover a point for its exact values.", live));
    else if (lab.measured.measurement)
        muted_text(lab.measured.measurement_label + ". Hover a point for its exact values.");
    size.y -= ImGui::GetCursorPosY() - top;
    if (lab.choices.latency_plot.series.empty() && failed.empty()) {
        muted_text(measurement_loading(lab.measured)
                       ? "Loading measurements…"
                       : "No points for this choice yet: pick float and batch 1 to see the measurement, or measure on a GPU.");
        return;
    }
    const PlotFrame frame = draw_plot("##latency", lab.choices.latency_plot, size);
    if (frame.clicked_failure && app.device && app.device->usable)
        measure_again(lab.measured, failed[static_cast<std::size_t>(*frame.clicked_failure)]);
}

}  // namespace ts::views
