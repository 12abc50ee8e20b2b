#include "views/window/view_id.hpp"

namespace ts::views {

std::string_view view_name(ViewId view) {
    switch (view) {
        case ViewId::Stage: return "stage";
        case ViewId::Latency: return "latency";
        case ViewId::Tuning: return "tuning";
        case ViewId::Roofline: return "roofline";
        case ViewId::Theatre: return "theatre";
        case ViewId::Ladder: return "ladder";
        case ViewId::Experiment: return "experiment";
        case ViewId::Kernel: return "kernel";
    }
    return "stage";
}

std::optional<ViewId> parse_view(std::string_view text) {
    for (ViewId view : kViewIds)
        if (view_name(view) == text) return view;
    return std::nullopt;
}

bool plots_measurements(ViewId view) { return view != ViewId::Stage && view != ViewId::Theatre; }

}  // namespace ts::views
