#include "views/theatre/sm_timeline.hpp"

#include <algorithm>
#include <memory>
#include <numeric>

#include "model/format.hpp"
#include "paths/data_dir.hpp"
#include "views/theatre/theatre_logic.hpp"
#include "views/theatre/theatre_traces.hpp"
#include "views/common/plot_math.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "platform/imgui_compat.hpp"

namespace ts::views {

using model::fixed;
using model::format_text;

namespace {

// The timeline and lanes of the trace on show, computed once per trace rather than
// every frame (a 4096² grid has 16384 blocks).
struct CachedTimeline {
    std::shared_ptr<const model::KernelTrace> trace;  // held, so its address is not reused
    model::SmTimeline timeline;
    SmLanes lanes;
};

const CachedTimeline& cached(const std::shared_ptr<const model::KernelTrace>& trace) {
    static CachedTimeline cache;
    if (cache.trace != trace) {
        cache.trace = trace;
        cache.timeline = model::sm_timeline(*trace);
        cache.lanes = assign_lanes(cache.timeline);
    }
    return cache;
}

std::shared_ptr<const model::KernelTrace> shown_trace(const AppState& state) {
    const model::KernelTrace* trace = timeline_trace(state);
    const TheatreTraces& r = state.theatre.traces;
    if (!trace) return nullptr;
    if (trace == r.rung.get()) return r.rung;
    for (const auto& recorded : r.tensor_cores)
        if (trace == recorded.get()) return recorded;
    return trace == r.tiled.get() ? r.tiled : r.naive;
}

// Waves take turns through three hues, so that neighbouring waves differ.
ImU32 wave_colour(int wave) {
    constexpr int kHues = 3;
    switch ((wave - 1) % kHues) {
        case 0: return colours::kC.line;
        case 1: return colours::kB.line;
        default: return colours::kA.line;
    }
}

}  // namespace

SmLanes assign_lanes(const model::SmTimeline& timeline) {
    SmLanes lanes;
    lanes.lane.assign(timeline.blocks.size(), 0);
    std::vector<std::size_t> order(timeline.blocks.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto& x = timeline.blocks[a];
        const auto& y = timeline.blocks[b];
        return x.sm != y.sm ? x.sm < y.sm : x.start_us < y.start_us;
    });
    // Per SM: a block takes the first lane whose last block has ended.
    std::vector<double> lane_free_at;
    std::uint32_t sm = model::kNoSm;
    for (std::size_t i : order) {
        const model::BlockSpan& block = timeline.blocks[i];
        if (block.sm != sm) {
            sm = block.sm;
            lane_free_at.clear();
        }
        std::size_t lane = 0;
        while (lane < lane_free_at.size() && lane_free_at[lane] > block.start_us) ++lane;
        if (lane == lane_free_at.size()) lane_free_at.push_back(0.0);
        lane_free_at[lane] = block.end_us;
        lanes.lane[i] = static_cast<int>(lane);
        lanes.lanes_per_sm = std::max(lanes.lanes_per_sm, static_cast<int>(lane) + 1);
    }
    return lanes;
}

std::string timeline_summary(const model::KernelTrace& trace, const model::SmTimeline& timeline) {
    return format_text("{} on {}×{}×{}, recorded on the {} ({}): {} ran on {} of its {} SMs, at most {} at once, "
                  "in {}; {} µs from the first block's start to the last one's end. The trace's own "
                  "stores slow the kernel: read order and overlap here, not speed.",
                  model::describe(trace.config), trace.problem.m, trace.problem.n, trace.problem.k, trace.device,
                  trace.recorded_at, model::counted(trace.blocks(), "block"), timeline.sms_used.size(), trace.sm_count,
                  timeline.most_at_once, model::counted(timeline.waves, "wave"), fixed(timeline.span_us, 1));
}

std::optional<std::string> recorded_block_line(const AppState& state) {
    if (!state.theatre.traces.replay) return std::nullopt;
    const auto trace = shown_trace(state);
    if (!trace || trace->config.kind != played_config(state).kind) return std::nullopt;
    const model::Index2 block = state.theatre.block;
    const model::Index2 grid = trace->grid();
    if (block.x >= grid.x || block.y >= grid.y) return std::nullopt;
    const CachedTimeline& c = cached(trace);
    const model::BlockSpan& span = c.timeline.blocks[static_cast<std::size_t>(model::block_linear(block.x, block.y, grid.x))];
    const int phase = current_step(state).phase;
    const model::PhaseSpan phase_time = model::phase_span(*trace, block, phase);
    return format_text("As recorded on the {}{}: block ({}, {}) ran on SM {} (wave {}); phase {} took {} µs, {} cycles.",
                  trace->device, trace->label.empty() ? std::string() : " (" + trace->label + ")", block.x, block.y, static_cast<std::int64_t>(span.sm), span.wave, phase,
                  fixed(phase_time.end_us - phase_time.start_us, 2), static_cast<std::int64_t>(phase_time.cycles));
}

void draw_sm_summary(const AppState& state) {
    const auto trace = shown_trace(state);
    if (!trace) {
        ImGui::TextWrapped("No trace of this problem yet.");
        static const std::string traces = (paths::data_dir() / "traces").string();
        muted_text(format_text(
            "Press \"Trace on GPU\" above (it needs a GPU), or open a trace with --trace FILE: {} holds some "
            "made on an NVIDIA H200 (40×28×36 with T = 8, the textbook's 4×4, and 1024×1024×256 with T = 32 for "
            "waves) and of wgmma on an H100 (300×200×100, 100×72×40). A trace fits when M, N, K and T are the "
            "ones on show.",
            traces));
        return;
    }
    const CachedTimeline& c = cached(trace);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(timeline_summary(*trace, c.timeline).c_str());
    ImGui::PopTextWrapPos();
    const bool tensor_core = model::is_tensor_core(state.kernel.kind);
    muted_text(format_text("The timeline {}: one row per SM that ran a block ({} rows{}), time to the right; blocks on "
                      "one SM at the same time share its row; colour: wave (green, orange, blue, then again); thin "
                      "lines inside a block: where each of its {} began.{}",
                      tensor_core ? "below" : "above the matrices", c.timeline.sms_used.size(),
                      static_cast<int>(c.timeline.sms_used.size()) < trace->sm_count ? ", idle SMs left out" : "",
                      tensor_core ? "K steps (the wait for the stage, then its wgmmas)" : "phases",
                      tensor_core ? ""
                      : trace->config.kind == played_config(state).kind
                          ? " The block on show is magenta, its current phase outlined. Click a block to show it."
                          : " The block on show is magenta, its current phase outlined."));
}

bool has_sm_timeline(const AppState& state) { return shown_trace(state) != nullptr; }

void draw_sm_timeline(TheatreState& theatre, const AppState& app, float height) {
    const auto trace = shown_trace(app);
    if (!trace) return;
    const CachedTimeline& c = cached(trace);
    const model::SmTimeline& timeline = c.timeline;
    if (timeline.blocks.empty() || timeline.span_us <= 0.0) return;
    const bool clickable = trace->config.kind == played_config(app).kind;
    const int phases = trace->phases();

    const float font = ImGui::GetFontSize();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    const float label_width = font * 3.6f;
    const float axis_height = font * 1.4f;
    const int rows = static_cast<int>(timeline.sms_used.size());
    const float row_height = std::clamp((height - axis_height) / static_cast<float>(rows), 1.0f, font * 1.2f);
    const Rect plot{{origin.x + label_width, origin.y},
                    {origin.x + std::max(width, label_width + 100.0f), origin.y + row_height * static_cast<float>(rows)}};
    ImGui::InvisibleButton("##sm_timeline", ImVec2(plot.max.x - origin.x, plot.height() + axis_height));
    const bool hovering = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked();
    ImDrawList* draw = ImGui::GetWindowDrawList();

    auto x_of = [&](double us) { return plot.min.x + static_cast<float>(us / timeline.span_us) * plot.width(); };
    auto row_of = [&](std::uint32_t sm) {
        return static_cast<int>(std::lower_bound(timeline.sms_used.begin(), timeline.sms_used.end(), sm) -
                                timeline.sms_used.begin());
    };

    // Rows and their SM numbers, as many labels as fit.
    const int label_every = std::max(1, static_cast<int>(std::ceil(imgui_compat::font_size(small_font()) / row_height)));
    for (int row = 0; row < rows; ++row) {
        const float y = plot.min.y + row_height * static_cast<float>(row);
        if (row % 2 == 1) draw->AddRectFilled({plot.min.x, y}, {plot.max.x, y + row_height}, IM_COL32(0, 0, 0, 12));
        if (row % label_every == 0)
            draw->AddText(small_font(), imgui_compat::font_size(small_font()), {origin.x, y}, colours::kMuted,
                          format_text("SM {}", static_cast<std::int64_t>(timeline.sms_used[row])).c_str());
    }

    // Lanes when there is room for them; otherwise blocks side by side on one SM overlap,
    // drawn translucent so that the overlap shows darker.
    const bool lanes = row_height >= 3.0f * static_cast<float>(c.lanes.lanes_per_sm);
    const float lane_height = lanes ? row_height / static_cast<float>(c.lanes.lanes_per_sm) : row_height;
    const ImU8 alpha = lanes || c.lanes.lanes_per_sm == 1 ? 255 : 150;
    auto block_box = [&](std::size_t i) {
        const model::BlockSpan& b = timeline.blocks[i];
        const float top = plot.min.y + row_height * static_cast<float>(row_of(b.sm)) +
                          (lanes ? lane_height * static_cast<float>(c.lanes.lane[i]) : 0.0f);
        const float gap = lane_height >= 4.0f ? 1.0f : 0.0f;
        return Rect{{x_of(b.start_us), top}, {std::max(x_of(b.end_us), x_of(b.start_us) + 1.0f), top + lane_height - gap}};
    };
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    std::optional<std::size_t> under_mouse;
    std::optional<std::size_t> selected;
    for (std::size_t i = 0; i < timeline.blocks.size(); ++i) {
        const model::BlockSpan& b = timeline.blocks[i];
        if (b.sm == model::kNoSm) continue;
        const Rect box = block_box(i);
        const ImU32 colour = wave_colour(b.wave);
        draw->AddRectFilled(box.min, box.max, (colour & ~IM_COL32_A_MASK) | (ImU32{alpha} << IM_COL32_A_SHIFT));
        // Where each phase (K step) began, where there is room to tell them apart.
        if (box.width() >= 4.0f * static_cast<float>(phases) && box.height() >= 4.0f)
            for (int phase = 1; phase < phases; ++phase) {
                const float x = x_of(model::phase_span(*trace, b.block, phase).start_us);
                draw->AddLine({x, box.min.y}, {x, box.max.y}, IM_COL32(255, 255, 255, 200), 1.0f);
            }
        if (clickable && b.block == theatre.block) selected = i;
        if (hovering && box.contains(mouse)) under_mouse = i;
    }
    // The block on show, and the part of it that is the current phase.
    if (selected) {
        const Rect box = block_box(*selected);
        const float grow = std::max(0.0f, 4.0f - box.height()) * 0.5f;
        draw->AddRectFilled({box.min.x, box.min.y - grow}, {std::max(box.max.x, box.min.x + 2.0f), box.max.y + grow},
                            colours::kHighlight);
        const model::PhaseSpan phase = model::phase_span(*trace, timeline.blocks[*selected].block, current_step(app).phase);
        draw->AddRect({x_of(phase.start_us) - 1.0f, box.min.y - grow - 2.0f}, {x_of(phase.end_us) + 1.0f, box.max.y + grow + 2.0f},
                      colours::kCellValue, 0.0f, 0, emphasis_width(2.0f));
    }

    // Time axis: nice ticks in µs.
    const float axis_y = plot.max.y + 2.0f;
    draw->AddLine({plot.min.x, axis_y}, {plot.max.x, axis_y}, colours::kMuted);
    const int max_ticks = std::max(2, static_cast<int>(plot.width() / (font * 5.0f)));
    for (const Tick& tick : make_ticks({0.0, timeline.span_us}, AxisScale::Linear, max_ticks)) {
        const float x = x_of(tick.value);
        draw->AddLine({x, axis_y}, {x, axis_y + 4.0f}, colours::kMuted);
        draw->AddText(small_font(), imgui_compat::font_size(small_font()), {x + 2.0f, axis_y + 1.0f}, colours::kMuted,
                      (tick.label + " µs").c_str());
    }

    if (under_mouse) {
        const model::BlockSpan& b = timeline.blocks[*under_mouse];
        ImGui::SetTooltip("block (%d, %d) on SM %u, wave %d\n%.2f to %.2f µs", b.block.x, b.block.y, b.sm, b.wave,
                          b.start_us, b.end_us);
        if (clicked && clickable) theatre.block = b.block;
    }
}

}  // namespace ts::views
