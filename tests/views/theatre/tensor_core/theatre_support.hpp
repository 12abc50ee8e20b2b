// theatre_support.hpp — what the tensor-core theatre tests share: a state for a rung on a
// problem, its theatre drawn with a tab open, and the theatre flags applied to it.
#pragma once

#include <string>
#include <utility>

#include "views/imgui_harness.hpp"
#include "model/kernel_config.hpp"
#include "model/problem.hpp"
#include "views/theatre/theatre_flags.hpp"
#include "views/theatre/theatre_view.hpp"
#include "views/window/app_state.hpp"

namespace ts::test {

inline views::AppState tc_state(model::KernelKind kind, std::int64_t m = 1024, std::int64_t n = 1024,
                                std::int64_t k = 1024) {
    views::AppState state;
    state.kernel.kind = kind;
    state.problem = {m, n, k, 1, model::Dtype::BFloat16};
    return state;
}

// The text of the theatre with `panel` open: the tab is chosen in the first frame and drawn from
// the next.
inline std::string tc_panel_text(views::AppState& state, views::TheatrePanel panel) {
    ImGuiHarness ui;
    state.theatre.open_panel = panel;
    ui.frame([&] { views::draw_theatre_view(state, 0.0f); });
    return ui.frame([&] { views::draw_theatre_view(state, 0.0f); });
}

// `flags` applied to `state`: the reason they were refused ("" when none), and the theatre after.
inline std::pair<std::string, views::TheatreState> applied(views::AppState state, const views::TheatreFlags& flags) {
    const std::string why = views::apply_theatre_flags(state.theatre, state.problem, state, flags).value_or("");
    return {why, state.theatre};
}

}  // namespace ts::test
