#include "record/kernel_files.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include "json_document.hpp"
#include "model/format.hpp"
#include "model/user_kernel/source.hpp"

namespace ts::record {

namespace {

using model::format_text;

std::filesystem::path home() {
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home && *home ? home : "/tmp");
}

}  // namespace

std::filesystem::path user_kernels_dir() {
    // The XDG base directory specification ignores a relative $XDG_DATA_HOME.
    if (const char* data = std::getenv("XDG_DATA_HOME"); data && *data == '/')
        return std::filesystem::path(data) / "tilescope" / "kernels";
    return home() / ".local" / "share" / "tilescope" / "kernels";
}

std::filesystem::path kernel_draft_path() {
    if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state == '/')
        return std::filesystem::path(state) / "tilescope" / "kernel-draft.json";
    return home() / ".local" / "state" / "tilescope" / "kernel-draft.json";
}

std::optional<std::string> kernel_name_problem(const std::string& name) {
    if (name.size() < 4 || !name.ends_with(".cu")) return format_text("\"{}\": a kernel file's name ends in .cu", name);
    if (name.size() > 100) return std::string("a kernel file's name may have at most 100 bytes");
    if (name.find('/') != std::string::npos || name.find('\0') != std::string::npos)
        return format_text("\"{}\": a name, not a path: the file goes in {}", name, user_kernels_dir().string());
    if (name.front() == '.') return format_text("\"{}\": a name that starts with a dot would be hidden", name);
    return std::nullopt;
}

std::vector<std::string> list_kernel_files(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    std::error_code error;
    for (auto it = std::filesystem::directory_iterator(dir, error); !error && it != std::filesystem::directory_iterator();
         it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (!kernel_name_problem(name) && it->is_regular_file(error)) names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::variant<std::string, std::string> read_kernel_file(const std::filesystem::path& path) {
    using Result = std::variant<std::string, std::string>;
    std::ifstream in(path, std::ios::binary);
    if (!in) return Result(std::in_place_index<1>, format_text("cannot open {} (missing, or no permission to read it)",
                                                               path.string()));
    // Read at most one byte past the limit: enough to say the file is too large.
    std::string source(static_cast<std::size_t>(model::kMostUserKernelBytes) + 1, '\0');
    in.read(source.data(), static_cast<std::streamsize>(source.size()));
    source.resize(static_cast<std::size_t>(in.gcount()));
    if (auto problem = model::user_kernel_problem(source))
        return Result(std::in_place_index<1>, format_text("{}: {}", path.string(), *problem));
    return Result(std::in_place_index<0>, std::move(source));
}

std::optional<std::string> write_kernel_file(const std::filesystem::path& path, const std::string& text) {
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    if (error) return format_text("cannot make {}: {}", path.parent_path().string(), error.message());
    const std::filesystem::path temporary = path.string() + format_text(".{}.tmp", getpid());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) {
            std::filesystem::remove(temporary, error);
            return format_text("cannot write {} (a full disk, or no permission)", path.string());
        }
    }
    std::filesystem::rename(temporary, path, error);
    if (error) {
        std::filesystem::remove(temporary, error);
        return format_text("cannot write {}: {}", path.string(), error.message());
    }
    return std::nullopt;
}

std::optional<std::string> save_draft(const std::filesystem::path& path, const KernelDraft& draft) {
    const Json json = {{"draft", "tilescope-kernel"}, {"name", draft.name}, {"source", draft.source}};
    // Invalid UTF-8 is replaced rather than thrown: a draft is kept whatever was typed.
    return write_kernel_file(path, json.dump(1, ' ', false, Json::error_handler_t::replace));
}

std::optional<KernelDraft> load_draft(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    const Json json = Json::parse(in, nullptr, false);
    if (!json.is_object() || json.value("draft", "") != "tilescope-kernel") return std::nullopt;
    const auto name = json.find("name");
    const auto source = json.find("source");
    if (name == json.end() || source == json.end() || !name->is_string() || !source->is_string()) return std::nullopt;
    return KernelDraft{name->get<std::string>(), source->get<std::string>()};
}

void remove_draft(const std::filesystem::path& path) {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
}

}  // namespace ts::record
