#include "views/theatre/tensor_core/stages.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <memory>

#include "model/format.hpp"
#include "model/ladder_rungs.hpp"
#include "views/common/picture_layout.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/theatre/tensor_core/fragments.hpp"
#include "views/theatre/tensor_core/source_tab.hpp"
#include "views/theatre/theatre_paint.hpp"
#include "views/theatre/theatre_traces.hpp"

namespace ts::views {

using model::format_text;

namespace {

// K steps of one tile the chart shows at most: enough for the ring to fill and turn twice.
constexpr int kShownStepsPerTile = 8;

}  // namespace

RingSchedule ring_schedule(const model::WgmmaShape& s, int steps_per_tile, int tiles) {
    RingSchedule r;
    r.steps_per_tile = std::max(1, steps_per_tile);
    r.steps = r.steps_per_tile * std::max(1, tiles);
    r.rows.push_back(s.producer ? "producer: TMA copies" : "thread 0: TMA copies");
    for (int c = 0; c < s.consumers; ++c)
        r.rows.push_back(format_text("{} {}: wgmmas", s.producer ? "consumer" : "warpgroup", c));
    std::vector<double> release(static_cast<std::size_t>(r.steps), 0.0);
    std::vector<double> free_at(static_cast<std::size_t>(s.consumers), 0.0);
    double producer_free = 0.0;
    for (int j = 0; j < r.steps; ++j) {
        const int stage = j % s.stages;
        // A stage is refilled once every consumer has released its K step of one round before.
        const double ready = j >= s.stages ? release[static_cast<std::size_t>(j - s.stages)] : 0.0;
        const double issue = std::max(producer_free, ready);
        producer_free = issue + kIssueSteps;
        const double landed = issue + kCopyLatencySteps;
        r.bars.push_back({0, j, stage, issue, landed});
        // A tile's first K step after the first tile: each consumer writes the last tile's C first.
        if (j > 0 && j % r.steps_per_tile == 0)
            for (int c = 0; c < s.consumers; ++c) {
                double& free = free_at[static_cast<std::size_t>(c)];
                r.bars.push_back({1 + c, j, stage, free, free + kEpilogueSteps, true});
                free += kEpilogueSteps;
            }
        // Without a producer warpgroup (16) the whole block meets at a barrier every K step.
        const double together = *std::max_element(free_at.begin(), free_at.end());
        double released = 0.0;
        for (int c = 0; c < s.consumers; ++c) {
            double& free = free_at[static_cast<std::size_t>(c)];
            const double start = std::max(landed, s.producer ? free : together);
            free = start + 1.0;
            released = std::max(released, free);
            r.bars.push_back({1 + c, j, stage, start, free});
        }
        release[static_cast<std::size_t>(j)] = released;
    }
    if (std::max(1, tiles) > 1)  // the last tile's C
        for (int c = 0; c < s.consumers; ++c) {
            const double free = free_at[static_cast<std::size_t>(c)];
            r.bars.push_back({1 + c, r.steps, (r.steps - 1) % s.stages, free, free + kEpilogueSteps, true});
        }
    for (const RingBar& bar : r.bars) r.span = std::max(r.span, bar.end);
    return r;
}

RingSchedule recorded_ring(const model::KernelTrace& trace, int block, int max_steps) {
    RingSchedule r;
    const int steps = trace.phases();
    if (trace.config.kind != model::KernelKind::WarpSpecialized || block < 0 || block >= trace.blocks() ||
        static_cast<std::int64_t>(trace.role_clocks.size()) != model::role_clock_records(trace.config, trace.problem))
        return r;
    const model::WgmmaShape& s = model::kWarpSpecializedShape;
    r.recorded = true;
    r.steps = r.steps_per_tile = std::min(steps, max_steps);
    r.rows = {"producer: TMA copies", "consumer 0: wgmmas", "consumer 1: wgmmas"};
    const auto at = [&](int role, int step) -> const model::RoleClock& {
        return trace.role_clocks[static_cast<std::size_t>(model::role_clock_slot(block, steps, role, step))];
    };
    std::uint64_t origin = UINT64_MAX;
    for (int role = 0; role < model::kRecordedRoles; ++role) origin = std::min(origin, at(role, 0).wait_start);
    const auto t = [&](std::uint64_t cycles) { return static_cast<double>(cycles - std::min(cycles, origin)); };
    for (int j = 0; j < r.steps; ++j) {
        const int stage = j % s.stages;
        const std::uint64_t seen = std::min(at(1, j).ready, at(2, j).ready);
        r.bars.push_back({0, j, stage, t(at(0, j).ready), t(std::max(seen, at(0, j).ready))});
        for (int role = 1; role < model::kRecordedRoles; ++role) {
            const model::RoleClock& c = at(role, j);
            if (c.ready > c.wait_start) r.bars.push_back({role, j, stage, t(c.wait_start), t(c.ready), false, true});
            r.bars.push_back({role, j, stage, t(c.ready), t(c.done)});
        }
    }
    for (const RingBar& bar : r.bars) r.span = std::max(r.span, bar.end);
    return r;
}

std::vector<std::string> barrier_lines(const model::WgmmaShape& s, int step) {
    std::vector<std::string> lines;
    for (int t = 0; t < s.stages; ++t) {
        // The K step stage t holds while the consumers reach `step`: the producer runs up to a
        // whole ring ahead of them.
        int held = step;
        while (held % s.stages != t) ++held;
        const model::StageStep ring = model::stage_step(s, held);
        std::string line = format_text("stage {}: K step {} (round {}). full[{}]: the consumers wait for phase bit {}; one "
                                       "arrival armed it for {} bytes, which the copies complete.",
                                       t, held, ring.round, t, ring.full_parity, grouped(ring.expect_tx));
        if (!s.producer)
            line += " No empty barrier: the block's __syncthreads after each K step tells thread 0 the stage is free.";
        else if (ring.producer_waits)
            line += format_text(" empty[{}]: {} (every consumer{}) release it; the producer waited for phase "
                                "bit {} before these copies.",
                                t, model::counted(model::empty_arrivals(s), "arrival"), s.cluster_m > 1 ? " of both CTAs" : "", ring.empty_parity);
        else
            line += format_text(" empty[{}]: {} release it; round 0: the producer did not wait, the stage began "
                                "empty.",
                                t, model::counted(model::empty_arrivals(s), "arrival"));
        lines.push_back(line + (held == step ? "  ← read now" : ""));
    }
    return lines;
}

std::vector<std::string> box_lines(const model::WgmmaShape& s, int step, int stage, std::int64_t n) {
    std::vector<std::string> lines;
    const bool runs = model::b_slab_runs(s, n);
    const auto issuer = [&](int rank) {
        return s.cluster_m > 1 ? format_text(", issued by CTA {} of the cluster and multicast to both", rank)
                               : std::string();
    };
    for (int i = 0; i < (runs ? model::a_boxes(s) : model::boxes_per_stage(s)); ++i) {
        const model::TmaBox box = model::tma_box(s, 0, 0, step, i, stage);
        lines.push_back(format_text("{}: a box {} wide × {} high from ({} {}, {} {}) to shared byte {}, {} bytes{}",
                                    box.of_a ? "A" : "B", box.inner, box.outer, box.of_a ? "k" : "n", box.inner_coord,
                                    box.of_a ? "m" : "k", box.outer_coord, grouped(box.smem_offset),
                                    grouped(box.bytes), box.of_a ? std::string() : issuer(box.issuer)));
    }
    if (runs)
        for (int rank = 0; rank < s.cluster_m; ++rank) {
            const model::TmaSlabRun run = model::b_slab_run(s, 0, step, rank, stage);
            lines.push_back(format_text("B: {} slabs of {} columns in one copy (a 4-D tensor map), from slab {}, row {} to "
                                        "shared byte {}, {} bytes{}",
                                        model::b_run_slabs(s), s.span_elements(), run.first_slab, run.first_row,
                                        grouped(run.smem_offset), grouped(run.bytes), issuer(rank)));
        }
    return lines;
}

namespace {

// What the chart shows for the rung on show: the ring (the trace's where one of this problem
// is replayed, else the model's on tc_k_loop_problem), and the trace it came from.
struct ShownRing {
    RingSchedule ring;
    std::shared_ptr<const model::KernelTrace> trace;  // of this rung and problem, replayed or not
    bool fits = false;
    int k_steps = 0, per_tile = 0, tiles = 1;
    TcShownProblem shown;
};

ShownRing shown_ring(TheatreState& theatre, const AppState& app, const model::WgmmaShape& s) {
    ShownRing r;
    r.shown = tc_k_loop_problem(app);
    r.k_steps = model::wgmma_k_steps(s, static_cast<int>(std::min<std::int64_t>(r.shown.problem.k, 1 << 30)));
    r.per_tile = std::min(r.k_steps, kShownStepsPerTile);
    r.tiles = model::is_persistent(app.kernel.kind) ? 2 : 1;
    // The GPU's own clocks where this rung was recorded on the problem on show.
    r.trace = tensor_core_trace(theatre.traces, app.kernel.kind);
    r.fits = r.trace && trace_fits(*r.trace, app);
    // Any block of the trace: the chosen one's roles, on the SM it ran on.
    int& block = theatre.ring_block;
    block = r.fits ? std::clamp(block, 0, r.trace->blocks() - 1) : 0;
    if (r.fits && theatre.traces.replay) r.ring = recorded_ring(*r.trace, block, 2 * kShownStepsPerTile);
    if (!r.ring.recorded) r.ring = ring_schedule(s, r.per_tile, r.tiles);
    theatre.ring_step = std::clamp(theatre.ring_step, 0, r.ring.steps - 1);
    return r;
}

// The chart's rows at the font's size: the producer's lanes (one per stage) and a row per consumer.
constexpr float kLaneFonts = 1.3f, kRowFonts = 1.7f, kAxisFonts = 1.3f, kLabelFonts = 11.0f;

}  // namespace

namespace {

// Above the chart: the size shown, the trace's line, the K step (and block) to read.
void draw_stages_controls(TheatreState& theatre, const AppState& app) {
    const model::WgmmaShape s = *model::wgmma_shape_of(app.kernel);
    ShownRing shown = shown_ring(theatre, app, s);
    const RingSchedule& ring = shown.ring;
    const auto& trace = shown.trace;
    int& block = theatre.ring_block;
    int& chosen = theatre.ring_step;
    if (!shown.shown.note.empty() && !ring.recorded) ImGui::TextWrapped("%s", shown.shown.note.c_str());
    if (shown.fits) {
        ImGui::Checkbox("the trace's clocks", &theatre.traces.replay);
        ImGui::SameLine();
    }
    if (ring.recorded) {
        const bool broken = trace_difference(trace).has_value();
        coloured_text_wrapped(
            broken ? colours::kWarning : colours::kPass,
            format_text("Recorded on {} ({}): block {} (of {}, on SM {})'s first {} in the SM's own cycles. "
                        "Grey: a consumer waiting for its stage; a copy's bar runs from the producer arming the stage "
                        "to the first consumer seeing it full. {}",
                        trace->device, trace->recorded_at, block, trace->blocks(),
                        trace->block_sm[static_cast<std::size_t>(block)], model::counted(ring.steps, "K step"),
                        broken ? "The clocks break the ring's protocol (tilescope-cli record says where)."
                               : "Every wait ended after what it waited for.")
                .c_str());
    }
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.0f);
    ImGui::SliderInt("K step", &chosen, 0, ring.steps - 1);
    if (ring.recorded && trace->blocks() > 1) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
        ImGui::SliderInt("block (launch order)", &block, 0, trace->blocks() - 1);
    }
}

// Under the chart: how the model's chart is timed, then the chosen K step's barriers and copies.
void draw_stages_words(TheatreState& theatre, const AppState& app) {
    const model::WgmmaShape s = *model::wgmma_shape_of(app.kernel);
    const ShownRing shown = shown_ring(theatre, app, s);
    const RingSchedule& ring = shown.ring;
    const int chosen = theatre.ring_step;
    std::string text =
        ring.recorded ? std::string()
                      : format_text("{} of {} bytes; K = {} is {} of {}{}. Time in K steps of wgmmas, as the model orders them "
                        "(a copy lands {} steps after its issue{}): order and overlap, not a measurement.",
                        model::counted(s.stages, "stage"), grouped(s.stage_bytes()), shown.shown.problem.k,
                        model::counted(shown.k_steps, "K step"), s.bk,
                        shown.tiles > 1 ? std::string(", two tiles of them shown (a persistent block runs its ring on "
                                                      "from one tile to the next)")
                        : shown.k_steps > shown.per_tile ? format_text(", the first {} shown", shown.per_tile)
                                                         : std::string(),
                        kCopyLatencySteps, shown.tiles > 1 ? format_text(", C takes {}", kEpilogueSteps) : std::string());
    if (!text.empty()) text += "\n";
    // Within its tile, the chosen step is K step chosen % per_tile; its stage is the ring's.
    const int k_step = chosen % ring.steps_per_tile;
    text += format_text("The ring's barriers as the consumers reach K step {}:", chosen);
    for (const std::string& line : barrier_lines(s, chosen)) text += "\n• " + line;
    text += format_text("\nIts copies, for block (0, 0){} (model::tma_box; a box is at most one 128-byte span wide):",
                        chosen >= ring.steps_per_tile
                            ? format_text("'s K step {} of the next tile's row and column", k_step)
                            : std::string());
    for (const std::string& line : box_lines(s, k_step, chosen % s.stages, app.problem.n)) text += "\n• " + line;
    ImGui::PushTextWrapPos(0.0f);
    muted_text(text);
    ImGui::PopTextWrapPos();
}

// The chart, in the current window's width and up to kStagesChartShare of its remaining height.
void draw_stages_chart(TheatreState& theatre, PictureLayout& picture, const AppState& app) {
    const model::WgmmaShape s = *model::wgmma_shape_of(app.kernel);
    const ShownRing shown = shown_ring(theatre, app, s);
    const RingSchedule& ring = shown.ring;
    int& chosen = theatre.ring_step;

    const float font = ImGui::GetFontSize();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImVec2 avail = ImGui::GetContentRegionAvail();
    // The words under the chart keep whole lines, at least one: the chart takes the part of a
    // line that kStagesChartShare would leave them.
    const float words = std::max(1.0f, std::floor(avail.y * (1.0f - kStagesChartShare) / font)) * font;
    avail.y -= words + ImGui::GetStyle().ItemSpacing.y;
    picture.clear();
    picture.view = "theatre";
    picture.canvas_min = origin;
    // The producer's copies overlap in time (several are in flight at once): one lane per stage.
    // Rows at the font's size, as tall as the area (a projector's picture fills its height), and
    // shorter, with smaller text, where large text on a small screen leaves the chart less.
    const float natural = font * (kLaneFonts * static_cast<float>(s.stages) +
                                  kRowFonts * static_cast<float>(ring.rows.size() - 1));
    const float stretch = std::clamp((avail.y - font * kAxisFonts) / natural, 0.4f, 2.0f);
    const float text_size = std::min(font, font * kLaneFonts * stretch * 0.85f);
    const float label_width = font * kLabelFonts, row_height = font * kRowFonts * stretch,
                lane_height = font * kLaneFonts * stretch;
    const float producer_height = lane_height * static_cast<float>(s.stages);
    const float plot_width = std::max(avail.x - label_width, font * 10.0f);
    const float chart_height = producer_height + row_height * static_cast<float>(ring.rows.size() - 1);
    const auto row_top = [&](int row) {
        return origin.y + (row == 0 ? 0.0f : producer_height + row_height * static_cast<float>(row - 1));
    };
    ImGui::InvisibleButton("##tc_stages", ImVec2(avail.x, chart_height + font * kAxisFonts));
    // The picture's canvas: what it takes of the tab, the rest being its words'.
    picture.canvas_max = {origin.x + avail.x, origin.y + chart_height + font * kAxisFonts};
    picture.add_matrix("the ring's chart", origin, {origin.x + label_width + plot_width, origin.y + chart_height});
    const bool hovering = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    ImFont* small = ImGui::GetFont();
    const auto x_of = [&](double t) { return origin.x + label_width + static_cast<float>(t / ring.span) * plot_width; };
    for (std::size_t row = 0; row < ring.rows.size(); ++row) {
        const float y = row_top(static_cast<int>(row));
        const float height = row == 0 ? producer_height : row_height;
        if (row % 2 == 1)
            draw->AddRectFilled({origin.x, y}, {origin.x + label_width + plot_width, y + height}, IM_COL32(0, 0, 0, 12));
        // A row's name as large as a consumer's row allows (a lane is shorter), and no wider than its column.
        const char* name = ring.rows[row].c_str();
        float name_size = std::min(font, std::max(text_size, row_height * 0.8f));
        const float name_room = label_width - font * 0.5f, name_width = small->CalcTextSizeA(name_size, FLT_MAX, 0.0f, name).x;
        if (name_width > name_room) name_size *= name_room / name_width;
        const ImVec2 at{origin.x, y + (std::min(height, font * kRowFonts * 1.5f) - name_size) * 0.5f};
        draw->AddText(small, name_size, at, ImGui::GetColorU32(ImGuiCol_Text), name);
        const float label_end = at.x + small->CalcTextSizeA(name_size, FLT_MAX, 0.0f, name).x;
        picture.add_label("row: ", ring.rows[row], at, {label_end, at.y + name_size});
    }
    for (const RingBar& bar : ring.bars) {
        const float y = row_top(bar.row) + (bar.row == 0 ? lane_height * static_cast<float>(bar.stage) : 0.0f);
        const float height = bar.row == 0 ? lane_height : row_height;
        const ImVec2 a{x_of(bar.start), y + 2.0f}, b{std::max(x_of(bar.end) - 1.0f, x_of(bar.start) + 2.0f), y + height - 2.0f};
        // C's epilogue in a light grey that its label reads on in either colour scheme.
        draw->AddRectFilled(a, b, bar.epilogue || bar.waiting ? IM_COL32(185, 185, 185, 255) : lane_colour(bar.stage));
        const std::string label = bar.epilogue ? "C" : bar.waiting ? "" : format_text("K{}", bar.step);
        // As large as the bar's height allows: a consumer's bar is taller than a copy's lane.
        const float bar_text = std::max(text_size, std::min(font, (b.y - a.y) * 0.85f));
        const ImVec2 size = small->CalcTextSizeA(bar_text, FLT_MAX, 0.0f, label.c_str());
        if (size.x <= b.x - a.x - 2.0f)
            draw->AddText(small, bar_text, {a.x + (b.x - a.x - size.x) * 0.5f, a.y + (b.y - a.y - size.y) * 0.5f},
                          colours::kCellValue, label.c_str());
        if (!bar.epilogue && !bar.waiting && bar.step == chosen) draw->AddRect(a, b, IM_COL32(0, 0, 0, 255), 0.0f, 0, 2.5f);
        if (hovering && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y) {
            ImGui::SetTooltip("%s", bar.waiting ? format_text("waiting for K step {}'s stage to be full: {} cycles",
                                                              bar.step, model::fixed(bar.end - bar.start, 0))
                                                      .c_str()
                                    : ring.recorded
                                        ? format_text("K step {} on stage {}: {} to {} cycles ({} cycles){}", bar.step,
                                                      bar.stage, model::fixed(bar.start, 0), model::fixed(bar.end, 0),
                                                      model::fixed(bar.end - bar.start, 0),
                                                      bar.row == 0 ? ", from arming the stage to a consumer seeing it full"
                                                                   : ", its wgmmas")
                                              .c_str()
                                    : bar.epilogue ? "C of the tile: stored through shared memory while the producer fills "
                                                   "the next tile's stages"
                                    : bar.row == 0
                                        ? format_text("K step {}'s copies into stage {}: from their issue to the moment "
                                                      "their bytes complete full[{}]",
                                                      bar.step, bar.stage, bar.stage)
                                              .c_str()
                                        : format_text("K step {} on stage {}: the wgmmas, then an arrival on empty[{}]",
                                                      bar.step, bar.stage, bar.stage)
                                              .c_str());
            if (clicked && !bar.epilogue) chosen = bar.step;
        }
    }
    const std::string axis =
        ring.recorded ? format_text("SM cycles → (0 to {}; click a bar to choose its K step)", model::fixed(ring.span, 0))
                      : std::string("time → (click a bar to choose its K step)");
    const ImVec2 axis_at{x_of(0.0), origin.y + chart_height + 2.0f};
    text_at(draw, small, axis_at, colours::kMuted, axis);
    picture.add_label("axis: ", axis, axis_at, {axis_at.x + text_width(small, axis), axis_at.y + font});
}

}  // namespace

void draw_tc_stages(TheatreState& theatre, PictureLayout& picture, const AppState& app) {
    if (!model::wgmma_shape_of(app.kernel)) {
        ImGui::TextWrapped("wmma, mma and mma-async have no TMA and no mbarriers: every thread copies its share of "
                           "each tile itself (mma-async with cp.async, four stages deep, waiting with "
                           "cp.async.wait_group), and the block meets at __syncthreads. The ring of stages starts "
                           "with wgmma.");
        return;
    }
    draw_stages_controls(theatre, app);
    draw_stages_chart(theatre, picture, app);
    // The words in whole lines, at the tab's foot (where the chart's rows stop growing, what
    // they leave too): a scrolled region that ends in half a line reads as cut-off text.
    const float line = ImGui::GetFontSize(), room = ImGui::GetContentRegionAvail().y;
    const float lines = std::floor(room / line);
    if (lines >= 1.0f) ImGui::SetCursorPosY(ImGui::GetCursorPosY() + room - lines * line);
    ImGui::BeginChild("##stages_words", ImVec2(0.0f, lines >= 1.0f ? lines * line : 0.0f));
    draw_stages_words(theatre, app);
    ImGui::EndChild();
}

}  // namespace ts::views
