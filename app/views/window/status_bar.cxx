#include "views/window/status_bar.hpp"

#include <algorithm>
#include <cmath>

#include "model/format.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

using model::format_text;

std::string on_host(const gpu::DeviceInfo& device) {
    return device.remote && !device.host.empty() ? " on " + device.host : std::string();
}

std::string worker_status_text(const gpu::WorkerStatus& worker) {
    using Phase = gpu::WorkerStatus::Phase;
    switch (worker.phase) {
        case Phase::Connecting:
            return worker.server.empty() ? std::string("starting the GPU worker…") : format_text("connecting to {}…", worker.server);
        case Phase::Waiting: return format_text("waiting for the GPU: {} ahead", worker.ahead);
        case Phase::Reconnecting:
            return format_text("connection to {} lost: reconnecting in {} s", worker.server.empty() ? "the worker" : worker.server,
                               static_cast<int>(std::ceil(worker.retry_in_s)));
        case Phase::Failed: return worker.problem;
        case Phase::Ready: return {};
    }
    return {};
}

std::string device_status(const std::optional<gpu::DeviceInfo>& device) {
    if (!device) return "probing GPU…";
    if (!device->usable) {
        // Backends phrase their reason differently; say "no CUDA device" and "model mode" once each.
        const std::string suffix = " — model mode";
        std::string reason = device->why_not;
        if (reason.ends_with(suffix)) reason.erase(reason.size() - suffix.size());
        // A server's sentence names the server ("could not connect to gpu1 …").
        if (!reason.starts_with("no CUDA device") && !device->remote) reason = "no CUDA device: " + reason;
        return reason + suffix;
    }
    const model::DeviceLimits& limits = device->limits;
    std::string text = format_text("GPU: {}{} · {} SMs · compute {}.{}", limits.name, on_host(*device), limits.sm_count,
                              limits.compute_major, limits.compute_minor);
    if (limits.global_memory_bytes > 0) text += format_text(" · {} memory", model::human_bytes(limits.global_memory_bytes));
    if (device->free_memory_bytes > 0) text += format_text(" ({} free)", model::human_bytes(device->free_memory_bytes));
    if (!device->driver_version.empty()) text += format_text(" · driver {}", device->driver_version);
    return text;
}

std::string failure_status(const Failure& failure) {
    // The supervisor's sentences name the request ("… stopped during tiled T=1 float 2048³: …").
    if (failure.sentence.find(failure.what) != std::string::npos) return "failed: " + failure.sentence;
    return format_text("failed: {}: {}", failure.what, failure.sentence);
}

std::string short_device_status(const std::optional<gpu::DeviceInfo>& device) {
    if (!device) return "probing GPU…";
    if (!device->usable) return device->remote ? "no GPU on " + device->host + " — model mode" : "no CUDA device — model mode";
    return "GPU: " + device->limits.name + on_host(*device);
}

void draw_status_bar(const AppState& state) {
    // Settings problems and what the last key did, then who has the keys: a keyboard-only
    // user must always be able to tell whether Space plays the theatre or presses a button.
    // A problem comes first, where a long GPU message cannot push it off the edge.
    const std::string& notice = state.presentation.notice;
    const bool problem = !notice.empty() && state.presentation.notice_is_problem;
    if (problem) {
        ImGui::PushStyleColor(ImGuiCol_Text, colours::kError);
        ImGui::TextUnformatted(notice.c_str());
        ImGui::PopStyleColor();
        ImGui::SameLine(0.0f, ImGui::GetFontSize() * 2.0f);
    }
    // The latest failed measurement next, for the same reason; its view has the mark to click.
    if (const Failure* failed = latest_failure(state.lab.measured.failures)) {
        ImGui::PushStyleColor(ImGuiCol_Text, colours::kError);
        ImGui::TextUnformatted(failure_status(*failed).c_str());
        ImGui::PopStyleColor();
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s failed:\n%s\nIn the lab's views its point, cell or bar is marked failed: click it "
                              "there to measure it again.",
                              failed->what.c_str(), failed->sentence.c_str());
        ImGui::SameLine(0.0f, ImGui::GetFontSize() * 2.0f);
    }
    // The device's line in full, or, where it would run off the window or leave the notice no
    // room (large text, a long reason), in its short form with the whole of it on hover.
    const std::string full = !state.device && !state.worker.server.empty()
                                 ? format_text("connecting to {}…", state.worker.server)
                                 : device_status(state.device);
    const float room = ImGui::GetWindowContentRegionMax().x - ImGui::GetCursorPosX();
    const bool notice_after = !notice.empty() && !problem;
    const float notice_w = notice_after ? ImGui::GetFontSize() * 2.0f + ImGui::CalcTextSize(notice.c_str()).x : 0.0f;
    const bool shortened = ImGui::CalcTextSize(full.c_str()).x + notice_w > room;
    ImU32 colour = colours::kMuted;
    if (state.device) colour = state.device->usable ? colours::kPass : colours::kWarning;
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextUnformatted(shortened ? short_device_status(state.device).c_str() : full.c_str());
    ImGui::PopStyleColor();
    if (shortened && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", full.c_str());
    // The worker's state beside it: a request waiting its turn at a shared GPU, a lost connection.
    const bool said = !state.device || (!state.device->usable && state.worker.phase == gpu::WorkerStatus::Phase::Failed);
    if (const std::string worker = said ? std::string() : worker_status_text(state.worker); !worker.empty()) {
        ImGui::SameLine(0.0f, ImGui::GetFontSize() * 2.0f);
        ImGui::PushStyleColor(ImGuiCol_Text, colours::kWarning);
        ImGui::TextUnformatted(worker.c_str());
        ImGui::PopStyleColor();
        if (!state.worker.problem.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", state.worker.problem.c_str());
    }
    if (notice_after) {
        ImGui::SameLine(0.0f, ImGui::GetFontSize() * 2.0f);
        ImGui::PushStyleColor(ImGuiCol_Text, colours::kMuted);
        ImGui::TextUnformatted(notice.c_str());
        ImGui::PopStyleColor();
    }
    // At the right end, the long form when there is room, else the short one, else nothing.
    const bool widgets = (ImGui::GetIO().ConfigFlags & ImGuiConfigFlags_NavEnableKeyboard) != 0;
    const char* forms[] = {widgets ? "keys: the panels (Escape: to the view) · F1: all keys"
                                   : "keys: the view (Tab: to the panels) · F1: all keys",
                           widgets ? "keys: panels · F1" : "keys: view · F1"};
    ImGui::SameLine(0.0f, ImGui::GetFontSize() * 2.0f);
    const float left = ImGui::GetCursorPosX(), right = ImGui::GetWindowContentRegionMax().x;
    for (const char* keys : forms) {
        const float width = ImGui::CalcTextSize(keys).x;
        if (left + width > right) continue;
        ImGui::SameLine(right - width);
        ImGui::PushStyleColor(ImGuiCol_Text, colours::kMuted);
        ImGui::TextUnformatted(keys);
        ImGui::PopStyleColor();
        return;
    }
    ImGui::Dummy(ImVec2(0.0f, 0.0f));  // ends the line SameLine() opened
}

}  // namespace ts::views
