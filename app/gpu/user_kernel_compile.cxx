#include "user_kernel_compile.hpp"

#include <optional>
#include <utility>

#include "model/format.hpp"
#include "nvrtc_compiler.hpp"

namespace ts::gpu {

std::optional<std::pair<int, int>> parse_arch(const std::string& arch) {
    if (arch.size() < 5 || arch.size() > 6 || !arch.starts_with("sm_")) return std::nullopt;
    for (std::size_t i = 3; i < arch.size(); ++i)
        if (arch[i] < '0' || arch[i] > '9') return std::nullopt;
    const int number = std::stoi(arch.substr(3));
    if (number < 50) return std::nullopt;
    return std::pair{number / 10, number % 10};
}

UserCompileReport compile_user_source(const UserKernelSource& user, const std::string& arch, std::vector<char>* cubin) {
    UserCompileReport report;
    report.arch = arch;
    const auto numbers = parse_arch(arch);
    if (!numbers) {
        report.why =
            model::format_text("\"{}\" is not an architecture: write sm_ and a compute capability, like sm_90", arch);
        return report;
    }
    std::string why;
    const auto version = nvrtc_version(why);  // also loads NVRTC here, before the compiler's fork
    if (!version) {
        report.why = why;
        return report;
    }
    report.nvrtc_version = *version;
    CompileResult compiled = compile_user_kernel_with_deadline(user.source, user.name, numbers->first, numbers->second,
                                                               user.compile_limit_s);
    report.ok = compiled.ok;
    report.why = compiled.why;
    report.log = std::move(compiled.log);
    report.diagnostics = std::move(compiled.diagnostics);
    report.seconds = compiled.seconds;
    report.cubin_bytes = static_cast<std::int64_t>(compiled.cubin.size());
    if (cubin) *cubin = std::move(compiled.cubin);
    return report;
}

}  // namespace ts::gpu
