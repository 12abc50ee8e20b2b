#include "views/theatre/theatre_flags.hpp"

#include <algorithm>

#include "model/format.hpp"
#include "views/theatre/tensor_core/source_tab.hpp"
#include "views/theatre/tensor_core/tiles.hpp"
#include "views/theatre/theatre_logic.hpp"
#include "views/theatre/theatre_traces.hpp"

namespace ts::views {

void open_saved_panel(TheatreState& theatre, const std::string& panel) {
    if (const auto parsed = parse_panel(panel)) theatre.panel = *parsed;
    theatre.open_panel = theatre.panel;
}

std::optional<std::string> apply_theatre_flags(TheatreState& theatre, model::Problem& problem, const AppState& app,
                                               const TheatreFlags& flags, std::vector<std::string>* warnings) {
    for (const std::string& file : flags.traces) {
        if (auto why = load_trace_file(theatre.traces, file)) {
            theatre.traces.error = "--trace: " + *why;
            if (warnings) warnings->push_back(theatre.traces.error);
        }
    }
    theatre.traces.requested = flags.record;
    theatre.side_by_side = flags.side_by_side;
    if (flags.batch_z) {
        if (*flags.batch_z < 0 || *flags.batch_z >= 65535)
            return model::format_text("--batch-z {}: the matrix index runs from 0 to 65534", *flags.batch_z);
        problem.batch = std::max<std::int64_t>(problem.batch, *flags.batch_z + 1);
        theatre.batch_z = *flags.batch_z;
    }
    // Without --select-block the theatre shows the block of the cell --select pins.
    std::optional<model::Index2> block;
    if (!flags.select_block.empty())
        block = model::Index2{flags.select_block[0], flags.select_block[1]};
    else if (app.selected && !theatre_error(app))
        block = block_of_cell(played_config(app), app.problem, *app.selected);
    // The tensor-core rungs have no phase player: --phase picks the K step their Source and Stages
    // tabs read, --statement the lit statement of the Source tab.
    const auto statements = tc_substeps(app.kernel.kind);
    if (!statements.empty()) {
        if (flags.phase) {
            const int k_steps = tc_k_steps(app);
            if (*flags.phase < 0 || *flags.phase >= k_steps)
                return model::format_text("--phase {}: this launch's K steps run from 0 to {}", *flags.phase, k_steps - 1);
            theatre.ring_step = *flags.phase;
        }
        if (flags.statement) {
            if (*flags.statement < 1 || *flags.statement > static_cast<int>(statements.size()))
                return model::format_text("--statement must be 1 to {} for {}", statements.size(),
                                          model::kernel_name(app.kernel.kind));
            theatre.tc_substep = *flags.statement - 1;
        }
    } else if (flags.statement) {
        return "--statement is for the tensor-core rungs' Source tab (wmma … tc-tuned)";
    }
    const auto sub = model::parse_substep(flags.step);
    if (!flags.step.empty() && !sub) return "--step must be load, sync1, compute, sync2 or store";
    if (block || (flags.phase && statements.empty()) || sub || flags.k_step)
        if (auto why = jump_theatre(theatre, app, block, flags.phase, sub, flags.k_step)) return why;
    if (!flags.hover_a.empty())
        if (auto why = pin_element(theatre, app, model::Operand::A, {flags.hover_a[0], flags.hover_a[1]}))
            return "--hover-a: " + *why;
    if (!flags.hover_b.empty())
        if (auto why = pin_element(theatre, app, model::Operand::B, {flags.hover_b[0], flags.hover_b[1]}))
            return "--hover-b: " + *why;
    if (!flags.panel.empty()) {
        const auto panel = parse_panel(flags.panel);
        if (!panel) return "--panel must be source, thread, warp, sms, fragments, smem, stages or tiles";
        theatre.open_panel = *panel;
    } else if (!statements.empty() && theatre.open_panel == TheatrePanel::Source) {
        // A tensor-core rung opens on its first picture, who holds what; its Source tab, the FP32
        // theatre's first, has no picture.
        theatre.open_panel = TheatrePanel::Fragments;
    }
    if (flags.round) {
        const auto launch = shown_tile_launch(app);
        if (!launch) return "--round is for the persistent rungs' Tiles tab (persistent, tc-tuned)";
        if (*flags.round < 1 || *flags.round > launch->rounds)
            return model::format_text("--round must be 1 to {} for this launch", launch->rounds);
        theatre.tile_round = *flags.round - 1;
    }
    theatre.tile_order_plain = flags.row_by_row;
    return std::nullopt;
}

}  // namespace ts::views
