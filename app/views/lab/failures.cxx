#include "views/lab/failures.hpp"

#include <algorithm>

#include "model/format.hpp"
#include "views/common/theme.hpp"
#include "views/lab/lab_state.hpp"

namespace ts::views {

using model::format_text;

namespace {

bool same_point(const gpu::RunRequest& a, const gpu::RunRequest& b) {
    return request_config(a) == request_config(b) && a.problem.m == b.problem.m &&
           a.problem.n == b.problem.n && a.problem.k == b.problem.k && a.problem.batch == b.problem.batch &&
           a.problem.dtype == b.problem.dtype;
}

// A recorded point of the point `request` measures, cold as the lab's views plot them.
bool point_of(const record::Point& p, const std::string& config, const gpu::RunRequest& request) {
    const model::Problem& q = request.problem;
    return p.config == config && p.m == q.m && p.n == q.n && p.k == q.k && p.batch == q.batch &&
           p.dtype == model::dtype_name(q.dtype) && p.mode == "cold";
}

// A pale red, so that the word "failed" in the theme's red reads on it.
ImU32 pale(ImU32 colour) {
    const auto towards_white = [&](int shift) {
        const ImU32 c = (colour >> shift) & 0xFF;
        return c + (255 - c) * 7 / 8;
    };
    return IM_COL32(towards_white(IM_COL32_R_SHIFT), towards_white(IM_COL32_G_SHIFT), towards_white(IM_COL32_B_SHIFT),
                    255);
}

}  // namespace

void note_measure_result(Failures& failures, const gpu::RunResult& result) {
    if (result.request.kind != gpu::RequestKind::Measure || result.superseded_by != 0) return;
    std::erase_if(failures.failed, [&](const Failure& f) { return same_point(f.request, result.request); });
    if (result.ok) return;
    failures.failed.push_back({result.request, gpu::describe_point(result.request),
                               result.error.empty() ? std::string("the runner gave no reason") : result.error, false,
                               failures.next_serial++});
    if (failures.keep_unreported) failures.unreported.push_back(failures.failed.back());
}

std::optional<Failure> failure_at(const LabMeasurements& measured, const std::vector<const record::Point*>& points,
                                  const gpu::RunRequest& request) {
    for (const Failure& f : measured.failures.failed)
        if (same_point(f.request, request)) return f;
    // A recorded failure counts only where no point of the same kernel and size succeeded.
    const std::string config = request_config(request);
    const record::Point* failed = nullptr;
    for (const record::Point* p : points) {
        if (!point_of(*p, config, request)) continue;
        if (p->ok) return std::nullopt;
        failed = p;
    }
    if (!failed) return std::nullopt;
    return Failure{request, gpu::describe_point(request), failed->error.empty() ? "no reason recorded" : failed->error, true, 0};
}

const Failure* latest_failure(const Failures& failures) {
    const auto latest = std::max_element(failures.failed.begin(), failures.failed.end(),
                                         [](const Failure& a, const Failure& b) { return a.serial < b.serial; });
    return latest == failures.failed.end() ? nullptr : &*latest;
}

void measure_again(LabMeasurements& measured, const Failure& failure) {
    request_live(measured, "again/" + failure.what, failure.request);
}

std::string failure_tooltip(const Failure& failure, bool can_measure) {
    std::string text = format_text("{} failed{}:\n{}", failure.what, failure.recorded ? " when it was recorded" : "",
                                   failure.sentence);
    text += can_measure ? "\nClick to measure it again." : "\nMeasuring it again needs a usable CUDA GPU.";
    return text;
}

bool failed_box(ImDrawList* draw, ImVec2 a, ImVec2 b, ImVec2 text_at, const Failure& failure, bool can_measure) {
    draw->AddRectFilled(a, b, pale(colours::kError));
    draw->AddRect(a, b, colours::kError, 0.0f, 0, 2.0f);
    // A small × before the word, as on the plots' failed marks.
    const float font = ImGui::GetFontSize();
    const float r = font * 0.25f;
    const ImVec2 c(text_at.x + r, text_at.y + font * 0.5f);
    draw->AddLine(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), colours::kError, 2.0f);
    draw->AddLine(ImVec2(c.x - r, c.y + r), ImVec2(c.x + r, c.y - r), colours::kError, 2.0f);
    // Where the box is wide enough, how to learn more and what to do about it.
    const ImVec2 word(text_at.x + r * 2.0f + font * 0.3f, text_at.y);
    const char* hint = can_measure ? "failed: hover for why, click to measure again" : "failed: hover for why";
    draw->AddText(word, colours::kError, word.x + ImGui::CalcTextSize(hint).x + font * 0.3f <= b.x ? hint : "failed");
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool hovered = ImGui::IsWindowHovered() && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y;
    if (!hovered) return false;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(font * 34.0f);
    ImGui::TextUnformatted(failure_tooltip(failure, can_measure).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
    return can_measure && ImGui::IsMouseClicked(ImGuiMouseButton_Left);
}

}  // namespace ts::views
