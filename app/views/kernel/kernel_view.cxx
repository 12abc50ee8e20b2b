#include "views/kernel/kernel_view.hpp"

#include <algorithm>
#include <filesystem>

#include "model/format.hpp"
#include "record/kernel_files.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/kernel/kernel_editor.hpp"
#include "views/kernel/kernel_results.hpp"
#include "views/lab/latency_view.hpp"
#include "views/window/side_column.hpp"

namespace ts::views {

namespace {

using model::format_text;

void wrapped(ImU32 colour, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

void draw_file_row(KernelEditorState& editor) {
    ImGui::TextUnformatted("File");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
    input_string("##name", editor.name_field);
    ImGui::SameLine();
    if (ImGui::Button("Save")) save_kernel(editor, editor.name_field);
    if (ImGui::Button("Open…")) {
        editor.files = record::list_kernel_files(record::user_kernels_dir());
        ImGui::OpenPopup("##open");
    }
    ImGui::SameLine();
    if (ImGui::Button("New from…")) ImGui::OpenPopup("##starters");
    if (ImGui::BeginPopup("##open")) {
        if (editor.files.empty())
            muted_text(format_text("no kernels saved in {} yet", record::user_kernels_dir().string()));
        for (const std::string& file : editor.files)
            if (ImGui::Selectable(file.c_str())) open_kernel(editor, file);
        ImGui::EndPopup();
    }
    if (ImGui::BeginPopup("##starters")) {
        for (const model::Starter starter : model::kAllStarters) {
            const std::string label = starter == model::Starter::Empty
                                          ? std::string("the empty kernel: one thread per cell, the loop left to you")
                                          : format_text("the {} rung's own kernel", model::starter_name(starter));
            if (ImGui::Selectable(label.c_str())) start_from(editor, starter);
        }
        ImGui::EndPopup();
    }
    if (unsaved(editor)) wrapped(colours::kWarning, format_text("{}: unsaved (a draft is kept in case TileScope stops)", editor.name));
    else muted_text(format_text("{}: saved", editor.name));
    if (!editor.notice.empty()) muted_text(editor.notice);
}

// One launch expression's field; true when it was edited.
bool expression_field(const char* label, std::string& text, float width) {
    ImGui::SetNextItemWidth(width);
    return input_string(label, text);
}

void draw_launch(KernelEditorState& editor, const AppState& app) {
    heading("Launch");
    muted_text("Expressions of M, N and K (cdiv rounds up), kept in the source's // grid:, // block: and // shared: "
               "lines.");
    model::LaunchExpressions launch = editor.launch;
    // Two fields a row, after a label column as wide as the widest label.
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float label_width = ImGui::CalcTextSize("shared").x + spacing;
    const float width =
        (ImGui::GetContentRegionAvail().x - label_width - 2.0f * spacing - ImGui::CalcTextSize("×").x) / 2.0f;
    bool edited = false;
    const float field_x = ImGui::GetCursorPosX() + label_width;
    const auto row = [&](const char* label, const char* id_x, std::string& x, const char* id_y, std::string* y) {
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(label);
        ImGui::SameLine(field_x);
        edited |= expression_field(id_x, x, width);
        if (!y) return;
        ImGui::SameLine();
        ImGui::TextUnformatted("×");
        ImGui::SameLine();
        edited |= expression_field(id_y, *y, width);
    };
    row("grid", "##grid_x", launch.grid_x, "##grid_y", &launch.grid_y);
    row("block", "##block_x", launch.block_x, "##block_y", &launch.block_y);
    row("shared", "##shared", launch.shared, nullptr, nullptr);
    ImGui::SameLine();
    ImGui::TextUnformatted("bytes");
    if (edited) set_launch(editor, launch);
    if (!editor.launch_problem.empty()) wrapped(colours::kError, editor.launch_problem);

    const model::Problem p{editor.measure_size, editor.measure_size, editor.measure_size, 1, model::Dtype::Float32};
    const auto resolved = model::resolve_launch(editor.launch, p);
    if (const auto* why = std::get_if<std::string>(&resolved)) {
        wrapped(colours::kError, format_text("at {}³: {}", editor.measure_size, *why));
        return;
    }
    const model::UserLaunchShape& s = std::get<model::UserLaunchShape>(resolved);
    const model::DeviceLimits limits = launch_limits(app);
    if (const auto refused = model::launch_refused(s, limits))
        wrapped(colours::kError, format_text("at {}³ the GPU would refuse it: {}", editor.measure_size, *refused));
    else
        muted_text(format_text("at {}³: {} blocks of {} threads, {} bytes of dynamic shared memory", editor.measure_size,
                               s.grid_x * s.grid_y, s.block_x * s.block_y, s.shared_bytes));
}

// Your kernel as one more series of the latency view, as its source is now, measured at once.
void plot_beside_rungs(LabState& lab, ViewId& view, const KernelEditorState& editor) {
    LatencyControls& latency = lab.choices.latency;
    latency.yours = user_source(editor);
    latency.dtype = model::Dtype::Float32;
    latency.batch = 1;
    view = ViewId::Latency;
    measure_latency_now(lab);
}

// Writes the editor's state; "Plot beside the rungs" writes the lab's latency view and switches to it.
void draw_actions(KernelEditorState& editor, LabState& lab, ViewId& view, const AppState& app) {
    heading("Run");
    const bool busy = job_running(editor);
    const bool probed = app.device.has_value();
    const bool gpu = probed && app.device->usable;
    ImGui::BeginDisabled(busy || !probed);
    if (ImGui::Button("Compile")) start_job(editor, KernelJob::Compile);
    ImGui::SameLine();
    ImGui::BeginDisabled(!gpu);
    if (ImGui::Button("Run checks")) start_job(editor, KernelJob::Check);
    ImGui::SameLine();
    if (ImGui::Button("Measure")) start_job(editor, KernelJob::Measure);
    ImGui::SameLine();
    if (ImGui::Button("Record")) start_job(editor, KernelJob::Record);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("Run it once at %d³ built to note every A[i], B[i], C[i], shared-memory access and barrier of "
                          "every thread: the counts, bank conflicts and races by line, and for a kernel shaped like the "
                          "tiled rung a replay in the theatre",
                          editor.record_size);
    if (ImGui::Button("Plot beside the rungs")) plot_beside_rungs(lab, view, editor);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("The latency view with \"yours: %s\" as one more curve, measured now at %d³ (float, batch 1)",
                          editor.name.c_str(), app.lab.choices.latency.size);
    ImGui::EndDisabled();
    ImGui::EndDisabled();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
    ImGui::InputInt("runs a size", &editor.runs, 1, 10);
    editor.runs = std::clamp(editor.runs, 1, model::kMaxExperimentRuns);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
    ImGui::InputInt("M = N = K measured", &editor.measure_size, 256, 1024);
    editor.measure_size = std::clamp(editor.measure_size, 1, 16384);
    muted_text(format_text("measured beside {}", model::describe(editor.beside)));
    if (!probed) muted_text("still probing for a CUDA GPU…");
    else if (!gpu) wrapped(colours::kWarning, "Compiling needs no GPU; running and measuring do: " + app.device->why_not);
    if (busy) {
        ImGui::TextUnformatted(job_progress(editor).c_str());
        ImGui::SameLine();
        if (ImGui::SmallButton("Cancel")) cancel_job(editor);
    }
    if (!editor.job_note.empty()) wrapped(colours::kWarning, editor.job_note);
}

void draw_compiler(KernelEditorState& editor) {
    heading("Compiler");
    if (!editor.compile) {
        if (!editor.compile_error.empty()) wrapped(colours::kError, editor.compile_error);
        else muted_text("Compile (or Run checks, Measure) sends the source to NVRTC in the GPU worker.");
        return;
    }
    const gpu::UserCompileReport& report = *editor.compile;
    if (report.ok)
        wrapped(colours::kPass, format_text("compiled for {} with NVRTC {}{}: {} bytes of machine code", report.arch,
                                            report.nvrtc_version,
                                            report.reused ? "" : format_text(" in {} s", model::fixed(report.seconds, 2)),
                                            report.cubin_bytes));
    else
        wrapped(colours::kError, report.why);
    if (editor.compiled_revision != editor.revision)
        muted_text("The text has changed since: compile again to see its messages.");
    if (const auto& o = editor.occupancy; o && report.ok)
        muted_text(format_text("{} registers a thread, {} bytes of static shared memory, {} bytes of local memory; {} "
                               "an SM",
                               o->registers_per_thread, o->static_shared_bytes, o->local_bytes_per_thread,
                               model::counted(o->blocks_per_sm, "block")));
    int index = 0;
    for (const model::Diagnostic& d : report.diagnostics) {
        ImGui::PushID(index++);
        const ImU32 colour = d.severity == model::Severity::Error     ? colours::kError
                             : d.severity == model::Severity::Warning ? colours::kWarning
                                                                      : colours::kMuted;
        ImGui::PushStyleColor(ImGuiCol_Text, colour);
        const std::string text = format_text("line {}{}: {}: {}", d.line,
                                             d.column > 0 ? format_text(", column {}", d.column) : std::string(),
                                             model::severity_name(d.severity), d.message);
        ImGui::PushTextWrapPos(0.0f);
        if (ImGui::Selectable(text.c_str())) {
            editor.jump_to_line = d.line;
            editor.jump_focused = false;
        }
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Click: the cursor goes to line %d", d.line);
        ImGui::PopID();
    }
    if (!report.ok && report.diagnostics.empty() && !report.log.empty()) {
        ImGui::PushFont(code_font());
        ImGui::TextWrapped("%s", report.log.c_str());
        ImGui::PopFont();
    }
}

}  // namespace

std::optional<std::string> open_kernel_flag(KernelEditorState& editor, const std::string& file) {
    std::filesystem::path path(file);
    if (!path.has_parent_path()) path = record::user_kernels_dir() / file;
    auto read = record::read_kernel_file(path);
    if (read.index() == 1) return std::get<1>(read);
    editor.started = true;
    editor.name = editor.name_field = path.filename().string();
    editor.source = editor.saved_source = std::move(std::get<0>(read));
    source_changed(editor);
    editor.draft_revision = editor.revision;
    editor.notice = format_text("opened {}", path.string());
    return std::nullopt;
}

bool draw_kernel_view(KernelEditorState& editor, LabState& lab, ViewId& view, const ColumnEdits& edits,
                      const AppState& app, float bottom_reserve) {
    start_editor(editor);
    keep_draft(editor, ImGui::GetTime());

    const float panel_width = std::min(ImGui::GetFontSize() * 26.0f, ImGui::GetContentRegionAvail().x * 0.38f);
    const SideColumn column = begin_side_column(edits, app, "##kernel_panel", panel_width, bottom_reserve);
    if (column.panel) {
        heading("Your kernel");
        muted_text("C = A·B in float, row-major: A is M×K, B is K×N. Write the kernel, run it on the GPU, compare "
                   "it with the rungs.");
        draw_file_row(editor);
        ImGui::Separator();
        draw_launch(editor, app);
        ImGui::Separator();
        draw_actions(editor, lab, view, app);
        ImGui::Separator();
        draw_compiler(editor);
    }
    end_side_column(edits.presentation, app, column);

    ImGui::SameLine();
    ImGui::BeginChild("##kernel_main", ImVec2(0.0f, -bottom_reserve), false);
    const ImVec2 room = ImGui::GetContentRegionAvail();
    const bool results = !editor.checks.empty() || editor.mine || editor.recorded;
    draw_kernel_editor(editor, ImVec2(room.x, results ? room.y * 0.58f : room.y - ImGui::GetFrameHeightWithSpacing() * 2.0f));
    ImGui::BeginChild("##kernel_results", ImVec2(0.0f, 0.0f), false);
    const bool to_theatre = draw_kernel_results(editor);
    ImGui::EndChild();
    ImGui::EndChild();
    return to_theatre;
}

}  // namespace ts::views
