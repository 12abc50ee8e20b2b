#include "views/theatre/theatre_view.hpp"

#include "views/export/export_dialog.hpp"

#include <algorithm>
#include <cfloat>

#include "model/format.hpp"
#include "model/ladder_rungs.hpp"
#include "views/theatre/rungs/rung_canvas.hpp"
#include "views/theatre/block/naive_vs_tiled.hpp"
#include "views/theatre/phase_player.hpp"
#include "views/theatre/block/race_overlay.hpp"
#include "views/theatre/sm_timeline.hpp"
#include "views/theatre/source_panel.hpp"
#include "views/theatre/tensor_core/fragments.hpp"
#include "views/theatre/tensor_core/smem.hpp"
#include "views/theatre/tensor_core/source_tab.hpp"
#include "views/theatre/tensor_core/stages.hpp"
#include "views/theatre/tensor_core/tiles.hpp"
#include "views/theatre/block/theatre_canvas.hpp"
#include "views/theatre/theatre_logic.hpp"
#include "views/theatre/theatre_traces.hpp"
#include "views/theatre/block/thread_inspector.hpp"
#include "views/window/side_column.hpp"
#include "views/common/picture_layout.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/theatre/block/warp_panel.hpp"

namespace ts::views {

using model::fixed;
using model::format_text;

namespace {

// A compact whole-number field: `label` on the left, no +/- buttons.
bool number(const char* label, const char* id, int& value, int low, int high, float width) {
    ImGui::TextUnformatted(label);
    ImGui::SameLine(0.0f, 4.0f);
    ImGui::SetNextItemWidth(width);
    if (!ImGui::InputInt(id, &value, 0, 0)) return false;
    value = std::clamp(value, low, high);
    return true;
}

// Every kernel the theatre plays; picking a rung of the ladder opens it at its textbook size,
// where one block fills the picture (problem_controls); a tensor-core rung opens its fragments.
void theatre_kernel_combo(model::KernelKind& kernel_kind) {
    const model::KernelKind before = kernel_kind;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
    if (ImGui::BeginCombo("kernel", model::kernel_name(before).data())) {
        for (int i = 0; i < static_cast<int>(model::KernelKind::Cublas); ++i) {
            const auto kind = static_cast<model::KernelKind>(i);
            const bool playable = kind == model::KernelKind::Naive || kind == model::KernelKind::Tiled ||
                                  model::is_ladder(kind) || model::is_tensor_core(kind);
            if (playable && ImGui::Selectable(model::kernel_name(kind).data(), kind == before)) kernel_kind = kind;
        }
        ImGui::EndCombo();
    }
}

// The sizes, T, the batch, the kernel and how it plays: writes the problem and the kernel
// (app.problem, app.kernel) and the theatre's own choices.
void problem_controls(TheatreState& theatre, model::Problem& problem, model::KernelConfig& kernel,
                      const AppState& app) {
    const float w = ImGui::GetFontSize() * 3.4f;
    int m = static_cast<int>(problem.m), n = static_cast<int>(problem.n), k = static_cast<int>(problem.k);
    int batch = static_cast<int>(problem.batch);
    if (number("M", "##m", m, 1, 16384, w)) problem.m = m;
    ImGui::SameLine();
    if (number("N", "##n", n, 1, 16384, w)) problem.n = n;
    ImGui::SameLine();
    if (number("K", "##k", k, 1, 16384, w)) problem.k = k;
    ImGui::SameLine();
    ImGui::BeginDisabled(plays_rung(app));
    number("T", "##t", kernel.tile, 1, model::kMaxTile, w);
    ImGui::EndDisabled();
    if (number("batch", "##batch", batch, 1, 65535, w)) problem.batch = batch;
    ImGui::SameLine();
    number("showing z =", "##z", theatre.batch_z, 0, batch - 1, w);

    const model::KernelKind before = kernel.kind;
    theatre_kernel_combo(kernel.kind);
    if (kernel.kind != before && model::is_ladder(kernel.kind)) {
        const model::Problem textbook = rung_textbook_problem(kernel);
        problem.m = textbook.m, problem.n = textbook.n, problem.k = textbook.k;
        theatre.player.step = 0;
    }
    ImGui::SameLine();
    ImGui::Checkbox("side by side", &theatre.side_by_side);
    ImGui::SameLine();
    ImGui::Checkbox("one k per step", &theatre.each_k);
}

// A tensor-core rung: what it teaches beside who holds which element of its instruction.
// The tensor-core rungs' "Trace on GPU": the wgmma rung's recorded variant writes out its first
// stage as TMA left it (the shared-memory tab draws it) and a clock per block and K step.
void tc_trace_controls(TheatreTraces& traces, const AppState& app, double now) {
    const auto why_not = why_no_trace(app);
    ImGui::BeginDisabled(why_not.has_value());
    if (ImGui::Button("Trace on GPU")) traces.requested = true;
    ImGui::EndDisabled();
    if (why_not && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", why_not->c_str());
    if (!traces.pending.empty()) {
        ImGui::SameLine();
        ImGui::TextUnformatted(format_text("tracing… {} s", fixed(now - traces.pending_since, 1)).c_str());
    } else if (const auto recorded = tensor_core_trace(traces, app.kernel.kind)) {
        coloured_text_wrapped(colours::kPass, format_text("recorded on {} ({}, {}×{}×{})", recorded->device,
                                                          recorded->recorded_at, recorded->problem.m,
                                                          recorded->problem.n, recorded->problem.k)
                                                  .c_str());
    } else if (why_not) {
        ImGui::PushTextWrapPos(0.0f);
        muted_text(*why_not);
        ImGui::PopTextWrapPos();
    }
    if (!traces.error.empty()) coloured_text_wrapped(colours::kError, traces.error.c_str());
}

// The tensor-core rung's panel: which rung, what it changed, what its instruction does, and
// its trace (the export button follows it, drawn by draw_theatre_view). Writes the kernel's kind
// (the combo; app.kernel.kind) and `traces` (app.theatre.traces).
void draw_tc_panel(TheatreTraces& traces, model::KernelKind& kernel_kind, const AppState& app, double now) {
    if (!app.lesson.lesson) heading("Tiling theatre");
    theatre_kernel_combo(kernel_kind);
    for (const model::LadderRung& rung : model::tensor_core_rungs())
        if (rung.kernel.kind == app.kernel.kind) {
            ImGui::Spacing();
            ImGui::TextWrapped("%s", rung.change.data());
            muted_text(format_text("kernels/{}", rung.file));
        }
    ImGui::Spacing();
    const bool wgmma = model::needs_sm90a(app.kernel.kind);
    ImGui::TextWrapped("%s",
                       wgmma ? "A warpgroup (four warps, 128 threads) multiplies 64 rows of A by N columns of B from "
                               "shared memory in one wgmma.mma_async; the sums stay in the threads' registers, N/2 "
                               "of them each, in the layout on the right."
                             : "A warp's 32 lanes multiply a 16×16 piece of A by a 16×8 piece of B in one "
                               "mma.sync.m16n8k16. No lane holds a row or a column: each holds 8 values of A, 4 of B "
                               "and 4 sums of C, in the places on the right, and the instruction needs them exactly "
                               "there (ldmatrix loads them so).");
    ImGui::Spacing();
    tc_trace_controls(traces, app, now);
}

// A tensor-core tab with a picture: its words (TcTabWords: `keep` as folding_muted_text takes it),
// how wide its picture is at a height (TcTabWidth), and the picture itself, drawn apart so that
// the words go beside the picture where the view is wide enough for both, else above it (the FP32
// theatre's words_beside / picture_keeps, picture_layout.hpp).
using TcTabWords = void (*)(TheatreState&, const AppState&, float keep);
using TcTabWidth = float (*)(const AppState&, float height);
using TcTabPicture = void (*)(TheatreState&, PictureLayout&, const AppState&);

// The words' column beside a tensor-core picture: up to three quarters of the view, for pictures
// narrower than tall (a wgmma's 64 rows of accumulators) beside paragraphs of words.
constexpr float kTcWordsShare = 0.75f;
// Above its picture, the share of the view the words leave it before they fold; beside it, the
// words' column scrolls and nothing folds (no height leaves less than a negative share).
constexpr float kTcPictureKeeps = 0.6f;
constexpr float kTcWordsScroll = -1.0e6f;

void draw_tc_tab(TheatreState& theatre, PictureLayout& picture, const AppState& app, const std::string& heading_text,
                 TcTabWords words, TcTabWidth width, TcTabPicture draw_picture) {
    const ImVec2 room = ImGui::GetContentRegionAvail();
    const float picture_width = width(app, room.y);
    float words_width = words_beside_picture(room, picture_width, kTcWordsShare);
    // A picture too wide for the words beside it at full height may still be larger beside them,
    // in the rest of the width, than under them (C's square of tiles at a desk's 1×, with the
    // panel open): then the words take their narrowest column. (FLT_MAX: a picture as wide as the
    // view, or none, has its words above.)
    if (words_width <= 0.0f && picture_width < FLT_MAX && room.y > 0.0f) {
        const float narrowest = kNarrowestWordsFonts * ImGui::GetFontSize();
        const float aspect = picture_width / room.y;
        const auto fitted_area = [&](float w, float h) {
            const float fitted = std::min(w, h * aspect);
            return fitted * fitted / aspect;
        };
        // Words above take less than they may (kTcPictureKeeps): beside must win by a margin.
        if (fitted_area(room.x - narrowest - ImGui::GetStyle().ItemSpacing.x, room.y) >
            1.25f * fitted_area(room.x, room.y * kTcPictureKeeps))
            words_width = narrowest;
    }
    const auto heading_and_words = [&](float keep) {
        ImGui::PushFont(heading_font());
        ImGui::TextWrapped("%s", heading_text.c_str());
        ImGui::PopFont();
        ImGui::PushTextWrapPos(0.0f);
        words(theatre, app, keep);
        ImGui::PopTextWrapPos();
    };
    if (words_width > 0.0f) {
        draw_picture_beside_words(room, words_width, [&] { draw_picture(theatre, picture, app); },
                                  [&] { heading_and_words(kTcWordsScroll); });
    } else {
        heading_and_words(kTcPictureKeeps);
        draw_picture(theatre, picture, app);
    }
}

// The tensor-core rung's tabs, right of its panel: each picture with its words, the source and
// the SMs.
void draw_tc_pictures(TheatreState& theatre, PictureLayout& picture, const AppState& app, float bottom_reserve) {
    ImGui::BeginChild("##theatre", ImVec2(0.0f, -bottom_reserve), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    const std::optional<TheatrePanel> open = theatre.open_panel;
    theatre.open_panel.reset();
    const bool wgmma = model::needs_sm90a(app.kernel.kind);
    if (ImGui::BeginTabBar("##tc_pictures")) {
        const auto tab = [&](const char* label, TheatrePanel panel) {
            return ImGui::BeginTabItem(label, nullptr, open == panel ? ImGuiTabItemFlags_SetSelected : 0);
        };
        // A picture's tab: its heading ("wgmma: …") and words, beside the picture or above it.
        const std::string_view rung = model::kernel_name(app.kernel.kind);
        const auto picture_tab = [&](const char* label, TheatrePanel panel, const std::string& heading_text,
                                     TcTabWords words, TcTabWidth width, TcTabPicture draw) {
            if (!tab(label, panel)) return;
            theatre.panel = panel;
            draw_tc_tab(theatre, picture, app, format_text("{}: {}", rung, heading_text), words, width, draw);
            ImGui::EndTabItem();
        };
        picture_tab("Who holds what", TheatrePanel::Fragments,
                    wgmma ? "who holds which element of a wgmma's accumulators" : "who holds which element of one mma",
                    draw_tc_fragments_words,
                    [](const AppState& s, float height) {
                        return fragments_width(s.kernel.kind, height, ImGui::GetFontSize());
                    },
                    draw_tc_fragments);
        if (tab("Source", TheatrePanel::Source)) {
            theatre.panel = TheatrePanel::Source;
            ImGui::PushFont(heading_font());
            ImGui::TextWrapped("%s", format_text("{}: the kernel, one statement of the K loop at a time", rung).c_str());
            ImGui::PopFont();
            draw_tc_source(theatre, app);
            ImGui::EndTabItem();
        }
        picture_tab("Shared memory", TheatrePanel::Smem, "a tile in shared memory, and the banks", draw_tc_smem_words,
                    tc_smem_width, draw_tc_smem);
        // A timeline: as wide as the tab, its words under it (tensor_core/stages.hpp).
        if (tab("Stages", TheatrePanel::Stages)) {
            theatre.panel = TheatrePanel::Stages;
            ImGui::PushFont(heading_font());
            ImGui::TextWrapped("%s", format_text("{}: the ring of stages, its copies and its barriers", rung).c_str());
            ImGui::PopFont();
            draw_tc_stages(theatre, picture, app);
            ImGui::EndTabItem();
        }
        if (model::is_persistent(app.kernel.kind))
            picture_tab("Tiles", TheatrePanel::Tiles, "the order of C's tiles, round by round, and what L2 holds",
                        draw_tc_tiles_words, tc_tiles_width, draw_tc_tiles);
        if (tab("SMs", TheatrePanel::Sms)) {
            theatre.panel = TheatrePanel::Sms;
            // The wgmma rung's trace: which SM ran each block and when (a clock per K step).
            draw_sm_summary(app);
            ImGui::Spacing();
            draw_sm_timeline(theatre, app, ImGui::GetContentRegionAvail().y);
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
    ImGui::EndChild();
}

void counters_table(const AppState& state) {
    if (plays_rung(state)) {
        ImGui::TextWrapped("%s", rung_counts_line(state).c_str());
        return;
    }
    const model::KernelConfig config = played_config(state);
    const model::TrafficSoFar t =
        state.theatre.source->traffic(config.kind, state.problem, state.kernel.tile, current_step(state));
    std::string text = format_text("So far, whole grid: {} global loads (A {}, B {}); ", grouped(t.global_loads()),
                              grouped(t.global_loads_a), grouped(t.global_loads_b));
    if (config.kind == model::KernelKind::Tiled)
        text += format_text("shared memory: {} stores, {} loads; ", grouped(t.shared_stores), grouped(t.shared_loads));
    else
        text += "no shared memory; ";
    text += format_text("{} stores to C.", grouped(t.global_stores));
    ImGui::TextWrapped("%s", text.c_str());
}

void tabs(TheatreState& theatre, const AppState& app) {
    const std::optional<TheatrePanel> open = theatre.open_panel;
    theatre.open_panel.reset();
    // A lesson step (or --panel) that names a tab wants it read: the side panel, short under
    // a lesson card at large text, scrolls the tabs to its top. For a few frames, while the
    // card above finds its height.
    if (open) theatre.scroll_to_tabs = 4;
    if (theatre.scroll_to_tabs > 0) {
        --theatre.scroll_to_tabs;
        ImGui::SetScrollHereY(0.0f);
    }
    if (!ImGui::BeginTabBar("##theatre_tabs")) return;
    constexpr const char* kLabels[] = {"Source", "Thread", "Warp", "SMs"};
    for (int i = 0; i < 4; ++i) {
        const auto panel = static_cast<TheatrePanel>(i);
        const ImGuiTabItemFlags flags = open == panel ? ImGuiTabItemFlags_SetSelected : 0;
        if (!ImGui::BeginTabItem(kLabels[i], nullptr, flags)) continue;
        theatre.panel = panel;
        // The rest of the panel; where that is under a dozen lines (a lesson card above, large
        // text), the panel's whole height, and the panel scrolls: scrolled to the tabs, the tab
        // fills it, and its own scrolling (the lit source line) shows in it.
        const ImGuiStyle& style = ImGui::GetStyle();
        const float whole = ImGui::GetWindowHeight() - 2.0f * style.WindowPadding.y - ImGui::GetFrameHeightWithSpacing();
        const float rest = ImGui::GetContentRegionAvail().y;
        const float height = rest >= 12.0f * ImGui::GetTextLineHeightWithSpacing() ? rest : std::max(rest, whole);
        ImGui::BeginChild("##tab", ImVec2(0.0f, height), false, ImGuiWindowFlags_HorizontalScrollbar);
        const model::KernelStep step = current_step(app);
        switch (panel) {
            case TheatrePanel::Source:
                if (theatre.side_by_side) {
                    draw_source_panel(model::KernelKind::Naive, step.sub);
                    ImGui::Separator();
                    draw_source_panel(model::KernelKind::Tiled, step.sub);
                } else if (const model::KernelTrace* yours = timeline_trace(app);
                           yours && theatre.traces.replay && !yours->label.empty() && !yours->source.empty() &&
                           yours->config.kind == played_config(app).kind) {
                    draw_user_source_panel(*yours, step.sub);  // a learner's kernel, recorded as the tiled rung
                } else {
                    const auto flag = race_source_flag(app);  // an experiment's missing barrier
                    draw_source_panel(played_config(app).kind, step.sub, flag ? &*flag : nullptr);
                }
                break;
            case TheatrePanel::Thread:
                if (plays_rung(app)) draw_rung_thread_panel(app);
                else draw_thread_panel(app, inspected(app));
                break;
            case TheatrePanel::Warp:
                if (plays_rung(app)) draw_rung_warp_panel(app);
                else draw_warp_panel(app, inspected(app).c);
                break;
            case TheatrePanel::Sms: draw_sm_summary(app); break;
            // The tensor-core rungs' pictures belong to their own theatre (draw_tc_pictures).
            default: break;
        }
        ImGui::EndChild();
        ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
}

// Where the events come from, and the button that asks the GPU for a trace of them;
// folded (`full` false), only a trace's origin, which the picture depends on.
void trace_controls(TheatreTraces& traces, const AppState& app, double now, bool full) {
    const TheatreState& theatre = app.theatre;
    // A rung's trace is replayed by the rung canvas itself (its loads), not through the
    // step source the naive and tiled kernels' counters read.
    const model::KernelTrace* rung_trace =
        plays_rung(app) && traces.replay ? timeline_trace(app) : nullptr;
    const bool recorded = theatre.source != &model_source() || rung_trace;
    if (!full && !recorded) return;
    ImGui::PushStyleColor(ImGuiCol_Text, recorded ? colours::kPass : colours::kWarning);
    ImGui::TextUnformatted(
        (rung_trace ? format_text("events: recorded on {}", rung_trace->device)
                      : format_text("events: {}", theatre.source->label()))
            .c_str());
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(theatre.source->description()).c_str());
    ImGui::SameLine();
    muted_text(rung_trace ? "the followed warp's loads as its threads wrote them down on the GPU"
               : recorded   ? "each load as the threads wrote it down on the GPU"
                            : "all blocks advance in lockstep (the totals match any real order)");
    if (!full) return;

    const auto why_not = why_no_trace(app);
    ImGui::BeginDisabled(why_not.has_value());
    if (ImGui::Button("Trace on GPU")) traces.requested = true;
    ImGui::EndDisabled();
    if (why_not && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", why_not->c_str());
    if (!traces.pending.empty()) {
        ImGui::SameLine();
        ImGui::TextUnformatted(format_text("tracing… {} s", fixed(now - traces.pending_since, 1)).c_str());
    } else if (timeline_trace(app)) {
        ImGui::SameLine();
        ImGui::Checkbox("replay the trace", &traces.replay);
    } else if (why_not && app.device && !app.device->usable) {
        ImGui::SameLine();
        muted_text("no GPU: the model plays");
    }
    if (!traces.error.empty()) coloured_text_wrapped(colours::kError, traces.error.c_str());
}

// The panel's contents: the problem and the player's controls, the trace, the counters and
// the tabs. Takes the whole window's state: it edits the problem and the kernel, lets go of a
// pinned cell the new problem leaves out (clamp_theatre), and its export button opens the export
// window.
void draw_panel_contents(AppState& state) {
    TheatreState& theatre = state.theatre;
    // In a lesson the view button and the card already say where we are.
    if (!state.lesson.lesson) heading("Tiling theatre");
    // Edits that change the timeline's shape keep the player on the same step.
    const model::Timeline timeline_before = theatre_timeline(state);
    const model::KernelStep step_before = current_step(state);
    // Folded, the header still says what is playing.
    const std::string summary = format_text("{}×{}×{}, {}###controls", state.problem.m, state.problem.n, state.problem.k,
                                       theatre.side_by_side ? "naive vs tiled" : model::describe(played_config(state)));
    const bool was_open = theatre.controls_open.value_or(!state.lesson.lesson);
    ImGui::SetNextItemOpen(was_open, ImGuiCond_Always);
    const bool open = ImGui::CollapsingHeader(summary.c_str());
    if (open != was_open) theatre.controls_open = open;
    if (open) problem_controls(theatre, state.problem, state.kernel, state);
    clamp_theatre(theatre, state.selected, state);
    const model::Timeline timeline = theatre_timeline(state);
    if (!(timeline == timeline_before)) theatre.player.step = model::step_index(timeline, step_before);
    if (!theatre_error(state)) {
        draw_player_controls(theatre.player, timeline);
        // Folded, the panel keeps what a lesson points at: the step, the counters, the tabs.
        if (open) draw_player_speed(theatre.player);
        trace_controls(theatre.traces, state, ImGui::GetTime(), open);
        draw_export_button(state.exporting, state, ExportSubject::Theatre);
        if (!theatre.side_by_side) counters_table(state);
    }
    ImGui::Spacing();
    tabs(theatre, state);
}

// The block's shape in cells (picture_layout.hpp): the tiled kernel's shared tiles add a tile.
ImVec2 block_picture_cells(const AppState& state) {
    return product_picture_cells(state.problem,
                                 plays_naive(state) ? 0.0f : static_cast<float>(played_config(state).tile));
}

// The words' column beside the picture, for the block on its own.
float theatre_words_width(const AppState& state, ImVec2 room) {
    if (state.theatre.side_by_side || plays_rung(state)) return 0.0f;
    return words_beside_width(room, block_picture_cells(state));
}

// The words of the step on show: the title, what every thread does, the trace's line and a
// race's story, whose buttons it returns (draw_theatre_view answers them). Above the picture
// (`beside` false) keep_words_height follows them; beside it, they have a column of their own.
RaceCaptionChoice draw_step_words(const AppState& app, ImVec2 room, bool beside) {
    const TheatreState& theatre = app.theatre;
    const model::Timeline timeline = theatre_timeline(app);
    const model::KernelStep step = current_step(app);
    const std::string batch = app.problem.batch > 1 ? format_text(" · batch z = {} (blockIdx.z)", theatre.batch_z) : "";
    ImGui::PushFont(heading_font());
    ImGui::PushTextWrapPos(0.0f);
    const auto title = [&](bool brief) {
        if (theatre.side_by_side) return format_text("Naive vs tiled{}: {}", batch, step_title(timeline, step, brief));
        if (plays_rung(app))
            return format_text("{} block ({}, {}){}: {}", model::describe(app.kernel), theatre.block.x, theatre.block.y,
                               batch, rung_step_title(app, step));
        return format_text("{} block ({}, {}){}: {}", plays_naive(app) ? "Naive" : "Tiled", theatre.block.x,
                           theatre.block.y, batch, step_title(timeline, step, brief));
    };
    // Over two lines above the picture (large text on a small screen), the title leaves out what
    // the Source tab shows.
    std::string heading_text = title(false);
    if (!beside && ImGui::CalcTextSize(heading_text.c_str(), nullptr, false, ImGui::GetContentRegionAvail().x).y >
        ImGui::GetTextLineHeight() * 2.5f)
        heading_text = title(true);
    ImGui::TextUnformatted(heading_text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    std::string detail;
    if (theatre.side_by_side)
        detail = format_text("Both kernels walk K in steps of T = {}, all blocks in lockstep; counts from the {}. Shade: "
                             "how many times each element of A and B has been read from global memory so far.",
                             timeline.tile,
                             theatre.source == &model_source() ? "model" : "loads " + std::string(theatre.source->label()));
    else if (plays_rung(app))
        detail = rung_step_detail(app, step);
    else
        detail = step_detail(app, step, focus_thread(app, inspected(app).c));
    // The picture keeps most of the view, even with large text on a small screen (a race's
    // caption comes after this paragraph and needs its share too); the block's, as much as its
    // shape can use. Beside the picture the words have a column of their own: nothing to keep.
    const float keep = beside                                        ? 0.0f
                       : theatre.side_by_side || plays_rung(app) ? (race_applies(app) ? 0.75f : 0.6f)
                                                                   : picture_keeps(room, block_picture_cells(app));
    folding_muted_text(detail, "What every thread does in this step", keep);
    if (const auto line = recorded_block_line(app)) muted_text(*line);
    return draw_race_caption(app, keep);
}

// The words above the picture take the most room any step of this sequence has needed (they
// began at `text_top`), so that stepping (or an exported animation) never moves the picture
// under them: the heights are kept in theatre.text_heights (app.theatre's).
void keep_words_height(TheatreState& theatre, const AppState& app, ImVec2 room, float text_top) {
    const std::string text_key = format_text("{}|{}|{}|{}×{}|{}", model::describe(played_config(app)),
                                             model::problem_size_text(app.problem), theatre.side_by_side,
                                             fixed(room.x, 0), fixed(room.y, 0), fixed(ImGui::GetFontSize(), 1));
    // A handful of layouts at most (a window resized by dragging makes one a frame).
    if (theatre.text_heights.size() > 8 && !theatre.text_heights.contains(text_key)) theatre.text_heights.clear();
    float& kept = theatre.text_heights[text_key];
    const float text_height = ImGui::GetCursorPosY() - text_top;
    if (text_height < kept) ImGui::SetCursorPosY(text_top + kept);
    kept = std::max(kept, text_height);
}

// The picture of the step on show, in the rest of the current window: the SMs tab's timeline
// across its top, then the canvas.
void draw_step_picture(TheatreState& theatre, std::optional<model::Cell>& selected, PictureLayout& picture,
                       const AppState& app) {
    // The SMs tab puts its timeline across the top of the stage.
    if (theatre.panel == TheatrePanel::Sms && has_sm_timeline(app))
        draw_sm_timeline(theatre, app, ImGui::GetContentRegionAvail().y * 0.38f);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size = ImGui::GetContentRegionAvail();
    if (size.x >= 200.0f && size.y >= 140.0f) {  // smaller, and the picture is no longer legible
        const bool clicked = ImGui::InvisibleButton("##theatre_canvas", size);
        const bool hovering = ImGui::IsItemHovered();
        const Rect region{origin, {origin.x + size.x, origin.y + size.y}};
        if (theatre.side_by_side)
            draw_naive_vs_tiled(theatre, app, region, hovering, clicked);
        else if (plays_rung(app))
            draw_rung_canvas(selected, app, region, hovering, clicked);
        else
            draw_theatre_canvas(theatre, selected, picture, app, region, hovering, clicked);
    }
}

}  // namespace

// Takes the whole window's state: its panel edits the problem and the kernel and opens the export
// window, its side column folds (the presentation's), a click pins a cell of C, and the race
// caption's buttons switch the view or put the theatre back on the stale read.
void draw_theatre_view(AppState& state, float bottom_reserve) {
    TheatreState& theatre = state.theatre;
    if (model::is_tensor_core(state.kernel.kind) && !theatre.side_by_side) {
        // A tab without a picture (Source, SMs) reports none.
        state.picture.clear();
        const float width = std::min(ImGui::GetFontSize() * 30.0f, ImGui::GetContentRegionAvail().x * 0.35f);
        const SideColumn column =
            begin_side_column(column_edits(state), state, "##theatre_panel", width, bottom_reserve,
                              PanelDefault::FoldedWhenCrowded);
        if (column.panel) {
            draw_tc_panel(theatre.traces, state.kernel.kind, state, ImGui::GetTime());
            ImGui::Spacing();
            draw_export_button(state.exporting, state, ExportSubject::Theatre);
        }
        end_side_column(state.presentation, state, column);
        ImGui::SameLine();
        draw_tc_pictures(theatre, state.picture, state, bottom_reserve);
        return;
    }
    clamp_theatre(theatre, state.selected, state);
    choose_theatre_source(theatre, state);
    const bool ok = !theatre_error(state);
    if (ok) {
        const int count = theatre_timeline(state).count();
        handle_player_keys(theatre.player, count);
        tick(theatre.player, count, ImGui::GetIO().DeltaTime);
    }
    // The panel: at most 40 % of the window, so that presenter mode's large text leaves the
    // canvas room; 45 % with a lesson card, whose text would otherwise run long (the canvas, at
    // 16:9, is short of height before it is short of width).
    const float share = state.lesson.lesson ? 0.45f : 0.4f;
    const float width = std::min(ImGui::GetFontSize() * 30.0f, ImGui::GetContentRegionAvail().x * share);
    const SideColumn column =
        begin_side_column(column_edits(state), state, "##theatre_panel", width, bottom_reserve,
                          PanelDefault::FoldedWhenCrowded);
    if (column.panel) draw_panel_contents(state);
    end_side_column(state.presentation, state, column);

    ImGui::SameLine();
    ImGui::BeginChild("##theatre", ImVec2(0.0f, -bottom_reserve), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    if (const auto why = theatre_error(state)) {
        coloured_text_wrapped(colours::kError, why->c_str());
        if (ImGui::Button("Play the tiled kernel")) state.kernel.kind = model::KernelKind::Tiled;
        ImGui::SameLine();
        if (ImGui::Button("Play the naive kernel")) state.kernel.kind = model::KernelKind::Naive;
        ImGui::EndChild();
        return;
    }
    // The race caption's buttons, as soon as the words that hold them are drawn.
    const auto answer = [&](RaceCaptionChoice choice) {
        switch (choice) {
            case RaceCaptionChoice::None: break;
            case RaceCaptionChoice::BackToTheRead: {
                const RaceMoment race = *state.experiments.race;
                show_race_in_theatre(state, race);
                break;
            }
            case RaceCaptionChoice::Hide: state.experiments.race.reset(); break;
            case RaceCaptionChoice::BackToTheExperiment: state.view = ViewId::Experiment; break;
        }
    };
    const ImVec2 room = ImGui::GetContentRegionAvail();
    const float words_width = theatre_words_width(state, room);
    if (words_width > 0.0f) {
        draw_picture_beside_words(room, words_width,
                                  [&] { draw_step_picture(theatre, state.selected, state.picture, state); },
                                  [&] { answer(draw_step_words(state, room, true)); });
    } else {
        const float text_top = ImGui::GetCursorPosY();
        answer(draw_step_words(state, room, false));
        keep_words_height(theatre, state, room, text_top);
        draw_step_picture(theatre, state.selected, state.picture, state);
    }
    ImGui::EndChild();
}

}  // namespace ts::views
