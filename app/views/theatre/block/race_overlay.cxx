#include "views/theatre/block/race_overlay.hpp"

#include <algorithm>
#include <cfloat>

#include "model/format.hpp"
#include "platform/imgui_compat.hpp"
#include "views/theatre/theatre_logic.hpp"
#include "views/theatre/theatre_paint.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

using model::format_text;

namespace {

model::SubStep missing_barrier(model::Experiment experiment) {
    return experiment == model::Experiment::MissingFirstSync ? model::SubStep::SyncAfterLoad
                                                             : model::SubStep::SyncAfterCompute;
}

std::string barrier_words(model::Experiment experiment) {
    return experiment == model::Experiment::MissingFirstSync
               ? "the first __syncthreads(), after the loads into As and Bs"
               : "the second __syncthreads(), after the multiply-adds";
}

// The k at which the reader's loop touches the slot: thread (tx, ty) reads As[ty][i] and Bs[i][tx].
int read_k(const model::StaleRead& read) { return read.operand == 'A' ? read.slot_col : read.slot_row; }

}  // namespace

RaceMoment race_moment(model::Experiment experiment, const model::ExperimentCase& c, const model::StaleRead& read) {
    RaceMoment moment;
    moment.experiment = experiment;
    moment.read = read;
    moment.tile = std::max(c.kernel.tile, 1);
    moment.caption = model::explain_stale_read(experiment, read, moment.tile);
    moment.block = {read.block_x, read.block_y};
    moment.phase = read.phase;
    moment.k = std::clamp(read_k(read), 0, moment.tile - 1);
    moment.problem = c.problem;
    const model::Problem& p = c.problem;
    if (std::max({p.m, p.n, p.k}) <= kMaxRaceSide) return moment;

    // Too large to draw cell by cell: the same slot and threads in a block and phase of a small
    // problem with the same T. Block (1, 1) has blocks before it in x and y, as a block deep
    // in a large grid does; phase 1 has a phase before it, and one after it when the value came
    // from the next phase.
    const int t = moment.tile;
    moment.block = {std::min(read.block_x, 1), std::min(read.block_y, 1)};
    moment.phase = std::min(read.phase, 1);
    const bool from_next = read.value_phase > read.phase;
    const int phases = moment.phase + (from_next ? 2 : 1);
    moment.problem.m = std::int64_t{moment.block.y + 1} * t;
    moment.problem.n = std::int64_t{moment.block.x + 1} * t;
    moment.problem.k = std::int64_t{phases} * t;
    moment.size_note = format_text("The case is {} × {} × {}, too large to draw cell by cell: the theatre shows the same "
                                   "slot and threads at {} × {} × {}, block ({}, {}) phase {} standing in for block "
                                   "({}, {}) phase {}.",
                                   p.m, p.n, p.k, moment.problem.m, moment.problem.n, moment.problem.k, moment.block.x,
                                   moment.block.y, moment.phase, read.block_x, read.block_y, read.phase);
    return moment;
}

void show_race_in_theatre(AppState& state, const RaceMoment& moment) {
    state.kernel.kind = model::KernelKind::Tiled;
    state.kernel.tile = moment.tile;
    state.kernel.block_x = state.kernel.block_y = moment.tile;
    state.problem.m = moment.problem.m;
    state.problem.n = moment.problem.n;
    state.problem.k = moment.problem.k;
    state.problem.batch = 1;
    state.problem.dtype = model::Dtype::Float32;
    state.theatre.side_by_side = false;
    state.theatre.batch_z = 0;
    state.theatre.pinned_a.reset();
    state.theatre.pinned_b.reset();
    state.view = ViewId::Theatre;
    state.experiments.race = moment;
    jump_theatre(state.theatre, state, moment.block, moment.phase, std::nullopt, moment.k);
    // The reader is the followed thread: its row of As and column of Bs are lit.
    const BlockStrips strips = block_strips(played_config(state), state.problem, moment.block);
    const model::Cell reader{strips.row_begin + moment.read.reader_y, strips.col_begin + moment.read.reader_x};
    if (model::inside(reader.row, reader.col, static_cast<int>(state.problem.m), static_cast<int>(state.problem.n)))
        state.selected = reader;
    state.theatre.open_panel = TheatrePanel::Source;
}

bool race_applies(const AppState& state) {
    const auto& race = state.experiments.race;
    if (!race || state.kernel.kind != model::KernelKind::Tiled || state.theatre.side_by_side) return false;
    return state.kernel.tile == race->tile && state.problem.m == race->problem.m && state.problem.n == race->problem.n &&
           state.problem.k == race->problem.k && state.problem.batch == 1;
}

bool race_on_show(const AppState& state) {
    if (!race_applies(state) || theatre_error(state)) return false;
    const RaceMoment& race = *state.experiments.race;
    return state.theatre.block == race.block && current_step(state).phase == race.phase;
}

RaceCaptionChoice draw_race_caption(const AppState& app, float keep) {
    if (!race_applies(app)) return RaceCaptionChoice::None;
    const RaceMoment& race = *app.experiments.race;
    const model::StaleRead& read = race.read;
    // Kept short, in the small font: the canvas is what the caption explains. Where the whole
    // story would leave the picture under `keep` of the view (large text on a small screen),
    // only what was read stays in sight; what was missing, how the read went wrong and the note on
    // the size drawn fold under one line, for the presenter to open while talking.
    const std::string what = format_text("{}: a stale read of {}s[{}][{}].", model::experiment_name(race.experiment),
                                         read.operand == 'A' ? "A" : "B", read.slot_row, read.slot_col);
    const std::string missing = format_text("Missing: {} (struck through in the Source tab).", barrier_words(race.experiment));
    const float width = ImGui::GetContentRegionAvail().x;
    const auto height_of = [&](const std::string& text, ImFont* font) {
        return font->CalcTextSizeA(imgui_compat::font_size(font), FLT_MAX, width, text.c_str()).y;
    };
    const float story = height_of(what + " " + missing, ImGui::GetFont()) + height_of(race.caption, small_font()) +
                        height_of(race.size_note, small_font());
    const bool room = ImGui::GetContentRegionAvail().y - story >= ImGui::GetWindowHeight() * keep;
    coloured_text_wrapped(kRaceSlot, (room ? what + " " + missing : what).c_str());
    ImGui::PushFont(small_font());
    if (room || ImGui::TreeNodeEx("How the read went wrong", ImGuiTreeNodeFlags_NoTreePushOnOpen)) {
        if (!room) coloured_text_wrapped(kRaceSlot, missing.c_str());
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(race.caption.c_str());
        ImGui::PopTextWrapPos();
        if (!race.size_note.empty()) coloured_text_wrapped(colours::kWarning, race.size_note.c_str());
    }
    RaceCaptionChoice choice = RaceCaptionChoice::None;
    if (!race_on_show(app)) {
        if (ImGui::SmallButton("Back to the stale read")) choice = RaceCaptionChoice::BackToTheRead;
        ImGui::SameLine();
    }
    if (ImGui::SmallButton("Hide the race")) choice = RaceCaptionChoice::Hide;
    ImGui::SameLine();
    if (ImGui::SmallButton("Back to the experiment")) choice = RaceCaptionChoice::BackToTheExperiment;
    ImGui::PopFont();
    return choice;
}

std::vector<Rect> draw_race_overlay(ImDrawList* draw, const AppState& state, const Rect& as_panel, const Rect& bs_panel,
                                    const Rect& c_area, CaptionPlacer& placer) {
    std::vector<Rect> crowded;
    if (!race_on_show(state)) return crowded;
    const RaceMoment& race = *state.experiments.race;
    const model::StaleRead& read = race.read;
    const int t = race.tile, m = static_cast<int>(state.problem.m), n = static_cast<int>(state.problem.n);
    const Rect panel = read.operand == 'A' ? as_panel : bs_panel;
    const Rect slot = cells_rect(panel, t, t, read.slot_row, read.slot_col, read.slot_row + 1, read.slot_col + 1);
    const BlockStrips strips = block_strips(played_config(state), state.problem, race.block);
    ImFont* font = small_font();
    // A label at the first of `spots` (text positions) where the placer finds room, clear of the
    // names and captions already placed; where none has room, at the free place nearest `anchor`
    // (what it names) with a thin line to it; where the canvas is full, at the first, over what
    // is there. Each in the first of `forms` (longest first) that has room.
    const auto label_at = [&](const std::vector<ImVec2>& spots, ImVec2 anchor, ImU32 colour,
                              const std::vector<std::string>& forms) {
        std::vector<ImVec2> sizes;
        // The spots are text positions; a plate reaches a few pixels beyond its text, the same
        // few for every form.
        ImVec2 margin{0.0f, 0.0f};
        for (const std::string& text : forms) {
            const Rect plate = plate_rect(font, 0.0f, {0.0f, 0.0f}, text);
            sizes.push_back({plate.width(), plate.height()});
            margin = plate.min;
        }
        std::vector<CaptionPlacer::Spot> tries;
        for (const ImVec2 spot : spots)
            tries.push_back([spot, margin](ImVec2) { return ImVec2{spot.x + margin.x, spot.y + margin.y}; });
        const CaptionPlacer::Placed placed = placer.place(sizes, tries);
        int form = placed.form;
        std::optional<Rect> room = form >= 0 ? std::optional<Rect>(placed.rect) : std::nullopt;
        for (int f = 0; !room && f < static_cast<int>(forms.size()); ++f) {
            room = placer.place_near(sizes[f], anchor, imgui_compat::font_size(font));
            form = f;
        }
        if (room && placed.form < 0) {
            // From the plate's nearest point to what it names.
            const ImVec2 from{std::clamp(anchor.x, room->min.x, room->max.x),
                              std::clamp(anchor.y, room->min.y, room->max.y)};
            draw->AddLine(from, anchor, with_alpha(colour, 220), emphasis_width(1.5f));
        }
        if (!room) form = static_cast<int>(forms.size()) - 1;
        const ImVec2 at = room ? ImVec2{room->min.x - margin.x, room->min.y - margin.y} : spots.front();
        const Rect drawn = plate_text(draw, font, at, colour, forms[form]);
        if (!room) crowded.push_back(drawn);
    };

    // A thread's cell of C, outlined, joined to the slot, and labelled; nothing for a ghost thread.
    const auto thread = [&](int tx, int ty, ImU32 colour, const std::vector<std::string>& forms, bool below) {
        const int row = strips.row_begin + ty, col = strips.col_begin + tx;
        if (!model::inside(row, col, m, n)) return;
        const Rect cell = cells_rect(c_area, m, n, row, col, row + 1, col + 1);
        const float grow = std::max(0.0f, 6.0f - cell.width()) * 0.5f;
        draw->AddLine(centre(cell), centre(slot), with_alpha(colour, 200), emphasis_width(2.5f));
        draw->AddRect({cell.min.x - grow, cell.min.y - grow}, {cell.max.x + grow, cell.max.y + grow}, colour, 0.0f, 0,
                      emphasis_width(3.0f));
        const float h = imgui_compat::font_size(font), w = text_width(font, forms.front());
        // Right of the cell, or left of it where the canvas ends first; above it for the writer and
        // below for the reader, or the other way where that has no room.
        const float right = cell.max.x + 4.0f, left = cell.min.x - 8.0f - w;
        const float first_x = right + w + 4.0f > draw->GetClipRectMax().x ? left : right;
        const float other_x = first_x == right ? left : right;
        const float above = cell.min.y - h - 2.0f, under = cell.max.y + 2.0f;
        const float first_y = below ? under : above, other_y = below ? above : under;
        // Then right of all of C, level with the cell or a line or two above or below it, where a
        // crowded block (large text, a cell on C's edge) leaves room.
        const float beyond_c = c_area.max.x + 6.0f, level = cell.min.y + (cell.height() - h) * 0.5f;
        std::vector<ImVec2> spots{{first_x, first_y}, {other_x, first_y}, {first_x, other_y}, {other_x, other_y}};
        for (const float lines : {0.0f, -1.0f, 1.0f, -2.0f, 2.0f}) spots.push_back({beyond_c, level + lines * (h + 4.0f)});
        label_at(spots, centre(cell), colour, forms);
    };
    const bool same = read.writer_x == read.reader_x && read.writer_y == read.reader_y;
    const std::string stored = read.value_phase > read.phase ? format_text(" had stored phase {}'s value", read.value_phase)
                               : read.value_phase >= 0 ? format_text(" had not stored phase {}'s value yet", read.phase)
                                                       : std::string(" had not stored it yet");
    // Short of room (large text), the writer's label keeps who it is: the caption tells the rest.
    const std::string writer = format_text("writer ({}, {})", read.writer_x, read.writer_y);
    thread(read.writer_x, read.writer_y, kRaceWriter, {writer + stored, writer}, false);
    if (!same)
        thread(read.reader_x, read.reader_y, kRaceReader,
               {format_text("reader ({}, {}) read it", read.reader_x, read.reader_y),
                format_text("reader ({}, {})", read.reader_x, read.reader_y)},
               true);

    const float grow = std::max(0.0f, 8.0f - slot.width()) * 0.5f;
    draw->AddRectFilled({slot.min.x - grow, slot.min.y - grow}, {slot.max.x + grow, slot.max.y + grow}, with_alpha(kRaceSlot, 150));
    draw->AddRect({slot.min.x - grow, slot.min.y - grow}, {slot.max.x + grow, slot.max.y + grow}, kRaceSlot, 0.0f, 0,
                  emphasis_width(3.0f));
    // Clear of the matrices' names: under As (left of A), left of Bs (above B).
    const std::string label = format_text("{}s[{}][{}]: stale", read.operand == 'A' ? "A" : "B", read.slot_row, read.slot_col);
    const float w = text_width(font, label), h = imgui_compat::font_size(font);
    // Level with the slot, but a plate's margin inside the canvas (a slot of row 0 is at its top).
    const float level = std::max(slot.min.y, placer.canvas().min.y + 3.0f);
    const ImVec2 at = read.operand == 'A' ? ImVec2{panel.min.x, panel.max.y + 3.0f} : ImVec2{panel.min.x - w - 10.0f, level};
    // Else beside the slot on the panel's other side, or under the panel.
    const ImVec2 other = read.operand == 'A' ? ImVec2{panel.min.x - w - 10.0f, level} : ImVec2{panel.max.x + 10.0f, level};
    label_at({at, other, {panel.min.x, panel.max.y + 3.0f}, {panel.min.x, panel.min.y - h - 6.0f}}, centre(slot),
             kRaceSlot, {label});
    return crowded;
}

std::optional<SourceFlag> race_source_flag(const AppState& state) {
    if (!race_applies(state)) return std::nullopt;
    const model::Experiment experiment = state.experiments.race->experiment;
    return SourceFlag{missing_barrier(experiment),
                      format_text("  ← taken out in {}", model::experiment_name(experiment))};
}

}  // namespace ts::views
