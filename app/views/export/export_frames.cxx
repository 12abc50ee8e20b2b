// export_frames.cxx — see export_frames.hpp.
#include "views/export/export_frames.hpp"

#include <algorithm>

#include "model/format.hpp"
#include "model/ladder_rungs.hpp"
#include "views/lab/ladder_view.hpp"
#include "views/lessons/lesson_state.hpp"
#include "views/theatre/tensor_core/source_tab.hpp"
#include "views/theatre/tensor_core/tiles.hpp"
#include "views/theatre/theatre_logic.hpp"
#include "views/window/app_state.hpp"

namespace ts::views {

namespace {

using model::format_text;

// A tensor-core rung has no phase player: its Stages tab steps K steps, its Tiles tab rounds, and
// its Source tab (where every other tab's export goes) each statement of each K step.
enum class TcWalk { Statements, KSteps, Rounds };

TcWalk tc_walk(const AppState& state) {
    if (state.theatre.panel == TheatrePanel::Stages) return TcWalk::KSteps;
    if (state.theatre.panel == TheatrePanel::Tiles && shown_tile_launch(state)) return TcWalk::Rounds;
    return TcWalk::Statements;
}

bool plays_tc_theatre(const AppState& state) {
    return model::is_tensor_core(state.kernel.kind) && !state.theatre.side_by_side;
}

int statements_of(const AppState& state) { return static_cast<int>(tc_substeps(state.kernel.kind).size()); }

std::variant<ExportSequence, std::string> theatre_sequence(const AppState& state) {
    ExportSequence sequence;
    const std::string rung(model::kernel_name(state.kernel.kind));
    sequence.file_stem = "theatre-" + rung;
    if (plays_tc_theatre(state)) {
        const int k_steps = tc_k_steps(state);
        switch (tc_walk(state)) {
            case TcWalk::KSteps:
                sequence.frames = k_steps;
                sequence.what = format_text("{}: the ring of stages, one frame per K step ({})", rung, k_steps);
                break;
            case TcWalk::Rounds: {
                const int rounds = shown_tile_launch(state)->rounds;
                sequence.frames = rounds;
                sequence.what = format_text("{}: the order of C's tiles, one frame per round ({})", rung, rounds);
                break;
            }
            case TcWalk::Statements:
                sequence.frames = statements_of(state) * k_steps;
                sequence.what = format_text("{}: the Source tab, one frame per statement of each K step ({} × {})", rung,
                                            statements_of(state), k_steps);
                break;
        }
        if (sequence.frames <= 0) return format_text("{} has no steps to show at this size", rung);
        return sequence;
    }
    if (const auto why = theatre_error(state)) return *why;
    const model::Timeline timeline = theatre_timeline(state);
    sequence.frames = timeline.count();
    const model::Index2 block = state.theatre.block;
    const std::string played = state.theatre.side_by_side ? "naive vs tiled" : model::describe(played_config(state));
    if (state.theatre.side_by_side) sequence.file_stem = "theatre-naive-vs-tiled";
    sequence.what = format_text("{}, block ({}, {}): {}, one frame per sub-step", played, block.x, block.y,
                                model::counted(timeline.phases, "phase"));
    return sequence;
}

std::variant<ExportSequence, std::string> lesson_sequence(const AppState& state) {
    if (!state.lesson.lesson) return std::string("no lesson is open (Ctrl+L chooses one)");
    const lessons::Lesson& lesson = *state.lesson.lesson;
    ExportSequence sequence;
    int answers = 0;
    for (const lessons::Step& step : lesson.steps) answers += step.predict.empty() ? 0 : 1;
    sequence.frames = static_cast<int>(lesson.steps.size()) + answers;
    sequence.file_stem = "lesson-" + lesson.name;
    sequence.what = answers ? format_text("the lesson \"{}\": {} steps, and the answer after each of its {} predictions",
                                          lesson.title, lesson.steps.size(), answers)
                            : format_text("the lesson \"{}\": {} steps", lesson.title, lesson.steps.size());
    if (sequence.frames == 0) return format_text("the lesson \"{}\" has no steps", lesson.title);
    return sequence;
}

// The bars of both ladders but their cuBLAS (each stays drawn as the mark): the FP32 rungs, your
// kernel where the latency view plots it (ladder_data puts it among them), the tensor cores' rungs.
int ladder_rung_count(const AppState& state) {
    return static_cast<int>(model::ladder_rungs().size() + model::tensor_core_rungs().size()) +
           (state.lab.choices.latency.yours ? 1 : 0);
}

}  // namespace

std::variant<ExportSequence, std::string> export_sequence(const AppState& state, ExportSubject subject) {
    switch (subject) {
        case ExportSubject::Theatre: return theatre_sequence(state);
        case ExportSubject::Lesson: return lesson_sequence(state);
        case ExportSubject::Ladder: {
            ExportSequence sequence{ExportSubject::Ladder, ladder_rung_count(state), {}, "ladder"};
            sequence.what = format_text("the ladders at {}³ climbing, one frame per rung ({})", shown_ladder_size(state.lab),
                                        sequence.frames);
            return sequence;
        }
    }
    return std::string("nothing to export");
}

// The whole state: a frame is the theatre's player, a lesson's step (which sets up the window)
// or the ladder's rungs, whichever subject is exported.
void show_export_frame(AppState& state, ExportSubject subject, int frame) {
    TheatreState& theatre = state.theatre;
    switch (subject) {
        case ExportSubject::Theatre:
            if (plays_tc_theatre(state)) {
                switch (tc_walk(state)) {
                    case TcWalk::KSteps: theatre.ring_step = frame; break;
                    case TcWalk::Rounds: theatre.tile_round = frame; break;
                    case TcWalk::Statements: {
                        const int statements = std::max(statements_of(state), 1);
                        // The tab is brought to the front by the tab bar on the next frame.
                        theatre.open_panel = TheatrePanel::Source;
                        theatre.ring_step = frame / statements;
                        theatre.tc_substep = frame % statements;
                        break;
                    }
                }
                return;
            }
            theatre.player.playing = false;
            theatre.player.step = frame;
            return;
        case ExportSubject::Lesson: {
            if (!state.lesson.lesson) return;
            // Each step, then its answer where it asks for a prediction.
            int at = 0;
            const auto& steps = state.lesson.lesson->steps;
            for (int step = 0; step < static_cast<int>(steps.size()); ++step) {
                const bool answer = !steps[static_cast<std::size_t>(step)].predict.empty();
                if (frame == at || (answer && frame == at + 1)) {
                    if (state.lesson.step != step || frame == at) go_to_lesson_step(state, step);
                    state.lesson.revealed = frame != at;
                    return;
                }
                at += answer ? 2 : 1;
            }
            return;
        }
        case ExportSubject::Ladder: state.lab.choices.ladder_rungs_shown = frame + 1; return;
    }
}

ExportBookmark bookmark(const AppState& state) {
    const TheatreState& theatre = state.theatre;
    return {theatre.player,        theatre.ring_step,   theatre.tc_substep,     theatre.tile_round,
            theatre.panel,         state.lesson.step,   state.lesson.revealed,  state.lab.choices.ladder_rungs_shown};
}

// The whole state, as show_export_frame: the theatre, the lesson's step and the ladder go back.
void restore(AppState& state, const ExportBookmark& bookmark) {
    TheatreState& theatre = state.theatre;
    theatre.player = bookmark.player;
    theatre.ring_step = bookmark.ring_step;
    theatre.tc_substep = bookmark.tc_substep;
    theatre.tile_round = bookmark.tile_round;
    if (theatre.panel != bookmark.panel) theatre.open_panel = bookmark.panel;
    if (state.lesson.lesson && state.lesson.step != bookmark.lesson_step) go_to_lesson_step(state, bookmark.lesson_step);
    state.lesson.revealed = bookmark.lesson_revealed;
    state.lab.choices.ladder_rungs_shown = bookmark.ladder_rungs_shown;
}

}  // namespace ts::views
