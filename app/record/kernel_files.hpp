// kernel_files.hpp — the learner's kernels on disk: .cu files under
// $XDG_DATA_HOME/tilescope/kernels/ (~/.local/share/tilescope/kernels/), read with the checks a
// kernel file must pass, written whole or not at all; and the editor's draft, which keeps unsaved
// edits across a crash under $XDG_STATE_HOME/tilescope/ (beside the session journals).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ts::record {

// The folder the editor opens and saves in ($XDG_DATA_HOME if absolute, else ~/.local/share).
std::filesystem::path user_kernels_dir();

// Why `name` cannot be a kernel file's name in that folder, or nullopt: it must end in .cu, hold
// no slash, not start with a dot, and be at most 100 bytes.
std::optional<std::string> kernel_name_problem(const std::string& name);

// The .cu files in `dir`, by name, sorted; none when it does not exist.
std::vector<std::string> list_kernel_files(const std::filesystem::path& dir);

// The file's text (index 0), or why it cannot be a kernel (index 1): missing, unreadable, or what
// model::user_kernel_problem says (empty, over 1 MiB, not text, no kernel with the signature).
std::variant<std::string, std::string> read_kernel_file(const std::filesystem::path& path);

// Writes `text` to `path` through a temporary file renamed over it, so a crash leaves the old file
// or the new one, never half of either; the folder is made if needed. Why not, or nullopt.
std::optional<std::string> write_kernel_file(const std::filesystem::path& path, const std::string& text);

// The editor's unsaved state: the file name it would be saved as, and the text.
struct KernelDraft {
    std::string name;
    std::string source;
    bool operator==(const KernelDraft&) const = default;
};

std::filesystem::path kernel_draft_path();  // $XDG_STATE_HOME/tilescope/kernel-draft.json
std::optional<std::string> save_draft(const std::filesystem::path& path, const KernelDraft& draft);
// The draft, or nullopt when there is none or it cannot be read (it is then left alone).
std::optional<KernelDraft> load_draft(const std::filesystem::path& path);
void remove_draft(const std::filesystem::path& path);

}  // namespace ts::record
