// view_id.hpp — which view fills the window: the stage, the lab's four plots, the theatre, the
// experiments or your kernel. The window owns the choice (AppState::view); the switcher, the
// keys, lessons, settings and the scripted modes set it.
#pragma once

#include <optional>
#include <string_view>

namespace ts::views {

// In the order of the view buttons and of Ctrl+1 … Ctrl+8.
enum class ViewId { Stage, Latency, Tuning, Roofline, Theatre, Ladder, Experiment, Kernel };
inline constexpr ViewId kViewIds[] = {ViewId::Stage,   ViewId::Latency, ViewId::Tuning,     ViewId::Roofline,
                                      ViewId::Theatre, ViewId::Ladder,  ViewId::Experiment, ViewId::Kernel};

// "stage", "latency", "tuning", "roofline", "theatre", "ladder", "experiment", "kernel": the
// names --view, lessons and the settings file use.
std::string_view view_name(ViewId view);
std::optional<ViewId> parse_view(std::string_view text);

// The views that plot measurements (latency, tuning, roofline, ladder, and the experiments' and
// your kernel's results): not the stage or the theatre.
bool plots_measurements(ViewId view);

}  // namespace ts::views
