#include "views/experiments/experiment_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/format.hpp"
#include "model/index_math.hpp"
#include "model/ladder.hpp"
#include "model/ladder_access.hpp"
#include "paths/data_dir.hpp"
#include "views/window/side_column.hpp"
#include "views/stage/stage_heatmap.hpp"
#include "views/common/text.hpp"
#include "views/theatre/ladder_canvas.hpp"
#include "views/theatre/race_overlay.hpp"
#include "views/theatre/theatre_paint.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

using model::Experiment;
using model::fixed;
using model::format_text;

namespace {

constexpr std::string_view kBreaksC[] = {"every run", "some runs", "never"};
constexpr std::string_view kSlowdowns[] = {"not at all", "a few percent", "about a quarter", "twice as slow"};
constexpr int kTiles[] = {8, 16, 32};
constexpr int kMaxCases = 6;
constexpr int kListedReads = 6;  // stale reads listed besides the most telling one
// The heat map: white where a cell was never wrong, to dark red where it was wrong every run.
constexpr ImU32 kNeverWrong = IM_COL32(255, 255, 255, 255);
constexpr ImU32 kAlwaysWrong = IM_COL32(150, 0, 25, 255);
// Recorded results are drawn faded until live ones replace them.
constexpr float kRecordedAlpha = 0.6f;

bool breaks_tiled(Experiment e) { return e != Experiment::BankConflicts; }
bool watches_shared_memory(Experiment e) {
    return e == Experiment::MissingFirstSync || e == Experiment::MissingSecondSync;
}

bool usable_gpu(const AppState& state) { return state.device && state.device->usable; }

std::string case_name(Experiment e, const model::ExperimentCase& c) {
    const model::Problem& p = c.problem;
    if (!breaks_tiled(e)) return format_text("{} × {} × {}, {}", p.m, p.n, p.k, model::describe(c.kernel));
    return format_text("{} × {} × {}, T = {}", p.m, p.n, p.k, c.kernel.tile);
}

std::int64_t block_count(Experiment e, const model::ExperimentCase& c, const model::ExperimentRun* run) {
    if (run && run->blocks > 0) return run->blocks;
    if (!breaks_tiled(e)) return 0;
    const std::int64_t t = std::max(c.kernel.tile, 1);
    return model::ceil_div64(c.problem.m, t) * model::ceil_div64(c.problem.n, t);
}

// The heat map's texture: the bins max-pooled down to at most `max_side` texels a side (a
// cell wrong in any run of a texel's bins keeps the texel's colour: a mean would wash single
// wrong cells out), each texel the value wrong_share_value gives.
HeatmapImage wrong_map_image(const model::WrongCellMap& map, int runs, int max_side) {
    HeatmapImage image;
    if (map.rows <= 0 || map.cols <= 0) return image;
    image.box_rows = 1;
    image.box_cols = 1;
    const int pool_rows = model::ceil_div(map.rows, max_side), pool_cols = model::ceil_div(map.cols, max_side);
    image.rows = model::ceil_div(map.rows, pool_rows);
    image.cols = model::ceil_div(map.cols, pool_cols);
    image.texels.assign(static_cast<std::size_t>(image.rows) * image.cols, 0.0f);
    for (int r = 0; r < map.rows; ++r)
        for (int c = 0; c < map.cols; ++c) {
            const int wrong = map.wrong_runs[static_cast<std::size_t>(r) * map.cols + c];
            float& texel = image.texels[static_cast<std::size_t>(r / pool_rows) * image.cols + c / pool_cols];
            texel = std::max(texel, wrong_share_value(wrong, runs));
        }
    return image;
}

// ---- The heat map over C ------------------------------------------------------------------

void draw_wrong_map(const ExperimentOutcome& outcome, float side) {
    const model::ExperimentRun& run = *outcome.run;
    const model::WrongCellMap& map = run.map;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    if (map.rows <= 0 || map.cols <= 0 || map.wrong_runs.empty()) {
        muted_text("No heat map in this result.");
        return;
    }
    // Cells square: the longer side of C gets `side` pixels.
    const float cell = side / static_cast<float>(std::max(map.rows, map.cols));
    const ImVec2 size{cell * static_cast<float>(map.cols), cell * static_cast<float>(map.rows)};
    ImGui::PushFont(small_font());
    ImGui::TextUnformatted(format_text("C, {} × {}: how often each cell came out wrong{}", run.c.problem.m, run.c.problem.n,
                                       map.bin_rows > 1 || map.bin_cols > 1
                                           ? format_text(" (a square per {} × {} cells)", map.bin_rows, map.bin_cols)
                                           : std::string())
                               .c_str());
    ImGui::PopFont();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::Dummy(size);
    const Rect area{at, {at.x + size.x, at.y + size.y}};
    HeatmapPainter* painter = heatmap_painter();
    // A texel per pixel at most; without the GPU's painter (the tests) fewer, drawn as rectangles.
    const int max_side = std::clamp(static_cast<int>(side), 16, painter ? model::kMaxHeatSide : 160);
    const HeatmapImage image = wrong_map_image(map, run.runs, max_side);
    HeatmapQuad quad;
    quad.key = format_text("experiment {} wrong cells, {} texels", outcome.serial, max_side);
    quad.image = [image] { return image; };
    quad.min = area.min;
    quad.max = area.max;
    quad.rows = quad.grid_rows = image.rows;
    quad.cols = quad.grid_cols = image.cols;
    quad.low = 0.0f;
    quad.high = 1.0f;
    quad.low_colour = kNeverWrong;
    quad.high_colour = kAlwaysWrong;
    quad.line_colour = IM_COL32(200, 200, 200, 255);
    // The thread blocks, when a texel is a whole number of them apart.
    const int tile = outcome.c.kernel.kind == model::KernelKind::Tiled ? outcome.c.kernel.tile : 0;
    const int texel_rows = map.bin_rows * model::ceil_div(map.rows, image.rows);
    const int texel_cols = map.bin_cols * model::ceil_div(map.cols, image.cols);
    if (tile > 0 && tile % texel_rows == 0 && tile % texel_cols == 0) {
        quad.block_rows = tile / texel_rows;
        quad.block_cols = tile / texel_cols;
    }
    if (painter) {
        painter->paint(draw, quad);
    } else {
        // Runs of equal texels along a row as one rectangle each: most of C is one white run.
        const float w = size.x / static_cast<float>(image.cols), h = size.y / static_cast<float>(image.rows);
        for (int r = 0; r < image.rows; ++r) {
            int c = 0;
            while (c < image.cols) {
                const float value = image.texels[static_cast<std::size_t>(r) * image.cols + c];
                int end = c + 1;
                while (end < image.cols && image.texels[static_cast<std::size_t>(r) * image.cols + end] == value) ++end;
                draw->AddRectFilled({area.min.x + w * static_cast<float>(c), area.min.y + h * static_cast<float>(r)},
                                    {area.min.x + w * static_cast<float>(end), area.min.y + h * static_cast<float>(r + 1)},
                                    heat_colour(quad, value));
                c = end;
            }
        }
    }
    draw->AddRect(area.min, area.max, colours::kC.line, 0.0f, 0, 1.5f);
}

// 0 runs (white), then 1 run … N runs as the map shades them.
void draw_wrong_map_legend(int runs, float width) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float box = ImGui::GetFontSize();
    HeatmapQuad quad;
    quad.low_colour = kNeverWrong;
    quad.high_colour = kAlwaysWrong;
    ImVec2 at = ImGui::GetCursorScreenPos();
    const float start = at.x;
    draw->AddRectFilled(at, {at.x + box, at.y + box}, kNeverWrong);
    draw->AddRect(at, {at.x + box, at.y + box}, colours::kMuted);
    ImGui::Dummy({box, box});
    ImGui::SameLine();
    ImGui::TextUnformatted("never wrong");
    ImGui::SameLine();
    at = ImGui::GetCursorScreenPos();
    const std::string last = format_text("{} runs", runs);
    const float labels = text_width(small_font(), "1 run") + text_width(small_font(), last) + box;
    // As wide as the map leaves after "never wrong" and "wrong", but never too short for its labels.
    const float bar = std::max(start + width - at.x - ImGui::CalcTextSize(" wrong").x, labels);
    const ImU32 from = heat_colour(quad, wrong_share_value(1, std::max(runs, 1)));
    draw->AddRectFilledMultiColor(at, {at.x + bar, at.y + box}, from, kAlwaysWrong, kAlwaysWrong, from);
    draw->AddRect(at, {at.x + bar, at.y + box}, colours::kMuted);
    plate_text(draw, small_font(), {at.x + 2.0f, at.y + (box - imgui_compat::font_size(small_font())) * 0.5f},
               colours::kCellValue, "1 run");
    text_at(draw, small_font(),
            {at.x + bar - text_width(small_font(), last) - 3.0f, at.y + (box - imgui_compat::font_size(small_font())) * 0.5f},
            IM_COL32_WHITE, last);
    ImGui::Dummy({bar, box});
    ImGui::SameLine();
    ImGui::TextUnformatted("wrong");
}

void number_row(const char* name, const std::string& value) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(name);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(value.c_str());
}

std::string error_text(double error) {
    if (error <= 0.0) return "0";
    char text[32];
    std::snprintf(text, sizeof text, "%.2g", error);
    return text;
}

void draw_numbers(Experiment e, const ExperimentOutcome& outcome) {
    const model::ExperimentRun& run = *outcome.run;
    if (!ImGui::BeginTable("##numbers", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
    const std::int64_t cells = run.c.problem.m * run.c.problem.n;
    number_row("runs", std::to_string(run.runs));
    number_row("runs with a wrong cell", format_text("{} of {}", run.wrong_runs, run.runs));
    number_row("most wrong cells in one run",
               format_text("{} ({} % of C)", grouped(run.wrong_cells_worst),
                           fixed(cells > 0 ? 100.0 * static_cast<double>(run.wrong_cells_worst) / static_cast<double>(cells) : 0.0, 2)));
    number_row("cells ever wrong", grouped(run.cells_ever_wrong));
    number_row("largest error", error_text(run.max_error));
    number_row("NaN cells", grouped(run.nan_cells));
    if (e == Experiment::NoBoundsCheck) {
        const std::int64_t predicted = model::predicted_stray_writes(run.c);
        number_row("stray writes past C", format_text("{} ({} per run; predicted {})", grouped(run.stray_writes),
                                                      run.runs > 0 ? grouped(run.stray_writes / run.runs) : "0",
                                                      grouped(predicted)));
        if (run.stray_reads > 0) number_row("guard elements read", grouped(run.stray_reads));
    } else {
        number_row("stray writes", grouped(run.stray_writes));
    }
    number_row("blocks", grouped(run.blocks));
    if (run.map.bin_rows > 1 || run.map.bin_cols > 1)
        number_row("heat-map bin", format_text("{} × {} cells", run.map.bin_rows, run.map.bin_cols));
    ImGui::EndTable();
}

// ---- Stale reads ----------------------------------------------------------------------------

std::string read_line(const model::StaleRead& r) {
    const std::string from = r.value_phase >= 0 ? format_text("phase {}'s value", r.value_phase) : "a value of no phase";
    return format_text("block ({}, {}) phase {}: thread ({}, {}) read {}s[{}][{}], got {} ({}), writer ({}, {})", r.block_x,
                       r.block_y, r.phase, r.reader_x, r.reader_y, r.operand == 'A' ? "A" : "B", r.slot_row, r.slot_col,
                       fixed(r.got, 0), from, r.writer_x, r.writer_y);
}

void draw_stale_reads(AppState& state, Experiment e, const ExperimentOutcome& outcome) {
    const model::StaleReadReport& report = *outcome.stale;
    const model::ExperimentCase& c = report.c.problem.m > 0 ? report.c : outcome.c;
    heading("What an instrumented run saw");
    muted_text(format_text("Every thread compared each value it read from As and Bs with what the phase should hold: "
                           "{} of {} reads were stale{}.",
                           grouped(report.stale_reads), grouped(report.reads_checked),
                           report.launches > 1 ? format_text(" (launch {} was the first to see any)", report.launches)
                                               : std::string()));
    const auto telling = model::most_telling(report);
    if (!telling) {
        muted_text("No stale read in this launch: this time every thread happened to wait long enough.");
        return;
    }
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(model::explain_stale_read(e, *telling, std::max(c.kernel.tile, 1)).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PushID("telling");
    if (ImGui::Button("Show in the theatre")) show_race_in_theatre(state, race_moment(e, c, *telling));
    ImGui::PopID();
    const int more = std::min<int>(kListedReads, static_cast<int>(report.reads.size()));
    if (more <= 1) return;
    ImGui::TextUnformatted((more == static_cast<int>(report.reads.size())
                                ? format_text("All {} recorded:", more)
                                : format_text("The first {} of the {} recorded:", more, report.reads.size()))
                               .c_str());
    ImGui::PushFont(small_font());
    for (int i = 0; i < more; ++i) {
        const model::StaleRead& r = report.reads[static_cast<std::size_t>(i)];
        ImGui::PushID(i);
        if (ImGui::SmallButton("Show in the theatre")) show_race_in_theatre(state, race_moment(e, c, r));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", model::explain_stale_read(e, r, std::max(c.kernel.tile, 1)).c_str());
        ImGui::SameLine();
        ImGui::TextUnformatted(read_line(r).c_str());
        ImGui::PopID();
    }
    ImGui::PopFont();
}

// ---- bank-conflicts: the bank map and the measured slow-down --------------------------------

// The As store of warp 0 that the missing padding hurts most, in the real rung and unpadded.
struct StorePair {
    std::vector<model::LaneAccess> padded, unpadded;
    std::string what;
    std::string unpadded_label;
};

StorePair costliest_as_store() {
    const model::LadderShape real = model::ladder_shape(model::experiment_kernel(Experiment::BankConflicts, 0));
    const auto comparison = model::layout_comparison(real, model::Operand::A);
    StorePair best;
    if (!comparison) return best;
    best.unpadded_label = comparison->label;
    int best_cost = -1;
    for (const model::LadderLoad& load : model::ladder_thread_loads(real, 0)) {
        if (load.operand != model::Operand::A) continue;
        for (int part = 0; part < load.width; ++part) {
            auto unpadded = model::warp_store_accesses(comparison->other, 0, model::Operand::A, load.instruction, part);
            const model::BankMap map = model::bank_map(unpadded);
            if (map.wavefronts - map.ideal <= best_cost) continue;
            best_cost = map.wavefronts - map.ideal;
            best.unpadded = std::move(unpadded);
            best.padded = model::warp_store_accesses(real, 0, model::Operand::A, load.instruction, part);
            best.what = format_text("warp 0 storing value {} of its float4 of A (load {}) into As", part, load.instruction);
        }
    }
    return best;
}

void draw_bank_maps() {
    heading("The bank map of the As store");
    const StorePair pair = costliest_as_store();
    if (pair.padded.empty()) {
        muted_text("The model has no comparison layout for this rung's As.");
        return;
    }
    muted_text(format_text("From the model, {}: each box a word of shared memory in its bank (0–31), numbered with "
                           "its lane; a bank asked for two different words in one phase is outlined red.",
                           pair.what));
    const float gap = ImGui::GetFontSize();
    const float width = (ImGui::GetContentRegionAvail().x - gap) * 0.5f;
    // draw_bank_map's rows: one per (phase, 128-byte line) an access touches, 1.4 bank widths tall,
    // under two lines of small text.
    const auto rows_of = [](const std::vector<model::LaneAccess>& accesses) {
        const model::BankMap map = model::bank_map(accesses);
        std::vector<std::pair<int, int>> rows;
        for (std::size_t i = 0; i < map.words.size(); ++i) rows.push_back({map.phase_of[i], map.words[i] / 32});
        std::sort(rows.begin(), rows.end());
        return static_cast<int>(std::unique(rows.begin(), rows.end()) - rows.begin());
    };
    const int rows = std::min(12, std::max(rows_of(pair.padded), rows_of(pair.unpadded)));
    const float height = imgui_compat::font_size(small_font()) * 3.0f + width / 32.0f * 1.4f * static_cast<float>(rows) + 4.0f;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::Dummy({width * 2.0f + gap, height});
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw_bank_map(draw, {at, {at.x + width, at.y + height}}, pair.unpadded, "bank-conflicts (" + pair.unpadded_label + ")");
    draw_bank_map(draw, {{at.x + width + gap, at.y}, {at.x + 2.0f * width + gap, at.y + height}}, pair.padded,
                  "the real rung, 09 (padded by 4)");
}

void draw_slowdown(const model::ExperimentRun& run) {
    if (run.broken_ms <= 0.0 || run.real_ms <= 0.0) {
        muted_text("No times in this result.");
        return;
    }
    const double percent = 100.0 * (run.broken_ms / run.real_ms - 1.0);
    ImGui::TextUnformatted(format_text("Without the padding: {} % {}", fixed(std::fabs(percent), 1),
                                       percent >= 0 ? "slower" : "faster (within the noise?)")
                               .c_str());
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float label = ImGui::CalcTextSize("without padding (broken) ").x;
    const float full = std::max(ImGui::GetContentRegionAvail().x - label - ImGui::GetFontSize() * 6.0f, 50.0f);
    const double longest = std::max(run.broken_ms, run.real_ms);
    const auto bar = [&](const char* name, double ms, ImU32 colour) {
        ImGui::TextUnformatted(name);
        ImGui::SameLine(label);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float w = static_cast<float>(ms / longest) * full;
        const float h = ImGui::GetFontSize();
        draw->AddRectFilled(at, {at.x + w, at.y + h}, colour);
        ImGui::Dummy({full, h});
        ImGui::SameLine();
        ImGui::TextUnformatted(format_text("{} ms", fixed(ms, 3)).c_str());
    };
    bar("without padding (broken)", run.broken_ms, IM_COL32(200, 60, 40, 255));
    bar("with padding (09)", run.real_ms, IM_COL32(25, 130, 105, 255));
}

// ---- One case's outcome ---------------------------------------------------------------------

void draw_outcome(AppState& state, Experiment e, int index, const ExperimentOutcome& outcome) {
    ImGui::PushID(outcome.serial);
    const model::ExperimentRun* run = outcome.run ? &*outcome.run : nullptr;
    ImGui::PushFont(heading_font());
    const std::int64_t blocks = block_count(e, outcome.c, run);
    ImGui::TextUnformatted(format_text("Case {}: {}{}", index + 1, case_name(e, outcome.c),
                                       blocks > 0 ? format_text(", {} blocks", grouped(blocks)) : std::string())
                               .c_str());
    ImGui::PopFont();
    if (outcome.recorded)
        coloured_text_wrapped(colours::kWarning, (outcome.source + " (a recording: live results replace it)").c_str());
    else if (!outcome.source.empty())
        muted_text(outcome.source);

    if (!outcome.error.empty()) {
        if (outcome.worker_restarted) {
            ImGui::PushFont(heading_font());
            coloured_text_wrapped(colours::kError,
                                  "The variant faulted; the GPU worker restarted, the app and your other results are fine.");
            ImGui::PopFont();
        }
        coloured_text_wrapped(colours::kError, outcome.error.c_str());
    }
    if (run) {
        if (outcome.recorded) ImGui::PushStyleVar(ImGuiStyleVar_Alpha, kRecordedAlpha);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(model::summarize_run(*run).c_str());
        ImGui::PopTextWrapPos();
        if (e == Experiment::BankConflicts) {
            draw_slowdown(*run);
        } else {
            const float side = std::min(ImGui::GetContentRegionAvail().x * 0.45f, ImGui::GetFontSize() * 22.0f);
            ImGui::BeginGroup();
            draw_wrong_map(outcome, side);
            draw_wrong_map_legend(run->runs, side);
            ImGui::EndGroup();
            // The numbers beside the map where they fit, else under it.
            const float beside = ImGui::GetContentRegionAvail().x - side - ImGui::GetFontSize();
            if (beside >= ImGui::GetFontSize() * 20.0f) ImGui::SameLine(0.0f, ImGui::GetFontSize());
            ImGui::BeginGroup();
            draw_numbers(e, outcome);
            ImGui::EndGroup();
        }
        if (outcome.recorded) ImGui::PopStyleVar();
    }
    if (outcome.stale && watches_shared_memory(e)) {
        if (outcome.recorded) ImGui::PushStyleVar(ImGuiStyleVar_Alpha, kRecordedAlpha);
        draw_stale_reads(state, e, outcome);
        if (outcome.recorded) ImGui::PopStyleVar();
    } else if (run && watches_shared_memory(e)) {
        muted_text(model::watchable(outcome.c.problem)
                       ? "No instrumented run came with this result."
                       : "Too large to watch: the instrumented run needs every element of A and B exact in float "
                         "(M·K and K·N under 2^24).");
    }
    ImGui::PopID();
}

// ---- The side panel -------------------------------------------------------------------------

void draw_picker(ExperimentState& experiments) {
    heading("Break the tiled kernel on purpose");
    for (Experiment e : model::kAllExperiments) {
        if (ImGui::RadioButton(std::string(model::experiment_name(e)).c_str(), experiments.experiment == e))
            experiments.experiment = e;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(model::experiment_text(e).title).c_str());
    }
}

void draw_texts(Experiment e) {
    const model::ExperimentText& text = model::experiment_text(e);
    ImGui::PushFont(heading_font());
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(std::string(text.title).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(std::string(text.removed).c_str());
    ImGui::PopTextWrapPos();
    muted_text(format_text("The real kernel: {}\nThe variant: {}", text.real_file, text.kernel_file));
}

void draw_prediction(ExperimentPage& page, Experiment e) {
    heading("Before you run it");
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(std::string(model::experiment_text(e).predict).c_str());
    ImGui::PopTextWrapPos();
    const auto choices = prediction_choices(e);
    ImGui::TextUnformatted(breaks_tiled(e) ? "C comes out wrong on" : "Slower:");
    const ImGuiStyle& style = ImGui::GetStyle();
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    for (int i = 0; i < static_cast<int>(choices.size()); ++i) {
        // On the same line while it fits (large text wraps the choices onto lines of their own).
        const float wide = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x +
                           ImGui::CalcTextSize(std::string(choices[static_cast<std::size_t>(i)]).c_str()).x;
        if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + wide <= right) ImGui::SameLine();
        if (ImGui::RadioButton(std::string(choices[static_cast<std::size_t>(i)]).c_str(), page.prediction == i))
            page.prediction = i;
    }
    // The runs' answer and the explanation wait for the student's own.
    const auto observed = page.prediction >= 0 ? observed_choice(page, e) : std::nullopt;
    if (observed) {
        const std::string seen(choices[static_cast<std::size_t>(*observed)]);
        if (page.prediction == *observed)
            coloured_text_wrapped(colours::kPass, format_text("You said {}; the runs say {}: right.",
                                                              choices[static_cast<std::size_t>(page.prediction)], seen)
                                                      .c_str());
        else
            coloured_text_wrapped(colours::kWarning, format_text("You said {}; the runs say {}.",
                                                                 choices[static_cast<std::size_t>(page.prediction)], seen)
                                                         .c_str());
    }
    // What usually happens, once the student has committed (or the runs have answered).
    if (page.prediction >= 0) {
        if (ImGui::TreeNode("What usually happens, and why")) {
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextUnformatted(std::string(model::experiment_text(e).expect).c_str());
            ImGui::PopTextWrapPos();
            ImGui::TreePop();
        }
    } else {
        muted_text("Pick an answer: the runs' verdict and the explanation open once you have.");
    }
}

// "M [ 64 ]": the name before the field, as the sizes are read aloud.
bool int_field(const char* label, int& value, int low, int high, float width) {
    ImGui::TextUnformatted(label);
    ImGui::SameLine(0.0f, 4.0f);
    ImGui::SetNextItemWidth(width);
    if (!ImGui::InputInt((std::string("##") + label).c_str(), &value, 0, 0)) return false;
    value = std::clamp(value, low, high);
    return true;
}

void draw_cases(ExperimentPage& page, Experiment e, bool locked) {
    heading("Cases");
    ImGui::BeginDisabled(locked);
    const float w = ImGui::GetFontSize() * 3.4f;
    int remove = -1;
    for (int i = 0; i < static_cast<int>(page.cases.size()); ++i) {
        model::ExperimentCase& c = page.cases[static_cast<std::size_t>(i)];
        ImGui::PushID(i);
        int m = static_cast<int>(c.problem.m), n = static_cast<int>(c.problem.n), k = static_cast<int>(c.problem.k);
        ImGui::TextUnformatted(format_text("{}.", i + 1).c_str());
        ImGui::SameLine();
        if (int_field("M", m, 1, 4096, w)) c.problem.m = m;
        ImGui::SameLine();
        if (int_field("N", n, 1, 4096, w)) c.problem.n = n;
        ImGui::SameLine();
        if (int_field("K", k, 1, 16384, w)) c.problem.k = k;
        if (breaks_tiled(e)) {
            ImGui::SameLine();
            ImGui::TextUnformatted("T");
            ImGui::SameLine(0.0f, 4.0f);
            ImGui::SetNextItemWidth(w);
            if (ImGui::BeginCombo("##T", std::to_string(c.kernel.tile).c_str())) {
                for (int t : kTiles)
                    if (ImGui::Selectable(std::to_string(t).c_str(), c.kernel.tile == t))
                        c.kernel = model::experiment_kernel(e, t);
                ImGui::EndCombo();
            }
        }
        ImGui::SameLine();
        if (page.cases.size() > 1 && ImGui::SmallButton("remove")) remove = i;
        if (const auto why = model::check_experiment_case(e, c)) coloured_text_wrapped(colours::kError, why->c_str());
        ImGui::PopID();
    }
    if (remove >= 0) page.cases.erase(page.cases.begin() + remove);
    if (static_cast<int>(page.cases.size()) < kMaxCases && ImGui::Button("Add a case")) page.cases.push_back(page.cases.back());
    ImGui::SameLine();
    if (ImGui::Button("Default cases")) page.cases = model::default_experiment_cases(e);
    if (!breaks_tiled(e)) muted_text("The conflict-free rung has its own shape: only the sizes change.");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.0f);
    ImGui::SliderInt("runs per case", &page.runs, 1, 1000, "%d", ImGuiSliderFlags_AlwaysClamp);
    ImGui::EndDisabled();
}

void draw_run_controls(AppState& state, Experiment e) {
    ExperimentState& experiments = state.experiments;
    ExperimentPage& page = page_of(experiments, e);
    const bool running = experiments.batch.has_value();
    const bool can_run = usable_gpu(state) && !running;
    ImGui::BeginDisabled(!can_run);
    const std::string label = format_text("Run {} times on the GPU", page.runs);
    if (ImGui::Button(label.c_str())) start_experiment_batch(experiments, e);
    ImGui::EndDisabled();
    if (running) {
        const ExperimentBatch& batch = *experiments.batch;
        muted_text(format_text("{}: case {} of {}…", model::experiment_name(batch.experiment),
                               std::min(batch.done + 1, batch.total), batch.total));
        const float cancel = ImGui::CalcTextSize("Cancel").x + ImGui::GetStyle().FramePadding.x * 2.0f;
        ImGui::ProgressBar(static_cast<float>(batch.done) / static_cast<float>(std::max(batch.total, 1)),
                           ImVec2(std::max(ImGui::GetFontSize() * 4.0f,
                                           ImGui::GetContentRegionAvail().x - cancel - ImGui::GetStyle().ItemSpacing.x),
                                  0.0f));
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) cancel_experiment_batch(experiments);
    }
    if (!experiments.batch_note.empty()) muted_text(experiments.batch_note);
    if (!state.device) {
        muted_text("Still probing for a CUDA GPU…");
    } else if (!state.device->usable) {
        // Why nothing runs here, and what the view shows instead.
        coloured_text_wrapped(colours::kWarning, format_text("Not running here: {}.", state.device->why_not).c_str());
        muted_text("What the model knows is shown all the same: what each variant takes out, the out-of-bounds "
                   "accesses worked out from the indices, the bank map; and recorded results where there are some.");
    }
    if (!experiments.load_message.empty())
        coloured_text_wrapped(colours::kError, ("Recorded results: " + experiments.load_message).c_str());
}

// ---- The results column ---------------------------------------------------------------------

void draw_model_part(Experiment e, const ExperimentPage& page) {
    if (e == Experiment::NoBoundsCheck) {
        heading("From the indices alone");
        muted_text("What the variant's threads touch past the matrices, worked out before any run:");
        for (int i = 0; i < static_cast<int>(page.cases.size()); ++i) {
            const model::ExperimentCase& c = page.cases[static_cast<std::size_t>(i)];
            ImGui::PushFont(heading_font());
            ImGui::TextUnformatted(format_text("Case {}: {}", i + 1, case_name(e, c)).c_str());
            ImGui::PopFont();
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextUnformatted(model::explain_out_of_bounds(c).c_str());
            ImGui::PopTextWrapPos();
            muted_text(format_text("Predicted stray writes past C per run: {}", grouped(model::predicted_stray_writes(c))));
        }
        ImGui::Separator();
    }
    if (e == Experiment::BankConflicts) {
        draw_bank_maps();
        ImGui::Separator();
    }
}

void draw_results(AppState& state, Experiment e) {
    ExperimentPage& page = page_of(state.experiments, e);
    draw_model_part(e, page);
    heading("What the GPU found");
    // The cases in the panel's order, then any other case a recording or an earlier edit brought.
    std::vector<const ExperimentOutcome*> shown;
    for (const model::ExperimentCase& c : page.cases)
        if (const ExperimentOutcome* outcome = outcome_of(page, c)) shown.push_back(outcome);
    for (const ExperimentOutcome& outcome : page.outcomes)
        if (std::find(shown.begin(), shown.end(), &outcome) == shown.end()) shown.push_back(&outcome);
    if (shown.empty()) {
        muted_text(usable_gpu(state) ? "Nothing run yet: make your guess, then press Run."
                                     : "Nothing measured to show: no GPU here, and no recorded results of this "
                                       "experiment (assets/experiments/).");
        return;
    }
    for (int i = 0; i < static_cast<int>(shown.size()); ++i) {
        if (i > 0) ImGui::Separator();
        draw_outcome(state, e, i, *shown[static_cast<std::size_t>(i)]);
    }
}

}  // namespace

std::span<const std::string_view> prediction_choices(Experiment experiment) {
    if (experiment == Experiment::BankConflicts) return kSlowdowns;
    return kBreaksC;
}

std::optional<int> observed_choice(const ExperimentPage& page, Experiment experiment) {
    bool any = false;
    if (experiment == Experiment::BankConflicts) {
        double worst = -1.0;
        for (const ExperimentOutcome& o : page.outcomes)
            if (o.run && o.run->broken_ms > 0 && o.run->real_ms > 0) {
                any = true;
                worst = std::max(worst, o.run->broken_ms / o.run->real_ms - 1.0);
            }
        if (!any) return std::nullopt;
        return worst < 0.02 ? 0 : worst < 0.15 ? 1 : worst < 0.6 ? 2 : 3;
    }
    bool every = true, never = true;
    for (const ExperimentOutcome& o : page.outcomes) {
        if (!o.run || o.run->runs <= 0) continue;
        any = true;
        if (o.run->wrong_runs < o.run->runs) every = false;
        if (o.run->wrong_runs > 0) never = false;
    }
    if (!any) return std::nullopt;
    return every ? 0 : never ? 2 : 1;
}

float wrong_share_value(int wrong, int runs) {
    if (wrong <= 0 || runs <= 0) return 0.0f;
    return 0.35f + 0.65f * std::min(1.0f, static_cast<float>(wrong) / static_cast<float>(runs));
}

std::optional<std::string> open_experiment(AppState& state, Experiment experiment, bool in_theatre) {
    state.experiments.experiment = experiment;
    if (!in_theatre) {
        state.lab.view = LabView::Experiment;
        return std::nullopt;
    }
    if (!watches_shared_memory(experiment))
        return format_text("{} has no stale read to show in the theatre (only the missing-sync experiments do)",
                           model::experiment_name(experiment));
    load_committed_experiments(state.experiments);
    for (const ExperimentOutcome& outcome : page_of(state.experiments, experiment).outcomes) {
        if (!outcome.stale) continue;
        if (const auto read = model::most_telling(*outcome.stale)) {
            const model::ExperimentCase& c = outcome.stale->c.problem.m > 0 ? outcome.stale->c : outcome.c;
            show_race_in_theatre(state, race_moment(experiment, c, *read));
            return std::nullopt;
        }
    }
    std::string note = format_text("no result of {} with a stale read to show (none recorded in {})",
                                   model::experiment_name(experiment), (paths::data_dir() / "experiments").string());
    if (!state.experiments.load_message.empty()) note += "; " + state.experiments.load_message;
    return note;
}

void draw_experiment_view(AppState& state, float bottom_reserve) {
    ExperimentState& experiments = state.experiments;
    load_committed_experiments(experiments);
    const Experiment e = experiments.experiment;
    ExperimentPage& page = page_of(experiments, e);

    const float panel_width = std::min(ImGui::GetFontSize() * 30.0f, ImGui::GetContentRegionAvail().x * 0.42f);
    begin_side_column(state, "##experiment_panel", panel_width, bottom_reserve);
    draw_picker(experiments);
    ImGui::Separator();
    draw_texts(e);
    ImGui::Separator();
    draw_prediction(page, e);
    ImGui::Separator();
    draw_cases(page, e, experiments.batch.has_value());
    ImGui::Separator();
    draw_run_controls(state, e);
    end_side_column();

    ImGui::SameLine();
    ImGui::BeginChild("##experiment_results", ImVec2(0.0f, -bottom_reserve), false);
    draw_results(state, e);
    ImGui::EndChild();
}

}  // namespace ts::views
