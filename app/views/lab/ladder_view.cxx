// ladder_view.cxx — the kernel ladder view (--view ladder): the FP32 ladder and the tensor
// cores' ladder as bars of measured speed against cuBLAS, with the model's counts beside them.
// In order: text and colour helpers; registers and occupancy (fill_occupancy); the hovers
// (rung_hover, cublas_hover); the sizes, the bars' data (ladder_data) and the requests that
// measure them (ladder_requests); the side panel (draw_ladder_controls); the bars' scale that
// leaves their labels room (longest_bar_fitting_labels); one ladder's bars (draw_ladder_panel);
// the view with both (draw_ladder_view).
#include "views/lab/ladder_view.hpp"

#include "views/lab/lab_view.hpp"

#include <algorithm>
#include <limits>
#include <cfloat>
#include <cmath>
#include <span>
#include <variant>

#include "gpu/tuned_shapes.hpp"
#include "model/format.hpp"
#include "model/ladder.hpp"
#include "model/occupancy.hpp"
#include "views/lab/occupancy_panel.hpp"
#include "platform/imgui_compat.hpp"
#include "views/common/scroll_keys.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/window/shortcuts.hpp"

namespace ts::views {

using model::fixed;
using model::format_text;

namespace {

constexpr int kStandardSizes[] = {128, 256, 512, 1024, 2048, 4096};
bool usable_gpu(const AppState& app) { return app.device && app.device->usable; }

// The GPU the points were measured on: this one when live, else the measurement's.
std::string gpu_name(const AppState& app) {
    if (usable_gpu(app)) return app.device->limits.name;
    if (app.lab.measured.measurement) return app.lab.measured.measurement->meta.device.name;
    return "";
}

model::Dtype dtype_of(Ladder ladder) { return ladder == Ladder::Fp32 ? model::Dtype::Float32 : model::Dtype::BFloat16; }
std::vector<model::LadderRung> rungs_of(Ladder ladder) { return model::ladder_rungs(ladder); }
std::string dtype_name_of(Ladder ladder) { return std::string(model::dtype_name(dtype_of(ladder))); }

bool is_rung_config(const std::string& config, Ladder ladder) {
    if (config == kCublasConfig) return true;
    const auto rungs = rungs_of(ladder);
    return std::any_of(rungs.begin(), rungs.end(),
                       [&](const model::LadderRung& r) { return model::describe(r.kernel) == config; });
}

model::Problem square(int size, Ladder ladder) {
    model::Problem problem;
    problem.m = problem.n = problem.k = size;
    problem.dtype = dtype_of(ladder);
    return problem;
}

// A rung's own problem: the ladder's type, or for the FP8 rungs atop the tensor-core ladder e4m3
// with the scales the rung is written for. Their bars are a percentage of cuBLAS in the ladder's
// type, BF16: what eight bits buy over the best 16-bit line.
model::Problem rung_square(int size, Ladder ladder, model::KernelKind kind) {
    model::Problem problem = square(size, ladder);
    if (const auto scaling = model::fp8_rung_scaling(kind)) {
        problem.dtype = model::Dtype::Fp8E4M3;
        problem.fp8_scaling = *scaling;
    }
    return problem;
}

// 1234567890 → "1.23 G", 805306368 → "805 M": counts of elements to three digits, read aloud.
std::string count_text(std::int64_t count) {
    const double v = static_cast<double>(count);
    const auto three_digits = [](double x, const char* unit) {
        return fixed(x, x >= 100 ? 0 : x >= 10 ? 1 : 2) + " " + unit;
    };
    if (v >= 1e9) return three_digits(v / 1e9, "G");
    if (v >= 1e6) return three_digits(v / 1e6, "M");
    if (v >= 1e3) return three_digits(v / 1e3, "k");
    return std::to_string(count);
}

std::string gflops_text(double gflops) { return grouped(std::llround(gflops)); }
// The tensor-core ladder counts in TFLOP/s: "612", "48.3".
std::string tflops_text(double gflops) { return fixed(gflops / 1000.0, gflops >= 100000.0 ? 0 : 1); }
// The number alone, in the ladder's unit.
std::string rate_number(Ladder ladder, double gflops) {
    return ladder == Ladder::Fp32 ? gflops_text(gflops) : tflops_text(gflops);
}
std::string rate_text(Ladder ladder, double gflops) {
    return rate_number(ladder, gflops) + (ladder == Ladder::Fp32 ? " GFLOP/s" : " TFLOP/s");
}

// Black on the light bars, white on the dark ones (by luminance), so a label inside reads.
ImU32 ink_on(ImU32 fill) {
    const ImVec4 c = ImGui::ColorConvertU32ToFloat4(fill);
    return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z > 0.5f ? IM_COL32(20, 20, 20, 255) : IM_COL32_WHITE;
}

// A tuned rung (12, 19) runs the candidate its tuning table picks for the GPU and size; the
// measured point says which ran where it was recorded (record::Point::ran_candidate), and CUDA's
// answer, when a live result brought one; else the table says what it would pick today.
// `guessed` says when the table answered for a measured point (a measurement made before points kept
// their candidate).
model::KernelConfig resolved_kernel(const AppState& app, const model::KernelConfig& kernel,
                                    const model::Problem& problem, const record::Point* point, bool& guessed) {
    guessed = false;
    if (!model::is_tuned(kernel.kind) || kernel.variant >= 0) return kernel;
    model::KernelConfig resolved = kernel;
    const auto compiled = app.lab.panels.compiled_kernels.find(compiled_key(kernel, problem));
    if (point && point->ran_candidate && *point->ran_candidate >= 0 &&
        *point->ran_candidate < model::tuned_candidate_count(kernel.kind))
        resolved.variant = *point->ran_candidate;
    else if (compiled != app.lab.panels.compiled_kernels.end() && compiled->second.tuned_variant >= 0)
        resolved.variant = compiled->second.tuned_variant;
    else {
        resolved.variant = gpu::choose_tuned_variant(kernel.kind, gpu_name(app), problem).variant;
        guessed = point != nullptr;
    }
    return resolved;
}

void fill_occupancy(const AppState& app, const model::KernelConfig& asked, const model::Problem& problem,
                    LadderBar& bar) {
    const CompiledKernel* compiled = nullptr;
    if (usable_gpu(app)) {
        const auto found = app.lab.panels.compiled_kernels.find(compiled_key(asked, problem));
        if (found != app.lab.panels.compiled_kernels.end()) compiled = &found->second;
    }
    const auto occupancy =
        model::kernel_occupancy(bar.kernel, problem, occupancy_limits(app),
                                compiled ? std::optional<int>(compiled->occupancy.registers_per_thread) : std::nullopt);
    if (const auto* why = std::get_if<std::string>(&occupancy)) {
        bar.registers_text = bar.occupancy_text = "?";
        bar.occupancy_note = *why;
        return;
    }
    const model::Occupancy& o = std::get<model::Occupancy>(occupancy);
    bar.registers = o.block.registers_per_thread;
    bar.from_compiled = o.block.registers_measured;
    bar.occupancy = o.occupancy;
    // "~" marks the model's estimate, as a number read aloud would be qualified.
    const std::string mark = bar.from_compiled ? "" : "~";
    bar.registers_text = mark + std::to_string(bar.registers);
    bar.occupancy_text = mark + fixed(o.occupancy * 100.0, 0) + " %";
}

std::string rung_hover(const model::LadderRung& rung, const LadderBar& bar, const LadderBar* below, int size,
                       const std::string& tuned_note, Ladder ladder) {
    std::string text = format_text("{}  (kernels/{})\n{}\n", bar.name, rung.file, rung.change);
    if (!tuned_note.empty()) text += tuned_note + "\n";
    text += "\n";
    if (bar.point)
        text += format_text("Measured at {}³: {}{}, median {} ms.\n", size, rate_text(ladder, bar.gflops),
                            bar.percent_of_cublas > 0 ? format_text(", {} % of cuBLAS", fixed(bar.percent_of_cublas, 1))
                                                      : std::string(),
                            fixed(bar.point->median_ms, 3));
    else
        text += format_text("Not measured at {}³.\n", size);
    const model::RungCounts& c = bar.counts;
    if (ladder == Ladder::TensorCores) {
        const model::TcBlockTile t = model::tc_block_tile(bar.kernel);
        text += format_text("The model's counts: {}×{} block tiles{}, {} elements of A and B read from global memory, "
                            "{} FLOP/B; {} threads and {} KiB of shared memory a block.",
                            t.bm, t.bn, t.cluster_m > 1 ? format_text(" in clusters of {} sharing B", t.cluster_m) : "",
                            count_text(c.global_loads), fixed(c.intensity, 1), t.threads, fixed(t.shared_bytes / 1024.0, 1));
        if (below) {
            const double predicted = model::predicted_traffic_speedup(below->counts, c);
            text += format_text("\nPredicted from the counts, were global traffic the limit: {}× over {} ({} → {} "
                                "FLOP/B).",
                                fixed(predicted, 2), below->name, fixed(below->counts.intensity, 1), fixed(c.intensity, 1));
            if (bar.point && below->point && below->gflops > 0)
                text += format_text("\nMeasured: {}× over {}.{}", fixed(bar.gflops / below->gflops, 2), below->name,
                                    std::abs(bar.gflops / below->gflops - predicted) > 0.15 * predicted
                                        ? " Where the two part, the change was about waiting and overlap, which the "
                                          "counts cannot see (the theatre's Stages tab shows it)."
                                        : "");
        }
        return text;
    }
    if (!below) {
        text += format_text("The model's counts: {} shared loads per FMA, {} global loads, {} FLOP/B.\n",
                            fixed(c.shared_loads_per_fma, 2), count_text(c.global_loads), fixed(c.intensity, 1));
        text += "The rungs above predict their speed-up from these counts, one issue slot per FMA and per load "
                "instruction; where the measured speed-up parts from it, something the counts leave out (bank "
                "conflicts, waiting on memory) is at work.";
        return text;
    }
    const model::RungCounts& b = below->counts;
    text += format_text("The model's counts (below: {}): {} shared loads per FMA ({}), {} global loads ({}), {} FLOP/B ({}).\n",
                        below->name, fixed(c.shared_loads_per_fma, 2), fixed(b.shared_loads_per_fma, 2),
                        count_text(c.global_loads), count_text(b.global_loads), fixed(c.intensity, 1),
                        fixed(b.intensity, 1));
    text += format_text("Predicted from the counts: {}× over {} (load instructions per FMA {} → {}).\n",
                        fixed(model::predicted_speedup(b, c), 2), below->name, fixed(b.load_instructions_per_fma, 3),
                        fixed(c.load_instructions_per_fma, 3));
    if (bar.point && below->point && below->gflops > 0)
        text += format_text("Measured: {}× over {}.", fixed(bar.gflops / below->gflops, 2), below->name);
    else
        text += "Measured: not both measured at this size.";
    return text;
}

std::string cublas_hover(const LadderBar& bar, const LadderBar* best, int size, Ladder ladder) {
    std::string text =
        ladder == Ladder::Fp32
            ? "cuBLAS SGEMM (pure FP32, no tensor cores): NVIDIA's kernels, chosen at run time. The reference every "
              "other bar is a percentage of; the model counts nothing inside it.\n\n"
            : "cuBLAS's BF16 GEMM (cublasGemmEx: BF16 in, FP32 sums, BF16 out, tensor cores): NVIDIA's kernels, "
              "chosen at run time. The reference the tensor-core bars are a percentage of.\n\n";
    if (!bar.point) return text + format_text("Not measured at {}³.", size);
    text += format_text("Measured at {}³: {}, median {} ms.", size, rate_text(ladder, bar.gflops),
                        fixed(bar.point->median_ms, 3));
    if (best && best->point)
        text += format_text("\nThe {} rung reaches {} % of it.", best->config, fixed(best->percent_of_cublas, 1));
    return text;
}

// On a GPU, asks CUDA once per rung and size about the compiled kernel: registers and blocks
// per SM. Nothing is launched.
void ask_for_compiled_kernels(LabState& lab, int size) {
    for (Ladder ladder : {Ladder::Fp32, Ladder::TensorCores}) {
        for (const model::LadderRung& rung : rungs_of(ladder)) {
            const model::Problem problem = rung_square(size, ladder, rung.kernel.kind);
            const std::string key = compiled_key(rung.kernel, problem);
            if (lab.panels.compiled_kernels.count(key) ||
                std::find(lab.panels.compiled_requested.begin(), lab.panels.compiled_requested.end(), key) !=
                    lab.panels.compiled_requested.end())
                continue;
            gpu::RunRequest request;
            request.kind = gpu::RequestKind::Occupancy;
            request.kernel = rung.kernel;
            request.problem = problem;
            request_live(lab.measured, "ladder-occupancy/" + key, request);
            lab.panels.compiled_requested.push_back(key);
        }
    }
}

// The bar's energy from its point, and against cuBLAS's where both have one.
void fill_energy(LadderBar& bar, const record::Point* cublas) {
    if (!bar.point || !bar.point->tflop_per_j) return;
    bar.tflop_per_j = *bar.point->tflop_per_j;
    if (cublas && cublas->tflop_per_j && *cublas->tflop_per_j > 0)
        bar.energy_percent_of_cublas = 100.0 * bar.tflop_per_j / *cublas->tflop_per_j;
}

// The tooltip's energy line, where the point has one.
std::string energy_hover(const LadderBar& bar) {
    if (!bar.point || !bar.point->joules_per_matmul) return {};
    const record::Point& p = *bar.point;
    // How it was measured follows: the launches, the counter's steps, and by how much a short phase may be off.
    return format_text("\nEnergy: {} per matmul, {} TFLOP/J, {} W{}. {}.", model::human_joules(*p.joules_per_matmul),
                       fixed(p.tflop_per_j.value_or(0.0), 3), fixed(p.avg_watts.value_or(0.0), 0),
                       p.energy_sm_clock_mhz && *p.energy_sm_clock_mhz > 0
                           ? format_text(" at SM {} MHz", *p.energy_sm_clock_mhz)
                           : std::string(),
                       p.energy_note.value_or("Launches back to back, NVML's energy counter"));
}

}  // namespace

bool draw_metric_choice(LadderMetric& metric) {
    bool changed = false;
    ImGui::TextUnformatted("bars:");
    ImGui::SameLine();
    if (ImGui::RadioButton("speed", metric == LadderMetric::Speed)) {
        changed = metric != LadderMetric::Speed;
        metric = LadderMetric::Speed;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("FLOPs per second, from the median time of the cold samples.");
    ImGui::SameLine();
    if (ImGui::RadioButton("energy", metric == LadderMetric::Energy)) {
        changed = metric != LadderMetric::Energy;
        metric = LadderMetric::Energy;
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("FLOPs per joule (TFLOP/J): the work one joule buys, from NVML's energy counter read "
                          "around launches back to back. Higher is better, as with speed.");
    return changed;
}

ImU32 ladder_colour(model::KernelKind kind) {
    const model::RungInfo* row = model::find_rung(kind);
    return row ? rung_bar_colour(*row) : rung_curve_colour(model::RungColour::None);
}

std::vector<int> ladder_sizes(const LabState& lab) {
    std::vector<int> sizes;
    const auto on_a_ladder = [](const record::Point& p) {
        for (Ladder ladder : {Ladder::Fp32, Ladder::TensorCores})
            if ((p.dtype == dtype_name_of(ladder) || p.dtype == "fp8") && is_rung_config(p.config, ladder)) return true;
        return false;
    };
    for (const record::Point* p : lab_points(lab.measured))
        if (p->ok && p->batch == 1 && p->mode == "cold" && p->m == p->n && p->m == p->k && on_a_ladder(*p))
            sizes.push_back(static_cast<int>(p->m));
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

int default_ladder_size(const LabState& lab) {
    const std::vector<int> sizes = ladder_sizes(lab);
    if (sizes.empty()) return 4096;
    const auto points = lab_points(lab.measured);
    for (auto size = sizes.rbegin(); size != sizes.rend(); ++size) {
        bool full = find_point(points, kCublasConfig, *size, "float") != nullptr;
        for (const model::LadderRung& rung : model::ladder_rungs())
            full = full && find_point(points, model::describe(rung.kernel), *size, "float");
        if (full) return *size;
    }
    return sizes.back();
}

int shown_ladder_size(const LabState& lab) {
    return lab.choices.ladder_size > 0 ? lab.choices.ladder_size : default_ladder_size(lab);
}

LadderData ladder_data(const AppState& app, int size, Ladder ladder) {
    const LabState& lab = app.lab;
    LadderData data;
    data.ladder = ladder;
    data.dtype = dtype_name_of(ladder);
    data.size = size > 0 ? size : shown_ladder_size(lab);
    data.sizes = ladder_sizes(lab);
    data.limits_name = occupancy_limits(app).name;
    const auto points = lab_points(lab.measured);

    const record::Point* cublas = find_point(points, kCublasConfig, data.size, data.dtype);
    const auto rungs = rungs_of(ladder);
    for (const model::LadderRung& rung : rungs) {
        LadderBar bar;
        const model::Problem rung_problem = rung_square(data.size, ladder, rung.kernel.kind);
        bar.config = model::describe(rung.kernel);
        bar.point = find_point(points, bar.config, data.size, model::dtype_name(rung_problem.dtype));
        bar.kernel = resolved_kernel(app, rung.kernel, rung_problem, bar.point, bar.candidate_guessed);
        bar.name = model::is_tuned(rung.kernel.kind)
                       ? format_text("{} (#{})", model::kernel_name(rung.kernel.kind), bar.kernel.variant)
                       : bar.config;
        bar.colour = ladder_colour(rung.kernel.kind);
        if (bar.point) bar.gflops = bar.point->gflops;
        if (bar.point && cublas && cublas->gflops > 0) bar.percent_of_cublas = 100.0 * bar.gflops / cublas->gflops;
        fill_energy(bar, cublas);
        bar.counts = model::rung_counts(bar.kernel, rung_problem);
        fill_occupancy(app, rung.kernel, rung_problem, bar);
        data.estimates = data.estimates || !bar.from_compiled;
        data.bars.push_back(std::move(bar));
    }
    for (std::size_t i = 0; i < rungs.size(); ++i) {
        LadderBar& bar = data.bars[i];
        std::string tuned_note;
        if (model::is_tuned(rungs[i].kernel.kind))
            tuned_note = format_text("At {}³ it runs candidate #{}: {}.", data.size, bar.kernel.variant,
                                     model::describe_candidate(bar.kernel.kind, bar.kernel.variant));
        if (bar.candidate_guessed)
            tuned_note += format_text(" The measurement does not say which candidate ran (it was made before points "
                                      "kept it): #{} is what today's table picks for {}, and a table that changed "
                                      "since may have picked another then.",
                                      bar.kernel.variant, gpu_name(app));
        bar.hover = rung_hover(rungs[i], bar, i > 0 ? &data.bars[i - 1] : nullptr, data.size, tuned_note, ladder);
        if (const auto scaling = model::fp8_rung_scaling(rungs[i].kernel.kind))
            bar.hover += format_text("\nIn fp8: e4m3 inputs with {} scales, C = A·Bᵀ in BF16; its % is of cuBLAS in "
                                     "BF16, the ladder's reference.",
                                     model::fp8_scaling_name(*scaling));
        if (!bar.occupancy_note.empty()) bar.hover += "\nOccupancy: " + bar.occupancy_note;
        bar.hover += energy_hover(bar);
    }

    // Your kernel, when the latency view plots it: measured beside the FP32 rungs, unknown to the model.
    if (ladder == Ladder::Fp32 && lab.choices.latency.yours) {
        LadderBar yours;
        yours.is_yours = true;
        yours.config = yours.name = yours_config(lab.choices.latency.yours->name);
        yours.colour = kYoursColour;
        yours.point = find_point(points, yours.config, data.size, data.dtype);
        if (yours.point) yours.gflops = yours.point->gflops;
        if (yours.point && cublas && cublas->gflops > 0) yours.percent_of_cublas = 100.0 * yours.gflops / cublas->gflops;
        fill_energy(yours, cublas);
        yours.registers_text = yours.occupancy_text = "–";
        yours.hover = format_text("Your kernel from the editor (Ctrl+8), as it was when you plotted it beside the rungs: "
                                  "{}. The model does not know its code, so it has no counts here; Record in the editor "
                                  "counts its loads on the GPU.",
                                  yours.point ? format_text("{} at {}³", rate_text(ladder, yours.gflops), data.size)
                                              : format_text("not measured at {}³ yet", data.size));
        data.bars.push_back(std::move(yours));
    }

    LadderBar reference;
    reference.name = ladder == Ladder::Fp32 ? "cuBLAS" : "cuBLAS BF16";
    reference.config = kCublasConfig;
    reference.kernel.kind = model::KernelKind::Cublas;
    reference.is_cublas = true;
    reference.colour = ladder_colour(model::KernelKind::Cublas);
    reference.point = cublas;
    if (cublas) {
        reference.gflops = cublas->gflops;
        reference.percent_of_cublas = 100.0;
    }
    fill_energy(reference, cublas);
    reference.registers_text = "–";
    reference.occupancy_text = "–";
    // Its hover names the best rung in its own type (tc-tuned, under the FP8 rungs).
    const auto same_type = std::find_if(data.bars.rbegin(), data.bars.rend(), [](const LadderBar& bar) {
        return bar.is_yours || !model::fp8_rung_scaling(bar.kernel.kind);
    });
    reference.hover = cublas_hover(reference, same_type == data.bars.rend() ? nullptr : &*same_type, data.size, ladder) +
                      energy_hover(reference);
    data.bars.push_back(std::move(reference));
    return data;
}

std::vector<gpu::RunRequest> ladder_requests(int size, Ladder ladder, const std::optional<gpu::UserKernelSource>& yours) {
    std::vector<gpu::RunRequest> requests;
    const auto add = [&](const model::KernelConfig& kernel) {
        gpu::RunRequest request;
        request.kernel = kernel;
        request.problem = rung_square(size, ladder, kernel.kind);
        // As the latency view's full measurements; the CPU reference check only where it
        // takes well under a second.
        request.adaptive = true;
        request.budget_s = 1.0;
        request.check = size <= 1024;
        // Joules per matmul too, for the bars' energy choice: 3 s a rung, where 100 of the energy
        // counter's steps (about 11 s on an H100) would keep the sweep waiting minutes. Each bar's
        // tooltip then says by how much its energy may be off.
        request.energy = true;
        request.energy_max_s = 3.0;
        requests.push_back(request);
    };
    for (const model::LadderRung& rung : rungs_of(ladder)) add(rung.kernel);
    if (yours && ladder == Ladder::Fp32) {
        add({});
        requests.back().user = yours;
    }
    model::KernelConfig cublas;
    cublas.kind = model::KernelKind::Cublas;
    add(cublas);
    return requests;
}

std::vector<gpu::RunRequest> both_ladders_requests(int size, const std::optional<gpu::UserKernelSource>& yours) {
    std::vector<gpu::RunRequest> requests = ladder_requests(size, Ladder::Fp32, yours);
    const std::vector<gpu::RunRequest> tensor_cores = ladder_requests(size, Ladder::TensorCores);
    requests.insert(requests.end(), tensor_cores.begin(), tensor_cores.end());
    return requests;
}

void draw_ladder_controls(LabState& lab, const AppState& app) {
    heading("The kernel ladders");
    const bool gpu = usable_gpu(app);
    // The sizes that have points; on a GPU also those it can measure now.
    std::vector<int> sizes = ladder_sizes(lab);
    if (gpu) sizes.insert(sizes.end(), std::begin(kStandardSizes), std::end(kStandardSizes));
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    int shown = shown_ladder_size(lab);
    draw_metric_choice(lab.choices.metric);
    ImGui::TextUnformatted("size (M = N = K)");
    if (sizes.empty()) muted_text("no points of the ladder in this measurement");
    const float right_edge = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const std::string label = std::to_string(sizes[i]);
        // Wrap the row of choices where the panel ends (large text).
        const float width = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label.c_str()).x;
        if (i > 0) {
            ImGui::SameLine();
            if (ImGui::GetCursorScreenPos().x + width > right_edge) ImGui::NewLine();
        }
        if (ImGui::RadioButton(label.c_str(), shown == sizes[i])) lab.choices.ladder_size = shown = sizes[i];
    }

    ImGui::Spacing();
    if (!draw_sweep_progress(lab.measured)) {
        const std::string why_not =
            gpu ? std::string() : (app.device ? "Measuring needs a CUDA GPU: " + app.device->why_not : "Probing for a CUDA GPU…");
        ImGui::BeginDisabled(!gpu);
        if (ImGui::Button(format_text("Measure the ladders on this GPU ({}³)", shown).c_str()))
            start_sweep(lab.measured, both_ladders_requests(shown, lab.choices.latency.yours));
        ImGui::EndDisabled();
        if (!gpu && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", why_not.c_str());
        if (!gpu)
            muted_text(app.device && lab.measured.measurement ? why_not + "; the bars come from the measurement." : why_not);
    }
    if (lab.measured.in_flight > 0)
        muted_text(format_text("{} running…", model::counted(lab.measured.in_flight, "measurement")));
    if (!lab.measured.last_error.empty()) coloured_text_wrapped(colours::kError, lab.measured.last_error.c_str());
}

float longest_bar_fitting_labels(std::span<const float> label_widths, std::span<const float> shares, float full,
                                 float room, float pad, float shortest) {
    // Shorter bars can move a label out of its bar, where it may then not fit: not monotonic, so
    // step down from the full length and take the first that works.
    const float step = std::max(pad * 0.25f, 1.0f);
    for (float length = full; length >= shortest; length -= step) {
        bool fits = true;
        for (std::size_t i = 0; i < shares.size() && fits; ++i) {
            if (shares[i] <= 0) continue;
            const float bar = std::max(shares[i] * length, 2.0f);
            fits = label_widths[i] + pad * 0.8f <= bar || bar + pad * 0.4f + label_widths[i] <= room;
        }
        if (fits) return length;
    }
    return 0.0f;
}

namespace {

// One ladder's bars in a panel `width` wide, its rows sharing `height` (thicker bars where a large
// window leaves room, read from the back of a room; compact under large text). Only the first
// `rungs_shown` rungs get their bar (an exported climb); the rest keep their name, muted, so the
// rows do not move, and cuBLAS is always drawn. Returns the height used.
float draw_ladder_panel(LabMeasurements& measured, const AppState& app, const LadderData& data, float width, float height,
                        int rungs_shown) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float font = ImGui::GetFontSize();
    ImFont* small = small_font();
    const float small_size = imgui_compat::font_size(small);
    const ImU32 text_colour = ImGui::GetColorU32(ImGuiCol_Text);
    const ImVec2 origin = ImGui::GetCursorScreenPos();

    float name_w = 0;
    for (const LadderBar& bar : data.bars) name_w = std::max(name_w, ImGui::CalcTextSize(bar.name.c_str()).x);
    name_w += font;

    // The model's and CUDA's numbers in columns beside the bars where they fit, else on a small
    // line under each bar (large text on a projector).
    struct Column {
        const char* title;
        const char* subtitle;
        float width;
    };
    Column columns[] = {{"intensity", "FLOP/B, model", 0}, {"registers", "per thread", 0}, {"occupancy", "of the SM", 0}};
    const auto value_of = [](const LadderBar& bar, int column) -> std::string {
        if (column == 0) return bar.is_cublas || bar.is_yours ? "–" : fixed(bar.counts.intensity, 1);
        return column == 1 ? bar.registers_text : bar.occupancy_text;
    };
    float table_w = 0;
    for (int c = 0; c < 3; ++c) {
        float w = std::max(ImGui::CalcTextSize(columns[c].title).x,
                           small->CalcTextSizeA(small_size, FLT_MAX, 0, columns[c].subtitle).x);
        for (const LadderBar& bar : data.bars) w = std::max(w, ImGui::CalcTextSize(value_of(bar, c).c_str()).x);
        columns[c].width = w + font * 1.2f;
        table_w += columns[c].width;
    }
    const bool beside = width - name_w - table_w >= font * 30.0f;
    const float bars_w = width - name_w - (beside ? table_w : 0.0f);

    // The value after each bar; shortened where the long form would leave the bars no room.
    // A bar whose latest request failed says so in its place (the requests are in the bars'
    // order: the rungs, then cuBLAS), and an older number of it does not set the scale.
    const std::vector<gpu::RunRequest> requests = ladder_requests(data.size, data.ladder, app.lab.choices.latency.yours);
    const auto points = lab_points(measured);
    std::vector<std::optional<Failure>> failures;
    for (const gpu::RunRequest& request : requests) failures.push_back(failure_at(measured, points, request));
    // Speed or work per joule: what sets each bar's length and its label.
    const bool energy = app.lab.choices.metric == LadderMetric::Energy;
    const auto value = [&](const LadderBar& bar) { return energy ? bar.tflop_per_j : bar.gflops; };
    const auto percent = [&](const LadderBar& bar) { return energy ? bar.energy_percent_of_cublas : bar.percent_of_cublas; };
    const auto drawn = [&](const LadderBar& bar) { return bar.point && value(bar) > 0; };
    double top = 0;
    for (std::size_t i = 0; i < data.bars.size(); ++i)
        if (!failures[i]) top = std::max(top, value(data.bars[i]));
    // The value after each bar, in the longest form that leaves the bars most of the width: with
    // "of cuBLAS" (where no label is wider than half the bars' width), with the unit, or the bare
    // numbers under a header that names the unit (2× text beside the side panel).
    enum class LabelForm { Long, WithUnit, Bare };
    const auto label_of = [&](const LadderBar& bar, LabelForm form) -> std::string {
        if (!bar.point) return format_text("not measured at {}³", data.size);
        if (!drawn(bar)) return "no energy measured: Measure the ladders";
        const std::string rate = energy ? fixed(bar.tflop_per_j, 3) + (form == LabelForm::Bare ? "" : " TFLOP/J")
                                 : form == LabelForm::Bare ? rate_number(data.ladder, bar.gflops)
                                                           : rate_text(data.ladder, bar.gflops);
        if (bar.is_cublas) return rate + (form == LabelForm::Long ? "  (100 %)" : "");
        if (percent(bar) <= 0) return rate;
        return format_text("{} · {} %{}", rate, fixed(percent(bar), 1), form == LabelForm::Long ? " of cuBLAS" : "");
    };
    bool long_fits = true;
    for (const LadderBar& bar : data.bars)
        long_fits = long_fits && ImGui::CalcTextSize(label_of(bar, LabelForm::Long).c_str()).x + font <= bars_w * 0.5f;
    // The full bar: as long as the bars' width allows with every label inside its bar or after it.
    const float full = std::max(bars_w - font * 0.5f, font * 4.0f);
    std::vector<float> shares;
    for (std::size_t i = 0; i < data.bars.size(); ++i)
        shares.push_back(failures[i] || !drawn(data.bars[i]) || top <= 0 ? 0.0f : static_cast<float>(value(data.bars[i]) / top));
    LabelForm form = LabelForm::Bare;
    float bar_max = 0.0f;
    for (LabelForm candidate : {LabelForm::Long, LabelForm::WithUnit, LabelForm::Bare}) {
        if (candidate == LabelForm::Long && !long_fits) continue;
        std::vector<float> widths;
        for (const LadderBar& bar : data.bars) widths.push_back(ImGui::CalcTextSize(label_of(bar, candidate).c_str()).x);
        const float length = longest_bar_fitting_labels(widths, shares, full, bars_w, font, font * 4.0f);
        if (length > bar_max) {
            form = candidate;
            bar_max = length;
        }
        if (length >= full * 0.8f) break;
    }
    if (bar_max <= 0.0f) bar_max = full;  // nothing fits (a panel a few letters wide): labels overrun
    const bool long_form = form == LabelForm::Long;

    // The header: what the bars and columns are.
    float y = origin.y;
    const char* unit = energy ? "TFLOP/J" : data.ladder == Ladder::Fp32 ? "GFLOP/s" : "TFLOP/s";
    // Shorter where the bars' width is narrow (an exported climb in presenter mode).
    const std::string header =
        long_form ? (energy ? std::string("TFLOP per joule, launches back to back") : format_text("median {}, cold L2", unit))
                  : first_fitting({format_text("median {} · % of cuBLAS", unit), format_text("{} · % of cuBLAS", unit)},
                                  ImGui::GetFont(), bars_w)
                        .value_or(format_text("{} · %", unit));
    draw->AddText(ImVec2(origin.x + name_w, y), colours::kMuted, header.c_str());
    if (beside) {
        float x = origin.x + name_w + bars_w;
        for (const Column& c : columns) {
            draw->AddText(ImVec2(x + c.width - ImGui::CalcTextSize(c.title).x, y), text_colour, c.title);
            const float sub_w = small->CalcTextSizeA(small_size, FLT_MAX, 0, c.subtitle).x;
            draw->AddText(small, small_size, ImVec2(x + c.width - sub_w, y + font), colours::kMuted, c.subtitle);
            x += c.width;
        }
        y += font + small_size + font * 0.4f;
    } else {
        y += font * 1.4f;
    }

    const float rows = static_cast<float>(data.bars.size());
    const float free_height = height - (y - origin.y);
    const float row_h = beside ? std::clamp(free_height / rows, font * 1.6f, font * 3.0f)
                               : font * 1.15f + small_size * 1.05f + font * 0.35f;
    const float bar_h = beside ? row_h * 0.68f : font * 1.15f;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    int rung = 0;
    for (std::size_t i = 0; i < data.bars.size(); ++i) {
        const LadderBar& bar = data.bars[i];
        const std::optional<Failure>& failure = failures[i];
        // A climb keeps its newest rung in view (two ladders at 2× text are taller than a screen).
        if (app.lab.choices.ladder_rungs_shown && !bar.is_cublas && rung + 1 == rungs_shown)
            ImGui::SetScrollFromPosY(y + row_h - ImGui::GetWindowPos().y, 0.8f);
        if (!bar.is_cublas && rung++ >= rungs_shown) {
            const float text_y = y + (beside ? (row_h - bar_h) * 0.4f : font * 0.1f) + (bar_h - font) * 0.5f;
            draw->AddText(ImVec2(origin.x + name_w - font * 0.6f - ImGui::CalcTextSize(bar.name.c_str()).x, text_y),
                          colours::kMuted, bar.name.c_str());
            y += row_h;
            continue;
        }
        const ImVec2 row_min(origin.x, y);
        const ImVec2 row_max(origin.x + width, y + row_h);
        const bool hovered = ImGui::IsWindowHovered() && mouse.x >= row_min.x && mouse.x < row_max.x &&
                             mouse.y >= row_min.y && mouse.y < row_max.y;
        if (hovered) draw->AddRectFilled(row_min, ImVec2(row_max.x, row_max.y - font * 0.15f), IM_COL32(0, 0, 0, 18));
        // cuBLAS, the reference, sits apart under a thin line.
        if (bar.is_cublas) draw->AddLine(ImVec2(origin.x, y - font * 0.12f), ImVec2(origin.x + width, y - font * 0.12f), colours::kGhostHatch);

        const float bar_y = y + (beside ? (row_h - bar_h) * 0.4f : font * 0.1f);
        const float text_y = bar_y + (bar_h - font) * 0.5f;
        const float name_x = origin.x + name_w - font * 0.6f - ImGui::CalcTextSize(bar.name.c_str()).x;
        draw->AddText(ImVec2(name_x, text_y), text_colour, bar.name.c_str());
        const float bar_x = origin.x + name_w;
        const std::string label = label_of(bar, form);
        std::string value_below;
        if (failure) {
            if (failed_box(draw, ImVec2(bar_x, bar_y), ImVec2(bar_x + bar_max, bar_y + bar_h),
                           ImVec2(bar_x + font * 0.5f, text_y), *failure, usable_gpu(app)))
                measure_again(measured, *failure);
        } else if (drawn(bar) && top > 0) {
            const float length = std::max(static_cast<float>(value(bar) / top) * bar_max, 2.0f);
            draw->AddRectFilled(ImVec2(bar_x, bar_y), ImVec2(bar_x + length, bar_y + bar_h), bar.colour);
            const float label_w = ImGui::CalcTextSize(label.c_str()).x;
            if (label_w + font * 0.8f <= length) {
                draw->AddText(ImVec2(bar_x + length - label_w - font * 0.4f, text_y), ink_on(bar.colour), label.c_str());
            } else if (beside || length + font * 0.4f + label_w <= bars_w) {
                draw->AddText(ImVec2(bar_x + length + font * 0.4f, text_y), text_colour, label.c_str());
            } else {
                value_below = label;  // no room beside its bar: first on the line under it
            }
        } else {
            draw->AddRect(ImVec2(bar_x, bar_y), ImVec2(bar_x + bar_max, bar_y + bar_h), colours::kGhostHatch);
            draw->AddText(ImVec2(bar_x + font * 0.5f, text_y), colours::kMuted, label.c_str());
        }
        if (beside) {
            float x = bar_x + bars_w;
            for (int c = 0; c < 3; ++c) {
                const std::string value = value_of(bar, c);
                draw->AddText(ImVec2(x + columns[c].width - ImGui::CalcTextSize(value.c_str()).x, text_y), text_colour,
                              value.c_str());
                x += columns[c].width;
            }
        } else {
            // Under the bar: its value where there was no room beside it, then the model's and
            // CUDA's numbers, in words where they fit, else shortened (2× text beside the side panel).
            ImVec2 at(bar_x, bar_y + bar_h + font * 0.05f);
            if (!value_below.empty()) {
                draw->AddText(small, small_size, at, text_colour, value_below.c_str());
                at.x += text_width(small, value_below) + small_size * 0.6f;
            }
            if (!bar.is_cublas && !bar.is_yours) {
                const std::string intensity = fixed(bar.counts.intensity, 1);
                const std::string& regs = bar.registers_text;
                const std::string& occupancy = bar.occupancy_text;
                const auto details = first_fitting(
                    {format_text("{} FLOP/B · {} registers · {} occupancy", intensity, regs, occupancy),
                     format_text("{} FLOP/B · {} registers · {} occ.", intensity, regs, occupancy),
                     format_text("{} FLOP/B · {} regs · {} occ.", intensity, regs, occupancy),
                     format_text("{} FLOP/B · {} regs", intensity, regs), format_text("{} FLOP/B", intensity)},
                    small, bar_x + bars_w - at.x);
                if (details) draw->AddText(small, small_size, at, colours::kMuted, details->c_str());
            }
        }
        if (hovered && !failure) {  // a failed bar's tooltip says why instead
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(font * 34.0f);
            ImGui::TextUnformatted(bar.hover.c_str());
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
        y += row_h;
    }
    return y - origin.y;
}

// The line between the panels: how far the tensor cores move the top, where both are measured.
std::string ladders_compared(const LadderData& fp32, const LadderData& tensor_cores, LadderMetric metric) {
    const LadderBar& sgemm = fp32.bars.back();
    const LadderBar& bf16 = tensor_cores.bars.back();
    if (metric == LadderMetric::Energy && sgemm.tflop_per_j > 0 && bf16.tflop_per_j > 0)
        return format_text("The tensor cores' ladder, BF16 inputs and FP32 sums: here one joule buys {}× the work it "
                           "buys cuBLAS in FP32, so each bar below is a percentage of cuBLAS BF16's TFLOP/J.",
                           fixed(bf16.tflop_per_j / sgemm.tflop_per_j, 1));
    if (!sgemm.point || !bf16.point || sgemm.gflops <= 0)
        return "The tensor cores' ladder: BF16 inputs, FP32 sums, then the FP8 rungs on e4m3 inputs; each bar a "
               "percentage of cuBLAS's BF16 GEMM.";
    return format_text("The tensor cores' ladder, BF16 inputs and FP32 sums: here cuBLAS runs {}× faster than in FP32, "
                       "so each bar below is a percentage of cuBLAS BF16.",
                       fixed(bf16.gflops / sgemm.gflops, 1));
}

}  // namespace

void draw_ladder_view(LabState& lab, const AppState& app, ImVec2 size) {
    // Two ladders at 2× text are taller than a projector's screen: the keys scroll the view, a
    // clicker's PageDown among them, unless an open lesson steps with PageDown and PageUp.
    if (view_has_plain_keys()) scroll_with_keys({.pages = !app.lesson.lesson});
    const int shown = shown_ladder_size(lab);
    if (usable_gpu(app)) ask_for_compiled_kernels(lab, shown);
    const LadderData fp32 = ladder_data(app, shown, Ladder::Fp32);
    const LadderData tensor_cores = ladder_data(app, shown, Ladder::TensorCores);

    // Short, so that it fits in presenter mode; what to do with the bars is said under them,
    // where it does not push cuBLAS's bar off a projector's screen. (Beside the side panel,
    // presenter mode's text on 1920 pixels still reaches the view's edge: heading() wraps.)
    heading(format_text("The kernel ladders at {}³: FP32, then tensor cores{}", shown,
                        lab.choices.metric == LadderMetric::Energy ? ", work per joule" : "")
                .c_str());
    ImGui::Spacing();
    const float font = ImGui::GetFontSize();
    // The view's width, however narrow (an exported climb at 1280 pixels in presenter mode, beside
    // the side panel): the labels and the lines under the bars shorten to fit it.
    const float width = std::max(size.x - font * 0.5f, font * 4.0f);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    // The two panels share what the notes under them leave (the line between them may take two),
    // the tensor cores' a row shorter.
    const float panels_h = std::max(ImGui::GetContentRegionAvail().y - font * 10.5f, font * 20.0f);
    const float fp32_rows = static_cast<float>(fp32.bars.size()), tc_rows = static_cast<float>(tensor_cores.bars.size());
    // A climb shows the FP32 rungs first, then the tensor cores' (all of both when not climbing).
    const int rungs_shown = lab.choices.ladder_rungs_shown.value_or(std::numeric_limits<int>::max());
    const int fp32_rungs = static_cast<int>(std::count_if(fp32.bars.begin(), fp32.bars.end(),
                                                          [](const LadderBar& bar) { return !bar.is_cublas; }));
    float used =
        draw_ladder_panel(lab.measured, app, fp32, width, panels_h * fp32_rows / (fp32_rows + tc_rows), rungs_shown);
    ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + used + font * 0.3f));
    // Wrapped short of the view's scroll bar, which may cover the last few pixels of `width`.
    push_wrap_at_screen_x(origin.x + width - ImGui::GetStyle().ScrollbarSize);
    ImGui::TextUnformatted(ladders_compared(fp32, tensor_cores, lab.choices.metric).c_str());
    ImGui::PopTextWrapPos();
    const float second_y = ImGui::GetCursorScreenPos().y + font * 0.2f;
    ImGui::SetCursorScreenPos(ImVec2(origin.x, second_y));
    used = draw_ladder_panel(lab.measured, app, tensor_cores, width, panels_h * tc_rows / (fp32_rows + tc_rows),
                             std::max(rungs_shown - fp32_rungs, 0));

    ImGui::SetCursorScreenPos(ImVec2(origin.x, second_y + used + font * 0.4f));
    muted_text((lab.measured.measurement ? lab.measured.measurement_label + ". " : std::string()) +
               "Hover a bar: what that rung changed, the model's counts, and the speed-up over the rung below.");
    if (lab.choices.metric == LadderMetric::Energy)
        muted_text("Energy: the board's joules from NVML's counter, read around launches back to back after the timed "
                   "samples. Under a power cap the driver lowers the clock of a kernel that spends more energy per "
                   "cycle, so fewer cycles need not mean less time, and work per joule shows why.");
    if (fp32.estimates || tensor_cores.estimates)
        muted_text(format_text("~ marks the model's estimate of registers and occupancy for the {}: {}", fp32.limits_name,
                               usable_gpu(app) ? "CUDA's answer for the compiled kernels is on its way."
                                                 : "without a GPU, TileScope cannot ask CUDA about the compiled kernels."));
    else
        muted_text("Registers and occupancy of the kernels as compiled for this GPU (CUDA).");
    muted_text("Intensity: FLOPs per byte the kernel requests from global memory, by the model's counts (before "
               "caches). From regtile-2d to pipelined it stays the same; what lifts those rungs happens inside the SM.");
    ImGui::Dummy(ImVec2(width, 1));
}

}  // namespace ts::views
