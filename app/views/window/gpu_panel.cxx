#include "views/window/gpu_panel.hpp"

#include <imgui.h>

#include <cstdio>
#include <thread>
#include <variant>

#include "model/format.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

using model::format_text;

namespace {

// The typed server as a target, or why it is refused (worker_target.hpp's sentence).
std::variant<gpu::WorkerTarget, std::string> chosen_target(const GpuChoice& choice) {
    if (!choice.on_server) return gpu::WorkerTarget{};
    if (choice.server.empty()) return std::string("type a server: ssh://user@host, or slurm");
    return gpu::parse_worker_target(choice.server);
}

}  // namespace

std::string describe_connection(const gpu::DeviceInfo& device) {
    if (!device.usable) return device.why_not;
    std::string text = device.limits.name;
    if (device.remote && !device.host.empty()) text += " on " + device.host;
    text += format_text(": driver {}, CUDA {}", device.driver_version, device.runtime_version);
    if (!device.gpu_lock.empty()) text += ", GPU queue " + device.gpu_lock;
    return text;
}

void draw_gpu_panel(GpuChoice& choice, double now) {
    if (!choice.backend_for) return;
    if (!ImGui::CollapsingHeader("GPU", ImGuiTreeNodeFlags_None)) return;
    int where = choice.on_server ? 1 : 0;
    ImGui::RadioButton("this machine", &where, 0);
    ImGui::SameLine();
    ImGui::RadioButton("a server", &where, 1);
    choice.on_server = where == 1;
    if (choice.on_server) {
        char server[256];
        std::snprintf(server, sizeof server, "%s", choice.server.c_str());
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
        if (ImGui::InputTextWithHint("##server", "ssh://user@host or slurm", server, sizeof server)) choice.server = server;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("ssh://[user@]host[:port]: runs `tilescope worker` there through your ssh (keys, agent,\n"
                              "~/.ssh/config as in a terminal; no password is asked here).\n"
                              "slurm or slurm:PARTITION: through srun --gres=gpu:1 on a cluster.");
    }
    const auto target = chosen_target(choice);
    const auto* refused = std::get_if<std::string>(&target);
    const bool testing = choice.test != nullptr;
    ImGui::BeginDisabled(refused != nullptr || testing);
    if (ImGui::Button(testing ? "Testing…" : "Test")) {
        const gpu::WorkerTarget& chosen = std::get<gpu::WorkerTarget>(target);
        choice.tested = gpu::describe(chosen);
        choice.test_result.clear();
        choice.test = std::make_shared<gpu::Runner>(choice.backend_for(chosen));
        choice.test_started = now;
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    const std::string wanted = refused ? std::string() : gpu::describe(std::get<gpu::WorkerTarget>(target));
    const bool pending = choice.pending > 0;
    ImGui::BeginDisabled(refused != nullptr || wanted == choice.in_use || choice.switch_to.has_value() || pending);
    if (ImGui::Button("Use")) choice.switch_to = std::get<gpu::WorkerTarget>(target);
    ImGui::EndDisabled();
    if (pending && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("measurements are under way: the GPU can be changed once they are done");
    if (refused && choice.on_server && !choice.server.empty()) {
        coloured_text_wrapped(colours::kError, refused->c_str());
    } else if (testing) {
        muted_text(format_text("connecting to {}… {} s", choice.tested, model::fixed(now - choice.test_started, 0)));
    } else if (!choice.test_result.empty()) {
        coloured_text_wrapped(choice.test_ok ? colours::kPass : colours::kError,
                              format_text("{}: {}", choice.tested, choice.test_result).c_str());
    }
    muted_text(format_text("in use: {}", choice.in_use == "local" ? std::string("this machine") : choice.in_use));
}

void apply_gpu_choice(GpuChoice& choice, std::optional<gpu::DeviceInfo>& device, gpu::Runner& runner) {
    choice.pending = runner.pending();
    if (choice.test) {
        if (const auto probed = choice.test->device()) {
            choice.test_ok = probed->usable;
            choice.test_result = describe_connection(*probed);
            // The probe is all it was for: its worker is ended off the UI thread (up to a second).
            std::thread([done = std::move(choice.test)] {}).detach();
        }
    }
    if (!choice.switch_to || !choice.backend_for) return;
    if (!runner.switch_backend(choice.backend_for(*choice.switch_to))) return;  // requests pending: next frame
    choice.in_use = gpu::describe(*choice.switch_to);
    choice.switch_to.reset();
    device.reset();  // probed anew: the status bar says "connecting to …" meanwhile
}

}  // namespace ts::views
