#include "status_bar.hpp"

#include "model/format.hpp"
#include "theme.hpp"

namespace ts::views {

using model::format;

std::string device_status(const std::optional<gpu::DeviceInfo>& device) {
    if (!device) return "probing GPU…";
    if (!device->usable) {
        // Backends phrase their reason differently; say "no CUDA device" and "model mode" once each.
        const std::string suffix = " — model mode";
        std::string reason = device->why_not;
        if (reason.ends_with(suffix)) reason.erase(reason.size() - suffix.size());
        if (!reason.starts_with("no CUDA device")) reason = "no CUDA device: " + reason;
        return reason + suffix;
    }
    const model::DeviceLimits& limits = device->limits;
    std::string text = format("GPU: {} · {} SMs · compute {}.{}", limits.name, limits.sm_count,
                              limits.compute_major, limits.compute_minor);
    if (limits.global_memory_bytes > 0) text += format(" · {} memory", model::human_bytes(limits.global_memory_bytes));
    if (device->free_memory_bytes > 0) text += format(" ({} free)", model::human_bytes(device->free_memory_bytes));
    if (!device->driver_version.empty()) text += format(" · driver {}", device->driver_version);
    return text;
}

void draw_status_bar(const AppState& state) {
    const std::string text = device_status(state.device);
    ImU32 colour = colours::kMuted;
    if (state.device) colour = state.device->usable ? colours::kPass : colours::kWarning;
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopStyleColor();
}

}  // namespace ts::views
